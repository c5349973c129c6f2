/* BookSim 2 configuration files read as they are (SPEC E1): the syntax (`key = value;`,
 * `//` and `/ * * /` comments, `{a, b}` lists, quoted strings), the detection rule that
 * tells them from routesim's INI files, and the mapping of BookSim's keys onto routesim's
 * (docs/booksim-config.md). A key routesim cannot honour is an error naming the file, the
 * line, the key and the reason; nothing is dropped silently. */
#ifndef ROUTESIM_BOOKSIM_CONFIG_H
#define ROUTESIM_BOOKSIM_CONFIG_H

#include <stddef.h>

#include "routesim/buf.h"
#include "routesim/error.h"
#include "routesim/params.h"

/* Origin suffix of the values a BookSim file leaves out and BookSim's defaults supply:
 * such a parameter has origin "FILE" RS_BOOKSIM_DEFAULT_ORIGIN and line -1. */
#define RS_BOOKSIM_DEFAULT_ORIGIN " (BookSim's default)"

/* 1 when text[0..len) (the contents of the file path) is BookSim syntax: the name does
 * not end in ".ini", and the first line that is not blank starts with "//" or "/ *" or ends
 * (trailing blanks aside) with ';'. 0 otherwise (routesim INI). Pure. */
int rs_booksim_detect(const char *path, const char *text, size_t len);

/* Parse BookSim text (origin names it in messages: a path) and add the routesim
 * parameters it maps to p, each with origin and the line of its BookSim statement; keys
 * the text leaves out get BookSim's default (origin + RS_BOOKSIM_DEFAULT_ORIGIN, line
 * -1). A later statement of the same key replaces an earlier one, as in BookSim.
 * Errors (RS_EPARSE syntax; RS_EUNKNOWN a key BookSim does not have, with the nearest;
 * RS_EUNSUPPORTED a key or value routesim cannot honour, with the reason; RS_EINVAL a
 * value of the wrong kind) start with "origin:line: ". Returns 0 or RS_E...; p may then
 * hold part of the file. */
int rs_booksim_parse(struct rs_params *p, const char *text, size_t len, const char *origin,
                     struct rs_err *err);

/* Read a configuration file into p: BookSim syntax when rs_booksim_detect says so, else
 * rs_params_load_ini. Returns 0 or RS_E... (RS_EIO: missing or unreadable file). */
int rs_params_load_config(struct rs_params *p, const char *path, struct rs_err *err);

/* routesim's name for a BookSim key that routesim calls otherwise (num_vcs -> vcs), or
 * NULL. Pure. */
const char *rs_booksim_alias(const char *key);

/* Write p as a routesim INI file to out: a header naming source, then for each parameter
 * (keys with a '.' skipped) a "# from WHERE" comment and "key = value". Returns 0 or
 * RS_ENOMEM. */
int rs_params_write_ini(const struct rs_params *p, const char *source, struct rs_buf *out);

#endif
