/* `routesim topo KEY=VALUE... [--dot]`: build a network and print its size (fat-trees and
 * the sorting fat-tree: one row per level of the fat-tree view), or its Graphviz description
 * (refused over dot_limit bytes, exit 3). */
#include <stdlib.h>

#include "cli/cli.h"
#include "routesim/net.h"
#include "routesim/pruned_butterfly.h"
#include "routesim/resources.h"
#include "routesim/sorting_fat_tree.h"

/* Keys of `topo` itself, besides the network's. */
static const struct rs_optdef topo_cli_options[] = {
    {"dot_limit", RS_OPT_STRING, "64M", 0, 0, NULL,
     "with --dot: refuse (exit 3) a description estimated above this many bytes (512M, 4G)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

/* With --dot: 0 when the DOT text of net fits dot_limit, else RS_ERESOURCE naming both. */
static int check_dot_size(const struct rs_net *net, const struct rs_params *p,
                          struct rs_err *err)
{
    uint64_t limit, need = rs_net_dot_bytes(net);
    const char *text = rs_params_text(p, &topo_cli_options[0]);
    int rc = rs_bytes_parse("dot_limit", text, &limit, err);
    if (rc || need <= limit)
        return rc;
    char a[32], b[32];
    rs_bytes_format(need, a, sizeof a);
    rs_bytes_format(limit, b, sizeof b);
    return rs_err_set(err, RS_ERESOURCE,
                      "the DOT description of topology=%s with %u nodes would be about %s, "
                      "more than dot_limit=%s (%s)",
                      net->name, net->n_nodes, a, text, b);
}

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

int cli_cmd_topo(int argc, char **argv)
{
    struct cli_args a;
    struct rs_err err;
    struct rs_net net = {0};
    struct rs_record rec;
    int rc, status = 0;
    rs_err_clear(&err);
    rs_record_init(&rec);
    rc = cli_parse(argc, argv, CLI_CONFIG | CLI_FORMAT | CLI_OUTPUT | CLI_DOT, 0, &a, &err);
    struct rs_named_path dest = {"-o", a.output};
    if (!rc)
        rc = cli_check_outputs(&a, &dest, 1, &err);
    if (!rc) {
        int i;
        const struct rs_optdef *tables[3] = {rs_net_options, topo_cli_options, NULL};
        if (!(rc = rs_opt_choice(&a.params, rs_net_options, "topology", &i, &err))) {
            tables[2] = rs_topologies[i]->options;
            rc = rs_params_check_known(&a.params, tables, 3, &err);
        }
        uint64_t limit; /* dot_limit's syntax, before anything is built */
        if (!rc)
            rc = rs_bytes_parse("dot_limit", rs_params_text(&a.params, &topo_cli_options[0]),
                                &limit, &err);
    }
    if (!rc)
        rc = rs_net_build(&net, &a.params, &err);
    if (rc) {
        status = cli_fail(&err);
    } else if (a.dot) {
        struct rs_buf out;
        rs_buf_init(&out);
        rc = check_dot_size(&net, &a.params, &err);
        if (!rc && (rc = rs_net_write_dot(&net, &out)))
            rs_err_set(&err, rc, "out of memory for the DOT text");
        else if (!rc)
            rc = rs_buf_write_file(&out, a.output, &err);
        rs_buf_free(&out);
        status = rc ? cli_fail(&err) : 0;
    } else if (rs__ftree_of(&net) || rs__sft_of(&net)) { /* the fat-tree view, root first */
        uint32_t rows = rs__ftree_of(&net) ? rs__ftree_of(&net)->n + 1 : rs__sft_of(&net)->H + 1;
        struct rs_record *recs = calloc(rows, sizeof *recs);
        int e = !recs;
        for (uint32_t i = 0; i < rows && !e; i++) {
            rs_record_init(&recs[i]);
            e = size_record(&net, (int)i, &recs[i]);
        }
        if (e) {
            rs_err_set(&err, RS_ENOMEM, "out of memory");
            status = cli_fail(&err);
        } else {
            status = cli_emit(&a, recs, rows);
        }
        for (uint32_t i = 0; recs && i < rows; i++)
            rs_record_free(&recs[i]);
        free(recs);
    } else {
        if (size_record(&net, -1, &rec)) {
            rs_err_set(&err, RS_ENOMEM, "out of memory");
            status = cli_fail(&err);
        } else {
            status = cli_emit(&a, &rec, 1);
        }
    }
    rs_net_free(&net);
    rs_record_free(&rec);
    cli_args_free(&a);
    return status;
}
