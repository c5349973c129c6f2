/* Resume's row identities (src/exp/sweep_resume.c): rows are found by the hash of their
 * identity cells and matched by their text, so identities whose hashes collide stay apart.
 * Collisions are forced with a constant hash: every row still goes to its own point, a
 * foreign row is still refused, and the text comparison itself is exact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "exp/sweep_resume.h"

/* Three points whose identities ("p,runs") are a,1 / b,1 / c,1; per-run rows unused. */
static int ident(void *ctx, uint64_t i, struct rs_buf *stats, struct rs_buf *runs,
                 struct rs_err *err)
{
    (void)ctx;
    (void)runs;
    (void)err;
    return rs_buf_printf(stats, "%c,1", (char)('a' + i)) ? RS_ENOMEM : 0;
}

static uint64_t constant_hash(const char *s, size_t n)
{
    (void)s;
    (void)n;
    return 42;
}

/* Write text to a fresh file; its path into path. */
static void write_file(char *path, size_t n, const char *text)
{
    snprintf(path, n, "/tmp/rs_resume_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

/* Resume over a file with rows for points c and a (in that order) under hash: points 0
 * and 2 kept, 1 not. */
static void kept(uint64_t (*hash)(const char *, size_t))
{
    char path[64];
    write_file(path, sizeof path, "p,runs,x\nc,1,7\na,1,5\n");
    uint8_t skip[3] = {0, 0, 0};
    struct rs__resume_in in = {path, NULL, "p,runs,", "p,replication,", 2, 3, 1, ident, NULL,
                               hash};
    struct rs__resume_out out;
    struct rs_err err;
    memset(&out, 0, sizeof out);
    out.skip = skip;
    rs_buf_init(&out.header);
    rs_buf_init(&out.runs_header);
    rs_err_clear(&err);
    assert_int_equal(rs__sweep_resume(&in, &out, &err), 0);
    assert_int_equal(out.kept, 2);
    assert_int_equal(skip[0], 1);
    assert_int_equal(skip[1], 0);
    assert_int_equal(skip[2], 1);
    rs_buf_free(&out.header);
    rs_buf_free(&out.runs_header);
    unlink(path);
}

static void test_rows_kept_by_text(void **state)
{
    (void)state;
    kept(NULL);          /* FNV-1a */
    kept(constant_hash); /* every identity collides: the text decides */
}

/* A row of no point is refused even when its hash equals every point's. */
static void test_foreign_row_refused_on_collision(void **state)
{
    (void)state;
    char path[64];
    write_file(path, sizeof path, "p,runs,x\nd,1,7\n");
    uint8_t skip[3] = {0, 0, 0};
    struct rs__resume_in in = {path, NULL, "p,runs,", "p,replication,", 2, 3, 1, ident, NULL,
                               constant_hash};
    struct rs__resume_out out;
    struct rs_err err;
    memset(&out, 0, sizeof out);
    out.skip = skip;
    rs_buf_init(&out.header);
    rs_buf_init(&out.runs_header);
    rs_err_clear(&err);
    assert_int_equal(rs__sweep_resume(&in, &out, &err), RS_EINVAL);
    assert_non_null(strstr(err.msg, ":2: a row of another grid or experiment"));
    assert_int_equal(out.kept, 0);
    rs_buf_free(&out.header);
    rs_buf_free(&out.runs_header);
    unlink(path);
}

/* The comparison: same bytes and length only. */
static void test_same(void **state)
{
    (void)state;
    assert_true(rs__resume_same("a,1", 3, "a,1", 3));
    assert_false(rs__resume_same("a,1", 3, "a,2", 3));
    assert_false(rs__resume_same("a,1", 3, "a,10", 4));
    assert_false(rs__resume_same("a,1", 3, "a,", 2));
    assert_true(rs__resume_same("", 0, "x", 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_kept_by_text),
        cmocka_unit_test(test_foreign_row_refused_on_collision),
        cmocka_unit_test(test_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
