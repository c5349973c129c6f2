/* Counter-based random streams (Random123 Philox4x32-10). A value is a pure function of
 * (seed, stream, entity, step, draw index), so it never depends on visiting order, thread
 * count or process count. */
#ifndef ROUTESIM_RNG_H
#define ROUTESIM_RNG_H

#include <stdint.h>

/* Fixed stream ids: one per use, so that adding a use never shifts another's numbers. */
enum rs_stream_id {
    RS_STREAM_TRAFFIC = 1,  /* workload destinations; entity = message or source */
    RS_STREAM_VALIANT = 2,  /* Valiant intermediate destinations; entity = message */
    RS_STREAM_SELECT = 3,   /* random queueing protocol: selection in a queue; entity = queue */
    RS_STREAM_ARBITER = 4,  /* offer key (random protocol), tie key (rank); entity = queue */
    RS_STREAM_PERM = 5,     /* random permutations (Fisher-Yates); entity = permutation index */
    RS_STREAM_SWEEP = 6,    /* per-run seeds of a sweep; entity = hash of the point */
    RS_STREAM_CIRCUIT_UP = 7,   /* circuit engine: a switch's up setting; entity = switch */
    RS_STREAM_CIRCUIT_TIE = 8,  /* circuit engine: conflict keys; entity = message << 16 | stage */
    RS_STREAM_CIRCUIT_RANK = 9, /* circuit engine, down=rank: ranks; entity = message */
    RS_STREAM_OL_ARRIVAL = 20, /* open-loop Bernoulli arrivals; entity = terminal, step = step / 4 */
    RS_STREAM_OL_DEST = 21,    /* open-loop uniform destinations; entity = terminal, step = step */
    RS_STREAM_OL_LENGTH = 22,  /* open-loop packet lengths; entity = terminal, step = step */
    RS_STREAM_OL_VALIANT = 23, /* open-loop Valiant intermediates; entity = terminal, step = step */
    RS_STREAM_OL_GAP = 24,     /* open-loop arrivals=per_packet: the gap before a packet;
                                  entity = terminal, step = packet index */
    RS_STREAM_OL_BURST = 25,   /* open-loop arrivals=on_off: the gap before a packet;
                                  entity = terminal << 32 | draw round, step = packet index */
    RS_STREAM_PATTERN = 26,    /* traffic=hotspot|diagonal|asymmetric|mix: the part and the
                                  choice within it; entity = message (batch) or terminal
                                  (open loop), step = 0 (batch) or generation step */
    RS_STREAM_COLOUR = 30,  /* colour refinement (001 §2.1): entity = message, step = refinement
                               step * 2^24 + draw; ids 31..39 are kept for its later uses */
    RS_STREAM_RANADE = 40,  /* Ranade's first stage: coin of a 2x2 block (entity = row with
                               the level's bit cleared, step = level) */
    RS_STREAM_RANK = 41,    /* rank protocol: rank of a packet; entity = message */
    RS_STREAM_CMS_BUTTERFLY = 50, /* algorithm=cms_butterfly (001 §3.1): colour, then intermediate
                                     of a copy; entity = (message mod 2^16) << 32 | copy,
                                     step = round | (message >> 16) << 8;
                                     ids 51..59 are kept for its later uses */
    RS_STREAM_MATCHING = 60, /* off-line LCAN router: random walks of a perfect matching; entity = level */
    RS_STREAM_MS_COLOUR = 70, /* algorithm=ms_mesh/ms_torus colouring C / random: entity = snake */
    RS_STREAM_FSORT_KEYS = 71, /* algorithm=flexible_sort keys=random: entity = 0, step = 0 */
    RS_STREAM_NCA_UP = 80,  /* topology=kary_ntree up-ports: entity = message << 32 | source,
                             * step = leg target << 6 | level (+ n in Valiant's second leg) */
    RS_STREAM_ROMM = 81,    /* routing=romm intermediates: entity = message, step = 0, one draw
                             * per dimension */
    RS_STREAM_OL_ROMM = 82, /* the same in open loop: entity = terminal, step = generation step */
    RS_STREAM_TEST = 99     /* tests only */
};

/* A sequential reader over one (seed, stream, entity, step) key: successive draws take
 * successive counter values. Plain value type; copy freely. */
struct rs_rng {
    uint32_t key[2];
    uint32_t ctr[4];
    uint32_t buf[4];
    unsigned avail;
};

/* Position r at the start of the stream keyed by (seed, stream, entity, step). */
void rs_rng_init(struct rs_rng *r, uint64_t seed, uint32_t stream, uint64_t entity,
                 uint32_t step);

/* Next uniform 32-bit value. */
uint32_t rs_rng_u32(struct rs_rng *r);

/* Next uniform 64-bit value. */
uint64_t rs_rng_u64(struct rs_rng *r);

/* Uniform integer in [0, n), unbiased (Lemire's multiply-and-reject); n >= 1. */
uint32_t rs_rng_below(struct rs_rng *r, uint32_t n);

/* Uniform double in [0, 1) with 53 random bits. */
double rs_rng_unit(struct rs_rng *r);

/* One-shot: the first four 32-bit values of the stream (seed, stream, entity, step), i.e.
 * the draws 0..3 that an rs_rng positioned there would return, into out[0..3]. */
void rs_rng_block(uint64_t seed, uint32_t stream, uint64_t entity, uint32_t step,
                  uint32_t out[4]);

/* Two one-shots of one seed at once: rs_rng_block of (seed, stream_a, entity_a, step_a)
 * into out_a and of (seed, stream_b, entity_b, step_b) into out_b (the same words; computed
 * side by side, faster than two calls). */
void rs_rng_block2(uint64_t seed, uint32_t stream_a, uint64_t entity_a, uint32_t step_a,
                   uint32_t out_a[4], uint32_t stream_b, uint64_t entity_b, uint32_t step_b,
                   uint32_t out_b[4]);

/* One-shot: uniform integer in [0, n) from the stream (seed, stream, entity, step). */
uint32_t rs_rand_below(uint64_t seed, uint32_t stream, uint64_t entity, uint32_t step,
                       uint32_t n);

/* Fill perm[0..n) with a uniformly random permutation of 0..n-1 (Fisher-Yates) drawn from
 * the stream (seed, stream, entity, 0). */
void rs_random_permutation(uint32_t *perm, uint32_t n, uint64_t seed, uint32_t stream,
                           uint64_t entity);

#endif
