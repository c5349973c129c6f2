/* The store-and-forward engine's keys (switching=store_forward, src/engine/saf.c) as typed
 * values: read once by the engine and by the modules that build for its model
 * (traffic=hard_permutation's adversary), which read this struct, never the engine's option
 * table by name. */
#ifndef ROUTESIM_SAF_OPTIONS_H
#define ROUTESIM_SAF_OPTIONS_H

#include <stdint.h>

#include "routesim/error.h"
#include "routesim/params.h"

enum rs_saf_queue_at { RS_SAF_AT_INPUT, RS_SAF_AT_OUTPUT, RS_SAF_AT_SWITCH };
enum rs_saf_protocol {
    RS_SAF_FIFO,
    RS_SAF_RANDOM,
    RS_SAF_PRIORITY,
    RS_SAF_FURTHEST_FIRST,
    RS_SAF_RANK
};
enum rs_saf_on_full { RS_SAF_BLOCK, RS_SAF_DROP };

/* The values of the `protocol` key, indexed by enum rs_saf_protocol (NULL-terminated). */
extern const char *const rs_saf_protocol_names[];

struct rs_saf_options {
    enum rs_saf_queue_at at;
    enum rs_saf_protocol proto;
    enum rs_saf_on_full on_full;
    int64_t queue_size;      /* packets, 0 = unbounded */
    int has_threshold;       /* queue_threshold was given (004 §3) */
    int64_t queue_threshold; /* packets, when has_threshold (else 0) */
    int64_t rank_levels;     /* 0 = the engine's default */
};

/* Read the engine's keys of p (defaults for those not given) into *o, with their ranges and
 * the rule that queue_threshold excludes a nonzero queue_size. Returns 0 or RS_E... with err
 * set. */
int rs_saf_options_read(const struct rs_params *p, struct rs_saf_options *o, struct rs_err *err);

#endif
