/* Tests of output paths: how each kind of path is classified (new, regular, links, dangling
 * links, chains and loops, directories, missing folders, FIFOs, devices, standard output),
 * writes that keep a file's mode and its links, and the same-file checks. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "routesim/buf.h"
#include "routesim/outpath.h"

static char dir[512];

static int setup(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/rs_outpath_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) ? -1 : 0;
}

/* dir/name into buf. */
static const char *at(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", dir, name);
    return buf;
}

static void touch(const char *path, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "old\n", 4), 4);
    close(fd);
    chmod(path, mode);
}

static void expect_how(const char *path, enum rs_out_how how, const char *target)
{
    struct rs_out o;
    struct rs_err err;
    rs_err_clear(&err);
    assert_int_equal(rs_out_resolve(path, &o, &err), 0);
    assert_int_equal(o.how, how);
    if (target)
        assert_string_equal(o.path, target);
    else
        assert_null(o.path);
    rs_out_free(&o);
}

static void expect_refused(const char *path, int rc, const char *why)
{
    struct rs_out o;
    struct rs_err err;
    char want[1200];
    rs_err_clear(&err);
    assert_int_equal(rs_out_resolve(path, &o, &err), rc);
    snprintf(want, sizeof want, "cannot write '%s': %s", path, why);
    assert_string_equal(err.msg, want);
}

static void test_resolve(void **state)
{
    (void)state;
    char a[700], b[700], c[700];
    expect_how(NULL, RS_OUT_STDOUT, NULL);
    expect_how("-", RS_OUT_STDOUT, NULL);
    expect_how(at(a, sizeof a, "new.csv"), RS_OUT_REPLACE, a);
    touch(at(a, sizeof a, "file.csv"), 0600);
    expect_how(a, RS_OUT_REPLACE, a);
    struct rs_out o;
    struct rs_err err;
    assert_int_equal(rs_out_resolve(a, &o, &err), 0);
    assert_int_equal(o.exists, 1);
    assert_int_equal(o.mode, 0600);
    rs_out_free(&o);
    /* a chain of links (relative and absolute) ends at the file; a dangling link at the
     * path it names */
    assert_int_equal(symlink("file.csv", at(b, sizeof b, "l1")), 0);
    assert_int_equal(symlink(b, at(c, sizeof c, "l2")), 0);
    expect_how(c, RS_OUT_REPLACE, a);
    assert_int_equal(symlink("gone.csv", at(b, sizeof b, "dangling")), 0);
    expect_how(b, RS_OUT_REPLACE, at(c, sizeof c, "gone.csv"));
    /* refused: a folder, a path ending in '/', a missing folder, a loop, empty */
    expect_refused(dir, RS_EIO, "Is a directory");
    expect_refused(at(a, sizeof a, "x.csv/"), RS_EIO, "Is a directory");
    expect_refused(at(a, sizeof a, "missing/x.csv"), RS_EIO, "No such file or directory");
    expect_refused(at(a, sizeof a, "file.csv/x.csv"), RS_EIO, "Not a directory");
    assert_int_equal(symlink("loop2", at(a, sizeof a, "loop1")), 0);
    assert_int_equal(symlink("loop1", at(b, sizeof b, "loop2")), 0);
    expect_refused(a, RS_EIO, "Too many levels of symbolic links");
    assert_int_equal(rs_out_resolve("", &o, &err), RS_EINVAL);
    /* written through: a FIFO, a character device (only looked at, never written here) */
    assert_int_equal(mkfifo(at(a, sizeof a, "fifo"), 0600), 0);
    expect_how(a, RS_OUT_THROUGH, a);
    struct stat st, null; /* unless /dev/null is this test's standard output */
    if (!stat("/dev/null", &null) && S_ISCHR(null.st_mode) &&
        (fstat(STDOUT_FILENO, &st) || st.st_rdev != null.st_rdev))
        expect_how("/dev/null", RS_OUT_THROUGH, "/dev/null");
}

/* A path naming the process's standard output (whatever it is) is standard output. */
static void test_resolve_stdout(void **state)
{
    (void)state;
    char a[700];
    int fd = open(at(a, sizeof a, "captured"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    assert_true(dup2(fd, 1) >= 0);
    struct rs_out o;
    struct rs_err err;
    int rc = rs_out_resolve(a, &o, &err);
    enum rs_out_how how = o.how;
    rs_out_free(&o);
    struct rs_buf b;
    rs_buf_init(&b);
    rs_buf_puts(&b, "via stdout\n");
    int rc2 = rs_buf_write_file(&b, "/dev/stdout", &err);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(fd);
    rs_buf_free(&b);
    assert_int_equal(rc, 0);
    assert_int_equal(how, RS_OUT_STDOUT);
    assert_int_equal(rc2, 0);
    struct stat st;
    assert_int_equal(lstat(a, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_size, 11);
}

/* Writes: a 0600 file keeps its mode; a link stays a link and its target gets the data. */
static void test_write_keeps_mode_and_links(void **state)
{
    (void)state;
    char a[700], l[700];
    struct rs_buf b;
    struct rs_err err;
    rs_buf_init(&b);
    rs_buf_puts(&b, "new content\n");
    touch(at(a, sizeof a, "private.csv"), 0600);
    assert_int_equal(rs_buf_write_file(&b, a, &err), 0);
    struct stat st;
    assert_int_equal(stat(a, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
    assert_int_equal(st.st_size, 12);
    assert_int_equal(symlink("private.csv", at(l, sizeof l, "link.csv")), 0);
    rs_buf_puts(&b, "more\n");
    assert_int_equal(rs_buf_write_file(&b, l, &err), 0);
    assert_int_equal(lstat(l, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(stat(a, &st), 0);
    assert_int_equal(st.st_size, 17);
    assert_int_equal(st.st_mode & 07777, 0600);
    /* a write error (a full device) is RS_EWRITE, not bad input; the device stays */
    struct stat full;
    if (!stat("/dev/full", &full) && S_ISCHR(full.st_mode)) {
        assert_int_equal(rs_buf_write_file(&b, "/dev/full", &err), RS_EWRITE);
        assert_string_equal(err.msg, "cannot write '/dev/full': No space left on device");
        assert_int_equal(stat("/dev/full", &full), 0);
        assert_true(S_ISCHR(full.st_mode));
    }
    rs_buf_free(&b);
}

static void test_same_and_distinct(void **state)
{
    (void)state;
    char a[700], b[700], c[700], cwd[700];
    touch(at(a, sizeof a, "in.ini"), 0644);
    assert_int_equal(symlink("in.ini", at(b, sizeof b, "in-link")), 0);
    assert_true(rs_path_same(a, b));
    assert_true(rs_path_same(a, a));
    assert_false(rs_path_same(a, at(c, sizeof c, "other")));
    assert_false(rs_path_same(a, NULL));
    assert_false(rs_path_same("-", "-"));
    /* files not made yet: the same by folder and name, also relative to the folder */
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    assert_true(rs_path_same("./new.csv", at(c, sizeof c, "new.csv")));
    assert_true(rs_path_same("new.csv", "sub/../new.csv") == 0); /* sub does not exist */
    assert_false(rs_path_same("new.csv", "new2.csv"));
    assert_int_equal(chdir(cwd), 0);

    struct rs_err err;
    struct rs_named_path ins[2] = {{"-c", a}, {"traffic_file", NULL}};
    struct rs_named_path outs[3] = {{"-o", at(c, sizeof c, "r.csv")}, {"--per-run", "-"},
                                    {"--plot", NULL}};
    assert_int_equal(rs_out_check_distinct(outs, 3, ins, 2, &err), 0);
    outs[1].path = c;
    assert_int_equal(rs_out_check_distinct(outs, 3, ins, 2, &err), RS_EINVAL);
    char want[2000];
    snprintf(want, sizeof want,
             "--per-run '%s' is the same file as -o '%s' (give each output its own file)", c, c);
    assert_string_equal(err.msg, want);
    outs[1].path = NULL;
    outs[2].path = b;
    assert_int_equal(rs_out_check_distinct(outs, 3, ins, 2, &err), RS_EINVAL);
    snprintf(want, sizeof want,
             "--plot '%s' is the same file as the input -c '%s' (refusing to overwrite it)", b,
             a);
    assert_string_equal(err.msg, want);
}

static void test_check(void **state)
{
    (void)state;
    char a[700];
    struct rs_err err;
    assert_int_equal(rs_out_check(at(a, sizeof a, "fresh.csv"), &err), 0);
    assert_int_equal(access(a, F_OK), -1); /* nothing created */
    assert_int_equal(rs_out_check(NULL, &err), 0);
    assert_int_equal(rs_out_check(at(a, sizeof a, "nowhere/x"), &err), RS_EIO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_resolve_stdout),
        cmocka_unit_test(test_write_keeps_mode_and_links),
        cmocka_unit_test(test_same_and_distinct),
        cmocka_unit_test(test_check),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
