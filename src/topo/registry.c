/* The topology registry, the `topology` key, and building / freeing a network. */
#include <stdio.h>
#include <string.h>

#include "routesim/assert.h"
#include "routesim/net.h"

/* Every topology, in `routesim list` order. The X-macro yields the registry, the CHOICE
 * list of the `topology` key and the declarations of the ops structs (one file of src/topo
 * each; lcan.c defines the five LCAN entries, mesh.c the five grids), so that the three
 * cannot drift apart. Adding a topology: its file defining `const struct rs_topo_ops
 * rs_topo_NAME`, and X(NAME) here. */
#define RS__TOPO_LIST(X)                                                                   \
    X(butterfly) X(benes) X(mesh) X(torus) X(chain) X(ring) X(hypercube) X(lcan) X(baseline) X(swbanyan) \
    X(trac) X(cm5) X(graph) X(cms_lower_bound) X(pruned_butterfly) X(fat_tree)                   \
    X(sorting_fat_tree) X(kary_nfly) X(kary_ntree) X(dragonfly) X(hyperx)                   \
    X(flattened_butterfly) X(slimfly)

#define RS__TOPO_DECL(name) extern const struct rs_topo_ops rs_topo_##name;
RS__TOPO_LIST(RS__TOPO_DECL)
#undef RS__TOPO_DECL

#define RS__TOPO_PTR(name) &rs_topo_##name,
const struct rs_topo_ops *const rs_topologies[] = {RS__TOPO_LIST(RS__TOPO_PTR) NULL};
#undef RS__TOPO_PTR

#define RS__TOPO_NAME(name) #name,
static const char *const topology_names[] = {RS__TOPO_LIST(RS__TOPO_NAME) NULL};
#undef RS__TOPO_NAME

const struct rs_optdef rs_net_options[] = {
    {"topology", RS_OPT_CHOICE, "butterfly", 0, 0, topology_names, "network to build", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

const struct rs_topo_ops *rs_topo_find(const char *name)
{
    RS_ASSERT(name != NULL);
    for (int i = 0; rs_topologies[i]; i++)
        if (!strcmp(rs_topologies[i]->name, name))
            return rs_topologies[i];
    return NULL;
}

void rs_topo_names_with(uint32_t caps, char *buf, size_t n)
{
    RS_ASSERT(buf != NULL || n == 0);
    size_t used = 0;
    if (n)
        buf[0] = '\0';
    for (int i = 0; rs_topologies[i] && used < n; i++)
        if ((rs_topologies[i]->caps & caps) == caps)
            used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? "|" : "",
                                     rs_topologies[i]->name);
}

int rs_net_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int i, rc;
    RS_ASSERT(net != NULL && p != NULL);
    memset(net, 0, sizeof *net);
    if ((rc = rs_opt_choice(p, rs_net_options, "topology", &i, err)))
        return rc;
    net->ops = rs_topologies[i];
    /* the ops struct rs_topo_NAME names itself NAME (the X-macro above) */
    RS_ASSERT(!strcmp(net->ops->name, topology_names[i]));
    net->caps = net->ops->caps;
    strncpy(net->name, net->ops->name, sizeof net->name - 1);
    if ((rc = net->ops->build(net, p, err))) {
        rs_net_free(net);
        return rc;
    }
    /* what every engine relies on: a non-empty network with at least one port, terminals
     * (several may share a node: concentration, kary_nfly), and at most one channel per
     * (node, port) (net.h) */
    RS_ASSERT(net->n_nodes > 0 && net->max_ports > 0);
    RS_ASSERT(net->n_terminals > 0);
    RS_ASSERT(net->n_channels <= (uint64_t)net->n_nodes * net->max_ports);
    /* the declared capabilities agree with the built structure (net.h) */
    RS_ASSERT(!(net->caps & RS_CAP_LEVELED) == !net->n_levels);
    RS_ASSERT(!(net->caps & RS_CAP_WRAP) == !net->wrap);
    RS_ASSERT(!(net->caps & RS_CAP_COORDS) ||
              (net->ops->distance && net->ops->productive && net->dims && net->k));
    /* a partition order comes with its inverse, and its units divide the nodes (net.h) */
    RS_ASSERT(!net->ops->part_pos == !net->ops->part_node);
    for (int u = 0; u < 2; u++)
        RS_ASSERT(!net->part_unit[u] ||
                  (net->ops->part_pos && net->n_nodes % net->part_unit[u] == 0));
    return 0;
}

void rs_net_free(struct rs_net *net)
{
    RS_ASSERT(net != NULL);
    if (net->route_free) /* the routing's tables (rs_route_prepare) */
        net->route_free(net->route_priv);
    if (net->ops && net->ops->destroy)
        net->ops->destroy(net);
    memset(net, 0, sizeof *net);
}
