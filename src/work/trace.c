/* traffic=trace: the streaming reader of trace files (include/routesim/trace.h) and the
 * registry entry. The packets themselves are injected by openloop.c; the message set of
 * the traffic is only a placeholder (every terminal's template sends to itself), since a
 * trace is open-loop by nature and a batch run refuses it. */
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/line_reader.h"
#include "routesim/openloop.h"
#include "routesim/problem.h"
#include "routesim/trace.h"

static const struct rs_optdef trace_options[] = {
    {"trace_file", RS_OPT_STRING, NULL, 0, 0, NULL,
     "trace: file of `cycle source destination size` lines, sorted by cycle (open loop; "
     "docs/workloads.md)", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL},
};

struct rs_trace {
    struct rs__lines lines;
    uint32_t n;
    uint32_t last_cycle; /* of the last line read, and that line's number */
    uint64_t last_line;
};

int rs_trace_open(struct rs_trace **out, const char *path, uint32_t n, struct rs_err *err)
{
    struct rs_trace *tr = rs_calloc(1, sizeof *tr);
    int rc;
    *out = NULL;
    if (!tr)
        return rs_err_set(err, RS_ENOMEM, "out of memory for a trace reader");
    tr->n = n;
    if ((rc = rs__lines_open(&tr->lines, path, err))) {
        rs__lines_close(&tr->lines);
        rs_free(tr);
        return rc;
    }
    *out = tr;
    return 0;
}

void rs_trace_close(struct rs_trace *tr)
{
    if (!tr)
        return;
    rs__lines_close(&tr->lines);
    rs_free(tr);
}

/* Field i of a line (names for messages) with its range. */
static const char *const field_names[] = {"cycle", "source", "destination", "size"};

int rs_trace_read(struct rs_trace *tr, struct rs_trace_rec *rec, struct rs_err *err)
{
    char *text;
    int rc = rs__lines_next(&tr->lines, &text, err);
    if (rc <= 0)
        return rc;
    const char *path = tr->lines.path;
    unsigned long long ln = (unsigned long long)tr->lines.line;
    uint64_t lo[4] = {1, 0, 0, 1};
    uint64_t hi[4] = {UINT32_MAX - 1, tr->n - 1, tr->n - 1, RS_TRACE_MAX_SIZE};
    uint32_t v[4];
    for (int i = 0; i < 4; i++) {
        uint64_t x = 0;
        const char *tok;
        int len, got = rs__parse_uint(&text, UINT64_MAX >> 1, &x, &tok, &len);
        if (got == 0 && len == 0)
            return rs_err_set(err, RS_EPARSE,
                              "%s:%llu: expected 4 fields `cycle source destination size`, "
                              "got %d",
                              path, ln, i);
        if (got < 0)
            x = UINT64_MAX; /* too large for any field: the range message below */
        else if (got == 0)
            return rs_err_set(err, RS_EPARSE, "%s:%llu: %s: expected an unsigned integer, "
                              "got '%.*s'", path, ln, field_names[i], len, tok);
        if (x < lo[i] || x > hi[i])
            return rs_err_set(err, RS_ECONSTRAINT, "%s:%llu: %s %.*s out of range %llu..%llu",
                              path, ln, field_names[i], len, tok, (unsigned long long)lo[i],
                              (unsigned long long)hi[i]);
        v[i] = (uint32_t)x;
    }
    while (rs__is_sep(*text))
        text++;
    if (*text)
        return rs_err_set(err, RS_EPARSE,
                          "%s:%llu: expected 4 fields `cycle source destination size`, got "
                          "more ('%.20s')",
                          path, ln, text);
    if (v[0] < tr->last_cycle)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "%s:%llu: cycle %u comes after cycle %u (line %llu): a trace must be "
                          "sorted by cycle (sort -s -n -k1,1)",
                          path, ln, v[0], tr->last_cycle, (unsigned long long)tr->last_line);
    tr->last_cycle = v[0];
    tr->last_line = ln;
    rec->cycle = v[0];
    rec->src = v[1];
    rec->dst = v[2];
    rec->size = v[3];
    return 1;
}

int rs_trace_scan(const char *path, uint32_t n, struct rs_trace_stats *st, struct rs_err *err)
{
    struct rs_trace *tr;
    struct rs_trace_rec r;
    int rc;
    memset(st, 0, sizeof *st);
    if ((rc = rs_trace_open(&tr, path, n, err)))
        return rc;
    while ((rc = rs_trace_read(tr, &r, err)) == 1) {
        if (!st->packets++) {
            st->first_cycle = r.cycle;
            st->size_min = st->size_max = r.size;
        }
        st->flits += r.size;
        st->last_cycle = r.cycle;
        st->size_min = r.size < st->size_min ? r.size : st->size_min;
        st->size_max = r.size > st->size_max ? r.size : st->size_max;
    }
    rs_trace_close(tr);
    if (!rc && !st->packets)
        rc = rs_err_set(err, RS_ECONSTRAINT, "%s: no packets (a trace needs at least one "
                        "`cycle source destination size` line)", path);
    return rc;
}

/* The placeholder templates: every message of s to s; batch runs are refused. */
static int trace_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                          uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    enum rs_injection inj = RS_INJECT_BATCH;
    int rc;
    (void)seed;
    if (rs_params_find(p, "injection_process") && (rc = rs_openloop_process(p, &inj, err)))
        return rc;
    if (inj == RS_INJECT_BATCH)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "traffic=trace injects open loop: it needs "
                          "injection_process=bernoulli (the trace gives the arrivals)");
    for (uint64_t m = 0; m < (uint64_t)net->n_terminals * per_input; m++)
        dst[m] = (uint32_t)(m / per_input);
    return 0;
}

const struct rs_traffic_ops rs__traffic_trace = {
    .name = "trace",
    .summary = "open loop: the packets of trace_file (`cycle source destination size` lines)",
    .options = trace_options,
    .generate = trace_generate,
};
