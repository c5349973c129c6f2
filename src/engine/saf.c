/* Store-and-forward packet engine (switching=store_forward): bounded or unbounded queues at
 * channel heads, channel tails or switches; FIFO, random, fixed-priority, furthest-first and
 * random-rank protocols with nonpredictive (sticky) selection; block or drop on a full queue.
 * Exact step semantics: docs/model-saf.md and the comment at the top of saf.h. The batch
 * lifecycle is here (the loop is the driver's, driver.c); open-loop runs (saf_openloop.c)
 * use the same step. */
#include "engine/saf.h"
#include "engine/saf_wave.h"
#include "engine/estimate_util.h"
#include "core/events_hook.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/exchange.h"
#include "routesim/hugemem.h"
#include "routesim/rng.h"
#include "routesim/run.h"
#include "routesim/saf_options.h"

static const char *const queue_at_names[] = {"input", "output", "switch", NULL};
const char *const rs_saf_protocol_names[] = {"fifo", "random", "priority", "furthest_first",
                                             "rank", NULL};
static const char *const on_full_names[] = {"block", "drop", NULL};
static const char *const kernel_names[] = {"auto", "general", "leveled", NULL};

static const struct rs_optdef saf_options[] = {
    {"queue_at", RS_OPT_CHOICE, "input", 0, 0, queue_at_names,
     "where queues sit: head of each channel (input), tail of each channel (output), "
     "one per switch (switch)", "-"},
    {"queue_size", RS_OPT_INT, "0", 0, 1e9, NULL,
     "capacity of each queue in packets (0 = unbounded)", "packets"},
    {"queue_threshold", RS_OPT_INT, NULL, 0, 1e9, NULL,
     "instead of queue_size: a queue that held at most this many packets at the start of "
     "the step admits every packet sent to it (004 §3; a switch queue then holds at most "
     "q + 2 on a butterfly)", "packets"},
    {"protocol", RS_OPT_CHOICE, "fifo", 0, 0, rs_saf_protocol_names,
     "queueing protocol: oldest first, random, lowest message id (open loop: earliest "
     "generated) first, most hops left first, highest random rank first (004 §5)", "-"},
    {"on_full", RS_OPT_CHOICE, "block", 0, 0, on_full_names,
     "a packet whose next queue is full waits (block) or is discarded (drop)", "-"},
    {"rank_levels", RS_OPT_INT, "0", 0, 65535, NULL,
     "protocol=rank: every packet draws a rank 1..r; 0 = the smallest r with r^q >= log2 N "
     "(004 §5's r = log^(1/q) N rounded up; q = queue_size, 1 when unbounded)", "1"},
    {"saf_kernel", RS_OPT_CHOICE, NULL, 0, 0, kernel_names,
     "batch runs on a butterfly without wrap-around with input queues, fifo, block, "
     "queue_size 1..15, direct routing and no plan, event log or check run on the leveled "
     "butterfly kernel, on any threads (auto; leveled: that kernel or an error) with the same "
     "results; "
     "general always uses the general engine", "-"},
    RS_OPENLOOP_OPTIONS,
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* ---- queues ---------------------------------------------------------------------- */

static void queue_push(struct saf_pkt *pkt, struct saf_queue *q, uint32_t m)
{
    pkt[m].next = RS_NONE;
    if (q->count == 0)
        q->head = m;
    else
        pkt[q->tail].next = m;
    q->tail = m;
    q->count++;
}

static void queue_unlink(struct saf_pkt *pkt, struct saf_queue *q, uint32_t m)
{
    if (q->head == m) {
        q->head = pkt[m].next;
    } else {
        uint32_t p = q->head;
        while (pkt[p].next != m)
            p = pkt[p].next;
        pkt[p].next = pkt[m].next;
        if (q->tail == m)
            q->tail = p;
    }
    q->count--;
}

void rs__saf_queue_push(struct saf_pkt *pkt, struct saf_queue *q, uint32_t m)
{
    queue_push(pkt, q, m);
}

void rs__saf_queue_unlink(struct saf_pkt *pkt, struct saf_queue *q, uint32_t m)
{
    queue_unlink(pkt, q, m);
}

/* The packet a queue offers this step. FIFO offers its oldest packet; priority its lowest
 * message id, random a uniformly drawn packet and rank its highest-rank packet (ties: the
 * oldest, then the lowest id), all sticky: once selected, a packet stays selected until it
 * leaves (nonpredictive protocols, 004 §1.2). Furthest-first
 * offers the packet with most hops left (ties: oldest, then lowest id), re-chosen every
 * step. sel is the sticky slot (pkt+1, 0 = none); entity keys the random draw. "id" is
 * saf_pkt_id: the message id, or (generation step, source) in open loop. */
static inline __attribute__((always_inline)) uint32_t
queue_select_p(struct saf *s, const struct saf_queue *q, uint32_t *sel, uint64_t entity,
               enum saf_protocol proto)
{
    const struct saf_pkt *pkt = s->pkt;
    uint32_t m, best;
    if (proto == SAF_FIFO) /* the default: no dispatch */
        return q->head;
    switch (proto) {
    case SAF_FIFO:
        return q->head;
    case SAF_PRIORITY:
        if (*sel)
            return *sel - 1;
        best = q->head;
        for (m = pkt[best].next; m != RS_NONE; m = pkt[m].next)
            if (saf_pkt_id(s, m) < saf_pkt_id(s, best))
                best = m;
        *sel = best + 1;
        return best;
    case SAF_RANDOM: {
        if (*sel)
            return *sel - 1;
        uint32_t i = q->count == 1
                         ? 0
                         : rs_rand_below(s->seed, RS_STREAM_SELECT, entity, s->step, q->count);
        for (best = q->head; i > 0; i--)
            best = pkt[best].next;
        *sel = best + 1;
        return best;
    }
    case SAF_FURTHEST_FIRST:
        best = q->head;
        for (m = pkt[best].next; m != RS_NONE; m = pkt[m].next) {
            const struct saf_pkt *a = &pkt[m], *b = &pkt[best];
            if (a->rem > b->rem || (a->rem == b->rem && a->entered < b->entered) ||
                (a->rem == b->rem && a->entered == b->entered &&
                 saf_pkt_id(s, m) < saf_pkt_id(s, best)))
                best = m;
        }
        return best;
    case SAF_RANK:
        if (*sel)
            return *sel - 1;
        best = q->head;
        for (m = pkt[best].next; m != RS_NONE; m = pkt[m].next) {
            uint32_t ra = s->rank[m], rb = s->rank[best];
            if (ra > rb || (ra == rb && pkt[m].entered < pkt[best].entered) ||
                (ra == rb && pkt[m].entered == pkt[best].entered &&
                 saf_pkt_id(s, m) < saf_pkt_id(s, best)))
                best = m;
        }
        *sel = best + 1;
        return best;
    }
    return q->head;
}

static uint32_t queue_select(struct saf *s, const struct saf_queue *q, uint32_t *sel,
                             uint64_t entity)
{
    return queue_select_p(s, q, sel, entity, s->proto);
}

uint32_t rs__saf_offer(struct saf *s, uint64_t qi)
{
    if (!s->q[qi].count)
        return RS_NONE;
    return queue_select(s, &s->q[qi], s->qsel ? &s->qsel[qi] : NULL, qi);
}

uint32_t rs__saf_src_offer(struct saf *s, uint32_t t)
{
    return queue_select(s, &s->src[t], s->srcsel ? &s->srcsel[t] : NULL, s->n_queues + t);
}

/* ---- placement: where a packet goes next from the node it has just reached --------- */

/* Source terminal of message m (a shift when messages are grouped by source). */
static inline uint32_t msg_src(const struct saf *s, uint32_t m)
{
    if (s->pb->src)
        return s->pb->src[m];
    return s->q_shift >= 0 ? m >> s->q_shift : m / s->pb->per_input;
}

/* The route state of packet m after hops channels: its source and route message are the
 * message's (batch) or the slot's (open loop, ol = 1). */
static inline __attribute__((always_inline)) struct rs_route_state
route_state(const struct saf *s, uint32_t m, uint32_t hops, int ol)
{
    const struct saf_pkt *p = &s->pkt[m];
    struct rs_route_state st = {ol ? s->osrc[m] : msg_src(s, m), p->dst, p->mid, hops,
                                ol ? s->omsg[m] : m};
    return st;
}

static uint32_t route_port(const struct saf *s, uint32_t node, uint32_t m, uint32_t hops,
                           int ol)
{
    struct rs_route_state st = route_state(s, m, hops, ol);
    return s->route_plain ? s->net->ops->route(s->net, node, &st)
                          : rs__route_port(s->net, s->routing, node, &st);
}

/* Set pkt[m].port (its out-port at node) and pkt[m].tq (the queue it enters on its next
 * move, or SAF_DELIVER). Returns the queue it waits in at node: for output queues the
 * node's queue of that port, otherwise unused (RS_NONE). ol: m is an open-loop slot. */
static inline __attribute__((always_inline)) uint64_t place_p(struct saf *s, uint32_t m,
                                                              uint32_t node, int ol)
{
    struct saf_pkt *p = &s->pkt[m];
    const struct rs_net *net = s->net;
    uint32_t slot, w, port;
    if (s->hop_call) { /* one call instead of two */
        struct rs_route_state st = route_state(s, m, p->hops, ol);
        w = net->ops->next_hop(net, node, &st, &port, &slot);
        p->port = (uint16_t)port;
        if (p->rem == 1)
            p->tq = SAF_DELIVER;
        else if (p->phase_a && p->hops + 1 == p->phase_a)
            p->tq = SAF_STORE;
        else
            p->tq = s->at == SAF_AT_INPUT ? (uint32_t)((uint64_t)w * s->P + slot) : w;
        return RS_NONE;
    }
    p->port = (uint16_t)route_port(s, node, m, p->hops, ol);
    if (p->rem == 1) {
        p->tq = SAF_DELIVER;
    } else if (p->phase_a && p->hops + 1 == p->phase_a) {
        p->tq = SAF_STORE;
    } else {
        w = net->ops->neighbor(net, node, p->port, &slot);
        if (s->at == SAF_AT_INPUT)
            p->tq = (uint32_t)((uint64_t)w * s->P + slot);
        else if (s->at == SAF_AT_SWITCH)
            p->tq = w;
        else
            p->tq = (uint32_t)((uint64_t)w * s->P + route_port(s, w, m, p->hops + 1, ol));
    }
    return s->at == SAF_AT_OUTPUT ? (uint64_t)node * s->P + p->port : RS_NONE;
}

static uint64_t place(struct saf *s, uint32_t m, uint32_t node)
{
    return place_p(s, m, node, 0);
}

void rs__saf_place_open(struct saf *s, uint32_t m, uint32_t node)
{
    place_p(s, m, node, 1);
}

/* ---- decide ------------------------------------------------------------------------ */

/* Could queue tq admit one more packet this step? Room is judged on the occupancy at the
 * start of the step plus the admissions already granted this step: packets leaving tq
 * this step do not make room. */
static inline __attribute__((always_inline)) int has_room_at(const struct saf *s, uint32_t tq,
                                                             enum saf_queue_at at)
{
    if (tq >= SAF_STORE || s->cap == 0)
        return 1;
    if (at == SAF_AT_INPUT) /* one feeding channel: at most one arrival per step */
        return s->q[tq].count < s->cap;
    return s->q[tq].count + s->granted[tq] < s->cap;
}

static inline int has_room(const struct saf *s, uint32_t tq)
{
    return has_room_at(s, tq, s->at);
}

/* Append a move. Unless it is a deferred candidate (defer: protocol=rank with output or
 * switch queues, admitted later by admit_by_rank), count it against its queue's room. */
static inline __attribute__((always_inline)) void
add_move_p(struct saf *s, uint32_t m, uint32_t from, uint32_t to, uint32_t node, int defer)
{
    struct saf_move *mv = &s->moves[s->n_moves++];
    mv->pkt = m;
    mv->from = from;
    mv->to = to;
    mv->node = node;
    if (!defer && s->grant && to < SAF_STORE)
        s->grant[to]++;
}

static void add_move(struct saf *s, uint32_t m, uint32_t from, uint32_t to, uint32_t node)
{
    add_move_p(s, m, from, to, node, 0);
}

/* Arbitration key of an offer for a channel: larger wins; ties go to the lower slot
 * (input slots in increasing order). Rank: the rank above an independent uniform 32-bit key
 * per offer and step, which also orders candidates for admission (admit_by_rank). */
static inline __attribute__((always_inline)) uint64_t
offer_key(const struct saf *s, uint32_t m, uint64_t entity, enum saf_protocol proto)
{
    const struct saf_pkt *p = &s->pkt[m];
    switch (proto) {
    case SAF_FIFO: /* oldest arrival at this switch first */
        return UINT64_MAX - p->entered;
    case SAF_PRIORITY:
        return UINT64_MAX - saf_pkt_id(s, m);
    case SAF_RANDOM: {
        struct rs_rng r;
        rs_rng_init(&r, s->seed, RS_STREAM_ARBITER, entity, s->step);
        return rs_rng_u32(&r);
    }
    case SAF_FURTHEST_FIRST:
        return ((uint64_t)p->rem << 32) | (UINT32_MAX - p->entered);
    case SAF_RANK: {
        struct rs_rng r;
        rs_rng_init(&r, s->seed, RS_STREAM_ARBITER, entity, s->step);
        return ((uint64_t)s->rank[m] << 32) | rs_rng_u32(&r);
    }
    }
    return 0;
}

#define SAF_MAX_PORTS 32

/* In-network moves out of node v. Every queue of v offers one packet (queue_select). For
 * each out-port, with on_full=block the best offer that can move wins (one whose next
 * queue has room, or that is delivered by the move); offers that cannot move wait and do
 * not occupy the channel. With on_full=drop the best offer wins and is dropped if its next
 * queue is full. Output queues each feed their own channel. Returns the mask of ports
 * used, which the node's source may not use this step. With protocol=rank and output or
 * switch queues, room is judged on the start of the step only and the moves into queues
 * are candidates, admitted by rank once every node has decided (admit_by_rank). */
static inline __attribute__((always_inline)) uint32_t
decide_node_p(struct saf *s, uint32_t v, enum saf_queue_at at, enum saf_protocol proto)
{
    uint32_t win[SAF_MAX_PORTS], wfrom[SAF_MAX_PORTS];
    uint64_t wkey[SAF_MAX_PORTS];
    uint32_t offered = 0, used = 0, movable_mask = 0;
    uint32_t nq = at == SAF_AT_SWITCH ? 1 : s->P;
    const int defer = proto == SAF_RANK && at != SAF_AT_INPUT;
    for (uint32_t i = 0; i < nq; i++) {
        uint64_t qi = at == SAF_AT_SWITCH ? v : (uint64_t)v * s->P + i;
        if (s->q[qi].count == 0)
            continue;
        uint32_t m = queue_select_p(s, &s->q[qi], s->qsel ? &s->qsel[qi] : NULL, qi, proto);
        uint32_t port = at == SAF_AT_OUTPUT ? i : s->pkt[m].port;
        int movable = has_room_at(s, s->pkt[m].tq, at);
        if (!movable && s->on_full == SAF_BLOCK) {
            RS_EVENT(s->ev, RS_EV_BLOCKED, s->step, m, v, port, RS_EV_NONE);
            if (s->waiter) /* woken when that queue next loses a packet */
                s->waiter[s->pkt[m].tq] = v + 1;
            continue;
        }
        uint64_t key = offer_key(s, m, qi, proto);
        if (!(offered & (1u << port)) || key > wkey[port]) {
            offered |= 1u << port;
            win[port] = m;
            wfrom[port] = (uint32_t)qi;
            wkey[port] = key;
            movable_mask = movable ? movable_mask | (1u << port) : movable_mask & ~(1u << port);
        }
    }
    while (offered) {
        uint32_t port = (uint32_t)__builtin_ctz(offered);
        offered &= offered - 1;
        uint32_t m = win[port], tq = s->pkt[m].tq;
        /* re-check (output/switch queues): an earlier port of this node may have taken
         * the last room of tq; input queues have one feeder each, so no need */
        if (at == SAF_AT_INPUT ? (int)((movable_mask >> port) & 1) : has_room_at(s, tq, at))
            add_move_p(s, m, wfrom[port], tq, v, defer);
        else if (s->on_full == SAF_DROP)
            add_move(s, m, wfrom[port], SAF_DROP_TO, v);
        else { /* an earlier port took the room: blocked */
            RS_EVENT(s->ev, RS_EV_BLOCKED, s->step, m, v, port, RS_EV_NONE);
            continue;
        }
        used |= 1u << port;
    }
    return used;
}

/* decide_node_p specialised for the default configuration (input queues, FIFO), whose
 * protocol and placement tests then fold away; every other one goes through the general
 * copy. Same decisions either way. Inlined into decide, its only caller: a call per active
 * node costs 5% of the instructions of bench cases a and e (callgrind). */
static inline __attribute__((always_inline)) uint32_t decide_node(struct saf *s,
                                                                  uint32_t v)
{
    if (s->at == SAF_AT_INPUT && s->proto == SAF_FIFO)
        return decide_node_p(s, v, SAF_AT_INPUT, SAF_FIFO);
    return decide_node_p(s, v, s->at, s->proto);
}

/* Injection from terminal t's source at node v (input and switch queues), decided after
 * every in-network move: the selected packet crosses its first channel if the switch's
 * in-network traffic (and the node's lower terminals' injections) left that channel idle
 * and its next queue has room. A source never drops. used: the node's ports taken this
 * step; returns them with the port this injection takes. */
static inline __attribute__((always_inline)) uint32_t
decide_source_p(struct saf *s, uint32_t t, uint32_t used, int defer)
{
    uint32_t v = s->src_node[t];
    uint32_t m = queue_select(s, &s->src[t], s->srcsel ? &s->srcsel[t] : NULL,
                              s->n_queues + t);
    uint32_t port = s->pkt[m].port;
    if (used & (1u << port))
        return used; /* the switch's own departure on that port wakes it next step */
    if (has_room(s, s->pkt[m].tq)) {
        add_move_p(s, m, SAF_SRC_BIT | t, s->pkt[m].tq, v, defer);
        return used | 1u << port;
    }
    RS_EVENT(s->ev, RS_EV_BLOCKED, s->step, m, v, port, RS_EV_NONE);
    if (s->waiter)
        s->waiter[s->pkt[m].tq] = v + 1;
    return used;
}

static uint32_t decide_source(struct saf *s, uint32_t t, uint32_t used)
{
    return decide_source_p(s, t, used, 0);
}

/* After node v's in-network moves (ports used): its sources, in increasing terminal order,
 * inject (input queues) or are told which channels the switch left idle (output and switch
 * queues: the injections come later). */
static inline __attribute__((always_inline)) uint32_t decide_one_source(struct saf *s,
                                                                        uint32_t t,
                                                                        uint32_t used)
{
    if (s->at == SAF_AT_INPUT) { /* a source's first queue has no other feeder */
        if (s->src[t].count)
            used = decide_source(s, t, used);
    } else {
        s->src_used[t] = used;
    }
    return used;
}

/* Every terminal of a node of several, from t on (src_next), in order: out of line, so
 * that the loops of networks with one terminal per node stay as they were. */
static __attribute__((noinline)) void decide_all_sources(struct saf *s, uint32_t t,
                                                         uint32_t used)
{
    for (; t != RS_NONE; t = s->src_next[t])
        used = decide_one_source(s, t, used);
}

static inline __attribute__((always_inline)) void decide_node_sources(struct saf *s, uint32_t v,
                                                                      uint32_t used)
{
    uint32_t t = v < s->n_node_src ? s->node_src[v] : RS_NONE;
    if (t == RS_NONE)
        return;
    if (s->src_multi)
        decide_all_sources(s, t, used);
    else if (s->at == SAF_AT_INPUT) { /* a source's first queue has no other feeder */
        if (s->src[t].count)
            (void)decide_source(s, t, used);
    } else {
        s->src_used[t] = used;
    }
}

/* A switch-queue packet at node v that waits after all frees its channel (port) for the
 * node's sources. */
static void free_port_for_sources(struct saf *s, uint32_t v, uint32_t port)
{
    for (uint32_t t = v < s->n_node_src ? s->node_src[v] : RS_NONE; t != RS_NONE;
         t = s->src_next[t])
        s->src_used[t] &= ~(1u << port);
}

/* protocol=rank with output or switch queues: the moves [first, n_moves) into queues are
 * candidates, and a queue with room for fewer than its candidates admits those with the
 * largest offer_key (the higher rank; equal ranks by the uniform key of the offer and step;
 * equal keys to the earlier move, i.e. the lower node id) -- a function of the state, not
 * of the order in which nodes were visited. Refused candidates are dropped when drop, else
 * they wait: their moves are removed and their channels are free for the node's source.
 * Room is the capacity minus the occupancy at the start of the step and the admissions of
 * earlier rounds (granted); with queue_threshold (thr = 1) it is unlimited when the queue
 * held at most q packets at the start of the step, else none. A queue has at most
 * max_ports candidates per round (one per channel into it), so the quadratic count below
 * is small. Instantiated for each thr, so that the strict capacity's code is unchanged. */
/* saf_rank_settle's refusals in the serial step: the move dropped, or waiting (removed). */
static void refuse_drop(struct saf *s, uint64_t i, void *ctx)
{
    (void)ctx;
    s->moves[i].to = SAF_DROP_TO;
}

static void refuse_wait(struct saf *s, uint64_t i, void *ctx)
{
    (void)ctx;
    s->moves[i].to = SAF_VOID;
}

static inline __attribute__((always_inline)) void admit_by_rank_p(struct saf *s,
                                                                  uint64_t first, int drop,
                                                                  int thr)
{
    uint64_t n = s->n_moves;
    if (!s->cap)
        return; /* unbounded: every candidate enters */
    for (uint64_t i = first; i < n; i++) {
        const struct saf_move *mv = &s->moves[i];
        if (mv->to >= SAF_VOID)
            continue; /* delivered, dropped, or into an unbounded store */
        uint64_t entity = mv->from & SAF_SRC_BIT ? s->n_queues + (mv->from & ~SAF_SRC_BIT)
                                                 : mv->from;
        s->ckey[i] = offer_key(s, mv->pkt, entity, SAF_RANK);
        s->cnext[i] = s->cand[mv->to];
        s->cand[mv->to] = (uint32_t)(i + 1);
    }
    for (uint64_t i = first; i < n; i++) {
        uint32_t to = s->moves[i].to;
        if (to >= SAF_VOID || !s->cand[to])
            continue; /* not a candidate, or its queue is settled */
        if (drop) /* (two calls: each refusal inlined) */
            saf_rank_settle(s, to, thr, refuse_drop, NULL);
        else
            saf_rank_settle(s, to, thr, refuse_wait, NULL);
    }
    if (drop)
        return;
    uint64_t kept = first;
    for (uint64_t i = first; i < n; i++) {
        const struct saf_move *mv = &s->moves[i];
        if (mv->to != SAF_VOID) {
            s->moves[kept++] = *mv;
            continue;
        }
        /* a refused in-network move leaves its channel to the node's sources (switch) */
        if (!(mv->from & SAF_SRC_BIT))
            free_port_for_sources(s, mv->node, s->pkt[mv->pkt].port);
    }
    s->n_moves = kept;
}

uint64_t rs__saf_rank_key(const struct saf *s, const struct saf_move *mv)
{
    uint64_t entity = mv->from & SAF_SRC_BIT ? s->n_queues + (mv->from & ~SAF_SRC_BIT)
                                             : mv->from;
    return offer_key(s, mv->pkt, entity, SAF_RANK);
}

static void admit_by_rank(struct saf *s, uint64_t first, int drop)
{
    if (s->thr)
        admit_by_rank_p(s, first, drop, 1);
    else
        admit_by_rank_p(s, first, drop, 0);
}

/* Prefetch distances (in active nodes and in moves): the state of a 2^16-input butterfly
 * does not fit in cache, so the loops below request a node's queues, then its offered
 * packets, a few iterations before they are used (docs/PERFORMANCE.md). */
#define SAF_PF_QUEUE 48
#define SAF_PF_PKT 24
#define SAF_PF_TARGET 8

static void prefetch_queues(const struct saf *s, uint32_t v)
{
    __builtin_prefetch(&s->q[saf_queue_of(s, v, 0)]);
}

static void prefetch_heads(const struct saf *s, uint32_t v)
{
    uint32_t nq = s->at == SAF_AT_SWITCH ? 1 : s->P;
    for (uint32_t i = 0; i < nq; i++) {
        const struct saf_queue *q = &s->q[saf_queue_of(s, v, i)];
        if (q->count)
            __builtin_prefetch(&s->pkt[q->head]);
    }
}

/* Third stage: the queues the offered packets of node v will enter. */
static void prefetch_targets(const struct saf *s, uint32_t v)
{
    uint32_t nq = s->at == SAF_AT_SWITCH ? 1 : s->P;
    for (uint32_t i = 0; i < nq; i++) {
        const struct saf_queue *q = &s->q[saf_queue_of(s, v, i)];
        if (q->count && s->pkt[q->head].tq < SAF_STORE)
            __builtin_prefetch(&s->q[s->pkt[q->head].tq]);
    }
}

/* This step's active nodes into s->act, increasing; returns how many. */
static inline __attribute__((always_inline)) uint32_t collect_active(struct saf *s)
{
    uint32_t n_act = 0;
    for (uint64_t w = 0; w < s->n_words; w++) { /* active nodes in increasing order */
        uint64_t bits = s->active[w];
        if (s->waiter) /* wake-ups rebuild the set every step */
            s->active[w] = 0;
        while (bits) {
            s->act[n_act++] = (uint32_t)(w * 64 + (uint64_t)__builtin_ctzll(bits));
            bits &= bits - 1;
        }
    }
    return n_act;
}

/* The nodes act[a, b): their in-network moves, then (input queues) their sources' (the
 * loop of decide, which keeps its own copy: sharing it costs the serial step 20% more
 * instructions, callgrind). */
static void decide_span(struct saf *s, uint32_t a, uint32_t b)
{
    for (uint32_t i = a; i < b; i++) {
        if (i + SAF_PF_QUEUE < b)
            prefetch_queues(s, s->act[i + SAF_PF_QUEUE]);
        if (i + SAF_PF_PKT < b)
            prefetch_heads(s, s->act[i + SAF_PF_PKT]);
        if (i + SAF_PF_TARGET < b)
            prefetch_targets(s, s->act[i + SAF_PF_TARGET]);
        uint32_t v = s->act[i];
        decide_node_sources(s, v, decide_node(s, v));
    }
}

/* After every node: the rank admissions and the switch-queue injections. */
static void decide_rest(struct saf *s)
{
    if (s->cand) /* rank with output or switch queues: admit the in-network candidates */
        admit_by_rank(s, 0, s->on_full == SAF_DROP);
    if (s->at != SAF_AT_SWITCH) /* input: done above; output: refilled after the step */
        return;
    uint64_t first = s->n_moves;
    for (uint32_t i = 0; i < s->n_pend; i++) { /* increasing terminals */
        uint32_t t = s->pend[i];
        if (s->src[t].count) {
            uint32_t used = s->cand ? decide_source_p(s, t, s->src_used[t], 1)
                                    : decide_source(s, t, s->src_used[t]);
            for (uint32_t u = s->src_next[t]; u != RS_NONE; u = s->src_next[u])
                s->src_used[u] |= used; /* the node's higher terminals: its channel taken */
        }
    }
    if (s->cand) /* then the injections, into the room the in-network moves left */
        admit_by_rank(s, first, 0);
}

static void decide(struct saf *s)
{
    uint32_t n_act = 0;
    for (uint64_t w = 0; w < s->n_words; w++) { /* active nodes in increasing order */
        uint64_t bits = s->active[w];
        if (s->waiter) /* wake-ups rebuild the set every step */
            s->active[w] = 0;
        while (bits) {
            s->act[n_act++] = (uint32_t)(w * 64 + (uint64_t)__builtin_ctzll(bits));
            bits &= bits - 1;
        }
    }
    for (uint32_t i = 0; i < n_act; i++) {
        if (i + SAF_PF_QUEUE < n_act)
            prefetch_queues(s, s->act[i + SAF_PF_QUEUE]);
        if (i + SAF_PF_PKT < n_act)
            prefetch_heads(s, s->act[i + SAF_PF_PKT]);
        if (i + SAF_PF_TARGET < n_act)
            prefetch_targets(s, s->act[i + SAF_PF_TARGET]);
        uint32_t v = s->act[i];
        decide_node_sources(s, v, decide_node(s, v));
    }
    decide_rest(s);
}

uint32_t rs__saf_collect_active(struct saf *s)
{
    return collect_active(s);
}

void rs__saf_decide_span(struct saf *s, uint32_t a, uint32_t b)
{
    decide_span(s, a, b);
}

void rs__saf_decide_rest(struct saf *s)
{
    decide_rest(s);
}

int rs__saf_waiting_ok(struct saf *s, uint32_t v)
{
    for (uint32_t i = 0; i < s->P; i++) {
        uint64_t qi = (uint64_t)v * s->P + i;
        uint32_t m = rs__saf_offer(s, qi);
        if (m != RS_NONE &&
            (has_room(s, s->pkt[m].tq) || s->waiter[s->pkt[m].tq] != v + 1))
            return 0;
    }
    for (uint32_t t = v < s->n_node_src ? s->node_src[v] : RS_NONE; t != RS_NONE;
         t = s->src_next[t]) {
        if (!s->src[t].count)
            continue;
        uint32_t m = queue_select(s, &s->src[t], s->srcsel ? &s->srcsel[t] : NULL,
                                  s->n_queues + t);
        if (has_room(s, s->pkt[m].tq) || s->waiter[s->pkt[m].tq] != v + 1)
            return 0;
    }
    return 1;
}

/* ---- commit ------------------------------------------------------------------------ */

static int node_empty(const struct saf *s, uint32_t v)
{
    uint32_t nq = s->at == SAF_AT_SWITCH ? 1 : s->P;
    for (uint32_t i = 0; i < nq; i++)
        if (s->q[saf_queue_of(s, v, i)].count)
            return 0;
    for (uint32_t t = v < s->n_node_src ? s->node_src[v] : RS_NONE; t != RS_NONE;
         t = s->src_next[t])
        if (s->src[t].count)
            return 0;
    return 1;
}

static int record_latency(struct saf *s, uint32_t step)
{
    return rs_lat_hist_add(&s->lat, step);
}

/* Set node v's bit in the active set; par: atomically (several threads write a word). */
static inline __attribute__((always_inline)) void set_active(uint64_t *active, uint32_t v,
                                                             int par)
{
    if (par)
        __atomic_fetch_or(&active[v / 64], 1ull << (v % 64), __ATOMIC_RELAXED);
    else
        active[v / 64] |= 1ull << (v % 64);
}

/* The departures of moves[0, n): each leaves its queue or store (a queue loses at most one
 * packet a step, so threads touch different queues). ol: open loop; par: a thread's share,
 * whose refused candidates (to = SAF_VOID) stay; load: count the channels crossed here
 * (congestion), not at the arrivals. */
static inline __attribute__((always_inline)) void
depart_p(struct saf *s, const struct saf_move *moves, uint64_t n, int ol, int par, int load)
{
    for (uint64_t i = 0; i < n; i++) {
        const struct saf_move *mv = &moves[i];
        if (par && mv->to == SAF_VOID)
            continue;
        if (load && s->load && mv->to != SAF_DROP_TO)
            s->load[(uint64_t)mv->node * s->P + s->pkt[mv->pkt].port]++;
        if (i + SAF_PF_PKT < n) {
            const struct saf_move *ahead = &moves[i + SAF_PF_PKT];
            __builtin_prefetch(&s->pkt[ahead->pkt], 1);
            if (!(ahead->from & SAF_SRC_BIT))
                __builtin_prefetch(&s->q[ahead->from], 1);
        }
        if (mv->from & SAF_SRC_BIT) {
            uint32_t t = mv->from & ~SAF_SRC_BIT;
            queue_unlink(s->pkt, &s->src[t], mv->pkt);
            if (s->srcsel)
                s->srcsel[t] = 0;
            if (ol && s->own[t] == mv->pkt) { /* the next generated packet may come in */
                s->own[t] = RS_NONE;
                s->refill[s->n_refill++] = t;
            }
        } else {
            queue_unlink(s->pkt, &s->q[mv->from], mv->pkt);
            if (s->qsel)
                s->qsel[mv->from] = 0;
            if (s->waiter && s->waiter[mv->from]) { /* room freed: wake its feeder */
                set_active(s->active, s->waiter[mv->from] - 1, par);
                s->waiter[mv->from] = 0;
            }
        }
        if (s->waiter) /* its queues changed: look at the node again */
            set_active(s->active, mv->node, par);
    }
}

/* Packet m ends Valiant phase A: held in the store of terminal mid (its hop counted). */
static inline __attribute__((always_inline)) void store_p(struct saf *s, uint32_t m, int ol)
{
    struct saf_pkt *p = &s->pkt[m];
    uint32_t v = s->src_node[p->mid];
    p->entered = s->step;
    s->where[m] = SAF_IN_SOURCE;
    place_p(s, m, v, ol);
    if (s->src[p->mid].count == 0)
        s->pend_dirty = 1;
    queue_push(s->pkt, &s->src[p->mid], m);
    s->active[v / 64] |= 1ull << (v % 64);
}

/* The arrival of move mv, after every departure: counted in s (par: a thread's copy, the
 * end of phase A left to the serial rs__saf_par_stores and counted in s->n_store).
 * release: the release steps (batch), from which latencies count; load: count the channel
 * crossed here (else rs__saf_par_load did). Returns 0 or RS_ENOMEM. */
static inline __attribute__((always_inline)) int
arrive_one_p(struct saf *s, const struct saf_move *mv, const uint32_t *release,
             struct rs_events *const ev, int ol, int par, int load)
{
    uint32_t m = mv->pkt;
    struct saf_pkt *p = &s->pkt[m];
    if (mv->to == SAF_DROP_TO) {
        RS_EVENT(ev, RS_EV_DROPPED, s->step, m, mv->node, RS_EV_NONE, RS_EV_NONE);
        s->where[m] = SAF_DROPPED;
        s->dropped++;
        s->remaining--;
        s->last_event = s->step;
        if (ol)
            rs__saf_open_finish(s, m, 0);
        return 0;
    }
    if (load && !ol && s->load) /* the channel it crosses: out of mv->node by p->port */
        s->load[(uint64_t)mv->node * s->P + p->port]++;
    RS_EVENT(ev, (mv->from & SAF_SRC_BIT) && !p->hops ? RS_EV_INJECTED : RS_EV_HOP,
             s->step, m, mv->node, p->port, RS_EV_NONE);
    p->hops++;
    p->rem--;
    s->hops++;
    if (mv->to == SAF_DELIVER) {
        RS_EVENT(ev, RS_EV_DELIVERED, s->step, m,
                 s->net->ops->neighbor(s->net, mv->node, p->port, NULL), RS_EV_NONE,
                 RS_EV_NONE);
        s->where[m] = SAF_DELIVERED;
        s->delivered++;
        s->remaining--;
        s->last_event = s->step;
        if (ol)
            rs__saf_open_finish(s, m, 1);
        else if (record_latency(s, s->step - (release ? release[m] : 0)))
            return RS_ENOMEM;
        return 0;
    }
    if (mv->to == SAF_STORE) { /* end of phase A: held in the store of terminal mid */
        if (par)
            s->n_store++; /* several may enter one store: in move order, serially */
        else
            store_p(s, m, ol);
        return 0;
    }
    uint32_t w = saf_queue_node(s, mv->to);
    p->entered = s->step;
    if (mv->from & SAF_SRC_BIT) /* from a queue it is SAF_IN_QUEUE already: no write */
        s->where[m] = SAF_IN_QUEUE;
    place_p(s, m, w, ol);
    queue_push(s->pkt, &s->q[mv->to], m);
    if (s->q[mv->to].count > s->max_queue)
        s->max_queue = s->q[mv->to].count;
    set_active(s->active, w, par);
    return 0;
}

/* The arrivals of moves[0, n), after every departure. par: a thread's share of a step
 * with input queues (one arrival per queue), counted in s (the thread's copy), the stores
 * of phase A left to the serial rs__saf_par_stores. */
static inline __attribute__((always_inline)) int
arrive_p(struct saf *s, const struct saf_move *moves, uint64_t n, int ol, int par)
{
    const uint32_t *release = ol ? NULL : s->drv->release; /* latencies count from it */
    struct rs_events *const ev = s->ev; /* the event log (open loop: m is the slot) */
    for (uint64_t i = 0; i < n; i++) {
        const struct saf_move *mv = &moves[i];
        if (i + SAF_PF_QUEUE < n) {
            const struct saf_move *ahead = &moves[i + SAF_PF_QUEUE];
            __builtin_prefetch(&s->pkt[ahead->pkt], 1);
            if (ahead->to < SAF_STORE)
                __builtin_prefetch(&s->q[ahead->to], 1);
            if (!ol && s->load) /* the node's channel counters (one line for P = 2) */
                __builtin_prefetch(&s->load[(uint64_t)ahead->node * s->P], 1);
        }
        if (i + SAF_PF_PKT < n) { /* its queue line was requested 8 moves ago */
            const struct saf_move *ahead = &moves[i + SAF_PF_PKT];
            if (ahead->to < SAF_STORE && s->q[ahead->to].count)
                __builtin_prefetch(&s->pkt[s->q[ahead->to].tail], 1);
        }
        int rc = arrive_one_p(s, mv, release, ev, ol, par, 1);
        if (rc)
            return rc;
    }
    return 0;
}

/* Nodes that moves[0, n) left empty leave the active set (without waiters); par: a
 * thread's share, refused candidates (SAF_VOID) skipped. */
static inline __attribute__((always_inline)) void
clear_empty_p(struct saf *s, const struct saf_move *moves, uint64_t n, int par)
{
    for (uint64_t i = 0; i < n; i++) {
        uint32_t v = moves[i].node;
        if ((par && moves[i].to == SAF_VOID) || !node_empty(s, v))
            continue;
        if (par)
            __atomic_fetch_and(&s->active[v / 64], ~(1ull << (v % 64)), __ATOMIC_RELAXED);
        else
            s->active[v / 64] &= ~(1ull << (v % 64));
    }
}

/* Apply the step's moves: first every departure, then every arrival, so occupancies
 * (and max_queue) are those between steps. ol: open loop (packets are pool slots, handed
 * back when delivered or dropped; a terminal whose own packet left its store is noted for
 * a refill); ol = 0 is the batch engine, compiled without those branches. */
static inline __attribute__((always_inline)) int commit_p(struct saf *s, int ol)
{
    depart_p(s, s->moves, s->n_moves, ol, 0, 0);
    int rc = arrive_p(s, s->moves, s->n_moves, ol, 0);
    if (rc)
        return rc;
    if (s->granted)
        for (uint64_t i = 0; i < s->n_moves; i++)
            if (s->moves[i].to < SAF_STORE)
                s->granted[s->moves[i].to] = 0;
    if (!s->waiter)
        clear_empty_p(s, s->moves, s->n_moves, 0);
    return 0;
}

static int commit(struct saf *s)
{
    return s->ol ? commit_p(s, 1) : commit_p(s, 0);
}

int rs__saf_commit(struct saf *s)
{
    return commit(s);
}

void rs__saf_par_depart(struct saf *s, const struct saf_move *moves, uint64_t n)
{
    depart_p(s, moves, n, 0, 1, 0);
}

void rs__saf_par_depart_load(struct saf *s, const struct saf_move *moves, uint64_t n)
{
    depart_p(s, moves, n, 0, 1, 1);
}

int rs__saf_par_arrive(struct saf *s, const struct saf_move *moves, uint64_t n)
{
    return arrive_p(s, moves, n, 0, 1);
}

void rs__saf_par_stores(struct saf *s, const struct saf_move *moves, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (moves[i].to == SAF_STORE)
            store_p(s, moves[i].pkt, 0);
}

void rs__saf_par_clear(struct saf *s, const struct saf_move *moves, uint64_t n)
{
    clear_empty_p(s, moves, n, 1);
}

int rs__saf_par_arrive_out(struct saf *s, const struct saf_move *moves, uint64_t n)
{
    const uint32_t *release = s->drv->release;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t to = moves[i].to;
        if (to == SAF_DROP_TO || to == SAF_DELIVER || to == SAF_STORE) {
            int rc = arrive_one_p(s, &moves[i], release, NULL, 0, 1, 0);
            if (rc)
                return rc;
        }
    }
    return 0;
}

void rs__saf_par_arrive_in(struct saf *s, const struct saf_move *moves, const uint32_t *idx,
                           uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        const struct saf_move *mv = &moves[idx[i]];
        if (i + SAF_PF_QUEUE < n) { /* as arrive_p */
            const struct saf_move *ahead = &moves[idx[i + SAF_PF_QUEUE]];
            __builtin_prefetch(&s->pkt[ahead->pkt], 1);
            if (ahead->to < SAF_VOID)
                __builtin_prefetch(&s->q[ahead->to], 1);
        }
        if (i + SAF_PF_PKT < n) {
            const struct saf_move *ahead = &moves[idx[i + SAF_PF_PKT]];
            if (ahead->to < SAF_VOID && s->q[ahead->to].count)
                __builtin_prefetch(&s->pkt[s->q[ahead->to].tail], 1);
        }
        if (mv->to >= SAF_VOID)
            continue; /* refused: dropped (rs__saf_par_arrive_out) or waiting */
        if (s->granted)
            s->granted[mv->to] = 0;
        arrive_one_p(s, mv, NULL, NULL, 0, 1, 0); /* into a queue: no latency, no failure */
    }
}

/* One step's moves: decided and committed here, or on s->threads threads (saf_par.c). */
int rs__saf_step_moves(struct saf *s)
{
    if (s->threads > 1)
        return rs__saf_par_step(s);
    decide(s);
    return commit(s);
}

/* Keep in s->pend only the sources still holding packets (increasing terminal order). */
static void compact_pending(struct saf *s)
{
    uint32_t kept = 0;
    if (s->pend_dirty) { /* a store became non-empty: rebuild the list in order */
        s->n_pend = 0;
        for (uint32_t t = 0; t < s->n_src; t++)
            if (s->src[t].count)
                s->pend[s->n_pend++] = t;
        s->pend_dirty = 0;
        return;
    }
    for (uint32_t i = 0; i < s->n_pend; i++)
        if (s->src[s->pend[i]].count)
            s->pend[kept++] = s->pend[i];
    s->n_pend = kept;
}

/* Output queues only: at the end of each step (and before step 1) every source moves its
 * selected packet into its switch's queue for the packet's first channel if that queue has
 * room, so the packet can cross the channel in the next step. Returns how many entered. */
static uint32_t inject_output(struct saf *s)
{
    uint32_t injected = 0;
    for (uint32_t i = 0; i < s->n_pend; i++) {
        uint32_t t = s->pend[i];
        if (!s->src[t].count)
            continue;
        uint32_t m = queue_select(s, &s->src[t], s->srcsel ? &s->srcsel[t] : NULL,
                                  s->n_queues + t);
        uint64_t own = (uint64_t)s->src_node[t] * s->P + s->pkt[m].port;
        if (s->cap && s->q[own].count >= s->cap) {
            RS_EVENT(s->ev, RS_EV_BLOCKED, s->step, m, s->src_node[t], s->pkt[m].port,
                     RS_EV_NONE);
            continue;
        }
        queue_unlink(s->pkt, &s->src[t], m);
        if (s->srcsel)
            s->srcsel[t] = 0;
        if (s->own && s->own[t] == m) { /* open loop: its next packet comes in next step */
            s->own[t] = RS_NONE;
            s->refill[s->n_refill++] = t;
        }
        RS_EVENT_IF(s->ev, !s->pkt[m].hops, RS_EV_INJECTED, s->step, m, s->src_node[t],
                    RS_EV_NONE, RS_EV_NONE); /* not again at a Valiant intermediate */
        s->pkt[m].entered = s->step;
        s->where[m] = SAF_IN_QUEUE;
        queue_push(s->pkt, &s->q[own], m);
        if (s->q[own].count > s->max_queue)
            s->max_queue = s->q[own].count;
        injected++;
    }
    return injected;
}

/* ---- the open-loop runner's view of a step (saf_openloop.c) ----------------------- */

int rs__saf_step(struct saf *s)
{
    s->n_moves = 0;
    return rs__saf_step_moves(s);
}

uint32_t rs__saf_inject_output(struct saf *s)
{
    return inject_output(s);
}

void rs__saf_compact_pending(struct saf *s)
{
    compact_pending(s);
}

void rs__saf_store_insert(struct saf *s, uint32_t t, uint32_t m)
{
    struct saf_queue *q = &s->src[t];
    uint32_t prev = RS_NONE, x = q->count ? q->head : RS_NONE;
    if (s->proto == SAF_FIFO) /* after every packet that entered no later */
        while (x != RS_NONE && s->pkt[x].entered <= s->pkt[m].entered) {
            prev = x;
            x = s->pkt[x].next;
        }
    else /* the order matters to FIFO only: at the tail */
        prev = q->count ? q->tail : RS_NONE;
    if (prev == RS_NONE) { /* new head */
        s->pkt[m].next = q->count ? q->head : RS_NONE;
        q->head = m;
    } else {
        s->pkt[m].next = s->pkt[prev].next;
        s->pkt[prev].next = m;
    }
    if (prev == q->tail || q->count == 0)
        q->tail = m;
    q->count++;
}

/* ---- set-up and teardown ------------------------------------------------------------ */

void rs__saf_free(struct saf *s)
{
    rs__saf_dist_free(s); /* over ranks: its packet pool first (NULLs what it frees) */
    rs__huge_free(s->pkt, s->n_pkt * sizeof *s->pkt);
    rs_free(s->where);
    rs__huge_free(s->q, s->n_queues * sizeof *s->q);
    rs_free(s->qsel);
    rs_free(s->granted);
    rs_free(s->src);
    rs_free(s->srcsel);
    rs_free(s->src_node);
    rs_free(s->node_src);
    rs_free(s->src_next);
    rs_free(s->active);
    rs_free(s->moves);
    rs_lat_hist_free(&s->lat);
    rs_free(s->pend);
    rs_free(s->src_used);
    rs_free(s->act);
    rs__huge_free(s->waiter, s->waiter ? s->n_queues * sizeof *s->waiter : 0);
    rs_free(s->rank);
    rs_free(s->cand);
    rs_free(s->cnext);
    rs_free(s->ckey);
    rs_free(s->osrc);
    rs_free(s->omsg);
    rs_free(s->ogen);
    rs_free(s->free_slot);
    rs_free(s->own);
    rs_free(s->refill);
    rs__huge_free(s->load, s->load ? (uint64_t)s->net->n_nodes * s->P * sizeof *s->load : 0);
    rs__saf_par_free(s);
}

/* 004 §5's r = log^(1/q) N, rounded up: the smallest r >= 1 with r^q >= log2 N, i.e.
 * r^q >= ceil(log2 N) (r^q is an integer), computed exactly in integers. q = 0 (unbounded
 * queues) is taken as 1. */
static uint32_t default_ranks(uint32_t n_terminals, uint32_t q)
{
    uint32_t L = 0;
    while (L < 32 && (1ull << L) < n_terminals)
        L++;
    if (L <= 1)
        return 1;
    if (q == 0)
        q = 1;
    for (uint32_t r = 2;; r++) {
        uint64_t pw = 1;
        for (uint32_t i = 0; i < q && pw < L; i++) /* at most log2 L + 1 rounds: r >= 2 */
            pw *= r;
        if (pw >= L)
            return r;
    }
}

_Static_assert((int)SAF_AT_SWITCH == (int)RS_SAF_AT_SWITCH && (int)SAF_RANK == (int)RS_SAF_RANK &&
                   (int)SAF_FURTHEST_FIRST == (int)RS_SAF_FURTHEST_FIRST &&
                   (int)SAF_DROP == (int)RS_SAF_DROP,
               "the engine's enums are the typed options' (include/routesim/saf_options.h)");

int rs_saf_options_read(const struct rs_params *p, struct rs_saf_options *o, struct rs_err *err)
{
    int at, proto, on_full, rc;
    memset(o, 0, sizeof *o);
    if ((rc = rs_opt_choice(p, saf_options, "queue_at", &at, err)) ||
        (rc = rs_opt_choice(p, saf_options, "protocol", &proto, err)) ||
        (rc = rs_opt_choice(p, saf_options, "on_full", &on_full, err)) ||
        (rc = rs_opt_int(p, saf_options, "queue_size", &o->queue_size, err)) ||
        (rc = rs_opt_int(p, saf_options, "rank_levels", &o->rank_levels, err)))
        return rc;
    o->at = (enum rs_saf_queue_at)at;
    o->proto = (enum rs_saf_protocol)proto;
    o->on_full = (enum rs_saf_on_full)on_full;
    if (rs_params_find(p, "queue_threshold")) {
        if (o->queue_size != 0) /* queue_size=0, the default, is no capacity: records repeat it */
            return rs_err_set(err, RS_EINVAL,
                              "queue_threshold and queue_size=%lld exclude each other: a "
                              "threshold q admits every arrival while the queue holds at most q "
                              "packets (004 §3), a size c refuses the one that would exceed c "
                              "(give queue_size=0 or leave it out)",
                              (long long)o->queue_size);
        if ((rc = rs_opt_int(p, saf_options, "queue_threshold", &o->queue_threshold, err)))
            return rc;
        if (o->queue_threshold >= (int64_t)1e9)
            return rs_err_set(err, RS_ECONSTRAINT, "queue_threshold must be below 1e9");
        o->has_threshold = 1;
    }
    return 0;
}

static int saf_read_options(struct saf *s, const struct rs_params *p, struct rs_err *err)
{
    struct rs_saf_options o;
    int rc = rs_saf_options_read(p, &o, err);
    if (rc)
        return rc;
    s->at = (enum saf_queue_at)o.at;
    s->proto = (enum saf_protocol)o.proto;
    s->on_full = (enum saf_on_full)o.on_full;
    s->cap = (uint32_t)o.queue_size;
    if (o.has_threshold) {
        s->thr = 1;
        s->cap = (uint32_t)o.queue_threshold + 1; /* room: occupancy at the start < q + 1 */
    }
    if (s->proto == SAF_RANK)
        s->ranks = o.rank_levels ? (uint32_t)o.rank_levels
                                 : default_ranks(s->pb->n_terminals,
                                                 s->thr ? (uint32_t)o.queue_threshold : s->cap);
    return 0;
}

int rs__saf_init_common(struct saf *s, const struct rs_engine_input *in, uint64_t n_pkt,
                        struct rs_err *err)
{
    const struct rs_net *net = in->net;
    const struct rs_problem *pb = in->pb;
    int rc;
    memset(s, 0, sizeof *s);
    s->net = net;
    s->routing = in->routing;
    s->route_plain = rs_route_plain(in->routing, 0); /* batch set-up clears it on a mid */
    s->pb = pb;
    s->seed = in->seed;
    s->P = net->max_ports;
    s->P_shift = (s->P & (s->P - 1)) ? -1 : __builtin_ctz(s->P);
    s->q_shift = (pb->per_input & (pb->per_input - 1)) ? -1 : __builtin_ctz(pb->per_input);
    int kernel = 0;
    if (rs_params_find(in->params, "saf_kernel") &&
        (rc = rs_opt_choice(in->params, saf_options, "saf_kernel", &kernel, err)))
        return rc;
    if (kernel == 2) /* the batch set-up took the kernel where it could */
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "saf_kernel=leveled needs a batch run on a butterfly without wrap, "
                          "queue_at=input, protocol=fifo, on_full=block, queue_size 1..%d, "
                          "direct routing, no plan, events or check",
                          SAF_WAVE_MAX_CAP);
    if ((rc = saf_read_options(s, in->params, err)) ||
        (rc = rs_route_check(net, in->routing, err)) ||
        (rc = rs_route_need_fixed(in->routing, "switching=store_forward", err)))
        return rc;
    s->hop_call = s->route_plain && net->ops->next_hop && s->at != SAF_AT_OUTPUT;
    int64_t threads;
    if ((rc = rs_opt_int(in->params, rs_run_options, "threads", &threads, err)))
        return rc;
    /* threads (saf_par.c, saf_par_out.c): every placement and protocol */
    s->threads = (uint32_t)threads;
    s->par_commit = s->at == SAF_AT_INPUT;
    if (in->events)
        s->threads = 1; /* the log is written in the serial order (docs/model-saf.md) */
    if (s->P > 32)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "switching=store_forward supports at most 32 ports per node (got %u)",
                          s->P);
    if (n_pkt >= SAF_SRC_BIT)
        return rs_err_set(err, RS_ECONSTRAINT, "too many messages (%llu) for one run",
                          (unsigned long long)n_pkt);
    s->n_queues = s->at == SAF_AT_SWITCH ? net->n_nodes : (uint64_t)net->n_nodes * s->P;
    if (s->n_queues + pb->n_terminals >= SAF_VOID)
        return rs_err_set(err, RS_ECONSTRAINT, "network too large (%llu queues) for one run",
                          (unsigned long long)s->n_queues);
    s->n_src = pb->n_terminals;
    s->n_words = (net->n_nodes + 63) / 64;
    s->n_pkt = n_pkt;
    s->moves_cap = n_pkt ? n_pkt : 1;
    s->pkt = rs__huge_alloc(n_pkt * sizeof *s->pkt);
    s->where = rs_calloc(n_pkt + 1, 1);
    s->q = rs__huge_alloc(s->n_queues * sizeof *s->q);
    s->src = rs_calloc(s->n_src, sizeof *s->src);
    s->src_node = rs_malloc(s->n_src * sizeof *s->src_node + 1);
    s->active = rs_calloc(s->n_words + 1, sizeof *s->active);
    s->moves = rs_malloc(s->moves_cap * sizeof *s->moves);
    s->pend = rs_malloc(s->n_src * sizeof *s->pend + 1);
    s->src_used = rs_calloc(s->n_src + 1, sizeof *s->src_used);
    s->act = rs_malloc((size_t)net->n_nodes * sizeof *s->act + 4);
    if (s->proto == SAF_RANDOM || s->proto == SAF_PRIORITY || s->proto == SAF_RANK) {
        s->qsel = rs_calloc(s->n_queues, sizeof *s->qsel);
        s->srcsel = rs_calloc(s->n_src, sizeof *s->srcsel);
        if (!s->qsel || !s->srcsel)
            return rs_err_set(err, RS_ENOMEM, "out of memory for queue selections");
    }
    if (s->at == SAF_AT_INPUT && s->on_full == SAF_BLOCK &&
        !(s->waiter = rs__huge_alloc(s->n_queues * sizeof *s->waiter)))
        return rs_err_set(err, RS_ENOMEM, "out of memory for queue waiters");
    if (s->at != SAF_AT_INPUT && !(s->granted = rs_calloc(s->n_queues, sizeof *s->granted)))
        return rs_err_set(err, RS_ENOMEM, "out of memory for queue admissions");
    s->grant = s->thr ? NULL : s->granted;
    if (s->proto == SAF_RANK) {
        if (!(s->rank = rs_malloc(n_pkt * sizeof *s->rank + 1)))
            return rs_err_set(err, RS_ENOMEM, "out of memory for packet ranks");
        if (s->at != SAF_AT_INPUT &&
            (!(s->cand = rs_calloc(s->n_queues, sizeof *s->cand)) ||
             !(s->cnext = rs_malloc(s->moves_cap * sizeof *s->cnext)) ||
             !(s->ckey = rs_malloc(s->moves_cap * sizeof *s->ckey))))
            return rs_err_set(err, RS_ENOMEM, "out of memory for rank admissions");
    }
    if (!s->pkt || !s->where || !s->q || !s->src || !s->src_node || !s->active || !s->moves ||
        !s->pend || !s->src_used || !s->act)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu packets and %llu queues",
                          (unsigned long long)n_pkt, (unsigned long long)s->n_queues);

    uint32_t max_node = 0;
    for (uint32_t t = 0; t < s->n_src; t++) {
        s->src_node[t] = net->ops->src_node(net, t);
        if (s->src_node[t] > max_node)
            max_node = s->src_node[t];
    }
    s->n_node_src = max_node + 1;
    if (!(s->node_src = rs_malloc(s->n_node_src * sizeof *s->node_src)) ||
        !(s->src_next = rs_malloc(s->n_src * sizeof *s->src_next + 1)))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the source table");
    memset(s->node_src, 0xff, s->n_node_src * sizeof *s->node_src);
    for (uint32_t t = s->n_src; t-- > 0;) { /* each node's terminals, increasing */
        s->src_next[t] = s->node_src[s->src_node[t]];
        s->node_src[s->src_node[t]] = t;
        s->src_multi |= s->src_next[t] != RS_NONE;
    }
    return 0;
}

/* The static messages the driver releases at step (at set-up: step 0; then once per step,
 * after its moves) enter their sources' stores, in release order, behind what is there;
 * a message whose route is empty is delivered at once (latency 0). A store that was empty
 * puts its terminal back in the pending list at once, so that (output queues) it injects
 * at the end of that step like a source holding packets from step 0. Returns 0 or
 * RS_ENOMEM. */
static int take_released(struct saf *s, uint32_t step)
{
    struct rs_released r;
    uint32_t n = rs_driver_released(s->drv, step, &r);
    int refill = 0;
    s->unreleased -= n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t m = rs_released_id(&r, i), t = msg_src(s, m);
        struct saf_pkt *p = &s->pkt[m];
        RS_EVENT(s->ev, RS_EV_GENERATED, step, m, s->src_node[t], RS_EV_NONE, RS_EV_NONE);
        if (p->rem == 0) { /* already at its destination */
            RS_EVENT(s->ev, RS_EV_DELIVERED, step, m, s->src_node[t], RS_EV_NONE, RS_EV_NONE);
            s->where[m] = SAF_DELIVERED;
            s->delivered++;
            s->remaining--;
            if (step > s->last_event)
                s->last_event = step;
            if (record_latency(s, 0))
                return RS_ENOMEM;
            continue;
        }
        p->entered = step;
        s->where[m] = SAF_IN_SOURCE;
        place(s, m, s->src_node[t]);
        refill |= s->src[t].count == 0;
        queue_push(s->pkt, &s->src[t], m);
        uint32_t v = s->src_node[t];
        s->active[v / 64] |= 1ull << (v % 64);
    }
    if (refill) { /* rebuild the list in order */
        s->pend_dirty = 1;
        compact_pending(s);
    }
    return 0;
}

/* Largest channel-counter array (bytes) the engine keeps to count congestion itself. */
#define SAF_LOAD_MAX ((uint64_t)1 << 30)

/* The batch run's packets: one per message, their routes set up here; the driver releases
 * them (all at step 0 without a plan). */
static int saf_init(struct saf *s, struct rs_driver *d, struct rs_err *err)
{
    const struct rs_engine_input *in = d->in;
    const struct rs_net *net = in->net;
    const struct rs_problem *pb = in->pb;
    int rc = rs__saf_init_common(s, in, pb->n_msgs, err);
    if (rc)
        return rc;
    /* congestion counted during the run: the run's own fixed routes (no plan, whose
     * intermediates could differ from the analysis's), and counters of at most
     * SAF_LOAD_MAX bytes: larger ones would add to the engine's peak memory, where the
     * second walk that run does after the engine has freed its state does not */
    uint64_t load_bytes = (uint64_t)net->n_nodes * s->P * sizeof *s->load;
    if (in->paths && !in->plan && load_bytes <= SAF_LOAD_MAX &&
        !(s->load = rs__huge_alloc((uint64_t)net->n_nodes * s->P * sizeof *s->load)))
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu channel loads",
                          (unsigned long long)net->n_nodes * s->P);
    if (s->rank)
        for (uint64_t m = 0; m < pb->n_msgs; m++) /* once per packet, by message id */
            s->rank[m] = (uint16_t)(1 + rs_rand_below(s->seed, RS_STREAM_RANK, m, 0, s->ranks));

    uint32_t max_hops = 4 * net->n_nodes + 16;
    for (uint64_t m64 = 0; m64 < pb->n_msgs; m64++) {
        uint32_t m = (uint32_t)m64, t = rs_problem_src(pb, m64);
        struct saf_pkt *p = &s->pkt[m];
        p->dst = pb->dst[m];
        p->mid = rs_driver_mid_of(d, m);
        if (p->mid != RS_NONE)
            s->route_plain = s->hop_call = 0;
        p->hops = 0;
        p->entered = 0;
        struct rs_route_state st = {t, p->dst, p->mid, 0, m};
        int64_t len = rs_route_length(net, s->routing, &st, max_hops);
        if (len < 0)
            return rs_err_set(err, RS_EINVARIANT,
                              "route of message %u (%u -> %u) does not end at its destination",
                              m, t, p->dst);
        p->rem = (uint32_t)len;
        if (p->rem > s->dilation)
            s->dilation = p->rem;
        p->phase_a = 0;
        if (p->mid != RS_NONE && net->ops->valiant_via_terminal) {
            struct rs_route_state sa = {t, p->mid, RS_NONE, 0, m};
            int64_t la = rs_route_length(net, s->routing, &sa, max_hops);
            if (la < 0 || la > UINT16_MAX)
                return rs_err_set(err, RS_EUNSUPPORTED,
                                  "phase A of message %u is %lld hops (at most 65535 supported)",
                                  m, (long long)la);
            p->phase_a = (uint16_t)la; /* 0: src == mid, no holding */
        }
        s->where[m] = SAF_UNRELEASED;
    }
    s->drv = d;
    s->ev = in->events;
    s->remaining = s->unreleased = pb->n_msgs;
    if (take_released(s, 0))
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    return 0;
}

/* ---- the run ------------------------------------------------------------------------ */

/* The metrics of a batch run, in this order (docs/model-saf.md). */
static const enum rs_metric saf_columns[] = {
    RS_M_MAKESPAN,  RS_M_MESSAGES,     RS_M_DELIVERED,    RS_M_DROPPED,
    RS_M_DELIVERED_FRACTION, RS_M_MAX_QUEUE, RS_M_LATENCY_MEAN, RS_M_LATENCY_P99,
    RS_M_LATENCY_MAX, RS_M_HOPS, RS_M_STEPS, RS_M_DEADLOCK, RS_M_RANK_LEVELS_USED,
    RS_M_TOP_RANK_MESSAGES, RS_M_TOP_RANK_DELIVERED};

/* Fill the typed result of a batch run (r initialised). */
static void saf_result(const struct saf *s, struct rs_result *res, int deadlock)
{
    struct rs_result r = *res;
    uint64_t top = 0, top_delivered = 0; /* packets of the highest rank r (protocol=rank) */
    for (uint64_t m = 0; s->rank && !s->dist && m < s->pb->n_msgs; m++) /* (over ranks:
                                                                          the caller's) */
        if (s->rank[m] == s->ranks) {
            top++;
            top_delivered += s->where[m] == SAF_DELIVERED;
        }
    r.makespan = s->last_event;
    r.messages = (int64_t)s->pb->n_msgs;
    r.delivered = (int64_t)s->delivered;
    r.dropped = (int64_t)s->dropped;
    r.delivered_fraction =
        s->pb->n_msgs ? (double)s->delivered / (double)s->pb->n_msgs : 1.0;
    r.max_queue = s->max_queue;
    if (!deadlock) /* a deadlocked run's latencies are undefined: NaN */
        rs_hist_summary(s->lat.count, s->lat.cap, &r);
    r.hops = (int64_t)s->hops;
    r.steps = s->step;
    r.deadlock = deadlock;
    r.rank_levels_used = s->ranks;
    r.top_rank_messages = (int64_t)top;
    r.top_rank_delivered = (int64_t)top_delivered;
    *res = r;
}

/* ---- the lifecycle of a batch run (the loop is the driver's, src/engine/driver.c) ----- */

/* The general engine over ranks (ranks > 1; 0: a serial run, nothing to refuse): batch runs
 * without check=1 (saf_dist.c, saf_dist_out.c, docs/distributed.md). Returns 0 or RS_E... */
static int saf_dist_admit(const struct rs_engine_input *in, int ranks, struct rs_err *err)
{
    struct rs_saf_options o;
    if (!ranks)
        return 0;
    if (rs_saf_options_read(in->params, &o, err))
        return err->code;
    if (in->check)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "check=1 is not partitioned over MPI ranks: run it without mpirun "
                          "-np %d",
                          ranks);
    return 0;
}

/* saf_kernel=auto: set up the leveled butterfly kernel (saf_wave.c) in s->wave when the run
 * is in its domain. Returns 0 (s->wave NULL: the general engine runs) or RS_E... */
static int saf_pick_kernel(struct saf *s, struct rs_driver *d, struct rs_err *err)
{
    const struct rs_engine_input *in = d->in;
    struct rs_saf_options o;
    int kernel = 0, rc = 0;
    int64_t threads;
    /* over MPI ranks: the kernel split by rows, or the general engine (saf_dist.c,
     * saf_dist_out.c; docs/distributed.md) */
    int ranks = in->exchange && in->exchange->size > 1 ? in->exchange->size : 0;
    if (rs_params_find(in->params, "saf_kernel") && /* absent: auto (and not echoed) */
        ((rc = rs_opt_choice(in->params, saf_options, "saf_kernel", &kernel, err)) ||
         kernel == 1))
        return rc ? rc : saf_dist_admit(in, ranks, err);
    if (rs_saf_options_read(in->params, &o, err) ||
        rs_opt_int(in->params, rs_run_options, "threads", &threads, err)) {
        if (ranks)
            return err->code; /* the general engine would report it; it does not run */
        rs_err_clear(err); /* the general engine reports it */
        return 0;
    }
    if (o.at != RS_SAF_AT_INPUT || o.proto != RS_SAF_FIFO || o.on_full != RS_SAF_BLOCK ||
        o.has_threshold || !rs__saf_wave_fits(d, (uint32_t)o.queue_size))
        return saf_dist_admit(in, ranks, err); /* serial saf_kernel=leveled: refused by
                                                  rs__saf_init_common */
    /* check=1 keeps the general engine (rs__saf_wave_fits); the check that Debug builds make
     * by themselves on small runs walks the general engine's state, which the kernel does not
     * have: skipped, so that the kernel runs (and is compared) in Debug builds too */
    d->check = 0;
    return rs__saf_wave_init(&s->wave, d, (uint32_t)o.queue_size, (uint32_t)threads, err);
}

static int saf_life_init(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct saf *s = st, local;
    int wrc = saf_pick_kernel(s, d, err);
    if (wrc || s->wave)
        return wrc;
    if (d->in->exchange && d->in->exchange->size > 1) /* over MPI ranks (saf_dist.c) */
        return rs__saf_dist_init(s, d, err);
    /* set up in a local struct (its fields stay in registers in the per-message loop),
     * then hand it over: also on error, for the free op */
    int rc = saf_init(&local, d, err);
    *s = local;
    if (rc)
        return rc;
    if (s->at == SAF_AT_OUTPUT) { /* the sources' injections before step 1 */
        inject_output(s);
        compact_pending(s);
    }
    d->remaining = s->remaining;
    return 0;
}

/* The end of a step (and of set-up, step 0): the messages released at it enter their
 * stores, then (output queues) the sources inject. Returns the injections, or -1 on
 * RS_ENOMEM. */
static int64_t end_of_step(struct saf *s)
{
    if (s->unreleased && take_released(s, s->step))
        return -1;
    uint32_t injected = s->at == SAF_AT_OUTPUT ? inject_output(s) : 0;
    compact_pending(s);
    return injected;
}

/* Nothing in the network and messages still to come: jump to the next release step (the
 * steps in between move nothing). Messages released there with empty routes are delivered
 * at once; while that leaves nothing to move, jump again. */
static int fast_forward(struct saf *s, struct rs_err *err)
{
    while (s->remaining && s->remaining == s->unreleased) {
        uint32_t next = rs_driver_next_release(s->drv);
        if (next == UINT32_MAX || next <= s->step)
            return rs_err_set(err, RS_EINVARIANT, "%llu messages neither delivered nor released",
                              (unsigned long long)s->remaining);
        s->step = next;
        if (end_of_step(s) < 0)
            return rs_err_set(err, RS_ENOMEM, "out of memory during the run");
    }
    return 0;
}

static int saf_life_step(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct saf *s = st;
    int rc;
    if (s->wave)
        return rs__saf_wave_step(s->wave, d, err);
    if (s->dist)
        return rs__saf_dist_step(s, d, err);
    if (s->remaining == s->unreleased) { /* an empty network waiting for a release */
        if ((rc = fast_forward(s, err)))
            return rc;
        if (s->remaining == 0) { /* the rest had empty routes: no step to run */
            d->step = s->step;
            d->remaining = 0;
            return 0;
        }
    }
    s->step++;
    s->n_moves = 0;
    if ((rc = s->threads > 1 ? rs__saf_par_step(s) : (decide(s), commit(s))))
        return rs_err_set(err, rc, "out of memory during the run");
    uint64_t present = s->remaining - s->unreleased; /* before this step's releases */
    int64_t injected = end_of_step(s);
    if (injected < 0)
        return rs_err_set(err, RS_ENOMEM, "out of memory during the run");
    d->step = s->step;
    d->remaining = s->remaining;
    /* nothing moved with packets in the network: the state is a fixed point that releases
     * (which only add packets) cannot unblock (the driver's stall rule) */
    d->moved = s->n_moves + (uint64_t)injected;
    d->live = present;
    return 0;
}

static int saf_life_check(void *st, struct rs_err *err)
{
    return rs__saf_check(st, err);
}

static void saf_life_describe(void *st, char *buf, size_t n)
{
    struct saf *s = st;
    if (s->dist && rs__saf_dist_gather(s)) { /* over ranks: the whole state first */
        snprintf(buf, n, "deadlock at step %u (the state could not be gathered over the ranks)",
                 s->step);
        return;
    }
    rs__saf_describe_deadlock(st, buf, n);
}

/* The waiting cycle as data (rs__saf_life_cycle), over ranks on the gathered state. */
static int saf_life_cycle(void *st, struct rs_deadlock *out)
{
    struct saf *s = st;
    int rc = s->dist ? rs__saf_dist_gather(s) : 0;
    return rc ? rc : rs__saf_life_cycle(st, out);
}

/* Congestion and dilation into d->in->paths when this run counted them and every message
 * crossed its whole route (delivered, none dropped, no deadlock): then every route's channels
 * were each counted once, as rs_path_stats_compute counts them. */
static void saf_paths(const struct saf *s, struct rs_driver *d, int deadlock)
{
    struct rs_engine_paths *out = d->in->paths;
    if (!s->load || !out || deadlock || s->delivered != s->pb->n_msgs)
        return;
    uint32_t c = 0;
    uint64_t n = (uint64_t)s->net->n_nodes * s->P;
    for (uint64_t i = 0; i < n; i++)
        c = s->load[i] > c ? s->load[i] : c;
    out->congestion = c;
    out->dilation = s->dilation;
    out->filled = 1;
}

static int saf_life_collect(void *st, struct rs_driver *d, struct rs_result *res, int deadlock)
{
    if (((struct saf *)st)->wave)
        return rs__saf_wave_collect(((struct saf *)st)->wave, d, res);
    struct saf *s = st;
    if (s->dist) { /* over ranks: the counters summed or maxed first (saf_dist.c) */
        uint64_t top, top_delivered;
        uint32_t congestion;
        int rc = rs__saf_dist_collect(s, &top, &top_delivered, &congestion);
        if (rc)
            return rc;
        saf_result(s, res, deadlock);
        res->top_rank_messages = (int64_t)top;
        res->top_rank_delivered = (int64_t)top_delivered;
        struct rs_engine_paths *out = d->in->paths;
        if (s->load && out && !deadlock && s->delivered == s->pb->n_msgs) { /* saf_paths */
            out->congestion = congestion;
            out->dilation = s->dilation;
            out->filled = 1;
        }
        return 0;
    }
    if (rs__saf_par_merge(st))
        return RS_ENOMEM;
    saf_result(st, res, deadlock);
    saf_paths(st, d, deadlock);
    return 0;
}

void rs__saf_life_free(void *st)
{
    rs__saf_wave_free(((struct saf *)st)->wave);
    rs__saf_free(st);
}

/* Why store-and-forward refuses the plan fields it does not honour (by bit number). */
static const char *const saf_plan_why[RS_PLAN_N_FIELDS] = {
    [3] = "a store-and-forward packet waits in a queue by design, so \"discarded when "
          "delayed\" (001 §3.1 step 4) has no single meaning here (on_full=drop discards a "
          "packet whose next queue is full)",
};

static const struct rs_engine_life saf_batch_life = {
    .size = sizeof(struct saf),
    .plan_fields = RS_PLAN_RELEASE | RS_PLAN_MID,
    .plan_why = saf_plan_why,
    .init = saf_life_init,
    .step = saf_life_step,
    .check = saf_life_check,
    .auto_check = 1,
    .stall = RS_STALL_DEADLOCK,
    .describe_deadlock = saf_life_describe,
    .deadlock_cycle = saf_life_cycle,
    .collect = saf_life_collect,
    .columns = saf_columns,
    .n_columns = sizeof saf_columns / sizeof *saf_columns,
    .free = rs__saf_life_free,
};

const struct rs_engine_ops rs_engine_store_forward = {
    .name = "store_forward",
    .summary = "store-and-forward packets with bounded queues (Maggs & Sitaraman 004 §1.2)",
    .options = saf_options,
    .batch = &saf_batch_life,
    .open = &rs__saf_open_life,
    .openloop = 1,
    .estimate = rs__saf_estimate,
    .counts_paths = rs__saf_counts_paths,
};
