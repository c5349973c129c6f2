/* traffic=subtree_cross: message sets of a known load factor on fat-trees (000 §2): q
 * random permutations (q = per_input), each sending every terminal to a uniformly random
 * terminal in the other half of its subtree of height `height`, a bijection between the two
 * halves both ways. Every message peaks at level log N - height, and on the area-universal
 * capacities (pruned butterfly) lambda(M) = eta(M) = q 2^floor(height/2) (docs/workloads.md). */
#include "routesim/alloc.h"
#include "routesim/problem.h"
#include "routesim/rng.h"
#include "work/bits.h"

/* Entities of this traffic's permutations: above randperm's (k < 2^20) and qrelation's
 * (2^32), one per (permutation k, subtree j, half). */
#define SUBTREE_ENTITY ((uint64_t)1 << 40)

static const struct rs_optdef subtree_options[] = {
    {"height", RS_OPT_INT, "0", 0, 26, NULL,
     "height g of the subtrees (1..log2 N; 0 = log2 N, the whole tree): messages peak at "
     "level log2 N - g", "levels"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* For permutation k: in subtree j (leaves j S .. j S + S - 1, S = 2^g), leaf j S + a of the
 * left half sends to j S + S/2 + pi[a] and leaf j S + S/2 + b of the right half to
 * j S + rho[b], pi and rho = rs_random_permutation(S/2, seed, RS_STREAM_PERM, entity
 * 2^40 + 2 (k 2^(b-g) + j) + half). */
static int subtree_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                            uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    unsigned bits = 0;
    int64_t g = 0;
    int rc = rs__work_bits(net, "subtree_cross", &bits, err);
    if (rc || (rc = rs_opt_int(p, subtree_options, "height", &g, err)))
        return rc;
    if (g == 0)
        g = bits;
    if (g > (int64_t)bits)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "traffic=subtree_cross needs height <= log2 N = %u (got height=%lld)",
                          bits, (long long)g);
    uint32_t S = 1u << g, half = S / 2, subtrees = net->n_terminals >> g;
    uint32_t *perm = rs_malloc((size_t)half * sizeof *perm);
    if (!perm)
        return rs_err_set(err, RS_ENOMEM, "traffic=subtree_cross: out of memory for N=%u",
                          net->n_terminals);
    for (uint32_t k = 0; k < per_input; k++)
        for (uint32_t j = 0; j < subtrees; j++)
            for (uint32_t side = 0; side < 2; side++) {
                uint64_t entity = SUBTREE_ENTITY + 2 * ((uint64_t)k * subtrees + j) + side;
                rs_random_permutation(perm, half, seed, RS_STREAM_PERM, entity);
                uint32_t from = j * S + side * half, to = j * S + (1 - side) * half;
                for (uint32_t a = 0; a < half; a++)
                    dst[(uint64_t)(from + a) * per_input + k] = to + perm[a];
            }
    rs_free(perm);
    return 0;
}

const struct rs_traffic_ops rs__traffic_subtree_cross = {
    .name = "subtree_cross",
    .summary = "q random permutations across the halves of every subtree of a height: "
               "lambda = q 2^floor(height/2) on area-universal fat-trees (000 §2)",
    .options = subtree_options,
    .generate = subtree_generate,
};
