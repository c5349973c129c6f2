/* The routing layer: routing functions (the `routing` key) in a registry of const ops, the
 * state an engine lets an adaptive routing observe, and explicit path expansion (the list
 * of channels an oblivious route takes). docs/routing.md. */
#ifndef ROUTESIM_ROUTE_H
#define ROUTESIM_ROUTE_H

#include <stdint.h>

#include "routesim/net.h"

/* What an engine lets a routing function observe (engines that fix paths up front give
 * none): free buffer space per output channel and virtual channel, as it was at the start
 * of the current step, so that a decision never depends on the order in which the engine
 * visits nodes or packets. */
struct rs_route_view {
    const void *ctx;  /* the engine's state, passed back to free_slots */
    uint32_t vcs;     /* virtual channels per channel */
    uint32_t depth;   /* flit slots of one VC buffer */
    /* Free slots (credits) of VC vc of channel (node, port) at the start of the step, in
     * [0, depth] (UNITS: flits). The channel must exist and vc < vcs. */
    uint32_t (*free_slots)(const void *ctx, uint32_t node, uint32_t port, uint32_t vc);
};

/* One choice of an adaptive routing: take a VC in [vc_lo, vc_hi) of out-port port. */
struct rs_route_choice {
    uint32_t port, vc_lo, vc_hi;
};

/* The most choices one call of rs_routing_ops.choose may write. */
#define RS_ROUTE_MAX_CHOICES (RS_MAX_PRODUCTIVE + 2)

struct rs_routing_ops {
    const char *name;     /* value of `routing` */
    const char *summary;  /* one line for `routesim list` */
    /* RS_CAP_... the network must have (rs_route_check refuses others, naming the
     * registered topologies that declare them). */
    uint32_t needs;
    /* Further refusal of an instance (RS_EUNSUPPORTED with one line), after needs; NULL:
     * none. */
    int (*check)(const struct rs_net *net, struct rs_err *err);
    /* Intermediate terminal (rs_route_state.mid) of message msg_id from terminal src in a
     * static problem, a pure function of its arguments; NULL: none (RS_NONE). */
    uint32_t (*mid)(const struct rs_net *net, uint64_t seed, uint64_t msg_id, uint32_t src);
    /* The same for open-loop packets: the packet of terminal src generated at step gen;
     * NULL with mid NULL: none. With mid set, NULL means open loop is refused with
     * "routing=NAME " followed by no_openloop. */
    uint32_t (*mid_openloop)(const struct rs_net *net, uint64_t seed, uint32_t src,
                             uint32_t gen);
    const char *no_openloop;
    /* Adaptive routings: the choices of a packet whose header is at node (st as for the
     * topology's route), in the order the engine tries them: it takes the lowest free VC of
     * the first choice that has one. Decisions read only view (never NULL;
     * start-of-step state); view->free_slots NULL asks for the choices in a fixed order
     * without state. The LAST entry is always the escape choice (what the packet is said
     * to wait for). Returns how many (<= RS_ROUTE_MAX_CHOICES), 0 when node is where st is
     * delivered. NULL: oblivious (the topology's route, with mid). */
    uint32_t (*choose)(const struct rs_net *net, uint32_t node, const struct rs_route_state *st,
                       const struct rs_route_view *view, struct rs_route_choice *out);
    /* Adaptive routings: refuse an engine with vcs virtual channels per channel (too few for
     * its escape and adaptive classes) with RS_ECONSTRAINT; NULL: any. */
    int (*check_vcs)(const struct rs_net *net, uint32_t vcs, struct rs_err *err);
};

/* The registry (NULL-terminated, in `routesim list` order) and its names in the same
 * order (the choices of the `routing` key). */
extern const struct rs_routing_ops *const rs_routings[];
extern const char *const rs_routing_names[];

/* The registered routings, for callers that need one by name in code (tests, algorithms
 * that require direct routing). */
extern const struct rs_routing_ops rs_routing_direct, rs_routing_valiant, rs_routing_ranade,
    rs_routing_min_adaptive, rs_routing_nca_adaptive;
#define RS_ROUTING_DIRECT (&rs_routing_direct)
#define RS_ROUTING_VALIANT (&rs_routing_valiant)
#define RS_ROUTING_RANADE (&rs_routing_ranade)
#define RS_ROUTING_MIN_ADAPTIVE (&rs_routing_min_adaptive)
#define RS_ROUTING_NCA_ADAPTIVE (&rs_routing_nca_adaptive)

/* Routing named name, or NULL. */
const struct rs_routing_ops *rs_routing_find(const char *name);

/* 1 when routing sends every message along the topology's route from src to dst (no
 * intermediate, no adaptive choice). */
static inline int rs_route_is_direct(const struct rs_routing_ops *routing)
{
    return !routing->mid && !routing->choose;
}

/* 1 when routing chooses among ports from the network state (rs_routing_ops.choose). */
static inline int rs_route_is_adaptive(const struct rs_routing_ops *routing)
{
    return routing->choose != NULL;
}

/* Valiant's intermediate of message msg_id: uniform over n_terminals, from stream (seed,
 * RS_STREAM_VALIANT, msg_id, step 0), so it depends on nothing but the seed and the id. */
uint32_t rs_route_uniform_mid(uint64_t seed, uint64_t msg_id, uint32_t n_terminals);

/* Intermediate of message msg_id from source terminal src under routing, as every engine
 * and the analysis use it: RS_NONE when routing has none (routing->mid NULL). */
uint32_t rs_route_mid_for(const struct rs_net *net, const struct rs_routing_ops *routing,
                          uint64_t seed, uint64_t msg_id, uint32_t src);

/* 0 when routing is possible on net; otherwise RS_EUNSUPPORTED with one line naming the
 * topology: capabilities routing->needs lacks, then routing->check. */
int rs_route_check(const struct rs_net *net, const struct rs_routing_ops *routing,
                   struct rs_err *err);

/* 0 when routing fixes every path before the packet moves (it is not adaptive); else
 * RS_EUNSUPPORTED "routing=NAME is adaptive (...); WHO needs fixed paths (adaptive routing
 * runs on switching=wormhole and virtual_cut_through)". who names the caller
 * ("switching=store_forward", "path analysis (congestion, dilation)"). */
int rs_route_need_fixed(const struct rs_routing_ops *routing, const char *who,
                        struct rs_err *err);

/* Expand the oblivious route of st (hops must be 0) into channel ids. Writes at most max ids
 * into chans (chans may be NULL to count only) and returns the path length in hops, or -1 if
 * the route takes a port without a channel or does not end within max_hops (a routing bug;
 * max_hops guards the walk).
 * *end_node gets the node where the message is delivered (may be NULL). */
int64_t rs_route_expand(const struct rs_net *net, const struct rs_route_state *st,
                        uint64_t *chans, uint32_t max, uint32_t max_hops, uint32_t *end_node);

#endif
