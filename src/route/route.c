/* What every routing shares: intermediates, the check of a routing against a network and an
 * engine, and explicit path expansion (the channel ids an oblivious route takes). Contracts
 * in include/routesim/route.h. */
#include <stdio.h>

#include "routesim/assert.h"
#include "routesim/rng.h"
#include "routesim/route.h"

uint32_t rs_route_uniform_mid(uint64_t seed, uint64_t msg_id, uint32_t n_terminals)
{
    RS_DASSERT(n_terminals >= 1);
    return rs_rand_below(seed, RS_STREAM_VALIANT, msg_id, 0, n_terminals);
}

uint32_t rs_route_mid_for(const struct rs_net *net, const struct rs_routing_ops *routing,
                          uint64_t seed, uint64_t msg_id, uint32_t src)
{
    RS_DASSERT(src < net->n_terminals);
    if (!routing->mid)
        return RS_NONE;
    uint32_t mid = routing->mid(net, seed, msg_id, src);
    RS_DASSERT(mid == RS_NONE || mid < net->n_terminals || !net->ops->valiant_via_terminal);
    return mid;
}

int rs_route_check(const struct rs_net *net, const struct rs_routing_ops *routing,
                   struct rs_err *err)
{
    RS_ASSERT(net != NULL && routing != NULL);
    /* an adaptive routing gives its choices only; a routing with open-loop
     * intermediates also has static ones (route.h) */
    RS_ASSERT(!routing->mid_openloop || routing->mid);
    if ((net->caps & routing->needs) != routing->needs) {
        char names[256];
        rs_topo_names_with(routing->needs, names, sizeof names);
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "routing=%s needs topology=%s (got %s)", routing->name, names,
                          net->name);
    }
    return routing->check ? routing->check(net, err) : 0;
}

int rs_route_need_fixed(const struct rs_routing_ops *routing, const char *who,
                        struct rs_err *err)
{
    if (!routing->choose)
        return 0;
    return rs_err_set(err, RS_EUNSUPPORTED,
                      "routing=%s is adaptive (a packet's path depends on the network state "
                      "as it moves); %s needs fixed paths (adaptive routing runs on "
                      "switching=wormhole and virtual_cut_through)",
                      routing->name, who);
}

/* Walk ops->route from src_node(src): at each node ask for the port, stop at
 * RS_ROUTE_DONE, follow neighbor() otherwise. A port without a channel, or more than
 * max_hops channels, is a routing bug: -1. */
int64_t rs_route_expand(const struct rs_net *net, const struct rs_route_state *st,
                        uint64_t *chans, uint32_t max, uint32_t max_hops, uint32_t *end_node)
{
    RS_ASSERT(st->hops == 0 && st->src < net->n_terminals && st->dst < net->n_terminals);
    struct rs_route_state s = *st;
    uint32_t node = net->ops->src_node(net, st->src), taken = 0;
    for (;;) {
        uint32_t port = net->ops->route(net, node, &s);
        if (port == RS_ROUTE_DONE)
            break;
        if (taken >= max_hops)
            return -1;
        uint32_t next = port < net->max_ports ? net->ops->neighbor(net, node, port, NULL)
                                              : RS_NONE;
        if (next == RS_NONE)
            return -1;
        if (chans && taken < max)
            chans[taken] = rs_net_channel(net, node, port);
        taken++;
        s.hops++;
        node = next;
    }
    if (end_node)
        *end_node = node;
    return taken;
}
