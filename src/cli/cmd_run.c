/* `routesim run` (simulate one parameter set; a progress line on stderr when it is a
 * terminal, unless --quiet) and `routesim analyze` (congestion, dilation and per-level load
 * without simulating); both can save the workload they built (--save-traffic FILE) as a
 * traffic_file; run can also write the per-packet event log (--events FILE, cmd_events.c). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "routesim/events.h"
#include "routesim/metrics.h"
#include "routesim/net.h"
#include "routesim/run.h"

/* --trace: refuse standard output (it carries the result) and, before anything runs, a
 * network of more than --trace-limit nodes (default 500); build the network into net. */
static int trace_prepare(const struct cli_args *a, struct rs_net *net, struct rs_err *err)
{
    if (!strcmp(a->trace, "-"))
        return rs_err_set(err, RS_EINVAL,
                          "command line: --trace -: the browser view is a file (give "
                          "--trace FILE.html)");
    uint64_t limit = 500;
    if (a->trace_limit) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(a->trace_limit, &end, 10);
        if (errno || *end || end == a->trace_limit || a->trace_limit[0] == '-' || v == 0 ||
            v > UINT32_MAX)
            return rs_err_set(err, RS_EINVAL,
                              "command line: --trace-limit: expected a number of nodes in "
                              "[1, 4294967295], got '%s'",
                              a->trace_limit);
        limit = v;
    }
    int rc = rs_net_build(net, &a->params, err);
    return rc ? rc : cli_trace_check(net, limit, err);
}

static int run_or_analyze(int argc, char **argv, int simulate)
{
    struct cli_args a;
    struct rs_err err;
    struct rs_record rec;
    char deadlock[2048] = "";
    int status = 0;
    rs_err_clear(&err);
    rs_record_init(&rec);
    int rc = cli_parse(argc, argv,
                       CLI_CONFIG | CLI_FORMAT | CLI_OUTPUT | CLI_SAVE_TRAFFIC |
                           (simulate ? CLI_QUIET | CLI_EVENTS | CLI_EVENTS_MAX |
                                           CLI_EVENTS_PACKETS | CLI_EVENTS_NODES |
                                           CLI_EVENTS_STEPS | CLI_TRACE | CLI_TRACE_LIMIT
                                     : 0u),
                       0,
                       &a, &err);
    struct cli_run_progress pr;
    cli_run_progress_init(&pr);
    int show = simulate && !a.quiet && isatty(2);
    struct rs_events *ev = NULL;
    struct rs_run_progress follow = {show ? cli_run_progress : NULL, &pr, 16, /* a clock read
                                                                                per 16 steps */
                                     NULL};
    struct rs_named_path out[4] = {{"-o", a.output},
                                   {"--save-traffic", a.save_traffic},
                                   {"--events", a.events},
                                   {"--trace", a.trace}};
    struct rs_net net = {0}; /* --trace: the network drawn, its size checked before the run */
    if (!rc)
        rc = cli_check_outputs(&a, out, 4, &err);
    if (!rc && a.trace)
        rc = trace_prepare(&a, &net, &err);
    if (!rc)
        rc = cli_events_open(&a, &ev, &err);
    follow.events = ev;
    if (!rc)
        rc = simulate ? rs_run_followed(&a.params, show || ev ? &follow : NULL, &rec, deadlock,
                                        sizeof deadlock, &err)
                      : rs_analyze(&a.params, &rec, &err);
    cli_run_progress_end(&pr);
    if (!rc && a.events) /* before the record: a log that cannot be written fails the run */
        rc = cli_events_write(&a, ev, &err);
    if (!rc && a.trace)
        rc = cli_trace_html(&net, ev, &rec, deadlock, NULL, 0, a.trace, &err);
    rs_events_free(ev);
    rs_net_free(&net);
    if (!rc && a.save_traffic) /* after the run: its errors come first, as for -o */
        rc = rs_traffic_save(&a.params, simulate, a.save_traffic, &err);
    if (rc) {
        status = cli_fail(&err);
    } else {
        status = cli_emit(&a, &rec, 1);
        const struct rs_field *d = rs_record_get(&rec, rs_metric_defs[RS_M_DEADLOCK].name);
        if (!status && d && d->i) {
            fprintf(stderr, "routesim: %s\n", deadlock[0] ? deadlock : "deadlock");
            status = 1;
        }
    }
    rs_record_free(&rec);
    cli_args_free(&a);
    return status;
}

int cli_cmd_run(int argc, char **argv)
{
    return run_or_analyze(argc, argv, 1);
}

int cli_cmd_analyze(int argc, char **argv)
{
    return run_or_analyze(argc, argv, 0);
}
