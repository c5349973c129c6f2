/* A message set's paths as lists of channel ids (node * max_ports + port), expanded once
 * from the routes (explicit paths, oblivious routes, Valiant): the input of off-line
 * schedules such as the colour-refinement plan (001 §2.1) and of path statistics. */
#ifndef ROUTESIM_PATH_SET_H
#define ROUTESIM_PATH_SET_H

#include <stdint.h>

#include "routesim/net.h"
#include "routesim/problem.h"
#include "routesim/route.h"

/* The channels of message m are chan[off[m] .. off[m+1]) in the order it crosses them. */
struct rs_path_set {
    uint64_t n_msgs;
    uint64_t *off;  /* [n_msgs + 1], off[0] = 0 */
    uint64_t *chan; /* [off[n_msgs]] channel ids */
};

/* Expand the route of every message of pb on net (its Valiant intermediate drawn as the
 * engines draw it; explicit paths when the network carries them) into ps (malloc'd; free
 * with rs_path_set_free). Returns 0, RS_ENOMEM, RS_EUNSUPPORTED for an adaptive routing
 * (no fixed paths), or RS_EINVARIANT when a route does not end at its destination (a
 * routing bug). On error ps is left empty. */
int rs_path_set_build(struct rs_path_set *ps, const struct rs_net *net,
                      const struct rs_problem *pb, const struct rs_routing_ops *routing,
                      uint64_t seed, struct rs_err *err);

/* Release what rs_path_set_build allocated; safe on a zeroed set. */
void rs_path_set_free(struct rs_path_set *ps);

/* Largest number of hops a route of net may take before rs_route_expand gives up: more
 * than any oblivious or Valiant route (4 n_nodes) and any edge-simple explicit path
 * (n_channels). */
uint32_t rs_path_max_hops(const struct rs_net *net);

#endif
