/* `routesim topo KEY=VALUE... [--dot] [--svg F] [--png F]`: build a network and print its
 * size (fat-trees and the sorting fat-tree: one row per level of the fat-tree view), or its
 * Graphviz description (refused over dot_limit bytes, exit 3), or draw it (picture.c;
 * refused over picture_limit nodes, exit 3). */
#include "cli/cli.h"
#include "routesim/alloc.h"
#include "routesim/api.h"
#include "routesim/net.h"
#include "routesim/resources.h"

/* Keys of `topo` itself, besides the network's. */
const struct rs_optdef cli_topo_options[] = {
    {"dot_limit", RS_OPT_STRING, "64M", 0, 0, NULL,
     "with --dot: refuse (exit 3) a description estimated above this many bytes (512M, 4G)",
     "bytes"},
    {"picture_limit", RS_OPT_INT, "2000", 1, UINT32_MAX, NULL,
     "with --svg/--png: refuse (exit 3) to draw a network of more nodes than this", "nodes"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* With --dot: 0 when the DOT text of net fits dot_limit, else RS_ERESOURCE naming both. */
static int check_dot_size(const struct rs_net *net, const struct rs_params *p,
                          struct rs_err *err)
{
    uint64_t limit, need = rs_net_dot_bytes(net);
    const char *text = rs_params_text(p, &cli_topo_options[0]);
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

int cli_cmd_topo(int argc, char **argv)
{
    struct cli_args a;
    struct rs_err err;
    struct rs_net net = {0};
    int rc, status = 0;
    rs_err_clear(&err);
    rc = cli_parse(argc, argv, CLI_CONFIG | CLI_FORMAT | CLI_OUTPUT | CLI_DOT | CLI_SVG | CLI_PNG,
                   0, &a, &err);
    int drawing = a.svg || a.png;
    struct rs_named_path dest[3] = {{"-o", a.output}, {"--svg", a.svg}, {"--png", a.png}};
    if (!rc && drawing && (a.dot || a.output))
        rc = rs_err_set(&err, RS_EPARSE, "command line: --svg and --png write the picture; "
                                         "give them without --dot and -o");
    if (!rc)
        rc = cli_check_outputs(&a, dest, 3, &err);
    if (!rc) {
        int i;
        const struct rs_optdef *tables[3] = {rs_net_options, cli_topo_options, NULL};
        if (!(rc = rs_opt_choice(&a.params, rs_net_options, "topology", &i, &err))) {
            tables[2] = rs_topologies[i]->options;
            rc = rs_params_check_known(&a.params, tables, 3, &err);
        }
        uint64_t limit; /* dot_limit's and picture_limit's syntax, before anything is built */
        int64_t nodes;
        if (!rc)
            rc = rs_bytes_parse("dot_limit", rs_params_text(&a.params, &cli_topo_options[0]),
                                &limit, &err);
        if (!rc)
            rc = rs_params_int(&a.params, &cli_topo_options[1], &nodes, &err);
    }
    if (!rc)
        rc = rs_net_build(&net, &a.params, &err);
    if (rc) {
        status = cli_fail(&err);
    } else if (drawing) {
        int64_t limit = 0; /* checked with the keys below, before the network is built */
        rc = rs_params_int(&a.params, &cli_topo_options[1], &limit, &err);
        if (!rc && a.svg)
            rc = cli_picture(&net, a.svg, "svg", (uint64_t)limit, &err);
        if (!rc && a.png)
            rc = cli_picture(&net, a.png, "png", (uint64_t)limit, &err);
        status = rc ? cli_fail(&err) : 0;
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
    } else {
        struct rs_record *recs = NULL;
        size_t rows = 0;
        if (rs_topo_records(&net, &recs, &rows)) {
            rs_err_set(&err, RS_ENOMEM, "out of memory");
            status = cli_fail(&err);
        } else {
            status = cli_emit(&a, recs, rows);
        }
        for (size_t i = 0; i < rows; i++)
            rs_record_free(&recs[i]);
        rs_free(recs);
    }
    rs_net_free(&net);
    cli_args_free(&a);
    return status;
}
