/* algorithm=ms_mesh and ms_torus: Makedon–Symvonis's Route_on_a_Square_Mesh (003 §3) and its
 * torus form (§4), with one, two (§3.3) or four (§4.3) snakes per packet; options, checks
 * and the record (bounds beside measurements). Steps 1-4: ms_phases.c. docs/ms-mesh.md. */
#include <math.h>
#include <string.h>

#include "algo/ms_run.h"
#include "routesim/algo.h"
#include "routesim/alloc.h"
#include "routesim/metrics.h"

static const char *const colouring_names[] = {"A", "B", "C", "random", NULL};
static const char *const f_names[] = {"log", "sqrt", NULL};
static const char *const snakes_names[] = {"1", "2", "4", NULL};
static const char *const step4_names[] = {"lemma7", "farthest", NULL};
static const char *const sort_names[] = {"shearsort", "schnorr_shamir", NULL};

static const struct rs_optdef ms_options[] = {
    {"colouring", RS_OPT_CHOICE, "A", 0, 0, colouring_names,
     "step 1: A chessboard by source, B by destination, C = random (a fair coin per packet, "
     "003 §3.2's colouring C)", "-"},
    {"f", RS_OPT_CHOICE, "log", 0, 0, f_names,
     "f(n) of the n/f(n) x n/f(n) sorting submeshes: the largest divisor of n up to "
     "round(log2 n) or round(sqrt n)", "-"},
    {"snakes", RS_OPT_CHOICE, "1", 0, 0, snakes_names,
     "snakes per packet: 2 on the mesh (003 §3.3), 4 on the torus (§4.3); length must be "
     "divisible by it", "-"},
    {"ring_step4", RS_OPT_CHOICE, "lemma7", 0, 0, step4_names,
     "ms_torus step 4 (one snake per packet): Lemma 7's delayed store-and-forward (lemma7) or "
     "cut-through farthest first along the shortest way (farthest, Theorem 3's rule on a ring)",
     "-"},
    {"mesh_sort", RS_OPT_CHOICE, "shearsort", 0, 0, sort_names,
     "step 2's submesh sort: shearsort, or Schnorr-Shamir (003's ref [22]) when the side is q^4 "
     "(else shearsort; metric ms_sort_ss)", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const char *const ms_engines[] = {"cut_through_partial", NULL};

#define MS_MAX_SIDE 2048u

/* Options and the checks of the network and the permutation. */
static int ms_config(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                     int torus, struct rs__ms_cfg *c, struct rs_err *err)
{
    const char *name = torus ? "ms_torus" : "ms_mesh";
    int col, fs, sn, s4, ms, rc;
    int64_t len;
    if ((rc = rs_opt_int(in->params, engine->options, "length", &len, err)) ||
        (rc = rs_opt_choice(in->params, ms_options, "colouring", &col, err)) ||
        (rc = rs_opt_choice(in->params, ms_options, "f", &fs, err)) ||
        (rc = rs_opt_choice(in->params, ms_options, "snakes", &sn, err)) ||
        (rc = rs_opt_choice(in->params, ms_options, "ring_step4", &s4, err)) ||
        (rc = rs_opt_choice(in->params, ms_options, "mesh_sort", &ms, err)))
        return rc;
    const struct rs_net *net = in->net;
    if (net->dims != 2 || net->wrap != torus)
        return rs_err_set(err, RS_EUNSUPPORTED, "algorithm=%s needs topology=%s with n=2 (got %s)",
                          name, torus ? "torus" : "mesh", net->name);
    if (net->k > MS_MAX_SIDE)
        return rs_err_set(err, RS_ECONSTRAINT, "algorithm=%s needs k <= %u (got k=%u)", name,
                          MS_MAX_SIDE, net->k);
    memset(c, 0, sizeof *c);
    c->n = net->k;
    c->k = (uint32_t)len;
    c->snakes = sn == 0 ? 1 : (sn == 1 ? 2 : 4);
    c->colouring = (enum rs_ms_colouring)col;
    c->torus = torus;
    c->step4_farthest = s4 == 1;
    c->mesh_sort = ms == 1 ? RS_MS_SORT_SCHNORR_SHAMIR : RS_MS_SORT_SHEARSORT;
    c->seed = in->seed;
    c->check = in->check;
    c->f = rs_ms_f(c->n, fs);
    c->side = c->n / c->f;
    if (c->snakes == 2 && torus)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=ms_torus needs snakes=1 or 4 (003 §4.3 splits into four)");
    if (c->snakes == 4 && !torus)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=ms_mesh needs snakes=1 or 2 (003 §3.3 splits into two)");
    if (c->k % c->snakes)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "snakes=%u needs length divisible by %u (got length=%u): the snakes "
                          "of a packet have equal length",
                          c->snakes, c->snakes, c->k);
    if (s4 == 1 && (!torus || c->snakes != 1))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "ring_step4=farthest needs algorithm=ms_torus with snakes=1 (the mesh "
                          "and four snakes always use farthest first)");
    if (torus && c->colouring == RS_MS_COL_B)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=ms_torus needs colouring=A|C|random (003 §4.2 uses A and "
                          "the random colouring)");
    const struct rs_problem *pb = in->pb;
    uint64_t nn = (uint64_t)c->n * c->n;
    if (pb->n_msgs != nn)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "algorithm=%s needs a permutation: one message per node (got %llu "
                          "messages on %llu nodes)",
                          name, (unsigned long long)pb->n_msgs, (unsigned long long)nn);
    return 0;
}

/* src and dst of every message; RS_ECONSTRAINT when they are not a permutation. */
static int ms_permutation(const struct rs_problem *pb, uint32_t *src, uint32_t *dst,
                          const char *name, struct rs_err *err)
{
    uint64_t nn = pb->n_msgs;
    uint8_t *seen = rs_calloc(2 * nn, 1);
    if (!seen)
        return rs_err_set(err, RS_ENOMEM, "out of memory for algorithm=%s", name);
    int rc = 0;
    for (uint64_t m = 0; m < nn && !rc; m++) {
        src[m] = rs_problem_src(pb, m);
        dst[m] = pb->dst[m];
        if (seen[src[m]]++ || seen[nn + dst[m]]++)
            rc = rs_err_set(err, RS_ECONSTRAINT,
                            "algorithm=%s needs a permutation (traffic=randperm or another "
                            "permutation): node %u is a %s twice",
                            name, seen[src[m]] > 1 ? src[m] : dst[m],
                            seen[src[m]] > 1 ? "source" : "destination");
    }
    rs_free(seen);
    return rc;
}

static const enum rs_metric ms_columns[] = {RS_M_MAKESPAN,     RS_M_MESSAGES,
                                            RS_M_DELIVERED,    RS_M_LATENCY_MEAN,
                                            RS_M_LATENCY_P99,  RS_M_LATENCY_MAX,
                                            RS_M_STEPS,        RS_M_FLIT_HOPS};

static int ms_record(const struct rs_engine_input *in, const struct rs__ms_cfg *c,
                     const struct rs__ms_out *o, struct rs_record *out)
{
    uint64_t nn = (uint64_t)c->n * c->n;
    struct rs_result res;
    int rc;
    uint64_t makespan = 0;
    rs_result_init(&res);
    struct rs_lat_source ls = {.n = nn, .finish64 = o->finish, .none = RS_LAT_EVERY};
    if ((rc = rs_result_latency(&res, &ls)))
        return rc;
    /* every message released at step 0 and counted: the makespan is the largest latency
     * (exact in a double: below 2^32, or rs_result_latency refused it) */
    makespan = nn ? (uint64_t)res.latency_max : 0;
    res.makespan = res.steps = (int64_t)makespan; /* steps simulated: sort + steps 3 + 4 */
    res.messages = res.delivered = (int64_t)nn;
    res.flit_hops = (int64_t)o->flit_hops;
    if (in->result)
        *in->result = res;
    uint32_t ks = c->k / (c->snakes == 4 ? 2 : c->snakes); /* length of a sorted snake */
    double knf = (double)c->k * c->n / c->f, routing = (double)(o->steps3 + o->steps4);
    double main = rs_ms_bound_main(c->n, c->k, c->torus, c->snakes, c->colouring);
    uint32_t queue = o->queue3 > o->queue4 ? o->queue3 : o->queue4;
    double qb = rs_ms_bound_queue(c->n, c->f, c->torus, c->snakes, c->colouring, o->uvwx[2],
                                  o->uvwx[3]);
    double l4 = rs_ms_bound_lemma4(c->n, c->f, o->uvwx[2], o->uvwx[3]);
    rc |= rs_result_record(&res, ms_columns, sizeof ms_columns / sizeof *ms_columns, out);
    rc |= rs_metric_int(out, RS_M_MS_F, c->f);
    rc |= rs_metric_int(out, RS_M_MS_SIDE, c->side);
    rc |= rs_metric_int(out, RS_M_MS_U, o->uvwx[0]);
    rc |= rs_metric_int(out, RS_M_MS_V, o->uvwx[1]);
    rc |= rs_metric_int(out, RS_M_MS_W, o->uvwx[2]);
    rc |= rs_metric_int(out, RS_M_MS_X, o->uvwx[3]);
    rc |= rs_metric_int(out, RS_M_MS_U_SORTED, o->uv_sorted[0]);
    rc |= rs_metric_int(out, RS_M_MS_V_SORTED, o->uv_sorted[1]);
    rc |= rs_metric_int(out, RS_M_MS_SORT_EXCHANGES, (int64_t)o->sort_exchanges);
    rc |= rs_metric_int(out, RS_M_MS_SORT_SS, o->sort_used == RS_MS_SORT_SCHNORR_SHAMIR);
    rc |= rs_metric_int(out, RS_M_STEPS_SORT, (int64_t)o->steps_sort);
    rc |= rs_metric_int(out, RS_M_STEPS_PHASE3, (int64_t)o->steps3);
    rc |= rs_metric_int(out, RS_M_STEPS_PHASE4, (int64_t)o->steps4);
    rc |= rs_metric_int(out, RS_M_STEPS_ROUTING, (int64_t)(o->steps3 + o->steps4));
    rc |= rs_metric_int(out, RS_M_MS_QUEUE_PHASE3, o->queue3);
    rc |= rs_metric_int(out, RS_M_MS_QUEUE_PHASE4, o->queue4);
    rc |= rs_metric_int(out, RS_M_MS_MAX_QUEUE, queue);
    rc |= rs_metric_int(out, RS_M_MS_BLOCKED_STARTS, (int64_t)o->blocked_starts);
    rc |= rs_metric_double(out, RS_M_BOUND_MS_MAIN, main);
    rc |= rs_metric_double(out, RS_M_MS_ROUTING_OVER_MAIN, routing / main);
    rc |= rs_metric_double(out, RS_M_MS_MAKESPAN_OVER_MAIN, (double)makespan / main);
    rc |= rs_metric_double(out, RS_M_MS_OTERM_MAIN, ((double)makespan - main) / knf);
    rc |= rs_metric_double(out, RS_M_MS_ROUTING_EXCESS_OVER_N, (routing - main) / c->n);
    if (!c->torus) {
        double t4 = rs_ms_bound_thm4(c->n, ks, c->f, o->uvwx);
        rc |= rs_metric_double(out, RS_M_BOUND_MS_THM4, t4);
        rc |= rs_metric_double(out, RS_M_MS_ROUTING_OVER_THM4, routing / t4);
        rc |= rs_metric_double(out, RS_M_MS_OTERM_THM4, ((double)makespan - t4) / knf);
    }
    rc |= rs_metric_double(out, RS_M_BOUND_MS_QUEUE, qb);
    rc |= rs_metric_double(out, RS_M_MS_QUEUE_OVER_BOUND, queue / qb);
    rc |= rs_metric_double(out, RS_M_BOUND_MS_LEMMA4, l4);
    rc |= rs_metric_double(out, RS_M_MS_QUEUE_OVER_LEMMA4, queue / l4);
    return rc ? RS_ENOMEM : 0;
}

static int ms_run(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                  int torus, struct rs_record *out, struct rs_err *err)
{
    struct rs__ms_cfg c;
    struct rs__ms_out o;
    int rc = ms_config(in, engine, torus, &c, err);
    if (rc)
        return rc;
    uint64_t nn = (uint64_t)c.n * c.n;
    uint32_t *src = rs_malloc(nn * sizeof *src), *dst = rs_malloc(nn * sizeof *dst);
    if (!src || !dst) {
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for algorithm=%s",
                        torus ? "ms_torus" : "ms_mesh");
    } else if (!(rc = ms_permutation(in->pb, src, dst, torus ? "ms_torus" : "ms_mesh", err)) &&
               !(rc = rs__ms_steps(&c, src, dst, &o, err))) {
        rc = ms_record(in, &c, &o, out);
        if (rc)
            rc = rs_err_set(err, rc, "out of memory for the record");
        rs_free(o.finish);
    }
    rs_free(src);
    rs_free(dst);
    return rc;
}

static int mesh_run(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                    struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                    struct rs_err *err)
{
    if (deadlock_msg && deadlock_len)
        deadlock_msg[0] = 0;
    return ms_run(in, engine, 0, out, err);
}

static int torus_run(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                     struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                     struct rs_err *err)
{
    if (deadlock_msg && deadlock_len)
        deadlock_msg[0] = 0;
    return ms_run(in, engine, 1, out, err);
}

const struct rs_algo_ops rs_algo_ms_mesh = {
    .name = "ms_mesh",
    .summary = "Makedon-Symvonis 003 §3: colour, sort submeshes, route columns and rows as "
               "chains (1 or 2 snakes)",
    .options = ms_options,
    .switching = ms_engines,
    .needs = RS_CAP_COORDS,
    .run = mesh_run,
};

const struct rs_algo_ops rs_algo_ms_torus = {
    .name = "ms_torus",
    .summary = "Makedon-Symvonis 003 §4: ms_mesh on a torus with the ring routines of Lemmas 6 "
               "and 7 (1 or 4 snakes)",
    .options = ms_options,
    .switching = ms_engines,
    .needs = RS_CAP_COORDS | RS_CAP_WRAP,
    .run = torus_run,
};
