/* The leveled butterfly kernel's state (saf_wave.c), shared with its exchange between the
 * processes of a run over MPI ranks (saf_wave_dist.c). Private to those two files. */
#ifndef RS_ENGINE_SAF_WAVE_IMPL_H
#define RS_ENGINE_SAF_WAVE_IMPL_H

#include <stdint.h>

#include "routesim/driver.h"
#include "routesim/exchange.h"

/* One queued packet: its destination terminal and the step it entered the queue. */
struct wave_ent {
    uint32_t dst, entered;
};

/* A sparse level: the nodes that hold or held packets, in an open-addressed table keyed by
 * row (linear probing), each slot with its node's two queues. */
struct wave_sparse {
    uint32_t *key;         /* [size] local row + 1; 0: a free slot */
    uint8_t *hdr;          /* [2 size] the slot's queues: count | head << 4 */
    uint32_t *dstep;       /* [size] the last step at which a queue of the slot lost a packet */
    uint8_t *dmask;        /* [size] which queues (bits 0, 1) lost one at step dstep */
    struct wave_ent *ent;  /* [2 size * cap] ring buffers */
    uint32_t size, used, shift; /* size = 2^(32 - shift) slots, used of them keyed */
};

struct wave_level {
    uint8_t *hdr;          /* dense: [2 rows] queue (local row)*2+slot: count (bits 0-3), head
                              (bits 4-7) */
    void *ent;             /* dense: [2 rows * cap] ring buffers of compact entries (uint32_t:
                              (dst >> l) << kbits | (entered - base); the bits of dst below l
                              are the row's), or of struct wave_ent once the run is wide */
    uint64_t *dep;         /* dense: [2 rows / 64 + 1] queues that lost a packet this step */
    struct wave_sparse *sp; /* the sparse form, or NULL (dense) */
    uint64_t pk;           /* packets held (level 0: in the sources' stores) */
    int alloc;             /* queues allocated (level 0: the sources are live) */
    int dep_dirty;         /* dep may hold bits */
    uint32_t base, kbits;  /* dense, compact: the step its entries count from (its allocation),
                              and the bits of that count */
};

struct saf_wave {
    uint32_t N, n, cap;
    /* a dense queue header h (count | head << 4) after a pop, and the ring position the next
     * push writes, (head + count) mod cap: tables of the 256 headers, so that the walk's pop
     * and push read one byte instead of computing them. A queue a pop empties gets header 0
     * (head reset), so that a zero byte (and a zero line of headers) means empty */
    uint8_t after_pop[256], push_pos[256];
    /* the rows [R0, R0 + rows) at every level (and the sources and sinks of those rows) are
     * this process's: all of them (R0 = 0, rows = N) but over MPI ranks (saf_wave_dist.c),
     * where rank k has [k N / P, (k + 1) N / P). Queues and sources are indexed by local
     * row (row - R0) */
    uint32_t R0, rows;
    struct wave_dist *dist; /* over MPI ranks; NULL in a run of one process */
    uint64_t n_msgs;
    const uint32_t *dst;   /* the problem's destinations, [n_msgs] */
    const uint32_t *src;   /* the problem's sources, [n_msgs]; NULL: m / per_input */
    uint64_t per_input;
    uint32_t *order;       /* explicit sources: this rank's message ids grouped by source, in
                              id order; NULL: source t's messages are t*q .. t*q + q-1 */
    uint64_t *spos, *send; /* [rows] next and end position of each own source's messages */
    struct wave_level *lv; /* [n] */
    struct wave_level *spare; /* [n] arrays of freed levels >= 1, reused by the next level
                                 allocated (its pages are already faulted in) */
    uint32_t n_spare;
    uint32_t threads;      /* threads for a dense level's walk (1..SAF_WAVE_MAX_THREADS) */
    int wide;              /* dense levels hold struct wave_ent entries: some level lived
                              longer than its compact entries count (then for the rest of
                              the run); 0: compact uint32_t entries */
    uint32_t step, last_event, max_queue;
    uint64_t remaining, delivered, hops;
    struct rs_lat_hist lat;
};


/* Over MPI ranks: a packet crossing port 1 of row r at level l goes to row r ^ 2^l, which
 * may be another rank's; that queue (slot 1 of its node) has this node as its only feeder,
 * so the feeder keeps its count (`shadow`) and judges room on it: the count at the start
 * of the step, as the owner's departures of a step come back (credits) at its end. */
struct wave_msg {
    uint32_t kl;  /* the level, | WAVE_CREDIT for a credit */
    uint32_t row; /* an arrival: the row it enters (slot 1); a credit: the feeder's row */
    uint32_t dst; /* an arrival: the packet's destination */
};
#define WAVE_CREDIT 0x80000000u

struct wave_dist {
    const struct rs_exchange *xc;
    uint8_t **shadow;  /* [n]: for a level l some of whose rows' port 1 leads to another
                          rank, [rows] the count of the queue each own row feeds there;
                          NULL for the other levels */
    uint64_t *gpk;     /* [n] packets held per level over every rank, at the step's start */
    struct wave_msg *out; /* this step's records for other ranks, with their ranks in to */
    uint32_t *to;
    uint64_t n_out, cap_out;
    struct wave_msg *send;  /* out, sorted by rank */
    uint64_t send_cap;
    uint64_t *cnt, *send_bytes, *recv_bytes; /* [P] */
    void *recv;
    uint64_t recv_cap;
    uint64_t *red;     /* [n + 2] the step's sums: moves, deliveries, packets per level */
    int oom;           /* a record could not be kept */
};

/* The rank that holds row r (0 <= r < w->N). */
uint32_t rs__wave_owner(const struct saf_wave *w, uint32_t r);

/* Keep a record (level | kind, row, dst) for rank `to` (sets w->dist->oom when out of
 * memory). */
void rs__wave_emit(struct saf_wave *w, uint32_t to, uint32_t kl, uint32_t row, uint32_t dst);

/* Set up w->dist for a run over xc's ranks (w->N, n, R0 and rows set). Returns 0 or
 * RS_ENOMEM. */
int rs__wave_dist_init(struct saf_wave *w, const struct rs_exchange *xc);

void rs__wave_dist_free(struct saf_wave *w);

/* The end of a step over ranks: sends the kept records to their ranks and applies those
 * received (arrivals pushed with entry step s, credits into the shadow counts), then sums
 * *moves, *ndel and the levels' packets over the ranks (into w->dist->gpk). Returns 0,
 * RS_ENOMEM or RS_EIO (the exchange failed). */
int rs__wave_dist_step(struct saf_wave *w, uint32_t s, uint64_t *moves, uint64_t *ndel);

/* Push (dst, s) into slot p of local row rl of level l, dense or sparse, counted in the
 * level's pk. Returns the queue's new count, or 0 when out of memory. */
uint32_t rs__wave_push_any(struct saf_wave *w, uint32_t l, uint32_t rl, uint32_t p,
                           uint32_t dst, uint32_t s);

/* Over ranks: the routes' congestion (the most routes through one channel) counted by the
 * channels' owners, and max_queue maxed over the ranks into *maxq. Returns 0, RS_ENOMEM or
 * RS_EIO. */
int rs__wave_dist_collect(struct saf_wave *w, uint32_t *congestion, uint32_t *maxq);

#endif
