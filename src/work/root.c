/* Root permutations of an LCAN (002 §3): every source-destination pair has LCA level l-1,
 * i.e. source and destination lie below different children of the top level. Drawn by a
 * Metropolis chain of destination swaps and 3-rotations from a balanced root permutation
 * (docs/workloads.md says why and how uniform it is). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/problem.h"
#include "routesim/rng.h"
#include "routesim/lcan.h"
#include "work/root.h"

/* Entity of the permutation stream for the k-th root permutation: above randperm's
 * k < 2^20, qrelation's 2^32 and bpc's 2^32 + 1. */
#define RS__ROOT_ENTITY ((uint64_t)1 << 33)

static const struct rs_optdef no_options[] = {{NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

uint64_t rs__root_steps(uint32_t n)
{
    if (n < 2)
        return 0;
    return (uint64_t)ceil(RS__ROOT_STEPS_PER_NLOGN * (double)n * log((double)n)) +
           (uint64_t)RS__ROOT_STEPS_PER_N * n;
}

void rs__root_permutation(uint32_t *perm, uint32_t n, uint32_t groups, uint64_t steps,
                          uint64_t seed, uint64_t entity)
{
    RS_ASSERT(perm != NULL || n == 0);
    RS_ASSERT(groups < 2 || n % groups == 0); /* groups divides n (root.h) */
    if (groups < 2) { /* one group: every pair has the top as LCA level */
        rs_random_permutation(perm, n, seed, RS_STREAM_PERM, entity);
        return;
    }
    uint32_t m = n / groups, q = m / (groups - 1), rem = m % (groups - 1);
    /* Balanced start: group a sends K[a][a+j] sources to group a+j (mod groups), q+1 of
     * them for j = 1..rem and q for the other j (a circulant table with zero diagonal and
     * every row and column summing to m), consecutive sources to consecutive slots. The
     * table is then already near its equilibrium mean m/(groups-1). */
    for (uint32_t a = 0; a < groups; a++) {
        uint32_t s = a * m;
        for (uint32_t j = 1; j < groups; j++) {
            uint32_t b = (a + j) % groups, take = q + (j <= rem);
            /* slots of group b already given: the sources of groups b-1, b-2, .., a+1 */
            uint32_t used = 0;
            for (uint32_t i = 1; i < j; i++)
                used += q + (j - i <= rem);
            for (uint32_t t = 0; t < take; t++)
                perm[s++] = b * m + used + t;
        }
    }
    struct rs_rng r;
    rs_rng_init(&r, seed, RS_STREAM_PERM, entity, 0);
    for (uint64_t step = 0; step < steps; step++) {
        uint32_t move = rs_rng_u32(&r) & 1;
        uint32_t i = rs_rng_below(&r, n), j = rs_rng_below(&r, n);
        if (!move) { /* swap the destinations of i and j */
            uint32_t pi = perm[i], pj = perm[j];
            if (pj / m != i / m && pi / m != j / m) {
                perm[i] = pj;
                perm[j] = pi;
            }
        } else { /* rotate: i takes j's destination, j takes k's, k takes i's */
            uint32_t k = rs_rng_below(&r, n);
            uint32_t pi = perm[i], pj = perm[j], pk = perm[k];
            if (i != j && j != k && i != k && pj / m != i / m && pk / m != j / m &&
                pi / m != k / m) {
                perm[i] = pj;
                perm[j] = pk;
                perm[k] = pi;
            }
        }
    }
}

/* root: for each k < q the k-th root permutation pi_k (entity 2^33 + k), dst[s*q + k] =
 * pi_k(s). */
static int root_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                         uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    const struct rs_lcan *lc = rs__lcan_of(net);
    if (!lc)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "traffic=root needs an LCAN (topology=lcan, baseline, swbanyan, trac "
                          "or cm5), got topology=%s",
                          net->name);
    uint32_t n = net->n_terminals;
    uint32_t *perm = rs_malloc((size_t)n * sizeof *perm);
    if (!perm)
        return rs_err_set(err, RS_ENOMEM, "traffic=root: out of memory for N=%u", n);
    uint64_t steps = rs__root_steps(n);
    for (uint32_t k = 0; k < per_input; k++) {
        rs__root_permutation(perm, n, lc->groups, steps, seed, RS__ROOT_ENTITY + k);
        for (uint32_t s = 0; s < n; s++)
            dst[(uint64_t)s * per_input + k] = perm[s];
    }
    rs_free(perm);
    return 0;
}

const struct rs_traffic_ops rs__traffic_root = {
    .name = "root",
    .summary = "random root permutation of an LCAN: every pair's LCA is on the top level "
               "(002 §3)",
    .options = no_options,
    .generate = root_generate,
};
