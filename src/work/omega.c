/* traffic=inverse_omega: a uniformly random inverse-omega permutation of N = 2^b terminals
 * (SPEC W1; 002 §4.2, Nassimi-Sahni's family F(n) contains them): the permutation an
 * inverse omega network realizes with independent fair switch settings. */
#include <stdint.h>
#include <stdlib.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/problem.h"
#include "routesim/rng.h"
#include "work/bits.h"
#include "routesim/omega.h"

/* Entity of the permutation stream for the settings: after bpc's 2^32 + 1 and linear's
 * 2^32 + 2, below root's 2^33. */
#define RS__OMEGA_ENTITY (((uint64_t)1 << 32) + 3)

static const struct rs_optdef no_options[] = {{NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

void rs__inverse_omega_perm(unsigned b, const uint32_t *settings, uint32_t *perm,
                            uint32_t *scratch)
{
    RS_ASSERT(b >= 1 && b < 32 && settings != NULL && perm != NULL && scratch != NULL);
    uint32_t n = (uint32_t)1 << b, *pos = scratch, *next = scratch + n; /* pos[line] = input */
    for (uint32_t x = 0; x < n; x++)
        pos[x] = x;
    for (unsigned st = 0; st < b; st++) {
        for (uint32_t i = 0; i < n / 2; i++) {
            uint64_t bit = (uint64_t)st * (n / 2) + i;
            if ((settings[bit / 32] >> (bit % 32)) & 1) {
                uint32_t t = pos[2 * i];
                pos[2 * i] = pos[2 * i + 1];
                pos[2 * i + 1] = t;
            }
        }
        for (uint32_t x = 0; x < n; x++)
            next[(x >> 1) | ((x & 1) << (b - 1))] = pos[x];
        uint32_t *t = pos;
        pos = next;
        next = t;
    }
    for (uint32_t x = 0; x < n; x++)
        perm[pos[x]] = x;
}

/* inverse_omega: b N/2 fair settings, 32 per word from (seed, RS_STREAM_PERM, entity
 * 2^32 + 3, step 0). The map from settings to permutations is one-to-one, so the
 * permutation is uniform among the 2^(b N/2) inverse-omega permutations. */
static int inverse_omega_generate(const struct rs_net *net, const struct rs_params *p,
                                  uint64_t seed, uint32_t per_input, uint32_t *dst,
                                  struct rs_err *err)
{
    unsigned b = 0;
    int rc = rs__work_bits(net, "inverse_omega", &b, err);
    if (rc)
        return rc;
    uint32_t n = net->n_terminals;
    uint64_t words = ((uint64_t)b * (n / 2) + 31) / 32;
    uint32_t *settings = rs_malloc((size_t)words * sizeof *settings);
    uint32_t *scratch = rs_malloc(3 * (size_t)n * sizeof *scratch);
    if (!settings || !scratch) {
        rs_free(settings);
        rs_free(scratch);
        return rs_err_set(err, RS_ENOMEM, "out of memory for an inverse omega network of %u "
                          "inputs", n);
    }
    struct rs_rng r;
    rs_rng_init(&r, seed, RS_STREAM_PERM, RS__OMEGA_ENTITY, 0);
    for (uint64_t w = 0; w < words; w++)
        settings[w] = rs_rng_u32(&r);
    uint32_t *perm = scratch + 2 * (size_t)n;
    rs__inverse_omega_perm(b, settings, perm, scratch);
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t k = 0; k < per_input; k++)
            dst[(uint64_t)s * per_input + k] = perm[s];
    rs_free(settings);
    rs_free(scratch);
    return 0;
}

const struct rs_traffic_ops rs__traffic_inverse_omega = {
    .name = "inverse_omega",
    .summary = "uniformly random inverse-omega permutation: an inverse omega network with random "
               "switch settings (N a power of two)",
    .options = no_options,
    .generate = inverse_omega_generate,
};
