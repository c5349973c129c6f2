/* Internal state and API of the circuit-switching engine (switching=circuit): circuit.c
 * (options, the cycle loop, plans, metrics), circuit_arb.c (grouping requests and the
 * conflict policies), circuit_lcan.c (one network cycle of an LCAN), circuit_paths.c (one
 * network cycle on fixed paths: butterfly, Beneš, meshes...), circuit_check.c (the
 * invariant checker). The model is docs/model-circuit.md; in short:
 *   - a network cycle: every unrouted message tries to lock a whole path; a channel carries
 *     at most `circuits` circuits per cycle; messages that lock their path are delivered,
 *     the others retry next cycle (passes=0) or are dropped after `passes` cycles;
 *   - LCANs (Scherson & Chien 002 §3): level-synchronous, injection, then up level 0..l-2
 *     (a switch matches its up requests to free uppers by the `up` policy), then down level
 *     l-1..1, then the PE links; every contention but the up choice is decided by `down`;
 *   - fixed paths (004 §5): leveled networks lock hop by hop in path order; other networks
 *     resolve every channel of every path at once;
 *   - channels a failing message locked before it failed stay used for that cycle;
 *   - open loop (injection_process=bernoulli, circuit_openloop.c): one network cycle is one
 *     step of the open-loop module; each cycle the oldest W packets waiting at every
 *     terminal (W = circuits x the out-channels of its node) form the cycle's message set.
 * Every decision is a function of the set of requests (keys from Philox streams, ties by
 * message id), never of the order in which they are visited. */
#ifndef RS_ENGINE_CIRCUIT_H
#define RS_ENGINE_CIRCUIT_H

#include <stdint.h>

#include "routesim/assert.h"
#include "routesim/driver.h"
#include "routesim/engine.h"
#include "routesim/openloop.h"
#include "routesim/lcan.h"
#include "core/events_hook.h"

enum circ_up { CIRC_UP_RANDOM_PER_CYCLE, CIRC_UP_RANDOM_PER_PERMUTATION, CIRC_UP_FIXED };
enum circ_down {
    CIRC_DOWN_RANDOM,
    CIRC_DOWN_LOWER_LCA_FIRST,
    CIRC_DOWN_HIGHER_LCA_FIRST,
    CIRC_DOWN_RANK
};
enum circ_mode {
    CIRC_MODE_LCAN,       /* dynamic LCA paths, level-synchronous phases */
    CIRC_MODE_STAGED,     /* fixed paths on a leveled network: hop by hop */
    CIRC_MODE_ALL_AT_ONCE /* fixed paths elsewhere: every hop contends at once */
};
enum circ_state { CIRC_PENDING = 0, CIRC_ROUTED = 1, CIRC_DROPPED = 2 };

/* A request for one resource (a channel, a T-LCAN bundle, an LCAN switch's uppers) by the
 * message at position p of the cycle's active list. */
struct circ_req {
    uint32_t res;
    uint32_t p;
};

/* A request with its sort key, for ordering one resource's requests. */
struct circ_ranked {
    uint64_t key; /* smaller wins */
    uint32_t m;   /* message id: the last tie-break */
    uint32_t p;
};

struct circ_open;
struct circ_thr;
struct circ_dist;
struct rs_exchange;

struct circ {
    const struct rs_net *net;
    const struct rs_routing_ops *routing; /* oblivious: the paths (rs_route_walk) */
    const struct rs_problem *pb;
    uint64_t seed;
    const struct rs_lcan *lc; /* LCAN mode only */
    enum circ_mode mode;
    enum circ_up up;
    enum circ_down down;
    uint32_t cap;    /* circuits per channel */
    uint32_t passes; /* 0 = until all are routed */
    uint32_t ranks;  /* down=rank: ranks are 1..ranks */
    uint32_t P;      /* net->max_ports */
    struct rs_events *ev; /* batch runs: the event log (docs/events.md), NULL when none */
    uint32_t n;      /* messages */

    uint8_t *state;       /* [n] enum circ_state */
    uint32_t *finish;     /* [n] batch: the cycle (1-based) that routed message m */
    uint8_t *turn;        /* [n] LCAN: level where the circuit turns down; 255: empty path */
    uint32_t *rank;       /* [n] down=rank: 1..ranks, else NULL */
    struct rs_driver *drv;   /* batch: the driver, which releases the messages (a message
                                released at r tries from cycle r + 1 on) and resolves their
                                intermediates */
    uint32_t unreleased;     /* batch: messages the driver has not released yet */
    struct rs_buf per_cycle_text; /* batch: the delivered_per_cycle metric, once collected */
    const uint32_t *via;     /* [n] plan via switches (rs_engine_plan.via) or NULL */

    /* fixed paths: message m's channels are hop[off[m] .. off[m+1]) */
    uint64_t *off;
    uint32_t *hop;
    uint32_t max_len;
    uint16_t *used; /* [n_nodes * P] circuits on each channel this cycle */
    uint32_t *touched;
    uint64_t n_touched;

    /* the cycle */
    uint32_t cycle;  /* 1-based number of the current cycle */
    uint32_t routed_now; /* messages routed in that cycle */
    uint32_t *pend;  /* released messages not yet routed or dropped, increasing */
    uint32_t n_pend;
    uint32_t *act;   /* this cycle's active messages (released pending), increasing */
    uint32_t n_act;
    uint8_t *fail;   /* [position] failed this cycle */
    uint32_t *pos;   /* [position] LCAN: switch the message is at */
    uint32_t *slot;  /* [position] LCAN: downer (going up) it arrived on */
    uint32_t *tb;    /* LCAN: positions with a path, sorted by turn level (stable) */

    /* requests and their grouping */
    struct circ_req *req, *grp;
    uint64_t req_cap;
    uint32_t *cnt;   /* counting-sort buckets */
    uint32_t cnt_cap;
    struct circ_ranked *run; /* one resource's requests being ordered */
    uint32_t run_cap;
    uint32_t *sigma, *ucnt;  /* up choice: downer priority, circuits per upper */

    /* checker: channels each position locked this cycle, in order */
    uint32_t *cpath;
    uint8_t *cplen;
    uint32_t cp_max;
    uint16_t *chk;

    uint64_t shuffle; /* tests only: nonzero shuffles requests and visits runs backwards */

    /* threads (the run key `threads`, circuit_par.c): the stages of a cycle on `threads`
     * OpenMP threads; par_now: this cycle's stages run on them (else serially, the same
     * bytes) */
    uint32_t threads;
    int par_now;
    struct circ_thr *thr; /* [threads] once a cycle has run in parallel */

    /* ranks (mpirun -np P routesim run, circuit_dist.c): each stage's requests are built
     * for this rank's share of the items, sent to the ranks that own their resources
     * (LCANs: resource ids cut into P equal ranges of [0, n_res); fixed paths: blocks of
     * channel ids dealt round the ranks), decided there, and the outcomes sent back; NULL
     * when the run is not partitioned */
    const struct rs_exchange *xc;
    struct circ_dist *dist;
    uint64_t n_res;
    int xfail; /* an exchange failed: the run stops with RS_EIO */
    /* fixed paths over ranks: this rank's messages [m0, m1) (the others' paths are not
     * expanded here: off is indexed by message id m0..m1, hop holds their hops only) and its
     * n_own_ch channels (blocks of channel ids dealt round the ranks, circuit_dist.c; used is
     * indexed by their local ids 0..n_own_ch, and so are the requests this rank decides);
     * off is allocated for [m0, m1] and its pointer shifted by m0 (freed from off + m0).
     * Serial and threaded runs: m0 = 0, m1 = n. */
    uint32_t m0, m1, n_own_ch;
    uint32_t cong; /* fixed paths over ranks: the congestion of the paths (all ranks') */

    /* metrics */
    uint64_t delivered, dropped, conflicts, locks;
    uint32_t max_circ;
    uint32_t *per_cycle;
    uint32_t per_cycle_cap;

    /* open loop only (NULL in batch runs): the injection process and the terminals'
     * windows; pb then points at the cycle's message set and messages are its positions */
    struct circ_open *open;
};

/* One packet waiting at a terminal (open loop). */
struct circ_wait {
    uint32_t dst, mid; /* destination, Valiant intermediate (RS_NONE: direct) */
    uint32_t msg;      /* template message (rs_route_state.msg) */
    uint32_t gen;      /* generation step = cycle */
    uint32_t tries;    /* cycles in which it tried and failed */
    uint32_t rank;     /* down=rank: 1..ranks */
};

/* The open-loop state (circuit_openloop.c). Terminal t's waiting packets that try in the
 * next cycle are win[first[t] .. first[t] + n[t]), oldest first, at most first[t+1] -
 * first[t] = W_t of them; the younger ones wait in the module's FIFO (rs_openloop). */
struct circ_open {
    struct rs_openloop *ol; /* the driver's injection process */
    uint32_t n_term;
    uint32_t *first;        /* [n_term + 1] */
    uint32_t *n;            /* [n_term] */
    struct circ_wait *win;  /* [first[n_term]] */
    uint32_t *pend, *pend2; /* terminals with waiting packets, increasing */
    uint32_t n_pend;
    struct rs_problem cyc;  /* the cycle's message set: src[k], dst[k] of position k */
    uint64_t hop_cap;       /* room in c->hop and c->touched (and in the requests of the
                               all-at-once mode) */
    uint64_t *tmp;          /* one expanded route */
    uint32_t tmp_cap;
    /* threads > 1, fixed paths: the threads' shares of the path expansion
     * (circuit_openloop.c) and each position's packet (its index in win) */
    struct circ_xthr *xt;
    uint32_t *wk;
};

extern const struct rs_engine_ops rs_engine_circuit;

/* Tests only: run the engine through the driver on in with plan (NULL = no plan) and
 * shuffle (nonzero shuffles requests and visits runs backwards: the order-independence
 * test), batch or open loop as the parameters say. Returns what rs_engine_run returns:
 * RS_EINVAL for a plan that names a switch not above both terminals of its message,
 * RS_EUNSUPPORTED for via switches off an LCAN. */
int rs__circuit_run(const struct rs_engine_input *in, const struct rs_engine_plan *plan,
                    uint64_t shuffle, struct rs_record *out, struct rs_err *err);

/* The lifecycle of an open-loop run (circuit_openloop.c): one network cycle per step of the
 * open-loop module; the record is the module's (rs_openloop_record) and cycles, conflicts,
 * max_circuits, locks, ranks_used. The time unit of the module (warm-up, measurement,
 * drain, latency) is the network cycle. */
extern const struct rs_engine_life rs__circ_open_life;

/* The check op of both lifecycles: rs__circ_check after a cycle (none before the first). */
int rs__circ_life_check(void *st, struct rs_err *err);

/* ---- circuit.c, for the open-loop runner ------------------------------------------------ */

/* Read the options into c (net, lc set) and refuse the ones without meaning on its network.
 * Returns 0 or RS_E... */
int rs__circ_read_options(struct circ *c, const struct rs_engine_input *in, struct rs_err *err);

/* Release what c holds (not c->open) and zero it. */
void rs__circ_free(struct circ *c);

/* ---- circuit_arb.c ------------------------------------------------------------------- */

/* Sort c->req[0..n) by resource into c->grp (stable; shuffled first when c->shuffle) and
 * return it. Counting sort when the resource ids span at most min(c->cnt_cap, 4n + 4096)
 * values, else an LSD radix sort: time O(n) either way, never O(network). */
struct circ_req *rs__circ_group(struct circ *c, uint32_t n, uint32_t stage);

/* The conflict key of message m at stage `stage` of this cycle under the down policy:
 * class << 32 | a uniform 32-bit draw from (seed, RS_STREAM_CIRCUIT_TIE, entity m<<16 |
 * stage, step cycle). Classes: random 0; lower_lca_first the turn level; higher_lca_first
 * 255 - turn level; rank ranks - rank. Smaller keys win, then smaller message ids. */
uint64_t rs__circ_key(const struct circ *c, uint32_t m, uint32_t stage);

/* Order the requests g[0..len) of one resource by (rs__circ_key at stage, message id)
 * into c->run[0..len). */
void rs__circ_order(struct circ *c, const struct circ_req *g, uint32_t len, uint32_t stage);

/* Order c->run[0..len) by (key, m) (keys already filled in). */
void rs__circ_sort_run(struct circ_ranked *r, uint32_t len);

/* Note that position p locked channel ch (for the checker and the event log's probe hop
 * records; no-op without them). In the all-at-once mode threads may lock channels of one
 * position at once: its count is taken atomically (the checker reads those channels as a
 * set; a run with an event log runs on one thread). */
static inline void rs__circ_lock(struct circ *c, uint32_t p, uint32_t ch)
{
    c->locks++;
    if (c->cpath) { /* with the checker or the event log (which costs no test without) */
        c->cpath[(uint64_t)p * c->cp_max + __atomic_fetch_add(&c->cplen[p], 1, __ATOMIC_RELAXED)] =
            ch;
        RS_EVENT(c->ev, RS_EV_HOP, c->cycle, c->act[p], ch / c->P, ch % c->P, RS_EV_NONE);
    }
}

/* ---- circuit_par.c: one stage of a cycle, serially or on c->threads threads ---------- */

/* A stage of a cycle: every live message requests one resource (fixed paths in the all-at-
 * once mode: every channel of its path). build writes the requests of items k0..k1 (the
 * mode's list: positions, or entries of c->tb) to out and returns their number; decide gets
 * the requests of a range of resources grouped by resource, g[0..n), and decides, locks and
 * applies them. Both run on a view tc of c (circuit_par.c): the same shared arrays, but
 * their own scratch (run, cnt, sigma, ucnt, touched) and counters (locks, max_circ); they
 * write only the state of their items' / resources' positions. */
struct circ_stage {
    uint32_t (*build)(struct circ *tc, const struct circ_stage *s, uint32_t k0, uint32_t k1,
                      struct circ_req *out);
    void (*decide)(struct circ *tc, const struct circ_stage *s, struct circ_req *g, uint32_t n);
    uint32_t stage;   /* keys the conflict draws (rs__circ_key) */
    uint32_t n_items; /* items 0..n_items of build */
    uint32_t a, b, c; /* the mode's parameters (hop, level, wires, first item) */
};

/* Run one stage: serially (build, rs__circ_group, decide), or when c->par_now on
 * c->threads threads: each builds the requests of an equal share of the items, the
 * requests are distributed by resource over T equal ranges of the stage's resource ids,
 * and each thread groups and decides its range. Every decision is a function of one
 * resource's requests, so the outcome is the same for every T. Returns the number of
 * requests. */
uint32_t rs__circ_stage(struct circ *c, const struct circ_stage *s);

/* At the start of a cycle: set c->par_now (threads > 1 and the threads' scratch holds
 * n_req requests per stage and n_touch touched channels; when it cannot be allocated the
 * cycle runs serially, with the same outcome). */
void rs__circ_par_begin(struct circ *c, uint64_t n_req, uint64_t n_touch);

/* Paths mode, at the end of a parallel cycle: zero c->used on the channels every thread
 * touched and forget them. */
void rs__circ_par_untouch(struct circ *c);

/* Free the threads' scratch. */
void rs__circ_par_free(struct circ *c);

/* ---- circuit_dist.c: one stage over the ranks of c->xc ----------------------------- */

/* rs__circ_stage when c->xc: this rank builds the requests of its share of the items
 * [rank n / P, (rank + 1) n / P), sends each to the rank owning its resource, decides the
 * resources it owns from the requests it received, and every rank applies every rank's
 * decisions (fail, pos, slot of the positions decided), so that the replicated state of
 * the positions is the same on every rank after the stage. Counters (locks, max_circ)
 * stay per rank until rs__circ_dist_reduce. Returns the stage's number of requests over
 * all ranks (0 and c->xfail set when an exchange failed). */
uint32_t rs__circ_dist_stage(struct circ *c, const struct circ_stage *s);

/* At the end of a partitioned run: locks summed and max_circ maxed over the ranks (rank
 * order; the same values on every rank). Returns 0 or nonzero (then c->xfail is set). */
int rs__circ_dist_reduce(struct circ *c);

/* Free the ranks' scratch. */
void rs__circ_dist_free(struct circ *c);

/* Fixed paths over ranks, at set-up: c->used for this rank's channels only (zero, indexed
 * by local id, see struct circ). Returns 0 or RS_ENOMEM. */
int rs__circ_dist_alloc_used(struct circ *c, struct rs_err *err);

/* Fixed paths over ranks: the positions [*k0, *k1) of the active list that hold this rank's
 * messages [m0, m1) (act is increasing, so they are contiguous). */
void rs__circ_dist_own(const struct circ *c, uint32_t *k0, uint32_t *k1);

/* Fixed paths over ranks, at the end of a cycle: every rank's fail flags of its own
 * positions gathered by every rank, so that c->fail[0..n_act) (and the bookkeeping that
 * follows: state, finish, counts) is the same on every rank. Sets c->xfail on failure. */
void rs__circ_dist_cycle_end(struct circ *c);

/* Fixed paths over ranks, at set-up: c->cong, the most paths (of every rank's messages)
 * over one channel, as rs_path_stats_compute counts it, without an array of every
 * channel's load on any rank: each rank's hops go to the owners of their channels in
 * rounds of 2^12 messages, each owner counts its own channels in c->used (zeroed after;
 * again with 4-byte counts when a count reaches 2^16 - 1). Returns 0 or 1 (then c->xfail
 * is set). */
int rs__circ_dist_congestion(struct circ *c);

/* Fixed paths over ranks: the agreement on a set-up failure. v is this rank's first failing
 * message (or c->n); returns the first over all ranks (every rank the same), or c->n with
 * c->xfail set when the exchange failed. Also used for the largest path length (max = 1). */
uint32_t rs__circ_dist_agree(struct circ *c, uint32_t v, int max);

/* Over ranks, where no array of every channel's count is at hand (circuit_paths.c): the
 * first hop h of the path tmp[0..len) at which a channel occurs more than c->cap times
 * (the serial pass's test, which counts the path's channels in order), or len when none;
 * key: len words of scratch (paths over 64 hops are sorted there; shorter ones are
 * counted in place, O(len^2) compares without a call). */
uint32_t rs__circ_over_cap(const struct circ *c, const uint64_t *tmp, uint32_t len, uint64_t *key);

/* Fixed paths over ranks, before an open-loop cycle (circuit_openloop.c): room for n of
 * this rank's own requests in c->req (and as many in c->grp and c->run), grown the way
 * the stages grow them for the requests received. Returns 0 or 1 (out of memory; c->xfail
 * is not set). */
int rs__circ_dist_reserve(struct circ *c, uint64_t n);

/* ---- modes ------------------------------------------------------------------------- */

/* Allocate the request, group, run and counting-sort buffers of c for up to n_req
 * requests per stage on a network of n_ch channel ids (batch and open-loop set-up).
 * Returns 0 or RS_ENOMEM; what was allocated is freed with c. */
int rs__circ_alloc_requests(struct circ *c, uint64_t n_req, uint64_t n_ch, struct rs_err *err);

/* How the cycles of net are decided under routing: LCAN cycles on an LCAN; hop by hop on a
 * leveled network whose every path starts at level 0 and crosses each level at most once;
 * every hop at once elsewhere — including a wrap-around network whose Valiant paths go
 * round twice (hop h and hop h + n then share a level, so a message that fails late in a
 * cycle could hold, from an earlier stage, the channel every other message needs: a cycle
 * could route nothing, forever). Every hop at once routes at least the message with the
 * best key in every cycle. */
enum circ_mode rs__circ_mode(const struct rs_net *net, const struct rs_routing_ops *routing,
                             int lcan);

/* One network cycle of an LCAN over the active list: fills c->fail. */
void rs__circ_lcan_cycle(struct circ *c);

/* Expand every message's fixed path (oblivious route, with the intermediate of its
 * routing: Valiant's, or the row of Ranade's first stage on the Beneš network, see
 * rs_route_mid_for) into c->off / c->hop. Returns 0 or RS_E.. */
int rs__circ_paths_init(struct circ *c, const struct rs_driver *d, struct rs_err *err);

/* One network cycle on fixed paths (staged or all at once): fills c->fail. */
void rs__circ_paths_cycle(struct circ *c);

/* ---- circuit_check.c ----------------------------------------------------------------- */

/* After a cycle: no channel carries more than cap circuits, every routed message's circuit
 * is a connected path from its source's node to its destination's node (through its via
 * switch under a plan), every message is in exactly one state and the counts add up.
 * Returns 0 or RS_EINVARIANT describing the first violation. */
int rs__circ_check(struct circ *c, uint32_t routed_now, struct rs_err *err);

/* ---- circuit_openloop.c -------------------------------------------------------------- */

/* Open loop, after a cycle: every terminal's window holds at most W_t packets in order of
 * generation that have tried fewer than `passes` times, and the module counts as many
 * delivered and dropped packets as the engine. Returns 0 or RS_EINVARIANT. */
int rs__circ_open_check(const struct circ *c, struct rs_err *err);

#endif
