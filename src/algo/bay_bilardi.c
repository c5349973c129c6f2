/* algorithm=bay_bilardi: Bay & Bilardi's deterministic on-line routing on the pruned
 * butterfly (000 §3.3, Theorem 1). This file: its option, the record (with Lemma 6 and 7
 * judged by the analysis layer's lambda(M) and d(M)) and the registry entry; the stages are
 * bay_bilardi_route.c, the cost model bay_bilardi_cost.c (docs/bay-bilardi.md). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "routesim/algo.h"
#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/bay_bilardi.h"
#include "routesim/buf.h"
#include "routesim/engine.h"
#include "routesim/load_factor.h"
#include "routesim/sorting_fat_tree.h"

static const struct rs_optdef bb_options[] = {
    {"bits", RS_OPT_INT, "0", 0, 1 << 20, NULL,
     "body bits b of every message (000 §2: b = Theta(log N)); 0 = log2 N. Time is counted "
     "in bit steps (docs/bay-bilardi.md)", "bits"},
    {"butterfly", RS_OPT_BOOL, "0", 0, 0, NULL,
     "also route the same messages greedily on the plain N-input butterfly (switching="
     "wormhole, one virtual channel of one flit, a flit = a bit, log2 N + b bits per message) "
     "and report its makespan as butterfly_bit_steps", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* The baseline beside the algorithm: greedy bit-serial routing of the same message set on
 * the plain butterfly of N inputs (no wrap-around), through the wormhole engine with one
 * virtual channel of one flit per channel and messages of log2 N + b one-bit flits (the
 * destination, then the body), so that one flit step is one bit step. *steps gets its
 * makespan (UNITS: bit steps). */
static int butterfly_bit_steps(const struct rs_engine_input *in, uint32_t n, uint32_t b,
                               uint64_t *steps, struct rs_err *err)
{
    struct rs_params bp;
    struct rs_net net;
    char v[32];
    int rc;
    rs_params_init(&bp);
    memset(&net, 0, sizeof net);
    snprintf(v, sizeof v, "%u", in->net->n_terminals);
    rc = rs_params_set(&bp, "topology", "butterfly", "bay_bilardi", 0, err);
    rc = rc ? rc : rs_params_set(&bp, "N", v, "bay_bilardi", 0, err);
    snprintf(v, sizeof v, "%u", n + b);
    rc = rc ? rc : rs_params_set(&bp, "length", v, "bay_bilardi", 0, err);
    rc = rc ? rc : rs_params_set(&bp, "switching", "wormhole", "bay_bilardi", 0, err);
    rc = rc ? rc : rs_net_build(&net, &bp, err);
    if (!rc) {
        struct rs_result res;
        struct rs_record tmp;
        char dl[256];
        struct rs_engine_input bin = {.net = &net, .pb = in->pb, .params = &bp,
                                      .routing = RS_ROUTING_DIRECT, .seed = in->seed,
                                      .result = &res};
        rs_record_init(&tmp);
        rc = rs_engine_run(rs_engine_find("wormhole"), &bin, &tmp, dl, sizeof dl, err);
        if (!rc && (res.deadlock || res.delivered != (int64_t)in->pb->n_msgs))
            rc = rs_err_set(err, RS_EUNFINISHED,
                            "algorithm=bay_bilardi: the butterfly baseline did not deliver "
                            "every message");
        *steps = rc ? 0 : (uint64_t)res.makespan;
        rs_record_free(&tmp);
    }
    rs_net_free(&net);
    rs_params_free(&bp);
    return rc;
}

static int join_u64(struct rs_buf *b, const uint64_t *v, uint32_t n)
{
    int rc = 0;
    for (uint32_t i = 0; i < n && !rc; i++)
        rc = rs_buf_printf(b, "%s%" PRIu64, i ? ";" : "", v[i]);
    return rc;
}

static int record(struct rs_record *out, const struct rs__bb_run *r, double lambda,
                  uint64_t degree)
{
    uint32_t n = r->pb->ft.n;
    uint64_t lam_ceil = (uint64_t)ceil(lambda - 1e-12), bound6 = 2 * lam_ceil;
    uint64_t bound7 = (degree + 1) * n + degree, tmp[RS_FT_MAX_LOG2N];
    double lam1 = lambda > 1 ? lambda : 1;
    /* Theorem 1 with the cost model's constants: set-up + sum over the stages of the
     * partition and 2 ceil(lambda) batches (Lemma 6) */
    struct rs__bb_cost cm;
    struct rs__bb_stage_cost sc;
    uint64_t bound1 = r->setup;
    rs__bb_cost_init(&cm, n, r->bits, r->m);
    for (uint32_t i = 0; i < n; i++) {
        rs__bb_stage_cost(&cm, i, &sc);
        bound1 += sc.partition + bound6 * sc.batch;
    }
    char l6[160], l7[160];
    struct rs_buf st, sl;
    int rc = 0;
    if (r->lambda_t_max > bound6)
        snprintf(l6, sizeof l6, "stage %u subtree %u: lambda_T=%u > 2ceil(lambda)=%" PRIu64,
                 r->lt_stage, r->lt_subtree, r->lambda_t_max, bound6);
    else
        snprintf(l6, sizeof l6, "none");
    if (r->sidetrack_max > bound7)
        snprintf(l7, sizeof l7,
                 "leaf %u stage %u batch %u: %" PRIu64 " sidetracked > (d+1)logN+d=%" PRIu64,
                 r->st_leaf, r->st_stage, r->st_round, r->sidetrack_max, bound7);
    else
        snprintf(l7, sizeof l7, "none");
    rs_buf_init(&st);
    rs_buf_init(&sl);
    rc |= join_u64(&st, r->stage_steps, n);
    for (uint32_t i = 0; i < n; i++)
        tmp[i] = r->stage_lambda[i];
    rc |= join_u64(&sl, tmp, n);
    rc |= rs_metric_int(out, RS_M_MAKESPAN, (int64_t)r->makespan);
    rc |= rs_metric_int(out, RS_M_MESSAGES, (int64_t)r->m);
    rc |= rs_metric_int(out, RS_M_DELIVERED, (int64_t)r->delivered);
    rc |= rs_metric_double(out, RS_M_LATENCY_MEAN, r->latency_mean);
    rc |= rs_metric_double(out, RS_M_LATENCY_P99, r->latency_p99);
    rc |= rs_metric_double(out, RS_M_LATENCY_MAX, r->delivered ? (double)r->makespan : NAN);
    rc |= rs_metric_int(out, RS_M_BIT_STEPS, (int64_t)r->bit_steps);
    rc |= rs_metric_string(out, RS_M_STAGE_BIT_STEPS, st.data ? st.data : "");
    rc |= rs_metric_string(out, RS_M_STAGE_LAMBDA_T, sl.data ? sl.data : "");
    rc |= rs_metric_int(out, RS_M_BATCH_ROUNDS, (int64_t)r->batch_rounds);
    rc |= rs_metric_int(out, RS_M_COMPRESSION_CONFLICTS, (int64_t)r->compression_conflicts);
    rc |= rs_metric_int(out, RS_M_SIDETRACKS, (int64_t)r->sidetracks);
    rc |= rs_metric_int(out, RS_M_LE1_BATCHES, (int64_t)r->le1_batches);
    rc |= rs_metric_int(out, RS_M_LE1_CONFLICTS, (int64_t)r->le1_conflicts);
    rc |= rs_metric_int(out, RS_M_LAMBDA_T_MAX, r->lambda_t_max);
    rc |= rs_metric_int(out, RS_M_BOUND_LAMBDA_T, (int64_t)bound6);
    rc |= rs_metric_double(out, RS_M_LAMBDA_T_OVER_BOUND,
                           bound6 ? (double)r->lambda_t_max / (double)bound6 : 0);
    rc |= rs_metric_string(out, RS_M_LEMMA6_VIOLATION, l6);
    rc |= rs_metric_int(out, RS_M_SIDETRACK_MAX, (int64_t)r->sidetrack_max);
    rc |= rs_metric_int(out, RS_M_BOUND_SIDETRACK, (int64_t)bound7);
    rc |= rs_metric_double(out, RS_M_SIDETRACK_OVER_BOUND,
                           (double)r->sidetrack_max / (double)bound7);
    rc |= rs_metric_string(out, RS_M_LEMMA7_VIOLATION, l7);
    rc |= rs_metric_double(out, RS_M_BOUND_BIT_STEPS, (double)bound1);
    rc |= rs_metric_double(out, RS_M_BIT_STEPS_OVER_BOUND,
                           (double)r->bit_steps / (double)bound1);
    rc |= rs_metric_double(out, RS_M_THEOREM1_RATIO,
                           (double)r->bit_steps / (lam1 * (double)n * (double)n));
    rc |= st.failed || sl.failed;
    rs_buf_free(&st);
    rs_buf_free(&sl);
    return rc ? RS_ENOMEM : 0;
}

static int bb_run(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                  struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                  struct rs_err *err)
{
    RS_ASSERT(engine == NULL); /* a timed model (rs_algo_ops.timed): no step simulation */
    (void)deadlock_len;
    if (deadlock_msg)
        deadlock_msg[0] = 0;
    const struct rs__pb *pb = rs__pb_of(in->net);
    int64_t bits;
    int rc, with_bf;
    RS_ASSERT(pb != NULL); /* needs RS_CAP_PRUNED_BUTTERFLY: rs_algo_check */
    if ((rc = rs_opt_int(in->params, bb_options, "bits", &bits, err)) ||
        (rc = rs_opt_bool(in->params, bb_options, "butterfly", &with_bf, err)))
        return rc;
    if (!rs_route_is_direct(in->routing))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=bay_bilardi chooses every path itself (000 §3.3): "
                          "routing must be direct");
    const struct rs_problem *p = in->pb;
    uint32_t *src = rs_malloc((p->n_msgs ? p->n_msgs : 1) * sizeof *src);
    if (!src)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the message sources");
    for (uint64_t m = 0; m < p->n_msgs; m++)
        src[m] = rs_problem_src(p, m);
    struct rs__bb_run r = {.pb = pb, .m = p->n_msgs, .src = src, .dst = p->dst,
                           .bits = bits ? (uint32_t)bits : pb->ft.n};
    /* Lemma 6 and 7 are judged by lambda(M) and d(M) of the analysis layer (the run's
     * load_factor and degree columns) */
    struct rs_load_factor lf;
    if ((rc = rs_load_factor_compute(&lf, &pb->ft, p, err))) {
        rs_free(src);
        return rc;
    }
    rc = rs__bb_route(&r, err);
    if (!rc && (record(out, &r, lf.load_factor, lf.degree) ||
                rs__area_record(out, (double)pb->ft.N * pb->ft.n * pb->ft.n, r.bit_steps,
                                r.bits, lf.reference_load_factor, pb->ft.N)))
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
    uint64_t bf = 0;
    if (!rc && with_bf && !(rc = butterfly_bit_steps(in, pb->ft.n, r.bits, &bf, err)) &&
        rs_metric_int(out, RS_M_BUTTERFLY_BIT_STEPS, (int64_t)bf))
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
    rs_load_factor_free(&lf);
    rs_free(src);
    return rc;
}

static const char *const bb_switching[] = {"circuit", NULL};

const struct rs_algo_ops rs_algo_bay_bilardi = {
    .name = "bay_bilardi",
    .summary = "000 §3.3: stages by peak level, lambda_T batches per subtree compressed, "
               "sorted and expanded with sidetracking; time in bit steps",
    .options = bb_options,
    .switching = bb_switching,
    .timed = 1,
    .needs = RS_CAP_PRUNED_BUTTERFLY,
    .run = bb_run,
};
