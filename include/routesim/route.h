/* Routing on top of a network's oblivious route: direct, Valiant two-phase or Ranade's
 * first stage, and explicit path expansion (the list of channels a message takes). */
#ifndef ROUTESIM_ROUTE_H
#define ROUTESIM_ROUTE_H

#include <stdint.h>

#include "routesim/net.h"

enum rs_routing { RS_ROUTING_DIRECT = 0, RS_ROUTING_VALIANT = 1, RS_ROUTING_RANADE = 2 };

/* Choices of the `routing` key, in enum order, NULL-terminated. */
extern const char *const rs_routing_names[];

/* Intermediate terminal for message id under routing (RS_NONE for direct): uniform over
 * all terminals, from stream (seed, RS_STREAM_VALIANT, msg_id). */
uint32_t rs_route_mid(enum rs_routing routing, uint64_t seed, uint64_t msg_id,
                      uint32_t n_terminals);

/* Intermediate of message msg_id from source terminal src under any routing, as every
 * engine and the analysis use it: RS_NONE for direct; rs_route_mid for valiant; for ranade
 * net->ops->ranade_mid(net, seed, src) (Ranade's random-but-not-independent first stage,
 * 004 §5: a function of the seed and the source only, so all messages of a source share
 * it). ranade on a topology without ranade_mid is a caller error (rs_route_check first):
 * RS_NONE is returned. */
uint32_t rs_route_mid_for(const struct rs_net *net, enum rs_routing routing, uint64_t seed,
                          uint64_t msg_id, uint32_t src);

/* 0 when routing is possible on net; otherwise RS_EUNSUPPORTED with one line naming the
 * topology: valiant where ops->valiant_ok refuses it, ranade where ops->ranade_mid is
 * NULL. */
int rs_route_check(const struct rs_net *net, enum rs_routing routing, struct rs_err *err);

/* Expand the route of st (hops must be 0) into channel ids. Writes at most max ids into
 * chans (chans may be NULL to count only) and returns the path length in hops, or -1 if
 * the route does not end within max_hops (a routing bug; max_hops guards the walk).
 * *end_node gets the node where the message is delivered (may be NULL). */
int64_t rs_route_expand(const struct rs_net *net, const struct rs_route_state *st,
                        uint64_t *chans, uint32_t max, uint32_t max_hops, uint32_t *end_node);

#endif
