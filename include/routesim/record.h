/* Result records: an ordered list of named values (parameters and metrics of one run),
 * and the writers that print records as a human table, CSV or JSON. */
#ifndef ROUTESIM_RECORD_H
#define ROUTESIM_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "routesim/buf.h"
#include "routesim/error.h"

enum rs_val_type { RS_VAL_INT, RS_VAL_DOUBLE, RS_VAL_STRING };

struct rs_field {
    char *name;
    enum rs_val_type type;
    int64_t i;
    double d;
    char *s;
};

struct rs_record {
    struct rs_field *f;
    size_t n, cap;
    size_t n_params; /* the first n_params fields are parameters, the rest metrics (rs_run
                        and rs_analyze set it; 0 when unknown) */
};

void rs_record_init(struct rs_record *r);
void rs_record_free(struct rs_record *r);

/* Add or replace a field (a replaced field keeps its position). Return 0 or RS_ENOMEM. */
int rs_record_int(struct rs_record *r, const char *name, int64_t v);
int rs_record_double(struct rs_record *r, const char *name, double v);
int rs_record_string(struct rs_record *r, const char *name, const char *v);

/* The field named name, or NULL. */
const struct rs_field *rs_record_get(const struct rs_record *r, const char *name);

enum rs_format { RS_FMT_TABLE, RS_FMT_CSV, RS_FMT_JSON, RS_FMT_JSONL };

/* How doubles are written: RS_DIGITS_9, "%.9g" (the default, and the bytes of every shipped
 * result), or RS_DIGITS_EXACT, the "%.Pg" with the fewest significant digits P (9 <= P <= 17)
 * that strtod reads back as the same double: the default's text whenever that is exact (a
 * value of fewer digits, 0.1, is written with them: "%g" strips the zeros). */
enum rs_digits { RS_DIGITS_9 = 0, RS_DIGITS_EXACT = 1 };

/* The text of v as rs_digits says into buf (n >= 32 bytes); nan, inf and -inf spelt so
 * whatever the C library's spelling. */
void rs_double_text(double v, enum rs_digits digits, char *buf, size_t n);

/* Parse "table" | "csv" | "json" | "jsonl". RS_EUNKNOWN (with the nearest name) otherwise. */
int rs_format_parse(const char *s, enum rs_format *out, struct rs_err *err);

/* Write recs[0..n) to out.
 * CSV: a header with the field names of recs[0], then one row per record (every record
 *   must have the same field names in the same order, else RS_EINVAL); RFC 4180 quoting.
 * JSON: one object when n == 1, else an array of objects; one line per record.
 * TABLE: for n == 1 two aligned columns (name, value); for n > 1 one aligned row per record.
 * Doubles are printed with "%.9g"; non-finite doubles as nan/inf (CSV, table) or null (JSON).
 * Returns 0, RS_EINVAL or RS_ENOMEM. */
int rs_records_write(struct rs_buf *out, enum rs_format fmt, const struct rs_record *recs,
                     size_t n, struct rs_err *err);

/* rs_records_write with doubles written as digits says; RS_FMT_JSONL: one JSON object per
 * record and line (the JSON format's objects, numbers typed, nan and inf as null), no
 * header, records with different fields allowed. */
int rs_records_write_digits(struct rs_buf *out, enum rs_format fmt,
                            const struct rs_record *recs, size_t n, enum rs_digits digits,
                            struct rs_err *err);

/* Append the CSV header line (field names of r) / one CSV row (values of r) to out,
 * quoted as rs_records_write does. Return 0 or RS_ENOMEM. */
int rs_record_csv_header(struct rs_buf *out, const struct rs_record *r);
int rs_record_csv_row(struct rs_buf *out, const struct rs_record *r);

/* One row of r in fmt (RS_FMT_CSV: rs_record_csv_row's cells; RS_FMT_JSONL: its JSON
 * object), doubles as digits says, ending in a newline. Returns 0 or RS_ENOMEM. */
int rs_record_row(struct rs_buf *out, const struct rs_record *r, enum rs_format fmt,
                  enum rs_digits digits);

#endif
