/* Direct, Valiant and Ranade routing on top of a network's oblivious route, and explicit
 * path expansion (the channel ids a message takes). Contracts in include/routesim/route.h. */
#include "routesim/rng.h"
#include "routesim/route.h"

const char *const rs_routing_names[] = {"direct", "valiant", "ranade", NULL};

/* Direct: no intermediate. Valiant: uniform terminal from (seed, RS_STREAM_VALIANT,
 * msg_id, step 0), so a message's intermediate depends on nothing but its id. */
uint32_t rs_route_mid(enum rs_routing routing, uint64_t seed, uint64_t msg_id,
                      uint32_t n_terminals)
{
    if (routing != RS_ROUTING_VALIANT)
        return RS_NONE;
    return rs_rand_below(seed, RS_STREAM_VALIANT, msg_id, 0, n_terminals);
}

uint32_t rs_route_mid_for(const struct rs_net *net, enum rs_routing routing, uint64_t seed,
                          uint64_t msg_id, uint32_t src)
{
    if (routing == RS_ROUTING_RANADE)
        return net->ops->ranade_mid ? net->ops->ranade_mid(net, seed, src) : RS_NONE;
    return rs_route_mid(routing, seed, msg_id, net->n_terminals);
}

int rs_route_check(const struct rs_net *net, enum rs_routing routing, struct rs_err *err)
{
    if (routing == RS_ROUTING_VALIANT && net->ops->valiant_ok)
        return net->ops->valiant_ok(net, err);
    if (routing == RS_ROUTING_RANADE && !net->ops->ranade_mid)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "routing=ranade is not available on topology=%s (Ranade's first "
                          "stage needs back-to-back butterflies: topology=benes, 004 §5)",
                          net->name);
    return 0;
}

/* Walk ops->route from src_node(src): at each node ask for the port, stop at
 * RS_ROUTE_DONE, follow neighbor() otherwise. A port without a channel, or more than
 * max_hops channels, is a routing bug: -1. */
int64_t rs_route_expand(const struct rs_net *net, const struct rs_route_state *st,
                        uint64_t *chans, uint32_t max, uint32_t max_hops, uint32_t *end_node)
{
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
