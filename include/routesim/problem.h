/* Workloads: a static message set built by a traffic generator from a seeded stream.
 * Message m = src * per_input + k is the k-th message of terminal src, unless the set
 * carries explicit sources (src != NULL: messages read from a paths file, where terminals
 * send different numbers of messages); use rs_problem_src() to read a message's source. */
#ifndef ROUTESIM_PROBLEM_H
#define ROUTESIM_PROBLEM_H

#include <stdint.h>

#include "routesim/net.h"
#include "routesim/params.h"

struct rs_record;

struct rs_problem {
    uint32_t n_terminals;
    uint32_t per_input; /* messages per source terminal */
    uint64_t n_msgs;    /* n_terminals * per_input */
    uint32_t *dst;      /* dst[m]: destination terminal of message m */
    uint32_t *src;      /* src[m] when sources are explicit (then per_input is the largest
                           number of messages of one terminal); NULL: src = m / per_input */
};

/* Source terminal of message m. */
static inline uint32_t rs_problem_src(const struct rs_problem *pb, uint64_t m)
{
    return pb->src ? pb->src[m] : (uint32_t)(m / pb->per_input);
}

struct rs_traffic_ops {
    const char *name;
    const char *summary;             /* one line for `routesim list` */
    const struct rs_optdef *options; /* extra keys this traffic reads; NULL-terminated */
    /* Fill dst[0 .. N*per_input) for net's N terminals. Random choices come from streams
     * keyed by seed (rng.h, RS_STREAM_TRAFFIC / RS_STREAM_PERM). Constraint violations
     * (N not a power of two for bit permutations, an odd digit count for transpose, a bad
     * file) give RS_E... with a message naming the key, file and line. */
    int (*generate)(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                    uint32_t per_input, uint32_t *dst, struct rs_err *err);
    /* Optional, for workloads whose message set is not N x per_input (explicit paths):
     * fill pb completely (n_terminals, per_input, n_msgs, dst and src, malloc'd) instead
     * of generate. NULL: rs_problem_build sizes the set and calls generate. */
    int (*build)(struct rs_problem *pb, const struct rs_net *net, const struct rs_params *p,
                 uint64_t seed, struct rs_err *err);
    /* Optional: add the workload's own metrics (a bound beside the measurement) to a run's
     * record, after the engine's and the path statistics. Returns 0 or RS_E.... */
    int (*metrics)(const struct rs_net *net, const struct rs_params *p, struct rs_record *out,
                   struct rs_err *err);
    /* Optional: open-loop injection draws a fresh destination per packet (the packet of
     * terminal src generated at step gen, a pure function of its arguments) instead of
     * cycling through the generated message set. NULL: the message set. */
    uint32_t (*dst_openloop)(const struct rs_net *net, uint64_t seed, uint32_t src,
                             uint32_t gen);
};

/* The registry, NULL-terminated. */
extern const struct rs_traffic_ops *const rs_traffics[];

/* Traffic named name, or NULL. */
const struct rs_traffic_ops *rs_traffic_find(const char *name);

/* Options common to all workloads: traffic, per_input. */
extern const struct rs_optdef rs_problem_options[];

/* Build the workload named by `traffic` (default uniform) with `per_input` (default 1)
 * messages per terminal. Returns 0 or RS_E...; on error pb is left empty. */
int rs_problem_build(struct rs_problem *pb, const struct rs_net *net, const struct rs_params *p,
                     uint64_t seed, struct rs_err *err);

void rs_problem_free(struct rs_problem *pb);

/* Bytes rs_problem_build would allocate for net with the validated parameters p, computed
 * from the sizes alone (never allocating), and in *n_msgs the number of messages. Both are
 * 0 when the workload is sized by its input file (traffic=paths): known once built. */
uint64_t rs_problem_estimate(const struct rs_net *net, const struct rs_params *p,
                             uint64_t *n_msgs);

#endif
