/* Tests of the growable buffer and its atomic file writes (whole file or nothing, no
 * temporary file left behind, errors naming the path). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "routesim/buf.h"

static void test_append_grows(void **state)
{
    (void)state;
    struct rs_buf b = {0};
    rs_buf_init(&b);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    for (int i = 0; i < 10000; i++)
        assert_int_equal(rs_buf_puts(&b, "abc"), 0);
    assert_int_equal(b.len, 30000);
    assert_true(b.cap > b.len);
    assert_int_equal(b.data[b.len], '\0');
    assert_memory_equal(b.data + 29997, "abc", 4);

    /* bytes with an embedded NUL; the buffer stays NUL-terminated after them */
    assert_int_equal(rs_buf_append(&b, "x\0y", 3), 0);
    assert_int_equal(b.len, 30003);
    assert_memory_equal(b.data + 30000, "x\0y\0", 4);

    rs_buf_free(&b);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
    /* reusable after free; an empty append still gives a valid empty string */
    assert_int_equal(rs_buf_append(&b, "", 0), 0);
    assert_string_equal(b.data, "");
    rs_buf_free(&b);
}

static void test_printf(void **state)
{
    (void)state;
    struct rs_buf b;
    rs_buf_init(&b);
    assert_int_equal(rs_buf_printf(&b, "%s=%d", "N", 16), 0);
    assert_int_equal(rs_buf_printf(&b, ", %.3f", 0.5), 0);
    assert_string_equal(b.data, "N=16, 0.500");
    assert_int_equal(b.len, strlen("N=16, 0.500"));

    /* longer than the first allocation (256 bytes) in one call */
    char big[1001];
    memset(big, 'z', 1000);
    big[1000] = '\0';
    assert_int_equal(rs_buf_printf(&b, "[%s]", big), 0);
    assert_int_equal(b.len, 11 + 1002);
    assert_int_equal(b.data[11], '[');
    assert_int_equal(b.data[1012], ']');
    assert_int_equal(b.data[1013], '\0');
    rs_buf_free(&b);
}

/* A fresh empty folder; path in dir[]. */
static void make_dir(char *dir, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, n, "%s/rs_buf_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
}

/* Number of entries in dir other than . and .. */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* The whole content of path (caller frees). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *s = calloc(1, 1 << 16);
    assert_non_null(s);
    size_t n = fread(s, 1, (1 << 16) - 1, f);
    s[n] = '\0';
    fclose(f);
    return s;
}

static void test_write_file(void **state)
{
    (void)state;
    char dir[512], path[600];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.csv", dir);
    struct rs_buf b;
    struct rs_err err;
    rs_buf_init(&b);
    rs_err_clear(&err);
    rs_buf_puts(&b, "a,b\n1,2\n");
    assert_int_equal(rs_buf_write_file(&b, path, &err), 0);
    char *s = slurp(path);
    assert_string_equal(s, "a,b\n1,2\n");
    free(s);
    assert_int_equal(count_entries(dir), 1); /* no temporary file left */
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    /* created like any file of the user's: 0666 less the umask (0644 under umask 022) */
    mode_t mask = umask(0);
    umask(mask);
    assert_int_equal(st.st_mode & 0777, 0666 & ~mask);

    /* an existing file is replaced whole */
    b.len = 0;
    rs_buf_puts(&b, "x\n");
    assert_int_equal(rs_buf_write_file(&b, path, &err), 0);
    s = slurp(path);
    assert_string_equal(s, "x\n");
    free(s);
    assert_int_equal(count_entries(dir), 1);

    /* an empty buffer makes an empty file */
    struct rs_buf empty;
    rs_buf_init(&empty);
    assert_int_equal(rs_buf_write_file(&empty, path, &err), 0);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 0);

    unlink(path);
    rmdir(dir);
    rs_buf_free(&b);
}

static void test_write_file_errors(void **state)
{
    (void)state;
    char dir[512], path[600], want[800];
    make_dir(dir, sizeof dir);
    struct rs_buf b;
    struct rs_err err;
    rs_buf_init(&b);
    rs_buf_puts(&b, "data\n");

    /* a folder that does not exist: the temporary file cannot be made */
    snprintf(path, sizeof path, "%s/nope/out.csv", dir);
    rs_err_clear(&err);
    assert_int_equal(rs_buf_write_file(&b, path, &err), RS_EIO);
    assert_int_equal(err.code, RS_EIO);
    snprintf(want, sizeof want, "cannot write '%s': No such file or directory", path);
    assert_string_equal(err.msg, want);

    /* the target is a folder: the rename fails and the temporary file is removed */
    snprintf(path, sizeof path, "%s/sub", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    rs_err_clear(&err);
    assert_int_equal(rs_buf_write_file(&b, path, &err), RS_EIO);
    snprintf(want, sizeof want, "cannot write '%s': Is a directory", path);
    assert_string_equal(err.msg, want);
    assert_int_equal(count_entries(dir), 1); /* only sub */

    /* err may be NULL */
    assert_int_equal(rs_buf_write_file(&b, path, NULL), RS_EIO);
    assert_int_equal(count_entries(dir), 1);

    rmdir(path);
    rmdir(dir);
    rs_buf_free(&b);
}

/* NULL and "-" write to stdout: captured by pointing descriptor 1 at a file. */
static void test_write_stdout(void **state)
{
    (void)state;
    char dir[512], path[600];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/stdout.txt", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    assert_true(saved >= 0);
    assert_true(dup2(fd, 1) >= 0);

    struct rs_buf b;
    struct rs_err err;
    rs_buf_init(&b);
    rs_buf_puts(&b, "one\n");
    int rc1 = rs_buf_write_file(&b, NULL, &err);
    b.len = 0;
    rs_buf_puts(&b, "two\n");
    int rc2 = rs_buf_write_file(&b, "-", &err);
    struct rs_buf empty;
    rs_buf_init(&empty);
    int rc3 = rs_buf_write_file(&empty, "-", &err);

    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(fd);
    assert_int_equal(rc1, 0);
    assert_int_equal(rc2, 0);
    assert_int_equal(rc3, 0);
    char *s = slurp(path);
    assert_string_equal(s, "one\ntwo\n");
    free(s);
    unlink(path);
    rmdir(dir);
    rs_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_append_grows),
        cmocka_unit_test(test_printf),
        cmocka_unit_test(test_write_file),
        cmocka_unit_test(test_write_file_errors),
        cmocka_unit_test(test_write_stdout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
