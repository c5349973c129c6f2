/* Tests of option tables: lookup, the generated help listing, bound texts and typo
 * suggestions. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/numtext.h"
#include "routesim/options.h"

static const char *const protocols[] = {"fifo", "random", "priority", "furthest_first", NULL};

static const struct rs_optdef table[] = {
    {"queue_size", RS_OPT_INT, "0", 0, 1e9, NULL,
     "capacity of each queue in packets (0 = unbounded)", "packets"},
    {"protocol", RS_OPT_CHOICE, "fifo", 0, 0, protocols, "queueing protocol", "-"},
    {"wrap", RS_OPT_BOOL, "0", 0, 0, NULL, "identify level n with level 0", "-"},
    {"rate", RS_OPT_DOUBLE, "0.5", 0, 1, NULL, "injection rate", "packets/terminal/step"},
    {"file", RS_OPT_STRING, NULL, 0, 0, NULL, "", "-"},
    {NULL, RS_OPT_INT, NULL, 0, 0, NULL, NULL, NULL},
};

static void test_find(void **state)
{
    (void)state;
    assert_ptr_equal(rs_optdef_find(table, "queue_size"), &table[0]);
    assert_ptr_equal(rs_optdef_find(table, "file"), &table[4]);
    assert_null(rs_optdef_find(table, "queue"));
    assert_null(rs_optdef_find(table, "Queue_size")); /* exact, case-sensitive */
    assert_null(rs_optdef_find(NULL, "wrap"));
    assert_null(rs_optdef_find(table, NULL));
}

/* Columns: name padded to the longest name (10), type to 6, the default to the longest
 * default ("(none)", 6), the range to the longest range text of at most 24 characters
 * ("fifo|random|priority|furthest_first" is 35, so "[0, 1e9]" = 8 sets the width), the
 * unit to the longest unit ("packets/terminal/step", 21; blank for "-"), each two blanks
 * apart; no trailing blanks when there is no help. */
static void test_format(void **state)
{
    (void)state;
    struct rs_buf out;
    rs_buf_init(&out);
    assert_int_equal(rs_optdef_format(&out, table, 2), 0);
    assert_string_equal(
        out.data,
        "  queue_size  int     default 0       [0, 1e9]  packets                capacity of each queue in packets (0 = unbounded)\n"
        "  protocol    choice  default fifo    fifo|random|priority|furthest_first                         queueing protocol\n"
        "  wrap        bool    default 0                                        identify level n with level 0\n"
        "  rate        real    default 0.5     [0, 1]    packets/terminal/step  injection rate\n"
        "  file        text    default (none)\n");
    rs_buf_free(&out);

    /* empty table and indent 0 */
    rs_buf_init(&out);
    assert_int_equal(rs_optdef_format(&out, table + 5, 0), 0);
    assert_int_equal(out.len, 0);
    assert_int_equal(rs_optdef_format(&out, table + 3, 0), 0);
    assert_string_equal(out.data, "rate  real    default 0.5     [0, 1]  packets/terminal/step  injection rate\n"
                                  "file  text    default (none)\n");
    rs_buf_free(&out);

    /* "-" leaves the unit column blank; a table without any unit (table + 4) has none */
    rs_buf_init(&out);
    assert_int_equal(rs_optdef_format(&out, table + 1, 0), 0);
    assert_int_equal(rs_optdef_format(&out, table + 4, 0), 0);
    assert_string_equal(out.data, "protocol  choice  default fifo    fifo|random|priority|furthest_first                         queueing protocol\n"
                                  "wrap      bool    default 0                                      identify level n with level 0\n"
                                  "rate      real    default 0.5     [0, 1]  packets/terminal/step  injection rate\n"
                                  "file      text    default (none)\n"
                                  "file  text    default (none)\n");
    rs_buf_free(&out);
}

/* The vocabulary: found by name, every name once, each with a meaning; "-" and "1" there. */
static void test_units(void **state)
{
    (void)state;
    assert_ptr_equal(rs_opt_unit_find("steps"), &rs_opt_units[0]);
    assert_string_equal(rs_opt_unit_find("-")->name, "-");
    assert_non_null(rs_opt_unit_find("1"));
    assert_non_null(rs_opt_unit_find("packets/terminal/step"));
    assert_null(rs_opt_unit_find("Steps")); /* exact */
    assert_null(rs_opt_unit_find("step"));
    assert_null(rs_opt_unit_find(""));
    assert_null(rs_opt_unit_find(NULL));
    int n = 0;
    for (const struct rs_opt_unit *u = rs_opt_units; u->name; u++, n++) {
        assert_ptr_equal(rs_opt_unit_find(u->name), u);
        assert_non_null(u->meaning);
        assert_true(u->meaning[0] != '\0');
    }
    assert_true(n >= 10);
}

static void expect_num(double v, const char *want)
{
    char buf[64];
    rs__num_text(v, buf, sizeof buf);
    assert_string_equal(buf, want);
}

static void test_num_text(void **state)
{
    (void)state;
    expect_num(0, "0");
    expect_num(12, "12");
    expect_num(-3, "-3");
    expect_num(9999999, "9999999");
    expect_num(67108864, "2^26");                /* 2^26 */
    expect_num(1 << 20, "1048576");              /* below 10^7: in full */
    expect_num(1 << 24, "2^24");
    expect_num(9007199254740991.0, "2^53-1");    /* largest exact double integer */
    expect_num(1e9, "1e9");
    expect_num(1e7, "1e7");
    expect_num(12345678, "12345678");           /* integers are never rounded */
    expect_num(0.5, "0.5");
    expect_num(0.0025, "0.0025");
    expect_num(1e-7, "1e-7");
    expect_num(2.5e-7, "2.5e-7");
    expect_num(1.5e300, "1.5e300");
    expect_num(-1e9, "-1e9");
    char r[64];
    rs__range_text(0, 1e9, r, sizeof r);
    assert_string_equal(r, "[0, 1e9]");
    rs__range_text(-1, 0.25, r, sizeof r);
    assert_string_equal(r, "[-1, 0.25]");
}

static void test_suggest(void **state)
{
    (void)state;
    static const char *const keys[] = {"queue_size", "protocol", "n", "N2", "topology", NULL};
    /* edit distance 1 */
    assert_string_equal(rs_suggest("quue_size", keys, 5), "queue_size");
    assert_string_equal(rs_suggest("protcol", keys, 5), "protocol");
    /* a difference of case only wins over a closer edit ("N" vs "n": case; "N2": 1) */
    assert_string_equal(rs_suggest("N", keys, 5), "n");
    assert_string_equal(rs_suggest("TOPOLOGY", keys, 5), "topology");
    /* nothing close enough: "xyz" is 3 edits from "n2"-like names, limit max(2, 3/3) = 2 */
    assert_null(rs_suggest("xyz", keys, 5));
    assert_null(rs_suggest("banana", keys, 5));
    /* n limits the candidates looked at; NULL entries are skipped */
    assert_null(rs_suggest("topolgy", keys, 4));
    assert_string_equal(rs_suggest("topolgy", keys, 6), "topology");
    assert_null(rs_suggest("x", keys, 0));
    assert_null(rs_suggest("x", NULL, 3));

    /* ties go to the earlier candidate: "ab" is 1 from both */
    static const char *const tie[] = {"ac", "ad"};
    assert_string_equal(rs_suggest("ab", tie, 2), "ac");
    static const char *const tie2[] = {"ad", "ac"};
    assert_string_equal(rs_suggest("ab", tie2, 2), "ad");

    /* the limit is max(2, strlen/3): a 12-letter word accepts 4 edits, not 5 */
    static const char *const far[] = {"abcdefghijkl"};
    assert_string_equal(rs_suggest("abcdefghWXYZ", far, 1), "abcdefghijkl"); /* 4 edits */
    assert_null(rs_suggest("abcdefgVWXYZ", far, 1));                         /* 5 edits */
    /* insertions and deletions count one each */
    static const char *const ins[] = {"furthest_first"};
    assert_string_equal(rs_suggest("furthestfirst", ins, 1), "furthest_first");
    assert_string_equal(rs_suggest("furthest__first", ins, 1), "furthest_first");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_num_text),
        cmocka_unit_test(test_suggest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
