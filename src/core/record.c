/* Result records (ordered named values) and their writers: aligned table, CSV
 * (RFC 4180) and JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/options.h"
#include "routesim/record.h"

void rs_record_init(struct rs_record *r)
{
    r->f = NULL;
    r->n = r->cap = 0;
    r->n_params = 0;
}

void rs_record_free(struct rs_record *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->f[i].name);
        free(r->f[i].s);
    }
    free(r->f);
    rs_record_init(r);
}

const struct rs_field *rs_record_get(const struct rs_record *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->f[i].name, name))
            return &r->f[i];
    return NULL;
}

/* The field named name, added at the end if new; NULL when out of memory. */
static struct rs_field *slot(struct rs_record *r, const char *name)
{
    struct rs_field *f = (struct rs_field *)rs_record_get(r, name);
    if (f) {
        free(f->s);
        f->s = NULL;
        return f;
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 32;
        struct rs_field *nf = realloc(r->f, cap * sizeof *nf);
        if (!nf)
            return NULL;
        r->f = nf;
        r->cap = cap;
    }
    f = &r->f[r->n];
    memset(f, 0, sizeof *f);
    if (!(f->name = strdup(name)))
        return NULL;
    r->n++;
    return f;
}

int rs_record_int(struct rs_record *r, const char *name, int64_t v)
{
    struct rs_field *f = slot(r, name);
    if (!f)
        return RS_ENOMEM;
    f->type = RS_VAL_INT;
    f->i = v;
    return 0;
}

int rs_record_double(struct rs_record *r, const char *name, double v)
{
    struct rs_field *f = slot(r, name);
    if (!f)
        return RS_ENOMEM;
    f->type = RS_VAL_DOUBLE;
    f->d = v;
    return 0;
}

int rs_record_string(struct rs_record *r, const char *name, const char *v)
{
    struct rs_field *f = slot(r, name);
    if (!f)
        return RS_ENOMEM;
    f->type = RS_VAL_STRING;
    if (!(f->s = strdup(v)))
        return RS_ENOMEM;
    return 0;
}

int rs_format_parse(const char *s, enum rs_format *out, struct rs_err *err)
{
    static const char *const names[] = {"table", "csv", "json"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *out = (enum rs_format)i;
            return 0;
        }
    const char *near = rs_suggest(s, names, 3);
    if (near)
        return rs_err_set(err, RS_EUNKNOWN, "unknown value '%s' for --format (did you mean '%s'?)",
                          s, near);
    return rs_err_set(err, RS_EUNKNOWN, "unknown value '%s' for --format (expected table|csv|json)",
                      s);
}

/* Plain text of a value (table and CSV). */
static void value_text(const struct rs_field *f, char *buf, size_t n)
{
    if (f->type == RS_VAL_INT)
        snprintf(buf, n, "%lld", (long long)f->i);
    else if (f->type == RS_VAL_DOUBLE)
        snprintf(buf, n, "%.9g", f->d);
    else
        snprintf(buf, n, "%s", f->s ? f->s : "");
}

static int csv_cell(struct rs_buf *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n"))
        return rs_buf_puts(out, s);
    int rc = rs_buf_puts(out, "\"");
    for (const char *c = s; *c && !rc; c++)
        rc = *c == '"' ? rs_buf_puts(out, "\"\"") : rs_buf_append(out, c, 1);
    return rc ? rc : rs_buf_puts(out, "\"");
}

static int json_string(struct rs_buf *out, const char *s)
{
    int rc = rs_buf_puts(out, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c && !rc; c++) {
        if (*c == '"' || *c == '\\')
            rc = rs_buf_printf(out, "\\%c", *c);
        else if (*c == '\n')
            rc = rs_buf_puts(out, "\\n");
        else if (*c == '\t')
            rc = rs_buf_puts(out, "\\t");
        else if (*c < 0x20)
            rc = rs_buf_printf(out, "\\u%04x", *c);
        else
            rc = rs_buf_append(out, (const char *)c, 1);
    }
    return rc ? rc : rs_buf_puts(out, "\"");
}

static int write_json(struct rs_buf *out, const struct rs_record *r)
{
    int rc = rs_buf_puts(out, "{");
    for (size_t i = 0; i < r->n && !rc; i++) {
        const struct rs_field *f = &r->f[i];
        rc = i ? rs_buf_puts(out, ",") : 0;
        rc = rc ? rc : json_string(out, f->name);
        rc = rc ? rc : rs_buf_puts(out, ":");
        if (rc)
            break;
        if (f->type == RS_VAL_INT)
            rc = rs_buf_printf(out, "%lld", (long long)f->i);
        else if (f->type == RS_VAL_DOUBLE)
            rc = isfinite(f->d) ? rs_buf_printf(out, "%.9g", f->d) : rs_buf_puts(out, "null");
        else
            rc = json_string(out, f->s ? f->s : "");
    }
    return rc ? rc : rs_buf_puts(out, "}");
}

int rs_record_csv_header(struct rs_buf *out, const struct rs_record *r)
{
    int rc = 0;
    for (size_t i = 0; i < r->n && !rc; i++)
        rc = (i ? rs_buf_puts(out, ",") : 0) || csv_cell(out, r->f[i].name);
    return rc ? RS_ENOMEM : rs_buf_puts(out, "\n");
}

int rs_record_csv_row(struct rs_buf *out, const struct rs_record *r)
{
    char v[256];
    int rc = 0;
    for (size_t i = 0; i < r->n && !rc; i++) {
        const struct rs_field *f = &r->f[i];
        rc = i ? rs_buf_puts(out, ",") : 0;
        if (!rc && f->type == RS_VAL_STRING) {
            rc = csv_cell(out, f->s ? f->s : "");
        } else if (!rc) {
            value_text(f, v, sizeof v);
            rc = rs_buf_puts(out, v);
        }
    }
    return rc ? RS_ENOMEM : rs_buf_puts(out, "\n");
}

static int same_fields(const struct rs_record *a, const struct rs_record *b)
{
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->f[i].name, b->f[i].name))
            return 0;
    return 1;
}

static int write_table(struct rs_buf *out, const struct rs_record *recs, size_t n)
{
    char v[256];
    int rc = 0;
    if (n == 1) {
        size_t w = 0;
        for (size_t i = 0; i < recs[0].n; i++)
            if (strlen(recs[0].f[i].name) > w)
                w = strlen(recs[0].f[i].name);
        for (size_t i = 0; i < recs[0].n && !rc; i++) {
            value_text(&recs[0].f[i], v, sizeof v);
            rc = rs_buf_printf(out, "%-*s  %s\n", (int)w, recs[0].f[i].name, v);
        }
        return rc;
    }
    size_t nf = recs[0].n;
    size_t *w = calloc(nf ? nf : 1, sizeof *w);
    if (!w)
        return RS_ENOMEM;
    for (size_t i = 0; i < nf; i++)
        w[i] = strlen(recs[0].f[i].name);
    for (size_t r = 0; r < n; r++)
        for (size_t i = 0; i < nf; i++) {
            value_text(&recs[r].f[i], v, sizeof v);
            if (strlen(v) > w[i])
                w[i] = strlen(v);
        }
    for (size_t i = 0; i < nf && !rc; i++)
        rc = rs_buf_printf(out, "%s%-*s", i ? "  " : "", (int)w[i], recs[0].f[i].name);
    rc = rc ? rc : rs_buf_puts(out, "\n");
    for (size_t r = 0; r < n && !rc; r++) {
        for (size_t i = 0; i < nf && !rc; i++) {
            value_text(&recs[r].f[i], v, sizeof v);
            rc = rs_buf_printf(out, "%s%*s", i ? "  " : "", (int)w[i], v);
        }
        rc = rc ? rc : rs_buf_puts(out, "\n");
    }
    free(w);
    return rc;
}

int rs_records_write(struct rs_buf *out, enum rs_format fmt, const struct rs_record *recs,
                     size_t n, struct rs_err *err)
{
    int rc = 0;
    for (size_t r = 1; r < n; r++)
        if (!same_fields(&recs[0], &recs[r]))
            return rs_err_set(err, RS_EINVAL, "records %zu and 0 have different fields", r);
    if (n == 0)
        return 0;
    switch (fmt) {
    case RS_FMT_CSV:
        rc = rs_record_csv_header(out, &recs[0]);
        for (size_t r = 0; r < n && !rc; r++)
            rc = rs_record_csv_row(out, &recs[r]);
        break;
    case RS_FMT_JSON:
        if (n == 1) {
            rc = write_json(out, &recs[0]);
            rc = rc ? rc : rs_buf_puts(out, "\n");
        } else {
            rc = rs_buf_puts(out, "[\n");
            for (size_t r = 0; r < n && !rc; r++) {
                rc = write_json(out, &recs[r]);
                rc = rc ? rc : rs_buf_puts(out, r + 1 < n ? ",\n" : "\n");
            }
            rc = rc ? rc : rs_buf_puts(out, "]\n");
        }
        break;
    case RS_FMT_TABLE:
        rc = write_table(out, recs, n);
        break;
    }
    return rc ? rs_err_set(err, RS_ENOMEM, "out of memory writing results") : 0;
}
