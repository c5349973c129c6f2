/* Tests of result records and their writers: fields kept in order and replaced in place,
 * the format names, CSV (RFC 4180 quoting), JSON (escaping, null for non-finite) and the
 * aligned table, each checked byte for byte. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "routesim/record.h"

static void test_fields(void **state)
{
    (void)state;
    struct rs_record r;
    rs_record_init(&r);
    assert_int_equal(r.n, 0);
    assert_int_equal(r.n_params, 0);
    assert_int_equal(rs_record_string(&r, "topology", "butterfly"), 0);
    assert_int_equal(rs_record_int(&r, "N", 16), 0);
    assert_int_equal(rs_record_double(&r, "rate", 0.25), 0);
    assert_int_equal(r.n, 3);

    const struct rs_field *f = rs_record_get(&r, "N");
    assert_non_null(f);
    assert_int_equal(f->type, RS_VAL_INT);
    assert_int_equal(f->i, 16);
    assert_null(rs_record_get(&r, "n"));

    /* replacing keeps the position, and may change the type (the string is freed) */
    assert_int_equal(rs_record_double(&r, "topology", 1.5), 0);
    assert_int_equal(rs_record_string(&r, "N", "sixteen"), 0);
    assert_int_equal(rs_record_string(&r, "N", "16"), 0);
    assert_int_equal(r.n, 3);
    assert_string_equal(r.f[0].name, "topology");
    assert_int_equal(r.f[0].type, RS_VAL_DOUBLE);
    assert_true(r.f[0].d == 1.5);
    assert_null(r.f[0].s);
    assert_int_equal(r.f[1].type, RS_VAL_STRING);
    assert_string_equal(r.f[1].s, "16");
    assert_string_equal(r.f[2].name, "rate");

    /* a NULL string is stored as "" */
    assert_int_equal(rs_record_string(&r, "label", NULL), 0);
    assert_string_equal(rs_record_get(&r, "label")->s, "");

    /* many fields */
    char name[16];
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "m%d", i);
        assert_int_equal(rs_record_int(&r, name, i), 0);
    }
    assert_int_equal(r.n, 104);
    assert_int_equal(rs_record_get(&r, "m77")->i, 77);

    rs_record_free(&r);
    assert_int_equal(r.n, 0);
    assert_null(r.f);
}

static void test_format_parse(void **state)
{
    (void)state;
    enum rs_format fmt = RS_FMT_JSON;
    struct rs_err err;
    assert_int_equal(rs_format_parse("table", &fmt, &err), 0);
    assert_int_equal(fmt, RS_FMT_TABLE);
    assert_int_equal(rs_format_parse("csv", &fmt, &err), 0);
    assert_int_equal(fmt, RS_FMT_CSV);
    assert_int_equal(rs_format_parse("json", &fmt, &err), 0);
    assert_int_equal(fmt, RS_FMT_JSON);
    assert_int_equal(rs_format_parse("jsno", &fmt, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "unknown value 'jsno' for --format (did you mean 'json'?)");
    assert_int_equal(rs_format_parse("CSV", &fmt, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "unknown value 'CSV' for --format (did you mean 'csv'?)");
    assert_int_equal(rs_format_parse("xml", &fmt, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg,
                        "unknown value 'xml' for --format (expected table|csv|json|jsonl)");
    assert_int_equal(rs_format_parse("jsonl", &fmt, &err), 0);
    assert_int_equal(fmt, RS_FMT_JSONL);
}

/* Exact digits: the text reads back as the same double, with at most 17 significant
 * digits, and is the 9-digit text whenever that is exact; non-finite values spelt out. */
static void test_exact_digits(void **state)
{
    (void)state;
    char buf[64], nine[64];
    static const struct {
        double v;
        const char *want;
    } fixed[] = {{0.1, "0.1"},           {160, "160"},  {1.0 / 3, "0.3333333333333333"},
                 {2.0 / 3, "0.6666666666666666"}, {1e300, "1e+300"},
                 {5e-324, "4.94065646e-324"}, {-0.0, "-0"}, {1e21, "1e+21"}};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        rs_double_text(fixed[i].v, RS_DIGITS_EXACT, buf, sizeof buf);
        assert_string_equal(buf, fixed[i].want);
    }
    rs_double_text(NAN, RS_DIGITS_EXACT, buf, sizeof buf);
    assert_string_equal(buf, "nan");
    rs_double_text(-INFINITY, RS_DIGITS_EXACT, buf, sizeof buf);
    assert_string_equal(buf, "-inf");
    rs_double_text(1.0 / 3, RS_DIGITS_9, buf, sizeof buf);
    assert_string_equal(buf, "0.333333333");
    /* a deterministic spread of doubles: every one reads back exactly */
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 100000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double v;
        uint64_t bits = x & ~(0x7ffull << 52);
        bits |= (uint64_t)(1 + x % 2045) << 52; /* finite, normal */
        memcpy(&v, &bits, sizeof v);
        rs_double_text(v, RS_DIGITS_EXACT, buf, sizeof buf);
        assert_true(strtod(buf, NULL) == v);
        rs_double_text(v, RS_DIGITS_9, nine, sizeof nine);
        if (strtod(nine, NULL) == v)
            assert_string_equal(buf, nine);
    }
}

/* Write recs[0..n) in fmt and compare with want. */
static void expect_output(enum rs_format fmt, const struct rs_record *recs, size_t n,
                          const char *want)
{
    struct rs_buf out;
    struct rs_err err;
    rs_buf_init(&out);
    rs_err_clear(&err);
    assert_int_equal(rs_records_write(&out, fmt, recs, n, &err), 0);
    assert_string_equal(out.data ? out.data : "", want);
    rs_buf_free(&out);
}

/* Two runs of the same shape. */
static void two_runs(struct rs_record r[2])
{
    rs_record_init(&r[0]);
    rs_record_init(&r[1]);
    rs_record_string(&r[0], "topology", "butterfly");
    rs_record_int(&r[0], "N", 8);
    rs_record_double(&r[0], "mean_latency", 4.5);
    rs_record_string(&r[1], "topology", "mesh");
    rs_record_int(&r[1], "N", 1024);
    rs_record_double(&r[1], "mean_latency", 1.0 / 3);
}

static void test_csv(void **state)
{
    (void)state;
    struct rs_record r[2];
    two_runs(r);
    /* 1/3 with %.9g is 0.333333333 */
    expect_output(RS_FMT_CSV, r, 2,
                  "topology,N,mean_latency\n"
                  "butterfly,8,4.5\n"
                  "mesh,1024,0.333333333\n");
    expect_output(RS_FMT_CSV, r, 1, "topology,N,mean_latency\nbutterfly,8,4.5\n");

    /* RFC 4180: quote a cell holding a comma, quote, CR or LF; double inner quotes */
    struct rs_record q;
    rs_record_init(&q);
    rs_record_string(&q, "plain", "a b");
    rs_record_string(&q, "comma", "0,1,2");
    rs_record_string(&q, "quote", "say \"hi\"");
    rs_record_string(&q, "lf", "two\nlines");
    rs_record_string(&q, "cr", "x\ry");
    rs_record_string(&q, "na,me", "");
    rs_record_double(&q, "nan", NAN);
    rs_record_double(&q, "inf", -INFINITY);
    rs_record_int(&q, "min", INT64_MIN);
    expect_output(RS_FMT_CSV, &q, 1,
                  "plain,comma,quote,lf,cr,\"na,me\",nan,inf,min\n"
                  "a b,\"0,1,2\",\"say \"\"hi\"\"\",\"two\nlines\",\"x\ry\",,nan,-inf,"
                  "-9223372036854775808\n");

    /* the header and row writers alone */
    struct rs_buf out;
    rs_buf_init(&out);
    assert_int_equal(rs_record_csv_header(&out, &r[1]), 0);
    assert_int_equal(rs_record_csv_row(&out, &r[1]), 0);
    assert_string_equal(out.data, "topology,N,mean_latency\nmesh,1024,0.333333333\n");
    rs_buf_free(&out);

    rs_record_free(&q);
    rs_record_free(&r[0]);
    rs_record_free(&r[1]);
}

static void test_mismatched_fields(void **state)
{
    (void)state;
    struct rs_record r[2];
    two_runs(r);
    rs_record_int(&r[1], "extra", 1);
    struct rs_buf out;
    struct rs_err err;
    rs_buf_init(&out);
    assert_int_equal(rs_records_write(&out, RS_FMT_CSV, r, 2, &err), RS_EINVAL);
    assert_string_equal(err.msg,
                        "cannot write records as one table: record 1 has other fields than record 0");
    assert_int_equal(rs_records_write(&out, RS_FMT_TABLE, r, 2, &err), RS_EINVAL);
    assert_int_equal(out.len, 0); /* nothing written */
    /* JSON objects stand alone: allowed */
    assert_int_equal(rs_records_write(&out, RS_FMT_JSON, r, 2, &err), 0);
    assert_string_equal(out.data, "[\n"
                                  "{\"topology\":\"butterfly\",\"N\":8,\"mean_latency\":4.5},\n"
                                  "{\"topology\":\"mesh\",\"N\":1024,\"mean_latency\":0.333333333,"
                                  "\"extra\":1}\n"
                                  "]\n");
    rs_buf_free(&out);
    /* same names in another order also differ */
    struct rs_record a, b;
    rs_record_init(&a);
    rs_record_init(&b);
    rs_record_int(&a, "x", 1);
    rs_record_int(&a, "y", 2);
    rs_record_int(&b, "y", 2);
    rs_record_int(&b, "x", 1);
    struct rs_record ab[2] = {a, b};
    rs_buf_init(&out);
    assert_int_equal(rs_records_write(&out, RS_FMT_CSV, ab, 2, &err), RS_EINVAL);
    rs_buf_free(&out);
    rs_record_free(&a);
    rs_record_free(&b);
    rs_record_free(&r[0]);
    rs_record_free(&r[1]);
}

static void test_json(void **state)
{
    (void)state;
    struct rs_record r[2];
    two_runs(r);
    expect_output(RS_FMT_JSON, r, 1,
                  "{\"topology\":\"butterfly\",\"N\":8,\"mean_latency\":4.5}\n");
    expect_output(RS_FMT_JSON, r, 2,
                  "[\n"
                  "{\"topology\":\"butterfly\",\"N\":8,\"mean_latency\":4.5},\n"
                  "{\"topology\":\"mesh\",\"N\":1024,\"mean_latency\":0.333333333}\n"
                  "]\n");

    /* escaping, integers as integers, non-finite doubles as null, %.9g doubles */
    struct rs_record e;
    rs_record_init(&e);
    rs_record_string(&e, "s", "q\"b\\n\nt\tc\r\x01 \xc3\xa9");
    rs_record_string(&e, "key\"", "");
    rs_record_int(&e, "big", INT64_MAX);
    rs_record_int(&e, "neg", -3);
    rs_record_double(&e, "nan", NAN);
    rs_record_double(&e, "inf", INFINITY);
    rs_record_double(&e, "two", 2.0);
    rs_record_double(&e, "tiny", 1.25e-20);
    rs_record_double(&e, "pi", 3.14159265358979);
    expect_output(RS_FMT_JSON, &e, 1,
                  "{\"s\":\"q\\\"b\\\\n\\nt\\tc\\r\\u0001 \xc3\xa9\",\"key\\\"\":\"\","
                  "\"big\":9223372036854775807,\"neg\":-3,\"nan\":null,\"inf\":null,\"two\":2,"
                  "\"tiny\":1.25e-20,\"pi\":3.14159265}\n");
    rs_record_free(&e);

    /* an empty record is an empty object */
    struct rs_record z;
    rs_record_init(&z);
    expect_output(RS_FMT_JSON, &z, 1, "{}\n");
    rs_record_free(&z);
    rs_record_free(&r[0]);
    rs_record_free(&r[1]);
}

static void test_table(void **state)
{
    (void)state;
    struct rs_record r[2];
    two_runs(r);
    /* one record: names padded to the longest ("mean_latency", 12) plus two blanks */
    expect_output(RS_FMT_TABLE, r, 1,
                  "topology      butterfly\n"
                  "N             8\n"
                  "mean_latency  4.5\n");
    /* several: a header row; string columns left-aligned, number columns right-aligned,
     * each as wide as its widest cell, two blanks apart; no trailing blanks */
    expect_output(RS_FMT_TABLE, r, 2,
                  "topology      N  mean_latency\n"
                  "butterfly     8           4.5\n"
                  "mesh       1024   0.333333333\n");

    /* a string column last is not padded; non-finite numbers; an empty value */
    struct rs_record s[2];
    rs_record_init(&s[0]);
    rs_record_init(&s[1]);
    rs_record_double(&s[0], "x", NAN);
    rs_record_string(&s[0], "label", "a");
    rs_record_double(&s[1], "x", -INFINITY);
    rs_record_string(&s[1], "label", "longer label");
    expect_output(RS_FMT_TABLE, s, 2,
                  "   x  label\n"
                  " nan  a\n"
                  "-inf  longer label\n");
    rs_record_string(&s[0], "label", "");
    expect_output(RS_FMT_TABLE, s, 1, "x      nan\nlabel\n");
    rs_record_free(&s[0]);
    rs_record_free(&s[1]);

    /* a long string is never cut */
    struct rs_record l;
    char longtext[600];
    memset(longtext, 'w', 599);
    longtext[599] = '\0';
    rs_record_init(&l);
    rs_record_string(&l, "file", longtext);
    char want[700];
    snprintf(want, sizeof want, "file  %s\n", longtext);
    expect_output(RS_FMT_TABLE, &l, 1, want);
    rs_record_free(&l);

    /* no records: no output in any format */
    expect_output(RS_FMT_TABLE, r, 0, "");
    expect_output(RS_FMT_CSV, r, 0, "");
    expect_output(RS_FMT_JSON, r, 0, "");
    rs_record_free(&r[0]);
    rs_record_free(&r[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_format_parse),
        cmocka_unit_test(test_exact_digits),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_mismatched_fields),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
