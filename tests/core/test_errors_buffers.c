/* Tests of src/core/error.c (codes, texts, the message slot), src/core/buf.c (growth,
 * atomic file writes) and src/core/hugemem.c (zeroed large and small blocks). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/hugemem.h"
#include "routesim/buf.h"
#include "routesim/error.h"

/* ---- error.c ---- */

/* Every code of RS_ERROR_LIST maps to its own text and input flag; the enum values are
 * the listed ones. */
static void test_strerror_every_code(void **state)
{
    (void)state;
    struct expect {
        int code;
        const char *text;
        int bad;
    } const want[] = {
        {0, "success", 0},
        {-1, "invalid value", 1},
        {-2, "unknown name", 1},
        {-3, "constraint violated", 1},
        {-4, "parse error", 1},
        {-5, "input/output error", 1},
        {-6, "out of memory", 0},
        {-7, "deadlock", 0},
        {-8, "invariant violated", 0},
        {-9, "unsupported combination", 1},
        {-10, "interrupted", 0},
    };
    /* the list itself, through the same X-macro the library uses */
    int n = 0;
#define RS__T_CHECK(x_name, x_value, x_text, x_bad)             \
    assert_int_equal(x_name, x_value);                          \
    assert_int_equal(want[n].code, x_value);                    \
    assert_string_equal(x_text, want[n].text);                  \
    assert_int_equal(x_bad, want[n].bad);                       \
    assert_string_equal(rs_strerror(x_name), want[n].text);     \
    assert_int_equal(rs_err_is_input(x_name), want[n].bad);     \
    n++;
    RS_ERROR_LIST(RS__T_CHECK)
#undef RS__T_CHECK
    assert_int_equal(n, (int)(sizeof want / sizeof want[0]));

    /* spelled-out names, so a renumbering of the enum is caught too */
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

    /* codes outside the list */
    assert_string_equal(rs_strerror(-11), "unknown error");
    assert_string_equal(rs_strerror(1), "unknown error");
    assert_string_equal(rs_strerror(-1000000), "unknown error");
}

static void test_err_is_input(void **state)
{
    (void)state;
    /* bad input or usage: the CLI exits 2 */
    assert_int_equal(rs_err_is_input(RS_EINVAL), 1);
    assert_int_equal(rs_err_is_input(RS_EUNKNOWN), 1);
    assert_int_equal(rs_err_is_input(RS_ECONSTRAINT), 1);
    assert_int_equal(rs_err_is_input(RS_EPARSE), 1);
    assert_int_equal(rs_err_is_input(RS_EIO), 1);
    assert_int_equal(rs_err_is_input(RS_EUNSUPPORTED), 1);
    /* failures while running: exit 1 */
    assert_int_equal(rs_err_is_input(RS_OK), 0);
    assert_int_equal(rs_err_is_input(RS_ENOMEM), 0);
    assert_int_equal(rs_err_is_input(RS_EDEADLOCK), 0);
    assert_int_equal(rs_err_is_input(RS_EINVARIANT), 0);
    assert_int_equal(rs_err_is_input(RS_EINTERRUPTED), 0);
    /* unknown codes are not input errors */
    assert_int_equal(rs_err_is_input(-11), 0);
    assert_int_equal(rs_err_is_input(42), 0);
}

static void test_err_set_and_clear(void **state)
{
    (void)state;
    struct rs_err err;
    rs_err_clear(&err);
    assert_int_equal(err.code, 0);
    assert_string_equal(err.msg, "");

    int rc = rs_err_set(&err, RS_ECONSTRAINT, "traffic=%s needs N a power of two (got N=%d)",
                        "bitrev", 12);
    assert_int_equal(rc, RS_ECONSTRAINT);
    assert_int_equal(err.code, RS_ECONSTRAINT);
    assert_string_equal(err.msg, "traffic=bitrev needs N a power of two (got N=12)");

    /* a later call replaces code and message */
    assert_int_equal(rs_err_set(&err, RS_EIO, "cannot open '%s'", "x.ini"), RS_EIO);
    assert_int_equal(err.code, RS_EIO);
    assert_string_equal(err.msg, "cannot open 'x.ini'");

    /* NULL err: nothing is written, the code still comes back */
    assert_int_equal(rs_err_set(NULL, RS_EPARSE, "ignored %d", 1), RS_EPARSE);
    assert_int_equal(rs_err_set(NULL, RS_OK, "ignored"), RS_OK);
    rs_err_clear(NULL); /* must not crash */

    rs_err_clear(&err);
    assert_int_equal(err.code, 0);
    assert_string_equal(err.msg, "");
}

/* A message longer than the slot is cut to sizeof msg - 1 bytes, NUL-terminated. */
static void test_err_set_truncates(void **state)
{
    (void)state;
    struct rs_err err;
    char longmsg[2000];
    for (size_t i = 0; i < sizeof longmsg - 1; i++)
        longmsg[i] = (char)('a' + i % 26);
    longmsg[sizeof longmsg - 1] = '\0';
    memset(err.msg, 'Z', sizeof err.msg);
    assert_int_equal(rs_err_set(&err, RS_EINVAL, "%s", longmsg), RS_EINVAL);
    assert_int_equal(err.code, RS_EINVAL);
    assert_int_equal(strlen(err.msg), sizeof err.msg - 1); /* 511 */
    assert_memory_equal(err.msg, longmsg, sizeof err.msg - 1);
    assert_int_equal(err.msg[sizeof err.msg - 1], '\0');

    /* exactly 511 characters fit whole */
    longmsg[511] = '\0';
    assert_int_equal(rs_err_set(&err, RS_EIO, "%s", longmsg), RS_EIO);
    assert_string_equal(err.msg, longmsg);
}

/* ---- buf.c ---- */

static void test_buf_init_free(void **state)
{
    (void)state;
    struct rs_buf b;
    memset(&b, 0x5a, sizeof b);
    rs_buf_init(&b);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
    rs_buf_free(&b); /* freeing an empty buffer is fine */
    assert_null(b.data);

    /* appending nothing still gives a valid empty string */
    assert_int_equal(rs_buf_append(&b, "", 0), 0);
    assert_non_null(b.data);
    assert_string_equal(b.data, "");
    assert_int_equal(b.len, 0);

    /* embedded NUL bytes are kept by append (len counts them) */
    assert_int_equal(rs_buf_append(&b, "a\0b", 3), 0);
    assert_int_equal(b.len, 3);
    assert_memory_equal(b.data, "a\0b", 4); /* and the terminating NUL after them */

    rs_buf_free(&b);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
    /* reusable after free */
    assert_int_equal(rs_buf_puts(&b, "again"), 0);
    assert_string_equal(b.data, "again");
    rs_buf_free(&b);
}

/* 10000 printf lines of "%05d\n" (6 bytes each: 60000 bytes, many reallocations) then
 * puts and append of 3000 bytes; every byte is checked. */
static void test_buf_growth(void **state)
{
    (void)state;
    struct rs_buf b;
    rs_buf_init(&b);
    for (int i = 0; i < 10000; i++) {
        assert_int_equal(rs_buf_printf(&b, "%05d\n", i), 0);
        assert_int_equal(b.len, (size_t)(i + 1) * 6);
        assert_true(b.cap > b.len);
        assert_int_equal(b.data[b.len], '\0');
    }
    for (int i = 0; i < 10000; i++) {
        char want[8];
        snprintf(want, sizeof want, "%05d\n", i);
        assert_memory_equal(b.data + 6 * i, want, 6);
    }
    char chunk[3000];
    for (size_t i = 0; i < sizeof chunk; i++)
        chunk[i] = (char)('A' + i % 23);
    assert_int_equal(rs_buf_append(&b, chunk, sizeof chunk), 0);
    assert_int_equal(rs_buf_puts(&b, "end"), 0);
    assert_int_equal(b.len, 60000 + 3000 + 3);
    assert_memory_equal(b.data + 60000, chunk, sizeof chunk);
    assert_string_equal(b.data + 63000, "end");
    assert_memory_equal(b.data, "00000\n00001\n", 12);

    /* one printf far larger than the current capacity */
    struct rs_buf c;
    rs_buf_init(&c);
    assert_int_equal(rs_buf_printf(&c, "<%s|%d>", b.data, 7), 0);
    assert_int_equal(c.len, b.len + 4);
    assert_int_equal(c.data[0], '<');
    assert_memory_equal(c.data + 1, b.data, b.len);
    assert_string_equal(c.data + 1 + b.len, "|7>");
    rs_buf_free(&c);
    rs_buf_free(&b);
}

/* Read the whole file at path into a malloc'd block; *len gets its size. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *data = NULL;
    size_t n = 0, cap = 0;
    int ch;
    while ((ch = fgetc(f)) != EOF) {
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            char *p = realloc(data, cap);
            assert_non_null(p);
            data = p;
        }
        data[n++] = (char)ch;
    }
    fclose(f);
    *len = n;
    return data ? data : calloc(1, 1);
}

/* Names in folder dir (without . and ..), joined with '/' in sorted order into out. */
static void list_folder(const char *dir, char *out, size_t n)
{
    char names[16][256];
    int count = 0;
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        assert_true(count < 16);
        snprintf(names[count++], sizeof names[0], "%s", e->d_name);
    }
    closedir(d);
    for (int i = 1; i < count; i++) /* insertion sort: a handful of names */
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char t[256];
            memcpy(t, names[j], sizeof t);
            memcpy(names[j], names[j - 1], sizeof t);
            memcpy(names[j - 1], t, sizeof t);
        }
    out[0] = '\0';
    size_t len = 0;
    for (int i = 0; i < count; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%s", i ? "/" : "", names[i]);
}

static void test_buf_write_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/rs-coretest-buf-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[512], listing[1024];
    snprintf(path, sizeof path, "%s/out.csv", dir);

    /* binary content with NUL bytes and no final newline, 70000 bytes */
    struct rs_buf b;
    rs_buf_init(&b);
    for (int i = 0; i < 70000; i++) {
        char c = (char)(i * 7 % 256);
        assert_int_equal(rs_buf_append(&b, &c, 1), 0);
    }
    struct rs_err err;
    rs_err_clear(&err);
    assert_int_equal(rs_buf_write_file(&b, path, &err), 0);
    assert_int_equal(err.code, 0);
    size_t len;
    char *got = slurp(path, &len);
    assert_non_null(got);
    assert_int_equal(len, 70000);
    assert_memory_equal(got, b.data, 70000);
    free(got);
    list_folder(dir, listing, sizeof listing);
    assert_string_equal(listing, "out.csv"); /* no temporary file left behind */
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644); /* an ordinary shareable file, not 0600 */

    /* replacing an existing, longer file leaves exactly the new bytes */
    rs_buf_free(&b);
    assert_int_equal(rs_buf_puts(&b, "a,b\n1,2\n"), 0);
    assert_int_equal(rs_buf_write_file(&b, path, &err), 0);
    got = slurp(path, &len);
    assert_non_null(got);
    assert_int_equal(len, 8);
    assert_memory_equal(got, "a,b\n1,2\n", 8);
    free(got);
    list_folder(dir, listing, sizeof listing);
    assert_string_equal(listing, "out.csv");

    /* an empty (never appended) buffer writes an empty file */
    char empty_path[512];
    snprintf(empty_path, sizeof empty_path, "%s/empty.txt", dir);
    struct rs_buf e;
    rs_buf_init(&e);
    assert_int_equal(rs_buf_write_file(&e, empty_path, &err), 0);
    got = slurp(empty_path, &len);
    assert_non_null(got);
    assert_int_equal(len, 0);
    free(got);
    list_folder(dir, listing, sizeof listing);
    assert_string_equal(listing, "empty.txt/out.csv");

    /* a folder that does not exist: RS_EIO, nothing created */
    char bad[512], want[1024];
    snprintf(bad, sizeof bad, "%s/missing/out.csv", dir);
    assert_int_equal(rs_buf_write_file(&b, bad, &err), RS_EIO);
    assert_int_equal(err.code, RS_EIO);
    snprintf(want, sizeof want, "cannot write '%s': ", bad);
    assert_memory_equal(err.msg, want, strlen(want));
    snprintf(want, sizeof want, "cannot write '%s': No such file or directory", bad);
    assert_string_equal(err.msg, want);
    list_folder(dir, listing, sizeof listing);
    assert_string_equal(listing, "empty.txt/out.csv");

    /* the same with err NULL still returns the code */
    assert_int_equal(rs_buf_write_file(&b, bad, NULL), RS_EIO);

    rs_buf_free(&b);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(unlink(empty_path), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* ---- hugemem.c ---- */

/* p[0..n) is all zero; then write a pattern over it and read it back. */
static void check_block(unsigned char *p, size_t n)
{
    assert_non_null(p);
    size_t nonzero = 0;
    for (size_t i = 0; i < n; i++)
        nonzero += p[i] != 0;
    assert_int_equal(nonzero, 0);
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 31 + 7);
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += p[i] != (unsigned char)(i * 31 + 7);
    assert_int_equal(wrong, 0);
}

static void test_hugemem(void **state)
{
    (void)state;
    size_t big = (size_t)4 << 20; /* 4 MiB: the mmap + huge page path */
    unsigned char *p = rs__huge_alloc(big);
    check_block(p, big);
    unsigned char *q = rs__huge_alloc(100); /* calloc path */
    check_block(q, 100);
    unsigned char *z = rs__huge_alloc(0); /* valid, distinct block */
    assert_non_null(z);
    /* a second large block is zeroed too, whatever the first one held */
    unsigned char *p2 = rs__huge_alloc(big);
    check_block(p2, big);
    rs__huge_free(p, big);
    rs__huge_free(q, 100);
    rs__huge_free(z, 0);
    rs__huge_free(p2, big);
    rs__huge_free(NULL, 0);
    rs__huge_free(NULL, 100);
    rs__huge_free(NULL, big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strerror_every_code),
        cmocka_unit_test(test_err_is_input),
        cmocka_unit_test(test_err_set_and_clear),
        cmocka_unit_test(test_err_set_truncates),
        cmocka_unit_test(test_buf_init_free),
        cmocka_unit_test(test_buf_growth),
        cmocka_unit_test(test_buf_write_file),
        cmocka_unit_test(test_hugemem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
