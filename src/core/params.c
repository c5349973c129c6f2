/* Parameters: KEY=VALUE pairs from the command line and INI files (libinih), each
 * remembering its origin, and typed getters validating them against option tables. */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/params.h"

void rs_params_init(struct rs_params *p)
{
    p->v = NULL;
    p->n = p->cap = 0;
}

void rs_params_free(struct rs_params *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->v[i].key);
        free(p->v[i].value);
        free(p->v[i].origin);
    }
    free(p->v);
    rs_params_init(p);
}

int rs_params_copy(struct rs_params *dst, const struct rs_params *src)
{
    rs_params_init(dst);
    for (size_t i = 0; i < src->n; i++) {
        const struct rs_param *q = &src->v[i];
        if (rs_params_set(dst, q->key, q->value, q->origin, q->line, NULL)) {
            rs_params_free(dst);
            return RS_ENOMEM;
        }
    }
    return 0;
}

static struct rs_param *find_mut(struct rs_params *p, const char *key)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->v[i].key, key))
            return &p->v[i];
    return NULL;
}

const struct rs_param *rs_params_find(const struct rs_params *p, const char *key)
{
    return find_mut((struct rs_params *)p, key);
}

int rs_params_set(struct rs_params *p, const char *key, const char *value, const char *origin,
                  int line, struct rs_err *err)
{
    char *v = strdup(value);
    char *o = strdup(origin ? origin : "command line");
    if (!v || !o) {
        free(v);
        free(o);
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    }
    struct rs_param *q = find_mut(p, key);
    if (q) {
        free(q->value);
        free(q->origin);
    } else {
        if (p->n == p->cap) {
            size_t cap = p->cap ? 2 * p->cap : 16;
            struct rs_param *nv = realloc(p->v, cap * sizeof *nv);
            if (!nv || !(key = strdup(key))) {
                if (nv)
                    p->v = nv;
                free(v);
                free(o);
                return rs_err_set(err, RS_ENOMEM, "out of memory");
            }
            p->v = nv;
            p->cap = cap;
        } else if (!(key = strdup(key))) {
            free(v);
            free(o);
            return rs_err_set(err, RS_ENOMEM, "out of memory");
        }
        q = &p->v[p->n++];
        q->key = (char *)key;
    }
    q->value = v;
    q->origin = o;
    q->line = line;
    return 0;
}

int rs_params_parse_arg(struct rs_params *p, const char *arg, struct rs_err *err)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return rs_err_set(err, RS_EPARSE, "command line: expected KEY=VALUE, got '%s'", arg);
    char key[256];
    size_t len = (size_t)(eq - arg);
    if (len >= sizeof key)
        return rs_err_set(err, RS_EPARSE, "command line: key too long in '%.40s...'", arg);
    memcpy(key, arg, len);
    key[len] = '\0';
    return rs_params_set(p, key, eq + 1, NULL, 0, err);
}

/* INI loading: inih calls the reader once per line, so counting calls gives the line of
 * each key the handler receives. */
struct ini_ctx {
    FILE *f;
    int line;
    const char *path;
    struct rs_params *p;
    struct rs_err *err;
    int rc;
};

static char *ini_read_line(char *str, int num, void *stream)
{
    struct ini_ctx *c = stream;
    char *s = fgets(str, num, c->f);
    if (s)
        c->line++;
    return s;
}

static int ini_on_key(void *user, const char *section, const char *name, const char *value)
{
    struct ini_ctx *c = user;
    char key[512];
    if (section && section[0])
        snprintf(key, sizeof key, "%s.%s", section, name);
    else
        snprintf(key, sizeof key, "%s", name);
    if (rs_params_set(c->p, key, value ? value : "", c->path, c->line, c->err)) {
        c->rc = RS_ENOMEM;
        return 0;
    }
    return 1;
}

int rs_params_load_ini(struct rs_params *p, const char *path, struct rs_err *err)
{
    struct ini_ctx c = {NULL, 0, path, p, err, 0};
    if (!(c.f = fopen(path, "r")))
        return rs_err_set(err, RS_EIO, "cannot open '%s': %s", path, strerror(errno));
    int r = ini_parse_stream(ini_read_line, &c, ini_on_key, &c);
    fclose(c.f);
    if (c.rc)
        return c.rc;
    if (r > 0)
        return rs_err_set(err, RS_EPARSE, "%s:%d: syntax error (expected KEY = VALUE or [section])",
                          path, r);
    if (r < 0)
        return rs_err_set(err, RS_EIO, "cannot read '%s'", path);
    return 0;
}

void rs_param_where(const struct rs_param *param, char *buf, size_t n)
{
    if (!param)
        snprintf(buf, n, "default");
    else if (param->line > 0)
        snprintf(buf, n, "%s:%d", param->origin, param->line);
    else
        snprintf(buf, n, "%s", param->origin);
}

const char *rs_params_text(const struct rs_params *p, const struct rs_optdef *def)
{
    const struct rs_param *q = rs_params_find(p, def->name);
    return q ? q->value : def->def;
}

/* Fetch the text of def's key; sets *where for messages. */
static int get_text(const struct rs_params *p, const struct rs_optdef *def, const char **text,
                    char *where, size_t n, struct rs_err *err)
{
    const struct rs_param *q = rs_params_find(p, def->name);
    rs_param_where(q, where, n);
    *text = q ? q->value : def->def;
    if (!*text)
        return rs_err_set(err, RS_EINVAL, "missing required key '%s' (%s)", def->name,
                          def->help ? def->help : "no default");
    return 0;
}

/* Parse a decimal integer with optional sign, or base^exp; 0 on success. */
static int parse_int(const char *s, int64_t *out)
{
    char *end;
    while (isspace((unsigned char)*s))
        s++;
    if (!*s)
        return -1;
    errno = 0;
    long long a = strtoll(s, &end, 10);
    if (errno || end == s)
        return -1;
    if (*end == '^') {
        const char *e = end + 1;
        if (!isdigit((unsigned char)*e))
            return -1;
        long long b = strtoll(e, &end, 10);
        if (errno || b < 0 || b > 62)
            return -1;
        long long v = 1;
        for (long long i = 0; i < b; i++) {
            if (__builtin_mul_overflow(v, a, &v))
                return -1;
        }
        a = v;
    }
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return -1;
    *out = a;
    return 0;
}

static void format_range(const struct rs_optdef *def, char *buf, size_t n)
{
    if (def->max >= 9e15)
        snprintf(buf, n, ">= %.15g", def->min);
    else
        snprintf(buf, n, "in [%.15g, %.15g]", def->min, def->max);
}

int rs_params_int(const struct rs_params *p, const struct rs_optdef *def, int64_t *out,
                  struct rs_err *err)
{
    const char *text;
    char where[512], range[96];
    int rc = get_text(p, def, &text, where, sizeof where, err);
    if (rc)
        return rc;
    format_range(def, range, sizeof range);
    int64_t v;
    if (parse_int(text, &v))
        return rs_err_set(err, RS_EINVAL, "%s: key '%s': expected an integer %s, got '%s'", where,
                          def->name, range, text);
    if ((double)v < def->min || (double)v > def->max)
        return rs_err_set(err, RS_ECONSTRAINT, "%s: key '%s': expected an integer %s, got '%s'",
                          where, def->name, range, text);
    *out = v;
    return 0;
}

int rs_params_double(const struct rs_params *p, const struct rs_optdef *def, double *out,
                     struct rs_err *err)
{
    const char *text;
    char where[512], range[96];
    int rc = get_text(p, def, &text, where, sizeof where, err);
    if (rc)
        return rc;
    format_range(def, range, sizeof range);
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    while (end && isspace((unsigned char)*end))
        end++;
    if (errno || end == text || *end || !isfinite(v))
        return rs_err_set(err, RS_EINVAL, "%s: key '%s': expected a number %s, got '%s'", where,
                          def->name, range, text);
    if (v < def->min || v > def->max)
        return rs_err_set(err, RS_ECONSTRAINT, "%s: key '%s': expected a number %s, got '%s'",
                          where, def->name, range, text);
    *out = v;
    return 0;
}

int rs_params_bool(const struct rs_params *p, const struct rs_optdef *def, int *out,
                   struct rs_err *err)
{
    static const char *const yes[] = {"1", "true", "yes", "on"};
    static const char *const no[] = {"0", "false", "no", "off"};
    const char *text;
    char where[512];
    int rc = get_text(p, def, &text, where, sizeof where, err);
    if (rc)
        return rc;
    for (int i = 0; i < 4; i++) {
        if (!strcmp(text, yes[i])) {
            *out = 1;
            return 0;
        }
        if (!strcmp(text, no[i])) {
            *out = 0;
            return 0;
        }
    }
    return rs_err_set(err, RS_EINVAL, "%s: key '%s': expected 0 or 1, got '%s'", where,
                      def->name, text);
}

int rs_params_choice(const struct rs_params *p, const struct rs_optdef *def, int *index,
                     struct rs_err *err)
{
    const char *text;
    char where[512];
    int rc = get_text(p, def, &text, where, sizeof where, err);
    if (rc)
        return rc;
    int n = 0;
    for (; def->choices && def->choices[n]; n++)
        if (!strcmp(def->choices[n], text)) {
            *index = n;
            return 0;
        }
    const char *near = rs_suggest(text, def->choices, n);
    if (near)
        return rs_err_set(err, RS_EUNKNOWN,
                          "%s: unknown value '%s' for key '%s' (did you mean '%s'?)", where, text,
                          def->name, near);
    char list[256] = "";
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof list - 1; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? "|" : "",
                                def->choices[i]);
    return rs_err_set(err, RS_EUNKNOWN, "%s: unknown value '%s' for key '%s' (expected %s)",
                      where, text, def->name, list);
}

int rs_params_string(const struct rs_params *p, const struct rs_optdef *def, const char **out,
                     struct rs_err *err)
{
    char where[512];
    return get_text(p, def, out, where, sizeof where, err);
}

#define RS__OPT_SHORTHAND(fn, getter, type)                                                 \
    int fn(const struct rs_params *p, const struct rs_optdef *table, const char *name,      \
           type out, struct rs_err *err)                                                   \
    {                                                                                       \
        const struct rs_optdef *d = rs_optdef_find(table, name);                            \
        if (!d)                                                                             \
            return rs_err_set(err, RS_EINVARIANT, "option '%s' is not declared", name);     \
        return getter(p, d, out, err);                                                      \
    }
RS__OPT_SHORTHAND(rs_opt_int, rs_params_int, int64_t *)
RS__OPT_SHORTHAND(rs_opt_double, rs_params_double, double *)
RS__OPT_SHORTHAND(rs_opt_bool, rs_params_bool, int *)
RS__OPT_SHORTHAND(rs_opt_choice, rs_params_choice, int *)
RS__OPT_SHORTHAND(rs_opt_string, rs_params_string, const char **)

int rs_params_check_known(const struct rs_params *p, const struct rs_optdef *const *tables,
                          int ntables, struct rs_err *err)
{
    for (size_t i = 0; i < p->n; i++) {
        const char *key = p->v[i].key;
        int known = strchr(key, '.') != NULL;
        for (int t = 0; t < ntables && !known; t++)
            known = rs_optdef_find(tables[t], key) != NULL;
        if (known)
            continue;
        const char *names[256];
        int n = 0;
        for (int t = 0; t < ntables; t++)
            for (const struct rs_optdef *d = tables[t]; d && d->name && n < 256; d++)
                names[n++] = d->name;
        char where[512];
        rs_param_where(&p->v[i], where, sizeof where);
        const char *near = rs_suggest(key, names, n);
        if (near)
            return rs_err_set(err, RS_EUNKNOWN, "%s: unknown key '%s' (did you mean '%s'?)", where,
                              key, near);
        return rs_err_set(err, RS_EUNKNOWN, "%s: unknown key '%s' (see `routesim list`)", where,
                          key);
    }
    return 0;
}
