/* topology=graph: any directed graph read from graph_file (docs/topologies.md, "Graph").
 * Every node is a terminal. With paths_file the messages follow their explicit paths
 * (traffic=paths); without, any traffic is routed on shortest paths, ties to the lowest
 * out-port (ports numbered in file order). */
#include <stdio.h>
#include <stdlib.h>

#include "topo/graph_files.h"
#include "routesim/alloc.h"

static const struct rs_optdef graph_options[] = {
    {"graph_file", RS_OPT_STRING, NULL, 0, 0, NULL,
     "file of the graph: a 'nodes N' line, then one directed edge 'u v' per line", "-"},
    {"paths_file", RS_OPT_STRING, NULL, 0, 0, NULL,
     "file of message paths, one per line as node ids (use with traffic=paths)", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static void graph_destroy(struct rs_net *net)
{
    if (net->priv)
        rs__graph_free(net->priv);
    rs_free(net->priv);
    net->priv = NULL;
}

/* Read an optional string key: NULL when absent or empty. */
static int file_key(const struct rs_params *p, const char *name, const char **out,
                    struct rs_err *err)
{
    const struct rs_optdef *d = rs_optdef_find(graph_options, name);
    *out = NULL;
    if (!rs_params_text(p, d))
        return 0;
    int rc = rs_params_string(p, d, out, err);
    if (!rc && (*out)[0] == '\0')
        *out = NULL;
    return rc;
}

static int graph_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    const char *gpath, *ppath;
    int rc;
    if ((rc = file_key(p, "graph_file", &gpath, err)) ||
        (rc = file_key(p, "paths_file", &ppath, err)))
        return rc;
    if (!gpath)
        return rs_err_set(err, RS_EINVAL, "topology=graph needs graph_file=PATH");
    struct rs__graph *g = rs_calloc(1, sizeof *g);
    if (!g)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    net->priv = g;
    if ((rc = rs__graph_read_file(g, gpath, err)))
        return rc;
    if (ppath) {
        if ((rc = rs__paths_read_file(g, ppath, err)))
            return rc;
    } else {
        uint32_t from = 0, to = 0;
        if (g->n > RS__GRAPH_MAX_SP_NODES)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "%s: topology=graph without paths_file routes on shortest paths, "
                              "which supports at most %u nodes (got %u); give paths_file=PATH",
                              gpath, RS__GRAPH_MAX_SP_NODES, g->n);
        rc = rs__graph_shortest_paths(g, &from, &to, err);
        if (rc < 0)
            return rc;
        if (rc > 0)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "%s: node %u cannot reach node %u; topology=graph without "
                              "paths_file routes every pair on shortest paths, so the graph "
                              "must be strongly connected (or give paths_file=PATH)",
                              gpath, from, to);
    }
    rs__graph_attach(net, g);
    return 0;
}

static void graph_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    snprintf(buf, n, "%u", node);
}

const struct rs_topo_ops rs_topo_graph = {
    .name = "graph",
    .summary = "any directed graph from graph_file; explicit paths from paths_file or "
               "shortest paths",
    .options = graph_options,
    .build = graph_build,
    .destroy = graph_destroy,
    .neighbor = rs__graph_neighbor,
    .src_node = rs__graph_terminal,
    .dst_node = rs__graph_terminal,
    .level = rs__graph_level,
    .label = graph_label,
    .route = rs__graph_route,
    .valiant_ok = rs__graph_valiant_ok,
    .valiant_via_terminal = 1,
    .path_length = rs__graph_path_length,
};
