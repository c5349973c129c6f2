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
                          uint64_t seed, uint64_t msg_id, uint32_t src, uint32_t dst)
{
    RS_DASSERT(src < net->n_terminals && dst < net->n_terminals);
    if (!routing->mid)
        return RS_NONE;
    uint32_t mid = routing->mid(net, seed, msg_id, src, dst);
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

int rs_route_prepare(struct rs_net *net, const struct rs_routing_ops *routing,
                     const struct rs_params *p, uint64_t seed, struct rs_err *err)
{
    RS_ASSERT(net != NULL && routing != NULL);
    RS_ASSERT(!net->route_priv && !net->route_free); /* once per built net */
    net->seed = seed;
    if (!routing->prepare)
        return 0;
    RS_ASSERT(routing->release != NULL);
    void *priv = NULL;
    int rc = routing->prepare(net, p, &priv, err);
    if (rc) {
        RS_ASSERT(priv == NULL);
        return rc;
    }
    net->route_priv = priv;
    net->route_free = routing->release;
    return 0;
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

/* Length of the leg st (mid RS_NONE, hops 0) under routing: a closed form when one is
 * given, else the walk; -1 when it does not end. */
static int64_t leg_length(const struct rs_net *net, const struct rs_routing_ops *routing,
                          const struct rs_route_state *st, uint32_t max_hops)
{
    if (routing && routing->next_port) {
        if (routing->path_length)
            return routing->path_length(net, st);
    } else if (net->ops->path_length) {
        return net->ops->path_length(net, st);
    }
    return rs_route_walk(net, routing, st, NULL, 0, max_hops, NULL);
}

/* The walk's guard for a leg's length, as the engines use it. */
static uint32_t max_hops_of(const struct rs_net *net)
{
    return 4 * net->n_nodes + 16;
}

struct rs_route_state rs_route_leg(const struct rs_net *net, const struct rs_routing_ops *routing,
                                   const struct rs_route_state *st, int *phase_b)
{
    struct rs_route_state leg = *st;
    if (phase_b)
        *phase_b = 0;
    if (st->mid == RS_NONE || !net->ops->valiant_via_terminal)
        return leg;
    struct rs_route_state a = {st->src, st->mid, RS_NONE, 0, st->msg};
    int64_t la = leg_length(net, routing, &a, max_hops_of(net));
    leg.mid = RS_NONE;
    if (la < 0 || st->hops < (uint64_t)la) { /* phase A (a broken leg fails in the walk) */
        leg.dst = st->mid;
        return leg;
    }
    leg.src = st->mid;
    leg.hops = st->hops - (uint32_t)la;
    if (phase_b)
        *phase_b = 1;
    return leg;
}

/* The port of leg (or of st as it is, without terminal intermediates). */
static uint32_t leg_port(const struct rs_net *net, const struct rs_routing_ops *routing,
                         uint32_t node, const struct rs_route_state *leg)
{
    return routing && routing->next_port ? routing->next_port(net, node, leg)
                                         : net->ops->route(net, node, leg);
}

uint32_t rs__route_port(const struct rs_net *net, const struct rs_routing_ops *routing,
                        uint32_t node, const struct rs_route_state *st)
{
    struct rs_route_state leg = rs_route_leg(net, routing, st, NULL);
    return leg_port(net, routing, node, &leg);
}

uint32_t rs__route_next_hop(const struct rs_net *net, const struct rs_routing_ops *routing,
                            uint32_t node, const struct rs_route_state *st, uint32_t *port,
                            uint32_t *in_slot)
{
    struct rs_route_state leg = rs_route_leg(net, routing, st, NULL);
    if (!(routing && routing->next_port) && net->ops->next_hop)
        return net->ops->next_hop(net, node, &leg, port, in_slot);
    *port = leg_port(net, routing, node, &leg);
    return *port == RS_ROUTE_DONE || *port >= net->max_ports
               ? RS_NONE
               : net->ops->neighbor(net, node, *port, in_slot);
}

uint32_t rs_route_vc_class(const struct rs_net *net, const struct rs_routing_ops *routing,
                           uint32_t node, uint32_t port, const struct rs_route_state *st)
{
    RS_DASSERT(net->ops->vc_class != NULL);
    int b;
    struct rs_route_state leg = rs_route_leg(net, routing, st, &b);
    return net->ops->vc_class(net, node, port, &leg) | (b ? 2u : 0u);
}

int64_t rs__route_length(const struct rs_net *net, const struct rs_routing_ops *routing,
                         const struct rs_route_state *st, uint32_t max_hops)
{
    RS_ASSERT(st->hops == 0);
    if (st->mid == RS_NONE)
        return leg_length(net, routing, st, max_hops);
    if (net->ops->valiant_via_terminal) { /* Valiant's two legs */
        struct rs_route_state a = {st->src, st->mid, RS_NONE, 0, st->msg};
        struct rs_route_state b = {st->mid, st->dst, RS_NONE, 0, st->msg};
        int64_t la = leg_length(net, routing, &a, max_hops);
        int64_t lb = la < 0 ? -1 : leg_length(net, routing, &b, max_hops);
        return lb < 0 ? -1 : la + lb;
    }
    /* an intermediate the topology's route takes itself (Beneš: a middle row) */
    if (!(routing && routing->next_port) && net->ops->path_length)
        return net->ops->path_length(net, st);
    return rs_route_walk(net, routing, st, NULL, 0, max_hops, NULL);
}

/* Walk the route from src_node(src): at each node ask for the port (plain: the topology's
 * route directly, the case without an intermediate or a routing function of its own; else
 * the layer's), stop at RS_ROUTE_DONE, follow neighbor() otherwise. A port without a
 * channel, or more than max_hops channels, is a routing bug: -1. */
static inline __attribute__((always_inline)) int64_t
walk(const struct rs_net *net, const struct rs_routing_ops *routing,
     const struct rs_route_state *st, uint64_t *chans, uint32_t max, uint32_t max_hops,
     uint32_t *end_node, int plain)
{
    struct rs_route_state s = *st;
    uint32_t node = net->ops->src_node(net, st->src), taken = 0;
    for (;;) {
        uint32_t port = plain ? net->ops->route(net, node, &s)
                              : rs__route_port(net, routing, node, &s);
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

int64_t rs_route_walk(const struct rs_net *net, const struct rs_routing_ops *routing,
                      const struct rs_route_state *st, uint64_t *chans, uint32_t max,
                      uint32_t max_hops, uint32_t *end_node)
{
    RS_ASSERT(st->hops == 0 && st->src < net->n_terminals && st->dst < net->n_terminals);
    if (st->mid == RS_NONE && !(routing && routing->next_port))
        return walk(net, routing, st, chans, max, max_hops, end_node, 1);
    return walk(net, routing, st, chans, max, max_hops, end_node, 0);
}

int64_t rs_route_expand(const struct rs_net *net, const struct rs_route_state *st,
                        uint64_t *chans, uint32_t max, uint32_t max_hops, uint32_t *end_node)
{
    return rs_route_walk(net, NULL, st, chans, max, max_hops, end_node);
}
