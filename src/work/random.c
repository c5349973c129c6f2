/* Random workloads (SPEC W1-W2): independent uniform destinations, q independent random
 * permutations, and random q-relations. All draws come from counter-based streams keyed
 * by the seed, so dst[m] never depends on the order in which messages are filled. */
#include <stdint.h>
#include <stdlib.h>

#include "routesim/alloc.h"
#include "routesim/problem.h"
#include "routesim/rng.h"

/* Entity of the permutation stream used by qrelation: above every k < 2^20 that
 * randperm uses, so the two never share numbers. */
#define RS__QRELATION_ENTITY ((uint64_t)1 << 32)

static const struct rs_optdef no_options[] = {{NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* uniform: dst[m] = rs_rand_below(seed, RS_STREAM_TRAFFIC, entity m, step 0, N). */
static int uniform_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                            uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    uint32_t n = net->n_terminals;
    uint64_t total = (uint64_t)n * per_input;
    for (uint64_t m = 0; m < total; m++)
        dst[m] = rs_rand_below(seed, RS_STREAM_TRAFFIC, m, 0, n);
    return 0;
}

/* randperm: for each k < q, pi_k = rs_random_permutation(N, seed, RS_STREAM_PERM,
 * entity k) and dst[s*q + k] = pi_k[s]. */
static int randperm_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                             uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    uint32_t n = net->n_terminals;
    uint32_t *perm = rs_malloc((size_t)n * sizeof *perm);
    if (perm == NULL)
        return rs_err_set(err, RS_ENOMEM, "traffic=randperm: out of memory for N=%u", n);
    for (uint32_t k = 0; k < per_input; k++) {
        rs_random_permutation(perm, n, seed, RS_STREAM_PERM, k);
        for (uint32_t s = 0; s < n; s++)
            dst[(uint64_t)s * per_input + k] = perm[s];
    }
    rs_free(perm);
    return 0;
}

/* qrelation: sigma = rs_random_permutation(N*q, seed, RS_STREAM_PERM, entity 2^32) and
 * dst[m] = sigma[m] / q, i.e. message m takes slot sigma[m] of the N*q slots in which
 * slot j belongs to destination j / q. Every destination receives exactly q messages. */
static int qrelation_generate(const struct rs_net *net, const struct rs_params *p,
                              uint64_t seed, uint32_t per_input, uint32_t *dst,
                              struct rs_err *err)
{
    uint32_t total = (uint32_t)((uint64_t)net->n_terminals * per_input); /* < 2^32 */
    rs_random_permutation(dst, total, seed, RS_STREAM_PERM, RS__QRELATION_ENTITY);
    for (uint32_t m = 0; m < total; m++)
        dst[m] /= per_input;
    return 0;
}

const struct rs_traffic_ops rs__traffic_uniform = {
    .name = "uniform",
    .summary = "q messages per source, each to an independent uniform random terminal",
    .options = no_options,
    .generate = uniform_generate,
};

const struct rs_traffic_ops rs__traffic_randperm = {
    .name = "randperm",
    .summary = "q independent uniformly random permutations (message k of s follows the k-th)",
    .options = no_options,
    .generate = randperm_generate,
};

const struct rs_traffic_ops rs__traffic_qrelation = {
    .name = "qrelation",
    .summary = "random q-relation: every terminal sends q and receives exactly q messages",
    .options = no_options,
    .generate = qrelation_generate,
};
