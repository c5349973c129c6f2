/* `routesim help [TOPIC] [--man]`: usage, or the help of one command, key (`help N`),
 * metric, topology, workload, engine, algorithm, routing function, of the claim kinds
 * (`help claims`) or of the keys' units (`help units`), generated from the same option tables that
 * validate parameters; with --man the man page (help_man.c). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "routesim/algo.h"
#include "routesim/claims.h"
#include "routesim/engine.h"
#include "routesim/metrics.h"
#include "routesim/net.h"
#include "routesim/problem.h"
#include "routesim/route.h"
#include "routesim/run.h"
#include "routesim/saturate.h"

static int usage(struct rs_buf *out)
{
    int rc = rs_buf_puts(out, "usage: routesim COMMAND [KEY=VALUE...] [options]\n\ncommands:\n");
    for (int i = 0; !rc && cli_commands[i].name; i++) {
        rc = rs_buf_printf(out, "  %s ", cli_commands[i].name);
        rc = rc ? rc : cli_usage(out, &cli_commands[i]);
        rc = rc ? rc : rs_buf_printf(out, "\n      %s\n", cli_commands[i].summary);
    }
    rc = rc ? rc : rs_buf_puts(out, "\noptions (`routesim COMMAND --help` shows a command's):\n");
    rc = rc ? rc : cli_flags_help(out, ~0u, 0);
    if (!rc)
        rc = rs_buf_puts(out,
                         "\n`routesim list` shows every topology, workload, switching model and "
                         "algorithm with its keys, and every metric;\n`routesim help NAME` "
                         "shows one of them, one key or one metric; `routesim list keys` "
                         "every key; `routesim help units`\nthe units of the keys' values; "
                         "`routesim help claims` the kinds of claim of a reproduction;\n"
                         "`routesim list metrics` every metric with its unit and meaning.\n"
                         "Documentation: man routesim, README.md and docs/.\n");
    return rc;
}

/* The help of command c: usage, summary, its options. */
static int command_help(struct rs_buf *out, const struct cli_command *c)
{
    int rc = rs_buf_printf(out, "usage: routesim %s ", c->name);
    rc = rc ? rc : cli_usage(out, c);
    rc = rc ? rc : rs_buf_printf(out, "\n  %s\n", c->summary);
    if (!rc && c->flags) {
        rc = rs_buf_puts(out, "\noptions:\n");
        rc = rc ? rc : cli_flags_help(out, c->flags, 0);
    }
    if (!rc && (c->flags & CLI_CONFIG))
        rc = rs_buf_puts(out, "\nkeys: `routesim list` (by module), `routesim help KEY` (one "
                              "key), man routesim (all)\n");
    return rc;
}

int cli_command_help(const struct cli_command *c)
{
    struct rs_buf out;
    struct rs_err err;
    rs_err_clear(&err);
    rs_buf_init(&out);
    int rc = command_help(&out, c);
    if (rc)
        rs_err_set(&err, RS_ENOMEM, "out of memory");
    else
        rc = rs_buf_write_file(&out, NULL, &err);
    rs_buf_free(&out);
    return rc ? cli_fail(&err) : 0;
}

/* routing=NAME: its summary, the topologies it runs on, whether it is adaptive and whether
 * it runs open loop, then its keys (routing=updown's root). */
static int routing_help(struct rs_buf *out, const struct rs_routing_ops *r)
{
    char on[256] = "every topology";
    if (r->needs)
        rs_topo_names_with(r->needs, on, sizeof on);
    else if (r->check) /* a per-instance refusal, no capability to name */
        snprintf(on, sizeof on, "the networks its summary names (refused on others)");
    const char *open = "yes";
    if (r->mid && !r->mid_openloop)
        open = r->no_openloop ? r->no_openloop : "no";
    return rs_buf_printf(out,
                         "routing=%s: %s\n  runs on: %s\n  paths: %s\n  open loop: %s\n",
                         r->name, r->summary, on,
                         rs_route_is_adaptive(r) ? "adaptive (chosen per hop from the "
                                                   "start-of-step state; wormhole and "
                                                   "virtual_cut_through only)"
                         : r->mid       ? "oblivious, through a random intermediate terminal"
                         : r->next_port ? "oblivious (its own route, fixed before the packet "
                                          "moves)"
                                        : "oblivious (the topology's own route)",
                         open) ||
           rs_optdef_format(out, r->options, 2);
}

struct name_list {
    const char *v[1024];
    int n;
};

static int add_name(void *ctx, const char *name)
{
    struct name_list *l = ctx;
    if (l->n < (int)(sizeof l->v / sizeof *l->v))
        l->v[l->n++] = name;
    return 0;
}

/* The help of a module, routing function, command, "claims", "metrics" or a metric named
 * name; when nothing has that name: 0 with nothing appended when is_key (the caller adds
 * the key's help), else RS_EUNKNOWN naming the nearest name (of every kind, keys too). */
static int named_topic(struct rs_buf *out, const char *name, int is_key, struct rs_err *err)
{
    struct name_list list;
    const char **names = list.v;
    int n = 0;
    for (int i = 0; rs_topologies[i]; i++) {
        names[n++] = rs_topologies[i]->name;
        if (!strcmp(name, rs_topologies[i]->name))
            return rs_buf_printf(out, "topology=%s: %s\n", name, rs_topologies[i]->summary) ||
                   rs_optdef_format(out, rs_topologies[i]->options, 2);
    }
    for (int i = 0; rs_traffics[i]; i++) {
        names[n++] = rs_traffics[i]->name;
        if (!strcmp(name, rs_traffics[i]->name))
            return rs_buf_printf(out, "traffic=%s: %s\n", name, rs_traffics[i]->summary) ||
                   rs_optdef_format(out, rs_traffics[i]->options, 2) ||
                   rs_optdef_format(out, rs_problem_options, 2);
    }
    for (int i = 0; rs_engines[i]; i++) {
        names[n++] = rs_engines[i]->name;
        if (!strcmp(name, rs_engines[i]->name))
            return rs_buf_printf(out, "switching=%s: %s\n", name, rs_engines[i]->summary) ||
                   rs_optdef_format(out, rs_engines[i]->options, 2);
    }
    for (int i = 0; rs_algos[i]; i++) {
        names[n++] = rs_algos[i]->name;
        if (!strcmp(name, rs_algos[i]->name))
            return rs_buf_printf(out, "algorithm=%s: %s\n", name, rs_algos[i]->summary) ||
                   rs_optdef_format(out, rs_algos[i]->options, 2);
    }
    for (int i = 0; rs_routings[i]; i++) {
        names[n++] = rs_routings[i]->name;
        if (!strcmp(name, rs_routings[i]->name))
            return routing_help(out, rs_routings[i]);
    }
    names[n++] = "claims";
    if (!strcmp(name, "claims"))
        return rs_claim_help(out);
    names[n++] = "units";
    if (!strcmp(name, "units"))
        return cli_units_help(out);
    for (int i = 0; cli_commands[i].name; i++) {
        names[n++] = cli_commands[i].name;
        if (!strcmp(name, cli_commands[i].name))
            return command_help(out, &cli_commands[i]) ||
                   /* saturate's own keys (search= is implied by the command: skipped) */
                   (cli_commands[i].main == cli_cmd_saturate &&
                    (rs_optdef_format(out, rs_saturate_options + 1, 2) ||
                     rs_buf_puts(out, "  and every key of an open-loop run (saturation_margin "
                                      "judges each load; docs/cli.md)\n")));
    }
    names[n++] = "metrics";
    if (!strcmp(name, "metrics"))
        return rs_metric_format_list(out);
    const struct rs_metric_def *d = rs_metric_find(name); /* one metric: its declaration */
    if (d)
        return rs_buf_printf(out, "metric %s (%s, %s; from %s)\n  %s\n", name, d->unit,
                             d->type == RS_METRIC_STRING ? "text" : "number", d->producers,
                             d->meaning);
    if (is_key)
        return 0;
    list.n = n;
    cli_keys_each(add_name, &list);
    for (int i = 0; i < RS_M__COUNT; i++)
        add_name(&list, rs_metric_defs[i].name);
    n = list.n;
    const char *near = rs_suggest(name, names, n);
    if (near)
        return rs_err_set(err, RS_EUNKNOWN, "no help on '%s' (did you mean '%s'?)", name, near);
    return rs_err_set(err, RS_EUNKNOWN, "no help on '%s' (try `routesim list`)", name);
}

/* Every help on name: a module, command or metric of that name, then a key of that name
 * (a name can be both: topology=butterfly and the key butterfly of bay_bilardi). */
static int topic(struct rs_buf *out, const char *name, struct rs_err *err)
{
    struct rs_buf keys;
    int is_key = 0;
    rs_buf_init(&keys);
    int rc = cli_key_help(&keys, name, 0, &is_key);
    if (!rc)
        rc = named_topic(out, name, is_key, err);
    if (!rc && is_key && out->len)
        rc = rs_buf_puts(out, "\n");
    if (!rc && is_key)
        rc = rs_buf_puts(out, keys.data);
    rs_buf_free(&keys);
    return rc;
}

int cli_cmd_help(int argc, char **argv)
{
    struct cli_args a;
    struct rs_err err;
    struct rs_buf out;
    rs_err_clear(&err);
    rs_buf_init(&out);
    int rc = cli_parse(argc, argv, CLI_MAN, 1, &a, &err);
    if (!rc && a.man) { /* the man page routesim(1), or routesim-CMD(1) */
        if ((rc = cli_man_page(&out, a.positional)) == RS_EUNKNOWN)
            rc = rs_err_set(&err, RS_EUNKNOWN, "no man page for '%s' (a command's name, or "
                            "nothing)", a.positional);
    } else if (!rc) {
        rc = a.positional ? topic(&out, a.positional, &err) : usage(&out);
        if (rc > 0 || (rc < 0 && !err.code))
            rc = rs_err_set(&err, RS_ENOMEM, "out of memory");
    }
    if (!rc)
        rc = rs_buf_write_file(&out, NULL, &err);
    rs_buf_free(&out);
    cli_args_free(&a);
    return rc ? cli_fail(&err) : 0;
}
