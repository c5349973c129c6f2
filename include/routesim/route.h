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
    /* Keys of this routing (NULL-terminated; NULL: none), validated and recorded only in runs
     * that choose it, so that other runs keep their columns. */
    const struct rs_optdef *options;
    /* Per-network set-up, once per run after check (rs_route_prepare): build what the routing
     * reads on every hop (tables) from net and p (its options; p may be NULL: defaults) into
     * *priv, which next_port reads as net->route_priv and release frees (with rs_net_free).
     * Returns 0, or RS_E... with one line (a network it cannot route: RS_EUNSUPPORTED; too
     * large for its tables: RS_ERESOURCE). NULL: nothing to prepare. */
    int (*prepare)(const struct rs_net *net, const struct rs_params *p, void **priv,
                   struct rs_err *err);
    void (*release)(void *priv);
    /* Further refusal of an instance (RS_EUNSUPPORTED with one line), after needs; NULL:
     * none. */
    int (*check)(const struct rs_net *net, struct rs_err *err);
    /* Intermediate terminal (rs_route_state.mid) of message msg_id from terminal src to
     * terminal dst in a static problem, a pure function of its arguments (ROMM draws it
     * inside the minimal quadrant of src and dst; Valiant ignores dst); NULL: none
     * (RS_NONE). */
    uint32_t (*mid)(const struct rs_net *net, uint64_t seed, uint64_t msg_id, uint32_t src,
                    uint32_t dst);
    /* The same for open-loop packets: the packet of terminal src to dst generated at step
     * gen; NULL with mid NULL: none. With mid set, NULL means open loop is refused with
     * "routing=NAME " followed by no_openloop. */
    uint32_t (*mid_openloop)(const struct rs_net *net, uint64_t seed, uint32_t src,
                             uint32_t dst, uint32_t gen);
    const char *no_openloop;
    /* Oblivious routings that are not the topology's route (routing=yx): the out-port a
     * packet at node takes next toward the target of its leg, or RS_ROUTE_DONE at it. st
     * is one leg (st->mid is RS_NONE: Valiant's intermediate is handled once, around it,
     * by rs_route_port); the function may read everything st carries (src, dst, hops, msg:
     * per-packet state fixed at injection) but never the network's state, so the path is
     * fixed before the packet moves and every engine and the path analysis can use it.
     * NULL: the topology's route (ops->route). Never set together with choose. */
    uint32_t (*next_port)(const struct rs_net *net, uint32_t node,
                          const struct rs_route_state *st);
    /* Channels next_port's route of st (mid RS_NONE, hops 0) takes, in closed form; NULL:
     * walked (rs_route_walk). Only read when next_port is set. */
    uint32_t (*path_length)(const struct rs_net *net, const struct rs_route_state *st);
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
extern const struct rs_routing_ops rs_routing_direct, rs_routing_yx, rs_routing_valiant,
    rs_routing_ranade, rs_routing_min_adaptive, rs_routing_nca_adaptive, rs_routing_romm,
    rs_routing_updown;
#define RS_ROUTING_DIRECT (&rs_routing_direct)
#define RS_ROUTING_YX (&rs_routing_yx)
#define RS_ROUTING_VALIANT (&rs_routing_valiant)
#define RS_ROUTING_RANADE (&rs_routing_ranade)
#define RS_ROUTING_MIN_ADAPTIVE (&rs_routing_min_adaptive)
#define RS_ROUTING_NCA_ADAPTIVE (&rs_routing_nca_adaptive)
#define RS_ROUTING_ROMM (&rs_routing_romm)
#define RS_ROUTING_UPDOWN (&rs_routing_updown)

/* Routing named name, or NULL. */
const struct rs_routing_ops *rs_routing_find(const char *name);

/* 1 when routing sends every message along the topology's route from src to dst (no
 * intermediate, no routing function of its own, no adaptive choice). */
static inline int rs_route_is_direct(const struct rs_routing_ops *routing)
{
    return !routing->mid && !routing->choose && !routing->next_port;
}

/* 1 when routing chooses among ports from the network state (rs_routing_ops.choose). */
static inline int rs_route_is_adaptive(const struct rs_routing_ops *routing)
{
    return routing->choose != NULL;
}

/* Valiant's intermediate of message msg_id: uniform over n_terminals, from stream (seed,
 * RS_STREAM_VALIANT, msg_id, step 0), so it depends on nothing but the seed and the id. */
uint32_t rs_route_uniform_mid(uint64_t seed, uint64_t msg_id, uint32_t n_terminals);

/* Intermediate of message msg_id from source terminal src to terminal dst under routing,
 * as every engine and the analysis use it: RS_NONE when routing has none (routing->mid
 * NULL). */
uint32_t rs_route_mid_for(const struct rs_net *net, const struct rs_routing_ops *routing,
                          uint64_t seed, uint64_t msg_id, uint32_t src, uint32_t dst);

/* 0 when routing is possible on net; otherwise RS_EUNSUPPORTED with one line naming the
 * topology: capabilities routing->needs lacks, then routing->check. */
int rs_route_check(const struct rs_net *net, const struct rs_routing_ops *routing,
                   struct rs_err *err);

/* Make net ready for runs under routing with seed seed (every run calls it once, after
 * rs_route_check and before any route is taken): net->seed = seed, then routing->prepare
 * (p: the run's parameters, for the routing's options; NULL: defaults) into
 * net->route_priv, freed by rs_net_free. A net is prepared for one routing: call it at
 * most once per built net. Returns 0 or the prepare step's RS_E... (net->route_priv then
 * NULL). */
int rs_route_prepare(struct rs_net *net, const struct rs_routing_ops *routing,
                     const struct rs_params *p, uint64_t seed, struct rs_err *err);

/* 0 when routing fixes every path before the packet moves (it is not adaptive); else
 * RS_EUNSUPPORTED "routing=NAME is adaptive (...); WHO needs fixed paths (adaptive routing
 * runs on switching=wormhole and virtual_cut_through)". who names the caller
 * ("switching=store_forward", "path analysis (congestion, dilation)"). */
int rs_route_need_fixed(const struct rs_routing_ops *routing, const char *who,
                        struct rs_err *err);

/* ---- the oblivious route of a packet, as every engine and the analysis take it ----------
 *
 * routing NULL means the topology's own route (routing=direct). A state st with
 * st->mid != RS_NONE on a topology with valiant_via_terminal is Valiant's two legs, written
 * once here over any oblivious routing: the leg src -> mid while st->hops is below that
 * leg's length, then mid -> dst with the hops counted from mid. On topologies whose
 * intermediate is not a terminal (Beneš: a row of the middle level) st goes to the
 * topology's route as it is. */

/* The leg of st under routing: st itself without an intermediate; else {src, mid, NONE,
 * hops} in phase A or {mid, dst, NONE, hops - len(src, mid)} in phase B. *phase_b (may be
 * NULL) gets 1 in phase B. */
struct rs_route_state rs_route_leg(const struct rs_net *net, const struct rs_routing_ops *routing,
                                   const struct rs_route_state *st, int *phase_b);

/* rs_route_port and rs_route_next_hop beyond their inline fast case (no intermediate, the
 * topology's route). Internal. */
uint32_t rs__route_port(const struct rs_net *net, const struct rs_routing_ops *routing,
                        uint32_t node, const struct rs_route_state *st);
uint32_t rs__route_next_hop(const struct rs_net *net, const struct rs_routing_ops *routing,
                            uint32_t node, const struct rs_route_state *st, uint32_t *port,
                            uint32_t *in_slot);

/* 1 when every route under routing is the topology's own route without an intermediate:
 * routing has no next_port and no mid, and no packet carries a planned intermediate
 * (any_mid 0). Engines resolve this once at set-up so that their hot path calls the
 * topology's route / next_hop / vc_class directly, which is what rs_route_port,
 * rs_route_next_hop and rs_route_vc_class then do. */
static inline int rs_route_plain(const struct rs_routing_ops *routing, int any_mid)
{
    return !(routing && (routing->next_port || routing->mid)) && !any_mid;
}

/* The out-port a packet with route state st takes next at node under the oblivious routing
 * routing (NULL: the topology's route), RS_ROUTE_DONE where it is delivered. Pure. */
static inline uint32_t rs_route_port(const struct rs_net *net,
                                     const struct rs_routing_ops *routing, uint32_t node,
                                     const struct rs_route_state *st)
{
    if (st->mid == RS_NONE && !(routing && routing->next_port))
        return net->ops->route(net, node, st);
    return rs__route_port(net, routing, node, st);
}

/* rs_route_port followed by the topology's neighbor (the engines' hot path; the topology's
 * next_hop when it has one): the out-port into *port and, unless it is RS_ROUTE_DONE, the
 * head node (returned) and its in-slot (*in_slot, never NULL). Returns RS_NONE at the
 * destination (*port = RS_ROUTE_DONE) and for a port without a channel (a routing bug the
 * caller reports). */
static inline uint32_t rs_route_next_hop(const struct rs_net *net,
                                         const struct rs_routing_ops *routing, uint32_t node,
                                         const struct rs_route_state *st, uint32_t *port,
                                         uint32_t *in_slot)
{
    if (st->mid == RS_NONE && !(routing && routing->next_port)) {
        if (net->ops->next_hop)
            return net->ops->next_hop(net, node, st, port, in_slot);
        *port = net->ops->route(net, node, st);
        return *port == RS_ROUTE_DONE || *port >= net->max_ports
                   ? RS_NONE
                   : net->ops->neighbor(net, node, *port, in_slot);
    }
    return rs__route_next_hop(net, routing, node, st, port, in_slot);
}

/* Virtual-channel class (net.h, rs_topo_ops.vc_class) of a packet with state st crossing
 * channel (node, port) next: the topology's class of the packet's leg, with bit 1 set in
 * Valiant's second leg. The topology must define vc_class. */
uint32_t rs_route_vc_class(const struct rs_net *net, const struct rs_routing_ops *routing,
                           uint32_t node, uint32_t port, const struct rs_route_state *st);

/* Channels the route of st (hops 0) takes under routing (NULL: the topology's route): the
 * closed forms (the topology's or the routing's path_length) per leg when given, else the
 * walk; -1 when the walk takes a missing channel or exceeds max_hops. */
int64_t rs__route_length(const struct rs_net *net, const struct rs_routing_ops *routing,
                         const struct rs_route_state *st, uint32_t max_hops);
static inline int64_t rs_route_length(const struct rs_net *net,
                                      const struct rs_routing_ops *routing,
                                      const struct rs_route_state *st, uint32_t max_hops)
{
    if (st->mid == RS_NONE && !(routing && routing->next_port) && net->ops->path_length)
        return net->ops->path_length(net, st); /* the common case, inline */
    return rs__route_length(net, routing, st, max_hops);
}

/* rs_route_expand under routing (NULL: the topology's route). */
int64_t rs_route_walk(const struct rs_net *net, const struct rs_routing_ops *routing,
                      const struct rs_route_state *st, uint64_t *chans, uint32_t max,
                      uint32_t max_hops, uint32_t *end_node);

/* Expand the oblivious route of st (hops must be 0) under the topology's route (with
 * Valiant's legs when st->mid is set) into channel ids. Writes at most max ids
 * into chans (chans may be NULL to count only) and returns the path length in hops, or -1 if
 * the route takes a port without a channel or does not end within max_hops (a routing bug;
 * max_hops guards the walk).
 * *end_node gets the node where the message is delivered (may be NULL). */
int64_t rs_route_expand(const struct rs_net *net, const struct rs_route_state *st,
                        uint64_t *chans, uint32_t max, uint32_t max_hops, uint32_t *end_node);

#endif
