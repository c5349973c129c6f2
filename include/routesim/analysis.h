/* Static analysis of a message set on a network, without simulating: congestion C (the
 * largest number of messages whose paths use one channel), dilation D (the longest path)
 * and the load per level of a leveled network. */
#ifndef ROUTESIM_ANALYSIS_H
#define ROUTESIM_ANALYSIS_H

#include <stdint.h>

#include "routesim/net.h"
#include "routesim/problem.h"
#include "routesim/record.h"
#include "routesim/route.h"

struct rs_path_stats {
    uint32_t congestion;     /* max messages over one channel */
    uint32_t dilation;       /* max path length in hops */
    uint64_t total_hops;     /* sum of path lengths */
    uint32_t n_levels;       /* levels with outgoing channels (0 if not leveled): a
                                butterfly without wrap-around has n, not n+1 */
    uint32_t *level_max;     /* per level of the channel's tail: max messages on one channel */
    uint64_t *level_msgs;    /* per level: messages crossing from that level */
};

/* Expand every message's route (with its intermediate under valiant or ranade routing,
 * rs_route_mid_for, as the engines draw it) and compute the statistics. Returns 0 or
 * RS_E... */
int rs_path_stats_compute(struct rs_path_stats *st, const struct rs_net *net,
                          const struct rs_problem *pb, enum rs_routing routing, uint64_t seed,
                          struct rs_err *err);

void rs_path_stats_free(struct rs_path_stats *st);

#endif
