/* Resume of a sweep (used by sweep.c only): the rows already in the statistics and per-run
 * files are checked against the identity of every point, and the two files are repaired
 * to the points whose statistics row and per-run rows are both whole. */
#ifndef ROUTESIM_EXP_SWEEP_RESUME_H
#define ROUTESIM_EXP_SWEEP_RESUME_H

#include <stddef.h>
#include <stdint.h>

#include "routesim/buf.h"
#include "routesim/error.h"
#include "routesim/grid.h"

struct rs__resume_in {
    const char *out_path;     /* the statistics file */
    const char *per_run_path; /* the per-run file, or NULL */
    const char *stats_prefix; /* its header must begin with this: "p1,...,pn,runs," */
    const char *runs_prefix;  /* the per-run header must begin with "p1,...,pn,replication," */
    size_t n_id;              /* identity cells of a row: the parameters and runs/replication */
    uint64_t n_points;
    uint32_t runs;
    /* Append to stats the first n_id cells of point i's statistics row (no newline) and, when
     * runs is not NULL, those of its per-run rows, replication 0 first, each ending in a
     * newline. Returns 0 or RS_E... with err set. Called for every point when a file holds
     * rows (so it may be as slow as validating the point), again on an error's path. */
    int (*ident)(void *ctx, uint64_t i, struct rs_buf *stats, struct rs_buf *runs,
                 struct rs_err *err);
    void *ctx;
    /* The hash that sorts and finds identities (NULL: rs__fnv1a). A match is always decided
     * by comparing the texts (rs__resume_same), so any hash, even a constant, gives the
     * same result; tests force collisions with it. */
    uint64_t (*hash)(const char *s, size_t n);
};

/* 1 when the identity texts a[0..alen) and b[0..blen) are the same bytes. */
int rs__resume_same(const char *a, size_t alen, const char *b, size_t blen);

struct rs__resume_out {
    uint8_t *skip;            /* [n_points], zeroed by the caller: 1 for every point kept */
    uint64_t kept;            /* points kept */
    struct rs_buf header;     /* the statistics file's header line (with '\n'), or empty */
    struct rs_buf runs_header; /* the per-run file's header line when it is appended to */
    int runs_append;          /* 1: append to the per-run file; 0: start it afresh */
    char note[768];           /* what was repaired ("" when nothing): for the summary line */
};

/* Read in->out_path (and in->per_run_path), check every row and repair the files:
 * - a row whose identity cells match no point, a second row of a point, a row whose number
 *   of cells differs from its header's, a statistics header whose parameter columns differ:
 *   RS_EINVAL naming file:line (nothing is changed);
 * - a torn last line (no newline) is cut;
 * - per-run rows of points without a statistics row (written first, the statistics row not
 *   yet) are cut: they must follow every row of a kept point; the point is run again;
 * - a kept point must have all its per-run rows when a per-run file is given (and the file
 *   must exist): otherwise RS_EINVAL (the per-run file is behind or missing).
 * When no point is kept the per-run file is started afresh. out->skip marks the kept
 * points; out->note says what was cut. Files are changed only when every check passed.
 * Returns 0, RS_EINVAL, RS_EIO or RS_ENOMEM with err set. */
int rs__sweep_resume(const struct rs__resume_in *in, struct rs__resume_out *out,
                     struct rs_err *err);

/* For merging shards (sweep_merge.c): the identity of every point of g as resume uses it:
 * stats gets each point's first n_id statistics cells and a newline, runs each run's first
 * n_id per-run cells and a newline (replication 0 first), the prefixes the two headers
 * begin with ("p1,...,pn,runs," and "p1,...,pn,replication,") and *n_id. Every point is
 * validated first (its errors are returned). 0 or RS_E... (sweep.c) */
int rs__sweep_identities(const struct rs_grid *g, struct rs_buf *stats, struct rs_buf *runs,
                         struct rs_buf *stats_prefix, struct rs_buf *runs_prefix, size_t *n_id,
                         struct rs_err *err);

/* The 64-bit FNV-1a hash of the n bytes at s (row identities of resume and merge). */
static inline uint64_t rs__fnv1a(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

#endif
