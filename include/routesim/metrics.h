/* The metrics layer: every metric a run can report declared once (rs_metric_defs: name, type,
 * unit, producers, meaning), the typed result one engine run fills (struct rs_result) and
 * its one conversion to a record, and the statistics of one run (percentiles, histograms). */
#ifndef ROUTESIM_METRICS_H
#define ROUTESIM_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "routesim/buf.h"
#include "routesim/error.h"
#include "routesim/record.h"

/* Every metric, one id each; rs_metric_defs[id] declares it. Keep in the order of the
 * table in src/metrics/metrics.c (listing order of `routesim list metrics`). */
enum rs_metric {
    /* every engine (struct rs_result fields) */
    RS_M_MAKESPAN,
    RS_M_MESSAGES,
    RS_M_DELIVERED,
    RS_M_DROPPED,
    RS_M_DELIVERED_FRACTION,
    RS_M_LATENCY_MEAN,
    RS_M_LATENCY_P99,
    RS_M_LATENCY_MAX,
    RS_M_STEPS,
    RS_M_DEADLOCK,
    /* store-and-forward */
    RS_M_MAX_QUEUE,
    RS_M_HOPS,
    RS_M_RANK_LEVELS_USED,
    RS_M_TOP_RANK_MESSAGES,
    RS_M_TOP_RANK_DELIVERED,
    /* flit engines */
    RS_M_FLIT_HOPS,
    RS_M_BLOCKED_HEADER_STEPS,
    RS_M_MAX_BUFFER,
    /* circuit */
    RS_M_CYCLES,
    RS_M_DELIVERED_FIRST_CYCLE,
    RS_M_CONFLICTS,
    RS_M_MAX_CIRCUITS,
    RS_M_LOCKS,
    RS_M_RANKS_USED,
    RS_M_DELIVERED_PER_CYCLE,
    /* open loop (injection_process=bernoulli) */
    RS_M_OFFERED,
    RS_M_ACCEPTED,
    RS_M_MEASURED_PACKETS,
    RS_M_MEASURED_DELIVERED,
    RS_M_SATURATED,
    RS_M_ENDED_BY,
    RS_M_SATURATION_THROUGHPUT,
    RS_M_SATURATION_THROUGHPUT_CI,
    RS_M_SATURATION_RATE_LO,
    RS_M_SATURATION_RATE_HI,
    /* the run (src/run) and analyze: the static message set and predictors */
    RS_M_PER_INPUT,
    RS_M_CONGESTION,
    RS_M_DILATION,
    RS_M_TOTAL_HOPS,
    RS_M_LEVEL_MAX,
    RS_M_LEVEL_MSGS,
    RS_M_PREDICTED_CYCLES,
    RS_M_PREDICTED_FIRST_CYCLE,
    RS_M_PREDICTED_PER_CYCLE,
    RS_M_CHANNEL_LOAD,
    RS_M_THROUGHPUT_BOUND,
    RS_M_HOPS_MEAN,
    RS_M_LOCAL_FRACTION,
    /* algorithms */
    RS_M_BOUND,
    RS_M_MEASURED_OVER_BOUND,
    RS_M_BOUND_CYCLES,
    RS_M_CROSSED_SWITCHES,
    RS_M_REFINE_CASE,
    RS_M_REFINE_STEPS,
    RS_M_RESAMPLES,
    RS_M_KAPPA,
    RS_M_CLASSES,
    RS_M_PERIOD,
    RS_M_SCHEDULE_LENGTH,
    RS_M_LATE_MESSAGES,
    RS_M_SLOT_OVERRUNS,
    RS_M_LENGTH_OVER_BOUND,
    RS_M_MAKESPAN_OVER_BOUND,
    RS_M_BOUND_THM,
    RS_M_LENGTH_OVER_BOUND_THM,
    RS_M_ROUNDS,
    RS_M_ROUNDS_PAPER,
    RS_M_COLOURS,
    RS_M_Q_EFF,
    RS_M_SUBROUNDS,
    RS_M_COPIES_SENT,
    RS_M_COPIES_DELIVERED,
    RS_M_COPIES_DISCARDED,
    RS_M_COPIES_DISCARDED_AT_INPUT,
    RS_M_DUPLICATES,
    RS_M_MAX_INPUT_COPIES,
    RS_M_MAX_OUTPUT_COPIES,
    RS_M_DELIVERED_PER_ROUND,
    RS_M_STEPS_PER_ROUND,
    /* fat-trees (000 §2, §5: include/routesim/load_factor.h) */
    RS_M_LOAD_FACTOR,
    RS_M_REFERENCE_LOAD_FACTOR,
    RS_M_DEGREE,
    RS_M_CHANNEL_LOAD_FACTOR,
    RS_M_PEAK_MSGS,
    /* algorithm=wave */
    RS_M_MAX_LAG,
    RS_M_MAX_QUEUE0,
    RS_M_MAX_QUEUE1,
    RS_M_TOKENS_SENT,
    RS_M_BOUND_HARD,
    RS_M_BOUND_HARD_ASYMPTOTIC,
    RS_M_MAKESPAN_OVER_BOUND_HARD,
    RS_M_HARD_R,
    RS_M_HARD_DEPTH,
    /* ms_chain (003 §2, §4.1) */
    RS_M_MS_DISCIPLINE,
    RS_M_MS_M,
    RS_M_MS_MAX_QUEUE,
    RS_M_BOUND_THM1,
    RS_M_MAKESPAN_OVER_THM1,
    RS_M_BOUND_THM23,
    RS_M_MAKESPAN_OVER_THM23,
    RS_M_BOUND_LEMMA6,
    RS_M_MAKESPAN_OVER_LEMMA6,
    RS_M_BOUND_LEMMA7,
    RS_M_MAKESPAN_OVER_LEMMA7,
    /* ms_mesh, ms_torus (003 §3-§4) */
    RS_M_MS_F,
    RS_M_MS_SIDE,
    RS_M_MS_U,
    RS_M_MS_V,
    RS_M_MS_W,
    RS_M_MS_X,
    RS_M_MS_U_SORTED,
    RS_M_MS_V_SORTED,
    RS_M_MS_SORT_EXCHANGES,
    RS_M_STEPS_SORT,
    RS_M_STEPS_PHASE3,
    RS_M_STEPS_PHASE4,
    RS_M_STEPS_ROUTING,
    RS_M_MS_QUEUE_PHASE3,
    RS_M_MS_QUEUE_PHASE4,
    RS_M_MS_BLOCKED_STARTS,
    RS_M_BOUND_MS_MAIN,
    RS_M_MS_ROUTING_OVER_MAIN,
    RS_M_MS_MAKESPAN_OVER_MAIN,
    RS_M_MS_OTERM_MAIN,
    RS_M_MS_ROUTING_EXCESS_OVER_N,
    RS_M_BOUND_MS_THM4,
    RS_M_MS_ROUTING_OVER_THM4,
    RS_M_MS_OTERM_THM4,
    RS_M_BOUND_MS_QUEUE,
    RS_M_MS_QUEUE_OVER_BOUND,
    RS_M_BOUND_MS_LEMMA4,
    RS_M_MS_QUEUE_OVER_LEMMA4,
    /* bay_bilardi (000 §3.3) */
    RS_M_BIT_STEPS,
    RS_M_STAGE_BIT_STEPS,
    RS_M_STAGE_LAMBDA_T,
    RS_M_BATCH_ROUNDS,
    RS_M_COMPRESSION_CONFLICTS,
    RS_M_SIDETRACKS,
    RS_M_LE1_BATCHES,
    RS_M_LE1_CONFLICTS,
    RS_M_LAMBDA_T_MAX,
    RS_M_BOUND_LAMBDA_T,
    RS_M_LAMBDA_T_OVER_BOUND,
    RS_M_LEMMA6_VIOLATION,
    RS_M_SIDETRACK_MAX,
    RS_M_BOUND_SIDETRACK,
    RS_M_SIDETRACK_OVER_BOUND,
    RS_M_LEMMA7_VIOLATION,
    RS_M_BOUND_BIT_STEPS,
    RS_M_BIT_STEPS_OVER_BOUND,
    RS_M_THEOREM1_RATIO,
    RS_M_BUTTERFLY_BIT_STEPS,
    /* algorithm=flexible_sort (000 §4.1) */
    RS_M_PHASES,
    RS_M_PERM_STEPS,
    RS_M_COLUMN_SORTS,
    RS_M_SORT_DEPTH,
    RS_M_COLUMNS,
    RS_M_SORT_BIT_STEPS,
    RS_M_PERMUTE_BIT_STEPS,
    RS_M_BOUND_PHASES,
    /* algorithm=sorting_fat_tree (000 §4.3); area formulas (both fat-trees) */
    RS_M_STEP_BIT_STEPS,
    RS_M_BATCH_LAMBDA_A,
    RS_M_LAMBDA_A,
    RS_M_LAMBDA_D,
    RS_M_SFT_LOAD_FACTOR,
    RS_M_BOUND_BATCH_LAMBDA_A,
    RS_M_BATCH_LAMBDA_A_OVER_BOUND,
    RS_M_LEMMA10_EXCESS,
    RS_M_THEOREM3_RATIO,
    RS_M_LOCAL_MESSAGES,
    RS_M_AREA_FORMULA,
    RS_M_AT2_FORMULA,
    RS_M_BOUND_AT2,
    RS_M_AT2_OVER_BOUND,
    RS_M_MS_SORT_SS,
    RS_M__COUNT
};

enum rs_metric_type { RS_METRIC_INT, RS_METRIC_DOUBLE, RS_METRIC_STRING };

/* Where a metric lives in struct rs_result: its byte offset, or RS_METRIC_NO_FIELD for
 * metrics written by the run or an algorithm with rs_metric_int/double/string. */
#define RS_METRIC_NO_FIELD ((size_t)-1)

struct rs_metric_def {
    const char *name;      /* the record key / CSV column; "<l>" stands for a level number */
    enum rs_metric_type type;
    const char *unit;      /* e.g. "steps", "messages", "flits/terminal/step", "1" (a ratio) */
    const char *producers; /* the engines (`switching`), algorithms or commands writing it */
    const char *meaning;   /* one sentence */
    size_t field;          /* offset in struct rs_result, or RS_METRIC_NO_FIELD */
};

/* The table, indexed by enum rs_metric (RS_M__COUNT entries). */
extern const struct rs_metric_def rs_metric_defs[RS_M__COUNT];

/* One engine run's metrics, typed (UNITS: the engine's step, network cycles for the circuit
 * engine). The driver initialises it, the engine's collect op fills the fields it produces,
 * and the driver writes the lifecycle's columns with rs_result_record (include/routesim/
 * driver.h); latencies are NaN when no message was delivered or the run deadlocked.
 * Strings are borrowed (the producer owns them until the record is written). */
struct rs_result {
    int64_t makespan, messages, delivered, dropped;
    double delivered_fraction;
    double latency_mean, latency_p99, latency_max;
    int64_t steps, deadlock;
    int64_t max_queue, hops, rank_levels_used, top_rank_messages, top_rank_delivered;
    int64_t flit_hops, blocked_header_steps, max_buffer;
    int64_t cycles, delivered_first_cycle, conflicts, max_circuits, locks, ranks_used;
    const char *delivered_per_cycle;
    double offered, accepted;
    int64_t measured_packets, measured_delivered, saturated;
    const char *ended_by; /* open loop: the criterion that ended the run (static text) */
};

/* Zero r, with the latencies NaN (nothing delivered yet). */
void rs_result_init(struct rs_result *r);

/* Append the metrics cols[0..n) of r to out, in that order, named and typed by the table
 * (every id in cols must have a field in struct rs_result). Returns 0 or RS_ENOMEM. */
int rs_result_record(const struct rs_result *r, const enum rs_metric *cols, size_t n,
                     struct rs_record *out);

/* Add metric id (whose table type must be int / double / string) with value v to out.
 * rs_metric_level_int and _double write a per-level metric ("<l>" replaced by level). Return 0 or
 * RS_ENOMEM. */
int rs_metric_int(struct rs_record *out, enum rs_metric id, int64_t v);
int rs_metric_double(struct rs_record *out, enum rs_metric id, double v);
int rs_metric_string(struct rs_record *out, enum rs_metric id, const char *v);
int rs_metric_level_int(struct rs_record *out, enum rs_metric id, uint32_t level, int64_t v);
int rs_metric_level_double(struct rs_record *out, enum rs_metric id, uint32_t level, double v);

/* The declaration of the metric a column name is (a "<l>" pattern matches any level
 * number: level3_max), or NULL. */
const struct rs_metric_def *rs_metric_find(const char *name);

/* The suffixes of a sweep's statistics columns (<metric>_mean, ...), NULL-terminated. */
extern const char *const rs_metric_stat_suffixes[];

/* Check that name is a metric or the statistics column of one (makespan, makespan_mean);
 * what names the place for the message ("[plot] y", "claim 'X'"). Returns 0, or RS_EUNKNOWN
 * with "WHAT: unknown metric 'NAME' (did you mean 'M'?)" (the nearest name of the table). */
int rs_metric_check_name(const char *name, const char *what, struct rs_err *err);

/* Append `routesim list metrics`: one entry per metric, name, unit, producers, meaning.
 * Returns 0 or RS_ENOMEM. */
int rs_metric_format_list(struct rs_buf *out);

/* ---- statistics of one run -------------------------------------------------------------- */

/* Nearest-rank percentile of a histogram: hist[v] values equal to v for v in [0, len); n is
 * their sum. The smallest v with at least ceil(frac * n) values (at least one) <= v; NaN when
 * n == 0. frac in (0, 1]. */
double rs_hist_percentile(const uint64_t *hist, size_t len, uint64_t n, double frac);

/* Mean, nearest-rank 99th percentile and max of the values counted by hist[0..len) into
 * r->latency_mean, latency_p99, latency_max (UNITS: those of the values); all three NaN when
 * the histogram is empty. */
void rs_hist_summary(const uint64_t *hist, size_t len, struct rs_result *r);

/* A growable histogram of latencies: count[v] values equal to v (UNITS: the caller's, steps
 * or cycles). Zero it with rs_lat_hist_init before use. */
struct rs_lat_hist {
    uint64_t *count; /* [cap] */
    uint32_t cap;
    uint64_t n;      /* values added */
};

void rs_lat_hist_init(struct rs_lat_hist *h);
void rs_lat_hist_free(struct rs_lat_hist *h);

/* Count one value v. Returns 0 or RS_ENOMEM (h unchanged). */
int rs_lat_hist_add(struct rs_lat_hist *h, uint32_t v);

/* Per-message finish times, the input of rs_result_latency (the one latency path of every
 * engine and algorithm). Message m counts when it was delivered: state[m] == delivered when
 * state is given, else finish(m) != none. Its latency is finish(m) - release[m] (release NULL:
 * every message released at step 0). UNITS: the producer's steps (cycles for circuit). */
struct rs_lat_source {
    size_t n;                 /* messages */
    const uint32_t *finish;   /* [n] finish steps, or NULL when finish64 is given */
    const uint64_t *finish64; /* [n] finish steps (64-bit producers), used when finish is NULL */
    const uint32_t *release;  /* [n] release steps, or NULL */
    const uint8_t *state;     /* [n] or NULL: see delivered */
    uint8_t delivered;        /* the state value of a delivered message */
    uint64_t none;            /* without state: the finish value of an undelivered message
                                 (RS_LAT_EVERY: every message counts) */
};
#define RS_LAT_EVERY UINT64_MAX

/* Fill r->latency_mean, latency_p99 (nearest rank) and latency_max from the finish times of
 * src (all three NaN when no message counts), through one latency histogram. Returns 0,
 * RS_ENOMEM, or RS_ERESOURCE when a latency exceeds 2^32 - 1 (its histogram would not
 * fit; r unchanged on error). */
int rs_result_latency(struct rs_result *r, const struct rs_lat_source *src);

/* The same statistics from a sparse histogram: count[i] messages of latency value[i], values
 * non-decreasing, len entries (all NaN when the counts sum to 0). For producers whose
 * latencies span too many values for a dense histogram (bay_bilardi's bit steps). */
void rs_lat_summary_sparse(const uint64_t *value, const uint64_t *count, size_t len,
                           struct rs_result *r);

#endif
