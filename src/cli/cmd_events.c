/* The event log on the command line (docs/events.md): `run`'s --events options turned into
 * a log and written after the run, and `routesim events FILE.bin [-o FILE]`, which prints a
 * binary log as CSV. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "routesim/events.h"

/* 1 when path names a binary log: it ends in ".bin". */
static int is_binary(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && !strcmp(path + n - 4, ".bin");
}

int cli_events_open(const struct cli_args *a, struct rs_events **ev, struct rs_err *err)
{
    *ev = NULL;
    const char *opt[4] = {a->events_max, a->events_packets, a->events_nodes, a->events_steps};
    static const char *const names[4] = {"--events-max", "--events-packets", "--events-nodes",
                                         "--events-steps"};
    if (!a->events && !a->trace) {
        for (int i = 0; i < 4; i++)
            if (opt[i])
                return rs_err_set(err, RS_EPARSE, "command line: %s needs --events FILE",
                                  names[i]);
        return 0;
    }
    if (a->events && !strcmp(a->events, "-") && (!a->output || !strcmp(a->output, "-")))
        return rs_err_set(err, RS_EINVAL,
                          "command line: --events -: standard output carries the run's "
                          "result (give -o FILE, or --events FILE)");
    uint64_t max = 0;
    if (a->events_max) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(a->events_max, &end, 10);
        if (errno || *end || end == a->events_max || a->events_max[0] == '-' || v == 0 ||
            v > RS_EVENTS_MAX_LIMIT)
            return rs_err_set(err, RS_EINVAL,
                              "command line: --events-max: expected a number of records in "
                              "[1, %" PRIu64 "], got '%s'",
                              RS_EVENTS_MAX_LIMIT, a->events_max);
        max = v;
    }
    int rc = rs_events_new(ev, max, err);
    for (int i = 1; i < 4 && !rc; i++)
        if (opt[i])
            rc = rs_events_filter(*ev, (enum rs_events_filter)(i - 1), opt[i], err);
    if (rc) {
        rs_events_free(*ev);
        *ev = NULL;
    }
    return rc;
}

int cli_events_write(const struct cli_args *a, const struct rs_events *ev, struct rs_err *err)
{
    int rc = rs_events_write(ev, a->events, is_binary(a->events), err);
    if (!rc && rs_events_truncated(ev)) {
        char text[256];
        snprintf(text, sizeof text,
                 "warning: event log truncated after %" PRIu64
                 " records (--events-max); its last record is 'truncated'",
                 rs_events_count(ev) - 1);
        cli_notice(text);
    }
    return rc;
}

/* Read the whole file path into b. Returns 0 or RS_EIO "cannot read 'PATH': REASON". */
static int read_all(const char *path, struct rs_buf *b, struct rs_err *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return rs_err_set(err, RS_EIO, "cannot read '%s': %s", path, strerror(errno));
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
        if (rs_buf_append(b, chunk, n))
            break;
    int bad = ferror(fp);
    fclose(fp);
    if (b->failed)
        return rs_err_set(err, RS_ENOMEM, "cannot read '%s': out of memory", path);
    if (bad)
        return rs_err_set(err, RS_EIO, "cannot read '%s': read error", path);
    return 0;
}

int cli_cmd_events(int argc, char **argv)
{
    struct cli_args a;
    struct rs_err err;
    struct rs_buf in, out;
    rs_err_clear(&err);
    rs_buf_init(&in);
    rs_buf_init(&out);
    int rc = cli_parse(argc, argv, CLI_OUTPUT, 1, &a, &err);
    if (!rc && (!a.positional || a.params.n))
        rc = rs_err_set(&err, RS_EPARSE, "command line: events needs one FILE.bin (and no "
                        "KEY=VALUE)");
    struct rs_named_path outs[1] = {{"-o", a.output}};
    struct rs_named_path ins[1] = {{"FILE", a.positional}};
    if (!rc)
        rc = rs_out_check(a.output ? a.output : "-", &err);
    if (!rc)
        rc = rs_out_check_distinct(outs, 1, ins, 1, &err);
    if (!rc)
        rc = read_all(a.positional, &in, &err);
    if (!rc)
        rc = rs_events_bin_to_csv(in.data ? in.data : "", in.len, a.positional, &out, &err);
    if (!rc)
        rc = rs_buf_write_file(&out, a.output, &err);
    int status = rc ? cli_fail(&err) : 0;
    rs_buf_free(&in);
    rs_buf_free(&out);
    cli_args_free(&a);
    return status;
}
