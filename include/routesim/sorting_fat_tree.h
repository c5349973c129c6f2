/* The sorting fat-tree of Bay & Bilardi (paper 000 §4.2): m x m meshes of terminals at the
 * leaves of a complete binary tree whose nodes hold flexible sorters; its arithmetic, shared
 * by topology=sorting_fat_tree, `routesim topo`, --dot and algorithm=sorting_fat_tree.
 * Decisions (mesh side, capacities): docs/papers/bay-bilardi.md §4.2–4.3. */
#ifndef ROUTESIM_SORTING_FAT_TREE_H
#define ROUTESIM_SORTING_FAT_TREE_H

#include <stdint.h>

#include "routesim/assert.h"
#include "routesim/error.h"
#include "routesim/net.h"

/* Largest log2 N (N <= 2^24 terminals). */
#define RS_SFT_MAX_LOG2N 24

/* N = 2^n terminals in M = 2^H meshes of m x m = 2^(n-H) terminals (m a power of two,
 * default the smallest >= log2 N). Terminal t is in mesh q = t / m^2 at row r and column c
 * of t mod m^2 = r m + c; row 0 is the top side, where the mesh's channel attaches (one
 * wire per column: wire c joins terminal (q, 0, c) to the tree).
 *
 * Tree nodes (i, j), level i = 0 (root) .. H-1, j < 2^i; the meshes are the leaves at level
 * H (mesh q is (H, q)). A node (or mesh) at level i has 2^(n-i) terminals below. Channel
 * (i, j), 1 <= i <= H, joins (i, j) to its parent; §4.2: cap[i] = sqrt(2 n_i) when
 * n_i = 2^(n-i) is an odd power of two, sqrt(n_i) when even: 2^ceil((n-i)/2) (cap[H] = m).
 * The node at level i < H holds a (b, s[i], 2^(n-i))-flexible sorter with s[i] = sum of its
 * two child channels = 2 cap[i+1] (sqrt(2n) for odd log n, 2 sqrt(n) for even).
 *
 * Network node ids: terminal t is node t; tree node (i, j) is node N + 2^i - 1 + j. */
struct rs__sft {
    uint32_t n;                          /* log2 N */
    uint32_t N;                          /* terminals */
    uint32_t m, logm;                    /* mesh side m = 2^logm */
    uint32_t H;                          /* tree levels above the meshes: n - 2 logm */
    uint32_t cap[RS_SFT_MAX_LOG2N + 2];  /* cap[i], 1 <= i <= H: wires; cap[0] = 0 */
};

/* Ports of a terminal: N, S, W, E in the mesh, and UP (row 0 only, H >= 1). */
#define RS_SFT_NORTH 0u
#define RS_SFT_SOUTH 1u
#define RS_SFT_WEST 2u
#define RS_SFT_EAST 3u
#define RS_SFT_UP 4u

/* The sorting fat-tree of net, or NULL when net does not declare RS_CAP_SORTING_FAT_TREE. */
const struct rs__sft *rs__sft_of(const struct rs_net *net);

/* Fill s for N = 2^n terminals in meshes of side m = 2^logm: H, cap[]. Requires
 * 2 logm <= n <= RS_SFT_MAX_LOG2N, logm >= 1. */
void rs__sft_init(struct rs__sft *s, uint32_t n, uint32_t logm);

/* Mesh of terminal t. */
static inline uint32_t rs__sft_mesh(const struct rs__sft *s, uint32_t t)
{
    RS_DASSERT(t < s->N);
    return t >> (2 * s->logm);
}

/* Row and column of terminal t in its mesh. */
static inline uint32_t rs__sft_row(const struct rs__sft *s, uint32_t t)
{
    return (t >> s->logm) & (s->m - 1);
}
static inline uint32_t rs__sft_col(const struct rs__sft *s, uint32_t t)
{
    return t & (s->m - 1);
}

/* Peak of a message between meshes qs != qt: the tree level (0..H-1) of their lowest
 * common ancestor; H when qs == qt (the message stays in its mesh). */
static inline uint32_t rs__sft_peak(const struct rs__sft *s, uint32_t qs, uint32_t qt)
{
    return qs == qt ? s->H : s->H - (32u - (uint32_t)__builtin_clz(qs ^ qt));
}

/* Oblivious route length from terminal a to b: |dr| + |dc| in one mesh; else up the source
 * column to row 0, up the tree to the peak and down, down the destination column:
 * row(a) + row(b) + 2 (H - peak). */
uint32_t rs__sft_path_length(const struct rs__sft *s, uint32_t a, uint32_t b);

/* Layout side of the whole network by §4.2's recurrence with the constant xi:
 * 2 xi sqrt(N) log2 N (UNITS: layout length units); its area is the square of it. */
double rs__sft_side(const struct rs__sft *s, double xi);

/* ---- algorithm=sorting_fat_tree (§4.3, Theorem 3): the timed model -------------------
 *
 * UNITS: bit steps. Messages are L = b + 2n + ceil(log2(H+1)) + ceil(log2 n) bits (body,
 * source, destination, peak field, batch field). A wave crosses a channel in L bit steps
 * (one message a wire). A mesh sort (steps 1, 3, 8) costs RS_SFT_MESH_C m + L (Schnorr–
 * Shamir's 3m + o(m) compare-exchange steps, each word following MSB first one bit behind
 * its comparison). A stage ends with the synchronizer: 2H (a bit up and down the tree of
 * internal nodes). Flexible sorts are timed by rs_fsort_time(L, s, r, l) and run on real
 * keys by rs_fsort_sort. Every term: docs/papers/bay-bilardi.md "§4.2–4.3". */
#define RS_SFT_MESH_C 3u

struct rs__sft_run {
    /* in */
    const struct rs__sft *s;
    uint64_t m;                 /* messages (a partial permutation) */
    const uint32_t *src, *dst;  /* [m] terminals */
    uint32_t bits;              /* body bits b */
    /* out */
    uint32_t L;                 /* message bits */
    uint64_t step[8];           /* bit steps of steps 1..8 */
    uint64_t bit_steps;         /* their sum */
    uint64_t local;             /* messages of step 1 (source and destination in one mesh) */
    uint32_t stages_up, stages_down;
    double batch_lambda_a[32];  /* [j]: max over channels of l_a(M_*j, c) / cap(c) */
    double lambda_a, lambda_d;  /* of M-bar: max over channels of l_a / cap, l_d / cap */
    double lambda;              /* lambda(M): max over channels of (l_a + l_d) / cap */
    uint64_t lemma10_excess;    /* (batch, channel) pairs with l_a(M_*j, c) > sum_i
                                   ceil(l_a(M_i, c) / log N) (the proof's count; must be 0) */
    uint64_t delivered;
    uint64_t *finish;           /* optional [m]: bit step of delivery; caller-owned */
};

/* Route r->m messages of a partial permutation on r->s by the 8 steps of §4.3, filling the
 * out fields; every message's position is tracked and checked (a message that would leave
 * the root, miss its peak or land in another mesh is RS_EINVARIANT). Returns 0, RS_ENOMEM,
 * RS_EINVAL (flexible sorter shape) or RS_EINVARIANT with err set. */
int rs__sft_route(struct rs__sft_run *r, struct rs_err *err);

struct rs_record;
/* Item 4 of issue 16, formulas beside a measured time (both fat-trees): writes
 * area_formula = area, at2_formula = area * bit_steps^2, bound_at2 = b^2 eta^2 N (000 §5,
 * without its constant) and at2_over_bound (NaN when eta = 0). Returns 0 or nonzero when out
 * of memory. */
int rs__area_record(struct rs_record *out, double area, uint64_t bit_steps, uint32_t b,
                    double eta, uint32_t N);

#endif
