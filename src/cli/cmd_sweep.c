/* `routesim sweep -c FILE.ini [-o results.csv] [--jobs N] [--per-run FILE] [--resume]
 * [--plot FILE.png|.svg]`: expand an experiment grid, run it in parallel, write statistics
 * per point as points finish; Ctrl-C stops cleanly, keeping every finished point. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "routesim/grid.h"
#include "routesim/plot.h"
#include "routesim/sweep.h"

static volatile sig_atomic_t stop_requested;

static void on_sigint(int sig)
{
    (void)sig;
    stop_requested = 1;
}

struct progress {
    struct timespec start;
    int shown;
};

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* "points 12/40, 3.2 s elapsed, about 7.5 s left" on one refreshed stderr line. */
static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct progress *pr = ctx;
    double el = seconds_since(&pr->start);
    double left = done ? el * (double)(total - done) / (double)done : 0;
    fprintf(stderr, "\rroutesim: points %llu/%llu, %.1f s elapsed, about %.1f s left   ",
            (unsigned long long)done, (unsigned long long)total, el, left);
    pr->shown = 1;
}

/* Default results file: the INI's name with .csv instead of .ini, in the current folder. */
static void default_output(const char *ini, char *buf, size_t n)
{
    const char *base = strrchr(ini, '/');
    base = base ? base + 1 : ini;
    size_t len = strlen(base);
    if (len > 4 && !strcmp(base + len - 4, ".ini"))
        len -= 4;
    snprintf(buf, n, "%.*s.csv", (int)len, base);
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

int cli_cmd_sweep(int argc, char **argv)
{
    struct cli_args a;
    struct rs_err err;
    struct rs_grid g;
    struct progress pr = {{0, 0}, 0};
    char out[4096];
    int status = 0;
    rs_err_clear(&err);
    memset(&g, 0, sizeof g);
    int rc = cli_parse(argc, argv,
                       CLI_CONFIG | CLI_OUTPUT | CLI_JOBS | CLI_PER_RUN | CLI_RESUME | CLI_PLOT, 0,
                       &a, &err);
    if (!rc && !a.config)
        rc = rs_err_set(&err, RS_EPARSE, "command line: sweep needs -c FILE.ini");
    if (!rc)
        rc = rs_grid_build(&g, &a.params, &err);
    if (rc) {
        status = cli_fail(&err);
        goto done;
    }
    if (a.output)
        snprintf(out, sizeof out, "%s", a.output);
    else
        default_output(a.config, out, sizeof out);
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
    struct rs_sweep_opts o = {out, a.per_run, a.jobs, a.resume, &stop_requested,
                              isatty(2) ? show_progress : NULL, &pr};
    struct rs_sweep_result res;
    rc = rs_sweep_run(&g, &o, &res, &err);
    if (pr.shown)
        fputc('\n', stderr);
    if (rc) {
        status = rc == RS_EINTERRUPTED ? 130 : cli_fail(&err);
        if (rc == RS_EINTERRUPTED)
            fprintf(stderr, "routesim: %s\n", err.msg);
        goto done;
    }
    fprintf(stderr, "routesim: %llu points x %u runs: %s (%llu written, %llu kept from before)\n",
            (unsigned long long)res.points, g.runs, out, (unsigned long long)res.written,
            (unsigned long long)res.skipped);
    if (a.plot) {
        char notice[1024] = "";
        rc = rs_plot_sweep(&g, out, a.plot, notice, sizeof notice, &err);
        if (rc)
            status = cli_fail(&err);
        else if (notice[0])
            fprintf(stderr, "routesim: %s\n", notice);
    }
done:
    rs_grid_free(&g);
    cli_args_free(&a);
    return status;
}
