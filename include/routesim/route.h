/* Routing on top of a network's oblivious route: direct or Valiant two-phase, and explicit
 * path expansion (the list of channels a message takes) for analysis and checks. */
#ifndef ROUTESIM_ROUTE_H
#define ROUTESIM_ROUTE_H

#include <stdint.h>

#include "routesim/net.h"

enum rs_routing { RS_ROUTING_DIRECT = 0, RS_ROUTING_VALIANT = 1 };

/* Choices of the `routing` key, in enum order, NULL-terminated. */
extern const char *const rs_routing_names[];

/* Intermediate terminal for message id under routing (RS_NONE for direct): uniform over
 * all terminals, from stream (seed, RS_STREAM_VALIANT, msg_id). */
uint32_t rs_route_mid(enum rs_routing routing, uint64_t seed, uint64_t msg_id,
                      uint32_t n_terminals);

/* Expand the route of st (hops must be 0) into channel ids. Writes at most max ids into
 * chans (chans may be NULL to count only) and returns the path length in hops, or -1 if
 * the route does not end within max_hops (a routing bug; max_hops guards the walk).
 * *end_node gets the node where the message is delivered (may be NULL). */
int64_t rs_route_expand(const struct rs_net *net, const struct rs_route_state *st,
                        uint64_t *chans, uint32_t max, uint32_t max_hops, uint32_t *end_node);

#endif
