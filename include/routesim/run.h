/* One simulation run from parameters to a result record: the pipeline
 * params -> net -> problem -> engine -> record, usable from the CLI and from sweeps. */
#ifndef ROUTESIM_RUN_H
#define ROUTESIM_RUN_H

#include <stdint.h>

#include "routesim/params.h"
#include "routesim/record.h"

/* Options of a run itself: switching, routing, seed, check. */
extern const struct rs_optdef rs_run_options[];

/* Options of rs_run and rs_analyze: predict (no default). With predict=lcan the record
 * ends with the LCAN recurrence's predicted_cycles (network cycles), predicted_first_cycle
 * (circuits) and the text predicted_per_cycle ("a;b;c"); the network must be a CB-LCAN. With
 * predict=channel_load it ends with the channel-load analysis (include/routesim/
 * channel_load.h) of the traffic under the routing: channel_load (gamma_max),
 * throughput_bound (Theta, flits/terminal/step), hops_mean, local_fraction. */
extern const struct rs_optdef rs_predict_options[];

/* Validate every key against the tables of the chosen topology, traffic and engine, run
 * the simulation and fill out (initialised by the caller) with every resolved parameter
 * (defaults included) followed by the metrics (and, with predict=lcan, the prediction's). On a deadlock the record is complete with
 * deadlock=1 and *deadlock_msg (if not NULL) describes the waiting cycle. Returns 0 or
 * RS_E... with err set; out is then incomplete and must not be written. */
int rs_run(const struct rs_params *p, struct rs_record *out, char *deadlock_msg,
           size_t deadlock_len, struct rs_err *err);

/* How a front end follows one long run (`routesim run` prints it on a terminal): fn(user,
 * step, remaining) after every every-th step of the simulation (0: every 4096 steps), with
 * the step just run (UNITS: the engine's steps) and, in a batch run, the messages neither
 * delivered nor dropped yet (open loop: 0); a nonzero return stops the run (RS_EINTERRUPTED).
 * The callback must not touch the run's inputs; it changes nothing in the record. Runs of
 * self-contained models and the saturation search make no reports. */
struct rs_exchange;
struct rs_run_progress {
    int (*fn)(void *user, uint32_t step, uint64_t remaining); /* NULL: no reports */
    void *user;
    uint32_t every;
    /* NULL, or the per-packet event log the run appends to (include/routesim/events.h,
     * docs/events.md): batch runs of algorithm=greedy on switching=store_forward (batch) and
     * the flit engines (router=simple with threads=1, or router=iq); others refused
     * (RS_EUNSUPPORTED). The record is the same with and without it. */
    struct rs_events *events;
    /* NULL, or the ranks the run is partitioned over (include/routesim/exchange.h): with
     * size > 1 only batch runs of switching=circuit (algorithm=greedy) are accepted, every
     * rank calls with the same parameters and gets the same record (docs/distributed.md) */
    const struct rs_exchange *exchange;
};

/* rs_run with progress reports (progress NULL: none, exactly rs_run). */
int rs_run_followed(const struct rs_params *p, const struct rs_run_progress *progress,
                    struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                    struct rs_err *err);

struct rs_deadlock;
/* rs_run_followed that also keeps a deadlock's waiting cycle as data in *cycle (NULL: not
 * kept; else initialised by the caller with rs_deadlock_init and released with
 * rs_deadlock_free, include/routesim/deadlock.h): emptied first, then filled when the run
 * ends on a deadlock and its engine records cycles (store_forward and the flit engines,
 * router=iq included), in the order of the deadlock line. */
int rs_run_traced(const struct rs_params *p, const struct rs_run_progress *progress,
                  struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                  struct rs_deadlock *cycle, struct rs_err *err);

/* Build net and problem only and fill out with the parameters and the path statistics
 * (congestion, dilation, per-level loads), and with predict=lcan the LCAN recurrence's
 * predicted_cycles, predicted_first_cycle and predicted_per_cycle ("a;b;c"). Same
 * validation and errors as rs_run (predict=lcan off a CB-LCAN is RS_EUNSUPPORTED for
 * both). */
int rs_analyze(const struct rs_params *p, struct rs_record *out, struct rs_err *err);

/* Build the workload of p (validated as rs_run when with_engine, else as rs_analyze) and
 * write it to path as a traffic_file (docs/workloads.md, traffic=file): a comment line
 * naming the workload, then one destination per line in message order. Written as -o is
 * (rs_buf_write_file: atomically for a regular file). Messages with explicit sources
 * (traffic=paths) are refused (RS_EUNSUPPORTED): a traffic_file cannot give sources.
 * Returns 0 or RS_E... with err set. */
/* The predictor's metrics of p (predict=..., validated as rs_run; nothing when p has no
 * predict key) appended to out, without running: the saturation search's record uses it.
 * Returns 0 or RS_E... with err set. */
int rs_predict_record(const struct rs_params *p, struct rs_record *out, struct rs_err *err);

int rs_traffic_save(const struct rs_params *p, int with_engine, const char *path,
                    struct rs_err *err);

/* Check p as rs_run would (keys, values, constraints; network and workload are built and
 * freed) without simulating. When params_out is not NULL (initialised by the caller) it
 * receives the resolved parameters, as the first fields of rs_run's record. Returns 0 or
 * RS_E... with err set. */
int rs_validate(const struct rs_params *p, struct rs_record *params_out, struct rs_err *err);

/* The checks of rs_validate that build nothing: every key known to the chosen modules,
 * every value of its type and within its option's range (N=2^40 is refused here), the
 * open-loop keys, max_memory's syntax. Cheap (no network, workload or engine), so a sweep
 * checks every point of its grid this way before it builds any (rs_sweep_validate).
 * Returns 0 or RS_E... with err set. */
int rs_check(const struct rs_params *p, struct rs_err *err);

#endif
