/* algorithm=cms_butterfly, the randomized wormhole algorithm for butterflies of Cole, Maggs &
 * Sitaraman (001 §3.1), shared by its files: the constants and random draws of a run
 * (cms_butterfly.c), the rounds (cms_rounds.c) and one subround on the flit engine
 * (cms_subround.c). */
#ifndef RS_ALGO_CMS_BUTTERFLY_H
#define RS_ALGO_CMS_BUTTERFLY_H

#include <stddef.h>
#include <stdint.h>

#include "routesim/engine.h"

/* The algorithm's constants for one run (docs/cms-butterfly.md). */
struct rs__cms_cfg {
    uint32_t N;            /* inputs (the paper's n), a power of two */
    uint32_t log_n;        /* log2 N */
    uint32_t q;            /* messages per input: the workload's per_input */
    uint32_t pad;          /* copies of every message in round 0: ceil(log N / q) when q <
                              log N and pad=1 (001 §3.1, last paragraph), else 1 */
    uint32_t q_eff;        /* q * pad: the q of Delta and of the round count */
    uint32_t B;            /* virtual channels per channel (vcs) */
    uint32_t L;            /* flits per message (length) */
    double beta;           /* the constant of Delta */
    uint32_t delta;        /* colours = subrounds per round: ceil(beta q_eff log^(1/B) N / B) */
    uint32_t rounds_paper; /* 2 log log(N q_eff) + 1 rounds, the log log rounded up */
    uint32_t max_rounds;   /* more rounds than this are an error (RS_EUNFINISHED) */
    uint32_t start_cap;    /* copies one input can start over one channel in the first flit
                              step of a subround: B (link=per_vc), 1 (link=shared) */
};

/* Delta = ceil(beta * q * log_n^(1/B) / B), at least 1 (001 §3.1 step 2). log_n >= 1,
 * B >= 1. Returns 0 when the value exceeds 2^24 (too many subrounds). */
uint32_t rs__cms_delta(double beta, uint32_t q, uint32_t log_n, uint32_t B);

/* The paper's round count for nq messages (copies counted as q_eff): 2 log2 log2(nq) + 1,
 * with 2 log2 log2(nq) rounded up (so that the last round, 2^R copies of a message, has at
 * least log^2(nq) of them, as the proof of Thm 3.1.1 uses); 1 when nq <= 2. */
uint32_t rs__cms_rounds_paper(uint64_t nq);

/* The random choices of one copy in one round. */
struct rs__cms_draws {
    uint32_t colour;   /* in [0, delta): the paper's colour 1..Delta, minus one */
    uint32_t mid;      /* intermediate terminal in [0, N): row mid of level log N */
    uint32_t priority; /* its rank among the copies of its subround: the lower goes first at
                          its input switch and is the older message for the flit engine */
};

/* The draws of copy `copy` of message msg in round `round`, from the stream (seed,
 * RS_STREAM_CMS_BUTTERFLY, (msg mod 2^16) << 32 | copy, round | (msg >> 16) << 8), so
 * that every message id below 2^32 has streams of its own: the colour (rs_rng_below, unbiased),
 * then the intermediate, then the priority (32 bits). */
void rs__cms_draw(uint64_t seed, uint32_t round, uint32_t msg, uint32_t copy, uint32_t delta,
                  uint32_t N, struct rs__cms_draws *d);

/* Resolve and validate the constants of a run from the engine input and the wormhole
 * engine's option table (length, vcs, link): topology=butterfly with wrap=1, routing=direct,
 * no explicit on_delay=wait, vc_classes=none. Returns 0 or RS_E... with err set. */
int rs__cms_config(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                   struct rs__cms_cfg *cfg, struct rs_err *err);

/* Run the rounds of the algorithm with the constants cfg until every message of in->pb has
 * a delivered copy, and add the metrics to out (docs/cms-butterfly.md: makespan = the sum of
 * the subrounds' flit steps, rounds, copies, the bound of 001 Thm 3.1.1, ...). More than
 * cfg->max_rounds rounds, or a round of more copies than memory allows (max(2^22, 4 N q_eff),
 * at most 2^31), is RS_EUNFINISHED naming the first undelivered messages. Returns 0 or
 * RS_E...; deadlock_msg as rs_engine_ops.run. */
int rs__cms_rounds(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                   const struct rs__cms_cfg *cfg, struct rs_record *out, char *deadlock_msg,
                   size_t deadlock_len, struct rs_err *err);

/* Scratch of the subrounds of one run, sized once for the largest subround. */
struct rs__cms_sub {
    uint32_t cap;          /* copies it can hold */
    struct rs_problem pb;  /* the copies that enter the network, explicit sources */
    uint32_t *mid;         /* [cap] their intermediates (the plan) */
    uint32_t *finish;      /* [cap] out of the engine */
    uint8_t *fate;         /* [cap] out of the engine */
    uint32_t *copy;        /* [cap] the round's copy index of each */
    uint32_t *used;        /* [N * max_ports] copies started per (input, first channel) */
};

/* What one subround did (UNITS: flit steps of that subround, counted from its start). */
struct rs__cms_sub_result {
    uint32_t steps;         /* flit steps until its last copy was delivered or discarded */
    uint64_t delivered;     /* copies delivered */
    uint64_t discarded_at_input; /* copies that could not enter at the first step */
    uint64_t discarded;     /* copies discarded in the network (their header was delayed) */
    uint64_t flit_hops;     /* flits that crossed a channel */
    uint32_t max_buffer;    /* most flits one virtual-channel buffer held */
};

/* Make s able to hold cap copies for net (s zeroed or from an earlier call). Returns 0 or
 * RS_ENOMEM. */
int rs__cms_sub_reserve(struct rs__cms_sub *s, const struct rs_net *net, uint32_t cap,
                        struct rs_err *err);

/* Free what rs__cms_sub_reserve allocated; s is left zeroed. */
void rs__cms_sub_free(struct rs__cms_sub *s);

/* Route one subround (001 §3.1 steps 3-4): the copies idx[0..n) of the round in priority
 * order (also their age order in the engine: the first is the oldest), copy i being message
 * cp_msg[i] of in->pb with intermediate cp_mid[i]. All are released together into an empty
 * network; at each input, in that order, a copy enters over its first channel when fewer
 * than cfg->start_cap copies took that channel before it, else it is delayed at the input
 * switch and discarded; the others are run by engine with discard on delay, each taking the
 * two passes src -> row cp_mid[i] of level log N (= level 0) -> dst of the wrapped
 * butterfly. cp_finish[i] gets the subround step at which copy i was delivered, or RS_NONE.
 * n <= s->cap. Returns 0 or RS_E... (an engine error, or RS_EINVARIANT when the engine
 * disagrees with the input rule or leaves a copy neither delivered nor discarded);
 * deadlock_msg as rs_engine_ops.run. */
int rs__cms_subround(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                     const struct rs__cms_cfg *cfg, struct rs__cms_sub *s, const uint32_t *idx,
                     uint32_t n, const uint32_t *cp_msg, const uint32_t *cp_mid,
                     uint32_t *cp_finish, struct rs__cms_sub_result *res, char *deadlock_msg,
                     size_t deadlock_len, struct rs_err *err);

#endif
