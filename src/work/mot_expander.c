/* traffic=mot_expander: the message set of Bay & Bilardi's lower bound (000 §5, Theorem 4,
 * Lemma 13): one message per edge of MOT(n) x EXP(eta^2), the mesh of trees on the grid
 * with shuffle-major labels crossed with Gabber & Galil's explicit expander on Z_eta^2, the
 * expander part of a name least significant; its reference load factor is Theta(eta).
 * Construction and choices: docs/workloads.md. */
#include "routesim/alloc.h"
#include "routesim/problem.h"
#include "work/bits.h"

static const struct rs_optdef mot_options[] = {
    {"eta", RS_OPT_INT, "1", 1, 1 << 13, NULL,
     "eta, a power of two with N / eta^2 a power of 4 of at least 4: the expander has eta^2 "
     "vertices (000 §5)", "1"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* Shuffle-major label of grid point (r, c), 0 <= r, c < 2^m: the bits of r and c
 * interleaved, r's bit the more significant of each pair (000 §5). */
static uint32_t shuffle_major(uint32_t r, uint32_t c, uint32_t m)
{
    uint32_t v = 0;
    for (uint32_t b = m; b-- > 0;)
        v = (v << 2) | (((r >> b) & 1) << 1) | ((c >> b) & 1);
    return v;
}

/* Parent position of position p (0-based) of the in-order complete binary tree on the
 * positions 0 .. 2^K - 2 of a row or column (leaves at the even positions); the root is
 * 2^(K-1) - 1 and has none (returns UINT32_MAX). */
static uint32_t inorder_parent(uint32_t p, uint32_t K)
{
    uint32_t x = p + 1, h = (uint32_t)__builtin_ctz(x);
    if (h + 1 >= K)
        return UINT32_MAX;
    return ((x >> (h + 1)) & 1 ? x - (1u << h) : x + (1u << h)) - 1;
}

/* The expander EXP(eta^2): vertex a eta + b of Z_eta x Z_eta is joined to (a, a+b),
 * (a, a+b+1), (a+b, b) and (a+b+1, b) mod eta (Gabber & Galil, 1981); out[] gets the
 * distinct neighbours other than x itself, in that order. Returns how many. */
static uint32_t expander_out(uint32_t x, uint32_t eta, uint32_t out[4])
{
    uint32_t a = x / eta, b = x % eta, n = 0, mask = eta - 1;
    uint32_t cand[4] = {a * eta + ((a + b) & mask), a * eta + ((a + b + 1) & mask),
                        ((a + b) & mask) * eta + b, ((a + b + 1) & mask) * eta + b};
    for (int i = 0; i < 4; i++) {
        int dup = cand[i] == x;
        for (uint32_t j = 0; j < n; j++)
            dup |= out[j] == cand[i];
        if (!dup)
            out[n++] = cand[i];
    }
    return n;
}

/* Message m: from src[m] to dst[m], one per edge of the product in this order: for every
 * grid point (r, c) of the MOT in row-major order and every expander vertex x, first its
 * row-tree edge to its parent (even r, c not the row's root), then its column-tree edge
 * (even c), then its expander edges; a MOT edge (u, v) gives the messages (u, x) -> (v, x).
 * Terminal of (grid point g, x) = g eta^2 + x. */
static int mot_build(struct rs_problem *pb, const struct rs_net *net, const struct rs_params *p,
                     uint64_t seed, struct rs_err *err)
{
    (void)seed;
    unsigned bits = 0;
    int64_t eta = 1;
    int rc = rs__work_bits(net, "mot_expander", &bits, err);
    if (rc || (rc = rs_opt_int(p, mot_options, "eta", &eta, err)))
        return rc;
    uint32_t e = (uint32_t)__builtin_ctzll((uint64_t)eta);
    if ((eta & (eta - 1)) || 2 * e + 2 > bits || (bits - 2 * e) % 2)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "traffic=mot_expander needs eta a power of two with N / eta^2 a "
                          "power of 4 of at least 4 (got N=%u eta=%lld)",
                          net->n_terminals, (long long)eta);
    if (rs_params_find(p, "per_input"))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "per_input does not apply to traffic=mot_expander (one message per "
                          "edge of the graph)");
    uint32_t m = (bits - 2 * e) / 2, G = 1u << m, E2 = 1u << (2 * e), E = 1u << e;
    /* at most one row edge, one column edge and 4 expander edges per (point, x) */
    uint64_t cap = 6ull * G * G * E2;
    pb->src = rs_malloc((size_t)cap * sizeof *pb->src);
    pb->dst = rs_malloc((size_t)cap * sizeof *pb->dst);
    uint32_t *count = rs_calloc(net->n_terminals, sizeof *count);
    if (!pb->src || !pb->dst || !count) {
        rs_free(count);
        return rs_err_set(err, RS_ENOMEM, "out of memory for traffic=mot_expander");
    }
    uint64_t n = 0;
    uint32_t most = 1, nb[4];
    for (uint32_t r = 0; r < G; r++)
        for (uint32_t c = 0; c < G; c++) {
            /* vertices: leaves (even, even), row-tree nodes (even r, odd c), column-tree
             * nodes (odd r, even c); position G-1 of every line is empty */
            if ((r % 2 && c % 2) || r == G - 1 || c == G - 1)
                continue;
            uint32_t pr = r % 2 == 0 ? inorder_parent(c, m) : UINT32_MAX;
            uint32_t pc = c % 2 == 0 ? inorder_parent(r, m) : UINT32_MAX;
            uint32_t base = shuffle_major(r, c, m) * E2;
            for (uint32_t x = 0; x < E2; x++) {
                uint32_t s = base + x, k = 0;
                if (pr != UINT32_MAX) {
                    pb->src[n] = s;
                    pb->dst[n++] = shuffle_major(r, pr, m) * E2 + x;
                    k++;
                }
                if (pc != UINT32_MAX) {
                    pb->src[n] = s;
                    pb->dst[n++] = shuffle_major(pc, c, m) * E2 + x;
                    k++;
                }
                uint32_t d = expander_out(x, E, nb);
                for (uint32_t i = 0; i < d; i++) {
                    pb->src[n] = s;
                    pb->dst[n++] = base + nb[i];
                }
                count[s] = k + d;
                if (k + d > most)
                    most = k + d;
            }
        }
    rs_free(count);
    pb->n_terminals = net->n_terminals;
    pb->per_input = most;
    pb->n_msgs = n;
    return 0;
}

const struct rs_traffic_ops rs__traffic_mot_expander = {
    .name = "mot_expander",
    .summary = "one message per edge of MOT x EXP(eta^2), the lower-bound set of 000 §5 "
               "(reference load factor Theta(eta))",
    .options = mot_options,
    .build = mot_build,
};
