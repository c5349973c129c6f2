/* Internal interface of the help generators (src/cli/help_*.c): per-key help, the list of
 * every key, and the man pages, all written from the option, command and metric tables. */
#ifndef RS_CLI_HELP_H
#define RS_CLI_HELP_H

#include "routesim/buf.h"
#include "routesim/options.h"

/* An option table and who reads it: kind "topology" and name "mesh", kind "command" and
 * name "topo", or a kind such as "every run" and name ""; command: the subcommand an
 * example of one of its keys runs. */
struct cli_key_source {
    const struct rs_optdef *table;
    const char *kind, *name, *command;
};

/* Append the help of key to out (text, or roff .TP entries when man): for each distinct
 * declaration its type, default, range, unit, meaning, the modules that read it and an
 * example. *found = 0 (nothing appended) when no table declares key. Returns 0 or
 * RS_ENOMEM. */
int cli_key_help(struct rs_buf *out, const char *key, int man, int *found);

/* Append the units a key's value may have (rs_opt_units), one per line with its meaning
 * (`routesim help units`). Returns 0 or RS_ENOMEM. */
int cli_units_help(struct rs_buf *out);

/* Call fn(ctx, key) once per key of every table, in table order; stops at fn's first
 * nonzero return and returns it (else 0). */
int cli_keys_each(int (*fn)(void *ctx, const char *key), void *ctx);

/* Append the man page (roff) routesim(1) when cmd is NULL, else routesim-CMD(1) of the
 * command named cmd (which must exist). Returns 0 or RS_ENOMEM. */
int cli_man_page(struct rs_buf *out, const char *cmd);

/* Append the option lines of the options in mask (enum cli_flag), as text (indented, one
 * per option) or as roff .TP entries when man. Returns 0 or RS_ENOMEM. */
int cli_flags_help(struct rs_buf *out, unsigned mask, int man);

struct cli_command;
/* Append command c's synopsis: its operands (c->usage) followed by "[NAME ARG]" for every
 * option of c->flags that the operands do not already name, from cli_flag_helps (the one
 * list of options). Returns 0 or RS_ENOMEM. */
int cli_usage(struct rs_buf *out, const struct cli_command *c);

#endif
