/* The size of a built network as result records (`routesim topo`, routesim.topo in Python):
 * one record, or one per level of a fat-tree's view. The internals of fat-trees and the
 * sorting fat-tree (rs__ structures) are read here, inside the library. */
#include "routesim/alloc.h"

#include "routesim/api.h"
#include "routesim/pruned_butterfly.h"
#include "routesim/sorting_fat_tree.h"

/* The size of net into rec; with level >= 0 (a fat-tree) also that level of its fat-tree
 * view: height, fat-tree nodes, network nodes per fat-tree node, wires of the channel above
 * each node (0 at the root) and wires of the level's channels together. Returns 0 or
 * nonzero when out of memory. */
static int size_record(const struct rs_net *net, int level, struct rs_record *rec)
{
    int e = rs_record_string(rec, "topology", net->name);
    e |= rs_record_int(rec, "nodes", net->n_nodes);
    e |= rs_record_int(rec, "channels", (int64_t)net->n_channels);
    e |= rs_record_int(rec, "max_ports", net->max_ports);
    e |= rs_record_int(rec, "terminals", net->n_terminals);
    e |= rs_record_int(rec, "levels", net->n_levels);
    if (level < 0)
        return e;
    const struct rs__sft *sft = rs__sft_of(net);
    if (sft) { /* level H is the meshes; a tree node's sorter takes both child channels */
        uint32_t i = (uint32_t)level;
        e |= rs_record_int(rec, "tree_level", i);
        e |= rs_record_int(rec, "node_height", sft->n - i);
        e |= rs_record_int(rec, "tree_nodes", 1ll << i);
        e |= rs_record_int(rec, "terminals_below", 1ll << (sft->n - i));
        e |= rs_record_int(rec, "mesh_side", i == sft->H ? sft->m : 0);
        e |= rs_record_int(rec, "sorter_s", i < sft->H ? 2 * sft->cap[i + 1] : 0);
        e |= rs_record_int(rec, "capacity", sft->cap[i]);
        e |= rs_record_int(rec, "wires", (int64_t)sft->cap[i] << i);
        return e;
    }
    const struct rs__ftree *ft = rs__ftree_of(net);
    const struct rs__pb *pb = rs__pb_of(net);
    uint32_t i = (uint32_t)level, cap = ft->cap[i];
    e |= rs_record_int(rec, "tree_level", i);
    e |= rs_record_int(rec, "node_height", ft->n - i);
    e |= rs_record_int(rec, "tree_nodes", 1ll << i);
    e |= rs_record_int(rec, "vertices_per_node", pb ? rs__pb_width(ft->n, i) : 1);
    e |= rs_record_int(rec, "capacity", cap);
    e |= rs_record_int(rec, "wires", (int64_t)cap << i);
    return e;
}

int rs_topo_records(const struct rs_net *net, struct rs_record **recs, size_t *n)
{
    int tree = rs__ftree_of(net) || rs__sft_of(net); /* the fat-tree view, root first */
    size_t rows = !tree ? 1
                  : rs__ftree_of(net) ? rs__ftree_of(net)->n + 1
                                      : rs__sft_of(net)->H + 1;
    *recs = rs_calloc(rows, sizeof **recs);
    *n = 0;
    if (!*recs)
        return RS_ENOMEM;
    int e = 0;
    for (size_t i = 0; i < rows && !e; i++) {
        rs_record_init(&(*recs)[i]);
        *n = i + 1;
        e = size_record(net, tree ? (int)i : -1, &(*recs)[i]);
    }
    return e ? RS_ENOMEM : 0;
}
