/* Bay & Bilardi's deterministic on-line routing on the pruned butterfly (paper 000 §3): the
 * greedy expansion/compression of §3.1, the bit-serial cost model of §3.2-3.3 (M4) and the
 * stage/batch algorithm of §3.3 (algorithm=bay_bilardi). Model and decisions:
 * docs/bay-bilardi.md. Public internal header (names rs__bb_...). */
#ifndef ROUTESIM_BAY_BILARDI_H
#define ROUTESIM_BAY_BILARDI_H

#include <stdint.h>

#include "routesim/error.h"
#include "routesim/pruned_butterfly.h"

/* ---- greedy expansion and compression (§3.1, Lemma 1, Corollary 1) -------------------
 *
 * s messages m_0..m_{s-1} between the vertices <i, J, h> (h = 0..s-1) of one level-i node
 * (i < n; the paper's case is i = 0, the root) and leaves leaf[h] below it, leaf[] sorted
 * (leaf[h-1] <= leaf[h]), s <= W(i). Expansion (up = 0): m_h goes from <i, J, h> down to
 * leaf[h]; compression (up = 1): from leaf[h] up to <i, J, h>. Every message moves one level
 * per step in lockstep; m_h's edge in the channel of level l is the one whose upper end is
 * <l-1, leaf[h] >> (n-l+1), h mod W(l-1)>. Greedy rule: two active messages that want the
 * same edge in the same step conflict, and the one of larger index becomes inactive and
 * advances no further. Returns the number of messages made inactive (conflicts) and writes
 * inactive_at[h] (s entries, required): the channel level at which m_h became inactive
 * (0: never). When
 * full != NULL, *full is set to 1 if every conflict happened at a channel all of whose
 * cap edges carried an active message in that step (Lemma 1's claim), else 0. Scratch: slot
 * must have 2N entries (its contents are overwritten). */
uint32_t rs__bb_greedy(const struct rs__pb *pb, uint32_t i, uint32_t J, int up,
                       const uint32_t *leaf, uint32_t s, uint32_t *slot, uint8_t *inactive_at,
                       int *full);

/* The load factor of such an expansion or compression: max over the channels of levels
 * i+1..n of (messages crossing it) / cap, as a fraction num/den with den a power of two
 * (returns num * 2^n / cap maximised; compare with 2^n: <= 2^n means lambda <= 1).
 * Scratch: cnt must have 2N entries. */
uint64_t rs__bb_greedy_load(const struct rs__pb *pb, uint32_t i, const uint32_t *leaf,
                            uint32_t s, uint32_t *cnt);

/* ---- the bit-serial cost model (M4; §3.2-3.3) ----------------------------------------
 *
 * UNITS: bit steps. A word of L bits crossing D pipelined stages (wires between vertices,
 * or levels of a tree of one-bit adders) arrives whole after D + L - 1 bit steps: its first
 * bit crosses the first stage in bit step 1 and every bit follows one step behind the one
 * before it. Every constant below is one such pass or a named count of them;
 * docs/bay-bilardi.md derives each. */
struct rs__bb_cost {
    uint32_t n;     /* log2 N */
    uint32_t b;     /* body bits of a message (the `bits` key; default n) */
    uint32_t W;     /* counter bits: bits of |M| (every count, prefix sum and lambda_T fits) */
    uint32_t R;     /* record bits, §3.2: body b + destination n + peak-level ceil(log2 n) */
};

/* D + L - 1 (D >= 1, L >= 1). */
static inline uint64_t rs__bb_pass(uint64_t D, uint64_t L)
{
    return D + L - 1;
}

/* Fill c for N = 2^n, body bits b and |M| = msgs. */
void rs__bb_cost_init(struct rs__bb_cost *c, uint32_t n, uint32_t b, uint64_t msgs);

/* The pieces of stage i (0 <= i < n); D = n - i, the wires from a leaf up to the level-i
 * node P where a subtree's batches turn. */
struct rs__bb_stage_cost {
    uint64_t partition; /* Lemma 4: 3 tree passes (sum, max, broadcast) + Lemma 2(a) prefix
                           (2 passes) + the leaf's mod circuit (W) */
    uint64_t dequeue;   /* 2 deletemins of R bits at a leaf (at most 2 messages of a batch) */
    uint64_t rank;      /* Lemma 2(a): each message's rank h in its batch, 2 passes */
    uint64_t compress;  /* pass(D, ceil(D/2) + n + b): header h, destination, body */
    uint64_t sort;      /* Lemma 3 at P: keys broadcast and compared, ranks summed, records
                           routed to their rank (3 passes over the log2 W(i) levels) */
    uint64_t expand;    /* pass(D, 1 + n + b): status bit, destination, body */
    uint64_t enqueue;   /* 2 inserts of R bits at a leaf */
    uint64_t batch;     /* dequeue + rank + compress + sort + expand + enqueue */
    uint64_t arrive;    /* offset within a batch when its messages reach their leaves:
                           dequeue + rank + compress + sort + expand */
};
void rs__bb_stage_cost(const struct rs__bb_cost *c, uint32_t i, struct rs__bb_stage_cost *s);

/* Set-up: every leaf reads each of its records once and writes its peak level (R bits per
 * message), max_at_leaf messages at the busiest leaf. */
static inline uint64_t rs__bb_setup_cost(const struct rs__bb_cost *c, uint64_t max_at_leaf)
{
    return max_at_leaf * c->R;
}

/* ---- the algorithm (§3.3) ------------------------------------------------------------ */

struct rs__bb_run {
    /* in */
    const struct rs__pb *pb;
    uint64_t m;               /* messages */
    const uint32_t *src, *dst; /* [m] leaves */
    uint32_t bits;            /* body bits b */
    /* out (filled by rs__bb_route) */
    uint64_t bit_steps;                      /* total: set-up + the n stages */
    uint64_t setup;                          /* set-up bit steps */
    uint64_t stage_steps[RS_FT_MAX_LOG2N];   /* bit steps of stage i */
    uint32_t stage_lambda[RS_FT_MAX_LOG2N];  /* max lambda_T over the subtrees of stage i */
    uint64_t stage_msgs[RS_FT_MAX_LOG2N];    /* |M_i|: messages with peak i at stage i */
    uint64_t batch_rounds;                   /* sum over stages of stage_lambda */
    uint32_t lambda_t_max;                   /* max lambda_T */
    uint32_t lt_stage, lt_subtree;           /* where lambda_t_max was first reached */
    uint64_t sidetracks;                     /* messages made sidetracked (rule (b)) */
    uint64_t sidetrack_max;                  /* most sidetracked messages stored at a leaf */
    uint32_t st_leaf, st_stage, st_round;    /* where sidetrack_max was first reached */
    uint64_t compression_conflicts;          /* Corollary 1 check: must stay 0 */
    uint64_t le1_batches;    /* expansions whose load factor (channels below P) is <= 1 */
    uint64_t le1_conflicts;  /* sidetracks in those expansions (Corollary 1: 0) */
    uint64_t delivered;                      /* messages at their destinations */
    uint64_t *finish;  /* optional [m]: bit step of arrival (0 for src == dst); caller-owned */
    uint64_t makespan;                       /* last arrival */
    double latency_mean, latency_p99;        /* over the delivered (NaN when none) */
    /* optional trace (tests): called once per batch after it is routed, with the stage,
     * subtree T (index at level i+1), batch index and its messages in P order (h) and where
     * each landed; NULL: none */
    void (*trace)(void *user, uint32_t stage, uint32_t subtree, uint32_t batch,
                  const uint32_t *msgs, const uint32_t *landed, uint32_t s);
    void *trace_user;
};

/* Route r->m messages on the pruned butterfly r->pb by §3.3 and fill the outputs. Returns 0,
 * RS_ENOMEM, or RS_EUNFINISHED when a message is left undelivered after the n stages (never
 * by Lemma 6's argument; reported, not hidden). */
int rs__bb_route(struct rs__bb_run *r, struct rs_err *err);

#endif
