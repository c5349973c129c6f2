/* Channel-load analysis of open-loop traffic (SPEC X6; Dally & Towles, "Principles and
 * Practices of Interconnection Networks", ch. 3): the expected load of every channel per
 * unit of injection rate, its largest value gamma_max and the throughput bound
 * Theta = 1 / gamma_max it gives. docs/openloop.md, "The channel-load bound". */
#ifndef ROUTESIM_CHANNEL_LOAD_H
#define ROUTESIM_CHANNEL_LOAD_H

#include <stdint.h>

#include "routesim/net.h"
#include "routesim/problem.h"
#include "routesim/route.h"

struct rs_channel_load {
    /* Largest expected load of one network channel, in flits per step when every sending
     * terminal injects 1 flit per step (exact for an oblivious routing; for an adaptive one
     * a lower bound on any minimal routing's largest load, below). */
    double gamma_max;
    uint64_t gamma_chan;   /* a channel (node * max_ports + port) with load gamma_max;
                              UINT64_MAX when none is loaded or the bound is not a channel's */
    double gamma_terminal; /* largest terminal-channel load: 1 (injection) or the most
                              flits one destination receives, per unit rate */
    /* Throughput bound in the unit of the metric `accepted` (flits per terminal per step,
     * over all N terminals): (senders / N) / max(gamma_max, gamma_terminal). */
    double theta;
    double hops_mean;      /* expected network channels per packet (0 for a packet to its own
                              terminal on a network that delivers it without a move) */
    double local_fraction; /* fraction of packets whose path is empty */
    uint32_t senders;      /* terminals that send */
    int exact;             /* 1: the routing's own expected loads; 0: the minimal bound */
};

/* The analysis of net under routing for open-loop traffic whose destinations are uniform
 * over the N terminals (uniform = 1: every packet a fresh uniform destination, the
 * open-loop process of traffic=uniform) or pb's template (uniform = 0: terminal t's packets
 * go in turn to the destinations of its messages, so each with weight 1 / its message
 * count; terminals without messages send nothing).
 *
 * Oblivious routings: every (source, destination) route is expanded (rs_route_expand) and
 * adds its weight to each channel it takes; routing=valiant averages over its intermediate,
 * uniform over the N terminals as the open-loop process draws it (N times the routes).
 * Other routings with intermediates (ranade) are refused (RS_EUNSUPPORTED).
 *
 * Adaptive routings (min_adaptive, RS_CAP_COORDS networks only): no channel's load is
 * fixed, so gamma_max is a lower bound on the largest load of ANY minimal routing: the
 * larger of (a) the mean load over all channels (total minimal hops / channels) and (b) for
 * every dimension, direction and position, the flows that must cross that position in that
 * direction divided by the k^(n-1) parallel channels there (on a torus a flow at distance
 * exactly k/2 in a dimension may go either way and is left out of (b)). exact = 0.
 *
 * load (may be NULL): n_nodes * max_ports doubles receiving every channel's expected load
 * (oblivious routings; zeros for adaptive ones). Returns 0 or RS_E... with err set. */
int rs_channel_load(struct rs_channel_load *out, const struct rs_net *net,
                    const struct rs_problem *pb, int uniform,
                    const struct rs_routing_ops *routing, double *load, struct rs_err *err);

#endif
