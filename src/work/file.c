/* Workload from a file (SPEC W1 "from a file"): one destination per line in message
 * order, checked line by line so that every error names the file and the line. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/line_reader.h"
#include "routesim/problem.h"

static const char *const file_kinds[] = {"permutation", "any", NULL};
enum { KIND_PERMUTATION, KIND_ANY };

static const struct rs_optdef file_options[] = {
    {"traffic_file", RS_OPT_STRING, NULL, 0, 0, NULL,
     "file of destinations, one per line in message order (m = s*per_input + k)", "-"},
    {"file_kind", RS_OPT_CHOICE, "permutation", 0, 0, file_kinds,
     "permutation: every terminal receives exactly per_input messages; any: no check", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL},
};

/* State of one pass over the file. */
struct reader {
    const char *path;
    uint32_t n, q;
    uint64_t total;     /* n * q */
    int check;          /* file_kind=permutation */
    uint64_t *seen;     /* check: q == 1: first line of each destination (0 = none);
                           q > 1: times each destination has appeared */
    uint64_t count;     /* destinations read so far */
};

/* Handle one line (already stripped, non-empty, not a comment) at line number line. */
static int take(struct reader *r, const char *tok, uint64_t line, uint32_t *dst,
                struct rs_err *err)
{
    unsigned long long ln = (unsigned long long)line;
    int width = (int)(strlen(tok) > 40 ? 40 : strlen(tok));
    if (r->count == r->total)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "%s:%llu: more than %llu destinations (N=%u x per_input=%u)", r->path,
                          ln, (unsigned long long)r->total, r->n, r->q);
    /* a decimal integer: optional '-', then digits only */
    const char *d = tok[0] == '-' ? tok + 1 : tok;
    int ok = *d != '\0';
    for (const char *c = d; ok && *c != '\0'; c++)
        ok = *c >= '0' && *c <= '9';
    if (!ok)
        return rs_err_set(err, RS_EPARSE, "%s:%llu: expected a destination terminal 0..%u, got '%.*s'",
                          r->path, ln, r->n - 1, width, tok);
    errno = 0;
    long long v = strtoll(tok, NULL, 10);
    if (errno == ERANGE || v < 0 || v >= (long long)r->n)
        return rs_err_set(err, RS_ECONSTRAINT, "%s:%llu: destination %.*s out of range 0..%u",
                          r->path, ln, width, tok, r->n - 1);
    uint32_t dest = (uint32_t)v;
    if (r->check) {
        if (r->q == 1) {
            if (r->seen[dest] != 0)
                return rs_err_set(err, RS_ECONSTRAINT,
                                  "%s:%llu: destination %u repeated (first at line %llu)",
                                  r->path, ln, dest, (unsigned long long)r->seen[dest]);
            r->seen[dest] = line;
        } else {
            if (r->seen[dest] == r->q)
                return rs_err_set(err, RS_ECONSTRAINT,
                                  "%s:%llu: destination %u appears more than per_input=%u times",
                                  r->path, ln, dest, r->q);
            r->seen[dest]++;
        }
    }
    dst[r->count++] = dest;
    return 0;
}

/* Read every line with content of the open file into dst. */
static int read_lines(struct reader *r, struct rs__lines *in, uint32_t *dst, struct rs_err *err)
{
    char *text;
    int rc;
    while ((rc = rs__lines_next(in, &text, err)) == 1)
        if ((rc = take(r, text, in->line, dst, err)) != 0)
            return rc;
    if (rc == 0 && r->count < r->total)
        rc = rs_err_set(err, RS_ECONSTRAINT,
                        "%s: has %llu destinations, expected %llu (N=%u x per_input=%u)", r->path,
                        (unsigned long long)r->count, (unsigned long long)r->total, r->n, r->q);
    return rc;
}

/* file: dst[m] = the m-th destination of traffic_file (blank lines and lines whose first
 * non-blank character is '#' skipped). With file_kind=permutation every terminal must
 * appear exactly per_input times. Errors: RS_EINVAL without traffic_file, RS_EIO when
 * it cannot be opened or read, RS_EPARSE for a line that is not an integer,
 * RS_ECONSTRAINT for a destination out of range, too few or too many lines, or a
 * destination repeated too often. */
static int file_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                         uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    const char *path = rs_params_text(p, &file_options[0]);
    if (path == NULL || path[0] == '\0')
        return rs_err_set(err, RS_EINVAL, "traffic=file needs traffic_file=PATH");
    int rc = rs_opt_string(p, file_options, "traffic_file", &path, err);
    if (rc != 0)
        return rc;
    int kind = KIND_PERMUTATION;
    rc = rs_opt_choice(p, file_options, "file_kind", &kind, err);
    if (rc != 0)
        return rc;

    struct reader r = {
        .path = path,
        .n = net->n_terminals,
        .q = per_input,
        .total = (uint64_t)net->n_terminals * per_input,
        .check = kind == KIND_PERMUTATION,
    };
    if (r.check) {
        r.seen = rs_calloc(r.n, sizeof *r.seen);
        if (r.seen == NULL)
            return rs_err_set(err, RS_ENOMEM, "traffic=file: out of memory for N=%u", r.n);
    }
    struct rs__lines in;
    if ((rc = rs__lines_open(&in, path, err)) == 0)
        rc = read_lines(&r, &in, dst, err);
    rs__lines_close(&in);
    rs_free(r.seen);
    return rc;
}

const struct rs_traffic_ops rs__traffic_file = {
    .name = "file",
    .summary = "destinations read from traffic_file, one per line in message order",
    .options = file_options,
    .generate = file_generate,
};
