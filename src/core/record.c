/* Result records (ordered named values) and their writers: aligned table, CSV
 * (RFC 4180), JSON (one object per line) and JSON Lines; doubles at 9 significant digits or
 * exactly (the shortest text that reads back as the same double). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
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
        rs_free(r->f[i].name);
        rs_free(r->f[i].s);
    }
    rs_free(r->f);
    rs_record_init(r);
}

const struct rs_field *rs_record_get(const struct rs_record *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->f[i].name, name))
            return &r->f[i];
    return NULL;
}

/* The field named name, added at the end if new (an existing one keeps its position and
 * loses its string); NULL when out of memory. */
static struct rs_field *slot(struct rs_record *r, const char *name)
{
    RS_ASSERT(r != NULL && name != NULL);
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->f[i].name, name)) {
            rs_free(r->f[i].s);
            r->f[i].s = NULL;
            return &r->f[i];
        }
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 32;
        struct rs_field *nf = rs_realloc(r->f, cap * sizeof *nf);
        if (!nf)
            return NULL;
        r->f = nf;
        r->cap = cap;
    }
    struct rs_field *f = &r->f[r->n];
    memset(f, 0, sizeof *f);
    if (!(f->name = rs_strdup(name)))
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
    f->d = 0;
    return 0;
}

int rs_record_double(struct rs_record *r, const char *name, double v)
{
    struct rs_field *f = slot(r, name);
    if (!f)
        return RS_ENOMEM;
    f->type = RS_VAL_DOUBLE;
    f->i = 0;
    f->d = v;
    return 0;
}

int rs_record_string(struct rs_record *r, const char *name, const char *v)
{
    struct rs_field *f = slot(r, name);
    if (!f)
        return RS_ENOMEM;
    f->type = RS_VAL_STRING;
    f->i = 0;
    f->d = 0;
    if (!(f->s = rs_strdup(v ? v : "")))
        return RS_ENOMEM;
    return 0;
}

int rs_format_parse(const char *s, enum rs_format *out, struct rs_err *err)
{
    static const char *const names[] = {"table", "csv", "json", "jsonl"};
    static const enum rs_format formats[] = {RS_FMT_TABLE, RS_FMT_CSV, RS_FMT_JSON,
                                             RS_FMT_JSONL};
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, names[i])) {
            *out = formats[i];
            return 0;
        }
    const char *near = rs_suggest(s, names, 4);
    if (near)
        return rs_err_set(err, RS_EUNKNOWN, "unknown value '%s' for --format (did you mean '%s'?)",
                          s, near);
    return rs_err_set(err, RS_EUNKNOWN, "unknown value '%s' for --format (expected table|csv|json|jsonl)",
                      s);
}

void rs_double_text(double v, enum rs_digits digits, char *buf, size_t n)
{
    if (isnan(v)) {
        snprintf(buf, n, "nan");
    } else if (isinf(v)) {
        snprintf(buf, n, "%s", v < 0 ? "-inf" : "inf");
    } else if (digits == RS_DIGITS_EXACT) {
        /* the fewest significant digits that read back as v: "%.9g" when it does (a value
         * with fewer digits rounds to them there, zeros stripped), else 10 to 17 */
        for (int p = 9; p <= 17; p++) {
            snprintf(buf, n, "%.*g", p, v);
            if (strtod(buf, NULL) == v)
                break;
        }
    } else {
        snprintf(buf, n, "%.9g", v);
    }
}

/* Text of a number field (table and CSV): "%lld", or the double's rs_double_text. */
static void number_text(const struct rs_field *f, enum rs_digits digits, char *buf, size_t n)
{
    if (f->type == RS_VAL_INT)
        snprintf(buf, n, "%lld", (long long)f->i);
    else
        rs_double_text(f->d, digits, buf, n);
}

/* Text of any field; numbers go through tmp (>= 32 bytes), strings are returned as they
 * are (never truncated). */
static const char *value_text(const struct rs_field *f, enum rs_digits digits, char *tmp,
                              size_t n)
{
    if (f->type == RS_VAL_STRING)
        return f->s ? f->s : "";
    number_text(f, digits, tmp, n);
    return tmp;
}

/* One CSV cell, quoted (RFC 4180) when it holds a comma, a quote, CR or LF. */
static int csv_cell(struct rs_buf *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n"))
        return rs_buf_puts(out, s);
    int rc = rs_buf_puts(out, "\"");
    for (const char *c = s; *c && !rc; c++)
        rc = *c == '"' ? rs_buf_puts(out, "\"\"") : rs_buf_append(out, c, 1);
    return rc ? rc : rs_buf_puts(out, "\"");
}

/* A JSON string literal: quotes, backslashes and control characters escaped; other
 * bytes (UTF-8 included) copied as they are. */
static int json_string(struct rs_buf *out, const char *s)
{
    int rc = rs_buf_puts(out, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c && !rc; c++) {
        switch (*c) {
        case '"':
            rc = rs_buf_puts(out, "\\\"");
            break;
        case '\\':
            rc = rs_buf_puts(out, "\\\\");
            break;
        case '\n':
            rc = rs_buf_puts(out, "\\n");
            break;
        case '\r':
            rc = rs_buf_puts(out, "\\r");
            break;
        case '\t':
            rc = rs_buf_puts(out, "\\t");
            break;
        default:
            rc = *c < 0x20 ? rs_buf_printf(out, "\\u%04x", *c)
                           : rs_buf_append(out, (const char *)c, 1);
        }
    }
    return rc ? rc : rs_buf_puts(out, "\"");
}

/* One record as a JSON object on one line, without the newline. */
static int write_json(struct rs_buf *out, const struct rs_record *r, enum rs_digits digits)
{
    char tmp[64];
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
            rc = isfinite(f->d) ? (rs_double_text(f->d, digits, tmp, sizeof tmp),
                                   rs_buf_puts(out, tmp))
                                : rs_buf_puts(out, "null");
        else
            rc = json_string(out, f->s ? f->s : "");
    }
    return rc ? rc : rs_buf_puts(out, "}");
}

int rs_record_csv_header(struct rs_buf *out, const struct rs_record *r)
{
    int rc = 0;
    for (size_t i = 0; i < r->n && !rc; i++) {
        rc = i ? rs_buf_puts(out, ",") : 0;
        rc = rc ? rc : csv_cell(out, r->f[i].name);
    }
    return rc ? RS_ENOMEM : rs_buf_puts(out, "\n");
}

int rs_record_csv_row(struct rs_buf *out, const struct rs_record *r)
{
    return rs_record_row(out, r, RS_FMT_CSV, RS_DIGITS_9);
}

int rs_record_row(struct rs_buf *out, const struct rs_record *r, enum rs_format fmt,
                  enum rs_digits digits)
{
    char tmp[64];
    int rc = 0;
    if (fmt == RS_FMT_JSONL) {
        rc = write_json(out, r, digits);
        return rc ? RS_ENOMEM : rs_buf_puts(out, "\n");
    }
    for (size_t i = 0; i < r->n && !rc; i++) {
        rc = i ? rs_buf_puts(out, ",") : 0;
        rc = rc ? rc : csv_cell(out, value_text(&r->f[i], digits, tmp, sizeof tmp));
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

/* Append s padded with blanks to width w, on the left (right-aligned) or the right; the
 * last cell of a line is never padded on the right. */
static int cell(struct rs_buf *out, const char *s, size_t w, int right, int last)
{
    size_t len = strlen(s);
    int rc = 0;
    for (size_t k = len; right && k < w && !rc; k++)
        rc = rs_buf_puts(out, " ");
    rc = rc ? rc : rs_buf_puts(out, s);
    for (size_t k = len; !right && !last && k < w && !rc; k++)
        rc = rs_buf_puts(out, " ");
    return rc;
}

/* One record: "name  value" lines, names left-aligned to the longest. Several records: a
 * header row and one row per record, columns two blanks apart, number columns (by the
 * type of recs[0]'s field) right-aligned, string columns left-aligned. */
static int write_table(struct rs_buf *out, const struct rs_record *recs, size_t n,
                       enum rs_digits digits)
{
    char tmp[64];
    int rc = 0;
    if (n == 1) {
        size_t w = 0;
        for (size_t i = 0; i < recs[0].n; i++)
            if (strlen(recs[0].f[i].name) > w)
                w = strlen(recs[0].f[i].name);
        for (size_t i = 0; i < recs[0].n && !rc; i++) {
            const char *v = value_text(&recs[0].f[i], digits, tmp, sizeof tmp);
            rc = cell(out, recs[0].f[i].name, w + 2, 0, !*v);
            rc = rc ? rc : rs_buf_puts(out, v);
            rc = rc ? rc : rs_buf_puts(out, "\n");
        }
        return rc;
    }
    size_t nf = recs[0].n;
    size_t *w = rs_calloc(nf ? nf : 1, sizeof *w);
    if (!w)
        return RS_ENOMEM;
    for (size_t i = 0; i < nf; i++)
        w[i] = strlen(recs[0].f[i].name);
    for (size_t r = 0; r < n; r++)
        for (size_t i = 0; i < nf; i++) {
            size_t len = strlen(value_text(&recs[r].f[i], digits, tmp, sizeof tmp));
            if (len > w[i])
                w[i] = len;
        }
    for (size_t r = 0; r <= n && !rc; r++) { /* r == 0: the header */
        for (size_t i = 0; i < nf && !rc; i++) {
            int right = recs[0].f[i].type != RS_VAL_STRING;
            const char *s = r ? value_text(&recs[r - 1].f[i], digits, tmp, sizeof tmp)
                              : recs[0].f[i].name;
            rc = i ? rs_buf_puts(out, "  ") : 0;
            rc = rc ? rc : cell(out, s, w[i], right, i + 1 == nf);
        }
        rc = rc ? rc : rs_buf_puts(out, "\n");
    }
    rs_free(w);
    return rc;
}

int rs_records_write(struct rs_buf *out, enum rs_format fmt, const struct rs_record *recs,
                     size_t n, struct rs_err *err)
{
    return rs_records_write_digits(out, fmt, recs, n, RS_DIGITS_9, err);
}

int rs_records_write_digits(struct rs_buf *out, enum rs_format fmt,
                            const struct rs_record *recs, size_t n, enum rs_digits digits,
                            struct rs_err *err)
{
    int rc = 0;
    RS_ASSERT(out != NULL && (recs != NULL || n == 0));
    for (size_t r = 1; r < n && fmt != RS_FMT_JSON && fmt != RS_FMT_JSONL; r++) /* JSON
                                                                   objects stand alone */
        if (!same_fields(&recs[0], &recs[r]))
            return rs_err_set(err, RS_EINVAL,
                              "cannot write records as one table: record %zu has other fields "
                              "than record 0",
                              r);
    if (n == 0)
        return 0;
    switch (fmt) {
    case RS_FMT_CSV:
        rc = rs_record_csv_header(out, &recs[0]);
        for (size_t r = 0; r < n && !rc; r++)
            rc = rs_record_row(out, &recs[r], fmt, digits);
        break;
    case RS_FMT_JSONL:
        for (size_t r = 0; r < n && !rc; r++)
            rc = rs_record_row(out, &recs[r], fmt, digits);
        break;
    case RS_FMT_JSON:
        if (n == 1) {
            rc = write_json(out, &recs[0], digits);
            rc = rc ? rc : rs_buf_puts(out, "\n");
        } else {
            rc = rs_buf_puts(out, "[\n");
            for (size_t r = 0; r < n && !rc; r++) {
                rc = write_json(out, &recs[r], digits);
                rc = rc ? rc : rs_buf_puts(out, r + 1 < n ? ",\n" : "\n");
            }
            rc = rc ? rc : rs_buf_puts(out, "]\n");
        }
        break;
    case RS_FMT_TABLE:
        rc = write_table(out, recs, n, digits);
        break;
    default:
        return rs_err_set(err, RS_EINVAL, "unknown output format %d", (int)fmt);
    }
    return rc ? rs_err_set(err, RS_ENOMEM, "out of memory writing results") : 0;
}
