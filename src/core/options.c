/* Option tables: lookup, the help listing generated from them, and typo suggestions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "routesim/options.h"

const struct rs_optdef *rs_optdef_find(const struct rs_optdef *table, const char *name)
{
    for (const struct rs_optdef *d = table; d && d->name; d++)
        if (!strcmp(d->name, name))
            return d;
    return NULL;
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
    }
    return "?";
}

int rs_optdef_format(struct rs_buf *out, const struct rs_optdef *table, int indent)
{
    for (const struct rs_optdef *d = table; d && d->name; d++) {
        char range[256] = "";
        if (d->type == RS_OPT_INT || d->type == RS_OPT_DOUBLE) {
            snprintf(range, sizeof range, "[%.15g, %.15g]", d->min, d->max);
        } else if (d->type == RS_OPT_CHOICE && d->choices) {
            size_t len = 0;
            for (int i = 0; d->choices[i] && len < sizeof range - 1; i++)
                len += (size_t)snprintf(range + len, sizeof range - len, "%s%s", i ? "|" : "",
                                        d->choices[i]);
        }
        if (rs_buf_printf(out, "%*s%-14s %-6s default %-14s %s\n%*s%s\n", indent, "", d->name,
                          type_name(d->type), d->def ? d->def : "(none)", range, indent + 4, "",
                          d->help ? d->help : ""))
            return RS_ENOMEM;
    }
    return 0;
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t *row = malloc((lb + 1) * sizeof *row);
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
    free(row);
    return d;
}

const char *rs_suggest(const char *word, const char *const *candidates, int n)
{
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
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    return best_d <= limit ? best : NULL;
}
