/* Shared argument parsing, error reporting and output for the subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "routesim/api.h"
#include "routesim/booksim_config.h"
#include "routesim/outpath.h"

/* The one list of options: their kind, names, value (arg NULL: none) and meaning, read by
 * the parser (cli_parse, its suggestions), `routesim help`, `routesim CMD --help` and the
 * man pages. */
const struct cli_flag_help cli_flag_helps[] = {
    {CLI_CONFIG, "-c, --config", "FILE",
     "read KEY=VALUE parameters from an INI (or BookSim) file; - reads standard input "
     "(command-line values override it)"},
    {CLI_FORMAT, "--format", "FMT",
     "table (default), csv, json or jsonl (JSON Lines: one object per line); sweep: csv "
     "(default) or jsonl"},
    {CLI_OUTPUT, "-o, --output, --out", "FILE",
     "write the result to FILE (atomically) instead of standard output; reproduce: the "
     "output folder (default results/NAME)"},
    {CLI_DOT, "--dot", NULL,
     "print the network as a Graphviz digraph (refused above dot_limit=BYTES, default 64M)"},
    {CLI_JOBS, "-j, --jobs", "N", "threads; 0 = all cores (default)"},
    {CLI_PER_RUN, "--per-run", "FILE", "also write one row per run"},
    {CLI_RESUME, "--resume", NULL, "keep the rows already written and run the rest"},
    {CLI_PLOT, "--plot", "FILE", "render a .png or .svg with gnuplot"},
    {CLI_QUICK, "--quick", NULL, "the small, fast version"},
    {CLI_DRY_RUN, "--dry-run", NULL, "check the experiments and claims; run nothing"},
    {CLI_SAVE_TRAFFIC, "--save-traffic", "FILE",
     "also write the workload built as a traffic_file (one destination per line)"},
    {CLI_MAN, "--man", NULL, "write the manual page (roff) of the topic instead"},
    {CLI_SVG, "--svg", "FILE",
     "draw the network with Graphviz into FILE as SVG (grids as grids, levels as ranks; "
     "refused above picture_limit=NODES, default 2000); run: a deadlock's waiting cycle of "
     "channels in red (the network plain when the run does not deadlock)"},
    {CLI_PNG, "--png", "FILE", "the same picture as PNG"},
    {CLI_DIGITS, "--digits", "D",
     "how numbers are written: 9 (default: 9 significant digits) or exact (the fewest "
     "digits, at most 17, that read back as the same number)"},
    {CLI_QUIET, "-q, --quiet", NULL,
     "no progress line on stderr (shown only when stderr is a terminal)"},
    {CLI_EVENTS, "--events", "FILE",
     "also write the per-packet event log (generated, injected, hop, blocked, delivered, "
     "dropped; docs/events.md): binary when FILE ends in .bin, else CSV"},
    {CLI_EVENTS_MAX, "--events-max", "N",
     "keep at most N event records (default 4194304, at most 268435456); a truncated "
     "record ends a longer log"},
    {CLI_EVENTS_PACKETS, "--events-packets", "LIST",
     "log only these packets (message ids: 3,10-20)"},
    {CLI_EVENTS_NODES, "--events-nodes", "LIST", "log only events at these nodes (3,10-20)"},
    {CLI_EVENTS_STEPS, "--events-steps", "LIST", "log only events of these steps (0-100)"},
    {CLI_TRACE, "--trace", "FILE.html",
     "also write a browser view of the run: one self-contained HTML page that replays the "
     "event log on the network's picture (docs/trace.md; Graphviz draws the network)"},
    {CLI_TRACE_LIMIT, "--trace-limit", "NODES",
     "refuse --trace on a network of more nodes than this (default 500)"},
    {0, NULL, NULL, NULL}};

/* The names of option f one at a time: the next name after *p (start with *p = f->names)
 * into name[0..n); 0 when there is none left. cli_flag_helps is the one list of options: the
 * parser, its suggestions, `--help` and the man pages read it. */
static int next_name(const char **p, char *name, size_t n)
{
    while (**p == ',' || **p == ' ')
        (*p)++;
    size_t len = strcspn(*p, ", ");
    if (!len || len >= n)
        return 0;
    memcpy(name, *p, len);
    name[len] = '\0';
    *p += len;
    return 1;
}

/* The option named name (any of its names), or NULL; it takes a value when f->arg is set. */
static const struct cli_flag_help *find_flag(const char *name)
{
    char each[32];
    for (const struct cli_flag_help *f = cli_flag_helps; f->kind; f++)
        for (const char *p = f->names; next_name(&p, each, sizeof each);)
            if (!strcmp(each, name))
                return f;
    return NULL;
}

static int unknown_flag(const char *name, struct rs_err *err)
{
    char store[48][32];
    const char *names[48];
    int n = 0;
    for (const struct cli_flag_help *f = cli_flag_helps; f->kind; f++)
        for (const char *p = f->names; n < 48 && next_name(&p, store[n], sizeof store[n]); n++)
            names[n] = store[n];
    const char *near = rs_suggest(name, names, n);
    if (near)
        return rs_err_set(err, RS_EPARSE, "command line: unknown option '%s' (did you mean '%s'?)",
                          name, near);
    return rs_err_set(err, RS_EPARSE, "command line: unknown option '%s'", name);
}

static int set_flag(struct cli_args *a, unsigned kind, const char *val, struct rs_err *err)
{
    char *end;
    switch (kind) {
    case CLI_CONFIG:
        a->config = val;
        return 0;
    case CLI_OUTPUT:
        a->output = val;
        return 0;
    case CLI_SAVE_TRAFFIC:
        a->save_traffic = val;
        return 0;
    case CLI_FORMAT:
        return rs_format_parse(val, &a->format, err);
    case CLI_DOT:
        a->dot = 1;
        return 0;
    case CLI_RESUME:
        a->resume = 1;
        return 0;
    case CLI_QUICK:
        a->quick = 1;
        return 0;
    case CLI_DRY_RUN:
        a->dry_run = 1;
        return 0;
    case CLI_MAN:
        a->man = 1;
        return 0;
    case CLI_SVG:
        a->svg = val;
        return 0;
    case CLI_PNG:
        a->png = val;
        return 0;
    case CLI_QUIET:
        a->quiet = 1;
        return 0;
    case CLI_DIGITS:
        if (!strcmp(val, "9") || !strcmp(val, "exact")) {
            a->digits = strcmp(val, "9") ? RS_DIGITS_EXACT : RS_DIGITS_9;
            return 0;
        }
        return rs_err_set(err, RS_EINVAL,
                          "command line: --digits: expected 9 or exact, got '%s'", val);
    case CLI_PER_RUN:
        a->per_run = val;
        return 0;
    case CLI_EVENTS:
        a->events = val;
        return 0;
    case CLI_EVENTS_MAX:
        a->events_max = val;
        return 0;
    case CLI_EVENTS_PACKETS:
        a->events_packets = val;
        return 0;
    case CLI_EVENTS_NODES:
        a->events_nodes = val;
        return 0;
    case CLI_EVENTS_STEPS:
        a->events_steps = val;
        return 0;
    case CLI_TRACE:
        a->trace = val;
        return 0;
    case CLI_TRACE_LIMIT:
        a->trace_limit = val;
        return 0;
    case CLI_PLOT:
        a->plot = val;
        return 0;
    case CLI_JOBS:
        a->jobs = (int)strtol(val, &end, 10);
        if (*end || end == val || a->jobs < 0 || a->jobs > 4096)
            return rs_err_set(err, RS_EINVAL,
                              "command line: --jobs: expected a number of threads in [0, 4096], "
                              "got '%s'",
                              val);
        return 0;
    }
    return 0;
}

/* A KEY=VALUE argument whose key an earlier argument set already: the command line may
 * override the INI file, not itself. */
static int duplicate_key(const struct rs_params *p, const char *arg, struct rs_err *err)
{
    const char *eq = strchr(arg, '=');
    for (size_t i = 0; i < p->n; i++) {
        const struct rs_param *q = &p->v[i];
        if (q->line == 0 && strlen(q->key) == (size_t)(eq - arg) &&
            !strncmp(q->key, arg, (size_t)(eq - arg)))
            return rs_err_set(err, RS_EINVAL, "command line: key '%s' given twice (%s=%s, %s)",
                              q->key, q->key, q->value, arg);
    }
    return 0;
}

/* A KEY=VALUE argument whose key contains a dot: section keys ([plot], [quick], [claim.X])
 * belong in an INI file under their header, as rs_params_load_ini's rule says. */
static int dotted_key(const char *arg, struct rs_err *err)
{
    const char *eq = strchr(arg, '=');
    const char *dot = memchr(arg, '.', (size_t)(eq - arg));
    if (!dot)
        return 0;
    return rs_err_set(err, RS_EPARSE,
                      "command line: key '%.*s' contains a dot (a key of a section is written "
                      "under its [section] header in an INI file)",
                      (int)(eq - arg), arg);
}

int cli_parse(int argc, char **argv, unsigned allowed, int allow_positional, struct cli_args *a,
              struct rs_err *err)
{
    int rc;
    unsigned seen = 0;
    memset(a, 0, sizeof *a);
    rs_params_init(&a->params);
    a->format = RS_FMT_TABLE;
    /* First pass: flags; KEY=VALUE arguments are applied after the INI file. */
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *eq = strchr(arg, '=');
        if (arg[0] != '-') {
            if (eq)
                continue;
            if (allow_positional && !a->positional) {
                a->positional = arg;
                continue;
            }
            return rs_err_set(err, RS_EPARSE, "command line: expected KEY=VALUE, got '%s'", arg);
        }
        char name[32];
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        if (len >= sizeof name)
            len = sizeof name - 1;
        memcpy(name, arg, len);
        name[len] = '\0';
        const struct cli_flag_help *f = find_flag(name);
        if (!f)
            return unknown_flag(name, err);
        if (!(f->kind & allowed))
            return rs_err_set(err, RS_EPARSE, "command line: option '%s' does not apply here",
                              name);
        if (f->kind & seen) /* aliases (-o, --output, --out) count as one option */
            return rs_err_set(err, RS_EPARSE, "command line: option '%s' given twice", name);
        seen |= f->kind;
        const char *val = NULL;
        if (f->arg) {
            if (eq)
                val = eq + 1;
            else if (i + 1 < argc)
                val = argv[++i];
            else
                return rs_err_set(err, RS_EPARSE, "command line: option '%s' needs a value", name);
        } else if (eq) {
            return rs_err_set(err, RS_EPARSE, "command line: option '%s' takes no value", name);
        }
        if ((rc = set_flag(a, f->kind, val, err)))
            return rc;
    }
    if (a->config && !strcmp(a->config, "-")) { /* -c -: standard input */
        if ((rc = rs_params_load_stdin(&a->params, err)))
            return rc;
    } else if (a->config && (rc = rs_params_load_config(&a->params, a->config, err))) {
        return rc; /* INI or BookSim */
    }
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] == '-') {
            const struct cli_flag_help *f = strchr(arg, '=') ? NULL : find_flag(arg);
            if (f && f->arg)
                i++; /* skip the flag's value */
            continue;
        }
        if (!strchr(arg, '='))
            continue;
        if ((rc = dotted_key(arg, err)))
            return rc;
        if (arg[0] != '=' && (rc = duplicate_key(&a->params, arg, err)))
            return rc;
        if ((rc = rs_params_parse_arg(&a->params, arg, err)))
            return rc;
    }
    return 0;
}

int cli_check_outputs(const struct cli_args *a, const struct rs_named_path *outs, size_t n,
                      struct rs_err *err)
{
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        if (outs[i].path)
            rc = rs_out_check(outs[i].path, err);
    if (rc)
        return rc;
    /* inputs: the INI file and every file a run key names (traffic_file, graph_file, ...) */
    struct rs_named_path *ins = malloc((a->params.n + 1) * sizeof *ins);
    if (!ins)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    size_t n_ins = 0;
    if (a->config && strcmp(a->config, "-")) /* -c - is standard input, no file */
        ins[n_ins++] = (struct rs_named_path){"-c", a->config};
    for (size_t i = 0; i < a->params.n; i++) {
        const char *key = a->params.v[i].key;
        size_t len = strlen(key);
        if (!strchr(key, '.') && len > 5 && !strcmp(key + len - 5, "_file"))
            ins[n_ins++] = (struct rs_named_path){key, a->params.v[i].value};
    }
    rc = rs_out_check_distinct(outs, n, ins, n_ins, err);
    free(ins);
    return rc;
}

void cli_args_free(struct cli_args *a)
{
    rs_params_free(&a->params);
}

int cli_fail(const struct rs_err *err)
{
    fprintf(stderr, "routesim: %s\n", err->msg[0] ? err->msg : rs_strerror(err->code));
    if (rs_err_is_resource(err->code))
        return 3; /* out of memory, or refused by a resource estimate */
    return rs_err_is_input(err->code) ? 2 : 1;
}

void cli_notice(const char *text)
{
    char line[2048];
    rs_err_escape(text, line, sizeof line);
    fprintf(stderr, "routesim: %s\n", line);
}

int cli_emit(const struct cli_args *a, const struct rs_record *recs, size_t n)
{
    struct rs_buf out;
    struct rs_err err;
    rs_err_clear(&err);
    rs_buf_init(&out);
    int rc = rs_records_write_digits(&out, a->format, recs, n, a->digits, &err);
    if (!rc)
        rc = rs_buf_write_file(&out, a->output, &err);
    rs_buf_free(&out);
    return rc ? cli_fail(&err) : 0;
}
