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
 * RS_E... (RS_EUNSUPPORTED for an adaptive routing, whose paths are not fixed). */
int rs_path_stats_compute(struct rs_path_stats *st, const struct rs_net *net,
                          const struct rs_problem *pb,
                          const struct rs_routing_ops *routing, uint64_t seed,
                          struct rs_err *err);

void rs_path_stats_free(struct rs_path_stats *st);

/* The root-permutation recurrence of Scherson & Chien (002 §3, eq. 2-3) as routesim reads
 * it (docs/model-circuit.md, "The recurrence"): x_0 = N pairs; in each cycle the load on
 * the top level's downers is p = min(1, x / (S_{l-1} d_{l-1})), the top switch's down
 * channels carry q = 1 - (1 - p/d)^d (its arrivals come in on its d downers), every lower
 * level i = l-2 .. 1 gives q <- 1 - (1 - q/d_i)^(u_i) (eq. 2: l-1 contention points in
 * all), the PE links have none, and the cycle routes s = (channels from level 1 to level
 * 0) q; x_i = x_{i-1} - s (eq. 3) until x_i < 1. */
struct rs_lcan_prediction {
    uint32_t n_cycles; /* i: cycles of the recurrence, until x_i < 1 */
    double *success;   /* [n_cycles] expected circuits established per cycle */
    double left;       /* x_i < 1: pairs expected to remain after cycle i */
    double cycles;     /* i + x_i: one more cycle with probability x_i */
};

/* Evaluate the recurrence for the CB-LCAN net (any per-level d, u). RS_EUNSUPPORTED when
 * net is not a CB-LCAN (a T-LCAN or another topology). out->success is malloc'd; free with
 * rs_lcan_prediction_free. Returns 0 or RS_E... */
int rs_lcan_predict(const struct rs_net *net, struct rs_lcan_prediction *out,
                    struct rs_err *err);

void rs_lcan_prediction_free(struct rs_lcan_prediction *p);

#endif
