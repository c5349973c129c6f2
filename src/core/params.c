/* Parameters: KEY=VALUE pairs from the command line and INI files (libinih), each
 * remembering its origin, and typed getters validating them against option tables. */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/numtext.h"
#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/booksim_config.h"
#include "routesim/params.h"

#define CMDLINE "command line"

void rs_params_init(struct rs_params *p)
{
    p->v = NULL;
    p->n = p->cap = 0;
}

void rs_params_free(struct rs_params *p)
{
    for (size_t i = 0; i < p->n; i++) {
        rs_free(p->v[i].key);
        rs_free(p->v[i].value);
        rs_free(p->v[i].origin);
    }
    rs_free(p->v);
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

/* Index of key in p, or p->n when absent. */
static size_t index_of(const struct rs_params *p, const char *key)
{
    size_t i = 0;
    while (i < p->n && strcmp(p->v[i].key, key))
        i++;
    return i;
}

const struct rs_param *rs_params_find(const struct rs_params *p, const char *key)
{
    size_t i = index_of(p, key);
    return i < p->n ? &p->v[i] : NULL;
}

int rs_params_set(struct rs_params *p, const char *key, const char *value, const char *origin,
                  int line, struct rs_err *err)
{
    size_t i = index_of(p, key);
    char *v = rs_strdup(value ? value : "");
    char *o = rs_strdup(origin ? origin : CMDLINE);
    char *k = i < p->n ? NULL : rs_strdup(key);
    if (!v || !o || (i == p->n && !k))
        goto nomem;
    if (i == p->n && p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        struct rs_param *nv = rs_realloc(p->v, cap * sizeof *nv);
        if (!nv)
            goto nomem;
        p->v = nv;
        p->cap = cap;
    }
    struct rs_param *q = &p->v[i];
    if (i == p->n) { /* new key: appended, so insertion order is kept */
        q->key = k;
        p->n++;
    } else { /* replaced in place: keeps its position */
        rs_free(q->value);
        rs_free(q->origin);
    }
    q->value = v;
    q->origin = o;
    q->line = line;
    return 0;
nomem:
    rs_free(v);
    rs_free(o);
    rs_free(k);
    return rs_err_set(err, RS_ENOMEM, "out of memory storing key '%s'", key);
}

int rs_params_parse_arg(struct rs_params *p, const char *arg, struct rs_err *err)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return rs_err_set(err, RS_EPARSE, CMDLINE ": expected KEY=VALUE, got '%s'", arg);
    size_t len = (size_t)(eq - arg);
    char *key = rs_malloc(len + 1);
    if (!key)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    memcpy(key, arg, len);
    key[len] = '\0';
    int rc = rs_params_set(p, key, eq + 1, NULL, 0, err);
    rs_free(key);
    return rc;
}

/* INI loading. The file is read here, one whole line at a time, and handed to libinih through a reader callback, in pieces as long as inih's
 * line buffer allows; Debian's libinih lets that buffer grow on the heap up to
 * ini_max_line (set once below), so a line may hold RS_INI_MAX_LINE characters. Where
 * libinih has no such run-time setting (RS_INIH_FIXED_LINE), its compiled limit applies
 * and is reported. inih calls the handler for each key of the line just read, so the
 * reader's line count is the line of each key. The reader also checks section headers
 * (inih does not report them) and stops the parse (returns NULL) on an over-long line, a
 * NUL byte, a bad section, a read error, or once the handler failed, so the first problem
 * is the one reported. */
#ifdef RS_INIH_FIXED_LINE
#define INI_LINE_LIMIT (INI_MAX_LINE - 3) /* room for "\r\n\0" */
static void ini_configure(void)
{
}
#else
#define INI_LINE_LIMIT RS_INI_MAX_LINE
static void ini_configure_once(void)
{
    ini_use_stack = 0;     /* heap line buffer ... */
    ini_allow_realloc = 1; /* ... that grows (doubling) ... */
    ini_max_line = RS_INI_MAX_LINE + 3; /* ... to the longest line plus "\r\n\0" */
}
static void ini_configure(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, ini_configure_once);
}
#endif

/* The sections an INI file may have (a key inside one is stored as "section.key"). */
static const struct ini_section {
    const char *name;
    int named; /* written [name.NAME], NAME without a dot */
} ini_sections[] = {
    {"plot", 0},  /* the plot of a sweep: src/report/plot.c */
    {"quick", 0}, /* smaller run keys for `reproduce --quick`: src/report/reproduce.c */
    {"claim", 1}, /* one claim of a reproduction's claims.ini: src/report/claims.c */
};
#define N_SECTIONS (sizeof ini_sections / sizeof *ini_sections)
#define MAX_SECTION_NAME 49 /* inih keeps 49 characters of a section name */
#define MAX_KEY 255         /* longest "section.name" */

struct ini_ctx {
    FILE *f;
    const char *path;
    struct rs_params *p;
    struct rs_err *err;
    char *buf;          /* the current line (getline) */
    size_t cap, len;    /* its buffer size and length */
    size_t off;         /* bytes of it handed to inih so far */
    int line;           /* lines read so far = the line being parsed */
    int indented;       /* the current line starts with a blank */
    int too_long;       /* the current line is over the limit */
    int read_errno;     /* getline failed with this errno (0: end of file) */
    int rc, rc_line;    /* the first error found here (handler or reader) and its line */
    char prev_key[MAX_KEY + 2]; /* section.name of the previous key (continuation lines) */
};

/* Check the section header "[name]" on the current line. 0 or RS_EPARSE in c->rc. */
static int check_section(struct ini_ctx *c, const char *open)
{
    const char *close = strchr(open + 1, ']');
    if (!close) /* inih reports the syntax error */
        return 0;
    size_t len = (size_t)(close - open - 1);
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(len < 100 ? len : 100), open + 1);
    if (len > MAX_SECTION_NAME) {
        c->rc = rs_err_set(c->err, RS_EPARSE,
                           "%s:%d: section name '%s%s' too long (at most %d characters)", c->path,
                           c->line, name, len > 100 ? "..." : "", MAX_SECTION_NAME);
        return c->rc;
    }
    const char *dot = strchr(name, '.');
    size_t plen = dot ? (size_t)(dot - name) : len;
    const char *names[N_SECTIONS];
    for (size_t i = 0; i < N_SECTIONS; i++) {
        names[i] = ini_sections[i].name;
        if (strlen(names[i]) != plen || strncmp(names[i], name, plen))
            continue;
        if (!ini_sections[i].named && !dot)
            return 0;
        if (ini_sections[i].named && dot && dot[1] && !strchr(dot + 1, '.'))
            return 0;
        if (ini_sections[i].named) {
            c->rc = rs_err_set(c->err, RS_EPARSE,
                               "%s:%d: section [%s] needs a name without dots: [%s.NAME]",
                               c->path, c->line, name, names[i]);
            return c->rc;
        }
    }
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%.*s", (int)plen, name);
    const char *near = rs_suggest(prefix, names, (int)N_SECTIONS);
    if (!near && dot) /* [plot.x]: a section that takes no name, or a mistyped one */
        near = rs_suggest(name, names, (int)N_SECTIONS);
    char hint[160] = "expected [plot], [quick] or [claim.NAME]";
    for (size_t i = 0; near && i < N_SECTIONS; i++)
        if (near == ini_sections[i].name)
            snprintf(hint, sizeof hint, "did you mean [%s%s%s]?", near,
                     ini_sections[i].named ? "." : "",
                     !ini_sections[i].named ? "" : dot && dot[1] ? dot + 1 : "NAME");
    c->rc = rs_err_set(c->err, RS_EPARSE, "%s:%d: unknown section [%s] (%s)", c->path, c->line,
                       name, hint);
    return c->rc;
}

/* Hand inih the next piece of the current line (at most num - 1 bytes). */
static char *ini_serve(struct ini_ctx *c, char *str, int num)
{
    size_t k = c->len - c->off;
    if (k > (size_t)num - 1)
        k = (size_t)num - 1;
    memcpy(str, c->buf + c->off, k);
    str[k] = '\0';
    c->off += k;
    return str;
}

/* Read the next line (with its '\n') into c->buf, c->len bytes, NUL bytes included; stop
 * reading a line a little past the limit (so /dev/zero is refused, not read forever).
 * 1 with a line, 0 at the end of the file or on a read error (c->read_errno), -1 when out
 * of memory. */
static int read_line(struct ini_ctx *c)
{
    c->len = 0;
    for (;;) {
        errno = 0;
        int ch = getc(c->f);
        if (ch == EOF) {
            if (ferror(c->f))
                c->read_errno = errno ? errno : EIO;
            return c->len > 0 && !c->read_errno;
        }
        if (c->len + 2 > c->cap) {
            size_t cap = c->cap ? 2 * c->cap : 256;
            char *nb = rs_realloc(c->buf, cap);
            if (!nb)
                return -1;
            c->buf = nb;
            c->cap = cap;
        }
        c->buf[c->len++] = (char)ch;
        c->buf[c->len] = '\0';
        if (ch == '\n' || c->len > (size_t)INI_LINE_LIMIT + 2)
            return 1;
    }
}

static char *ini_read_line(char *str, int num, void *stream)
{
    struct ini_ctx *c = stream;
    if (c->rc || c->too_long || num < 2)
        return NULL;
    if (c->off < c->len) /* inih's buffer grew: the rest of the line */
        return ini_serve(c, str, num);
    int r = read_line(c);
    if (r <= 0) {
        if (r < 0)
            c->rc = rs_err_set(c->err, RS_ENOMEM, "cannot read '%s': out of memory", c->path);
        return NULL;
    }
    c->line++;
    c->off = 0;
    size_t content = c->len;
    while (content && (c->buf[content - 1] == '\n' || c->buf[content - 1] == '\r'))
        content--;
    if (content > INI_LINE_LIMIT) {
        c->too_long = 1;
        return NULL;
    }
    if (memchr(c->buf, '\0', c->len)) {
        c->rc = rs_err_set(c->err, RS_EPARSE, "%s:%d: NUL character in the line", c->path,
                           c->line);
        c->rc_line = c->line;
        return NULL;
    }
    c->indented = c->buf[0] == ' ' || c->buf[0] == '\t';
    const char *first = c->buf + strspn(c->buf, " \t");
    if (*first == '[') { /* a section header: the next line starts afresh */
        c->prev_key[0] = '\0';
        if (check_section(c, first)) {
            c->rc_line = c->line;
            return NULL;
        }
    }
    return ini_serve(c, str, num);
}

/* The key (or section) of a handler call contains a dot, or was set earlier in this
 * file: RS_EPARSE in c->rc naming both lines. Else 0. */
static int check_key(struct ini_ctx *c, const char *section, const char *name,
                     const char *key)
{
    const char *in = section && section[0] ? " in [" : "";
    const char *sec = section && section[0] ? section : "";
    const char *end = section && section[0] ? "]" : "";
    if (strchr(name, '.'))
        return c->rc = rs_err_set(c->err, RS_EPARSE,
                                  "%s:%d: key '%s'%s%s%s contains a dot (a key of a section is "
                                  "written under its [section] header)",
                                  c->path, c->line, name, in, sec, end);
    const struct rs_param *q = rs_params_find(c->p, key);
    if (q && q->line > 0 && q->origin && !strcmp(q->origin, c->path))
        return c->rc = rs_err_set(c->err, RS_EPARSE,
                                  "%s:%d: key '%s'%s%s%s given twice (first at line %d)",
                                  c->path, c->line, name, in, sec, end, q->line);
    return 0;
}

static int ini_on_key(void *user, const char *section, const char *name, const char *value)
{
    struct ini_ctx *c = user;
    char key[MAX_KEY + 2];
    int klen = section && section[0] ? snprintf(key, sizeof key, "%s.%s", section, name)
                                     : snprintf(key, sizeof key, "%s", name);
    if (klen > MAX_KEY) {
        c->rc = rs_err_set(c->err, RS_EPARSE,
                           "%s:%d: key name too long (at most %d characters with its section)",
                           c->path, c->line, MAX_KEY);
    } else if (!name[0]) {
        c->rc = rs_err_set(c->err, RS_EPARSE, "%s:%d: expected KEY = VALUE, got an empty key",
                           c->path, c->line);
    } else if (c->indented && !strcmp(key, c->prev_key)) {
        /* inih reads an indented line after a key as more of that key's value */
        c->rc = rs_err_set(c->err, RS_EPARSE,
                           "%s:%d: indented line continues the value of '%s' (remove the "
                           "indentation)", c->path, c->line, key);
    } else if (!check_key(c, section, name, key)) {
        c->rc = rs_params_set(c->p, key, value ? value : "", c->path, c->line, c->err);
    }
    snprintf(c->prev_key, sizeof c->prev_key, "%s", key);
    if (c->rc) {
        c->rc_line = c->line;
        return 0;
    }
    return 1;
}

int rs_params_load_ini(struct rs_params *p, const char *path, struct rs_err *err)
{
    struct ini_ctx c;
    memset(&c, 0, sizeof c);
    c.path = path;
    c.p = p;
    c.err = err;
    if (!(c.f = fopen(path, "r")))
        return rs_err_set(err, RS_EIO, "cannot open '%s': %s", path, strerror(errno));
    ini_configure();
    int r = ini_parse_stream(ini_read_line, &c, ini_on_key, &c);
    fclose(c.f);
    rs_free(c.buf);
    /* inih returns the first line with a syntax error (or a failed handler); report
     * whichever problem comes first in the file. */
    if (r > 0 && (!c.rc || r < c.rc_line))
        return rs_err_set(err, RS_EPARSE, "%s:%d: syntax error (expected KEY = VALUE or [section])",
                          path, r);
    if (c.rc)
        return c.rc;
    if (c.too_long)
        return rs_err_set(err, RS_EPARSE, "%s:%d: line too long (more than %d characters)", path,
                          c.line, INI_LINE_LIMIT);
    if (c.read_errno)
        return rs_err_set(err, RS_EIO, "cannot read '%s': %s", path, strerror(c.read_errno));
    if (r < 0)
        return rs_err_set(err, RS_ENOMEM, "cannot read '%s': out of memory", path);
    return 0;
}

void rs_param_where(const struct rs_param *param, char *buf, size_t n)
{
    if (!n)
        return;
    if (!param)
        snprintf(buf, n, "default");
    else if (param->line > 0)
        snprintf(buf, n, "%s:%d", param->origin, param->line);
    else
        snprintf(buf, n, "%s", param->origin ? param->origin : CMDLINE);
}

const char *rs_params_text(const struct rs_params *p, const struct rs_optdef *def)
{
    const struct rs_param *q = rs_params_find(p, def->name);
    return q ? q->value : def->def;
}

/* Fetch the text of def's key (its value, else the default) and where it came from. */
static int get_text(const struct rs_params *p, const struct rs_optdef *def, const char **text,
                    char *where, size_t n, struct rs_err *err)
{
    RS_ASSERT(p != NULL && def != NULL && def->name != NULL);
    const struct rs_param *q = rs_params_find(p, def->name);
    rs_param_where(q, where, n);
    *text = q ? q->value : def->def;
    if (!*text)
        return rs_err_set(err, RS_EINVAL, "missing required key '%s' (%s)", def->name,
                          def->help ? def->help : "it has no default");
    return 0;
}

/* Parse an integer: optional blanks, an optional sign, then decimal digits or base^exp
 * (both decimal, the sign applying to the power: "-2^3" is -8), optional blanks. Checks
 * for overflow of int64_t; 0 on success, -1 otherwise. */
static int parse_int(const char *s, int64_t *out)
{
    while (isspace((unsigned char)*s))
        s++;
    int neg = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long mag = strtoull(s, &end, 10);
    if (errno)
        return -1;
    if (*end == '^') {
        const char *e = end + 1;
        if (!isdigit((unsigned char)*e))
            return -1;
        unsigned long long exp = strtoull(e, &end, 10), v = 1;
        if (errno)
            return -1;
        if (mag <= 1)
            v = exp == 0 ? 1 : mag;
        else
            for (unsigned long long i = 0; i < exp; i++) /* overflows within 64 rounds */
                if (__builtin_mul_overflow(v, mag, &v))
                    return -1;
        mag = v;
    }
    while (isspace((unsigned char)*end))
        end++;
    if (*end || mag > (unsigned long long)INT64_MAX + neg)
        return -1;
    *out = neg && mag ? -(int64_t)(mag - 1) - 1 : (int64_t)mag;
    return 0;
}

/* " in [min, max]" for messages. */
static void range_text(const struct rs_optdef *def, char *buf, size_t n)
{
    char r[112];
    rs__range_text(def->min, def->max, r, sizeof r);
    snprintf(buf, n, " in %s", r);
}

int rs_params_int(const struct rs_params *p, const struct rs_optdef *def, int64_t *out,
                  struct rs_err *err)
{
    const char *text;
    char where[512], range[128];
    RS_ASSERT(def->type == RS_OPT_INT);
    int rc = get_text(p, def, &text, where, sizeof where, err);
    if (rc)
        return rc;
    range_text(def, range, sizeof range);
    int64_t v;
    if (parse_int(text, &v))
        return rs_err_set(err, RS_EINVAL, "%s: key '%s': expected an integer%s, got '%s'", where,
                          def->name, range, text);
    if ((double)v < def->min || (double)v > def->max)
        return rs_err_set(err, RS_ECONSTRAINT, "%s: key '%s': expected an integer%s, got '%s'",
                          where, def->name, range, text);
    *out = v;
    return 0;
}

int rs_params_double(const struct rs_params *p, const struct rs_optdef *def, double *out,
                     struct rs_err *err)
{
    const char *text;
    char where[512], range[128];
    RS_ASSERT(def->type == RS_OPT_DOUBLE); /* the getter of the key's declared type */
    int rc = get_text(p, def, &text, where, sizeof where, err);
    if (rc)
        return rc;
    range_text(def, range, sizeof range);
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (errno || end == text || *end || !isfinite(v))
        return rs_err_set(err, RS_EINVAL, "%s: key '%s': expected a number%s, got '%s'", where,
                          def->name, range, text);
    if (v < def->min || v > def->max)
        return rs_err_set(err, RS_ECONSTRAINT, "%s: key '%s': expected a number%s, got '%s'",
                          where, def->name, range, text);
    *out = v;
    return 0;
}

int rs_params_bool(const struct rs_params *p, const struct rs_optdef *def, int *out,
                   struct rs_err *err)
{
    static const char *const words[] = {"0", "1", "false", "true", "no", "yes", "off", "on"};
    const char *text;
    char where[512];
    RS_ASSERT(def->type == RS_OPT_BOOL);
    int rc = get_text(p, def, &text, where, sizeof where, err);
    if (rc)
        return rc;
    for (int i = 0; i < 8; i++)
        if (!strcasecmp(text, words[i])) {
            *out = i % 2;
            return 0;
        }
    return rs_err_set(err, RS_EINVAL,
                      "%s: key '%s': expected a boolean (0|1|true|false|yes|no|on|off), got '%s'",
                      where, def->name, text);
}

int rs_params_choice(const struct rs_params *p, const struct rs_optdef *def, int *index,
                     struct rs_err *err)
{
    const char *text;
    char where[512];
    RS_ASSERT(def->type == RS_OPT_CHOICE && def->choices != NULL);
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
    char list[400] = "";
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
#undef RS__OPT_SHORTHAND

/* The unknown key q: RS_EUNKNOWN naming its origin and the nearest declared name. */
static int unknown_key(const struct rs_param *q, const struct rs_optdef *const *tables,
                       int ntables, struct rs_err *err)
{
    char where[512];
    rs_param_where(q, where, sizeof where);
    int n = 0;
    for (int t = 0; t < ntables; t++)
        for (const struct rs_optdef *d = tables[t]; d && d->name; d++)
            n++;
    const char **names = rs_malloc((size_t)(n ? n : 1) * sizeof *names);
    if (!names)
        return rs_err_set(err, RS_EUNKNOWN, "%s: unknown key '%s'", where, q->key);
    n = 0;
    for (int t = 0; t < ntables; t++)
        for (const struct rs_optdef *d = tables[t]; d && d->name; d++)
            names[n++] = d->name;
    const char *near = rs_suggest(q->key, names, n);
    const char *bs = rs_booksim_alias(q->key); /* a BookSim name routesim spells otherwise */
    if (bs) {
        rs_free(names);
        return rs_err_set(err, RS_EUNKNOWN, "%s: unknown key '%s' (did you mean '%s'? "
                          "'%s' is BookSim's name)", where, q->key, bs, q->key);
    }
    int rc = near ? rs_err_set(err, RS_EUNKNOWN, "%s: unknown key '%s' (did you mean '%s'?)",
                               where, q->key, near)
                  : rs_err_set(err, RS_EUNKNOWN, "%s: unknown key '%s' (see `routesim list`)",
                               where, q->key);
    rs_free(names);
    return rc;
}

int rs_params_check_known(const struct rs_params *p, const struct rs_optdef *const *tables,
                          int ntables, struct rs_err *err)
{
    for (size_t i = 0; i < p->n; i++) {
        const char *key = p->v[i].key;
        int known = strchr(key, '.') != NULL;
        for (int t = 0; t < ntables && !known; t++)
            known = rs_optdef_find(tables[t], key) != NULL;
        if (!known)
            return unknown_key(&p->v[i], tables, ntables, err);
    }
    return 0;
}
