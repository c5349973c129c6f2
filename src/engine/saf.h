/* Internal state of the store-and-forward engine (saf.c), shared with its invariant
 * checker (saf_check.c) and deadlock reporter (saf_deadlock.c). The model it implements is
 * documented in docs/model-saf.md; in short (Maggs & Sitaraman, 004 §1.2):
 *   - one step: every channel carries at most one packet; all decisions read the state at
 *     the start of the step (decide), then all moves are applied at once (commit);
 *   - queues sit at the head of each channel (input), at the tail of each channel (output)
 *     or one per switch (switch), each of capacity cap packets (0 = unbounded);
 *   - sources hold their messages outside the network (unbounded) and inject as room
 *     allows; a packet whose route ends at the node it enters is delivered at once;
 *   - with Valiant routing via a terminal, a packet ending phase A joins the (unbounded)
 *     source store of its intermediate terminal and is injected again from there;
 *   - open loop (injection_process=bernoulli, saf_openloop.c): packet records are a pool of
 *     slots recycled after delivery or drop; each terminal's generated packets wait in the
 *     open-loop module's FIFO and the oldest one sits in the terminal's store. */
#ifndef RS_ENGINE_SAF_H
#define RS_ENGINE_SAF_H

#include <stdint.h>

#include "routesim/driver.h"
#include "routesim/engine.h"
#include "routesim/openloop.h"

enum saf_queue_at { SAF_AT_INPUT, SAF_AT_OUTPUT, SAF_AT_SWITCH };
enum saf_protocol { SAF_FIFO, SAF_RANDOM, SAF_PRIORITY, SAF_FURTHEST_FIRST, SAF_RANK };
enum saf_on_full { SAF_BLOCK, SAF_DROP };

/* Where a packet is: in a queue of the network, waiting at its source, or gone. */
enum saf_where {
    SAF_IN_SOURCE = 0,
    SAF_IN_QUEUE = 1,
    SAF_DELIVERED = 2,
    SAF_DROPPED = 3,
    SAF_FREE = 4,      /* open loop: an unused slot of the pool */
    SAF_UNRELEASED = 5 /* batch: not yet released by the driver (a plan's release step) */
};

#define SAF_DELIVER UINT32_MAX /* tq value: crossing the next channel delivers the packet */
#define SAF_STORE (UINT32_MAX - 2) /* tq value: it ends Valiant phase A at terminal mid */

/* One packet (= one message). 32 bytes, one per message, indexed by message id (open
 * loop: by slot of the pool). */
struct saf_pkt {
    uint32_t next;    /* next packet in the same queue or source, RS_NONE at the tail */
    uint32_t dst;     /* destination terminal */
    uint32_t mid;     /* Valiant intermediate terminal, RS_NONE for direct routing */
    uint32_t hops;    /* channels crossed so far */
    uint32_t rem;     /* channels still to cross (path length minus hops) */
    uint32_t entered; /* step at which it entered the queue it is in (0 = release) */
    uint16_t port;    /* out-port it takes at the node it is at */
    uint16_t phase_a; /* hops of Valiant's phase A when held at mid between phases, else 0 */
    uint32_t tq;      /* queue it enters when it moves (SAF_DELIVER: it is delivered;
                         SAF_STORE: it ends phase A and waits in the store of terminal mid) */
};

/* A FIFO-linked queue: packets linked through saf_pkt.next. */
struct saf_queue {
    uint32_t head, tail, count;
};

/* A move decided in the decide phase and applied in the commit phase. */
struct saf_move {
    uint32_t pkt;
    uint32_t from;  /* queue id, or SAF_SRC_BIT | terminal for a source */
    uint32_t to;    /* queue id, SAF_DELIVER, or SAF_DROP_TO */
    uint32_t node;  /* node the packet is at before the move */
};
#define SAF_SRC_BIT 0x80000000u
#define SAF_DROP_TO (UINT32_MAX - 1)
#define SAF_VOID (UINT32_MAX - 3) /* to value of a candidate refused admission (rank, block);
                                     such moves are removed before the commit */

struct saf {
    const struct rs_net *net;
    const struct rs_routing_ops *routing; /* oblivious (rs_route_port) */
    int route_plain;                      /* rs_route_plain: the topology's route directly */
    int hop_call;                         /* route_plain, the topology has next_hop and queues
                                             are not at outputs: place_p makes one call */
    const struct rs_problem *pb;
    uint64_t seed;
    enum saf_queue_at at;
    enum saf_protocol proto;
    enum saf_on_full on_full;
    uint32_t cap;          /* queue capacity, 0 = unbounded; with queue_threshold=q, q + 1
                              (a queue holding at most q packets at the start of the step
                              admits every arrival: 004 §3) */
    int thr;               /* 1 with queue_threshold: admissions are not counted (grant NULL) */
    uint32_t P;            /* net->max_ports */
    int P_shift;           /* log2 P when P is a power of two, else -1 */
    int q_shift;           /* log2 per_input when a power of two, else -1 */

    uint64_t n_pkt;        /* packet records: n_msgs, or the open-loop pool's capacity */
    struct saf_pkt *pkt;   /* [n_pkt] */
    uint8_t *where;        /* [n_pkt] enum saf_where */

    uint64_t n_queues;
    struct saf_queue *q;   /* [n_queues] */
    uint32_t *qsel;        /* [n_queues] sticky selection (random, priority), or NULL */
    uint32_t *granted;     /* [n_queues] admissions this step (output/switch queues) */
    uint32_t *grant;       /* granted, where admissions are counted; NULL with queue_threshold
                              (room is the occupancy at the start of the step alone), and
                              over MPI ranks (saf_dist_out.c: the queues' owners admit) */
    uint32_t *waiter;      /* [n_queues] input queues with block only: node+1 whose offer
                              waits for room in this queue (0 = none), or NULL */

    /* protocol=rank only (NULL otherwise): 004 §5's random ranks and, with output or switch
     * queues, the admission of a step's candidates into each queue by rank */
    uint16_t *rank;        /* [n_pkt] rank 1..ranks of each packet, drawn once */
    uint32_t ranks;        /* r: ranks are 1..r */
    uint32_t *cand;        /* [n_queues] first candidate move (index+1) into the queue, 0 = none */
    uint32_t *cnext;       /* [moves_cap] next candidate move into the same queue (index+1) */
    uint64_t *ckey;        /* [moves_cap] the candidate's admission key */

    uint32_t n_src;        /* terminals */
    struct saf_queue *src; /* [n_src] messages not yet injected, in message order */
    uint32_t *srcsel;      /* [n_src] sticky selection at sources (random), or NULL */
    uint32_t *src_node;    /* [n_src] node where terminal t injects */
    uint32_t *node_src;    /* [n_node_src] lowest terminal injecting at node, RS_NONE if none */
    uint32_t n_node_src;
    uint32_t *src_next;    /* [n_src] the next higher terminal injecting at the same node,
                              RS_NONE after the last (concentrated networks: several terminals
                              per node inject in increasing order, docs/model-saf.md) */
    int src_multi;         /* some node has more than one terminal */

    uint32_t *pend;        /* terminals whose source still holds packets, increasing */
    uint32_t n_pend;
    int pend_dirty;        /* a store became non-empty this step: rebuild pend */
    uint32_t *src_used;    /* [n_src] ports of the source's node used this step */

    uint64_t *active;      /* bitmap of nodes to examine next step: with waiters (input
                              queues, block), nodes whose queues changed or that were
                              woken; otherwise every node holding packets */
    uint32_t *act;         /* [n_nodes] this step's active nodes, increasing */
    uint64_t n_words;

    struct saf_move *moves; /* room for one step's moves */
    uint64_t moves_cap, n_moves;

    uint32_t step;
    uint64_t remaining;    /* messages not yet delivered or dropped (released or not) */
    uint64_t unreleased;   /* batch: messages the driver has not released yet */
    struct rs_driver *drv; /* batch: the driver (release steps, intermediates) */
    uint64_t delivered, dropped, hops;
    uint32_t max_queue;
    uint32_t last_event;   /* step of the last delivery or drop */
    /* batch runs asked for congestion and dilation (rs_engine_input.paths) only, else NULL:
     * packets crossing each channel node*P + port, counted as they cross it; and the
     * longest route (hops) */
    uint32_t *load;        /* [n_nodes * P] */
    uint32_t dilation;
    struct rs_lat_hist lat; /* delivered per latency (delivery step - release step) */
    struct rs_events *ev;   /* batch runs: the event log (docs/events.md), NULL when none */

    /* open loop only (NULL / 0 in batch runs; saf_openloop.c): the injection process, the
     * pool's free slots and what each slot's packet is (the route state and the ties of
     * priority, furthest_first and rank need its source, template message and generation
     * step: its identity is (generation step, source), unique because a terminal generates
     * at most one packet per step) */
    struct rs_openloop *ol;
    uint32_t *osrc;         /* [n_pkt] source terminal */
    uint32_t *omsg;         /* [n_pkt] template message (rs_route_state.msg) */
    uint32_t *ogen;         /* [n_pkt] generation step */
    uint32_t *free_slot;    /* [n_pkt] stack of free slots */
    uint64_t n_free;
    uint32_t *own;          /* [n_src] slot of the terminal's oldest generated packet, which
                               waits in its store; RS_NONE when there is none */
    uint32_t *refill;       /* [n_src] terminals whose own packet left the store this step */
    uint32_t n_refill;
    uint64_t step_accepted; /* packets delivered this step */
    uint32_t made;          /* packets put into stores this step */

    /* threads=T (saf_par.c, saf_par_out.c): T > 1 runs a step on T OpenMP threads, with the
     * serial step's outcome (1 with the event log) */
    uint32_t threads;       /* 1: the serial step */
    int par_commit;         /* input queues: every queue gains at most one packet a step */
    uint64_t n_store;       /* a thread's arrivals that end Valiant phase A (done serially) */
    struct saf_thr *par;    /* [threads + 1] the threads' scratch (the last: the switch-queue
                               injections' groups), NULL until first used */

    /* the leveled butterfly kernel (saf_wave.c) when it runs this batch run, else NULL:
     * then nothing above is set up */
    struct saf_wave *wave;

    /* over MPI ranks (saf_dist.c, saf_dist_out.c; batch and open loop): this rank's nodes,
     * its packet pool and the exchange's buffers; NULL in a serial run */
    struct saf_dist *dist;
};

/* Identity of packet m for ties and fixed priorities: its message id in batch runs, (its
 * generation step, its source) in open loop, the order in which packets were generated. */
static inline uint64_t saf_pkt_id(const struct saf *s, uint32_t m)
{
    return s->osrc ? ((uint64_t)s->ogen[m] << 32) | s->osrc[m] : m;
}

/* Queue ids of the node: for input and output queues node*P + slot/port, for switch
 * queues the node id. */
static inline uint64_t saf_queue_of(const struct saf *s, uint32_t node, uint32_t i)
{
    return s->at == SAF_AT_SWITCH ? node : (uint64_t)node * s->P + i;
}

/* Node that owns queue id q. */
static inline uint32_t saf_queue_node(const struct saf *s, uint64_t q)
{
    if (s->at == SAF_AT_SWITCH)
        return (uint32_t)q;
    return (uint32_t)(s->P_shift >= 0 ? q >> s->P_shift : q / s->P);
}

/* ---- saf.c, for the open-loop runner (saf_openloop.c) --------------------------------- */

/* Set up everything but the packets: options, queues, sources, the active set, with room
 * for n_pkt packet records (pkt, where, moves and the rank arrays are allocated for n_pkt,
 * zeroed). Returns 0 or RS_E... (then call rs__saf_free). */
int rs__saf_init_common(struct saf *s, const struct rs_engine_input *in, uint64_t n_pkt,
                        struct rs_err *err);

/* Append packet m (a record of pkt) at the tail of queue q; take packet m, wherever it is
 * in q, out of it (the FIFO lists through saf_pkt.next; saf.c's own, for saf_dist.c's
 * slots). */
void rs__saf_queue_push(struct saf_pkt *pkt, struct saf_queue *q, uint32_t m);
void rs__saf_queue_unlink(struct saf_pkt *pkt, struct saf_queue *q, uint32_t m);

/* Release everything s holds (safe on a partly set-up state). */
void rs__saf_free(struct saf *s);

/* Steps 1-5 of docs/model-saf.md for step s->step (already advanced): decide every move
 * from the state at the start of the step, then commit them. Returns 0 or RS_ENOMEM. */
int rs__saf_step(struct saf *s);

/* Output queues only: the sources' end-of-step injections into their switch's queues.
 * Returns how many packets entered. */
uint32_t rs__saf_inject_output(struct saf *s);

/* Keep in s->pend only the terminals whose store holds packets (rebuilt when pend_dirty). */
void rs__saf_compact_pending(struct saf *s);

/* Route packet m (open loop: slot m) at node: set its out-port and the queue it enters
 * next (pkt.port, pkt.tq). */
void rs__saf_place_open(struct saf *s, uint32_t m, uint32_t node);

/* Put slot m (filled in, placed) into terminal t's store: after every packet that entered
 * it no later than m (FIFO by entry, ties to the packets already there) with
 * protocol=fifo, at the tail otherwise. */
void rs__saf_store_insert(struct saf *s, uint32_t t, uint32_t m);

/* ---- saf.c's step in pieces, for the threaded step (saf_par.c) ------------------------ */

/* Decide one step (s->step, already advanced, s->n_moves = 0) and commit it, serially when
 * s->threads is 1. Returns 0 or RS_ENOMEM. */
int rs__saf_step_moves(struct saf *s);

/* List this step's active nodes in s->act, increasing (clearing the set with waiters).
 * Returns how many. */
uint32_t rs__saf_collect_active(struct saf *s);

/* The in-network moves (and input-queue injections) of the active nodes act[a, b), in that
 * order, appended to s->moves (s may be a thread's copy with its own moves). */
void rs__saf_decide_span(struct saf *s, uint32_t a, uint32_t b);

/* The rest of the decide phase once every node has decided (the rank admissions, the
 * switch-queue injections), on s->moves. */
void rs__saf_decide_rest(struct saf *s);

/* Apply s->moves (the serial commit). Returns 0 or RS_ENOMEM. */
int rs__saf_commit(struct saf *s);

/* Input queues, batch, threads: the departures of moves[0, n) (setting active bits
 * atomically); then (after every thread's departures) their arrivals, counted in s (a
 * thread's copy: hops, delivered, dropped, remaining, max_queue, last_event, lat), leaving
 * the moves that end Valiant phase A to rs__saf_par_stores (s->n_store counts them); then
 * the stores; then (every thread) clearing the active bits of nodes left empty. The
 * arrivals return 0 or RS_ENOMEM. */
void rs__saf_par_depart(struct saf *s, const struct saf_move *moves, uint64_t n);
int rs__saf_par_arrive(struct saf *s, const struct saf_move *moves, uint64_t n);
void rs__saf_par_stores(struct saf *s, const struct saf_move *moves, uint64_t n);
void rs__saf_par_clear(struct saf *s, const struct saf_move *moves, uint64_t n);

/* Output or switch queues, batch, threads (saf_par_out.c): the departures of moves[0, n) as
 * rs__saf_par_depart, and the channels they cross counted in s->load (congestion) by the
 * thread that decided them (each channel carries one packet a step); the arrivals of
 * moves[0, n) that
 * enter no queue (deliveries, drops, the ends of phase A), counted in s (a thread's copy) as
 * rs__saf_par_arrive counts them; and the arrivals into queues of moves[idx[0]],
 * moves[idx[1]], ... in that order (refused candidates skipped), clearing their queues'
 * granted counts. Every departure comes first. rs__saf_par_arrive_out returns 0 or
 * RS_ENOMEM. */
void rs__saf_par_depart_load(struct saf *s, const struct saf_move *moves, uint64_t n);
int rs__saf_par_arrive_out(struct saf *s, const struct saf_move *moves, uint64_t n);
void rs__saf_par_arrive_in(struct saf *s, const struct saf_move *moves, const uint32_t *idx,
                           uint64_t n);

/* ---- saf_par.c, saf_par_out.c --------------------------------------------------------- */

/* One thread's share of a threaded step (saf_par.c). */
struct saf_thr {
    struct saf tc;          /* its view of the engine: s's fields, its moves and counters */
    struct saf_move *buf;   /* its moves */
    uint64_t cap;           /* room in buf */
    struct rs_lat_hist lat; /* its deliveries per latency, over the whole run */
    /* output and switch queues (saf_par_out.c): its moves into queues, by the thread that
     * owns the queue (idx[off[k], off[k+1]) for thread k), each group in move order */
    uint32_t *idx;          /* [idx_cap] positions in buf (the injections': in s->moves) */
    uint64_t idx_cap;
    uint32_t *off;          /* [2 (threads + 1)]: the groups' bounds, then scratch */
    uint64_t base;          /* protocol=rank: its first move's index in the joined list */
};

/* protocol=rank: the admission key of candidate mv (its rank above the uniform key of its
 * offer and step), as admit_by_rank in saf.c computes it. */
uint64_t rs__saf_rank_key(const struct saf *s, const struct saf_move *mv);

/* Add the step's counters of threads 0..nt-1 (their copies' moves, hops, delivered,
 * dropped, remaining; max_queue and last_event maxed) into s, in thread order. */
void rs__saf_par_sum(struct saf *s, uint32_t nt);

/* protocol=rank: settle the candidates of queue `to` in this round (the list from
 * s->cand[to] through s->cnext, 1-based indices of the step's joined move list, keys
 * s->ckey): the queue admits the room-many with the largest keys, equal keys to the earlier
 * index. Room is the capacity less the occupancy at the start of the step and the earlier
 * rounds' admissions (granted), or with queue_threshold (thr) unlimited when the queue held
 * at most q packets at the start of the step, else none. refuse(s, index, ctx) is called on
 * every other candidate. Admissions are counted in granted unless thr; the list is
 * emptied. (admit_by_rank in saf.c and the threads' admit_rank in saf_par_out.c.) */
static inline __attribute__((always_inline)) void
saf_rank_settle(struct saf *s, uint32_t to, int thr,
                void (*refuse)(struct saf *s, uint64_t i, void *ctx), void *ctx)
{
    uint32_t room = thr ? (s->q[to].count < s->cap ? UINT32_MAX : 0)
                        : s->cap - s->q[to].count - s->granted[to],
             admitted = 0;
    for (uint32_t a = s->cand[to]; a; a = s->cnext[a - 1]) {
        uint32_t better = 0;
        for (uint32_t b = s->cand[to]; b && better < room; b = s->cnext[b - 1])
            better += s->ckey[b - 1] > s->ckey[a - 1] ||
                      (s->ckey[b - 1] == s->ckey[a - 1] && b < a);
        if (better < room)
            admitted++;
        else
            refuse(s, a - 1, ctx);
    }
    if (!thr) /* with queue_threshold nothing is counted */
        s->granted[to] += admitted;
    s->cand[to] = 0;
}

/* Room for n moves in th's list. Returns 0 or RS_ENOMEM. */
int rs__saf_thr_room(struct saf_thr *th, uint64_t n);

/* Output or switch queues (with protocol=rank, batch runs only), s->par set up: one step on
 * s->threads threads once its n_act active nodes are listed in s->act, with the serial
 * step's moves and state (docs/model-saf.md, "Threads"). Returns 0, 1 when it could not
 * start (room; nothing changed: take the serial step), or RS_ENOMEM. */
int rs__saf_par_step_out(struct saf *s, uint32_t n_act);


/* One step on s->threads threads (docs/model-saf.md, "Threads"): the same moves, in the
 * same order, and the same state as the serial step. Returns 0 or RS_ENOMEM. */
int rs__saf_par_step(struct saf *s);

/* Add the threads' latency counts into s->lat (before the result). Returns 0 or RS_ENOMEM. */
int rs__saf_par_merge(struct saf *s);

/* Release the threads' scratch. */
void rs__saf_par_free(struct saf *s);

/* ---- saf_openloop.c ------------------------------------------------------------------ */

/* Open-loop packet m was delivered (delivered=1) or dropped at s->step: tell the module,
 * count it, and return its slot to the pool. */
void rs__saf_open_finish(struct saf *s, uint32_t m, int delivered);

/* Slot m (taken from the pool) becomes terminal t's generated packet pk, whose route is
 * len hops (la of them Valiant's phase A, 0: none): its record filled, placed at its node,
 * put into the terminal's store as its own packet, counted in s->made (the caller counts
 * it in flight and marks its node active). */
void rs__saf_open_fill(struct saf *s, uint32_t m, uint32_t t, const struct rs_ol_packet *pk,
                       uint32_t len, uint32_t la);

/* The lifecycle of an open-loop run (injection_process=bernoulli): its step adds the
 * module's arrivals and refills the stores; its record is the module's
 * (rs_openloop_record), then hops, max_queue, steps, deadlock, rank_levels_used. */
extern const struct rs_engine_life rs__saf_open_life;

/* The free op of both lifecycles (rs__saf_free). */
void rs__saf_life_free(void *st);

/* ---- saf_dist.c: the general engine over MPI ranks (docs/distributed.md) ------------ */

/* Set up s for a batch run over d->in->exchange's ranks (size > 1), any queue placement:
 * rank k owns the nodes the flit engine gives it (rows of a network numbered level by level,
 * else the node ids v with floor(v P / n) = k), their queues, the stores of their terminals
 * and the packets in them (a pool of slots; pkt, where, osrc, omsg, ogen and rank are indexed
 * by slot, ogen = omsg = the message id); with output queues the sources' injections before
 * step 1 are made. Every rank sets up the same options and agrees on a route error (the
 * serial run's line). Returns 0 or RS_E... (err set; then rs__saf_free). */
int rs__saf_dist_init(struct saf *s, struct rs_driver *d, struct rs_err *err);

/* One step (the driver's step op over ranks). Input queues: decide this rank's active nodes
 * on the start-of-step state (remote target queues' counts: the shadows), commit, exchange
 * the packets that cross ranks (whole records) and the credits of remote-fed queues that
 * lost a packet (one all-to-all, whose headers carry every rank's count of the step's moves
 * and finished packets, summed on every rank). Output and switch queues: saf_dist_out.c's
 * request/grant round, then (output) the sources' end-of-step injections. Either sets
 * d->step, d->remaining, d->moved and d->live as the serial step does. Returns 0 or RS_E...
 * (err set, the same on every rank). */
int rs__saf_dist_step(struct saf *s, struct rs_driver *d, struct rs_err *err);

/* At the end of the run: every counter summed or maxed over the ranks into s (delivered,
 * dropped, hops, max_queue, last_event, the latency histogram) so that the serial result
 * follows; *top and *top_delivered get the packets of the highest rank (protocol=rank) and
 * those delivered, *congestion the most packets one channel carried (UNITS: packets).
 * Returns 0, RS_ENOMEM or RS_EIO (the same on every rank). */
int rs__saf_dist_collect(struct saf *s, uint64_t *top, uint64_t *top_delivered,
                         uint32_t *congestion);

/* On a deadlock: every rank's non-empty queues (their packets' records and sticky
 * selections) are gathered on every rank (one all-gather, once), so that the serial
 * description of the waiting cycle reads the whole state. Returns 0 or RS_ENOMEM / RS_EIO. */
int rs__saf_dist_gather(struct saf *s);

/* Open loop over ranks (injection_process=bernoulli, any queue placement): set up as
 * rs__saf_dist_init does, with each rank generating its own terminals' arrivals
 * (rs_openloop_restrict) into its pool (ogen: the generation step). Returns 0 or RS_E... */
int rs__saf_dist_open_init(struct saf *s, struct rs_driver *d, struct rs_err *err);

/* One open-loop step over ranks: the batch step's decide, commit and exchange, then the own
 * terminals' arrivals and refills; one all-reduce (moves, packets made and finished,
 * accepted, failures, the generation counts) and one all-gather of the packets finished in
 * the step (generation step, delivered), recorded in every rank's open-loop record, so the
 * run control reads the serial record on every rank. Sets d->step, d->accepted, d->moved and
 * d->live. Returns 0 or RS_E... (the lowest failing rank's error, on every rank). */
int rs__saf_dist_open_step(struct saf *s, struct rs_driver *d, struct rs_err *err);

/* Open loop over ranks, at the end: hops summed and max_queue maxed into s. Returns 0,
 * RS_ENOMEM or RS_EIO (the same on every rank). */
int rs__saf_dist_open_collect(struct saf *s);

/* The message id of packet slot m (over ranks; m itself in a serial batch run). */
static inline uint32_t saf_msg_of(const struct saf *s, uint32_t m)
{
    return s->dist ? s->omsg[m] : m;
}

/* Release what rs__saf_dist_init set up, including the packet pool (safe when it was not;
 * called first by rs__saf_free). */
void rs__saf_dist_free(struct saf *s);

/* ---- saf_check.c, saf_deadlock.c ------------------------------------------------------ */

/* Check every invariant of the state between steps: each packet is in exactly one place,
 * queue counts match their lists, no queue exceeds its capacity, every node holding a
 * packet is marked active, and delivered + dropped + in flight = messages. Returns 0 or
 * RS_EINVARIANT with the first violation described. */
int rs__saf_check(struct saf *s, struct rs_err *err);

/* The packet queue qi offers this step (the protocol's selection; sticky selections are
 * recorded), or RS_NONE when it is empty. */
uint32_t rs__saf_offer(struct saf *s, uint64_t qi);

/* The packet terminal t's store offers this step (t's store holds packets; as above). */
uint32_t rs__saf_src_offer(struct saf *s, uint32_t t);

/* With waiters: 1 when every packet node v offers is blocked on a full queue that has v
 * registered as its waiter (so leaving v unexamined loses nothing), else 0. */
int rs__saf_waiting_ok(struct saf *s, uint32_t v);

/* Describe the cycle of full queues waiting on each other in a state where no packet can
 * move, into buf (one line). */
void rs__saf_describe_deadlock(struct saf *s, char *buf, size_t n);

/* The same waiting cycle as data (the lifecycles' deadlock_cycle op, st a struct saf):
 * for each full queue of the cycle, the channel its offered packet crosses into the next
 * one (no virtual channel). Returns 0 or RS_ENOMEM. */
int rs__saf_life_cycle(void *st, struct rs_deadlock *out);

#endif
