/* traffic=many_to_one (003 §2.2, Problem 1): each processor sends at most one packet, a
 * processor may receive several. `packets` sources drawn without replacement among the
 * terminals that are multiples of `spread`, each to a uniform other terminal. */
#include <stdint.h>

#include "routesim/alloc.h"
#include "routesim/problem.h"
#include "routesim/rng.h"

/* Entity of the source permutation: above randperm's k < 2^20 and qrelation's 2^32. */
#define RS__M2O_ENTITY ((uint64_t)3 << 32)

static const struct rs_optdef m2o_options[] = {
    {"packets", RS_OPT_INT, "0", 0, 4294967295.0, NULL,
     "packets (one per source; 0: every eligible source sends)", "packets"},
    {"spread", RS_OPT_INT, "1", 1, 4294967295.0, NULL,
     "only terminals that are multiples of spread send (2: no two adjacent on a chain or an "
     "even ring, as 003 Lemma 6 asks)", "terminals"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL},
};

/* Sources: the first `packets` of a uniform permutation (RS_STREAM_PERM, entity 3 * 2^32) of
 * the eligible terminals, in increasing order; message i is the i-th source's packet, to
 * terminal d = rs_rand_below(seed, RS_STREAM_TRAFFIC, source, 0, N - 1), plus one when
 * d >= source (never itself). */
static int m2o_build(struct rs_problem *pb, const struct rs_net *net, const struct rs_params *p,
                     uint64_t seed, struct rs_err *err)
{
    int64_t want, spread, q;
    int rc;
    if ((rc = rs_opt_int(p, m2o_options, "packets", &want, err)) ||
        (rc = rs_opt_int(p, m2o_options, "spread", &spread, err)) ||
        (rc = rs_opt_int(p, rs_problem_options, "per_input", &q, err)))
        return rc;
    uint32_t n = net->n_terminals;
    if (q != 1)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "traffic=many_to_one sends one packet per source: per_input must be 1 "
                          "(got %lld; use packets)", (long long)q);
    if (n < 2)
        return rs_err_set(err, RS_ECONSTRAINT, "traffic=many_to_one needs N >= 2 (got %u)", n);
    uint32_t elig = (uint32_t)(((uint64_t)n + (uint64_t)spread - 1) / (uint64_t)spread);
    if (want == 0)
        want = elig;
    if ((uint64_t)want > elig)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "traffic=many_to_one: packets=%lld exceeds the %u sources that are "
                          "multiples of spread=%lld", (long long)want, elig, (long long)spread);
    uint32_t m = (uint32_t)want;
    uint32_t *perm = rs_malloc((size_t)elig * sizeof *perm);
    uint8_t *on = rs_calloc(elig, 1);
    pb->src = rs_malloc((size_t)(m ? m : 1) * sizeof *pb->src);
    pb->dst = rs_malloc((size_t)(m ? m : 1) * sizeof *pb->dst);
    if (!perm || !on || !pb->src || !pb->dst) {
        rs_free(perm);
        rs_free(on);
        return rs_err_set(err, RS_ENOMEM, "traffic=many_to_one: out of memory for N=%u", n);
    }
    rs_random_permutation(perm, elig, seed, RS_STREAM_PERM, RS__M2O_ENTITY);
    for (uint32_t i = 0; i < m; i++)
        on[perm[i]] = 1;
    uint32_t i = 0;
    for (uint32_t e = 0; e < elig; e++) {
        if (!on[e])
            continue;
        uint32_t s = (uint32_t)((uint64_t)e * (uint64_t)spread);
        uint32_t d = rs_rand_below(seed, RS_STREAM_TRAFFIC, s, 0, n - 1);
        pb->src[i] = s;
        pb->dst[i] = d >= s ? d + 1 : d;
        i++;
    }
    rs_free(perm);
    rs_free(on);
    pb->n_terminals = n;
    pb->per_input = 1;
    pb->n_msgs = m;
    return 0;
}

const struct rs_traffic_ops rs__traffic_many_to_one = {
    .name = "many_to_one",
    .summary = "at most one packet per source, uniform destinations (003 §2.2 Problem 1)",
    .options = m2o_options,
    .generate = NULL,
    .build = m2o_build,
};
