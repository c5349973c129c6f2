/* Sampled destination patterns (issue 22 item 4): BookSim's hotspot, diagonal and asymmetric
 * traffics and weighted mixes of traffics (traffic=mix), as one sampler that gives each
 * message (batch) or each open-loop packet its own destination, a pure function of (seed,
 * entity, step). The definitions and the key syntax are in docs/workloads.md. */
#ifndef ROUTESIM_PATTERN_H
#define ROUTESIM_PATTERN_H

#include <stdint.h>

#include "routesim/error.h"
#include "routesim/net.h"
#include "routesim/params.h"

#define RS_PATTERN_MAX_PARTS 16 /* parts of a mix */
#define RS_PATTERN_MAX_HOT 64   /* hot terminals of hotspot */

/* How one part of a pattern picks a destination. */
enum rs_pattern_kind {
    RS_PAT_UNIFORM,    /* a uniform terminal */
    RS_PAT_HOTSPOT,    /* a hot terminal by its rate (fraction of the time), else uniform */
    RS_PAT_DIAGONAL,   /* BookSim: s + 1 mod N with probability 1/3, else s */
    RS_PAT_ASYMMETRIC, /* BookSim: s mod (N/2), plus N/2 with probability 1/2 */
    RS_PAT_TABLE,      /* a fixed destination per source (a permutation traffic) */
    RS_PAT_FN          /* the traffic's own per-packet destination (dst_openloop) */
};

struct rs_pattern_part {
    enum rs_pattern_kind kind;
    uint64_t upto; /* the part is chosen when a 32-bit draw is below upto (cumulative) */
    uint32_t *table; /* RS_PAT_TABLE: [n] destinations, owned */
    uint32_t (*fn)(const struct rs_net *net, uint64_t seed, uint32_t src, uint32_t gen);
};

/* The sampler. Plain struct; rs_pattern_free releases the tables. */
struct rs_pattern {
    uint32_t n;       /* terminals */
    uint32_t n_parts; /* 0: the traffic is not a sampled pattern */
    struct rs_pattern_part part[RS_PATTERN_MAX_PARTS];
    uint32_t n_hot;
    uint32_t hot[RS_PATTERN_MAX_HOT];
    uint64_t hot_upto[RS_PATTERN_MAX_HOT]; /* cumulative rate thresholds (of 2^32) */
    uint64_t hot_frac; /* a hotspot packet goes to a hot terminal when a draw is below it */
};

/* The keys of hotspot (also accepted by traffic=mix), an X-list of rs_optdef entries. */
#define RS_HOTSPOT_OPTIONS                                                                    \
    {"hotspot_nodes", RS_OPT_STRING, "0", 0, 0, NULL,                                        \
     "hotspot: the hot terminals, comma-separated (BookSim's hotspot({nodes},{rates}))",      \
     "-"},                                                                                    \
        {"hotspot_rates", RS_OPT_STRING, NULL, 0, 0, NULL,                                    \
         "hotspot: relative weights of the hot terminals, comma-separated positive integers "  \
         "(absent: equal; fewer than nodes: the last repeats, as BookSim)", "1"},             \
        {"hotspot_fraction", RS_OPT_DOUBLE, "1", 0, 1, NULL,                                  \
         "hotspot: fraction of the packets sent to a hot terminal; the rest go to a uniform "  \
         "terminal (1: BookSim's hotspot)", "1"}

/* Set pt up for the traffic named by p's `traffic` key on net: hotspot, diagonal,
 * asymmetric or mix (mix parses its `mix` key and builds the tables of its permutation
 * parts from generate with per_input = 1). Any other traffic leaves pt->n_parts = 0 and
 * returns 0. Errors name the key and the offending item. Returns 0 or RS_E... (pt is then
 * freed). */
int rs_pattern_open(struct rs_pattern *pt, const struct rs_net *net, const struct rs_params *p,
                    uint64_t seed, struct rs_err *err);

/* Release pt's tables; safe on a zeroed or freed struct. */
void rs_pattern_free(struct rs_pattern *pt);

/* The destination of the message (batch: entity = message id, step = 0, uni_stream =
 * RS_STREAM_TRAFFIC) or packet (open loop: entity = src, step = generation step,
 * uni_stream = RS_STREAM_OL_DEST) of terminal src. The part and the choice inside it come
 * from one block of (seed, RS_STREAM_PATTERN, entity, step); uniform terminals from
 * rs_rand_below(seed, uni_stream, entity, step, n). Requires pt->n_parts > 0. Pure. */
uint32_t rs_pattern_dst(const struct rs_pattern *pt, const struct rs_net *net, uint64_t seed,
                        uint32_t uni_stream, uint64_t entity, uint32_t step, uint32_t src);

/* Parse text, the value of key, as comma-separated decimal integers into v[0 .. *n), each in
 * [lo, hi], at most cap of them. Errors name the key and the item. Returns 0 or RS_E... */
int rs_pattern_int_list(const char *text, const char *key, long long lo, long long hi,
                        uint32_t cap, uint32_t *v, uint32_t *n, struct rs_err *err);

#endif
