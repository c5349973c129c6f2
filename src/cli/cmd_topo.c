/* `routesim topo KEY=VALUE... [--dot]`: build a network and print its size, or its
 * Graphviz description. */
#include "cli/cli.h"
#include "routesim/net.h"

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
        const struct rs_optdef *tables[2] = {rs_net_options, NULL};
        if (!(rc = rs_opt_choice(&a.params, rs_net_options, "topology", &i, &err))) {
            tables[1] = rs_topologies[i]->options;
            rc = rs_params_check_known(&a.params, tables, 2, &err);
        }
    }
    if (!rc)
        rc = rs_net_build(&net, &a.params, &err);
    if (rc) {
        status = cli_fail(&err);
    } else if (a.dot) {
        struct rs_buf out;
        rs_buf_init(&out);
        rc = rs_net_write_dot(&net, &out);
        if (rc)
            rs_err_set(&err, rc, "out of memory for the DOT text");
        else
            rc = rs_buf_write_file(&out, a.output, &err);
        rs_buf_free(&out);
        status = rc ? cli_fail(&err) : 0;
    } else {
        int e = rs_record_string(&rec, "topology", net.name);
        e |= rs_record_int(&rec, "nodes", net.n_nodes);
        e |= rs_record_int(&rec, "channels", (int64_t)net.n_channels);
        e |= rs_record_int(&rec, "max_ports", net.max_ports);
        e |= rs_record_int(&rec, "terminals", net.n_terminals);
        e |= rs_record_int(&rec, "levels", net.n_levels);
        if (e) {
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
