/* traffic=one_to_many (003 §2.2, Problem 2): each processor receives at most one packet, a
 * processor may send several. `packets` destinations drawn without replacement, each from
 * a uniform other terminal; messages ordered by source. */
#include <stdint.h>

#include "routesim/alloc.h"
#include "routesim/problem.h"
#include "routesim/rng.h"

/* Entity of the destination permutation: apart from many_to_one's 3 * 2^32. */
#define RS__O2M_ENTITY ((uint64_t)4 << 32)

static const struct rs_optdef o2m_options[] = {
    {"packets", RS_OPT_INT, "0", 0, 4294967295.0, NULL,
     "packets (one per destination; 0: every terminal receives one)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* Destinations: the first `packets` of a uniform permutation (RS_STREAM_PERM, entity
 * 4 * 2^32) of the terminals; destination t comes from s = rs_rand_below(seed,
 * RS_STREAM_TRAFFIC, t, 1, N - 1), plus one when s >= t (never itself). Messages are sorted
 * by source, then by destination. */
static int o2m_build(struct rs_problem *pb, const struct rs_net *net, const struct rs_params *p,
                     uint64_t seed, struct rs_err *err)
{
    int64_t want, q;
    int rc;
    if ((rc = rs_opt_int(p, o2m_options, "packets", &want, err)) ||
        (rc = rs_opt_int(p, rs_problem_options, "per_input", &q, err)))
        return rc;
    uint32_t n = net->n_terminals;
    if (q != 1)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "traffic=one_to_many draws its sources: per_input must be 1 (got "
                          "%lld; use packets)", (long long)q);
    if (n < 2)
        return rs_err_set(err, RS_ECONSTRAINT, "traffic=one_to_many needs N >= 2 (got %u)", n);
    if (want == 0)
        want = n;
    if ((uint64_t)want > n)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "traffic=one_to_many: packets=%lld exceeds N=%u destinations",
                          (long long)want, n);
    uint32_t m = (uint32_t)want;
    uint32_t *perm = rs_malloc((size_t)n * sizeof *perm);
    uint32_t *from = rs_malloc((size_t)n * sizeof *from);
    uint32_t *first = rs_calloc((size_t)n + 1, sizeof *first);
    pb->src = rs_malloc((size_t)(m ? m : 1) * sizeof *pb->src);
    pb->dst = rs_malloc((size_t)(m ? m : 1) * sizeof *pb->dst);
    if (!perm || !from || !first || !pb->src || !pb->dst) {
        rs_free(perm);
        rs_free(from);
        rs_free(first);
        return rs_err_set(err, RS_ENOMEM, "traffic=one_to_many: out of memory for N=%u", n);
    }
    rs_random_permutation(perm, n, seed, RS_STREAM_PERM, RS__O2M_ENTITY);
    uint8_t *chosen = (uint8_t *)from; /* reuse: mark chosen destinations first */
    for (uint32_t t = 0; t < n; t++)
        chosen[t] = 0;
    for (uint32_t i = 0; i < m; i++)
        chosen[perm[i]] = 1;
    /* counting sort by source; destinations in increasing order within a source */
    uint32_t most = 1;
    for (uint32_t t = n; t-- > 0;) {
        if (!chosen[t]) {
            perm[t] = UINT32_MAX;
            continue;
        }
        uint32_t s = rs_rand_below(seed, RS_STREAM_TRAFFIC, t, 1, n - 1);
        perm[t] = s >= t ? s + 1 : s; /* perm now: source of destination t */
    }
    for (uint32_t t = 0; t < n; t++)
        if (perm[t] != UINT32_MAX && ++first[perm[t] + 1] > most)
            most = first[perm[t] + 1];
    for (uint32_t s = 0; s < n; s++)
        first[s + 1] += first[s];
    for (uint32_t t = 0; t < n; t++)
        if (perm[t] != UINT32_MAX) {
            uint32_t i = first[perm[t]]++;
            pb->src[i] = perm[t];
            pb->dst[i] = t;
        }
    rs_free(perm);
    rs_free(from);
    rs_free(first);
    pb->n_terminals = n;
    pb->per_input = most;
    pb->n_msgs = m;
    return 0;
}

const struct rs_traffic_ops rs__traffic_one_to_many = {
    .name = "one_to_many",
    .summary = "at most one packet per destination, uniform sources (003 §2.2 Problem 2)",
    .options = o2m_options,
    .generate = NULL,
    .build = o2m_build,
};
