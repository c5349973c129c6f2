/* `routesim run` (simulate one parameter set; a progress line on stderr when it is a
 * terminal, unless --quiet; --svg/--png draw the network with a deadlock's waiting cycle
 * marked) and `routesim analyze` (congestion, dilation and per-level load without
 * simulating); both can save the workload they built (--save-traffic FILE) as a
 * traffic_file. */
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "routesim/alloc.h"
#include "routesim/deadlock.h"
#include "routesim/metrics.h"
#include "routesim/net.h"
#include "routesim/run.h"

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

static int run_or_analyze(int argc, char **argv, int simulate)
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
                           (simulate ? CLI_QUIET | CLI_SVG | CLI_PNG : 0u),
                       0,
                       &a, &err);
    struct cli_run_progress pr;
    cli_run_progress_init(&pr);
    struct rs_run_progress follow = {cli_run_progress, &pr, 16}; /* a clock read per 16 steps */
    int show = simulate && !a.quiet && isatty(2);
    int drawing = a.svg || a.png;
    struct rs_named_path out[4] = {{"-o", a.output}, {"--save-traffic", a.save_traffic},
                                   {"--svg", a.svg}, {"--png", a.png}};
    if (!rc)
        rc = cli_check_outputs(&a, out, 4, &err);
    if (!rc && drawing && !(rc = rs_check(&a.params, &err)) && /* the picture's size first */
        !(rc = rs_net_build(&net, &a.params, &err)))
        rc = cli_picture_check(&net, CLI_RUN_PICTURE_LIMIT, &err);
    if (!rc)
        rc = simulate ? rs_run_traced(&a.params, show ? &follow : NULL, &rec, deadlock,
                                      sizeof deadlock, drawing ? &cycle : NULL, &err)
                      : rs_analyze(&a.params, &rec, &err);
    cli_run_progress_end(&pr);
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

int cli_cmd_run(int argc, char **argv)
{
    return run_or_analyze(argc, argv, 1);
}

int cli_cmd_analyze(int argc, char **argv)
{
    return run_or_analyze(argc, argv, 0);
}
