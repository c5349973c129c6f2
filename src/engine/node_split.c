/* The split of a network's nodes into parts (threads, MPI ranks) that the engines share:
 * the partition order and where its cuts fall (node_split.h, docs/distributed.md "How the
 * nodes are split"). */
#include "engine/node_split.h"

#include <string.h>

void rs__node_split_init(struct rs__node_split *s, const struct rs_net *net, uint32_t parts)
{
    memset(s, 0, sizeof *s);
    s->net = net;
    s->parts = parts;
    s->unit = 1;
    uint64_t n = net->n_nodes;
    if (net->n_levels > 1 && net->N >= parts && (uint64_t)net->n_levels * net->N == n) {
        s->rows = net->N; /* numbered level by level: split by rows */
        s->levels = net->n_levels;
        s->unit = s->levels;
    } else if (net->ops->part_pos) {
        s->pos_of = net->ops->part_pos;
        s->node_at = net->ops->part_node;
        for (int i = 0; i < 2; i++)
            if (net->part_unit[i] && n / net->part_unit[i] >= parts) {
                s->unit = net->part_unit[i];
                break;
            }
    }
    s->n_units = n / s->unit;
}

void rs__node_split_range(const struct rs__node_split *s, uint32_t k, uint64_t *lo,
                          uint64_t *hi)
{
    /* the units u with floor(u P / U) = k: [ceil(k U / P), ceil((k + 1) U / P)) */
    uint64_t U = s->n_units, P = s->parts;
    *lo = (k * U + P - 1) / P * s->unit;
    *hi = ((k + 1) * U + P - 1) / P * s->unit;
}
