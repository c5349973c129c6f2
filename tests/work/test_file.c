/* Tests of traffic=file: the file format (comments, blank lines, blanks, CRLF), message
 * order with per_input > 1, file_kind, and every error with its exact message. Files are
 * written into a fresh mkdtemp directory that the group teardown removes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "work/fixture.h"
#include "routesim/net.h"
#include "routesim/params.h"
#include "routesim/problem.h"


/* The temporary directory of the group. */
struct tmp {
    char dir[256];
};

static int group_setup(void **state)
{
    struct tmp *t = calloc(1, sizeof *t);
    if (t == NULL)
        return -1;
    const char *base = getenv("TMPDIR");
    snprintf(t->dir, sizeof t->dir, "%s/rs_test_file_XXXXXX",
             base != NULL && base[0] != '\0' ? base : "/tmp");
    if (mkdtemp(t->dir) == NULL) {
        free(t);
        return -1;
    }
    *state = t;
    return 0;
}

static int group_teardown(void **state)
{
    struct tmp *t = *state;
    DIR *d = opendir(t->dir);
    if (d != NULL) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", t->dir, e->d_name);
            if (unlink(path) != 0)
                rmdir(path);
        }
        closedir(d);
    }
    rmdir(t->dir);
    free(t);
    return 0;
}

/* Write text to DIR/name; path receives the full name. */
static void write_file(void **state, const char *name, const char *text, char *path,
                       size_t n)
{
    const struct tmp *t = *state;
    snprintf(path, n, "%s/%s", t->dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

/* A file of one destination per line: vals[0..n), each formatted "%d\n". */
static void write_values(void **state, const char *name, const long *vals, int n, char *path,
                         size_t len)
{
    char *text = malloc((size_t)n * 24 + 1);
    assert_non_null(text);
    size_t at = 0;
    text[0] = '\0';
    for (int i = 0; i < n; i++)
        at += (size_t)sprintf(text + at, "%ld\n", vals[i]);
    write_file(state, name, text, path, len);
    free(text);
}

/* Build `net traffic=file traffic_file=path extra` and expect code and the message
 * (with %s standing for the path; fmt NULL: any message). */
static void expect_error(const char *net, const char *path, const char *extra, int code,
                         const char *fmt)
{
    char args[1024], want[1024];
    snprintf(args, sizeof args, "%s traffic=file traffic_file=%s %s", net, path, extra);
    struct fx f;
    assert_int_equal(fx_build(&f, 1, args), code);
    if (fmt != NULL) {
        snprintf(want, sizeof want, fmt, path);
        assert_string_equal(f.err.msg, want);
    }
    assert_null(f.pb.dst);
    assert_int_equal(f.pb.n_msgs, 0);
    fx_free(&f);
}

#define NET64 "topology=ring k=64"

/* Comments, blank lines, blanks around the number and CRLF line ends are accepted;
 * destination s of message s is line s of the data (here 63 - s). */
static void test_read_ok(void **state)
{
    char text[4096], path[512];
    size_t at = (size_t)sprintf(text, "# reversal of 64 terminals\n\n   # indented comment\n");
    for (int s = 0; s < 64; s++) {
        if (s == 10)
            at += (size_t)sprintf(text + at, "\t\n");
        at += (size_t)sprintf(text + at, s % 3 == 0 ? "  %d \r\n" : "%d\n", 63 - s);
    }
    write_file(state, "ok.txt", text, path, sizeof path);
    char args[1024];
    snprintf(args, sizeof args, NET64 " traffic=file traffic_file=%s", path);
    struct fx f;
    if (fx_build(&f, 1, args) != 0)
        fail_msg("%s", f.err.msg);
    assert_int_equal(f.pb.n_msgs, 64);
    for (uint32_t s = 0; s < 64; s++)
        assert_int_equal(f.pb.dst[s], 63 - s);
    fx_free(&f);
}

/* tests/data/work_bitrev16.txt holds bit reversal of 16: the same as traffic=bitrev. */
static void test_data_file_matches_bitrev(void **state)
{
    const char *data = getenv("RS_TEST_DATA");
    assert_non_null(data);
    char args[1024];
    snprintf(args, sizeof args,
             "topology=butterfly N=16 traffic=file traffic_file=%s/work_bitrev16.txt", data);
    struct fx f, g;
    if (fx_build(&f, 1, args) != 0)
        fail_msg("%s", f.err.msg);
    assert_int_equal(fx_build(&g, 1, "topology=butterfly N=16 traffic=bitrev"), 0);
    assert_memory_equal(f.pb.dst, g.pb.dst, 16 * sizeof(uint32_t));
    fx_free(&f);
    fx_free(&g);
}

/* per_input = 2: line m is message m = s*2 + k; d(s, k) = (s + k) mod 64 sends every
 * destination exactly twice, so it passes the permutation check. */
static void test_per_input_order(void **state)
{
    long vals[128];
    for (int m = 0; m < 128; m++)
        vals[m] = (m / 2 + m % 2) % 64;
    char path[512], args[1024];
    write_values(state, "q2.txt", vals, 128, path, sizeof path);
    snprintf(args, sizeof args, NET64 " traffic=file traffic_file=%s per_input=2", path);
    struct fx f;
    if (fx_build(&f, 1, args) != 0)
        fail_msg("%s", f.err.msg);
    assert_int_equal(f.pb.n_msgs, 128);
    for (uint32_t m = 0; m < 128; m++)
        assert_int_equal(f.pb.dst[m], (m / 2 + m % 2) % 64);
    fx_free(&f);
}

/* file_kind=any accepts any destinations, e.g. everyone to 5 (a hot spot). */
static void test_kind_any(void **state)
{
    long vals[64];
    for (int m = 0; m < 64; m++)
        vals[m] = 5;
    char path[512], args[1024];
    write_values(state, "hot.txt", vals, 64, path, sizeof path);
    snprintf(args, sizeof args, NET64 " traffic=file traffic_file=%s file_kind=any", path);
    struct fx f;
    if (fx_build(&f, 1, args) != 0)
        fail_msg("%s", f.err.msg);
    for (uint32_t m = 0; m < 64; m++)
        assert_int_equal(f.pb.dst[m], 5);
    fx_free(&f);
    /* the default kind is permutation: line 2 repeats line 1 */
    expect_error(NET64, path, "", RS_ECONSTRAINT, "%s:2: destination 5 repeated (first at line 1)");
    expect_error(NET64, path, "file_kind=anything", RS_EUNKNOWN, NULL);
}

static void test_missing_key(void **state)
{
    struct fx f;
    assert_int_equal(fx_build(&f, 1, NET64 " traffic=file"), RS_EINVAL);
    assert_string_equal(f.err.msg, "traffic=file needs traffic_file=PATH");
    assert_null(f.pb.dst);
    fx_free(&f);
    assert_int_equal(fx_build(&f, 1, NET64 " traffic=file traffic_file="), RS_EINVAL);
    assert_string_equal(f.err.msg, "traffic=file needs traffic_file=PATH");
    fx_free(&f);
}

static void test_missing_file(void **state)
{
    const struct tmp *t = *state;
    char path[512];
    snprintf(path, sizeof path, "%s/none.txt", t->dir);
    expect_error(NET64, path, "", RS_EIO, "cannot open '%s': No such file or directory");
}

static void test_directory(void **state)
{
    const struct tmp *t = *state;
    expect_error(NET64, t->dir, "", RS_EIO, "cannot read '%s': Is a directory");
}

/* Line 7 (after a comment, a blank line and four numbers) does not hold an integer. */
static void test_not_an_integer(void **state)
{
    const char *bad[] = {"x1", "1.5", "+3", "3 4", "0x10", "-", "5#"};
    for (int i = 0; i < 7; i++) {
        char text[256], path[512], want[256];
        snprintf(text, sizeof text, "# header\n\n0\n1\n2\n3\n %s\n4\n", bad[i]);
        write_file(state, "nan.txt", text, path, sizeof path);
        snprintf(want, sizeof want, "%%s:7: expected a destination terminal 0..63, got '%s'",
                 bad[i]);
        expect_error(NET64, path, "", RS_EPARSE, want);
    }
}

static void test_out_of_range(void **state)
{
    const char *bad[] = {"70", "64", "-1", "99999999999999999999999"};
    for (int i = 0; i < 4; i++) {
        char text[256], path[512], want[256];
        snprintf(text, sizeof text, "# header\n\n0\n1\n2\n3\n%s\n4\n", bad[i]);
        write_file(state, "range.txt", text, path, sizeof path);
        snprintf(want, sizeof want, "%%s:7: destination %s out of range 0..63", bad[i]);
        expect_error(NET64, path, "", RS_ECONSTRAINT, want);
    }
}

static void test_too_few(void **state)
{
    long vals[64];
    for (int m = 0; m < 64; m++)
        vals[m] = m;
    char path[512];
    write_values(state, "few.txt", vals, 60, path, sizeof path);
    expect_error(NET64, path, "", RS_ECONSTRAINT,
                 "%s: has 60 destinations, expected 64 (N=64 x per_input=1)");
    expect_error(NET64, path, "per_input=2 file_kind=any", RS_ECONSTRAINT,
                 "%s: has 60 destinations, expected 128 (N=64 x per_input=2)");
    write_file(state, "empty.txt", "# nothing here\n\n", path, sizeof path);
    expect_error(NET64, path, "", RS_ECONSTRAINT,
                 "%s: has 0 destinations, expected 64 (N=64 x per_input=1)");
}

static void test_too_many(void **state)
{
    long vals[65];
    for (int m = 0; m < 65; m++)
        vals[m] = m % 64;
    char path[512];
    write_values(state, "many.txt", vals, 65, path, sizeof path);
    expect_error(NET64, path, "", RS_ECONSTRAINT,
                 "%s:65: more than 64 destinations (N=64 x per_input=1)");
    /* the line number counts comments: the extra value is on line 66 */
    char text[1024];
    size_t at = (size_t)sprintf(text, "# header\n");
    for (int m = 0; m < 65; m++)
        at += (size_t)sprintf(text + at, "%d\n", m % 64);
    write_file(state, "many2.txt", text, path, sizeof path);
    expect_error(NET64, path, "file_kind=any", RS_ECONSTRAINT,
                 "%s:66: more than 64 destinations (N=64 x per_input=1)");
}

/* q = 1: line L holds L-1, except line 3 -> 5, line 6 -> 2 (a swap, still no repeat),
 * and line 9 -> 5, the first repeat. */
static void test_repeated(void **state)
{
    long vals[64];
    for (int m = 0; m < 64; m++)
        vals[m] = m;
    vals[2] = 5;
    vals[5] = 2;
    vals[8] = 5;
    char path[512];
    write_values(state, "rep.txt", vals, 64, path, sizeof path);
    expect_error(NET64, path, "", RS_ECONSTRAINT, "%s:9: destination 5 repeated (first at line 3)");
}

/* q = 2: line L holds (L-1)/2 (every destination twice), except lines 3, 5 and 9 hold 5:
 * by line 9, destination 5 has appeared on lines 3 and 5, and no other more than twice
 * (0 on 1,2; 1 on 4; 2 on 6; 3 on 7,8). */
static void test_more_than_q(void **state)
{
    long vals[128];
    for (int m = 0; m < 128; m++)
        vals[m] = m / 2;
    vals[2] = 5;
    vals[4] = 5;
    vals[8] = 5;
    char path[512];
    write_values(state, "rep2.txt", vals, 128, path, sizeof path);
    expect_error(NET64, path, "per_input=2", RS_ECONSTRAINT,
                 "%s:9: destination 5 appears more than per_input=2 times");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_ok),
        cmocka_unit_test(test_data_file_matches_bitrev),
        cmocka_unit_test(test_per_input_order),
        cmocka_unit_test(test_kind_any),
        cmocka_unit_test(test_missing_key),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_directory),
        cmocka_unit_test(test_not_an_integer),
        cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_too_few),
        cmocka_unit_test(test_too_many),
        cmocka_unit_test(test_repeated),
        cmocka_unit_test(test_more_than_q),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
