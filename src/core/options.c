/* Option tables: lookup, the units an option may have, the help listing generated from
 * them, and typo suggestions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/numtext.h"
#include "routesim/alloc.h"
#include "routesim/options.h"

/* One vocabulary for every option table (docs/cli.md, "Units"); the metrics table spells
 * the units they share the same way (steps, flits, packets, messages, channels, cycles). */
const struct rs_opt_unit rs_opt_units[] = {
    {"steps", "time steps of the run's model: a packet hop of store_forward, a flit hop of the "
              "flit engines, one cycle of router=iq (latency_mean and makespan are in steps)"},
    {"cycles", "cycles the meaning names: router=iq's clock cycles (one per step) or the "
               "circuit engine's network cycles"},
    {"flits", "flits (a message or packet of length L is L flits)"},
    {"packets", "packets"},
    {"messages", "messages of the static message set"},
    {"bits", "bits (of a message body or a key)"},
    {"words", "words of b bits (flexible_sort)"},
    {"bytes", "bytes; a value may end in K, M, G or T (powers of 1024)"},
    {"terminals", "terminals: the network's inputs and outputs (PEs, leaves)"},
    {"nodes", "nodes of the network graph"},
    {"routers", "routers of a direct network (dragonfly, HyperX)"},
    {"ports", "ports of a switch or router (its radix, its up or down degree)"},
    {"channels", "channels (directed links); a path length (dilation) in channels"},
    {"VCs", "virtual channels of one physical channel"},
    {"wires", "wires of a fat-tree channel (its capacity)"},
    {"circuits", "circuits a channel carries at once (circuit switching)"},
    {"levels", "levels (stages) of a leveled network or a tree"},
    {"dimensions", "dimensions of a mesh or torus"},
    {"groups", "dragonfly groups"},
    {"packets/terminal/step", "a rate: packets per terminal and step (the metrics offered and "
                              "accepted are in flits/terminal/step)"},
    {"injection_rate", "the unit of the key injection_rate"},
    {"<metric>", "the unit of the metric the claim judges (its metric key)"},
    {"1", "a dimensionless number (a probability, fraction, ratio or constant) or a count of "
          "what the meaning names (rounds, replications, iterations)"},
    {"-", "no unit: a choice, a flag, text, a file name, a seed, an id or a mask"},
    {NULL, NULL}};

const struct rs_opt_unit *rs_opt_unit_find(const char *name)
{
    for (const struct rs_opt_unit *u = rs_opt_units; name && u->name; u++)
        if (!strcmp(u->name, name))
            return u;
    return NULL;
}

const struct rs_optdef *rs_optdef_find(const struct rs_optdef *table, const char *name)
{
    if (!name)
        return NULL;
    for (const struct rs_optdef *d = table; d && d->name; d++)
        if (!strcmp(d->name, name))
            return d;
    return NULL;
}

/* Strip the '+' and leading zeros of a printf exponent in place: "1e+09" -> "1e9". */
static void tidy_exponent(char *s)
{
    char *e = strchr(s, 'e');
    if (!e)
        return;
    char *src = e + 1, *dst = e + 1;
    if (*src == '+')
        src++;
    else if (*src == '-')
        *dst++ = *src++;
    while (*src == '0' && src[1])
        src++;
    memmove(dst, src, strlen(src) + 1);
}

/* 1 when a (> 0) is exactly a power of ten; its text "1eK" then goes to t[0..n). */
static int power_of_ten(double a, char *t, size_t n)
{
    snprintf(t, n, "%.0e", a);
    if (t[0] != '1' || strtod(t, NULL) != a)
        return 0;
    tidy_exponent(t);
    return 1;
}

void rs__num_text(double v, char *buf, size_t n)
{
    double a = fabs(v);
    const char *sign = v < 0 ? "-" : "";
    char t[48];
    int e;
    if (!isfinite(v)) {
        snprintf(buf, n, "%s", isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
    } else if (a == floor(a) && a < 1e7) {
        snprintf(buf, n, "%.0f", v);
    } else if (a == floor(a) && frexp(a, &e) == 0.5 && e - 1 >= 20) { /* a == 2^(e-1) */
        snprintf(buf, n, "%s2^%d", sign, e - 1);
    } else if (a == floor(a) && a < 0x1p53 && frexp(a + 1, &e) == 0.5 && e - 1 >= 20) {
        snprintf(buf, n, "%s2^%d-1", sign, e - 1); /* a == 2^(e-1) - 1 */
    } else if (a > 0 && power_of_ten(a, t, sizeof t)) {
        snprintf(buf, n, "%s%s", sign, t);
    } else if (a == floor(a) && a <= 0x1p53) {
        snprintf(buf, n, "%.0f", v);
    } else {
        snprintf(t, sizeof t, "%.6g", v);
        tidy_exponent(t);
        snprintf(buf, n, "%s", t);
    }
}

void rs__range_text(double min, double max, char *buf, size_t n)
{
    char lo[48], hi[48];
    rs__num_text(min, lo, sizeof lo);
    rs__num_text(max, hi, sizeof hi);
    snprintf(buf, n, "[%s, %s]", lo, hi);
}

static const char *type_name(enum rs_opt_type t)
{
    switch (t) {
    case RS_OPT_INT:
        return "int";
    case RS_OPT_DOUBLE:
        return "real";
    case RS_OPT_BOOL:
        return "bool";
    case RS_OPT_CHOICE:
        return "choice";
    case RS_OPT_STRING:
        return "text";
    case RS_OPT_LIST:
        return "list";
    }
    return "?";
}

/* The range column of d: "[min, max]" for numbers, "a|b|c" for choices, "" otherwise.
 * Returns 0 or RS_ENOMEM; s is reset first. */
static int range_column(struct rs_buf *s, const struct rs_optdef *d)
{
    s->len = 0;
    int rc = rs_buf_puts(s, "");
    if (d->type == RS_OPT_INT || d->type == RS_OPT_DOUBLE) {
        char r[112];
        rs__range_text(d->min, d->max, r, sizeof r);
        rc = rs_buf_puts(s, r);
    } else if (d->type == RS_OPT_CHOICE && d->choices) {
        for (int i = 0; d->choices[i] && !rc; i++)
            rc = rs_buf_printf(s, "%s%s", i ? "|" : "", d->choices[i]);
    }
    return rc;
}

/* Range texts longer than this do not widen the column; they push that line's help on. */
#define RANGE_COLUMN_MAX 24

/* The unit column of d: its unit, blank when it has none ("-" or unset). */
static const char *unit_column(const struct rs_optdef *d)
{
    return d->unit && strcmp(d->unit, "-") ? d->unit : "";
}

int rs_optdef_format(struct rs_buf *out, const struct rs_optdef *table, int indent)
{
    struct rs_buf range;
    int wname = 0, wdef = 0, wrange = 0, wunit = 0, rc = 0;
    rs_buf_init(&range);
    for (const struct rs_optdef *d = table; d && d->name && !rc; d++) {
        int ln = (int)strlen(d->name), ld = (int)strlen(d->def ? d->def : "(none)");
        int lu = (int)strlen(unit_column(d));
        wname = ln > wname ? ln : wname;
        wdef = ld > wdef ? ld : wdef;
        wunit = lu > wunit ? lu : wunit;
        rc = range_column(&range, d);
        if (!rc && (int)range.len > wrange && range.len <= RANGE_COLUMN_MAX)
            wrange = (int)range.len;
    }
    for (const struct rs_optdef *d = table; d && d->name && !rc; d++) {
        rc = range_column(&range, d);
        const char *help = d->help ? d->help : "";
        size_t start = out->len;
        if (!rc) /* the unit column only when some option of the table has a unit */
            rc = rs_buf_printf(out, "%*s%-*s  %-6s  default %-*s  %-*s%s%-*s%s%s", indent, "",
                               wname, d->name, type_name(d->type), wdef,
                               d->def ? d->def : "(none)", wrange, range.data,
                               wunit ? "  " : "", wunit, unit_column(d), *help ? "  " : "",
                               help);
        while (!rc && out->len > start && out->data[out->len - 1] == ' ')
            out->data[--out->len] = '\0'; /* no trailing blanks when there is no help */
        if (!rc)
            rc = rs_buf_puts(out, "\n");
    }
    rs_buf_free(&range);
    return rc ? RS_ENOMEM : 0;
}

/* Levenshtein distance between a and b (insertions, deletions, substitutions of one
 * byte); SIZE_MAX when out of memory. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t small[64];
    size_t *row = lb < 64 ? small : rs_malloc((lb + 1) * sizeof *row);
    if (!row)
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    size_t d = row[lb];
    if (row != small)
        rs_free(row);
    return d;
}

const char *rs_suggest(const char *word, const char *const *candidates, int n)
{
    if (!word || !candidates)
        return NULL;
    for (int i = 0; i < n; i++) /* a difference of case only is the best guess */
        if (candidates[i] && !strcasecmp(word, candidates[i]))
            return candidates[i];
    size_t limit = strlen(word) / 3;
    if (limit < 2)
        limit = 2;
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (int i = 0; i < n; i++) {
        if (!candidates[i])
            continue;
        size_t d = edit_distance(word, candidates[i]);
        if (d < best_d) { /* strict: ties keep the earlier candidate */
            best_d = d;
            best = candidates[i];
        }
    }
    return best_d <= limit ? best : NULL;
}
