/* The split of a network's nodes into parts, one per thread (threads=T) or MPI rank, that
 * every engine running one simulation on several of them shares (docs/distributed.md "How
 * the nodes are split"). The nodes are put in a partition order (a position per node, a
 * bijection of [0, n)) and part k holds a range of positions, cut on the coarsest unit of
 * which there are at least as many as parts:
 *   - a leveled network numbered level by level (node = level N + row; butterflies, Beneš
 *     networks, k-ary n-flies) with N >= parts: position row L + level (L levels), cut on
 *     rows: part k holds rows [k N / P, (k + 1) N / P) of every level;
 *   - a topology with rs_topo_ops.part_pos: its positions, cut on rs_net.part_unit
 *     (dragonfly: each router followed by its p terminals, groups contiguous, cut on groups
 *     where there are at least P of them, else on routers; k-ary n-tree: a row of switches
 *     of every level; fat tree: in order, each part a run of subtrees);
 *   - any other: the node ids (rows of a mesh or torus).
 * Part k holds the units u with floor(u P / U) = k (U units). Any split gives the serial
 * bytes in every engine; this one decides only how the work and the exchanges fall. */
#ifndef RS_ENGINE_NODE_SPLIT_H
#define RS_ENGINE_NODE_SPLIT_H

#include <stdint.h>

#include "routesim/net.h"

struct rs__node_split {
    const struct rs_net *net;
    uint32_t (*pos_of)(const struct rs_net *net, uint32_t node); /* NULL: rows or node ids */
    uint32_t (*node_at)(const struct rs_net *net, uint32_t pos);
    uint64_t rows, levels; /* split by rows: N and the levels; else 0 */
    uint64_t unit;         /* positions per unit parts are cut on (1: anywhere) */
    uint64_t n_units;      /* n_nodes / unit */
    uint32_t parts;
};

/* Set s to the split of net's nodes into parts (>= 1) parts. Needs no memory. */
void rs__node_split_init(struct rs__node_split *s, const struct rs_net *net, uint32_t parts);

/* The position of node (UNITS: positions, 0 .. n_nodes - 1). */
static inline uint64_t rs__node_split_pos(const struct rs__node_split *s, uint64_t node)
{
    if (s->rows)
        return node % s->rows * s->levels + node / s->rows;
    return s->pos_of ? s->pos_of(s->net, (uint32_t)node) : node;
}

/* The node at position pos (the inverse of rs__node_split_pos). */
static inline uint64_t rs__node_split_node(const struct rs__node_split *s, uint64_t pos)
{
    if (s->rows)
        return pos % s->levels * s->rows + pos / s->levels;
    return s->node_at ? s->node_at(s->net, (uint32_t)pos) : pos;
}

/* The part (0 .. parts - 1) that holds node. */
static inline uint32_t rs__node_split_part(const struct rs__node_split *s, uint64_t node)
{
    uint64_t u = s->rows ? node % s->rows : rs__node_split_pos(s, node);
    if (s->unit > 1 && !s->rows)
        u /= s->unit;
    return (uint32_t)(u * s->parts / s->n_units);
}

/* The positions [*lo, *hi) of part k's nodes (k < parts; empty only when there are fewer
 * nodes than parts). */
void rs__node_split_range(const struct rs__node_split *s, uint32_t k, uint64_t *lo,
                          uint64_t *hi);

#endif
