/* The topology registry, the `topology` key, and building / freeing a network. */
#include <stdio.h>
#include <string.h>

#include "routesim/assert.h"
#include "routesim/net.h"
#include "topo/topologies.h"

const struct rs_topo_ops *const rs_topologies[] = {
    &rs_topo_butterfly, &rs_topo_benes, &rs_topo_mesh, &rs_topo_torus,
    &rs_topo_chain,     &rs_topo_ring,
    &rs_topo_lcan, &rs_topo_baseline, &rs_topo_swbanyan, &rs_topo_trac, &rs_topo_cm5,
    &rs_topo_graph, &rs_topo_cms_lower_bound, NULL};

static const char *const topology_names[] = {"butterfly", "benes", "mesh", "torus",
                                             "chain",     "ring",
                                             "lcan", "baseline", "swbanyan", "trac", "cm5",
                                             "graph", "cms_lower_bound", NULL};

const struct rs_optdef rs_net_options[] = {
    {"topology", RS_OPT_CHOICE, "butterfly", 0, 0, topology_names, "network to build"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

const struct rs_topo_ops *rs_topo_find(const char *name)
{
    for (int i = 0; rs_topologies[i]; i++)
        if (!strcmp(rs_topologies[i]->name, name))
            return rs_topologies[i];
    return NULL;
}

void rs_topo_names_with(uint32_t caps, char *buf, size_t n)
{
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
    memset(net, 0, sizeof *net);
    if ((rc = rs_opt_choice(p, rs_net_options, "topology", &i, err)))
        return rc;
    net->ops = rs_topologies[i];
    net->caps = net->ops->caps;
    strncpy(net->name, net->ops->name, sizeof net->name - 1);
    if ((rc = net->ops->build(net, p, err))) {
        rs_net_free(net);
        return rc;
    }
    /* the declared capabilities agree with the built structure (net.h) */
    RS_ASSERT(!(net->caps & RS_CAP_LEVELED) == !net->n_levels);
    RS_ASSERT(!(net->caps & RS_CAP_WRAP) == !net->wrap);
    RS_ASSERT(!(net->caps & RS_CAP_COORDS) ||
              (net->ops->distance && net->ops->productive && net->dims && net->k));
    return 0;
}

void rs_net_free(struct rs_net *net)
{
    if (net->ops && net->ops->destroy)
        net->ops->destroy(net);
    memset(net, 0, sizeof *net);
}
