/* Reproductions: a shipped folder experiments/NAME/ holding sweep definitions (*.ini, each
 * with an optional [quick] section of smaller values) and the claims they check
 * (claims.ini). Running one writes, into an output folder, every sweep's CSV (statistics
 * and per run), its plots (PNG and SVG) and REPORT.md with a verdict per claim. */
#ifndef ROUTESIM_REPRODUCE_H
#define ROUTESIM_REPRODUCE_H

#include <signal.h>
#include <stddef.h>

#include "routesim/claims.h"
#include "routesim/error.h"
#include "routesim/sweep.h"

struct rs_reproduce_opts {
    const char *root;   /* folder of reproductions (experiments/) */
    const char *name;   /* a reproduction's folder name */
    int quick;          /* apply the [quick] values */
    const char *out;    /* output folder (created) */
    int jobs;           /* sweep threads, 0 = all cores */
    volatile sig_atomic_t *stop; /* see rs_sweep_opts */
    const char *command; /* the command line, recorded in the report */
    int resume;         /* keep the rows already in each sweep's file (rs_sweep_opts) */
    /* Stopping at once (a second Ctrl-C), passed to every sweep: see rs_sweep_opts. Between
     * sweeps nothing is half-written (every file is replaced atomically), so a handler may
     * end the process whenever *writing is 0. Both may be NULL. */
    volatile sig_atomic_t *writing;
    void (*halt)(void *ctx);
    /* Runs handed to other processes (MPI ranks), passed to every sweep; NULL: none. */
    const struct rs_sweep_remote *remote;
};

/* Run one reproduction. Returns 0 (whatever the verdicts) with *out counting them, or
 * RS_E... (bad definition, I/O, interruption). claims.ini may hold only title, paper and
 * [claim.NAME] sections (another key is RS_EUNKNOWN), at most 256 claims (RS_ECONSTRAINT).
 * The report is <out>/REPORT.md. */
int rs_reproduce(const struct rs_reproduce_opts *o, struct rs_claim_outcome *out,
                 struct rs_err *err);

/* What a reproduction would run (rs_reproduce_check). */
struct rs_reproduce_size {
    unsigned experiments;    /* sweep INIs */
    unsigned long long points, runs; /* over all of them, in the chosen mode */
    unsigned claims;
};

/* Check reproduction o->name without running it (a dry run): every experiment INI loads
 * (with the [quick] values when o->quick), its grid expands, every point validates as a
 * run would (rs_sweep_validate: network and workload built and freed), its [plot] section
 * is well-formed (rs_plot_check), and every claim of claims.ini has a known kind, known
 * keys with well-typed values (rs_claim_validate) and an experiment of the folder. Nothing
 * is written; o->out, o->jobs, o->stop and o->resume are not used. Fills *size. Returns 0
 * or the first problem's RS_E... with err naming the file, line and key. */
int rs_reproduce_check(const struct rs_reproduce_opts *o, struct rs_reproduce_size *size,
                       struct rs_err *err);

/* Names of the reproductions under root (sub-folders holding claims.ini), sorted; *n gets
 * their number. The caller frees each name and the array with rs_free (alloc.h). NULL with
 * *n = 0 when none or out of memory. */
char **rs_reproduce_list(const char *root, size_t *n);

#endif
