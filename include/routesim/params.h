/* Run parameters: KEY=VALUE pairs from the command line and INI files, each remembering
 * where it came from (file and line, or the command line) so errors can name it. Typed
 * getters validate a value against its module's option table (options.h). */
#ifndef ROUTESIM_PARAMS_H
#define ROUTESIM_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "routesim/error.h"
#include "routesim/options.h"

struct rs_param {
    char *key;    /* "N", or "section.key" for keys inside an INI [section] */
    char *value;
    char *origin; /* file path, or "command line" */
    int line;     /* 1-based line in origin; 0 for the command line */
};

struct rs_params {
    struct rs_param *v;
    size_t n, cap;
};

void rs_params_init(struct rs_params *p);
void rs_params_free(struct rs_params *p);

/* Deep copy of src into dst (dst uninitialised). Returns 0 or RS_ENOMEM. */
int rs_params_copy(struct rs_params *dst, const struct rs_params *src);

/* Set key to value, replacing an earlier value (later sources override earlier ones).
 * origin may be NULL ("command line"). Returns 0 or RS_ENOMEM. */
int rs_params_set(struct rs_params *p, const char *key, const char *value, const char *origin,
                  int line, struct rs_err *err);

/* Parse one "KEY=VALUE" command-line argument. RS_EPARSE when there is no '=' or the key
 * is empty. */
int rs_params_parse_arg(struct rs_params *p, const char *arg, struct rs_err *err);

/* Longest line of an INI file, in characters without the line end. */
#define RS_INI_MAX_LINE 1000000

/* Load an INI file: keys before any section are stored as they are; keys inside
 * [section] as "section.key". The sections are [plot], [quick] and [claim.NAME] (a header
 * may repeat: its keys join the section's). Values set before the call (another file, the
 * command line) are replaced. Lines may hold RS_INI_MAX_LINE characters. Errors name the
 * file and line: RS_EIO (missing or unreadable file) or RS_EPARSE: syntax, an unknown or
 * miscased section (with the nearest one), a key or section name containing a dot, a key
 * given twice in the file (in the same section), an empty key, an indented line (inih
 * would read it as more of the previous value), a line over the limit, a NUL byte. */
int rs_params_load_ini(struct rs_params *p, const char *path, struct rs_err *err);

/* The parameter named key, or NULL. */
const struct rs_param *rs_params_find(const struct rs_params *p, const char *key);

/* The raw text of key, or def->def when absent (may be NULL). */
const char *rs_params_text(const struct rs_params *p, const struct rs_optdef *def);

/* Typed getters. The value is key's value if set, else def->def. A value that does not
 * parse or is out of range gives RS_EINVAL / RS_ECONSTRAINT with a message naming the
 * origin (file:line or command line), the key, the value and what was expected; an
 * unknown choice gives RS_EUNKNOWN with the nearest valid choice. A missing value with
 * no default gives RS_EINVAL ("missing required key"). */
int rs_params_int(const struct rs_params *p, const struct rs_optdef *def, int64_t *out,
                  struct rs_err *err);
int rs_params_double(const struct rs_params *p, const struct rs_optdef *def, double *out,
                     struct rs_err *err);
int rs_params_bool(const struct rs_params *p, const struct rs_optdef *def, int *out,
                   struct rs_err *err);
int rs_params_choice(const struct rs_params *p, const struct rs_optdef *def, int *index,
                     struct rs_err *err);
int rs_params_string(const struct rs_params *p, const struct rs_optdef *def, const char **out,
                     struct rs_err *err);

/* Shorthands that look name up in table first (a missing name is a programming error
 * reported as RS_EINVARIANT). */
int rs_opt_int(const struct rs_params *p, const struct rs_optdef *table, const char *name,
               int64_t *out, struct rs_err *err);
int rs_opt_double(const struct rs_params *p, const struct rs_optdef *table, const char *name,
                  double *out, struct rs_err *err);
int rs_opt_bool(const struct rs_params *p, const struct rs_optdef *table, const char *name,
                int *out, struct rs_err *err);
int rs_opt_choice(const struct rs_params *p, const struct rs_optdef *table, const char *name,
                  int *index, struct rs_err *err);
int rs_opt_string(const struct rs_params *p, const struct rs_optdef *table, const char *name,
                  const char **out, struct rs_err *err);

/* Fail with RS_EUNKNOWN on the first key (in insertion order) that no table in
 * tables[0..ntables) declares, naming its origin and the nearest declared name. Keys
 * containing '.' (INI sections) are skipped. */
int rs_params_check_known(const struct rs_params *p, const struct rs_optdef *const *tables,
                          int ntables, struct rs_err *err);

/* Describe where param came from: "file.ini:12" or "command line". */
void rs_param_where(const struct rs_param *param, char *buf, size_t n);

#endif
