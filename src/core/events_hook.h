/* The engines' side of the event log (events.c, docs/events.md): one RS_EVENT line per
 * event site. With no log open (ev NULL) a site costs one predictable branch. */
#ifndef ROUTESIM_CORE_EVENTS_HOOK_H
#define ROUTESIM_CORE_EVENTS_HOOK_H

#include <stdint.h>

#include "routesim/events.h"

/* Size the log for a run of n_packets messages (ids 0..n_packets-1): the blocked-episode
 * bits. Called by rs_run before the engine starts. Returns 0 or RS_ENOMEM. */
int rs__events_start(struct rs_events *ev, uint64_t n_packets, struct rs_err *err);

/* Append one event (port, vc: RS_EV_NONE when not applicable). RS_EV_BLOCKED is kept only
 * for the first step of an episode: the packet's blocked bit is set, and cleared by its
 * next hop, delivery or drop. Then the filters and the size guard apply. RS_EV_INJECTED
 * with a port: the packet left its source across that channel, and a hop record follows
 * the injected one (without a port: it entered a queue of its own node, no channel). */
void rs__events_put(struct rs_events *ev, enum rs_event_kind kind, uint32_t step,
                    uint32_t packet, uint32_t node, uint32_t port, uint32_t vc);

/* Open-loop runs (docs/events.md, "Open loop"): packets get their ids at generation and the
 * engines name them by slot. Start the log for n_terminals terminals, terminal t injecting
 * at term_node[t] (copied). Called by rs_run instead of rs__events_start. Returns 0 or
 * RS_ENOMEM. */
int rs__events_start_openloop(struct rs_events *ev, uint32_t n_terminals,
                              const uint32_t *term_node, struct rs_err *err);

/* Terminal t has generated total packets so far (the open-loop module's started +
 * pending): the new ones get the next ids and a `generated` record at step. Called for
 * every terminal in increasing order after each step's generation. */
void rs__events_ol_generated(struct rs_events *ev, uint32_t step, uint32_t t, uint32_t total);

/* Slot slot of the engine now holds terminal t's packet k (0-based: the module's `started`
 * count when it was the front); records put with packet = slot are that packet's. slot
 * RS_EV_SCRATCH: a packet that gets no slot (delivered at once). */
void rs__events_ol_bind(struct rs_events *ev, uint32_t slot, uint32_t t, uint32_t k);

#define RS_EV_SCRATCH (UINT32_MAX - 1)

/* rs__events_ol_bind with a log open. */
#define RS_EVENT_BIND(ev, slot, t, k)                                                          \
    do {                                                                                       \
        if (__builtin_expect((ev) != 0, 0))                                                    \
            rs__events_ol_bind((ev), (slot), (t), (k));                                        \
    } while (0)

#define RS_EVENT(ev, kind, step, packet, node, port, vc)                                       \
    do {                                                                                       \
        if (__builtin_expect((ev) != 0, 0))                                                    \
            rs__events_put((ev), (kind), (step), (packet), (node), (port), (vc));              \
    } while (0)

/* RS_EVENT when cond also holds (cond is evaluated only with a log open). */
#define RS_EVENT_IF(ev, cond, kind, step, packet, node, port, vc)                              \
    do {                                                                                       \
        if (__builtin_expect((ev) != 0, 0) && (cond))                                          \
            rs__events_put((ev), (kind), (step), (packet), (node), (port), (vc));              \
    } while (0)

#endif
