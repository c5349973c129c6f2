/* Tests of the error codes: texts, the bad-input classification, and the message slot. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "routesim/error.h"

static void test_strerror_texts(void **state)
{
    (void)state;
    assert_string_equal(rs_strerror(RS_OK), "success");
    assert_string_equal(rs_strerror(RS_EINVAL), "invalid value");
    assert_string_equal(rs_strerror(RS_EUNKNOWN), "unknown name");
    assert_string_equal(rs_strerror(RS_ECONSTRAINT), "constraint violated");
    assert_string_equal(rs_strerror(RS_EPARSE), "parse error");
    assert_string_equal(rs_strerror(RS_EIO), "input/output error");
    assert_string_equal(rs_strerror(RS_ENOMEM), "out of memory");
    assert_string_equal(rs_strerror(RS_EDEADLOCK), "deadlock");
    assert_string_equal(rs_strerror(RS_EINVARIANT), "invariant violated");
    assert_string_equal(rs_strerror(RS_EUNSUPPORTED), "unsupported combination");
    assert_string_equal(rs_strerror(RS_EINTERRUPTED), "interrupted");
    assert_string_equal(rs_strerror(RS_EUNFINISHED), "did not finish");
    assert_string_equal(rs_strerror(RS_EWRITE), "write failed");
    /* a code outside the list still gets a text, never NULL */
    assert_string_equal(rs_strerror(-1000), "unknown error");
    assert_string_equal(rs_strerror(5), "unknown error");
}

static void test_is_input(void **state)
{
    (void)state;
    /* bad input or usage (exit 2) */
    assert_int_equal(rs_err_is_input(RS_EINVAL), 1);
    assert_int_equal(rs_err_is_input(RS_EUNKNOWN), 1);
    assert_int_equal(rs_err_is_input(RS_ECONSTRAINT), 1);
    assert_int_equal(rs_err_is_input(RS_EPARSE), 1);
    assert_int_equal(rs_err_is_input(RS_EIO), 1);
    assert_int_equal(rs_err_is_input(RS_EUNSUPPORTED), 1);
    /* failures while running (exit 1) */
    assert_int_equal(rs_err_is_input(RS_OK), 0);
    assert_int_equal(rs_err_is_input(RS_ENOMEM), 0);
    assert_int_equal(rs_err_is_input(RS_EDEADLOCK), 0);
    assert_int_equal(rs_err_is_input(RS_EINVARIANT), 0);
    assert_int_equal(rs_err_is_input(RS_EINTERRUPTED), 0);
    assert_int_equal(rs_err_is_input(RS_EUNFINISHED), 0);
    assert_int_equal(rs_err_is_input(RS_EWRITE), 0); /* a failed write is exit 1 */
    assert_int_equal(rs_err_is_input(-1000), 0);
}

static void test_set_and_clear(void **state)
{
    (void)state;
    struct rs_err err;
    rs_err_clear(&err);
    assert_int_equal(err.code, 0);
    assert_string_equal(err.msg, "");

    assert_int_equal(rs_err_set(&err, RS_ECONSTRAINT, "traffic=%s needs N a power of two (got N=%d)",
                                "bitrev", 12),
                     RS_ECONSTRAINT);
    assert_int_equal(err.code, RS_ECONSTRAINT);
    assert_string_equal(err.msg, "traffic=bitrev needs N a power of two (got N=12)");

    rs_err_clear(&err);
    assert_int_equal(err.code, 0);
    assert_string_equal(err.msg, "");

    /* err may be NULL: the code still comes back */
    assert_int_equal(rs_err_set(NULL, RS_EIO, "cannot open '%s'", "x"), RS_EIO);
    rs_err_clear(NULL);
}

static void test_long_message_is_cut(void **state)
{
    (void)state;
    struct rs_err err;
    char big[2000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    rs_err_set(&err, RS_EINVAL, "%s", big);
    assert_int_equal(strlen(err.msg), sizeof err.msg - 1); /* cut, NUL-terminated */
    assert_int_equal(err.msg[0], 'x');
}

/* Control bytes and invalid UTF-8 in quoted input come out as \xNN (one line, nothing for
 * the terminal to obey); printable ASCII and valid UTF-8 stay; escaping is idempotent. */
static void test_control_bytes_escaped(void **state)
{
    (void)state;
    struct rs_err err;
    rs_err_set(&err, RS_EPARSE, "unknown key '%s'", "\x1b[2Ja\nb\r\t\x7f\x01");
    assert_string_equal(err.msg, "unknown key '\\x1b[2Ja\\x0ab\\x0d\\x09\\x7f\\x01'");
    rs_err_set(&err, RS_EPARSE, "'%s'", "Gr\xc3\xb6\xc3\x9f" "e \xe2\x86\x92 \xf0\x9f\x99\x82");
    assert_string_equal(err.msg, "'Gr\xc3\xb6\xc3\x9f" "e \xe2\x86\x92 \xf0\x9f\x99\x82'");
    /* a lone continuation byte, a cut sequence, an overlong '/', a C1 control (U+009B) */
    rs_err_set(&err, RS_EPARSE, "%s", "\x80|\xc3|\xc0\xaf|\xc2\x9b|\xed\xa0\x80");
    assert_string_equal(err.msg, "\\x80|\\xc3|\\xc0\\xaf|\\xc2\\x9b|\\xed\\xa0\\x80");
    char twice[sizeof err.msg];
    rs_err_escape(err.msg, twice, sizeof twice);
    assert_string_equal(twice, err.msg);
    /* cut before an escape that would not fit, still terminated */
    char small[6];
    rs_err_escape("ab\x1b", small, sizeof small);
    assert_string_equal(small, "ab");
    char one[1];
    rs_err_escape("x", one, sizeof one);
    assert_string_equal(one, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strerror_texts),
        cmocka_unit_test(test_is_input),
        cmocka_unit_test(test_set_and_clear),
        cmocka_unit_test(test_long_message_is_cut),
        cmocka_unit_test(test_control_bytes_escaped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
