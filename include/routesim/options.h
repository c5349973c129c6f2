/* Option tables: every module (topology, workload, engine, the run itself) declares its
 * options as a const array of struct rs_optdef terminated by an entry with name NULL.
 * Validation, `routesim list`, `routesim help` and the docs are generated from them. */
#ifndef ROUTESIM_OPTIONS_H
#define ROUTESIM_OPTIONS_H

#include <stdint.h>

#include "routesim/buf.h"

enum rs_opt_type {
    RS_OPT_INT,    /* signed 64-bit integer within [min, max]; accepts 2^k notation */
    RS_OPT_DOUBLE, /* finite double within [min, max] */
    RS_OPT_BOOL,   /* 0|1|true|false|yes|no|on|off */
    RS_OPT_CHOICE, /* one of choices[] (NULL-terminated) */
    RS_OPT_STRING, /* free text (a file name, a list); the module validates it; never split */
    RS_OPT_LIST    /* numbers per level (d=4,4,4), validated by the module; sweeps split it
                      on commas like numbers, so a list inside a sweep is written 4/4/4 */
};

struct rs_optdef {
    const char *name;
    enum rs_opt_type type;
    const char *def;              /* default value as text; NULL = no default (optional) */
    double min, max;              /* inclusive range for INT and DOUBLE */
    const char *const *choices;   /* for CHOICE: NULL-terminated list of valid values */
    const char *help;             /* one line, ends without a period */
    const char *unit;             /* unit of the value, a name of rs_opt_units ("-": none) */
};

/* The units an option's value may have (docs/cli.md, "Units"): name and meaning, NULL-
 * terminated. "-" (no unit) is the unit of every choice and flag, and of text, a seed or an
 * id; "1" is a dimensionless number or a count of what the meaning names. */
struct rs_opt_unit {
    const char *name;
    const char *meaning;
};
extern const struct rs_opt_unit rs_opt_units[];

/* The entry of rs_opt_units named name, or NULL (also for NULL). */
const struct rs_opt_unit *rs_opt_unit_find(const char *name);

/* The entry named name in table (NULL-terminated), or NULL. */
const struct rs_optdef *rs_optdef_find(const struct rs_optdef *table, const char *name);

/* Append a help listing of table to out: one line per option with type, default, range
 * or choices, unit (blank for "-") and help text; each line indented by indent spaces.
 * Returns 0 or RS_ENOMEM. */
int rs_optdef_format(struct rs_buf *out, const struct rs_optdef *table, int indent);

/* Nearest of candidates[0..n) to word: one that differs only in case, else the nearest by
 * edit distance if close enough to be a likely typo (distance <= max(2, strlen(word)/3),
 * ties to the earlier candidate); NULL otherwise. */
const char *rs_suggest(const char *word, const char *const *candidates, int n);

#endif
