/* Tests of src/core/options.c: option lookup, the help listing generated from a table
 * (columns, defaults, ranges, choices) and typo suggestions (rs_suggest). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "routesim/buf.h"
#include "routesim/options.h"

static const char *const protocols[] = {"fifo", "random", "lifo", NULL};

static const struct rs_optdef table[] = {
    {"queue_size", RS_OPT_INT, "4", 1, 1024, NULL, "capacity of each queue in packets"},
    {"rate", RS_OPT_DOUBLE, "0.5", 0, 1, NULL, "injection rate per node and step"},
    {"protocol", RS_OPT_CHOICE, "fifo", 0, 0, protocols, "queueing protocol"},
    {"trace", RS_OPT_BOOL, "no", 0, 0, NULL, "print every step"},
    {"file", RS_OPT_STRING, NULL, 0, 0, NULL, NULL},
    {NULL, RS_OPT_INT, NULL, 0, 0, NULL, NULL},
};

static void test_optdef_find(void **state)
{
    (void)state;
    assert_ptr_equal(rs_optdef_find(table, "queue_size"), &table[0]);
    assert_ptr_equal(rs_optdef_find(table, "rate"), &table[1]);
    assert_ptr_equal(rs_optdef_find(table, "file"), &table[4]);
    assert_null(rs_optdef_find(table, "Rate"));       /* names are case-sensitive */
    assert_null(rs_optdef_find(table, "queue"));      /* no prefix matching */
    assert_null(rs_optdef_find(table, "queue_size ")); /* nor trailing blanks */
    assert_null(rs_optdef_find(table, ""));
    assert_null(rs_optdef_find(table, NULL));
    assert_null(rs_optdef_find(NULL, "rate"));
    assert_null(rs_optdef_find(&table[5], "rate")); /* empty table */
}

/* Columns: name padded to the longest name (10, "queue_size"), type to 6, "default "
 * and the default padded to the longest default (6, "(none)"), the range or choices
 * padded to the widest (16, "fifo|random|lifo"), then two blanks and the help; no
 * trailing blanks when there is no help. */
static void test_optdef_format_exact(void **state)
{
    (void)state;
    struct rs_buf out;
    rs_buf_init(&out);
    assert_int_equal(rs_optdef_format(&out, table, 2), 0);
    assert_string_equal(
        out.data,
        "  queue_size  int     default 4       [1, 1024]         capacity of each queue in packets\n"
        "  rate        real    default 0.5     [0, 1]            injection rate per node and step\n"
        "  protocol    choice  default fifo    fifo|random|lifo  queueing protocol\n"
        "  trace       bool    default no                        print every step\n"
        "  file        text    default (none)\n");

    /* every line holds its option's name, type, default and range or choices */
    const char *want[][4] = {{"queue_size", "int", "default 4", "[1, 1024]"},
                             {"rate", "real", "default 0.5", "[0, 1]"},
                             {"protocol", "choice", "default fifo", "fifo|random|lifo"},
                             {"trace", "bool", "default no", ""},
                             {"file", "text", "default (none)", ""}};
    const char *line = out.data;
    for (int i = 0; i < 5; i++) {
        const char *nl = strchr(line, '\n');
        assert_non_null(nl);
        char text[256];
        size_t len = (size_t)(nl - line);
        assert_true(len < sizeof text);
        memcpy(text, line, len);
        text[len] = '\0';
        assert_memory_equal(text, "  ", 2); /* the indent */
        for (int k = 0; k < 4; k++)
            assert_non_null(strstr(text, want[i][k]));
        assert_true(text[len - 1] != ' ');
        line = nl + 1;
    }
    assert_string_equal(line, "");

    /* appends after existing content, and indent 0 */
    rs_buf_free(&out);
    assert_int_equal(rs_buf_puts(&out, "options:\n"), 0);
    assert_int_equal(rs_optdef_format(&out, &table[3], 0), 0);
    /* the type column is always 6 wide; no range column: two blanks before the help */
    assert_string_equal(out.data, "options:\n"
                                  "trace  bool    default no        print every step\n"
                                  "file   text    default (none)\n");

    /* an empty table appends nothing */
    rs_buf_free(&out);
    assert_int_equal(rs_optdef_format(&out, &table[5], 4), 0);
    assert_true(out.len == 0);
    rs_buf_free(&out);
}

/* Range bounds are written as a person would: integers below 10^7 in full, powers of
 * two from 2^20 as 2^k, 2^k - 1 as "2^k-1", powers of ten as 1eK, other reals with %.6g
 * and a tidy exponent. A choice list longer than 24 characters does not widen the
 * column: it pushes its own help to the right. */
static void test_optdef_format_ranges(void **state)
{
    (void)state;
    static const char *const long_choices[] = {"alphabetic", "backwards", "cyclic", NULL};
    static const struct rs_optdef t[] = {
        {"N", RS_OPT_INT, "16", 2, 67108864, NULL, "inputs"},
        {"steps", RS_OPT_INT, "1000", 0, 1e9, NULL, "steps"},
        {"seed", RS_OPT_INT, "1", -9007199254740991.0, 9007199254740991.0, NULL, "seed"},
        {"eps", RS_OPT_DOUBLE, "0.001", 2.5e-7, 1234567.5, NULL, "tolerance"},
        {"order", RS_OPT_CHOICE, "cyclic", 0, 0, long_choices, "order"},
        {NULL, RS_OPT_INT, NULL, 0, 0, NULL, NULL},
    };
    struct rs_buf out;
    rs_buf_init(&out);
    assert_int_equal(rs_optdef_format(&out, t, 1), 0);
    /* widest range within 24 characters: "[2.5e-7, 1.23457e6]" (19) */
    assert_string_equal(out.data,
                        " N      int     default 16      [2, 2^26]            inputs\n"
                        " steps  int     default 1000    [0, 1e9]             steps\n"
                        " seed   int     default 1       [-2^53-1, 2^53-1]    seed\n"
                        " eps    real    default 0.001   [2.5e-7, 1.23457e6]  tolerance\n"
                        " order  choice  default cyclic  alphabetic|backwards|cyclic  order\n");
    rs_buf_free(&out);
}

static void test_suggest(void **state)
{
    (void)state;
    const char *keys[] = {"N", "queue_size", "rate", "protocol"};
    /* one deletion */
    assert_ptr_equal(rs_suggest("quue_size", keys, 4), keys[1]);
    /* one insertion: fifoo -> fifo (distance 1) beats lifo (distance 2) */
    assert_ptr_equal(rs_suggest("fifoo", protocols, 3), protocols[0]);
    assert_string_equal(rs_suggest("fifoo", protocols, 3), "fifo");
    /* too far from everything */
    const char *topos[] = {"butterfly", "mesh"};
    assert_null(rs_suggest("xyz", topos, 2)); /* mesh is 4 edits away, the limit is 2 */
    /* a transposition is two edits: within the limit max(2, 9/3) = 3 */
    assert_ptr_equal(rs_suggest("butterlfy", topos, 2), topos[0]);
    /* an exact match is its own suggestion */
    assert_ptr_equal(rs_suggest("mesh", topos, 2), topos[1]);
}

static void test_suggest_ties_and_case(void **state)
{
    (void)state;
    /* ties go to the earlier candidate */
    const char *ab[] = {"ax", "ay"}, *ba[] = {"ay", "ax"};
    assert_ptr_equal(rs_suggest("az", ab, 2), ab[0]);
    assert_ptr_equal(rs_suggest("az", ba, 2), ba[0]);
    const char *three[] = {"mesh", "mash", "mush"};
    assert_ptr_equal(rs_suggest("mosh", three, 3), three[0]);
    /* a difference of case only wins over a closer edit distance */
    const char *c[] = {"ac", "AB"};
    assert_ptr_equal(rs_suggest("ab", c, 2), c[1]); /* "ac" is 1 edit, "AB" 2 */
    const char *fmt[] = {"table", "csv", "json"};
    assert_ptr_equal(rs_suggest("CSV", fmt, 3), fmt[1]);
    /* the first of several case-only matches */
    const char *cc[] = {"Mesh", "MESH"};
    assert_ptr_equal(rs_suggest("mesh", cc, 2), cc[0]);
}

static void test_suggest_limit(void **state)
{
    (void)state;
    /* limit = max(2, strlen(word) / 3) */
    const char *c[] = {"abcdefxyz"};
    assert_ptr_equal(rs_suggest("abcdefghi", c, 1), c[0]); /* 3 edits, limit 9/3 = 3 */
    const char *d[] = {"abcdexyzw"};
    assert_null(rs_suggest("abcdefghi", d, 1)); /* 4 edits */
    const char *e[] = {"xy"};
    assert_ptr_equal(rs_suggest("ab", e, 1), e[0]); /* 2 edits: limit 2 for short words */
    const char *f[] = {"xyz"};
    assert_null(rs_suggest("ab", f, 1)); /* 3 edits */
    /* empty word: candidates up to 2 characters long are within reach */
    const char *g[] = {"abc", "de"};
    assert_ptr_equal(rs_suggest("", g, 2), g[1]);

    /* long words (the edit distance's heap path, 64+ characters) */
    char word[101], cand[101];
    for (int i = 0; i < 100; i++)
        word[i] = cand[i] = (char)('a' + i % 26);
    word[100] = cand[100] = '\0';
    cand[50] = 'X';
    const char *h[] = {cand};
    assert_ptr_equal(rs_suggest(word, h, 1), h[0]);
    for (int i = 0; i < 40; i++)
        cand[i] = 'Z'; /* 41 edits > 100 / 3 */
    assert_null(rs_suggest(word, h, 1));

    /* NULL inputs, empty and holey candidate lists */
    assert_null(rs_suggest(NULL, c, 1));
    assert_null(rs_suggest("abc", NULL, 3));
    assert_null(rs_suggest("abc", c, 0));
    const char *holes[] = {NULL, "abd", NULL};
    assert_ptr_equal(rs_suggest("abc", holes, 3), holes[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_optdef_find),
        cmocka_unit_test(test_optdef_format_exact),
        cmocka_unit_test(test_optdef_format_ranges),
        cmocka_unit_test(test_suggest),
        cmocka_unit_test(test_suggest_ties_and_case),
        cmocka_unit_test(test_suggest_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
