/* `routesim sweep -c FILE.ini [-o results.csv] [--jobs N] [--per-run FILE] [--resume]
 * [--plot FILE.png|.svg] [--shard I/N]`: expand an experiment grid, run it in parallel
 * (threads, and MPI ranks under mpirun), write statistics per point as points finish;
 * Ctrl-C stops cleanly, keeping every finished point. */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "mpi/rs_mpi.h"
#include "routesim/grid.h"
#include "routesim/plot.h"
#include "routesim/sweep.h"

static volatile sig_atomic_t stop_requested, writing_rows;
static char stop_msg[320];
static size_t stop_len;

/* Second interrupt, where the files hold whole rows (see rs_sweep_opts.halt). */
static void halt_now(void *ctx)
{
    static const char msg[] = "routesim: stopped at once; the files hold whole rows only (run "
                              "again with --resume to finish)\n";
    (void)ctx;
    ssize_t n = write(2, msg, sizeof msg - 1);
    (void)n;
    _exit(130);
}

/* First Ctrl-C (or SIGTERM): no new run starts, say what is awaited; second: stop at once,
 * here when no row is being written, else right after the rows (rs_sweep_run calls
 * halt_now). */
static void on_sigint(int sig)
{
    (void)sig;
    if (stop_requested) {
        stop_requested = 2;
        atomic_thread_fence(memory_order_seq_cst);
        if (!writing_rows)
            halt_now(NULL);
        return;
    }
    stop_requested = 1;
    ssize_t n = write(2, stop_msg, stop_len);
    (void)n;
}

struct progress {
    struct timespec start;
    int shown;
};

/* "points 12/40, 3.2 s elapsed, about 7.5 s left" on one refreshed stderr line. */
static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct progress *pr = ctx;
    double el = cli_seconds_since(&pr->start);
    double left = done ? el * (double)(total - done) / (double)done : 0;
    fprintf(stderr, "\rroutesim: points %llu/%llu, %.1f s elapsed, about %.1f s left   ",
            (unsigned long long)done, (unsigned long long)total, el, left);
    pr->shown = 1;
}

/* Default results file: the INI's name with .csv (or .jsonl: ext) instead of .ini, in the
 * current folder; a shard's is NAME-shard-I-of-N.csv. */
static void default_output(const char *ini, char *buf, size_t n, unsigned si, unsigned sn,
                           const char *ext)
{
    const char *base = strrchr(ini, '/');
    base = base ? base + 1 : ini;
    size_t len = strlen(base);
    if (len > 4 && !strcmp(base + len - 4, ".ini"))
        len -= 4;
    if (sn)
        snprintf(buf, n, "%.*s-shard-%u-of-%u.%s", (int)len, base, si, sn, ext);
    else
        snprintf(buf, n, "%.*s.%s", (int)len, base, ext);
}

/* Everything that would fail after the sweep, checked before its first point: the outputs
 * (writable, distinct from each other and from the inputs), the --plot file's type and the
 * [plot] section (keys, x, series, filter). Column and metric names need the results (or,
 * for metrics, their declarations: the hook for checking [plot] y up front is here). */
static int check_before_running(const struct cli_args *a, const struct rs_grid *g,
                                const char *out, struct rs_err *err)
{
    char script[4096] = "";
    int rc = a->plot ? rs_plot_script_path(a->plot, script, sizeof script, err) : 0;
    struct rs_named_path outs[4] = {{a->output ? "-o" : "the results file", out},
                                    {"--per-run", a->per_run},
                                    {"--plot", a->plot},
                                    {"the plot's script", a->plot ? script : NULL}};
    rc = rc ? rc : cli_check_outputs(a, outs, 4, err);
    int has_plot_keys = 0;
    for (size_t i = 0; i < g->extra.n; i++)
        has_plot_keys |= !strncmp(g->extra.v[i].key, "plot.", 5);
    if (!rc && (a->plot || has_plot_keys))
        rc = rs_plot_check(g, err);
    return rc;
}

/* --shard I/N (taken out of argv before the common parser): I in 1..N. 0, or RS_EPARSE. */
static int take_shard(int *argc, char **argv, unsigned *si, unsigned *sn, struct rs_err *err)
{
    *si = *sn = 0;
    for (int k = 0; k < *argc; k++) {
        if (strcmp(argv[k], "--shard"))
            continue;
        unsigned long i = 0, n = 0;
        char *end = NULL;
        const char *v = k + 1 < *argc ? argv[k + 1] : "";
        i = strtoul(v, &end, 10);
        int ok = end != v && *end == '/' && v[0] != '-';
        if (ok) {
            const char *v2 = end + 1;
            n = strtoul(v2, &end, 10);
            ok = end != v2 && !*end && v2[0] != '-';
        }
        if (!ok || i < 1 || n < 1 || i > n || n > 1000000)
            return rs_err_set(err, RS_EPARSE,
                              "command line: --shard: expected I/N with 1 <= I <= N <= 1000000 "
                              "(the I-th of N parts of the grid), got '%s'",
                              v);
        *si = (unsigned)i;
        *sn = (unsigned)n;
        for (int j = k; j + 2 < *argc; j++)
            argv[j] = argv[j + 2];
        *argc -= 2;
        return 0;
    }
    return 0;
}

static int sweep_main(int argc, char **argv, const struct rs_sweep_remote *remote);

/* Under mpirun the ranks other than 0 serve runs; rank 0 runs the sweep (rs_mpi.h). */
int cli_cmd_sweep(int argc, char **argv)
{
    return cli_mpi_main(argc, argv, sweep_main);
}

static int sweep_main(int argc, char **argv, const struct rs_sweep_remote *remote)
{
    struct cli_args a;
    struct rs_err err;
    struct rs_grid g;
    struct progress pr = {{0, 0}, 0};
    char out[4096];
    int status = 0;
    unsigned shard_i, shard_n;
    rs_err_clear(&err);
    memset(&g, 0, sizeof g);
    int rc = take_shard(&argc, argv, &shard_i, &shard_n, &err);
    rc = rc ? rc : cli_parse(argc, argv,
                       CLI_CONFIG | CLI_OUTPUT | CLI_FORMAT | CLI_DIGITS | CLI_JOBS | CLI_PER_RUN |
                           CLI_RESUME | CLI_PLOT | CLI_QUIET,
                       0,
                       &a, &err);
    if (!rc && !a.config)
        rc = rs_err_set(&err, RS_EPARSE, "command line: sweep needs -c FILE.ini");
    int jsonl = a.format == RS_FMT_JSONL;
    if (!rc && a.format != RS_FMT_TABLE && a.format != RS_FMT_CSV && !jsonl)
        rc = rs_err_set(&err, RS_EPARSE, "command line: --format: a sweep writes csv (the "
                                         "default) or jsonl");
    if (!rc && jsonl && a.resume)
        rc = rs_err_set(&err, RS_EPARSE, "command line: --resume reads a CSV file back: "
                                         "resume a sweep written as csv");
    if (!rc && jsonl && a.plot)
        rc = rs_err_set(&err, RS_EPARSE, "command line: --plot reads a CSV file: plot a sweep "
                                         "written as csv");
    if (!rc)
        rc = rs_grid_build(&g, &a.params, &err);
    if (!rc && a.plot) /* [plot] errors (unknown key or metric) before anything runs */
        rc = rs_plot_check(&g, &err);
    if (!rc && shard_n && a.plot)
        rc = rs_err_set(&err, RS_EPARSE, "command line: --plot draws a whole sweep, not a "
                                         "shard: plot the merged file (`routesim merge`)");
    if (!rc && shard_n > g.n_points)
        rc = rs_err_set(&err, RS_EINVAL,
                        "command line: --shard %u/%u: the grid has only %llu points (at most "
                        "that many shards)",
                        shard_i, shard_n, (unsigned long long)g.n_points);
    if (rc) {
        status = cli_fail(&err);
        goto done;
    }
    if (a.output)
        snprintf(out, sizeof out, "%s", a.output);
    else
        default_output(a.config, out, sizeof out, shard_i, shard_n, jsonl ? "jsonl" : "csv");
    int jobs = a.jobs > 0 ? a.jobs : remote ? 1 : (int)sysconf(_SC_NPROCESSORS_ONLN);
    snprintf(stop_msg, sizeof stop_msg,
             "%sroutesim: interrupted: no new run starts; waiting for the runs in progress (at "
             "most %d, one per thread%s) to finish, then writing their points; Ctrl-C again "
             "stops at once, keeping whole rows\n",
             isatty(2) ? "\n" : "", (jobs > 0 ? jobs : 1) + (remote ? remote->workers : 0),
             remote ? " and MPI rank" : "");
    stop_len = strlen(stop_msg);
    if ((rc = check_before_running(&a, &g, out, &err))) {
        status = cli_fail(&err);
        goto done;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    clock_gettime(CLOCK_MONOTONIC, &pr.start);
    struct rs_sweep_opts o = {out,      a.per_run,    a.jobs,
                              a.resume, &stop_requested, isatty(2) && !a.quiet ? show_progress : NULL,
                              &pr,      &writing_rows, halt_now,
                              remote,   0,            0,
                              jsonl,    a.digits};
    if (shard_n) { /* the shard_i-th of shard_n contiguous parts, in grid order */
        o.first_point = g.n_points * (shard_i - 1) / shard_n;
        o.end_point = g.n_points * shard_i / shard_n;
    }
    struct rs_sweep_result res;
    rc = rs_sweep_run(&g, &o, &res, &err);
    if (pr.shown)
        fputc('\n', stderr);
    if (res.deadlocked_points) {
        char all[160] = "";
        if (res.dead_points)
            snprintf(all, sizeof all, "; in %llu of them every run deadlocked: nan statistics",
                     (unsigned long long)res.dead_points);
        fprintf(stderr,
                "routesim: warning: %llu of %llu runs deadlocked, in %llu points (the first is "
                "point %llu in grid order)%s; their metrics are left out of the statistics of %s "
                "(see runs_deadlocked, runs_used)\n",
                (unsigned long long)res.deadlocked_runs,
                (unsigned long long)(res.written * g.runs),
                (unsigned long long)res.deadlocked_points,
                (unsigned long long)res.first_dead_point + 1, all, out);
    }
    if (res.saturated_runs)
        fprintf(stderr,
                "routesim: warning: %llu runs saturated without deadlocking: their latency "
                "metrics are nan, and so are the latency means of their points (see "
                "runs_saturated)\n",
                (unsigned long long)res.saturated_runs);
    if (rc) {
        status = rc == RS_EINTERRUPTED ? 130 : cli_fail(&err);
        if (rc == RS_EINTERRUPTED)
            fprintf(stderr, "routesim: %s\n", err.msg);
        goto done;
    }
    if (shard_n)
        fprintf(stderr, "routesim: shard %u of %u: points %llu to %llu of %llu\n", shard_i,
                shard_n, (unsigned long long)o.first_point + 1, (unsigned long long)o.end_point,
                (unsigned long long)g.n_points);
    char ranks[160] = "";
    if (remote)
        snprintf(ranks, sizeof ranks, "; %llu runs made by the %d other MPI ranks",
                 (unsigned long long)res.remote_runs, remote->workers);
    fprintf(stderr,
            "routesim: %llu points x %u runs: %s (%llu written, %llu kept from before%s%s%s%s)\n",
            (unsigned long long)res.points, g.runs, out, (unsigned long long)res.written,
            (unsigned long long)res.skipped,
            res.skipped ? ": their parameters, runs and seed match this sweep" : "",
            res.resume_note[0] ? "; " : "", res.resume_note, ranks);
    if (a.plot) {
        char notice[1024] = "";
        rc = rs_plot_sweep(&g, out, a.plot, notice, sizeof notice, &err);
        if (rc)
            status = cli_fail(&err);
        else if (notice[0])
            cli_notice(notice);
    }
done:
    rs_grid_free(&g);
    cli_args_free(&a);
    return status;
}
