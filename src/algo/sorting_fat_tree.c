/* algorithm=sorting_fat_tree: Bay & Bilardi's routing on the sorting fat-tree (000 §4.3,
 * Theorem 3): its option, the record (Lemma 10, Theorem 3's ratio, the area formulas of
 * §4.2 and §5) and the registry entry; the 8 steps are sorting_fat_tree_route.c. */
#include <math.h>
#include <stdio.h>

#include "routesim/algo.h"
#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/buf.h"
#include "routesim/engine.h"
#include "routesim/load_factor.h"
#include "routesim/sorting_fat_tree.h"

static const struct rs_optdef sft_algo_options[] = {
    {"bits", RS_OPT_INT, "0", 0, 1 << 20, NULL,
     "body bits b of every message; 0 = log2 N. Time in bit steps (docs/papers/bay-bilardi.md)",
     "bits"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

int rs__area_record(struct rs_record *out, double area, uint64_t bit_steps, uint32_t b,
                    double eta, uint32_t N)
{
    double t = (double)bit_steps, at2 = area * t * t, lb = (double)b * b * eta * eta * N;
    int rc = rs_metric_double(out, RS_M_AREA_FORMULA, area);
    rc |= rs_metric_double(out, RS_M_AT2_FORMULA, at2);
    rc |= rs_metric_double(out, RS_M_BOUND_AT2, lb);
    rc |= rs_metric_double(out, RS_M_AT2_OVER_BOUND, lb > 0 ? at2 / lb : NAN);
    return rc;
}

static int record(struct rs_record *out, const struct rs__sft_run *r, double eta)
{
    const struct rs__sft *s = r->s;
    struct rs_buf st, bl;
    int rc = 0;
    double n = s->n, mx = 0;
    uint64_t bound = (uint64_t)ceil(r->lambda_a / n - 1e-12);
    rs_buf_init(&st);
    rs_buf_init(&bl);
    for (int i = 0; i < 8; i++)
        rc |= rs_buf_printf(&st, "%s%llu", i ? ";" : "", (unsigned long long)r->step[i]);
    for (uint32_t j = 0; j < s->n; j++) {
        rc |= rs_buf_printf(&bl, "%s%.6g", j ? ";" : "", r->batch_lambda_a[j]);
        mx = r->batch_lambda_a[j] > mx ? r->batch_lambda_a[j] : mx;
    }
    rc |= rs_metric_int(out, RS_M_MESSAGES, (int64_t)r->m);
    rc |= rs_metric_int(out, RS_M_DELIVERED, (int64_t)r->delivered);
    rc |= rs_metric_int(out, RS_M_BIT_STEPS, (int64_t)r->bit_steps);
    rc |= rs_metric_string(out, RS_M_STEP_BIT_STEPS, st.data ? st.data : "");
    rc |= rs_metric_string(out, RS_M_BATCH_LAMBDA_A, bl.data ? bl.data : "");
    rc |= rs_metric_double(out, RS_M_LAMBDA_A, r->lambda_a);
    rc |= rs_metric_double(out, RS_M_LAMBDA_D, r->lambda_d);
    rc |= rs_metric_double(out, RS_M_SFT_LOAD_FACTOR, r->lambda);
    rc |= rs_metric_int(out, RS_M_BOUND_BATCH_LAMBDA_A, (int64_t)bound);
    rc |= rs_metric_double(out, RS_M_BATCH_LAMBDA_A_OVER_BOUND, bound ? mx / (double)bound : 0);
    rc |= rs_metric_int(out, RS_M_LEMMA10_EXCESS, (int64_t)r->lemma10_excess);
    rc |= rs_metric_double(out, RS_M_THEOREM3_RATIO,
                           (double)r->bit_steps / (r->lambda * n + n * n));
    rc |= rs_metric_int(out, RS_M_LOCAL_MESSAGES, (int64_t)r->local);
    rc |= rs__area_record(out, rs__sft_side(s, 1.0) * rs__sft_side(s, 1.0), r->bit_steps,
                          r->bits, eta, s->N);
    rc |= st.failed || bl.failed;
    rs_buf_free(&st);
    rs_buf_free(&bl);
    return rc ? RS_ENOMEM : 0;
}

static int sft_run(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                   struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                   struct rs_err *err)
{
    RS_ASSERT(engine == NULL); /* a timed model (rs_algo_ops.timed): no step simulation */
    (void)deadlock_len;
    if (deadlock_msg)
        deadlock_msg[0] = 0;
    const struct rs__sft *s = rs__sft_of(in->net);
    int64_t bits;
    int rc;
    RS_ASSERT(s != NULL); /* needs RS_CAP_SORTING_FAT_TREE: rs_algo_check */
    if ((rc = rs_opt_int(in->params, sft_algo_options, "bits", &bits, err)))
        return rc;
    if (!rs_route_is_direct(in->routing))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=sorting_fat_tree chooses every path itself (000 §4.3): "
                          "routing must be direct");
    const struct rs_problem *p = in->pb;
    size_t M = p->n_msgs ? p->n_msgs : 1;
    uint32_t *src = rs_malloc(M * sizeof *src);
    uint8_t *seen = rs_calloc(2 * (size_t)s->N, 1);
    if (!src || !seen) {
        rs_free(src);
        rs_free(seen);
        return rs_err_set(err, RS_ENOMEM, "out of memory for the message sources");
    }
    for (uint64_t m = 0; m < p->n_msgs && !rc; m++) {
        src[m] = rs_problem_src(p, m);
        if (seen[src[m]]++ || seen[s->N + p->dst[m]]++)
            rc = rs_err_set(err, RS_EUNSUPPORTED,
                            "algorithm=sorting_fat_tree routes partial permutations (000 §4.3): "
                            "terminal %u %s two messages",
                            seen[src[m]] > 1 ? src[m] : p->dst[m],
                            seen[src[m]] > 1 ? "sends" : "receives");
    }
    rs_free(seen);
    struct rs__sft_run r = {.s = s, .m = p->n_msgs, .src = src, .dst = p->dst,
                            .bits = bits ? (uint32_t)bits : s->n};
    struct rs__ftree ref;
    struct rs_load_factor lf = {0};
    rs__ftree_init_area_universal(&ref, s->n);
    if (!rc)
        rc = rs_load_factor_compute(&lf, &ref, p, err);
    if (!rc)
        rc = rs__sft_route(&r, err);
    if (!rc && r.delivered != r.m)
        rc = rs_err_set(err, RS_EINVARIANT, "algorithm=sorting_fat_tree: %llu of %llu "
                        "messages delivered", (unsigned long long)r.delivered,
                        (unsigned long long)r.m);
    if (!rc && record(out, &r, lf.reference_load_factor))
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
    rs_load_factor_free(&lf);
    rs_free(src);
    return rc;
}

static const char *const sft_switching[] = {"circuit", NULL};

const struct rs_algo_ops rs_algo_sorting_fat_tree = {
    .name = "sorting_fat_tree",
    .summary = "000 §4.3: batches by rank mod log N up to their peaks, flexible sorts at the "
               "nodes, batches down, mesh sorts; time in bit steps",
    .options = sft_algo_options,
    .switching = sft_switching,
    .timed = 1,
    .needs = RS_CAP_SORTING_FAT_TREE,
    .run = sft_run,
};
