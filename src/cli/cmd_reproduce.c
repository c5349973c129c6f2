/* `routesim reproduce NAME|all [--quick] [--out DIR] [--jobs N] [--resume] [--dry-run]`:
 * run shipped reproductions (experiments/NAME/), keeping finished rows with --resume, and
 * print where their REPORT.md is; with --dry-run only check their definitions; without
 * NAME, list them; a former name (before one reproduction per paper) is an error naming the
 * new one. The folder of reproductions is $RS_EXPERIMENTS, else the installed data
 * directory BINDIR/../share/routesim/experiments next to the running binary, else the
 * source tree's experiments/ (a binary run from its build tree). Under
 * mpirun, rank 0 runs the reproduction and the other ranks take its sweeps' runs
 * (rs_mpi.h). */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "mpi/rs_mpi.h"
#include "routesim/alloc.h"
#include "routesim/reproduce.h"

#ifndef RS_EXPERIMENTS_DIR
#define RS_EXPERIMENTS_DIR "experiments"
#endif

static volatile sig_atomic_t stop_requested, writing_rows;

/* The folder of reproductions into buf[0..n): $RS_EXPERIMENTS when set, else the installed
 * data directory relative to the running binary (/proc/self/exe) when it exists, else the
 * source tree's (compiled in). */
static const char *experiments_root(char *buf, size_t n)
{
    const char *env = getenv("RS_EXPERIMENTS");
    if (env && *env)
        return env;
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            int w = snprintf(buf, n, "%s/../share/routesim/experiments", exe);
            if (w > 0 && (size_t)w < n && access(buf, R_OK | X_OK) == 0)
                return buf;
        }
    }
    return RS_EXPERIMENTS_DIR;
}

/* The names shipped reproductions had before there was one per paper: asking for one is an
 * error naming the reproduction that now holds its experiments (no silent alias). */
static const struct renamed {
    const char *old, *now;
    int merged; /* 1: now part of a larger reproduction; 0: only renamed */
} renamed[] = {
    {"cms", "cole-maggs-sitaraman", 0},
    {"koch", "maggs-sitaraman", 1},
    {"maggs-sitaraman-greedy", "maggs-sitaraman", 1},
    {"lcan", "scherson-chien", 1},
    {"lcan-realization", "scherson-chien", 1},
};

/* Set err for the unknown reproduction name (known: names, n of them) and return its code. */
static int unknown_reproduction(const char *name, char **names, size_t n, struct rs_err *err)
{
    for (size_t i = 0; i < sizeof renamed / sizeof *renamed; i++)
        if (!strcmp(renamed[i].old, name))
            return rs_err_set(err, RS_EUNKNOWN,
                              "no reproduction '%s': it is now %s '%s' (one reproduction per "
                              "paper; try `routesim reproduce %s`)",
                              name, renamed[i].merged ? "part of" : "named", renamed[i].now,
                              renamed[i].now);
    const char *near = rs_suggest(name, (const char *const *)names, (int)n);
    return rs_err_set(err, RS_EUNKNOWN, "no reproduction '%s'%s%s%s (try `routesim reproduce`)",
                      name, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
}

/* Second interrupt, where every file is whole (see rs_reproduce_opts.halt). */
static void halt_now(void *ctx)
{
    static const char msg[] = "routesim: stopped at once; every file holds whole rows only (run "
                              "again with --resume to finish)\n";
    (void)ctx;
    ssize_t n = write(2, msg, sizeof msg - 1);
    (void)n;
    _exit(130);
}

/* First Ctrl-C (or SIGTERM): no new run starts, the runs under way finish and their rows are
 * written; second: stop at once, here when no row is being written, else right after the
 * rows (the sweep calls halt_now). */
static void on_sigint(int sig)
{
    static const char msg[] = "routesim: stopping: waiting for the runs under way to finish, "
                              "then writing their points; Ctrl-C again stops at once\n";
    (void)sig;
    if (stop_requested) {
        stop_requested = 2;
        atomic_thread_fence(memory_order_seq_cst);
        if (!writing_rows)
            halt_now(NULL);
        return;
    }
    stop_requested = 1;
    ssize_t n = write(2, msg, sizeof msg - 1);
    (void)n;
}

static int run_one(const char *root, const char *name, const char *out, const struct cli_args *a,
                   const char *command, struct rs_claim_outcome *total,
                   const struct rs_sweep_remote *remote)
{
    struct rs_reproduce_opts o = {.root = root,
                                  .name = name,
                                  .quick = a->quick,
                                  .out = out,
                                  .jobs = a->jobs,
                                  .stop = &stop_requested,
                                  .command = command,
                                  .resume = a->resume,
                                  .writing = &writing_rows,
                                  .halt = halt_now,
                                  .remote = remote};
    struct rs_claim_outcome got;
    struct rs_err err;
    rs_err_clear(&err);
    if (a->dry_run) { /* check the definitions; run nothing, write nothing */
        struct rs_reproduce_size sz;
        if (rs_reproduce_check(&o, &sz, &err))
            return cli_fail(&err);
        printf("%s (%s): %u experiments, %llu points, %llu runs, %u claims: valid (dry run, "
               "nothing was run)\n",
               name, a->quick ? "quick" : "full", sz.experiments, sz.points, sz.runs, sz.claims);
        fflush(stdout);
        return 0;
    }
    fprintf(stderr, "routesim: reproducing %s (%s) ...\n", name, a->quick ? "quick" : "full");
    int rc = rs_reproduce(&o, &got, &err);
    if (rc)
        return rc == RS_EINTERRUPTED ? (fprintf(stderr, "routesim: %s\n", err.msg), 130)
                                     : cli_fail(&err);
    printf("%s: %d hold, %d do not hold, %d inconclusive, %d vacuous; report: %s/REPORT.md\n",
           name, got.holds, got.fails, got.inconclusive, got.vacuous, out);
    fflush(stdout);
    total->holds += got.holds;
    total->fails += got.fails;
    total->inconclusive += got.inconclusive;
    total->vacuous += got.vacuous;
    return 0;
}

static int reproduce_main(int argc, char **argv, const struct rs_sweep_remote *remote);

/* Under mpirun the ranks other than 0 serve runs; rank 0 runs the reproduction (rs_mpi.h). */
int cli_cmd_reproduce(int argc, char **argv)
{
    return cli_mpi_main(argc, argv, reproduce_main);
}

static int reproduce_main(int argc, char **argv, const struct rs_sweep_remote *remote)
{
    struct cli_args a;
    struct rs_err err;
    rs_err_clear(&err);
    int rc = cli_parse(argc, argv, CLI_OUTPUT | CLI_JOBS | CLI_QUICK | CLI_RESUME | CLI_DRY_RUN, 1,
                       &a, &err);
    if (!rc && a.params.n)
        rc = rs_err_set(&err, RS_EPARSE, "command line: reproduce takes no KEY=VALUE");
    if (rc) {
        cli_args_free(&a);
        return cli_fail(&err);
    }
    char root_buf[4200];
    const char *root = experiments_root(root_buf, sizeof root_buf);
    size_t n = 0;
    char **names = rs_reproduce_list(root, &n);
    int status = 0;
    char command[1024];
    snprintf(command, sizeof command, "routesim reproduce %s%s", a.positional ? a.positional : "",
             a.quick ? " --quick" : "");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    struct rs_claim_outcome total = {0, 0, 0, 0};
    if (!a.positional) {
        printf("reproductions in %s:\n", root);
        for (size_t i = 0; i < n; i++)
            printf("  %s\n", names[i]);
    } else if (!strcmp(a.positional, "all")) {
        for (size_t i = 0; i < n && !status; i++) {
            char out[4096];
            snprintf(out, sizeof out, "%s/%s", a.output ? a.output : "results", names[i]);
            status = run_one(root, names[i], out, &a, command, &total, remote);
        }
        if (!status && !a.dry_run)
            printf("all: %d hold, %d do not hold, %d inconclusive, %d vacuous\n", total.holds,
                   total.fails, total.inconclusive, total.vacuous);
    } else {
        char out[4096];
        if (a.output)
            snprintf(out, sizeof out, "%s", a.output);
        else
            snprintf(out, sizeof out, "results/%s", a.positional);
        int known = 0;
        for (size_t i = 0; i < n; i++)
            known |= !strcmp(names[i], a.positional);
        if (!known) {
            unknown_reproduction(a.positional, names, n, &err);
            status = cli_fail(&err);
        } else {
            status = run_one(root, a.positional, out, &a, command, &total, remote);
        }
    }
    for (size_t i = 0; i < n; i++)
        rs_free(names[i]);
    rs_free(names);
    cli_args_free(&a);
    return status;
}
