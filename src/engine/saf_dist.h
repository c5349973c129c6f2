/* Internal interface of the general store-and-forward engine over MPI ranks, shared by
 * saf_dist.c (set-up, the input-queue step, the end, the deadlock gather, open loop) and
 * saf_dist_out.c (the request/grant round of output and switch queues). The model is
 * docs/distributed.md, "The general store-and-forward engine over ranks". */
#ifndef RS_ENGINE_SAF_DIST_H
#define RS_ENGINE_SAF_DIST_H

#include "engine/node_split.h"
#include "engine/saf.h"

struct saf_dist_out;

/* A packet's whole record, as it crosses to another rank (or into a store, or gathered). */
struct saf_wire {
    uint32_t to;        /* the queue it enters, or SAF_STORE (gathered: the queue it is in) */
    uint32_t node;      /* the node it left (orders the arrivals into one store) */
    uint32_t msg, src;  /* message id and source terminal */
    uint32_t dst, mid, hops, rem, entered, tq;
    uint32_t gen;       /* open loop: its generation step (batch: the message id) */
    uint16_t port, phase_a, rank, pad;
};

/* A block's header: its records and credits, then the sender's step counts (moves,
 * packets finished, out of memory), which every rank sums: the step's all-reduce rides on
 * the all-to-all. */
#define SAF_HDR 5

/* What one rank sends another in a step: records, then credits (queue ids). */
struct saf_out {
    struct saf_wire *rec;
    uint64_t n_rec, cap_rec;
    uint32_t *cred;
    uint64_t n_cred, cap_cred;
};

struct saf_dist {
    const struct rs_exchange *xc;
    uint32_t me, P;
    struct rs__node_split split; /* the nodes' split into the P ranks (node_split.h) */
    uint64_t pos_lo, pos_hi;     /* this rank's nodes: those at these positions */
    uint64_t cap;           /* packet slots */
    uint64_t max_moves;     /* the most moves a step of this rank can make */
    uint32_t *free_slot;    /* [cap] stack of free slots */
    uint64_t n_free;
    uint16_t *feeder;       /* [n_queues], reserved (calloc: untouched pages cost nothing):
                               1 + the rank feeding an own queue when it is another rank,
                               else 0 */
    uint32_t *ghost;        /* remote queues fed by own nodes (their shadows) */
    uint64_t n_ghost;
    struct saf_out *out;    /* [P] */
    uint64_t *send_bytes, *recv_bytes; /* [P] */
    uint8_t *send;
    uint64_t send_cap;
    void *recv;
    uint64_t recv_cap;
    struct saf_wire *stores; /* this step's arrivals into own stores */
    uint64_t n_stores, cap_stores;
    uint64_t done;          /* packets delivered or dropped on this rank, this step */
    uint64_t top, top_delivered; /* protocol=rank: own packets of the top rank, delivered */
    /* open loop: the packets finished on this rank in the step (generation step, delivered),
     * recorded by every rank; the generation counts at the last exchange (split: each rank
     * generates its own terminals' arrivals); the step's own counts */
    struct saf_fin {
        uint32_t gen, delivered;
    } *fin;
    uint64_t n_fin, cap_fin;
    void *fin_recv;
    uint64_t fin_recv_cap;
    int gen_split;
    uint64_t gen_synced[4];
    uint64_t accepted;
    struct rs_err fail;     /* a refill's error on this rank (code 0: none) */
    uint64_t count[3];      /* sent in every header: this step's moves, finished, oom */
    uint64_t sum[3];        /* every rank's, summed from the headers received */
    int oom, gathered;
    struct saf_dist_out *xo; /* output and switch queues: the request/grant round's state
                                (saf_dist_out.c), NULL with input queues */
};

/* ---- ownership ------------------------------------------------------------------------ */

/* The rank owning node (node_split.h: rows of a leveled network, a dragonfly's groups,
 * else node ids). */
static inline uint32_t saf_dist_owner(const struct saf *s, uint64_t node)
{
    return rs__node_split_part(&s->dist->split, node);
}

/* 1 when this rank owns node. */
static inline int saf_dist_own(const struct saf *s, uint64_t node)
{
    const struct saf_dist *x = s->dist;
    uint64_t pos = rs__node_split_pos(&x->split, node);
    return pos >= x->pos_lo && pos < x->pos_hi;
}

/* ---- saf_dist.c's helpers for saf_dist_out.c -------------------------------------------- */

/* A free packet slot (the pool grows when none is left), or RS_NONE when out of memory
 * (x->oom set). Slot m back to the pool. */
uint32_t rs__saf_dist_slot_take(struct saf *s);
void rs__saf_dist_slot_give(struct saf *s, uint32_t m);

/* Slot m's whole record into *w, naming the queue it enters (to) and the node it leaves. */
void rs__saf_dist_wire(const struct saf *s, uint32_t m, uint32_t to, uint32_t node,
                       struct saf_wire *w);

/* A slot holding record w (not yet in a queue), or RS_NONE when out of memory. */
uint32_t rs__saf_dist_slot_of_wire(struct saf *s, const struct saf_wire *w);

/* Slot m enters own queue `to` at this step (placed at the queue's node, max_queue counted,
 * the node marked active); slot m ends Valiant phase A in the store of its terminal mid (an
 * own terminal). */
void rs__saf_dist_enter_queue(struct saf *s, uint32_t m, uint32_t to);
void rs__saf_dist_enter_store(struct saf *s, uint32_t m);

/* 1 when own node v holds no packet (its queues and its terminals' stores). */
int rs__saf_dist_node_empty(const struct saf *s, uint32_t v);

/* The departures of the step's moves s->moves (queues and stores; sticky selections
 * cleared, waiters woken, credits owed to remote feeders, open-loop refills noted). */
void rs__saf_dist_depart(struct saf *s);

/* Slot m's packet was delivered (delivered = 1: latency, top rank, open-loop record) or
 * dropped at this step: counted here and its slot freed. */
void rs__saf_dist_finish(struct saf *s, uint32_t m, int delivered);

/* ---- saf_dist_out.c --------------------------------------------------------------------- */

/* Output or switch queues: set up the round's state (x->xo). Returns 0 or RS_ENOMEM. */
int rs__saf_dist_out_init(struct saf *s);

/* Output or switch queues: this step's moves over the ranks (docs/distributed.md): decide
 * the own active nodes' candidates, one all-to-all of requests (each candidate's record
 * to the owner of its queue), the owners' admissions in the serial order, one all-to-all of
 * grants whose headers carry every rank's count of the step's moves, finished packets and
 * failures (summed into x->sum), a third only in a step where an injection ending
 * Valiant's phase A was granted, then the commit. s->n_moves and x->done are this rank's
 * moves and finished packets. Returns 0 or RS_EIO (the same on every rank). */
int rs__saf_dist_out_moves(struct saf *s);

/* Release x->xo (safe when it was not set up). */
void rs__saf_dist_out_free(struct saf *s);

#endif
