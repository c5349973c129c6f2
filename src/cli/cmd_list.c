/* `routesim list [metrics|keys]`: every registered topology, routing function, workload, engine
 * and algorithm with its options, the options of a run and every metric, generated from the
 * modules' option tables, registries and the metrics table; `list metrics` prints the
 * metrics only, `list keys` every key's name once (`routesim help KEY` describes it). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "routesim/algo.h"
#include "routesim/engine.h"
#include "routesim/metrics.h"
#include "routesim/net.h"
#include "routesim/problem.h"
#include "routesim/route.h"
#include "routesim/run.h"

static int print_key_name(void *ctx, const char *key)
{
    return rs_buf_printf(ctx, "%s\n", key);
}

static int list_section(struct rs_buf *out, const char *title, const char *key)
{
    return rs_buf_printf(out, "%s (%s=NAME)\n", title, key);
}

static int list_entry(struct rs_buf *out, const char *name, const char *summary,
                      const struct rs_optdef *options)
{
    int rc = rs_buf_printf(out, "  %-16s %s\n", name, summary ? summary : "");
    if (!rc && options && options[0].name)
        rc = rs_optdef_format(out, options, 6);
    return rc;
}

int cli_cmd_list(int argc, char **argv)
{
    struct cli_args a;
    struct rs_err err;
    struct rs_buf out;
    int rc;
    rs_err_clear(&err);
    rs_buf_init(&out);
    if ((rc = cli_parse(argc, argv, 0, 1, &a, &err))) {
        cli_args_free(&a);
        return cli_fail(&err);
    }
    if (a.positional) { /* the topics: metrics, keys (every key's name, help_keys.c) */
        static const char *const topics[] = {"metrics", "keys"};
        if (strcmp(a.positional, "metrics") && strcmp(a.positional, "keys")) {
            const char *near = rs_suggest(a.positional, topics, 2);
            rs_err_set(&err, RS_EUNKNOWN, "unknown list '%s'%s%s%s", a.positional,
                       near ? " (did you mean '" : " (expected metrics, keys or nothing)",
                       near ? near : "", near ? "'?)" : "");
            cli_args_free(&a);
            return cli_fail(&err);
        }
        rc = strcmp(a.positional, "keys") ? rs_metric_format_list(&out)
                                          : cli_keys_each(print_key_name, &out);
        rc = rc ? rs_err_set(&err, rc, "out of memory") : rs_buf_write_file(&out, NULL, &err);
        rs_buf_free(&out);
        cli_args_free(&a);
        return rc ? cli_fail(&err) : 0;
    }
    rc = list_section(&out, "topologies", "topology");
    for (int i = 0; !rc && rs_topologies[i]; i++)
        rc = list_entry(&out, rs_topologies[i]->name, rs_topologies[i]->summary,
                        rs_topologies[i]->options);
    rc = rc ? rc : rs_buf_puts(&out, "\n");
    rc = rc ? rc : list_section(&out, "routing functions", "routing");
    for (int i = 0; !rc && rs_routings[i]; i++)
        rc = list_entry(&out, rs_routings[i]->name, rs_routings[i]->summary, NULL);
    rc = rc ? rc : rs_buf_puts(&out, "\n");
    rc = rc ? rc : list_section(&out, "workloads", "traffic");
    for (int i = 0; !rc && rs_traffics[i]; i++)
        rc = list_entry(&out, rs_traffics[i]->name, rs_traffics[i]->summary,
                        rs_traffics[i]->options);
    rc = rc ? rc : rs_buf_puts(&out, "\n");
    rc = rc ? rc : list_section(&out, "switching models", "switching");
    for (int i = 0; !rc && rs_engines[i]; i++)
        rc = list_entry(&out, rs_engines[i]->name, rs_engines[i]->summary,
                        rs_engines[i]->options);
    rc = rc ? rc : rs_buf_puts(&out, "\n");
    rc = rc ? rc : list_section(&out, "algorithms", "algorithm");
    for (int i = 0; !rc && rs_algos[i]; i++)
        rc = list_entry(&out, rs_algos[i]->name, rs_algos[i]->summary, rs_algos[i]->options);
    rc = rc ? rc : rs_buf_puts(&out, "\nevery run\n");
    rc = rc ? rc : rs_optdef_format(&out, rs_net_options, 2);
    rc = rc ? rc : rs_optdef_format(&out, rs_problem_options, 2);
    rc = rc ? rc : rs_optdef_format(&out, rs_run_options, 2);
    rc = rc ? rc : rs_buf_puts(&out, "\npredictors (run and analyze)\n");
    rc = rc ? rc : rs_optdef_format(&out, rs_predict_options, 2);
    rc = rc ? rc : rs_buf_puts(&out, "\n");
    rc = rc ? rc : rs_metric_format_list(&out);
    if (!rc)
        rc = rs_buf_write_file(&out, NULL, &err);
    else
        rs_err_set(&err, rc, "out of memory");
    rs_buf_free(&out);
    cli_args_free(&a);
    return rc ? cli_fail(&err) : 0;
}
