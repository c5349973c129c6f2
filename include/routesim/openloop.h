/* Open-loop traffic (SPEC W4) for every engine: Bernoulli arrivals that are a pure function
 * of (seed, terminal, step) or (seed, terminal, packet index), destinations by the chosen traffic's rule, fixed or variable
 * packet lengths, warm-up / measurement / drain phases, and the statistics collector
 * (offered and accepted throughput, latency of the packets generated during measurement,
 * the saturation verdict). The contract an engine follows is in docs/openloop.md. */
#ifndef ROUTESIM_OPENLOOP_H
#define ROUTESIM_OPENLOOP_H

#include <stdint.h>

#include "routesim/error.h"
#include "routesim/metrics.h"
#include "routesim/net.h"
#include "routesim/options.h"
#include "routesim/params.h"
#include "routesim/pattern.h"
#include "routesim/problem.h"
#include "routesim/record.h"
#include "routesim/route.h"
#include "routesim/trace.h"

enum rs_injection { RS_INJECT_BATCH = 0, RS_INJECT_BERNOULLI = 1 };

/* Choices of `injection_process`, in enum order, NULL-terminated. */
extern const char *const rs_injection_names[];

/* The arrival sampler (`arrivals`, docs/openloop.md): per_step draws a Bernoulli trial for
 * every (terminal, step); per_packet draws one geometric gap per packet, keyed by (seed,
 * terminal, packet index). Both give arrivals with probability packet_rate per step,
 * independently; their random streams differ. */
enum rs_arrivals { RS_ARRIVALS_PER_STEP = 0, RS_ARRIVALS_PER_PACKET = 1, RS_ARRIVALS_ON_OFF = 2 };
/* arrivals=on_off (BookSim's injection_process = on_off): a two-state Markov chain per
 * terminal, off -> on with probability burst_alpha per step, on -> off with burst_beta, a
 * packet with probability burst_r1 in every step spent on; the gap after a packet is drawn
 * from (seed, RS_STREAM_OL_BURST, terminal, packet index) (docs/workloads.md). */
extern const char *const rs_arrivals_names[];

/* Limits of the phase lengths (steps): the latency histogram has measure + drain + 1
 * entries. */
#define RS_OPENLOOP_MAX_WARMUP 100000000.0
#define RS_OPENLOOP_MAX_PHASE 10000000.0

/* The option entries of open-loop injection, spliced into the option table of every engine
 * whose ops have openloop = 1 (so that validation, `routesim list` and `routesim help`
 * show them with the engine). rs_openloop_options holds the same entries. */
#define RS_OPENLOOP_OPTIONS                                                                   \
    {"injection_process", RS_OPT_CHOICE, "batch", 0, 0, rs_injection_names,                  \
     "batch: the static message set of traffic and per_input, released at step 0; "         \
     "bernoulli: open-loop arrivals at injection_rate (docs/openloop.md)", "-"},              \
    {"injection_rate", RS_OPT_DOUBLE, "0.1", 0, 1, NULL,                                      \
     "bernoulli: packets per terminal per step (flits with injection_rate_uses_flits=1)",     \
     "packets/terminal/step"},                                                                \
    {"injection_rate_uses_flits", RS_OPT_BOOL, "0", 0, 0, NULL,                               \
     "bernoulli: injection_rate counts flits (divided by the mean packet length), as in "     \
     "BookSim", "-"},                                                                         \
    {"warmup_steps", RS_OPT_INT, "1000", 0, RS_OPENLOOP_MAX_WARMUP, NULL,                     \
     "bernoulli: steps before measurement starts", "steps"},                                  \
    {"measure_steps", RS_OPT_INT, "10000", 1, RS_OPENLOOP_MAX_PHASE, NULL,                    \
     "bernoulli: steps of the measurement window; packets generated in it are measured",      \
     "steps"},                                                                                \
    {"drain_steps", RS_OPT_INT, "10000", 0, RS_OPENLOOP_MAX_PHASE, NULL,                      \
     "bernoulli: at most this many steps after the window for the measured packets to "      \
     "arrive (injection goes on meanwhile)", "steps"},                                        \
    {"arrivals", RS_OPT_CHOICE, "per_packet", 0, 0, rs_arrivals_names,                        \
     "bernoulli: per_packet (one geometric gap per packet) or per_step (one Bernoulli draw "   \
     "per terminal per step, the sampler before issue 21); different random streams", "-"},   \
    {"length_max", RS_OPT_INT, "0", 0, 65535, NULL,                                           \
     "bernoulli: packet lengths uniform in [length, length_max] flits (0: all `length`)",     \
     "flits"},                                                                                \
    {"burst_alpha", RS_OPT_DOUBLE, NULL, 0, 1, NULL,                                          \
     "arrivals=on_off: probability per step of off -> on (BookSim's burst_alpha; give two "    \
     "of burst_alpha, burst_beta, burst_r1, or burst_length; none: alpha = beta = 0.5)",      \
     "1"},                                                                                    \
    {"burst_beta", RS_OPT_DOUBLE, NULL, 0, 1, NULL,                                           \
     "arrivals=on_off: probability per step of on -> off (BookSim's burst_beta)", "1"},       \
    {"burst_r1", RS_OPT_DOUBLE, NULL, 0, 1, NULL,                                             \
     "arrivals=on_off: probability of a packet in a step spent on (BookSim's burst_r1)",      \
     "1"},                                                                                    \
    {"burst_length", RS_OPT_DOUBLE, NULL, 1, 1e9, NULL,                                       \
     "arrivals=on_off: mean on-period in steps (burst_beta = 1/burst_length; burst_r1 is 1 "   \
     "unless given: then a burst is that many packets on average)", "steps"},                 \
    {"packet_sizes", RS_OPT_STRING, NULL, 0, 0, NULL,                                         \
     "bernoulli: packet lengths in flits, comma-separated (BookSim's packet_size = {a,b}); "    \
     "replaces length and length_max", "flits"},                                              \
    {"packet_size_rates", RS_OPT_STRING, NULL, 0, 0, NULL,                                    \
     "packet_sizes: their relative weights, comma-separated positive integers (BookSim's "     \
     "packet_size_rate; absent: equal)", "1"},                                                \
    {"saturation_margin", RS_OPT_DOUBLE, "0.01", 0, 1, NULL,                                  \
     "bernoulli: saturated when accepted (+ dropped) < (1 - margin) x offered in the window", \
     "1"},                                                                                    \
    RS_OPENLOOP_RUNCTL_OPTIONS

/* BookSim's run control (sim_type=latency|throughput, docs/openloop.md): recorded and
 * accepted only with those sim_types (a fixed-phase run's record keeps its columns). */
#define RS_OPENLOOP_RUNCTL_OPTIONS                                                            \
    {"sim_type", RS_OPT_CHOICE, "fixed", 0, 0, rs_sim_type_names,                             \
     "bernoulli: fixed (warmup_steps, measure_steps, drain_steps) or BookSim's run control: "  \
     "latency (sample periods to convergence, then drain the measured packets) or "            \
     "throughput (no drain)", "-"},                                                           \
    {"warmup_periods", RS_OPT_INT, "3", 0, 1000000, NULL,                                     \
     "sim_type=latency|throughput: sample periods of warm-up (0: until warmup_thres and "      \
     "acc_warmup_thres hold)", "1"},                                                          \
    {"sample_period", RS_OPT_INT, "1000", 1, RS_OPENLOOP_MAX_PHASE, NULL,                     \
     "sim_type=latency|throughput: steps of one sample period", "steps"},                     \
    {"max_samples", RS_OPT_INT, "10", 1, 1000000, NULL,                                       \
     "sim_type=latency|throughput: most sample periods (warm-up included) before the drain",  \
     "1"},                                                                                    \
    {"latency_thres", RS_OPT_DOUBLE, "500", -1, 1e15, NULL,                                   \
     "sim_type=latency: abort (unstable, saturated) when the mean latency, in-flight packets " \
     "included, exceeds this (negative: never)", "steps"},                                    \
    {"warmup_thres", RS_OPT_DOUBLE, "0.05", -1, 1e15, NULL,                                   \
     "sim_type=latency, warmup_periods=0: warmed up when the latency changes by at most this " \
     "fraction in a period (negative: no test)", "1"},                                        \
    {"acc_warmup_thres", RS_OPT_DOUBLE, "0.05", -1, 1e15, NULL,                               \
     "warmup_periods=0: warmed up when the accepted rate changes by at most this fraction",   \
     "1"},                                                                                    \
    {"stopping_thres", RS_OPT_DOUBLE, "0.05", -1, 1e15, NULL,                                 \
     "sim_type=latency: a period converges when the latency changes by at most this fraction",\
     "1"},                                                                                    \
    {"acc_stopping_thres", RS_OPT_DOUBLE, "0.05", -1, 1e15, NULL,                             \
     "sim_type=latency|throughput: a period converges when the accepted rate changes by at "   \
     "most this fraction (3 periods in a row end the run)", "1"}

/* The keys of the fixed phases only (refused and not recorded with BookSim's run control;
 * drain_steps stays: the longest drain). */
#define RS_OPENLOOP_FIXED_OPTIONS                                                             \
    {"warmup_steps", RS_OPT_INT, "1000", 0, RS_OPENLOOP_MAX_WARMUP, NULL, "", "steps"},       \
    {"measure_steps", RS_OPT_INT, "10000", 1, RS_OPENLOOP_MAX_PHASE, NULL, "", "steps"}

/* The two groups as NULL-terminated tables (run.c records and refuses by them). */
extern const struct rs_optdef rs_openloop_runctl_options[];
extern const struct rs_optdef rs_openloop_fixed_options[];

enum rs_sim_type { RS_SIM_FIXED = 0, RS_SIM_LATENCY = 1, RS_SIM_THROUGHPUT = 2 };
extern const char *const rs_sim_type_names[];

/* The same entries as a table (NULL-terminated), read by rs_openloop_config. */
extern const struct rs_optdef rs_openloop_options[];

#define RS_OPENLOOP_MAX_SIZES 16
/* The resolved options. */
struct rs_openloop_cfg {
    enum rs_injection process;
    double rate;            /* injection_rate as given */
    int rate_in_flits;      /* injection_rate_uses_flits */
    double packet_rate;     /* packets per terminal per step */
    uint64_t threshold;     /* a packet arrives when a 32-bit draw is below it:
                               round(packet_rate * 2^32), so the arrival probability is
                               packet_rate to within 2^-33 */
    enum rs_arrivals arrivals;
    double log_q;           /* per_packet: log(1 - threshold / 2^32) (0 when that is 1) */
    uint32_t warmup, measure, drain; /* steps */
    uint32_t len_min, len_max;       /* flits */
    uint32_t n_sizes;                /* packet_sizes: 0 (lengths from len_min, len_max) or */
    uint32_t size[RS_OPENLOOP_MAX_SIZES];      /* the sizes, flits */
    uint64_t size_upto[RS_OPENLOOP_MAX_SIZES]; /* cumulative weight thresholds of 2^32 */
    double mean_len;                 /* mean packet length, flits */
    double burst_alpha, burst_beta, burst_r1; /* arrivals=on_off, resolved */
    const char *trace_file;          /* traffic=trace: the file (in the parameters), else NULL */
    struct rs_trace_stats trace;     /* traffic=trace: the validating pass's summary */
    double margin;
    /* BookSim's run control (sim_type latency|throughput) */
    enum rs_sim_type sim_type;
    uint32_t warmup_periods, sample_period, max_samples;
    double latency_thres, warmup_thres, acc_warmup_thres, stopping_thres, acc_stopping_thres;
};

/* Read the open-loop keys of p into cfg. length is the engine's message length (the
 * `length` key, 1 for packet engines); it is the fixed length, or the lower end of the
 * range with length_max. Errors (a value out of range, length_max below length) name the
 * key. Returns 0 or RS_E... */
int rs_openloop_config(struct rs_openloop_cfg *cfg, const struct rs_params *p, uint32_t length,
                       struct rs_err *err);

/* The injection_process of p (batch when the key is absent). Returns 0 or RS_E... */
int rs_openloop_process(const struct rs_params *p, enum rs_injection *out, struct rs_err *err);

/* Per-terminal source state: the packets generated and not yet started form a FIFO that
 * is kept implicitly (its generation steps are recomputed from the arrival stream). */
struct rs_ol_terminal {
    uint32_t pending;  /* packets generated and not yet started */
    uint32_t front;    /* generation step of the oldest of them (when pending > 0) */
    uint32_t started;  /* packets started so far: the sequence number of the next */
    uint32_t blk_step; /* per_step: (step / 4) + 1 of the cached arrival block; 0 = none */
    uint32_t blk[4];   /* per_step: arrival draws of steps 4*(blk_step-1) .. +3 */
    uint32_t born;     /* per_packet: packets generated so far (the index of the next) */
    uint32_t dst_at;   /* traffic=uniform, per_packet: generation step of the packet whose
                          destination block's first word is dst_word; 0 = none */
    uint32_t dst_word;
};

/* traffic=trace: a terminal's waiting packets (ring buffer of cap records from head). */
struct rs_ol_trace_fifo {
    struct rs_trace_rec *v;
    uint32_t head, count, cap;
};
/* One packet, as the engine needs it. */
struct rs_ol_packet {
    uint32_t src, dst;
    uint32_t mid;    /* Valiant intermediate terminal, RS_NONE for direct routing */
    uint32_t length; /* flits */
    uint32_t msg;    /* template message of the static problem (rs_route_state.msg) */
    uint32_t gen;    /* generation step */
};

/* The injection process and its statistics. Plain struct, owned by the engine's run. */
struct rs_openloop {
    struct rs_openloop_cfg cfg;
    uint64_t seed;
    uint32_t n_terminals;
    int uniform;             /* traffic=uniform: a fresh destination per packet */
    /* the traffic's own per-packet destinations (rs_traffic_ops.dst_openloop), or NULL */
    uint32_t (*dst_fn)(const struct rs_net *net, uint64_t seed, uint32_t src, uint32_t gen);
    const struct rs_routing_ops *routing;
    const struct rs_net *net;  /* for the routing's open-loop intermediates */
    struct rs_pattern pat;     /* traffic=hotspot|diagonal|asymmetric|mix: per packet */
    /* traffic=trace: the stream, its next packet (have_next), and per terminal the FIFO of
       its packets generated and not started (ring buffers, grown on demand) */
    struct rs_trace *tr;
    struct rs_trace_rec next_rec;
    int have_next;
    struct rs_ol_trace_fifo *tq; /* [n_terminals] */
    const struct rs_problem *pb;
    uint32_t *tmpl_first;    /* [n_terminals + 1]: template messages of terminal t are */
    uint32_t *tmpl;          /* tmpl[tmpl_first[t] .. tmpl_first[t+1]) */
    struct rs_ol_terminal *term; /* [n_terminals] */
    uint32_t *next;          /* arrivals=per_packet|on_off, [n_terminals]: step of terminal
                                t's next arrival (UINT32_MAX: none) */
    /* arrivals=per_packet|on_off: the calendar of next arrivals, a timing wheel of
       wheel_mask + 1 slots; slot s lists (through wlink) the terminals whose next arrival
       is a step congruent to s, so a step visits only its slot's terminals */
    uint32_t *wheel;         /* [wheel_mask + 1]: first terminal of the slot, UINT32_MAX */
    uint32_t *wlink;         /* [n_terminals]: next terminal of its slot, UINT32_MAX */
    uint32_t wheel_mask;
    uint64_t *wbits;         /* [n_terminals / 64 + 1]: scratch, a step's arrivals as bits */
    uint32_t *own;           /* rs_openloop_restrict: the terminals that generate here,
                                increasing (NULL: every terminal) */
    uint32_t n_own;
    /* statistics of the measurement window (steps warmup+1 .. warmup+measure) */
    uint64_t win_packets, win_flits;  /* generated in the window */
    uint64_t win_accepted;            /* flits delivered in the window (any packet) */
    uint64_t win_dropped;             /* flits dropped in the window (any packet) */
    uint64_t meas_delivered, meas_dropped; /* of the packets generated in the window */
    uint64_t delivered, dropped;      /* all packets, whole run */
    uint64_t *lat_hist;               /* [lat_cap]: measured packets by latency */
    uint32_t lat_cap;
    uint32_t lat_top;                 /* lat_hist[lat_top..lat_cap) are zero (the summary
                                         reads no further: its pages are never touched) */
    int stopped;                      /* the engine stopped the run early (deadlock) */
    uint32_t win_lo, win_hi;          /* the measurement window: steps (win_lo, win_hi] */
    uint32_t now;                     /* the last step seen (rs_openloop_accept) */
    const char *ended_by;             /* the criterion that ended the run (NULL: not yet) */
    /* BookSim's run control (cfg.sim_type latency|throughput): the sample-period state */
    int dyn;                          /* sim_type is latency or throughput */
    int state;                        /* 0 warming up, 1 running, 2 draining, 3 over */
    int unstable;                     /* ended without convergence (BookSim: unstable) */
    uint32_t phases, converged, reset_time, drain_start;
    int clear_next;
    double prev_lat, prev_acc;
    double per_lat_sum;               /* latencies since the last clear (BookSim's plat) */
    uint64_t per_lat_n, per_acc;      /* their count; flits accepted since the last clear */
    uint64_t infl_flits;              /* flits generated and not yet delivered or dropped */
    double infl_gen_sum;              /* sum of their generation steps */
};

/* Set up ol for net, the static problem pb (the templates: destinations of pattern
 * traffics, message ids for per-message routes), routing and seed. traffic=uniform (read
 * from p) draws a new uniform destination for every packet; every other traffic sends the
 * j-th packet of terminal t to the destination of t's template message j mod (number of
 * t's messages); terminals without messages never generate. Returns 0 or RS_E... (ol is
 * then freed). */
int rs_openloop_init(struct rs_openloop *ol, const struct rs_openloop_cfg *cfg,
                     const struct rs_net *net, const struct rs_problem *pb,
                     const struct rs_params *p, const struct rs_routing_ops *routing,
                     uint64_t seed, struct rs_err *err);

/* Release what rs_openloop_init allocated. Safe on a zeroed struct. */
void rs_openloop_free(struct rs_openloop *ol);

/* arrivals=per_step: 1 when terminal t generates a packet at step (step >= 1): word
 * step % 4 of block (seed, RS_STREAM_OL_ARRIVAL, t, step / 4) is below the threshold and t
 * has templates. Pure. (arrivals=per_packet does not use it.) */
int rs_openloop_arrival(const struct rs_openloop *ol, uint32_t t, uint32_t step);

/* The last step at which packets are generated: warmup + measure + drain. Generation
 * goes on during the drain so the measured packets see the offered load. */
uint32_t rs_openloop_last_step(const struct rs_openloop *ol);

/* Generate the arrivals of step (1 <= step <= last step) at every terminal, in increasing
 * terminal order, and count them in the statistics. Terminals whose FIFO was empty and is
 * not any more are written to became_pending (room for n_terminals), increasing; returns
 * their number. A packet generated at step may start at step + 1. */
uint32_t rs_openloop_generate(struct rs_openloop *ol, uint32_t step, uint32_t *became_pending);

/* Generate only the arrivals of terminals own[0..n) (increasing): one of several processes
 * that split the terminals between them (the flit engine over MPI ranks), each generating
 * its own. The others' FIFOs stay empty, and the generation counts (rs_openloop_gen_counts)
 * cover only these terminals until the caller adds the others' (rs_openloop_set_gen_counts).
 * traffic=trace (one stream for every terminal) is not restricted. Returns 1 when
 * restricted, 0 when not (traffic=trace), -1 when out of memory. */
int rs_openloop_restrict(struct rs_openloop *ol, const uint32_t *own, uint32_t n);

/* The counts of generated packets that processes splitting the terminals add up: v[0]
 * packets and v[1] flits generated in the measurement window, v[2] flits generated and not
 * yet delivered or dropped and v[3] the sum of their generation steps weighted by their
 * flits (BookSim's run control; an integer held exactly in a double). */
void rs_openloop_gen_counts(const struct rs_openloop *ol, uint64_t v[4]);

/* Set the counts of rs_openloop_gen_counts (the sums over the processes). */
void rs_openloop_set_gen_counts(struct rs_openloop *ol, const uint64_t v[4]);

/* The oldest unstarted packet of terminal t (requires term[t].pending > 0). */
void rs_openloop_front(const struct rs_openloop *ol, uint32_t t, struct rs_ol_packet *pkt);

/* Terminal t's front packet has started (left its FIFO); the next one becomes the front. */
void rs_openloop_start(struct rs_openloop *ol, uint32_t t);

/* A packet generated at gen, of length flits, was delivered (its last flit, delivered=1)
 * or dropped (delivered=0) at step. A drop during the measurement window counts its flits
 * as leaving the network in the window (the saturation verdict of lossy models). */
void rs_openloop_finish(struct rs_openloop *ol, uint32_t gen, uint32_t length, uint32_t step,
                        int delivered);

/* flits were delivered at their destinations during step (counted when step is in the
 * measurement window: accepted throughput). */
void rs_openloop_accept(struct rs_openloop *ol, uint32_t step, uint64_t flits);

/* 1 when the run may stop after step, and then ended_by names why. sim_type=fixed: the
 * window is over and every packet generated in it is delivered or dropped ("window"), or
 * step is the last step ("drain_limit"). sim_type=latency|throughput: BookSim's sample
 * periods (docs/openloop.md) evaluated at every multiple of sample_period: "converged",
 * "max_samples", "latency_thres" (aborted: unstable) or "drain_limit". */
int rs_openloop_done(struct rs_openloop *ol, uint32_t step);

/* The engine stopped the run before rs_openloop_done (a deadlock): the run is saturated. */
void rs_openloop_stop(struct rs_openloop *ol);

/* 1 when the run is saturated (docs/openloop.md): it was stopped early, or a packet
 * generated in the window was neither delivered nor dropped by the end, or the flits that
 * left the network during the window (accepted plus dropped) fall below (1 - margin) x
 * offered. Without drops the last test is accepted < (1 - margin) x offered. */
int rs_openloop_saturated(const struct rs_openloop *ol);

/* The module's metrics into r (include/routesim/metrics.h): offered, accepted,
 * measured_packets, measured_delivered, saturated, latency_mean, latency_p99, latency_max,
 * delivered, dropped, ended_by; the other fields are left as they are. Throughputs are in flits per
 * terminal per step; latencies in steps from generation to the delivery of the last flit,
 * NaN when saturated or when no measured packet was delivered. */
void rs_openloop_result(const struct rs_openloop *ol, struct rs_result *r);

/* The module's metrics in the order an open-loop record starts with (engines append their
 * own after them). */
#define RS_OPENLOOP_COLUMNS                                                                    \
    RS_M_OFFERED, RS_M_ACCEPTED, RS_M_MEASURED_PACKETS, RS_M_MEASURED_DELIVERED,               \
        RS_M_SATURATED, RS_M_LATENCY_MEAN, RS_M_LATENCY_P99, RS_M_LATENCY_MAX, RS_M_DELIVERED, \
        RS_M_DROPPED, RS_M_ENDED_BY

/* Add the module's metrics (rs_openloop_result, RS_OPENLOOP_COLUMNS) to out. Returns 0 or
 * RS_ENOMEM. */
int rs_openloop_record(const struct rs_openloop *ol, struct rs_record *out);

#endif
