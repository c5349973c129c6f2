/* `routesim help KEY` and the KEYS section of routesim(1): every key of every option table
 * (the network, workload, run, predictor, saturate and topo tables, and each topology's,
 * workload's, switching model's, algorithm's and routing function's), found by name, with its declarations
 * grouped (a key several modules declare alike is shown once, naming them all). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "routesim/algo.h"
#include "routesim/engine.h"
#include "routesim/net.h"
#include "routesim/problem.h"
#include "routesim/route.h"
#include "routesim/run.h"
#include "routesim/saturate.h"

#define MAX_SOURCES 512

/* Fill v with every option table and who reads it; returns how many. */
static size_t key_sources(struct cli_key_source *v)
{
    size_t n = 0;
    v[n++] = (struct cli_key_source){rs_net_options, "every run", "", "run"};
    for (int i = 0; rs_topologies[i] && n < MAX_SOURCES; i++)
        v[n++] = (struct cli_key_source){rs_topologies[i]->options, "topology",
                                         rs_topologies[i]->name, "topo"};
    v[n++] = (struct cli_key_source){rs_problem_options, "every workload", "", "run"};
    for (int i = 0; rs_traffics[i] && n < MAX_SOURCES; i++)
        v[n++] = (struct cli_key_source){rs_traffics[i]->options, "traffic",
                                         rs_traffics[i]->name, "run"};
    v[n++] = (struct cli_key_source){rs_run_options, "every run", "", "run"};
    v[n++] = (struct cli_key_source){rs_predict_options, "run and analyze", "", "analyze"};
    for (int i = 0; rs_engines[i] && n < MAX_SOURCES; i++)
        v[n++] = (struct cli_key_source){rs_engines[i]->options, "switching",
                                         rs_engines[i]->name, "run"};
    for (int i = 0; rs_algos[i] && n < MAX_SOURCES; i++)
        v[n++] = (struct cli_key_source){rs_algos[i]->options, "algorithm", rs_algos[i]->name,
                                         "run"};
    for (int i = 0; rs_routings[i] && n < MAX_SOURCES; i++)
        if (rs_routings[i]->options)
            v[n++] = (struct cli_key_source){rs_routings[i]->options, "routing",
                                             rs_routings[i]->name, "run"};
    if (n < MAX_SOURCES)
        v[n++] = (struct cli_key_source){rs_saturate_options, "command", "saturate", "saturate"};
    if (n < MAX_SOURCES)
        v[n++] = (struct cli_key_source){cli_topo_options, "command", "topo", "topo"};
    return n;
}

static const char *type_word(enum rs_opt_type t)
{
    static const char *const w[] = {"integer", "number", "boolean", "choice", "text", "list"};
    return (unsigned)t < sizeof w / sizeof *w ? w[t] : "?";
}

/* Two texts that are equal, or both NULL. */
static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* Two declarations say the same of a key (type, choices, unit and meaning): shown as one,
 * their defaults and ranges side by side when those differ. */
static int same_meaning(const struct rs_optdef *a, const struct rs_optdef *b)
{
    if (a->type != b->type || !same_text(a->help, b->help) || !same_text(a->unit, b->unit))
        return 0;
    if (a->choices != b->choices) {
        if (!a->choices || !b->choices)
            return 0;
        int i = 0;
        for (; a->choices[i] && b->choices[i]; i++)
            if (strcmp(a->choices[i], b->choices[i]))
                return 0;
        if (a->choices[i] || b->choices[i])
            return 0;
    }
    return 1;
}

/* ... and also the same default and range. */
static int same_values(const struct rs_optdef *a, const struct rs_optdef *b)
{
    return a->min == b->min && a->max == b->max && (a->def == NULL) == (b->def == NULL) &&
           (!a->def || !strcmp(a->def, b->def));
}

/* v as the shortest of %.15g and %.17g that reads back as v (2^53-1 is 9007199254740991). */
static void exact_number(double v, char *buf, size_t n)
{
    snprintf(buf, n, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, n, "%.17g", v);
}

/* The range or choices of d ("" when free). */
static int format_range(struct rs_buf *out, const struct rs_optdef *d)
{
    if (d->type == RS_OPT_INT || d->type == RS_OPT_DOUBLE) {
        char lo[32], hi[32];
        exact_number(d->min, lo, sizeof lo);
        exact_number(d->max, hi, sizeof hi);
        return rs_buf_printf(out, "%s to %s", lo, hi);
    }
    if (d->type == RS_OPT_BOOL)
        return rs_buf_puts(out, "0|1|true|false|yes|no|on|off");
    if (d->type == RS_OPT_CHOICE && d->choices) {
        int rc = 0;
        for (int i = 0; d->choices[i] && !rc; i++)
            rc = rs_buf_printf(out, "%s%s", i ? "|" : "", d->choices[i]);
        return rc;
    }
    return rs_buf_puts(out, d->type == RS_OPT_LIST ? "numbers per level, comma-separated"
                                                   : "free text, checked by the module");
}

/* A value to show in an example: the default, else the first choice, else the minimum. */
static void example_value(const struct rs_optdef *d, char *buf, size_t n)
{
    if (d->def)
        snprintf(buf, n, "%s", d->def);
    else if (d->type == RS_OPT_CHOICE && d->choices && d->choices[0])
        snprintf(buf, n, "%s", d->choices[0]);
    else if (d->type == RS_OPT_INT || d->type == RS_OPT_DOUBLE)
        exact_number(d->min, buf, n);
    else if (d->type == RS_OPT_BOOL)
        snprintf(buf, n, "1");
    else
        snprintf(buf, n, "VALUE");
}

/* The unit of a key's value as its table declares it (a name of rs_opt_units; "-" for none). */
static const char *unit_of(const struct rs_optdef *d)
{
    return d->unit ? d->unit : "(undeclared)";
}

int cli_units_help(struct rs_buf *out)
{
    int rc = rs_buf_puts(out, "units of the keys' values (the unit line of `routesim help KEY`, "
                              "the column after the range in `routesim list`):\n");
    for (const struct rs_opt_unit *u = rs_opt_units; u->name && !rc; u++)
        rc = rs_buf_printf(out, "  %-22s %s\n", u->name, u->meaning);
    return rc;
}

int cli_key_help(struct rs_buf *out, const char *key, int man, int *found)
{
    struct cli_key_source src[MAX_SOURCES];
    const struct rs_optdef *decl[MAX_SOURCES];
    size_t n = key_sources(src), nd = 0;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        const struct rs_optdef *d = rs_optdef_find(src[i].table, key);
        decl[i] = d;
        nd += d != NULL;
    }
    *found = nd > 0;
    if (!nd)
        return 0;
    unsigned char done[MAX_SOURCES] = {0};
    for (size_t i = 0; i < n && !rc; i++) {
        if (!decl[i] || done[i])
            continue;
        const struct rs_optdef *d = decl[i];
        int alike = 1; /* every declaration of the group has d's default and range */
        for (size_t j = i; j < n; j++)
            if (decl[j] && !done[j] && same_meaning(d, decl[j]) && !same_values(d, decl[j]))
                alike = 0;
        if (man)
            rc = rs_buf_printf(out, ".TP\n.B %s\n.nf\n", key);
        else
            rc = rs_buf_printf(out, "key %s\n", key);
        rc = rc ? rc : rs_buf_printf(out, "  type: %s\n", type_word(d->type));
        if (!rc && alike) {
            rc = rs_buf_printf(out, "  default: %s\n  range: ",
                               d->def ? d->def : "(none: optional, or required by the module)");
            rc = rc ? rc : format_range(out, d);
            rc = rc ? rc : rs_buf_puts(out, "\n");
        }
        rc = rc ? rc : rs_buf_printf(out, "  unit: %s\n  meaning: %s\n  read by:", unit_of(d),
                                     d->help ? d->help : "");
        for (size_t j = i; j < n && !rc; j++)
            if (decl[j] && !done[j] && same_meaning(d, decl[j])) {
                done[j] = 1;
                rc = src[j].name[0] ? rs_buf_printf(out, "%s %s=%s", alike ? "" : "\n   ",
                                                    src[j].kind, src[j].name)
                                    : rs_buf_printf(out, "%s (%s)", alike ? "" : "\n   ",
                                                    src[j].kind);
                if (!rc && !alike) {
                    rc = rs_buf_printf(out, " (default %s, range ",
                                       decl[j]->def ? decl[j]->def : "none");
                    rc = rc ? rc : format_range(out, decl[j]);
                    rc = rc ? rc : rs_buf_puts(out, ")");
                }
            }
        char val[128];
        example_value(d, val, sizeof val);
        const struct cli_key_source *s = &src[i];
        if (!rc && !strcmp(s->kind, "command"))
            rc = rs_buf_printf(out, "\n  example: routesim %s%s %s=%s\n", s->name,
                               !strcmp(s->name, "topo") ? " --dot" : "", key, val);
        else if (!rc && s->name[0])
            rc = rs_buf_printf(out, "\n  example: routesim %s %s=%s %s=%s\n", s->command,
                               s->kind, s->name, key, val);
        else if (!rc)
            rc = rs_buf_printf(out, "\n  example: routesim %s %s=%s\n", s->command, key, val);
        if (!rc && man)
            rc = rs_buf_puts(out, ".fi\n");
    }
    return rc ? RS_ENOMEM : 0;
}

int cli_keys_each(int (*fn)(void *ctx, const char *key), void *ctx)
{
    struct cli_key_source src[MAX_SOURCES];
    size_t n = key_sources(src);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        for (const struct rs_optdef *d = src[i].table; d && d->name && !rc; d++) {
            int seen = 0; /* only at its first declaration */
            for (size_t j = 0; j < i && !seen; j++)
                seen = rs_optdef_find(src[j].table, d->name) != NULL;
            for (const struct rs_optdef *e = src[i].table; e < d && !seen; e++)
                seen = !strcmp(e->name, d->name);
            if (!seen)
                rc = fn(ctx, d->name);
        }
    return rc;
}
