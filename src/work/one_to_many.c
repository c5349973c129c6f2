/* traffic=one_to_many (003 §2.2, Problem 2): each processor receives at most one packet, a
 * processor may send several: ceil(m/q) uniform sources send q = per_input packets each
 * (the last one the rest) to m = `packets` distinct uniform destinations, never to
 * themselves; messages ordered by source. */
#include <stdint.h>

#include "routesim/alloc.h"
#include "routesim/problem.h"
#include "routesim/rng.h"

/* Entities of the two permutations: apart from many_to_one's 3 * 2^32 and from randperm's
 * k < 2^20 and qrelation's 2^32. */
#define RS__O2M_DST_ENTITY ((uint64_t)4 << 32)
#define RS__O2M_SRC_ENTITY ((uint64_t)5 << 32)

static const struct rs_optdef o2m_options[] = {
    {"packets", RS_OPT_INT, "0", 0, 4294967295.0, NULL,
     "packets m (one per destination; 0: every terminal receives one), from ceil(m/per_input) "
     "sources sending per_input each", "packets"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL},
};

/* D = rs_random_permutation(N, RS_STREAM_PERM, entity 4 * 2^32), S = the same with entity
 * 5 * 2^32; packet j goes from S[j / q] to D[j]. A packet drawn to its own source swaps
 * destinations with packet (j + q) mod m (another source: the swap leaves neither at its
 * source, since destinations are distinct); with a single source, the source's own slot
 * takes D[m]. Then a stable counting sort by source. */
static int o2m_build(struct rs_problem *pb, const struct rs_net *net, const struct rs_params *p,
                     uint64_t seed, struct rs_err *err)
{
    int64_t want, q;
    int rc;
    if ((rc = rs_opt_int(p, o2m_options, "packets", &want, err)) ||
        (rc = rs_opt_int(p, rs_problem_options, "per_input", &q, err)))
        return rc;
    uint32_t n = net->n_terminals;
    if (n < 2)
        return rs_err_set(err, RS_ECONSTRAINT, "traffic=one_to_many needs N >= 2 (got %u)", n);
    if (want == 0)
        want = n;
    if ((uint64_t)want > n)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "traffic=one_to_many: packets=%lld exceeds N=%u destinations",
                          (long long)want, n);
    uint32_t m = (uint32_t)want;
    uint32_t r = (uint32_t)(((uint64_t)m + (uint64_t)q - 1) / (uint64_t)q); /* sources */
    if (r == 1 && m == n)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "traffic=one_to_many: one source cannot reach all N=%u terminals "
                          "(packets=%u, per_input=%lld)", n, m, (long long)q);
    uint32_t *D = rs_malloc((size_t)n * sizeof *D);
    uint32_t *S = rs_malloc((size_t)n * sizeof *S);
    uint32_t *first = rs_calloc((size_t)n + 1, sizeof *first);
    pb->src = rs_malloc((size_t)(m ? m : 1) * sizeof *pb->src);
    pb->dst = rs_malloc((size_t)(m ? m : 1) * sizeof *pb->dst);
    if (!D || !S || !first || !pb->src || !pb->dst) {
        rs_free(D);
        rs_free(S);
        rs_free(first);
        return rs_err_set(err, RS_ENOMEM, "traffic=one_to_many: out of memory for N=%u", n);
    }
    rs_random_permutation(D, n, seed, RS_STREAM_PERM, RS__O2M_DST_ENTITY);
    rs_random_permutation(S, n, seed, RS_STREAM_PERM, RS__O2M_SRC_ENTITY);
    for (uint32_t j = 0; j < m; j++) {
        uint32_t s = S[j / (uint32_t)q];
        if (D[j] != s)
            continue;
        uint32_t o = r == 1 ? m : (uint32_t)(((uint64_t)j + (uint64_t)q) % m);
        uint32_t t = D[j];
        D[j] = D[o], D[o] = t;
    }
    for (uint32_t j = 0; j < m; j++)
        first[S[j / (uint32_t)q] + 1]++;
    for (uint32_t s = 0; s < n; s++)
        first[s + 1] += first[s];
    for (uint32_t j = 0; j < m; j++) {
        uint32_t i = first[S[j / (uint32_t)q]]++;
        pb->src[i] = S[j / (uint32_t)q];
        pb->dst[i] = D[j];
    }
    rs_free(D);
    rs_free(S);
    rs_free(first);
    pb->n_terminals = n;
    pb->per_input = m == 0 ? 1 : (uint64_t)q < m ? (uint32_t)q : m;
    pb->n_msgs = m;
    return 0;
}

const struct rs_traffic_ops rs__traffic_one_to_many = {
    .name = "one_to_many",
    .summary = "at most one packet per destination, per_input packets per sending source (003 "
               "§2.2 Problem 2)",
    .options = o2m_options,
    .generate = NULL,
    .build = o2m_build,
};
