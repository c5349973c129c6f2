/* Label arithmetic of Least Common Ancestor Networks (Scherson & Chien, paper 002 §2.1),
 * shared by the topology (lcan.c), the circuit engine, the root-permutation workload and
 * the predictor: level sizes, switch ids, upper/downer neighbours, LCA levels. */
#ifndef RS_TOPO_LCAN_H
#define RS_TOPO_LCAN_H

#include <stdint.h>

#include "routesim/net.h"

/* N <= 2^26 and d >= 2 give at most 26 levels. */
#define RS_LCAN_MAX_LEVELS 26

/* An LCAN with per-level switch sizes: level i (0 = next to the PEs) has S[i] switches of
 * d[i] downers and u[i] uppers (the uppers of the top level l-1 are not wired).
 *
 * Node ids: PEs (terminals) 0..N-1, then the switches level by level: switch x of level i
 * (0 <= x < S[i]) is node first[i] + x.
 * Ports of a switch of level i: 0..d[i]-1 are its downers (the down channels), d[i]+k is
 * its upper k (the up channel; absent on the top level). In-slots: a channel arriving from
 * below on downer j enters at slot j, one arriving from above on upper k at slot d[i]+k.
 * A PE has port 0 (its up channel) and in-slot 0.
 *
 * CB-LCAN (tree == 0): PE p has the mixed-radix digits p_{l-1} .. p_0, p_j in base d[j]
 * (p = sum p_j D[j-1], D[j] = d[0]...d[j]). Switch x of level i is the label
 * [p_{l-1} .. p_{i+1}][k_0 .. k_{i-1}]: high part h = x / U[i] (the base-d digits, H[i]
 * values) and low part lo = x mod U[i] (base-u digits k_0 most significant, U[i] =
 * u[0]...u[i-1]). Its upper k leads to the level-(i+1) switch with h' = h / d[i+1] and
 * lo' = lo u[i] + k, at that switch's downer h mod d[i+1] (the removed digit w_i of §2.1).
 *
 * T-LCAN (tree == 1): level i+1 switch y has a[i+1] = d[i+1]/u[i] children, x = y a[i+1] + c
 * for c < a[i+1]; upper k of child x enters downer c u[i] + k of its parent. S[l-1] = 1.
 *
 * span[i]: PEs below one switch of level i (CB: D[i]; T: d[0] a[1] ... a[i]); two PEs
 * have LCA level i for the smallest i with p / span[i] equal. */
struct rs_lcan {
    uint32_t N, l;
    int tree;
    uint32_t d[RS_LCAN_MAX_LEVELS], u[RS_LCAN_MAX_LEVELS];
    uint32_t S[RS_LCAN_MAX_LEVELS];     /* switches of level i */
    uint32_t first[RS_LCAN_MAX_LEVELS]; /* node id of switch 0 of level i */
    uint32_t U[RS_LCAN_MAX_LEVELS];     /* CB: u[0]...u[i-1] (low-part values) */
    uint32_t span[RS_LCAN_MAX_LEVELS];  /* PEs below one switch of level i */
    uint32_t a[RS_LCAN_MAX_LEVELS];     /* T: children of a level-i switch (i >= 1) */
    uint32_t groups;                    /* subtrees below the top level (root groups) */
};

/* The LCAN structure of net, or NULL when net does not declare RS_CAP_LCA (net.h: such a
 * network keeps its struct rs_lcan at net->priv; today lcan, baseline, swbanyan, trac,
 * cm5). */
const struct rs_lcan *rs__lcan_of(const struct rs_net *net);

/* Level of node (0..l-1 for switches), or -1 for a PE. */
static inline int rs__lcan_level(const struct rs_lcan *lc, uint32_t node)
{
    if (node < lc->N)
        return -1;
    int i = 0;
    while ((uint32_t)i + 1 < lc->l && node >= lc->first[i + 1])
        i++;
    return i;
}

/* Node id of switch x of level i. */
static inline uint32_t rs__lcan_switch(const struct rs_lcan *lc, uint32_t i, uint32_t x)
{
    return lc->first[i] + x;
}

/* LCA level of PEs s and t: the smallest level whose switches reach both (002 §2.1; CB:
 * the most significant differing base-d digit). 0 when s == t. */
static inline uint32_t rs__lcan_lca_level(const struct rs_lcan *lc, uint32_t s, uint32_t t)
{
    uint32_t i = 0;
    while (i + 1 < lc->l && s / lc->span[i] != t / lc->span[i])
        i++;
    return i;
}

/* Root group of PE t (the subtree below the top level holding it); a pair has LCA level
 * l-1 exactly when its groups differ (l >= 2). */
static inline uint32_t rs__lcan_group(const struct rs_lcan *lc, uint32_t t)
{
    return t / (lc->N / lc->groups);
}

/* Switch of level i above upper k of switch x of level i (i < l-1); *downer gets the
 * downer of that switch where the wire arrives. */
static inline uint32_t rs__lcan_up(const struct rs_lcan *lc, uint32_t i, uint32_t x, uint32_t k,
                                   uint32_t *downer)
{
    if (lc->tree) {
        *downer = (x % lc->a[i + 1]) * lc->u[i] + k;
        return x / lc->a[i + 1];
    }
    uint32_t h = x / lc->U[i], lo = x % lc->U[i];
    *downer = h % lc->d[i + 1];
    return (h / lc->d[i + 1]) * lc->U[i + 1] + lo * lc->u[i] + k;
}

/* Below downer j of switch x of level i >= 1: the switch of level i-1 it leads to; *upper
 * gets the upper of that switch where the wire arrives. */
static inline uint32_t rs__lcan_down(const struct rs_lcan *lc, uint32_t i, uint32_t x, uint32_t j,
                                     uint32_t *upper)
{
    if (lc->tree) {
        *upper = j % lc->u[i - 1];
        return x * lc->a[i] + j / lc->u[i - 1];
    }
    uint32_t h = x / lc->U[i], lo = x % lc->U[i];
    *upper = lo % lc->u[i - 1];
    return (h * lc->d[i] + j) * lc->U[i - 1] + lo / lc->u[i - 1];
}

/* Level-0 switch of PE p and the downer it hangs on. */
static inline uint32_t rs__lcan_pe_switch(const struct rs_lcan *lc, uint32_t p, uint32_t *downer)
{
    *downer = p % lc->d[0];
    return p / lc->d[0];
}

/* 1 when switch x of level i reaches PE t going down (t is below it). */
static inline int rs__lcan_above(const struct rs_lcan *lc, uint32_t i, uint32_t x, uint32_t t)
{
    uint32_t h = lc->tree ? x : x / lc->U[i];
    return h == t / lc->span[i];
}

/* The downer of switch x of level i that leads toward PE t below it. CB: the base-d digit
 * t_i (002 §2.3: "the switch in level i routes to downer j, where j is the d^i-weighted
 * digit"). T: the first wire of the bundle to the child holding t (level 0: t's downer);
 * the bundle has u[i-1] parallel wires, *wires gets their number (1 on CB and level 0). */
static inline uint32_t rs__lcan_downer_to(const struct rs_lcan *lc, uint32_t i, uint32_t t,
                                          uint32_t *wires)
{
    uint32_t below = i ? lc->span[i - 1] : 1;
    *wires = 1;
    if (!lc->tree || i == 0)
        return (t / below) % lc->d[i];
    *wires = lc->u[i - 1];
    return ((t / below) % lc->a[i]) * lc->u[i - 1];
}

#endif
