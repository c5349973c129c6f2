/* Sweeps: run every point of an experiment grid `runs` times, in parallel, and write one
 * row of statistics per point (and optionally one row per run) in grid order, appending
 * as points finish, so that an interrupted sweep keeps every finished point and can be
 * resumed. The bytes written do not depend on the number of threads. */
#ifndef ROUTESIM_SWEEP_H
#define ROUTESIM_SWEEP_H

#include <signal.h>
#include <stdint.h>

#include "routesim/buf.h"
#include "routesim/error.h"
#include "routesim/grid.h"
#include "routesim/record.h"

/* Other processes that take runs of the sweep (MPI ranks: src/mpi/). The sweep hands each
 * worker one task at a time (the next run in grid order, as a local thread takes one) and
 * gives it the next when its reply comes, so that a slow run holds up only its worker.
 * Called from one thread only, the thread that called rs_sweep_run. */
struct rs_sweep_remote {
    int workers; /* workers 1..workers */
    void *ctx;
    /* Hand worker w the task msg[0..len) (the bytes of rs__wire_task). 0 or RS_E... */
    int (*send)(void *ctx, int w, const void *msg, size_t len, struct rs_err *err);
    /* Wait for the next reply of any worker: its number into *w and its bytes into reply
     * (emptied first). 0 or RS_E... */
    int (*recv)(void *ctx, int *w, struct rs_buf *reply, struct rs_err *err);
};

struct rs_sweep_opts {
    const char *out_path;      /* statistics per point (required) */
    const char *per_run_path;  /* one row per run, or NULL */
    int jobs;                  /* worker threads; 0 = one per core */
    int resume;                /* keep the rows already in out_path; skip their points */
    volatile sig_atomic_t *stop; /* when it becomes nonzero no new run starts; may be NULL */
    /* Called (serialised) after each point is written, with points done and total. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *ctx;
    /* Stopping at once (a second Ctrl-C): the sweep sets *writing to 1 while it writes a
     * point's rows (per-run rows, then the statistics row) and to 0 after, so that a signal
     * handler that sets *stop to 2 may end the process itself when *writing is 0 (set *stop
     * first, then read *writing: both sides use sequentially consistent fences). When
     * *stop >= 2 the sweep calls halt(ctx) (serialised) before starting or right after
     * finishing a point's rows, where both files hold whole rows; halt must not return
     * (e.g. _exit). Both may be NULL (then *stop >= 2 is *stop == 1). */
    volatile sig_atomic_t *writing;
    void (*halt)(void *ctx);
    /* Runs handed to other processes as well as to the jobs threads (then jobs = 0 means
     * one thread); NULL: this process runs every run. The files are the same bytes. */
    const struct rs_sweep_remote *remote;
    /* A shard (--shard I/N): only points [first_point, end_point) of the grid are run and
     * written (their rows are the bytes of those rows of the whole sweep); end_point = 0:
     * every point. Resume keeps rows of these points only. */
    uint64_t first_point, end_point;
    /* The rows' format: 0 CSV (a header line, then one row per line), 1 JSON Lines (one
     * JSON object per line with the CSV's columns as members, numbers typed, nan as null;
     * no header; refused with resume, RS_EUNSUPPORTED). */
    int jsonl;
    /* How doubles are written (include/routesim/record.h): RS_DIGITS_9 (the default: 9
     * significant digits) or RS_DIGITS_EXACT (the shortest text that reads back exactly).
     * A resumed sweep must use the digits its file was written with (identities compare as
     * text). */
    enum rs_digits digits;
};

struct rs_sweep_result {
    uint64_t points;  /* in the grid */
    uint64_t skipped; /* already in the file (resume) */
    uint64_t written; /* rows written by this call */
    /* Rows written by this call (not those kept): runs with deadlock=1, points with at least
     * one and points where every run deadlocked; runs with saturated=1 (open loop) that did
     * not deadlock (they are in the statistics, with nan latencies). */
    uint64_t deadlocked_runs, deadlocked_points, dead_points, saturated_runs;
    uint64_t first_dead_point; /* grid index of the first point with a deadlocked run */
    uint64_t remote_runs;      /* runs made by other processes (rs_sweep_opts.remote) */
    /* Resume: what was repaired in the files ("" when nothing): torn lines cut, per-run
     * rows of points without a statistics row cut. */
    char resume_note[768];
};

/* Validate every point first (nothing is written if one is bad), then run. Columns of the
 * statistics file: the parameters of the points (union over the points, in order of first
 * appearance; `seed` is the experiment seed), `runs`, then for every metric
 * <metric>_mean, _var, _sd, _min, _max, _ci95, then runs_deadlocked, runs_saturated,
 * runs_with_drops (runs with dropped > 0) and runs_used. The flags deadlock and saturated
 * are summarised over every run (their mean is the fraction of runs); every other metric
 * over the runs_used runs that did not deadlock (all six nan when every run deadlocked).
 * Columns of the per-run file: the run's parameters (its own derived `seed`),
 * `replication`, the metrics. Each point's per-run rows are written before its statistics
 * row, each by one write. With o->resume the files are checked and repaired first (see
 * docs/sweeps.md; foreign or damaged rows: RS_EINVAL naming file:line, nothing changed).
 * Returns 0; RS_EINTERRUPTED when *stop was raised (finished points are kept); or
 * RS_E... */
int rs_sweep_run(const struct rs_grid *g, const struct rs_sweep_opts *o,
                 struct rs_sweep_result *res, struct rs_err *err);

/* The grid's size against the memory limit, with nothing expanded or built: a sweep keeps
 * a record slot per run (points x runs, UNITS: bytes of sizeof(struct rs_record) each)
 * plus a few bytes per point; the limit is the grid's max_memory (its largest value) or
 * the memory available. Returns 0, RS_ERESOURCE ("a sweep of P points x R runs needs about
 * X of memory, more than ...", exit 3) or RS_EINVAL for a malformed max_memory. Called
 * first by rs_sweep_run and rs_sweep_validate. */
int rs_sweep_check_size(const struct rs_grid *g, struct rs_err *err);

/* Validate every point of g as rs_sweep_run does before running: first every point's keys,
 * types and ranges with nothing built (rs_check), then each point's network and workload
 * built and freed (constraints, the memory estimate), without running or writing
 * anything. Returns 0 or the first bad point's RS_E... with err naming the key. */
int rs_sweep_validate(const struct rs_grid *g, struct rs_err *err);

/* Merge the files of a sweep's shards (--shard I/N, rs_sweep_opts.first_point) into out:
 * parts[0..n) are all statistics files or all per-run files of grid g (told by their
 * header), given in any order; every point (per-run: every run) of g must be in exactly one
 * part. out gets the header and the rows in grid order: the bytes of the whole sweep's file.
 * Written atomically (rs_buf_write_file); nothing is written on an error. Returns 0 or
 * RS_EINVAL naming the file and line (a row of another grid, a row given twice, a torn
 * last line, a header that differs, a point missing: named with its keys), RS_EIO, or the
 * first bad point's error. */
int rs_sweep_merge(const struct rs_grid *g, const char *out, const char *const *parts, size_t n,
                   struct rs_err *err);

#endif
