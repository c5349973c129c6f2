/* Tests of src/core/params.c: KEY=VALUE arguments, replacement and copies, the typed
 * getters (integers with 2^k, reals, booleans, choices, text, defaults, required keys)
 * with their exact messages, unknown-key checks, and INI files (sections, comments,
 * line numbers in messages, syntax errors, missing files). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "routesim/error.h"
#include "routesim/options.h"
#include "routesim/params.h"

static const char *const protocols[] = {"fifo", "random", "lifo", NULL};

/* The range of N prints as "[-1000, 1048576]" (2^20 = 1048576). */
static const struct rs_optdef opts[] = {
    {"N", RS_OPT_INT, "16", -1000, 1048576, NULL, "number of inputs"},
    {"rate", RS_OPT_DOUBLE, "0.5", 0, 1, NULL, "injection rate"},
    {"trace", RS_OPT_BOOL, "no", 0, 0, NULL, "print every step"},
    {"protocol", RS_OPT_CHOICE, "fifo", 0, 0, protocols, "queueing protocol"},
    {"file", RS_OPT_STRING, NULL, 0, 0, NULL, "output file"},
    {"label", RS_OPT_STRING, "none", 0, 0, NULL, "a name for the run"},
    {"queue_size", RS_OPT_INT, NULL, 1, 64, NULL, NULL},
    {"big", RS_OPT_INT, "0", -0x1p63, 0x1p63, NULL, "full int64_t range"},
    {"bad_default", RS_OPT_INT, "abc", 0, 10, NULL, "a broken table entry"},
    {NULL, RS_OPT_INT, NULL, 0, 0, NULL, NULL},
};

static const struct rs_optdef extra[] = {
    {"window", RS_OPT_INT, "8", 1, 100, NULL, "steps per window"},
    {NULL, RS_OPT_INT, NULL, 0, 0, NULL, NULL},
};

static const struct rs_optdef *def(const char *name)
{
    const struct rs_optdef *d = rs_optdef_find(opts, name);
    assert_non_null(d);
    return d;
}

/* p holds exactly the single argument arg (p is re-initialised). */
static void one_arg(struct rs_params *p, const char *arg)
{
    struct rs_err err;
    rs_params_free(p);
    assert_int_equal(rs_params_parse_arg(p, arg, &err), 0);
}

/* ---- arguments, replacement, copies ---- */

static void test_parse_arg(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    rs_params_init(&p);
    assert_int_equal(rs_params_parse_arg(&p, "N=8", &err), 0);
    const struct rs_param *q = rs_params_find(&p, "N");
    assert_non_null(q);
    assert_string_equal(q->key, "N");
    assert_string_equal(q->value, "8");
    assert_string_equal(q->origin, "command line");
    assert_int_equal(q->line, 0);

    rs_err_clear(&err);
    assert_int_equal(rs_params_parse_arg(&p, "foo", &err), RS_EPARSE);
    assert_int_equal(err.code, RS_EPARSE);
    assert_string_equal(err.msg, "command line: expected KEY=VALUE, got 'foo'");
    assert_int_equal(rs_params_parse_arg(&p, "=5", &err), RS_EPARSE);
    assert_string_equal(err.msg, "command line: expected KEY=VALUE, got '=5'");
    assert_int_equal(rs_params_parse_arg(&p, "", &err), RS_EPARSE);
    assert_string_equal(err.msg, "command line: expected KEY=VALUE, got ''");
    assert_int_equal(rs_params_parse_arg(&p, "foo", NULL), RS_EPARSE);
    assert_int_equal(p.n, 1); /* failed arguments store nothing */

    /* an empty value, and a value holding '=' (split at the first one) */
    assert_int_equal(rs_params_parse_arg(&p, "label=", &err), 0);
    assert_string_equal(rs_params_find(&p, "label")->value, "");
    assert_int_equal(rs_params_parse_arg(&p, "expr=a=b", &err), 0);
    assert_string_equal(rs_params_find(&p, "expr")->value, "a=b");
    assert_null(rs_params_find(&p, "expr=a"));
    assert_null(rs_params_find(&p, "n")); /* keys are case-sensitive */
    assert_int_equal(p.n, 3);
    rs_params_free(&p);
    assert_int_equal(p.n, 0);
    assert_null(p.v);
}

static void test_replace_and_where(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    char where[64];
    rs_params_init(&p);
    assert_int_equal(rs_params_parse_arg(&p, "A=1", &err), 0);
    assert_int_equal(rs_params_parse_arg(&p, "B=2", &err), 0);
    assert_int_equal(rs_params_parse_arg(&p, "A=3", &err), 0);
    /* later values replace earlier ones in place: order A, B */
    assert_int_equal(p.n, 2);
    assert_string_equal(p.v[0].key, "A");
    assert_string_equal(p.v[0].value, "3");
    assert_string_equal(p.v[1].key, "B");
    assert_string_equal(p.v[1].value, "2");

    /* set with an origin and line; replacing takes the new origin */
    assert_int_equal(rs_params_set(&p, "B", "5", "x.ini", 4, &err), 0);
    assert_string_equal(p.v[1].value, "5");
    rs_param_where(&p.v[1], where, sizeof where);
    assert_string_equal(where, "x.ini:4");
    rs_param_where(&p.v[0], where, sizeof where);
    assert_string_equal(where, "command line");
    rs_param_where(NULL, where, sizeof where);
    assert_string_equal(where, "default");
    rs_param_where(&p.v[1], where, 4); /* cut, NUL-terminated */
    assert_string_equal(where, "x.i");
    /* NULL origin means the command line; NULL value is empty */
    assert_int_equal(rs_params_set(&p, "C", NULL, NULL, 0, &err), 0);
    assert_string_equal(p.v[2].origin, "command line");
    assert_string_equal(p.v[2].value, "");

    /* rs_params_text: the value, else the default */
    rs_params_free(&p);
    assert_int_equal(rs_params_parse_arg(&p, "rate=0.75", &err), 0);
    assert_string_equal(rs_params_text(&p, def("rate")), "0.75");
    assert_string_equal(rs_params_text(&p, def("N")), "16");
    assert_null(rs_params_text(&p, def("file")));
    rs_params_free(&p);
}

static void test_copy(void **state)
{
    (void)state;
    struct rs_params p, c;
    struct rs_err err;
    rs_params_init(&p);
    assert_int_equal(rs_params_parse_arg(&p, "N=4", &err), 0);
    assert_int_equal(rs_params_set(&p, "plot.x", "N", "a.ini", 7, &err), 0);
    for (int i = 0; i < 40; i++) { /* past the first growth */
        char arg[32];
        snprintf(arg, sizeof arg, "k%d=%d", i, i * i);
        assert_int_equal(rs_params_parse_arg(&p, arg, &err), 0);
    }
    assert_int_equal(rs_params_copy(&c, &p), 0);
    assert_int_equal(c.n, p.n);
    for (size_t i = 0; i < p.n; i++) {
        assert_string_equal(c.v[i].key, p.v[i].key);
        assert_string_equal(c.v[i].value, p.v[i].value);
        assert_string_equal(c.v[i].origin, p.v[i].origin);
        assert_int_equal(c.v[i].line, p.v[i].line);
        assert_ptr_not_equal(c.v[i].key, p.v[i].key); /* deep */
        assert_ptr_not_equal(c.v[i].value, p.v[i].value);
    }
    /* changing or freeing the original leaves the copy alone */
    assert_int_equal(rs_params_parse_arg(&p, "N=99", &err), 0);
    assert_string_equal(rs_params_find(&c, "N")->value, "4");
    rs_params_free(&p);
    assert_string_equal(rs_params_find(&c, "plot.x")->origin, "a.ini");
    assert_string_equal(rs_params_find(&c, "k39")->value, "1521");
    rs_params_free(&c);

    /* copy of an empty set */
    rs_params_init(&p);
    assert_int_equal(rs_params_copy(&c, &p), 0);
    assert_int_equal(c.n, 0);
    rs_params_free(&c);
}

/* ---- typed getters ---- */

static void test_int_accepts(void **state)
{
    (void)state;
    struct {
        const char *text;
        int64_t want;
    } const ok[] = {
        {"1024", 1024}, {"-3", -3},   {"2^10", 1024}, {" 7 ", 7},   {"+5", 5},
        {"-2^3", -8},   {"007", 7},   {"0", 0},       {"-0", 0},    {"2^0", 1},
        {"1^50", 1},    {"0^0", 1},   {"0^5", 0},     {"2^20", 1048576},
        {"-1000", -1000}, {"\t12\n", 12},
    };
    struct rs_params p;
    struct rs_err err;
    rs_params_init(&p);
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char arg[64];
        int64_t v = -777;
        snprintf(arg, sizeof arg, "N=%s", ok[i].text);
        one_arg(&p, arg);
        rs_err_clear(&err);
        int rc = rs_params_int(&p, def("N"), &v, &err);
        if (rc)
            print_error("N='%s': %s\n", ok[i].text, err.msg);
        assert_int_equal(rc, 0);
        assert_int_equal(v, ok[i].want);
    }
    /* the default when the key is absent */
    rs_params_free(&p);
    int64_t v = 0;
    assert_int_equal(rs_params_int(&p, def("N"), &v, &err), 0);
    assert_int_equal(v, 16);
    rs_params_free(&p);
}

static void test_int_rejects(void **state)
{
    (void)state;
    static const char *const bad[] = {"1e3", "2^",  "12x", "2^99", "",    "abc",  "--3",
                                      "2^-1", "1.5", "0x10", "2 ^ 3", "- 3", "2^3^2", "^3"};
    struct rs_params p;
    struct rs_err err;
    char want[256];
    rs_params_init(&p);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char arg[64];
        int64_t v = -777;
        snprintf(arg, sizeof arg, "N=%s", bad[i]);
        one_arg(&p, arg);
        rs_err_clear(&err);
        assert_int_equal(rs_params_int(&p, def("N"), &v, &err), RS_EINVAL);
        assert_int_equal(err.code, RS_EINVAL);
        snprintf(want, sizeof want,
                 "command line: key 'N': expected an integer in [-1000, 1048576], got '%s'", bad[i]);
        assert_string_equal(err.msg, want);
        assert_int_equal(v, -777); /* untouched on error */
    }
    /* out of range: RS_ECONSTRAINT, same message shape */
    static const char *const far[] = {"-1001", "1048577", "2^21", "-2^10"};
    for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
        char arg[64];
        int64_t v = -777;
        snprintf(arg, sizeof arg, "N=%s", far[i]);
        one_arg(&p, arg);
        assert_int_equal(rs_params_int(&p, def("N"), &v, &err), RS_ECONSTRAINT);
        assert_int_equal(err.code, RS_ECONSTRAINT);
        snprintf(want, sizeof want,
                 "command line: key 'N': expected an integer in [-1000, 1048576], got '%s'", far[i]);
        assert_string_equal(err.msg, want);
        assert_int_equal(v, -777);
    }
    /* a default that does not parse names "default" as its origin */
    rs_params_free(&p);
    int64_t v;
    assert_int_equal(rs_params_int(&p, def("bad_default"), &v, &err), RS_EINVAL);
    assert_string_equal(err.msg, "default: key 'bad_default': expected an integer in [0, 10], "
                                 "got 'abc'");
    rs_params_free(&p);
}

/* The ends of int64_t: -2^63 .. 2^63-1; one past either end is an overflow (RS_EINVAL). */
static void test_int_extremes(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    int64_t v;
    rs_params_init(&p);
    one_arg(&p, "big=9223372036854775807");
    assert_int_equal(rs_params_int(&p, def("big"), &v, &err), 0);
    assert_true(v == INT64_MAX);
    one_arg(&p, "big=-9223372036854775808");
    assert_int_equal(rs_params_int(&p, def("big"), &v, &err), 0);
    assert_true(v == INT64_MIN);
    one_arg(&p, "big=-2^63");
    assert_int_equal(rs_params_int(&p, def("big"), &v, &err), 0);
    assert_true(v == INT64_MIN);
    one_arg(&p, "big=2^62");
    assert_int_equal(rs_params_int(&p, def("big"), &v, &err), 0);
    assert_true(v == (int64_t)1 << 62);
    static const char *const over[] = {"9223372036854775808", "-9223372036854775809", "2^63",
                                       "-2^64", "99999999999999999999", "3^41", "10^19"};
    for (size_t i = 0; i < sizeof over / sizeof over[0]; i++) {
        char arg[64], want[256];
        snprintf(arg, sizeof arg, "big=%s", over[i]);
        one_arg(&p, arg);
        assert_int_equal(rs_params_int(&p, def("big"), &v, &err), RS_EINVAL);
        snprintf(want, sizeof want,
                 "command line: key 'big': expected an integer in [-2^63, 2^63], got '%s'",
                 over[i]);
        assert_string_equal(err.msg, want);
    }
    rs_params_free(&p);
}

static void test_double(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    double v;
    rs_params_init(&p);
    assert_int_equal(rs_params_double(&p, def("rate"), &v, &err), 0);
    assert_true(v == 0.5); /* the default */
    struct {
        const char *text;
        double want;
    } const ok[] = {{"0.25", 0.25}, {" 1e-3 ", 0.001}, {"1", 1.0}, {"0", 0.0}, {".5", 0.5},
                    {"1.0e0", 1.0}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char arg[64];
        snprintf(arg, sizeof arg, "rate=%s", ok[i].text);
        one_arg(&p, arg);
        assert_int_equal(rs_params_double(&p, def("rate"), &v, &err), 0);
        assert_true(v == ok[i].want);
    }
    static const char *const bad[] = {"abc", "", "nan", "inf", "-inf", "0.5x", "1e999", "0.5 0.6"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char arg[64], want[256];
        snprintf(arg, sizeof arg, "rate=%s", bad[i]);
        one_arg(&p, arg);
        assert_int_equal(rs_params_double(&p, def("rate"), &v, &err), RS_EINVAL);
        snprintf(want, sizeof want, "command line: key 'rate': expected a number in [0, 1], got '%s'",
                 bad[i]);
        assert_string_equal(err.msg, want);
    }
    static const char *const far[] = {"1.5", "-0.1", "1e300"};
    for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
        char arg[64], want[256];
        snprintf(arg, sizeof arg, "rate=%s", far[i]);
        one_arg(&p, arg);
        assert_int_equal(rs_params_double(&p, def("rate"), &v, &err), RS_ECONSTRAINT);
        snprintf(want, sizeof want, "command line: key 'rate': expected a number in [0, 1], got '%s'",
                 far[i]);
        assert_string_equal(err.msg, want);
    }
    rs_params_free(&p);
}

static void test_bool(void **state)
{
    (void)state;
    struct {
        const char *text;
        int want;
    } const ok[] = {{"0", 0},    {"1", 1},     {"false", 0}, {"true", 1}, {"no", 0},
                    {"yes", 1},  {"off", 0},   {"on", 1},    {"TRUE", 1}, {"Off", 0},
                    {"YeS", 1},  {"NO", 0}};
    struct rs_params p;
    struct rs_err err;
    int v = -1;
    rs_params_init(&p);
    assert_int_equal(rs_params_bool(&p, def("trace"), &v, &err), 0);
    assert_int_equal(v, 0); /* default "no" */
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char arg[64];
        snprintf(arg, sizeof arg, "trace=%s", ok[i].text);
        one_arg(&p, arg);
        v = -1;
        assert_int_equal(rs_params_bool(&p, def("trace"), &v, &err), 0);
        assert_int_equal(v, ok[i].want);
    }
    static const char *const bad[] = {"maybe", "", "2", "y", "n", " yes", "truee"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char arg[64], want[256];
        snprintf(arg, sizeof arg, "trace=%s", bad[i]);
        one_arg(&p, arg);
        assert_int_equal(rs_params_bool(&p, def("trace"), &v, &err), RS_EINVAL);
        snprintf(want, sizeof want,
                 "command line: key 'trace': expected a boolean (0|1|true|false|yes|no|on|off), "
                 "got '%s'",
                 bad[i]);
        assert_string_equal(err.msg, want);
    }
    rs_params_free(&p);
}

static void test_choice(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    int idx = -1;
    rs_params_init(&p);
    assert_int_equal(rs_params_choice(&p, def("protocol"), &idx, &err), 0);
    assert_int_equal(idx, 0); /* default fifo */
    one_arg(&p, "protocol=random");
    assert_int_equal(rs_params_choice(&p, def("protocol"), &idx, &err), 0);
    assert_int_equal(idx, 1);
    one_arg(&p, "protocol=lifo");
    assert_int_equal(rs_params_choice(&p, def("protocol"), &idx, &err), 0);
    assert_int_equal(idx, 2);

    /* near miss: the suggestion */
    one_arg(&p, "protocol=randmo");
    idx = -1;
    assert_int_equal(rs_params_choice(&p, def("protocol"), &idx, &err), RS_EUNKNOWN);
    assert_int_equal(err.code, RS_EUNKNOWN);
    assert_string_equal(err.msg,
                        "command line: unknown value 'randmo' for key 'protocol' (did you mean "
                        "'random'?)");
    assert_int_equal(idx, -1);
    one_arg(&p, "protocol=FIFO"); /* choices are case-sensitive; case-only is suggested */
    assert_int_equal(rs_params_choice(&p, def("protocol"), &idx, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg,
                        "command line: unknown value 'FIFO' for key 'protocol' (did you mean "
                        "'fifo'?)");
    /* far from everything: the list of choices */
    one_arg(&p, "protocol=zzzzzz");
    assert_int_equal(rs_params_choice(&p, def("protocol"), &idx, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg,
                        "command line: unknown value 'zzzzzz' for key 'protocol' (expected "
                        "fifo|random|lifo)");
    rs_params_free(&p);
}

static void test_string_and_required(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    const char *s = NULL;
    int64_t v;
    rs_params_init(&p);
    assert_int_equal(rs_params_string(&p, def("label"), &s, &err), 0);
    assert_string_equal(s, "none"); /* default */

    /* a missing required key (def NULL) names the key and its help */
    rs_err_clear(&err);
    assert_int_equal(rs_params_string(&p, def("file"), &s, &err), RS_EINVAL);
    assert_int_equal(err.code, RS_EINVAL);
    assert_string_equal(err.msg, "missing required key 'file' (output file)");
    assert_int_equal(rs_params_int(&p, def("queue_size"), &v, &err), RS_EINVAL);
    assert_string_equal(err.msg, "missing required key 'queue_size' (it has no default)");

    one_arg(&p, "file=out dir/r,1.csv");
    assert_int_equal(rs_params_string(&p, def("file"), &s, &err), 0);
    assert_string_equal(s, "out dir/r,1.csv"); /* free text, taken as it is */
    assert_ptr_equal(s, rs_params_find(&p, "file")->value);
    one_arg(&p, "file=");
    assert_int_equal(rs_params_string(&p, def("file"), &s, &err), 0);
    assert_string_equal(s, ""); /* set but empty is not missing */
    rs_params_free(&p);
}

static void test_opt_shorthands(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    int64_t i = 0;
    double d = 0;
    int b = -1, c = -1;
    const char *s = NULL;
    rs_params_init(&p);
    assert_int_equal(rs_params_parse_arg(&p, "N=2^5", &err), 0);
    assert_int_equal(rs_params_parse_arg(&p, "trace=on", &err), 0);
    assert_int_equal(rs_params_parse_arg(&p, "protocol=lifo", &err), 0);
    assert_int_equal(rs_opt_int(&p, opts, "N", &i, &err), 0);
    assert_int_equal(i, 32);
    assert_int_equal(rs_opt_double(&p, opts, "rate", &d, &err), 0);
    assert_true(d == 0.5);
    assert_int_equal(rs_opt_bool(&p, opts, "trace", &b, &err), 0);
    assert_int_equal(b, 1);
    assert_int_equal(rs_opt_choice(&p, opts, "protocol", &c, &err), 0);
    assert_int_equal(c, 2);
    assert_int_equal(rs_opt_string(&p, opts, "label", &s, &err), 0);
    assert_string_equal(s, "none");
    /* an undeclared name is a programming error */
    assert_int_equal(rs_opt_int(&p, opts, "nope", &i, &err), RS_EINVARIANT);
    assert_string_equal(err.msg, "option 'nope' is not declared");
    assert_int_equal(rs_opt_double(&p, opts, "N_", &d, &err), RS_EINVARIANT);
    assert_string_equal(err.msg, "option 'N_' is not declared");
    assert_int_equal(rs_opt_bool(&p, opts, "x", &b, &err), RS_EINVARIANT);
    assert_int_equal(rs_opt_choice(&p, opts, "x", &c, &err), RS_EINVARIANT);
    assert_int_equal(rs_opt_string(&p, opts, "x", &s, &err), RS_EINVARIANT);
    /* errors of the getter pass through */
    assert_int_equal(rs_params_parse_arg(&p, "rate=2", &err), 0);
    assert_int_equal(rs_opt_double(&p, opts, "rate", &d, &err), RS_ECONSTRAINT);
    assert_string_equal(err.msg, "command line: key 'rate': expected a number in [0, 1], got '2'");
    rs_params_free(&p);
}

static void test_check_known(void **state)
{
    (void)state;
    const struct rs_optdef *const tables[] = {opts, extra};
    struct rs_params p;
    struct rs_err err;
    rs_params_init(&p);
    assert_int_equal(rs_params_check_known(&p, tables, 2, &err), 0); /* empty */
    assert_int_equal(rs_params_parse_arg(&p, "N=4", &err), 0);
    assert_int_equal(rs_params_parse_arg(&p, "window=3", &err), 0); /* second table */
    assert_int_equal(rs_params_parse_arg(&p, "plot.x=N", &err), 0);   /* '.': skipped */
    assert_int_equal(rs_params_parse_arg(&p, "zzz.qqq=1", &err), 0);
    assert_int_equal(rs_params_check_known(&p, tables, 2, &err), 0);

    /* a typo: the nearest declared name, over all tables */
    assert_int_equal(rs_params_parse_arg(&p, "windw=3", &err), 0);
    rs_err_clear(&err);
    assert_int_equal(rs_params_check_known(&p, tables, 2, &err), RS_EUNKNOWN);
    assert_int_equal(err.code, RS_EUNKNOWN);
    assert_string_equal(err.msg, "command line: unknown key 'windw' (did you mean 'window'?)");
    /* the same key is unknown when its table is not listed; queue_size is nearer */
    assert_int_equal(rs_params_check_known(&p, tables, 1, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "command line: unknown key 'window' (see `routesim list`)");

    /* the first unknown key in insertion order is the one reported */
    rs_params_free(&p);
    assert_int_equal(rs_params_parse_arg(&p, "N=4", &err), 0);
    assert_int_equal(rs_params_parse_arg(&p, "qqqqqqqq=1", &err), 0);
    assert_int_equal(rs_params_parse_arg(&p, "quue_size=3", &err), 0);
    assert_int_equal(rs_params_check_known(&p, tables, 2, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "command line: unknown key 'qqqqqqqq' (see `routesim list`)");
    rs_params_free(&p);
    assert_int_equal(rs_params_parse_arg(&p, "quue_size=3", &err), 0);
    assert_int_equal(rs_params_check_known(&p, tables, 2, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "command line: unknown key 'quue_size' (did you mean "
                                 "'queue_size'?)");
    /* a key of another case: the case-only suggestion */
    rs_params_free(&p);
    assert_int_equal(rs_params_parse_arg(&p, "n=4", &err), 0);
    assert_int_equal(rs_params_check_known(&p, tables, 2, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "command line: unknown key 'n' (did you mean 'N'?)");
    /* no tables at all */
    assert_int_equal(rs_params_check_known(&p, NULL, 0, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "command line: unknown key 'n' (see `routesim list`)");
    /* from a file: file:line */
    rs_params_free(&p);
    assert_int_equal(rs_params_set(&p, "rat", "0.1", "run.ini", 12, &err), 0);
    assert_int_equal(rs_params_check_known(&p, tables, 2, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "run.ini:12: unknown key 'rat' (did you mean 'rate'?)");
    rs_params_free(&p);
}

/* ---- INI files ---- */

struct tmpdir {
    char path[64];
    char files[12][128];
    int nfiles;
};

static void tmpdir_open(struct tmpdir *d)
{
    snprintf(d->path, sizeof d->path, "/tmp/rs-coretest-ini-XXXXXX");
    assert_non_null(mkdtemp(d->path));
    d->nfiles = 0;
}

/* Write text to the file name in d; its path goes to d->files and is returned. */
static const char *tmpdir_write(struct tmpdir *d, const char *name, const char *text)
{
    assert_true(d->nfiles < 12);
    char *path = d->files[d->nfiles++], tmp[sizeof d->files[0]];
    snprintf(tmp, sizeof tmp, "%s/%s", d->path, name);
    memcpy(path, tmp, sizeof tmp);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
    return path;
}

static void tmpdir_close(struct tmpdir *d)
{
    for (int i = 0; i < d->nfiles; i++)
        assert_int_equal(unlink(d->files[i]), 0);
    assert_int_equal(rmdir(d->path), 0);
}

static void test_ini_load(void **state)
{
    (void)state;
    struct tmpdir d;
    tmpdir_open(&d);
    const char *path = tmpdir_write(&d, "run.ini",
                                    "; routesim parameters\n"   /* 1 */
                                    "# comments start with ; or #\n" /* 2 */
                                    "N = abc\n"                 /* 3 */
                                    "rate=0.25\n"               /* 4 */
                                    "\n"                        /* 5 */
                                    "[plot]\n"                  /* 6 */
                                    "x = N\n"                   /* 7 */
                                    "; y = rate\n"              /* 8 */
                                    "# z = 1\n"                 /* 9 */
                                    "title = a = b\n"           /* 10 */
                                    "[Sweep]\n"                 /* 11 */
                                    "N = 2^4 2^5\n");           /* 12 */
    struct rs_params p;
    struct rs_err err;
    char want[512];
    rs_params_init(&p);
    /* a command-line value before loading is replaced by the file's */
    assert_int_equal(rs_params_parse_arg(&p, "rate=0.9", &err), 0);
    rs_err_clear(&err);
    assert_int_equal(rs_params_load_ini(&p, path, &err), 0);
    assert_int_equal(err.code, 0);
    /* keys before any section as they are, then section.key; comments skipped */
    assert_int_equal(p.n, 5);
    static const char *const keys[] = {"rate", "N", "plot.x", "plot.title", "Sweep.N"};
    static const char *const values[] = {"0.25", "abc", "N", "a = b", "2^4 2^5"};
    static const int lines[] = {4, 3, 7, 10, 12};
    for (int i = 0; i < 5; i++) {
        assert_string_equal(p.v[i].key, keys[i]);
        assert_string_equal(p.v[i].value, values[i]);
        assert_string_equal(p.v[i].origin, path);
        assert_int_equal(p.v[i].line, lines[i]);
    }
    assert_null(rs_params_find(&p, "plot.y"));
    assert_null(rs_params_find(&p, "plot.z"));
    assert_null(rs_params_find(&p, "x"));

    /* getters name the file and line */
    int64_t v;
    assert_int_equal(rs_params_int(&p, def("N"), &v, &err), RS_EINVAL);
    snprintf(want, sizeof want, "%s:3: key 'N': expected an integer in [-1000, 1048576], got 'abc'",
             path);
    assert_string_equal(err.msg, want);
    double r;
    assert_int_equal(rs_params_double(&p, def("rate"), &r, &err), 0);
    assert_true(r == 0.25);

    /* the command line after loading overrides, in place */
    assert_int_equal(rs_params_parse_arg(&p, "N=64", &err), 0);
    assert_int_equal(rs_params_int(&p, def("N"), &v, &err), 0);
    assert_int_equal(v, 64);
    assert_string_equal(p.v[1].key, "N");
    assert_string_equal(p.v[1].origin, "command line");
    assert_int_equal(p.v[1].line, 0);
    assert_int_equal(rs_params_parse_arg(&p, "N=2000000", &err), 0);
    assert_int_equal(rs_params_int(&p, def("N"), &v, &err), RS_ECONSTRAINT);
    assert_string_equal(err.msg,
                        "command line: key 'N': expected an integer in [-1000, 1048576], got "
                        "'2000000'");

    /* section keys are skipped by the unknown-key check */
    const struct rs_optdef *const tables[] = {opts};
    assert_int_equal(rs_params_check_known(&p, tables, 1, &err), 0);

    /* a second file replaces the values it sets and keeps the rest */
    const char *path2 = tmpdir_write(&d, "more.ini", "[plot]\nx = rate\n\nrate = 1\n");
    assert_int_equal(rs_params_load_ini(&p, path2, &err), 0);
    assert_int_equal(p.n, 6);
    assert_string_equal(rs_params_find(&p, "plot.x")->value, "rate");
    assert_string_equal(rs_params_find(&p, "plot.x")->origin, path2);
    assert_int_equal(rs_params_find(&p, "plot.x")->line, 2);
    assert_string_equal(rs_params_find(&p, "plot.rate")->value, "1");
    assert_string_equal(rs_params_find(&p, "rate")->value, "0.25");
    rs_params_free(&p);
    tmpdir_close(&d);
}

/* Load text as name; expect code and a message that is the file's path followed by
 * suffix (or, when suffix starts with '=', exactly suffix + 1). */
static void expect_ini_error(struct tmpdir *d, const char *name, const char *text, int code,
                             const char *suffix)
{
    const char *path = tmpdir_write(d, name, text);
    struct rs_params p;
    struct rs_err err;
    char want[1024];
    rs_params_init(&p);
    rs_err_clear(&err);
    int rc = rs_params_load_ini(&p, path, &err);
    if (rc != code)
        print_error("%s: got %d '%s'\n", name, rc, err.msg);
    assert_int_equal(rc, code);
    assert_int_equal(err.code, code);
    snprintf(want, sizeof want, "%s%s", path, suffix);
    assert_string_equal(err.msg, want);
    rs_params_free(&p);
}

static void test_ini_errors(void **state)
{
    (void)state;
    struct tmpdir d;
    tmpdir_open(&d);
    expect_ini_error(&d, "syntax.ini", "N = 1\nthis is not a pair\nrate = 0.5\n", RS_EPARSE,
                     ":2: syntax error (expected KEY = VALUE or [section])");
    expect_ini_error(&d, "section.ini", "; fine\n[plot\nx = 1\n", RS_EPARSE,
                     ":2: syntax error (expected KEY = VALUE or [section])");
    expect_ini_error(&d, "empty_key.ini", "N = 1\n\n= 5\n", RS_EPARSE,
                     ":3: expected KEY = VALUE, got an empty key");
    expect_ini_error(&d, "indent.ini", "N = 1\n  2\n", RS_EPARSE,
                     ":2: indented line continues the value of 'N' (remove the indentation)");
    /* an indented KEY = VALUE after a blank line still continues the previous key */
    expect_ini_error(&d, "indent2.ini", "[s]\nN = 1\n\n  rate = 5\n", RS_EPARSE,
                     ":4: indented line continues the value of 's.N' (remove the indentation)");
    /* the first problem in the file is the one reported */
    expect_ini_error(&d, "first.ini", "a = 1\n= 2\nbroken\n", RS_EPARSE,
                     ":2: expected KEY = VALUE, got an empty key");
    expect_ini_error(&d, "first2.ini", "a = 1\nbroken\n= 2\n", RS_EPARSE,
                     ":2: syntax error (expected KEY = VALUE or [section])");

    /* an over-long line: only the start of the message is fixed (the limit is libinih's) */
    char text[3000];
    int len = snprintf(text, sizeof text, "N = 1\nlabel = ");
    memset(text + len, 'x', 2000);
    snprintf(text + len + 2000, sizeof text - (size_t)len - 2000, "\nrate = 0.5\n");
    const char *path = tmpdir_write(&d, "long.ini", text);
    struct rs_params p;
    struct rs_err err;
    char want[512];
    rs_params_init(&p);
    assert_int_equal(rs_params_load_ini(&p, path, &err), RS_EPARSE);
    snprintf(want, sizeof want, "%s:2: line too long (more than ", path);
    assert_memory_equal(err.msg, want, strlen(want));
    assert_string_equal(err.msg + strlen(err.msg) - strlen(" characters)"), " characters)");
    rs_params_free(&p);

    /* a missing file */
    char missing[128];
    snprintf(missing, sizeof missing, "%s/none.ini", d.path);
    rs_params_init(&p);
    assert_int_equal(rs_params_load_ini(&p, missing, &err), RS_EIO);
    assert_int_equal(err.code, RS_EIO);
    snprintf(want, sizeof want, "cannot open '%s': No such file or directory", missing);
    assert_string_equal(err.msg, want);
    assert_int_equal(p.n, 0);
    /* a folder opens but cannot be read */
    assert_int_equal(rs_params_load_ini(&p, d.path, &err), RS_EIO);
    snprintf(want, sizeof want, "cannot read '%s': Is a directory", d.path);
    assert_string_equal(err.msg, want);

    /* an empty file and a file of comments load nothing */
    path = tmpdir_write(&d, "empty.ini", "");
    assert_int_equal(rs_params_load_ini(&p, path, &err), 0);
    path = tmpdir_write(&d, "comments.ini", "; a\n# b\n\n   \n;c = 1\n");
    assert_int_equal(rs_params_load_ini(&p, path, &err), 0);
    assert_int_equal(p.n, 0);
    rs_params_free(&p);
    tmpdir_close(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_arg),
        cmocka_unit_test(test_replace_and_where),
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_int_accepts),
        cmocka_unit_test(test_int_rejects),
        cmocka_unit_test(test_int_extremes),
        cmocka_unit_test(test_double),
        cmocka_unit_test(test_bool),
        cmocka_unit_test(test_choice),
        cmocka_unit_test(test_string_and_required),
        cmocka_unit_test(test_opt_shorthands),
        cmocka_unit_test(test_check_known),
        cmocka_unit_test(test_ini_load),
        cmocka_unit_test(test_ini_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
