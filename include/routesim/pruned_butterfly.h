/* Fat-trees and the pruned butterfly of Bay & Bilardi (paper 000 §2, §3.1): the fat-tree
 * view (nodes, channels, capacities, peaks) shared by topology=fat_tree, topology=
 * pruned_butterfly, the load-factor analysis and the bay_bilardi algorithm; and the pruned
 * butterfly's vertex arithmetic <i,j,k>. Decisions: docs/papers/bay-bilardi.md. */
#ifndef ROUTESIM_PRUNED_BUTTERFLY_H
#define ROUTESIM_PRUNED_BUTTERFLY_H

#include <stdint.h>

#include "routesim/assert.h"
#include "routesim/net.h"

/* Largest log2 N of either topology (N <= 2^26 leaves). */
#define RS_FT_MAX_LOG2N 26

/* ---- the fat-tree view --------------------------------------------------------------
 *
 * The underlying complete binary tree has N = 2^n leaves. Levels count from the root: the
 * root is level 0, the leaves level n; node j (0 <= j < 2^i, left to right) of level i is
 * written (i, j) and has height n - i. Leaf l is node (n, l) and holds terminal l.
 *
 * Channel (i, j), 1 <= i <= n, joins node (i, j) to its parent (i-1, j/2). Its capacity
 * cap[i] (UNITS: wires) depends only on i. The channel "at height h" is the one entering a
 * node of height h, h = n - i + 1 (1..n): §2's area-universal rule gives it 2^ceil(h/2)
 * wires, so a leaf's channel has 2 and the root's two channels sqrt(N)-ish (see the docs
 * page for why this is the convention under which the pruned butterfly is area-universal).
 *
 * Ids (dense, for per-node and per-channel arrays): node (i, j) has id 2^i + j (heap
 * order, root 1, leaf l is N + l; id 0 unused); channel (i, j) has the id of its lower node
 * (2..2N-1). Arrays indexed by either id need 2N entries. */
struct rs__ftree {
    uint32_t n;                         /* log2 N, 1..RS_FT_MAX_LOG2N */
    uint32_t N;                         /* leaves = terminals */
    uint32_t cap[RS_FT_MAX_LOG2N + 1];  /* cap[i]: wires of a level-i channel; cap[0] = 0 */
};

/* The fat-tree view of net, or NULL when net does not declare RS_CAP_FAT_TREE (such a
 * network keeps a struct whose first member is its struct rs__ftree at net->priv: today
 * fat_tree and pruned_butterfly). */
const struct rs__ftree *rs__ftree_of(const struct rs_net *net);

/* Fill ft for N = 2^n leaves with the area-universal capacities of §2: cap[i] =
 * 2^ceil((n-i+1)/2) for 1 <= i <= n. Requires 1 <= n <= RS_FT_MAX_LOG2N. */
void rs__ftree_init_area_universal(struct rs__ftree *ft, uint32_t n);

/* Id of node (i, j); requires i <= n, j < 2^i. */
static inline uint32_t rs__ft_node(uint32_t i, uint32_t j)
{
    RS_DASSERT(i <= RS_FT_MAX_LOG2N && j < (1u << i));
    return (1u << i) + j;
}

/* Level of node (or channel) id; requires id >= 1. */
static inline uint32_t rs__ft_level(uint32_t id)
{
    RS_DASSERT(id >= 1);
    return 31u - (uint32_t)__builtin_clz(id);
}

/* Index j of node (or channel) id within its level. */
static inline uint32_t rs__ft_index(uint32_t id)
{
    return id - (1u << rs__ft_level(id));
}

/* Peak of a message from leaf s to leaf t: the level of their lowest common ancestor
 * (n when s == t, else 0..n-1). §3.2: "the level in the tree of the LCA". */
static inline uint32_t rs__ft_peak(const struct rs__ftree *ft, uint32_t s, uint32_t t)
{
    RS_DASSERT(s < ft->N && t < ft->N);
    return s == t ? ft->n : (uint32_t)__builtin_clz(s ^ t) - (32u - ft->n);
}

/* 1 when leaf l lies in the subtree of node (i, j), else 0. */
static inline int rs__ft_below(const struct rs__ftree *ft, uint32_t i, uint32_t j, uint32_t l)
{
    return (l >> (ft->n - i)) == j;
}

/* 1 when a message from leaf s to leaf t crosses channel (i, j) (i >= 1): exactly one of s
 * and t lies below node (i, j). The message's path crosses the channels (i, s >> (n-i))
 * and (i, t >> (n-i)) for every level i > peak(s, t), and no other. */
static inline int rs__ft_crosses(const struct rs__ftree *ft, uint32_t i, uint32_t j,
                                 uint32_t s, uint32_t t)
{
    RS_DASSERT(i >= 1 && i <= ft->n);
    return rs__ft_below(ft, i, j, s) != rs__ft_below(ft, i, j, t);
}

/* Channels of the tree path from leaf s to leaf t: up to the peak and down again,
 * 2 (n - peak) (0 when s == t). */
static inline uint32_t rs__ft_path_length(const struct rs__ftree *ft, uint32_t s, uint32_t t)
{
    return 2 * (ft->n - rs__ft_peak(ft, s, t));
}

/* ---- the pruned butterfly (§3.1) ------------------------------------------------------
 *
 * N = 4^m leaves (n = log2 N even, 2..RS_FT_MAX_LOG2N). Vertices <i, j, k>: level i
 * (0..n), node j (0 <= j < 2^i), k < W(i) = sqrt(N) 2^-floor(i/2) = 2^ceil((n-i)/2) (the
 * width of a level-i node). Edges, between levels i and i-1, i = 1..n:
 *   even i: <i,j,k> -- <i-1, j/2, k> and <i,j,k> -- <i-1, j/2, k + W(i)>, k < W(i);
 *   odd i:  <i,j,k> -- <i-1, j/2, k>, k < W(i) (= W(i-1)).
 * Equivalently E_ij = { <i, j, e mod W(i)> -- <i-1, j/2, e> : 0 <= e < W(i-1) }: one edge
 * per vertex of the parent node, so |E_ij| = cap(i) = W(i-1) = sqrt(N) 2^-floor((i-1)/2) =
 * 2^ceil((n-i+1)/2): exactly the area-universal capacities. (The printed |E_ij| =
 * sqrt(N) 2^floor(-(i-1)/2), and the printed range k < sqrt(N) 2^floor(-i/2) of the odd
 * edges, put the minus inside the floor; at even i (capacity) and odd i (range) they give
 * half the true value. We follow the vertex set and the edge rules; docs page.) The edge
 * index e of an edge within its channel is the k of its upper endpoint.
 *
 * Leaf l is <n, l, 0>, root r (0 <= r < sqrt(N)) is <0, 0, r>. The unique leaf-root path
 * has level-i vertex <i, l >> (n-i), r mod W(i)>: going up, the even level i chooses bit
 * (n-i)/2 of r, the odd levels have no choice; going down every vertex has exactly one edge
 * into each child node, so a downward path is fixed by the destination alone.
 *
 * Vertex ids (network nodes, rs_net): level by level from the root, <i,j,k> is
 * first[i] + j W(i) + k. */
struct rs__pb {
    struct rs__ftree ft;                   /* first member: rs__ftree_of works on it */
    uint32_t first[RS_FT_MAX_LOG2N + 2];   /* first[i]: id of <i,0,0>; first[n+1] = vertices */
};

/* Ports of a vertex <i,j,k> in rs_net (max_ports 4): RS_PB_DOWN + c goes down to the
 * vertex <i+1, 2j+c, k mod W(i+1)> (absent at the leaves); RS_PB_UP + b goes up to
 * <i-1, j/2, k + b W(i)> (b = 1 only at even i; absent at the root). In-slots mirror
 * them: a channel from child c enters at slot RS_PB_DOWN + c, one from the parent vertex
 * <i-1, j/2, e> at slot RS_PB_UP + e / W(i). */
#define RS_PB_DOWN 0u
#define RS_PB_UP 2u
#define RS_PB_PORTS 4u

/* The pruned butterfly of net, or NULL when net does not declare RS_CAP_PRUNED_BUTTERFLY. */
const struct rs__pb *rs__pb_of(const struct rs_net *net);

/* Fill pb for N = 2^n leaves (n even, 2 <= n <= RS_FT_MAX_LOG2N): W, first[], and the
 * fat-tree view with cap[i] = |E_ij|. */
void rs__pb_init(struct rs__pb *pb, uint32_t n);

/* W(i): vertices of a level-i node, 2^ceil((n-i)/2). Requires i <= n, n even. */
static inline uint32_t rs__pb_width(uint32_t n, uint32_t i)
{
    RS_DASSERT(i <= n && n % 2 == 0);
    return 1u << ((n - i + 1) / 2);
}

/* |E_ij|: edges (wires) of a level-i channel, W(i-1). Requires 1 <= i <= n. */
static inline uint32_t rs__pb_cap(uint32_t n, uint32_t i)
{
    RS_DASSERT(i >= 1 && i <= n);
    return rs__pb_width(n, i - 1);
}

/* Id of vertex <i, j, k>; requires i <= n, j < 2^i, k < W(i). */
static inline uint32_t rs__pb_vertex(const struct rs__pb *pb, uint32_t i, uint32_t j, uint32_t k)
{
    RS_DASSERT(i <= pb->ft.n && j < (1u << i) && k < rs__pb_width(pb->ft.n, i));
    return pb->first[i] + j * rs__pb_width(pb->ft.n, i) + k;
}

/* Decode vertex id v (< first[n+1]) into <*i, *j, *k>. */
void rs__pb_decode(const struct rs__pb *pb, uint32_t v, uint32_t *i, uint32_t *j, uint32_t *k);

/* Leaf l = <n, l, 0> (l < N) and root r = <0, 0, r> (r < sqrt(N)). */
static inline uint32_t rs__pb_leaf(const struct rs__pb *pb, uint32_t l)
{
    return rs__pb_vertex(pb, pb->ft.n, l, 0);
}
static inline uint32_t rs__pb_root(const struct rs__pb *pb, uint32_t r)
{
    return rs__pb_vertex(pb, 0, 0, r);
}

/* The level-i vertex of the unique path between leaf l and root r (§3.1):
 * <i, l >> (n-i), r mod W(i)>. Requires i <= n, l < N, r < sqrt(N). */
static inline uint32_t rs__pb_path_vertex(const struct rs__pb *pb, uint32_t l, uint32_t r,
                                          uint32_t i)
{
    uint32_t n = pb->ft.n;
    RS_DASSERT(l < pb->ft.N && r < rs__pb_width(n, 0) && i <= n);
    return rs__pb_vertex(pb, i, l >> (n - i), r & (rs__pb_width(n, i) - 1));
}

/* The fat-tree channel and wire an rs_net channel (v, port) of a pruned butterfly lies on:
 * *chan gets the channel id (rs__ft_node of its lower node), *wire the edge index e (0 <=
 * e < cap), *up 1 for an upward channel. Returns 0, or -1 when the port does not exist. */
int rs__pb_channel_of(const struct rs__pb *pb, uint32_t v, uint32_t port, uint32_t *chan,
                      uint32_t *wire, int *up);

#endif
