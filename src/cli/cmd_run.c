/* `routesim run` (simulate one parameter set; a progress line on stderr when it is a
 * terminal, unless --quiet; --svg/--png draw the network with a deadlock's waiting cycle
 * marked; --events FILE writes the per-packet event log (cmd_events.c) and --trace F.html
 * the browser view of the run (trace_html.c)) and `routesim analyze` (congestion, dilation
 * and per-level load without simulating); both can save the workload they built
 * (--save-traffic FILE) as a traffic_file. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "mpi/rs_mpi.h"
#include "routesim/alloc.h"
#include "routesim/deadlock.h"
#include "routesim/events.h"
#include "routesim/metrics.h"
#include "routesim/net.h"
#include "routesim/run.h"

/* --trace: refuse standard output (it carries the result) and, before anything runs, a
 * network (net, built) of more than --trace-limit nodes (default 500). */
static int trace_check(const struct cli_args *a, const struct rs_net *net, struct rs_err *err)
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
    return cli_trace_check(net, limit, err);
}

/* Draw net into a->svg and a->png with the channels of cycle marked (none: the network
 * plain). Returns 0 or RS_E... with err set. */
static int draw_run(const struct cli_args *a, const struct rs_net *net,
                    const struct rs_deadlock *cycle, struct rs_err *err)
{
    uint64_t *marked = NULL;
    if (cycle->n && !(marked = rs_malloc(cycle->n * sizeof *marked)))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the picture");
    for (uint32_t i = 0; i < cycle->n; i++)
        marked[i] = (uint64_t)cycle->chan[i].node * net->max_ports + cycle->chan[i].port;
    int rc = 0;
    if (a->svg)
        rc = cli_picture_marked(net, a->svg, "svg", CLI_RUN_PICTURE_LIMIT, marked, cycle->n,
                                err);
    if (!rc && a->png)
        rc = cli_picture_marked(net, a->png, "png", CLI_RUN_PICTURE_LIMIT, marked, cycle->n,
                                err);
    rs_free(marked);
    return rc;
}

/* Write the browser view: the cycle's channels as (tail node, head node) pairs. */
static int write_trace(const struct cli_args *a, const struct rs_net *net,
                       const struct rs_events *ev, const struct rs_record *rec,
                       const char *deadlock, const struct rs_deadlock *cycle, struct rs_err *err)
{
    uint32_t(*pairs)[2] = NULL;
    size_t n = 0;
    if (cycle->n && !(pairs = rs_malloc(cycle->n * sizeof *pairs)))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the browser view");
    for (uint32_t i = 0; i < cycle->n; i++) {
        uint32_t head = net->ops->neighbor(net, cycle->chan[i].node, cycle->chan[i].port, NULL);
        if (head == RS_NONE)
            continue;
        pairs[n][0] = cycle->chan[i].node;
        pairs[n][1] = head;
        n++;
    }
    int rc = cli_trace_html(net, ev, rec, deadlock, (const uint32_t(*)[2])pairs, n, a->trace,
                            err);
    rs_free(pairs);
    return rc;
}

/* Under mpirun -np P > 1 (xc): what the partitioned run does not support yet, refused by
 * name (every rank refuses the same; rank 0 prints). */
static int partition_check(const struct cli_args *a, const struct rs_exchange *xc,
                           struct rs_err *err)
{
    const char *no = a->events ? "--events" : a->trace ? "--trace" : a->svg ? "--svg"
                   : a->png ? "--png" : a->save_traffic ? "--save-traffic" : NULL;
    if (no)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "command line: %s is not supported when a run is partitioned over "
                          "MPI ranks: run it without mpirun -np %d",
                          no, xc->size);
    return 0;
}

static int run_or_analyze(int argc, char **argv, int simulate, const struct rs_exchange *xc)
{
    struct cli_args a;
    struct rs_err err;
    struct rs_record rec;
    struct rs_deadlock cycle;
    struct rs_net net = {0};
    char deadlock[2048] = "";
    int status = 0;
    rs_err_clear(&err);
    rs_record_init(&rec);
    rs_deadlock_init(&cycle);
    int rc = cli_parse(argc, argv,
                       CLI_CONFIG | CLI_FORMAT | CLI_DIGITS | CLI_OUTPUT | CLI_SAVE_TRAFFIC |
                           (simulate ? CLI_QUIET | CLI_SVG | CLI_PNG | CLI_EVENTS |
                                           CLI_EVENTS_MAX | CLI_EVENTS_PACKETS |
                                           CLI_EVENTS_NODES | CLI_EVENTS_STEPS | CLI_TRACE |
                                           CLI_TRACE_LIMIT
                                     : 0u),
                       0,
                       &a, &err);
    struct cli_run_progress pr;
    cli_run_progress_init(&pr);
    int show = simulate && !a.quiet && isatty(2);
    struct rs_events *ev = NULL;
    struct rs_run_progress follow = {show ? cli_run_progress : NULL, &pr, 16, /* a clock read
                                                                                per 16 steps */
                                     NULL, xc};
    int drawing = a.svg || a.png, with_net = drawing || a.trace;
    struct rs_named_path out[6] = {{"-o", a.output},         {"--save-traffic", a.save_traffic},
                                   {"--svg", a.svg},         {"--png", a.png},
                                   {"--events", a.events},   {"--trace", a.trace}};
    if (!rc && xc)
        rc = partition_check(&a, xc, &err);
    if (!rc && xc && xc->rank > 0) /* rank 0 writes the result */
        a.output = NULL;
    if (!rc)
        rc = cli_check_outputs(&a, out, 6, &err);
    if (!rc && with_net && !(rc = rs_check(&a.params, &err)) && /* the pictures' size first */
        !(rc = rs_net_build(&net, &a.params, &err))) {
        if (drawing)
            rc = cli_picture_check(&net, CLI_RUN_PICTURE_LIMIT, &err);
        if (!rc && a.trace)
            rc = trace_check(&a, &net, &err);
    }
    if (!rc)
        rc = cli_events_open(&a, &ev, &err);
    follow.events = ev;
    if (!rc)
        rc = simulate ? rs_run_traced(&a.params, show || ev || xc ? &follow : NULL, &rec, deadlock,
                                      sizeof deadlock, with_net ? &cycle : NULL, &err)
                      : rs_analyze(&a.params, &rec, &err);
    cli_run_progress_end(&pr);
    if (!rc && a.events) /* before the record: a log that cannot be written fails the run */
        rc = cli_events_write(&a, ev, &err);
    if (!rc && a.trace)
        rc = write_trace(&a, &net, ev, &rec, deadlock, &cycle, &err);
    rs_events_free(ev);
    if (!rc && a.save_traffic) /* after the run: its errors come first, as for -o */
        rc = rs_traffic_save(&a.params, simulate, a.save_traffic, &err);
    if (!rc && drawing)
        rc = draw_run(&a, &net, &cycle, &err);
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
    rs_deadlock_free(&cycle);
    rs_net_free(&net);
    rs_record_free(&rec);
    cli_args_free(&a);
    return status;
}

/* `run` under mpirun -np P > 1: every rank runs the same command on one network
 * partitioned over the ranks (circuit, the leveled store-and-forward kernel, the flit
 * engine with router=simple; the others refused by rs_run_traced);
 * rank 0 prints, the other ranks' output goes to /dev/null (they meet the same errors). */
int cli_cmd_run(int argc, char **argv)
{
    struct rs_mpi m;
    struct rs_exchange x;
    struct rs_err err;
    rs_err_clear(&err);
    if (rs_mpi_start(&m, &argc, &argv, &err)) {
        int status = m.rank == 0 ? cli_fail(&err) : 2;
        rs_mpi_finish(&m);
        return status;
    }
    const struct rs_exchange *xc = rs_mpi_exchange(&m, &x);
    if (xc && xc->rank > 0 &&
        (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))) {
        rs_mpi_finish(&m);
        return 1;
    }
    int status = run_or_analyze(argc, argv, 1, xc);
    rs_mpi_finish(&m);
    return status;
}

int cli_cmd_analyze(int argc, char **argv)
{
    return run_or_analyze(argc, argv, 0, NULL);
}
