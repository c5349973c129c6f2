/* Internal state of the flit-level engine (switching=wormhole, virtual_cut_through,
 * cut_through_partial, store_forward_flits), shared by its files: flit.c (set-up, sources,
 * the run and its record), flit_step.c (one flit step), flit_check.c (invariants) and
 * flit_deadlock.c (the waiting cycle). The exact model is docs/model-flit.md; in short:
 *   - a message (worm) of L flits follows its route header first; every channel has B
 *     virtual channels (VCs), each with a buffer of `depth` flits at the channel's head;
 *   - a VC is held by one message: from its header's crossing until its tail leaves the
 *     buffer (wormhole, virtual cut-through, store-and-forward) or until its tail enters it
 *     (cut-through with partial cuts: the buffer is a FIFO that may hold the end of one
 *     message and the start of the next, never interleaved);
 *   - one flit step: worms in the network in age order (oldest first, ties by id), then each
 *     source's oldest unstarted message; a worm moves its header first, then each of its
 *     buffers passes its front flit on, head to tail. Everything another worm's move could
 *     change this step is read as it was at the start of the step (step stamps below), so
 *     the only order-dependent outcome is who wins a contested VC or link: the older worm. */
#ifndef RS_ENGINE_FLIT_H
#define RS_ENGINE_FLIT_H

#include <stdint.h>

#include "engine/node_split.h"
#include "routesim/driver.h"
#include "routesim/engine.h"
#include "routesim/openloop.h"

enum flit_mode {
    FLIT_WORMHOLE,  /* 001 §1.1: vc_depth flits per VC (default 1) */
    FLIT_VCT,       /* virtual cut-through: a VC buffer holds a whole message */
    FLIT_PARTIAL,   /* 003 §1 cut-through with partial cuts: a FIFO of vc_depth flits */
    FLIT_SAF        /* 003 §1 store-and-forward snakes: forwarded once entirely stored */
};
enum flit_link { FLIT_PER_VC, FLIT_SHARED };
enum flit_classes { FLIT_CLASSES_NONE, FLIT_CLASSES_DATELINE, FLIT_CLASSES_PARTITION };
enum flit_on_delay { FLIT_WAIT, FLIT_DISCARD };
struct iq;
struct flit_dist;
struct rs_exchange;

/* Slot arrays from this size on come from rs__huge_alloc (zeroed, on huge pages). */
#define FLIT_W_HUGE_FROM ((size_t)2 << 20)

/* One virtual channel: VC id = channel id * B + v, channel id = node * P + port. 24 bytes. */
struct flit_vc {
    uint32_t owner;  /* worm slot holding it, RS_NONE when free */
    uint32_t up;     /* the owner's VC one hop behind (toward its tail), RS_NONE = its source */
    uint32_t cnt;    /* flits in the buffer */
    uint32_t t_arr;  /* step of the last flit arrival (at most one per step) */
    uint32_t t_dep;  /* step of the last flit departure (at most one per step) */
    uint32_t t_free; /* step at which it was last released (allocatable from the next step) */
};

/* The FIFO bookkeeping of a VC buffer (cut_through_partial only): flits are numbered in
 * arrival order; in_seq counts arrivals, out_seq departures, so cnt = in_seq - out_seq;
 * lock_seq is the number of the owner's header. Sequence numbers wrap modulo 2^32. */
struct flit_fifo {
    uint32_t in_seq, out_seq, lock_seq;
};

/* One message that has been released and not finished (a source's front message before its
 * header leaves, then a worm in the network). Indexed by slot. */
struct flit_worm {
    uint64_t key;       /* age: (release or generation step) << 32 | message id or terminal */
    uint32_t msg;       /* message id (static) or template message (open loop) */
    uint32_t src, dst, mid;
    uint32_t len;       /* flits */
    uint32_t gen;       /* release / generation step */
    uint32_t hops;      /* channels the header has crossed */
    uint32_t next_chan; /* channel the header crosses next; RS_NONE once it is delivered */
    uint32_t next_node; /* head node of next_chan */
    uint32_t vc_lo, vc_hi; /* VCs of next_chan its class allows: [vc_lo, vc_hi) */
    uint32_t src_left;  /* flits still in the injection buffer */
    uint32_t done;      /* flits delivered */
    uint32_t head;      /* VC of the last channel the header crossed; RS_NONE before */
    uint32_t span;      /* VCs in its chain, head to tail (head->up->up...) */
    uint32_t tlo, thi;  /* cut_through_partial: sequence numbers [tlo, thi) of its flits in its
                           tail VC after it released that VC (its tail entered it) */
    uint32_t t_move;    /* last step in which one of its flits moved */
    uint32_t t_block;   /* last step in which its header was blocked */
    uint32_t held;      /* collapse=1: its header was blocked in its current buffer, so it
                           waits there until the whole message is in that buffer */
    uint32_t path;      /* index in f->hop of its route's first hop (the path cache), or
                           RS_NONE: routed hop by hop */
    uint32_t seq;       /* age among equal keys: the packet's sequence number at its terminal
                           in open loop (traffic=trace may generate two packets of one terminal
                           in one step), 0 in batch runs (their keys are distinct) */
};

/* One hop of a cached route (flit_route.c): the channel a header at that point crosses next
 * (RS_NONE: it is delivered there), that channel's head node and the VCs its class allows. */
struct flit_hop {
    uint32_t chan, node;
    uint16_t vc_lo, vc_hi;
};

/* What one flit step (or one thread's part of it) adds to the run's counters; folded into
 * struct flit at the end of the step. */
struct flit_acc {
    uint64_t flit_hops, blocked, step_accepted; /* (the step's moves are its flit_hops) */
    int64_t in_net;      /* change of the flits in network buffers */
    uint32_t max_buffer; /* the largest buffer count seen (starts at the run's) */
};

/* One thread's scratch of the parallel step (threads > 1, flit_step.c): its counters, the
 * VCs it released (applied after the phase), the active-list positions of the worms it
 * finished (delivered) or discarded, in increasing order, and its first routing error. */
struct flit_thr {
    struct flit_acc acc;
    uint32_t *rel, n_rel;
    uint32_t *fin, n_fin;  /* act index << 1 | discarded */
    uint32_t pos;          /* merge cursor in fin */
    uint32_t err_at;       /* act index of its first routing error, RS_NONE when none */
    int rc;
    struct rs_err err;
};

/* One choice of an adaptive routing as the parallel step's route phase stores it (a
 * struct rs_route_choice packed: ports < 2^16, VCs <= 64). */
struct flit_ach {
    uint16_t port;
    uint8_t lo, hi;
};

/* A worm started in a step, with its key, for sorting into the active list. */
struct flit_keyed {
    uint64_t key;
    uint32_t slot;
    uint32_t seq;
};

/* Whether age (ka, sa) is later than age (kb, sb): a later key, or the same key (two packets
 * of one terminal generated in one step) and a later sequence number. Ages are distinct. */
static inline int flit_age_after(uint64_t ka, uint32_t sa, uint64_t kb, uint32_t sb)
{
    return ka > kb || (ka == kb && sa > sb);
}

/* Whether worm a is younger than worm b (flit_age_after of their ages). */
static inline int flit_younger(const struct flit_worm *a, const struct flit_worm *b)
{
    return flit_age_after(a->key, a->seq, b->key, b->seq);
}

struct flit {
    const struct rs_net *net;
    const struct rs_problem *pb;
    const struct rs_engine_plan *plan;
    uint64_t seed;
    const struct rs_routing_ops *routing;
    int adaptive;       /* routing->choose: the header picks its channel when it moves */
    int route_plain;    /* rs_route_plain: the topology's route, next_hop, vc_class directly */
    int hop_next;       /* route_plain and the topology has next_hop: one call per hop */
    struct rs_route_view view; /* what an adaptive routing observes (start-of-step credits) */
    enum flit_mode mode;
    enum flit_link link;
    enum flit_classes classes;
    int discard;        /* on_delay=discard or plan->discard_on_delay */
    int collapse;       /* virtual_cut_through collapse=1: 003's cut-through snakes */
    uint32_t B;         /* VCs per channel */
    uint32_t n_cls;     /* VC classes (1, 2 dateline, 4 dateline with Valiant) */
    uint32_t depth;     /* flits per VC buffer */
    uint32_t L;         /* `length` */
    uint32_t P;         /* net->max_ports */
    uint64_t n_chan;    /* n_nodes * P (ids of absent channels are never used) */
    uint64_t n_vc;      /* n_chan * B */

    struct flit_vc *vc;     /* [n_vc] */
    struct flit_fifo *fifo; /* [n_vc], cut_through_partial only */
    uint32_t *chan_used;    /* [n_chan] step the channel last carried a flit (link=shared) */

    struct flit_worm *w;    /* [n_slots]: rs_malloc'd when w_small, else rs__huge_alloc'd */
    int w_small;
    uint32_t n_slots;
    uint32_t *free_slot;    /* stack of unused slots */
    uint32_t n_free;
    uint32_t *act;          /* worms in the network, by increasing key; an
                               entry RS_NONE is a worm that finished (removed when they are
                               half of the list, or a merge needs the room) */
    uint32_t n_act;         /* entries of act */
    uint32_t n_holes;       /* its RS_NONE entries: n_act - n_holes worms in the network */
    uint32_t *born;         /* worms whose header left their source this step */
    uint32_t n_born;
    struct flit_keyed *born_key; /* [n_slots] scratch for sorting them */

    /* sources: terminal t injects at src_node[t]; front[t] is the slot of its oldest
     * unstarted released message (RS_NONE when none) */
    uint32_t n_src;
    uint32_t *src_node;
    uint32_t *front;
    uint32_t *pend;         /* terminals that have messages still to start, increasing */
    uint32_t n_pend;
    uint32_t *pend2;
    /* static messages: terminal t's messages, in the (release, id) order in which the
     * driver releases them (rs_driver_released), fill by_src[src_first[t] ..
     * src_first[t+1]); those released so far end at src_end[t]; src_pos[t] is the next to
     * become front */
    uint32_t *src_first, *by_src, *src_pos, *src_end;
    struct rs_driver *drv;  /* the driver: release steps and intermediates of messages */
    uint32_t *finish;       /* [n_msgs] (static) delivery or discard step, RS_NONE */
    uint8_t *fate;          /* [n_msgs] (static) enum rs_fate */
    /* open loop */
    struct rs_openloop *ol; /* NULL for the static message set */

    uint32_t step;
    uint64_t remaining;     /* static: messages neither delivered nor dropped */
    uint64_t in_net;        /* flits in network buffers */
    uint64_t delivered, dropped; /* messages */
    uint64_t flit_hops, blocked;
    uint64_t step_moves;    /* flits moved, messages started or discarded this step */
    uint64_t step_accepted; /* flits delivered this step */
    uint32_t max_buffer;
    uint32_t last_event;    /* step of the last delivery or discard */
    uint32_t *stale;        /* adaptive routings: VCs discarded this step whose counts the
                               view reads until its end (rs__flit_zero_stale) */
    uint64_t n_stale, cap_stale;
    uint8_t *stuck;         /* [n_slots] scratch of rs__flit_stuck_set (open loop, per_vc) */
    uint32_t *stuck_front;  /* [n_vc] its FIFO fronts (partial cuts) */
    uint32_t stuck_start;   /* a worm of the deadlocked set found this step, or RS_NONE */
    int rc;                 /* first error of a routing call made where no code can be
                               returned (making a source's front); err holds its message */
    struct rs_err *err;
    /* the path cache (flit_route.c): the route of source-destination pair (s, d) starts at
     * hop[(pair_path[s * n_src + d] & ~FLIT_PATH_EMPTY) - 1] (0: not expanded yet, RS_NONE:
     * routed hop by hop; FLIT_PATH_EMPTY set: the route has no hop, source and destination
     * at one node); NULL when routes are not a function of the pair or the index would be
     * too large */
    uint32_t *pair_path;
    struct flit_hop *hop;   /* in pair_path's block (rs__huge_alloc'd, cache_bytes long) */
    uint32_t n_hop, cap_hop;
    size_t cache_bytes;
    /* threads (the run key `threads`): the worms of the network step run on `threads`
     * OpenMP threads, each taking the worms whose header is at a node of its part (tsplit;
     * par set when the configuration allows it; flit_step.c). own[i]: the thread of act[i]. */
    uint32_t threads;
    int par;
    struct rs__node_split tsplit;
    uint16_t *own;
    struct flit_thr *thr;
    /* threads with an adaptive routing: the route phase (flit_step.c) stores the choices of
     * the header of worm slot m, ordered from the start-of-step view, at
     * ach[m * RS_ROUTE_MAX_CHOICES ..] (n_ach[m] of them); NULL otherwise */
    struct flit_ach *ach;
    uint8_t *n_ach;
    struct flit_acc sacc;   /* the counters of the step being run (serial code) */
    int iq_router;          /* router=iq: the network is BookSim's input-queued router */
    struct iq *iq;          /* its state (iq.c), NULL for router=simple */
    struct rs_events *ev;   /* the event log (docs/events.md), NULL when none */
    /* a run over MPI ranks (flit_dist.c), NULL otherwise; then the step's moves and accepted
     * flits, and these, are over every rank after each exchange */
    struct flit_dist *dist;
    uint64_t dist_live;     /* worms in the network */
    uint64_t dist_fronts;   /* sources with a front */
};

/* Worms in the network (act's entries that are not RS_NONE). */
static inline uint32_t flit_live(const struct flit *f)
{
    return f->n_act - f->n_holes;
}

/* VC id of (channel, v). */
static inline uint32_t flit_vc_id(const struct flit *f, uint64_t chan, uint32_t v)
{
    return (uint32_t)(chan * f->B + v);
}

/* Flits in buffer x at the start of the step (undoes this step's arrival and departure). */
static inline uint32_t flit_cnt_start(const struct flit *f, uint32_t x)
{
    const struct flit_vc *v = &f->vc[x];
    return v->cnt + (v->t_dep == f->step) - (v->t_arr == f->step);
}

/* The lifecycle ops of the four flit engines (flit_ops.c builds one rs_engine_life per
 * mode from them; batch and open loop share them, branching on f->ol). rs__flit_init sets
 * up mode with the option table of that engine; the others are the rs_engine_life ops. */
int rs__flit_init(void *st, struct rs_driver *d, enum flit_mode mode,
                  const struct rs_optdef *options, struct rs_err *err);
int rs__flit_life_step(void *st, struct rs_driver *d, struct rs_err *err);
int rs__flit_life_check(void *st, struct rs_err *err);
void rs__flit_life_describe(void *st, char *buf, size_t n);
int rs__flit_collect(void *st, struct rs_driver *d, struct rs_result *res, int deadlock);
/* The record's metrics of a static (batch) run and of an open-loop run, in column order. */
#define FLIT_BATCH_COLUMNS                                                                     \
    RS_M_MAKESPAN, RS_M_MESSAGES, RS_M_DELIVERED, RS_M_DROPPED, RS_M_LATENCY_MEAN,             \
        RS_M_LATENCY_P99, RS_M_LATENCY_MAX, RS_M_FLIT_HOPS, RS_M_BLOCKED_HEADER_STEPS,         \
        RS_M_MAX_BUFFER, RS_M_STEPS, RS_M_DEADLOCK
#define FLIT_OPEN_COLUMNS                                                                      \
    RS_OPENLOOP_COLUMNS, RS_M_FLIT_HOPS, RS_M_BLOCKED_HEADER_STEPS, RS_M_MAX_BUFFER,           \
        RS_M_STEPS, RS_M_DEADLOCK
void rs__flit_free(void *st);

/* The packet of worm slot m as the event log names it: batch runs, its message id; open
 * loop, the slot (the log maps it to the packet's id, docs/events.md). */
#define FLIT_EV_ID(f, m) ((f)->ol ? (m) : (f)->w[m].msg)

/* The event log (f->ev set; docs/events.md), out of the step's line: worm m's header just
 * crossed into VC w->head (its hops counted): an injected record when it left its source,
 * then a hop record; worm m's header wanted to move this step and could not. */
void rs__flit_event_hop(const struct flit *f, uint32_t m) __attribute__((cold));
void rs__flit_event_blocked(const struct flit *f, uint32_t m) __attribute__((cold));

/* Run one flit step (f->step already advanced): every move of the step. Returns 0 or
 * RS_E... (only RS_EINVARIANT for an impossible route). */
int rs__flit_step(struct flit *f, struct rs_err *err);

/* Drop the finished worms' entries (RS_NONE) from the active list, keeping its order. */
void rs__flit_compact(struct flit *f);

/* Sort the worms of f->born[0..n_born) (started this step, or arrived from another rank) by
 * key into the active list, dropping finished worms' entries; n_born becomes 0. */
void rs__flit_merge_born(struct flit *f);

/* ---- over MPI ranks (flit_dist.c, docs/distributed.md) ----
 * rs__flit_dist_init: set f->dist for rank xc->rank of xc->size (> 1), or refuse (returns
 * RS_EUNSUPPORTED with the reason) a configuration the split does not cover: f's options,
 * routing, plan and driver are set already. Returns 0, RS_EUNSUPPORTED or RS_ENOMEM. */
int rs__flit_dist_init(struct flit *f, const struct rs_exchange *xc, struct rs_err *err);
void rs__flit_dist_free(struct flit *f);
/* The rank that owns node (its sources, the VCs of the channels out of it, the worms whose
 * header is there); whether that is this rank. */
uint32_t rs__flit_rank_of_node(const struct flit *f, uint64_t node);
int rs__flit_dist_own_node(const struct flit *f, uint64_t node);
/* Mark free (no owner, no upstream VC) the VCs at home on this rank: those of the channels
 * out of its nodes. The other ranks' VCs are left untouched (their pages never written). */
void rs__flit_dist_clear_home(struct flit *f);
/* The terminals of t[0..n) whose sources are this rank's, in order, into *own (a buffer of
 * the exchange's, valid until the next call): returns how many. */
uint32_t rs__flit_dist_own_terminals(struct flit *f, const uint32_t *t, uint32_t n,
                                     const uint32_t **own);
/* Open loop over ranks: this rank generates only the arrivals of the terminals at its
 * nodes (rs_openloop_restrict), the step's generation counts summed over the ranks at every
 * exchange. Returns 0 or RS_ENOMEM. */
int rs__flit_dist_split_arrivals(struct flit *f, struct rs_err *err);
/* VC x was released in this step (its record updated): send it home if it is another
 * rank's. */
void rs__flit_dist_released(struct flit *f, uint32_t x);
/* The end of a step (or of a fast-forward jump): worms whose header is at another rank's
 * node move there, released VCs go home, and the step's moves, accepted flits, worms in the
 * network, sources with a front and finished messages are summed over the ranks
 * (f->step_moves, step_accepted, dist_live, dist_fronts, remaining). rc: this rank's
 * failure in the step (err set), or 0. Returns 0, or the failure of the lowest failing rank
 * on every rank (its message in err), or RS_EIO when the exchange itself failed. */
int rs__flit_dist_exchange(struct flit *f, int rc, struct rs_err *err);
/* A deadlocked run: every rank's worms (and their chains) gathered on every rank, so that
 * the serial waiting-cycle code describes the serial run's cycle. Once; returns 0, RS_ENOMEM
 * or RS_EIO. */
int rs__flit_dist_gather(struct flit *f);
/* Open loop over MPI ranks: packet (start of step gen, len flits) finished on this rank in
 * this step, delivered or dropped; the open-loop record takes every rank's at the end of the
 * step (rs__flit_dist_exchange). */
void rs__flit_dist_finished(struct flit *f, uint32_t gen, uint32_t len, int delivered);
/* Open loop over MPI ranks, the periodic search for a deadlocked set of worms
 * (rs__flit_stuck_set) on every rank's worms: the other ranks' worms join this rank's
 * state while it runs; *found is a member of the set (the run ends on it: the state stays
 * whole for the waiting cycle) or RS_NONE (the visitors leave). Returns 0, RS_ENOMEM or
 * RS_EIO. */
int rs__flit_dist_stuck(struct flit *f, uint32_t *found);
/* The end of the run: the counters summed (maxed) over the ranks and every message's finish
 * step and fate on every rank. Returns 0, RS_ENOMEM or RS_EIO. */
int rs__flit_dist_collect(struct flit *f);
/* The congestion (most routes over one channel) and dilation (longest route, hops) of the
 * static messages' routes, counted over the ranks: each rank walks the routes of its own
 * sources' messages and sends each hop to the channel's home rank (rounds of 4096 routes),
 * which counts its own channels. Returns 0, RS_EIO, or RS_EINVARIANT (a route that does not
 * end, on some rank: the caller lets the serial path analysis report it). */
int rs__flit_dist_paths(struct flit *f, uint32_t *congestion, uint32_t *dilation);
/* For router=iq's records (iq_dist.c): rs__flit_dist_reserve gives room for n bytes at the
 * end of the records sent to rank r in this step's exchange (NULL when out of memory: the
 * step then fails on every rank); the exchange hands the records tagged FLIT_DIST_REC_IQ + k
 * (a 32-bit tag first) to rs__iq_dist_take. rs__flit_dist_allgather: every rank's n bytes
 * at p, in rank order, at *out (total bytes); returns 0 or RS_EIO. rs__flit_dist_ranks: P. */
#define FLIT_DIST_REC_IQ 16
uint32_t rs__flit_dist_ranks(const struct flit *f);
uint8_t *rs__flit_dist_reserve(struct flit *f, uint32_t r, uint64_t n);
int rs__flit_dist_allgather(struct flit *f, const void *p, uint64_t n, const uint8_t **out,
                            uint64_t *total);

/* Set up the parallel step when f->threads > 1 and the configuration allows it (link=per_vc,
 * not cut_through_partial, router=simple; an adaptive routing gets the route phase's ach and
 * n_ach): f->par, own, thr. Returns 0 or RS_ENOMEM. rs__flit_par_free frees what it allocated. */
int rs__flit_par_init(struct flit *f);
void rs__flit_par_free(struct flit *f);

/* Flits of worm slot m in its chain VC x (the count of the buffer, or of m's segment in a
 * shared FIFO). */
uint32_t rs__flit_count(const struct flit *f, uint32_t m, uint32_t x);

/* Finish worm slot m at the current step: delivered (all flits arrived) or discarded
 * (its flits are removed and its VCs released). Frees the slot. */
void rs__flit_finish(struct flit *f, uint32_t m, int delivered);

/* Compute worm m's next channel from the node its header is at (next_node before the first
 * hop: its source node): next_chan, next_node, vc_lo/vc_hi; next_chan = RS_NONE when the
 * node is its destination. Adaptive routing: the escape choice (what the worm waits for
 * until the header moves; move_header picks the channel it actually takes). Returns 0 or
 * RS_EINVARIANT (a route to a missing channel). */
int rs__flit_route(struct flit *f, uint32_t m, uint32_t node, struct rs_err *err);

/* The path cache (flit_route.c). rs__flit_paths_init allocates it when routes are a function
 * of (source, destination) alone (after the routing, classes and sources are set up):
 * returns 0 or RS_ENOMEM. rs__flit_path_of gives the pair entry of the cached route from
 * terminal src to terminal dst (expanding it on first use): RS_NONE when that route is
 * routed hop by hop (no cache, an intermediate, the cache full, a failing route), else the
 * index of its first hop plus one, with FLIT_PATH_EMPTY set when the route has no hop (its
 * first hop's chan is RS_NONE). rs__flit_paths_free frees it. */
#define FLIT_PATH_EMPTY 0x80000000u
int rs__flit_paths_init(struct flit *f);
uint32_t rs__flit_path_of(struct flit *f, uint32_t src, uint32_t dst, uint32_t mid);
void rs__flit_paths_free(struct flit *f);
/* rs__flit_path_of with the look-up of an expanded pair inline (the call only to expand). */
static inline uint32_t flit_path_of(struct flit *f, uint32_t src, uint32_t dst, uint32_t mid)
{
    if (!f->pair_path || mid != RS_NONE)
        return RS_NONE;
    uint32_t p = f->pair_path[(uint64_t)src * f->n_src + dst];
    return p == 0 ? rs__flit_path_of(f, src, dst, mid) : p;
}
/* A worm's next_chan before its header's first move when its cached route's first hop is
 * not read yet (router=simple): new_worm only prefetches that hop, the step's source loop
 * reads it (flit_first_hop) when the header first tries to move. Never a channel id (VC ids
 * are 32-bit). */
#define FLIT_CHAN_UNREAD (RS_NONE - 1)
/* Read worm w's cached first hop (its next_chan FLIT_CHAN_UNREAD) into its next-hop fields,
 * as new_worm would have. */
static inline void flit_first_hop(const struct flit *f, struct flit_worm *w)
{
    const struct flit_hop *h = &f->hop[w->path];
    w->next_chan = h->chan; /* not RS_NONE: the path is not empty */
    w->next_node = h->node;
    w->vc_lo = h->vc_lo;
    w->vc_hi = h->vc_hi;
}
/* Hops the path cache holds for a network of pairs (source, destination) pairs: 0 when it has
 * no cache (too many pairs). For the memory estimate: the cache takes at most 4 bytes per pair
 * and 12 per hop. */
uint32_t rs__flit_path_hops(uint64_t pairs);

/* rs__flit_route for an oblivious and for an adaptive routing, for callers that know which
 * (the step's hot path). The oblivious one reads worm m's cached path when it has one. */
int rs__flit_route_oblivious(struct flit *f, uint32_t m, uint32_t node, struct rs_err *err);
int rs__flit_route_adaptive(struct flit *f, uint32_t m, uint32_t node, struct rs_err *err);

/* The choices worm m's header has at its node (next_chan != RS_NONE): its one route channel
 * with VCs [vc_lo, vc_hi) for an oblivious routing, else the adaptive routing's choices in
 * their fixed (stateless) order. Writes out[0..RS_ROUTE_MAX_CHOICES) and returns how many. */
uint32_t rs__flit_choices(const struct flit *f, uint32_t m, struct rs_route_choice *out);

/* Adaptive routing, at the header's move: the lowest free VC of the first of worm m's
 * choices (ordered by the routing from start-of-step credits) that has one, with
 * w->next_chan / next_node set to that channel; RS_NONE when no choice has a free VC.
 * shared: link=shared (a channel carries one flit per step). */
uint32_t rs__flit_adaptive_pick(struct flit *f, uint32_t m, int shared);

/* rs__flit_adaptive_pick in two halves, for the parallel step (threads > 1): the choices of
 * worm m's header (next_chan != RS_NONE) ordered by the routing from the view, at out[0..n)
 * (returns n, >= 1; reads the VCs, writes nothing of f: safe on threads while no VC
 * changes); then, when the header moves, the lowest free VC of the first of ch[0..n) that
 * has one, with w->next_chan / next_node set (RS_NONE: none; link=per_vc). The two give
 * what rs__flit_adaptive_pick gives when the view reads the same counts. */
uint32_t rs__flit_adaptive_order(const struct flit *f, uint32_t m, struct flit_ach *out);
uint32_t rs__flit_adaptive_take(struct flit *f, uint32_t m, const struct flit_ach *ch,
                                uint32_t n);

/* Make terminal t's next available message its front slot if it has none: static
 * messages the driver has released (rs__flit_take_released), open-loop packets generated
 * before the current step. Messages whose path is empty are delivered at once (at the
 * current step). A routing error sets f->rc. */
void rs__flit_make_front(struct flit *f, uint32_t t);

/* Would rs__flit_make_front(f, t) look for a front: t has none, and a message waits
 * (released static messages, or open-loop packets generated)? Its callers in the step's
 * loops test this inline first (most calls have nothing to do). */
static inline int rs__flit_front_due(const struct flit *f, uint32_t t)
{
    return f->front[t] == RS_NONE &&
           (f->ol ? f->ol->term[t].pending != 0 : f->src_pos[t] < f->src_end[t]);
}

/* The end of a step's moves: zero the counts of the VCs discarded in it that kept them for
 * the adaptive view (discard_worm in flit.c). */
void rs__flit_zero_stale(struct flit *f);

/* Terminal t's front message started or was discarded: it leaves the source's FIFO. */
void rs__flit_front_left(struct flit *f, uint32_t t);

/* Check every invariant of the state between steps (docs/model-flit.md): chains adjacent
 * along the route, flits of a worm conserved and contiguous, buffers within capacity and
 * held by one message (FIFOs: in order, never interleaved), the snake-model shapes, and
 * delivered + dropped + in flight = messages. Returns 0 or RS_EINVARIANT. */
int rs__flit_check(struct flit *f, struct rs_err *err);

/* Describe the cycle of waiting channels of a deadlocked state (one line), following
 * "waits for" from worm slot start (RS_NONE: the oldest worm in the network). */
void rs__flit_describe_deadlock(struct flit *f, uint32_t start, char *buf, size_t n);

/* The same waiting cycle as data (the lifecycles' deadlock_cycle op; st a struct flit,
 * traced from its stuck_start; router=iq: rs__iq_deadlock_cycle): for each worm of the
 * cycle, the channel and VC it waits for. Returns 0 or RS_ENOMEM. */
int rs__flit_life_cycle(void *st, struct rs_deadlock *out);

/* A deadlock among some of the worms while others still move (link=per_vc): a non-empty
 * set of worms whose headers were blocked and whose flits did not move in this step, and
 * that wait only for VCs (or FIFO space) held by worms of the set, can never move again.
 * Returns a member of the largest such set, or RS_NONE. */
uint32_t rs__flit_stuck_set(struct flit *f);

#endif
