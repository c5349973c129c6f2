/* Internal API of the permutation-realization algorithms on CB-LCANs (Scherson & Chien,
 * paper 002 §4): edge colouring of regular bipartite multigraphs (edge_colour.c), the
 * Lev-Pippenger-Valiant recursion on the unfolded Beneš-like network (lpv.c), the checks
 * and plan helpers both algorithms share (lcan_plan.c), algorithm=offline (offline.c) and
 * algorithm=self_route (self_route.c), and the looping algorithm on topology=benes
 * (benes_loop.c, offline_benes.c). docs/lcan-realization.md states the model. */
#ifndef RS_ALGO_LCAN_PLAN_H
#define RS_ALGO_LCAN_PLAN_H

#include <stdint.h>

#include "routesim/engine.h"
#include "routesim/lcan.h"

/* ---- edge_colour.c ------------------------------------------------------------------- */

/* Scratch for colouring the edges of a k-regular bipartite multigraph with n vertices on
 * each side (so m = n k edges) with k colours (König's theorem). Sized once by
 * rs__colour_init, reused by any number of rs__colour_run calls of the same n and k. */
struct rs__colourer {
    uint32_t n, k, m;
    uint32_t *ids;   /* [m] edge ids, partitioned in place as the recursion splits them */
    uint32_t *tmp;   /* [m] partition scratch */
    uint32_t *off;   /* [n + 1] offsets of the left vertices' edges in inc (matching) */
    uint32_t *cur;   /* [2n] fill cursors; unpaired edge per vertex (Euler split) */
    uint32_t *inc;   /* [m] edge ids by left vertex (matching) */
    uint32_t *lp;    /* [m] the edge paired with e at its left end (Euler split) */
    uint32_t *rp;    /* [m] the edge paired with e at its right end */
    uint8_t *side;   /* [m] half of an Euler split; matched flags */
    uint32_t *mate;  /* [2n] matched edge of left vertex v (v) and right vertex v (n + v) */
    uint32_t *via;   /* [n] last exit of a left vertex in a random walk */
    uint32_t *pool, *where; /* [n] the free left vertices and their places in pool */
    const uint32_t *left, *right; /* the graph being coloured (set by rs__colour_run) */
    uint32_t *colour;
    uint64_t seed, entity;        /* key of the matchings' random walks */
    uint32_t matchings;           /* matchings done in this colouring (their step) */
};

/* Allocate the scratch for n vertices per side and degree k. Returns 0, RS_ENOMEM, or
 * RS_ECONSTRAINT unless n, k >= 1 and n k < 2^31; rs__colour_free releases it
 * (also after a failed init). */
int rs__colour_init(struct rs__colourer *c, uint32_t n, uint32_t k, struct rs_err *err);
void rs__colour_free(struct rs__colourer *c);

/* Colour edge e = (left[e], right[e]), e < m = n k, of a k-regular bipartite multigraph
 * (left[e], right[e] < n; parallel edges allowed) with colour[e] in 0..k-1 such that every
 * vertex has exactly one edge of each colour. Even degrees are halved by Euler splits (the
 * looping algorithm when k = 2: time O(m) per halving); an odd degree first removes a
 * perfect matching found by the random walks of Goel, Kapralov and Khanna (STOC 2010:
 * expected time O(m + n log n)), keyed by (seed, RS_STREAM_MATCHING, entity, step = the
 * matching's number). Expected time O(m log k + n log n log k); no allocation. Returns 0,
 * or RS_EINVARIANT when the graph is not k-regular (nothing coloured then). The colours
 * are a function of the edge lists, seed and entity (of the lists only when k is a power
 * of two). */
int rs__colour_run(struct rs__colourer *c, const uint32_t *left, const uint32_t *right,
                   uint64_t seed, uint64_t entity, uint32_t *colour, struct rs_err *err);

/* ---- lpv.c --------------------------------------------------------------------------- */

/* Off-line routing of the permutation s -> dst[s] (s < N = d^l) through the top level of
 * CB-LCAN(N, d, d) unfolded into its Beneš-like network (002 §4.1; Lev, Pippenger and
 * Valiant, IEEE TC 1981): for j = 0 .. l-2 the messages that chose the same k_0 .. k_{j-1}
 * form a d-regular bipartite multigraph from their sources' to their destinations'
 * level-j switches (s div d^(j+1) -> dst div d^(j+1)); colouring its edges with d colours
 * gives k_j. top[s] gets the label of the top switch, sum_j k_j d^(l-2-j) (k_0 most
 * significant, as in 002 §2.1); every up channel (s div d^(j+1), k_0..k_j) and every down
 * channel (dst div d^(j+1), k_0..k_j) is then used by one message only. l = 1: top[s] = 0.
 * seed keys the random walks of odd d (the colouring of level j is entity j); even d does
 * not use it. Returns 0, RS_ENOMEM, or RS_EINVARIANT when dst is not a permutation. */
int rs__lpv_route(uint32_t N, uint32_t d, uint32_t l, const uint32_t *dst, uint64_t seed,
                  uint32_t *top, struct rs_err *err);

/* ---- lcan_plan.c --------------------------------------------------------------------- */

/* Where a planned circuit turns down: at its LCA level (002 §4.1: "route only as high as
 * their LCA levels") or at the top level (every pair through the middle stage). */
enum rs__turn { RS__TURN_LCA, RS__TURN_TOP };
extern const char *const rs__turn_names[]; /* "lca", "top", NULL */

/* A permutation on a CB-LCAN as the plan algorithms see it: by source PE. */
struct rs__lcan_perm {
    const struct rs_lcan *lc;
    uint32_t N, l, d, u;   /* one d on every level, one u below the top */
    uint32_t *dst;         /* [N] destination of PE s */
    uint32_t *msg;         /* [N] message id of PE s */
};

/* Check that the problem is a permutation of N PEs (every PE sends one message and
 * receives one) and return it by source: (*dst)[s] = destination of PE s, (*msg)[s] = its
 * message id (both rs_malloc'd, the caller rs_frees them; NULL after a failure). algo
 * names the algorithm in the messages. Returns 0, RS_ECONSTRAINT or RS_ENOMEM. */
int rs__perm_by_source(const struct rs_problem *pb, uint32_t N, const char *algo,
                       uint32_t **dst, uint32_t **msg, struct rs_err *err);

/* Check that in is a permutation (every PE sends one message and receives one) on a
 * CB-LCAN with one d for every level and one u for every level below the top, and fill p
 * (arrays malloc'd; rs__lcan_perm_free releases them). algo names the algorithm in the
 * messages. Returns 0, RS_EUNSUPPORTED (not a CB-LCAN, per-level sizes), RS_ECONSTRAINT
 * (not a permutation) or RS_ENOMEM. */
int rs__lcan_perm_init(struct rs__lcan_perm *p, const struct rs_engine_input *in,
                       const char *algo, struct rs_err *err);
void rs__lcan_perm_free(struct rs__lcan_perm *p);

/* Node id of the switch where the circuit of PE s to PE t turns, given the label top of
 * the top switch it would reach (base-u digits k_0 .. k_{l-2}, k_0 most significant):
 * the switch at the LCA level of s and t (turn = lca; level 0 when s == t) or at the top,
 * on the path those up choices give: high part s div d^(T+1), low part k_0 .. k_{T-1}. */
uint32_t rs__lcan_turn_switch(const struct rs_lcan *lc, uint32_t s, uint32_t t, uint32_t top,
                              enum rs__turn turn);

/* RS_EUNSUPPORTED when the key `name` is set in in->params (an engine option the plan
 * overrides), naming algo and why; else 0. */
int rs__plan_refuse_key(const struct rs_engine_input *in, const char *algo, const char *name,
                        const char *why, struct rs_err *err);

/* ---- benes_loop.c -------------------------------------------------------------------- */

/* The looping algorithm (Beneš 1964, Waksman 1968) on topology=benes with N = 2^n rows
 * (src/topo/benes.c: the edge out of level l flips row bit l for l < n and bit 2n-1-l
 * after): for every source PE s, the row mid[s] its circuit crosses at the middle level n
 * (its route's intermediate, rs_route_state.mid). It is the LPV recursion of lpv.c with
 * d = 2 on CB-LCAN(N,2,2) (l = n levels): mid bit j = k_j for j < n-1, the sub-network
 * chosen at depth j, and mid bit n-1 = s bit n-1 (the first of the two middle stages,
 * which both flip bit n-1, is set straight). Tie rule of each depth (edge_colour.c's Euler
 * split with k = 2): a loop starts at the lowest source PE not yet placed, which takes
 * sub-network 0 (mid bit j = 0); the other message into its output switch takes 1, the
 * other message of that message's input switch takes 0, and so on until the loop closes.
 * The circuits then use every row of every level once: no channel carries two.
 * Time O(N log N), memory about 60 N bytes. Returns 0, RS_ENOMEM, RS_ECONSTRAINT (n > 25)
 * or RS_EINVARIANT (dst not a permutation). */
int rs__benes_loop(uint32_t n, const uint32_t *dst, uint32_t *mid, struct rs_err *err);

/* The switch settings of the circuits s -> dst[s] through middle rows mid[s]: set has
 * 2n lines of N/2 bytes; set[l * N/2 + i] is 1 (crossed) or 0 (straight) for switch i of
 * stage l (the edges from level l to l+1, flipping bit b = l or 2n-1-l), the switch of
 * rows r and r + 2^b where r is the i-th row with bit b clear: r = (i >> b) 2^(b+1) +
 * (i mod 2^b). Returns 0, or RS_EINVARIANT when the two circuits entering one switch do
 * not agree (two circuits on one row: mid does not route dst without a conflict). */
int rs__benes_settings(uint32_t n, const uint32_t *dst, const uint32_t *mid, uint8_t *set,
                       struct rs_err *err);

/* Row reached at level 2n by a message entering row s of level 0 when every switch is set
 * as set says (the settings alone, no route function): for checking reported settings. */
uint32_t rs__benes_follow(uint32_t n, const uint8_t *set, uint32_t s);

/* ---- offline_benes.c ----------------------------------------------------------------- */

/* algorithm=offline on a Beneš network (in->net declares RS_CAP_BENES): check that in is a
 * permutation, route it by the looping algorithm as a plan of middle rows (one network
 * cycle of engine, which counts any conflict), add bound_cycles = 1 and crossed_switches
 * to out, and write the settings to save (NULL: not written) atomically. turn= and
 * grouping= are refused (RS_EUNSUPPORTED); save must be a file name that is no input of
 * the run (RS_EINVAL, RS_EIO). Returns 0 or RS_E... as rs_engine_run. */
int rs__offline_benes(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                      const char *save, struct rs_record *out, char *deadlock_msg,
                      size_t deadlock_len, struct rs_err *err);

#endif
