/* Tests of the resource limits (src/core/resources.c): byte sizes as written, their short
 * text, the refusal of an estimate over its limit, and the resource error class. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "routesim/resources.h"

static uint64_t parse_ok(const char *text)
{
    uint64_t b = 0;
    struct rs_err err;
    rs_err_clear(&err);
    assert_int_equal(rs_bytes_parse("k", text, &b, &err), 0);
    return b;
}

static void test_bytes_parse(void **state)
{
    (void)state;
    assert_true(parse_ok("1") == 1);
    assert_true(parse_ok("4096") == 4096);
    assert_true(parse_ok("512K") == 512ull << 10);
    assert_true(parse_ok("64M") == 64ull << 20);
    assert_true(parse_ok("64m") == 64ull << 20);
    assert_true(parse_ok("4G") == 4ull << 30);
    assert_true(parse_ok("1.5GiB") == 3ull << 29);
    assert_true(parse_ok("2TB") == 2ull << 40);
    assert_true(parse_ok("100B") == 100);
    static const char *const bad[] = {"", "0", "-5", "12Q", "4 G", " 4G", "G", "4GG", "4GiBs",
                                      "nan", "1e30"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t b = 7;
        struct rs_err err;
        rs_err_clear(&err);
        assert_int_equal(rs_bytes_parse("max_memory", bad[i], &b, &err), RS_EINVAL);
        assert_non_null(strstr(err.msg, "key 'max_memory': expected a size in bytes"));
        assert_true(b == 7);
    }
}

static void test_bytes_format(void **state)
{
    (void)state;
    char buf[32];
    rs_bytes_format(812, buf, sizeof buf);
    assert_string_equal(buf, "812 B");
    rs_bytes_format(1536, buf, sizeof buf);
    assert_string_equal(buf, "1.5 KiB");
    rs_bytes_format(64ull << 20, buf, sizeof buf);
    assert_string_equal(buf, "64 MiB");
    rs_bytes_format(3ull << 29, buf, sizeof buf);
    assert_string_equal(buf, "1.5 GiB");
}

static void test_mem_check(void **state)
{
    (void)state;
    struct rs_err err;
    rs_err_clear(&err);
    assert_int_equal(rs_mem_check("this run", 1000, 1000, "max_memory", &err), 0);
    assert_int_equal(err.code, 0);
    assert_int_equal(rs_mem_check("this run", 3ull << 29, 1ull << 30, "max_memory", &err),
                     RS_ERESOURCE);
    assert_string_equal(err.msg,
                        "this run needs about 1.5 GiB of memory, more than max_memory (1.0 GiB)");
    assert_int_equal(rs_mem_check("this run", 2048, 1024, NULL, &err), RS_ERESOURCE);
    assert_string_equal(err.msg, "this run needs about 2.0 KiB of memory, more than the 1.0 KiB "
                                 "available (the max_memory key sets the limit)");
    assert_true(rs_mem_available() > 0);
}

static void test_resource_class(void **state)
{
    (void)state;
    assert_int_equal(rs_err_is_resource(RS_ENOMEM), 1);
    assert_int_equal(rs_err_is_resource(RS_ERESOURCE), 1);
    assert_int_equal(rs_err_is_input(RS_ERESOURCE), 0);
    assert_int_equal(rs_err_is_resource(RS_EDEADLOCK), 0);
    assert_int_equal(rs_err_is_resource(RS_EINVAL), 0);
    assert_string_equal(rs_strerror(RS_ERESOURCE), "resource limit exceeded");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytes_parse),
        cmocka_unit_test(test_bytes_format),
        cmocka_unit_test(test_mem_check),
        cmocka_unit_test(test_resource_class),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
