/* Tests of parameters: storage and replacement, KEY=VALUE arguments, INI files (line
 * numbers in errors), the typed getters with their exact messages, unknown keys. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "routesim/params.h"

static const char *const protocols[] = {"fifo", "random", "priority", "furthest_first", NULL};

static const struct rs_optdef opts[] = {
    {"queue_size", RS_OPT_INT, "0", 0, 1e9, NULL, "capacity of each queue", "packets"},
    {"seed", RS_OPT_INT, "1", -1e19, 1e19, NULL, "seed", "-"},
    {"protocol", RS_OPT_CHOICE, "fifo", 0, 0, protocols, "queueing protocol", "-"},
    {"rate", RS_OPT_DOUBLE, "0.5", 0, 1, NULL, "injection rate", "1"},
    {"wrap", RS_OPT_BOOL, "0", 0, 0, NULL, "wrap-around", "-"},
    {"file", RS_OPT_STRING, NULL, 0, 0, NULL, "permutation file", "-"},
    {"bad_default", RS_OPT_INT, "many", 0, 10, NULL, "a broken table entry", "1"},
    {NULL, RS_OPT_INT, NULL, 0, 0, NULL, NULL, NULL},
};

static const struct rs_optdef net_opts[] = {
    {"topology", RS_OPT_STRING, "butterfly", 0, 0, NULL, "network", "-"},
    {"N", RS_OPT_INT, "8", 2, 1 << 26, NULL, "inputs", "terminals"},
    {NULL, RS_OPT_INT, NULL, 0, 0, NULL, NULL, NULL},
};

/* A fresh temporary folder for INI files. */
struct tmpdir {
    char path[512];
};

static void tmpdir_make(struct tmpdir *d)
{
    const char *t = getenv("TMPDIR");
    snprintf(d->path, sizeof d->path, "%s/rs_params_XXXXXX", t && *t ? t : "/tmp");
    assert_non_null(mkdtemp(d->path));
}

/* Write text to DIR/name; the full path goes to path[0..n). */
static void write_file(const struct tmpdir *d, const char *name, const char *text, char *path,
                       size_t n)
{
    snprintf(path, n, "%s/%s", d->path, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_set_find_replace(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    rs_params_init(&p);
    assert_int_equal(rs_params_set(&p, "a", "1", NULL, 0, &err), 0);
    assert_int_equal(rs_params_set(&p, "b", "2", "x.ini", 4, &err), 0);
    assert_int_equal(rs_params_set(&p, "c", "", NULL, 0, &err), 0);
    assert_int_equal(p.n, 3);

    const struct rs_param *q = rs_params_find(&p, "b");
    assert_non_null(q);
    assert_string_equal(q->value, "2");
    assert_string_equal(q->origin, "x.ini");
    assert_int_equal(q->line, 4);
    q = rs_params_find(&p, "a");
    assert_string_equal(q->origin, "command line");
    assert_int_equal(q->line, 0);
    assert_null(rs_params_find(&p, "d"));
    assert_null(rs_params_find(&p, "A"));

    /* a later value replaces the earlier one in place, with its new origin */
    assert_int_equal(rs_params_set(&p, "a", "10", "y.ini", 7, &err), 0);
    assert_int_equal(p.n, 3);
    assert_string_equal(p.v[0].key, "a");
    assert_string_equal(p.v[0].value, "10");
    assert_string_equal(p.v[0].origin, "y.ini");
    assert_int_equal(p.v[0].line, 7);

    /* many keys: storage grows, order kept */
    char k[16];
    for (int i = 0; i < 100; i++) {
        snprintf(k, sizeof k, "k%d", i);
        assert_int_equal(rs_params_set(&p, k, k, NULL, 0, &err), 0);
    }
    assert_int_equal(p.n, 103);
    assert_string_equal(p.v[102].key, "k99");
    assert_string_equal(rs_params_find(&p, "k57")->value, "k57");

    /* deep copy: independent of the source */
    struct rs_params c;
    assert_int_equal(rs_params_copy(&c, &p), 0);
    assert_int_equal(c.n, p.n);
    rs_params_set(&p, "b", "changed", NULL, 0, &err);
    assert_string_equal(rs_params_find(&c, "b")->value, "2");
    assert_string_equal(rs_params_find(&c, "b")->origin, "x.ini");
    assert_int_equal(rs_params_find(&c, "b")->line, 4);
    rs_params_free(&c);

    rs_params_free(&p);
    assert_int_equal(p.n, 0);
    assert_null(p.v);
}

static void test_parse_arg(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    rs_params_init(&p);
    assert_int_equal(rs_params_parse_arg(&p, "N=16", &err), 0);
    assert_int_equal(rs_params_parse_arg(&p, "empty=", &err), 0);
    assert_int_equal(rs_params_parse_arg(&p, "bpc=a=b", &err), 0); /* split at the first '=' */
    assert_string_equal(rs_params_find(&p, "N")->value, "16");
    assert_string_equal(rs_params_find(&p, "empty")->value, "");
    assert_string_equal(rs_params_find(&p, "bpc")->value, "a=b");
    assert_string_equal(rs_params_find(&p, "N")->origin, "command line");

    rs_err_clear(&err);
    assert_int_equal(rs_params_parse_arg(&p, "foo", &err), RS_EPARSE);
    assert_int_equal(err.code, RS_EPARSE);
    assert_string_equal(err.msg, "command line: expected KEY=VALUE, got 'foo'");
    assert_int_equal(rs_params_parse_arg(&p, "=5", &err), RS_EPARSE);
    assert_string_equal(err.msg, "command line: expected KEY=VALUE, got '=5'");
    assert_int_equal(p.n, 3);

    /* a long key is fine */
    char longkey[700];
    memset(longkey, 'k', 600);
    strcpy(longkey + 600, "=v");
    assert_int_equal(rs_params_parse_arg(&p, longkey, &err), 0);
    assert_int_equal(strlen(p.v[3].key), 600);
    rs_params_free(&p);
}

static void test_load_ini(void **state)
{
    (void)state;
    struct tmpdir d;
    char path[700];
    tmpdir_make(&d);
    write_file(&d, "run.ini",
               "# a comment\n"          /* 1 */
               "topology = butterfly\n" /* 2 */
               "\n"                     /* 3 */
               "N=16\n"                 /* 4 */
               "; another comment\n"    /* 5 */
               "[plot]\n"               /* 6 */
               "title = a, b\n"         /* 7 */
               "empty =\n"              /* 8 */
               "[quick]\n"              /* 9 */
               "  N = 2^4..2^6\n",      /* 10: indented right after a section is fine */
               path, sizeof path);
    struct rs_params p;
    struct rs_err err;
    rs_params_init(&p);
    rs_params_parse_arg(&p, "N=8", &err);
    assert_int_equal(rs_params_load_ini(&p, path, &err), 0);
    assert_int_equal(p.n, 5);
    /* keys in file order after the earlier command-line key, which the file replaced */
    assert_string_equal(p.v[0].key, "N");
    assert_string_equal(p.v[0].value, "16");
    assert_string_equal(p.v[0].origin, path);
    assert_int_equal(p.v[0].line, 4);
    assert_string_equal(p.v[1].key, "topology");
    assert_int_equal(p.v[1].line, 2);
    assert_string_equal(p.v[2].key, "plot.title");
    assert_string_equal(p.v[2].value, "a, b");
    assert_int_equal(p.v[2].line, 7);
    assert_string_equal(p.v[3].key, "plot.empty");
    assert_string_equal(p.v[3].value, "");
    assert_string_equal(p.v[4].key, "quick.N");
    assert_string_equal(p.v[4].value, "2^4..2^6");
    assert_int_equal(p.v[4].line, 10);

    char where[800], want[800];
    rs_param_where(&p.v[0], where, sizeof where);
    snprintf(want, sizeof want, "%s:4", path);
    assert_string_equal(where, want);

    /* the command line given after the file overrides it */
    rs_params_parse_arg(&p, "N=32", &err);
    assert_string_equal(rs_params_find(&p, "N")->value, "32");
    rs_param_where(rs_params_find(&p, "N"), where, sizeof where);
    assert_string_equal(where, "command line");
    rs_params_free(&p);
    unlink(path);
    rmdir(d.path);
}

/* Load text as DIR/name into fresh params; expect rc and the message "DIR/name" + tail. */
static void expect_ini_error(const struct tmpdir *d, const char *name, const char *text, int rc,
                             const char *tail)
{
    char path[700], want[1000];
    write_file(d, name, text, path, sizeof path);
    struct rs_params p;
    struct rs_err err;
    rs_params_init(&p);
    rs_err_clear(&err);
    assert_int_equal(rs_params_load_ini(&p, path, &err), rc);
    assert_int_equal(err.code, rc);
    snprintf(want, sizeof want, "%s%s", path, tail);
    assert_string_equal(err.msg, want);
    rs_params_free(&p);
    unlink(path);
}

/* A section header ends the previous key, as in libinih: an indented key after
 * "[plot] x = 1 [plot]" is a new key, not a continuation of plot.x; the repeated header's
 * keys join the section. */
static void test_ini_section_resets_continuation(void **state)
{
    (void)state;
    struct tmpdir d;
    char path[700];
    struct rs_params p;
    struct rs_err err;
    tmpdir_make(&d);
    write_file(&d, "s.ini", "[plot]\nx = 1\n[plot]\n  y = 2\n", path, sizeof path);
    rs_params_init(&p);
    assert_int_equal(rs_params_load_ini(&p, path, &err), 0);
    assert_string_equal(rs_params_find(&p, "plot.x")->value, "1");
    assert_string_equal(rs_params_find(&p, "plot.y")->value, "2");
    assert_int_equal(rs_params_find(&p, "plot.y")->line, 4);
    rs_params_free(&p);
    unlink(path);
    rmdir(d.path);
}

static void test_load_ini_errors(void **state)
{
    (void)state;
    struct tmpdir d;
    tmpdir_make(&d);
    /* a line that is neither KEY = VALUE nor [section] */
    expect_ini_error(&d, "bad.ini", "topology = butterfly\nN = 16\nqueue_size two\nx = 1\n",
                     RS_EPARSE, ":3: syntax error (expected KEY = VALUE or [section])");
    expect_ini_error(&d, "sect.ini", "[grid\nN = 1\n", RS_EPARSE,
                     ":1: syntax error (expected KEY = VALUE or [section])");
    /* the first problem is reported: a syntax error at line 2 before an empty key at 3 */
    expect_ini_error(&d, "order.ini", "a = 1\noops\n= 3\n", RS_EPARSE,
                     ":2: syntax error (expected KEY = VALUE or [section])");
    expect_ini_error(&d, "empty.ini", "a = 1\n= 3\nbroken\n", RS_EPARSE,
                     ":2: expected KEY = VALUE, got an empty key");
    /* inih would read an indented line as more of the previous value */
    expect_ini_error(&d, "indent.ini", "N = 16\n  queue_size = 2\n", RS_EPARSE,
                     ":2: indented line continues the value of 'N' (remove the indentation)");
    /* a line over the limit (RS_INI_MAX_LINE characters) */
    char *text = malloc(RS_INI_MAX_LINE + 64);
    assert_non_null(text);
    strcpy(text, "a = 1\n");
    memset(text + 6, 'x', RS_INI_MAX_LINE - 3);
    strcpy(text + 6 + RS_INI_MAX_LINE - 3, " = 1\n");
    char tail[100];
    snprintf(tail, sizeof tail, ":2: line too long (more than %d characters)", RS_INI_MAX_LINE);
    expect_ini_error(&d, "long.ini", text, RS_EPARSE, tail);

    /* a line of exactly RS_INI_MAX_LINE characters fits (here the last line, without a
     * newline, and a line before a CR LF end) */
    char path[700];
    struct rs_params p;
    struct rs_err err;
    for (int crlf = 0; crlf < 2; crlf++) {
        strcpy(text, "y = ");
        memset(text + 4, 'v', RS_INI_MAX_LINE - 4);
        strcpy(text + RS_INI_MAX_LINE, crlf ? "\r\nz = 2\r\n" : "");
        write_file(&d, "fits.ini", text, path, sizeof path);
        rs_params_init(&p);
        assert_int_equal(rs_params_load_ini(&p, path, &err), 0);
        assert_int_equal(p.n, 1 + crlf);
        assert_int_equal(strlen(p.v[0].value), RS_INI_MAX_LINE - 4);
        rs_params_free(&p);
        unlink(path);
    }
    free(text);

    /* a missing file and a folder */
    snprintf(path, sizeof path, "%s/missing.ini", d.path);
    char want[800];
    rs_params_init(&p);
    assert_int_equal(rs_params_load_ini(&p, path, &err), RS_EIO);
    snprintf(want, sizeof want, "cannot open '%s': No such file or directory", path);
    assert_string_equal(err.msg, want);
    assert_int_equal(rs_params_load_ini(&p, d.path, &err), RS_EIO);
    snprintf(want, sizeof want, "cannot read '%s': Is a directory", d.path);
    assert_string_equal(err.msg, want);
    rs_params_free(&p);
    rmdir(d.path);
}

/* Sections: [plot], [quick] and [claim.NAME] only, exactly spelled; names without dots;
 * every error names the file and line with the nearest section. */
static void test_ini_sections(void **state)
{
    (void)state;
    struct tmpdir d;
    tmpdir_make(&d);
    expect_ini_error(&d, "weird.ini", "N = 8\n[weird]\nx = 1\n", RS_EPARSE,
                     ":2: unknown section [weird] (expected [plot], [quick] or [claim.NAME])");
    expect_ini_error(&d, "case.ini", "[Plot]\nx = N\n", RS_EPARSE,
                     ":1: unknown section [Plot] (did you mean [plot]?)");
    expect_ini_error(&d, "typo.ini", "N = 8\n\n[quik]\nN = 4\n", RS_EPARSE,
                     ":3: unknown section [quik] (did you mean [quick]?)");
    expect_ini_error(&d, "empty_sect.ini", "[weird]\n", RS_EPARSE,
                     ":1: unknown section [weird] (expected [plot], [quick] or [claim.NAME])");
    expect_ini_error(&d, "dotsect.ini", "[plot.x]\ny = 1\n", RS_EPARSE,
                     ":1: unknown section [plot.x] (did you mean [plot]?)");
    expect_ini_error(&d, "claim.ini", "[claim]\nkind = range\n", RS_EPARSE,
                     ":1: section [claim] needs a name without dots: [claim.NAME]");
    expect_ini_error(&d, "claim2.ini", "[claim.a.b]\nkind = range\n", RS_EPARSE,
                     ":1: section [claim.a.b] needs a name without dots: [claim.NAME]");
    expect_ini_error(&d, "claim3.ini", "[Claim.ab]\nkind = range\n", RS_EPARSE,
                     ":1: unknown section [Claim.ab] (did you mean [claim.ab]?)");
    expect_ini_error(&d, "dotkey.ini", "plot.x = N\n", RS_EPARSE,
                     ":1: key 'plot.x' contains a dot (a key of a section is written under "
                     "its [section] header)");
    expect_ini_error(&d, "dotkey2.ini", "[quick]\nrun.s = 3\n", RS_EPARSE,
                     ":2: key 'run.s' in [quick] contains a dot (a key of a section is written "
                     "under its [section] header)");
    char text[800], tail[200];
    snprintf(text, sizeof text, "[claim.%s]\nkind = range\n",
             "a_name_of_forty_four_characters_and_more_xyz");
    snprintf(tail, sizeof tail, ":1: section name 'claim.%s' too long (at most 49 characters)",
             "a_name_of_forty_four_characters_and_more_xyz");
    expect_ini_error(&d, "long_sect.ini", text, RS_EPARSE, tail);
    expect_ini_error(&d, "longkey.ini", "[plot]\nx = N\n"
                     "k_long_long_long_long_long_long_long_long_long_long_long_long_long_long_long_"
                     "long_long_long_long_long_long_long_long_long_long_long_long_long_long_long_long_"
                     "long_long_long_long_long_long_long_long_long_long_long_long_long_long_long_long_"
                     "long_long_long_long_long = 1\n",
                     RS_EPARSE, ":3: key name too long (at most 255 characters with its section)");

    char path[700];
    struct rs_params p;
    struct rs_err err;
    snprintf(path, sizeof path, "%s/nul.ini", d.path);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite("N = 8\nx = a\0b\n", 1, 14, f);
    fclose(f);
    rs_params_init(&p);
    assert_int_equal(rs_params_load_ini(&p, path, &err), RS_EPARSE);
    snprintf(text, sizeof text, "%s/nul.ini:2: NUL character in the line", d.path);
    assert_string_equal(err.msg, text);
    rs_params_free(&p);
    unlink(path);

    /* the good ones */
    write_file(&d, "ok.ini",
               "title = t\n[claim.c1]\nkind = range\n[plot]\nx = N\n[quick]\nN = 16\n"
               "[claim.c2]\nkind = bound\n",
               path, sizeof path);
    rs_params_init(&p);
    assert_int_equal(rs_params_load_ini(&p, path, &err), 0);
    assert_int_equal(p.n, 5);
    assert_string_equal(rs_params_find(&p, "claim.c1.kind")->value, "range");
    assert_string_equal(rs_params_find(&p, "claim.c2.kind")->value, "bound");
    assert_string_equal(rs_params_find(&p, "quick.N")->value, "16");
    rs_params_free(&p);
    unlink(path);
    rmdir(d.path);
}

/* A key given twice in one file is an error naming both lines (also in two headers of one
 * section); the same key in two sections, or set again by a later source, is not. */
static void test_ini_duplicates(void **state)
{
    (void)state;
    struct tmpdir d;
    tmpdir_make(&d);
    expect_ini_error(&d, "dup.ini", "N = 8\nqueue_size = 1\nN = 16\n", RS_EPARSE,
                     ":3: key 'N' given twice (first at line 1)");
    expect_ini_error(&d, "dup2.ini", "[quick]\nN = 8\n[plot]\nx = N\n[quick]\nN = 16\n",
                     RS_EPARSE, ":6: key 'N' in [quick] given twice (first at line 2)");
    char path[700], path2[700];
    struct rs_params p;
    struct rs_err err;
    write_file(&d, "a.ini", "N = 8\n[quick]\nN = 4\n[plot]\nx = N\n", path, sizeof path);
    write_file(&d, "b.ini", "N = 32\n", path2, sizeof path2);
    rs_params_init(&p);
    assert_int_equal(rs_params_load_ini(&p, path, &err), 0);
    assert_int_equal(rs_params_load_ini(&p, path2, &err), 0); /* a later file overrides */
    assert_string_equal(rs_params_find(&p, "N")->value, "32");
    assert_string_equal(rs_params_find(&p, "quick.N")->value, "4");
    rs_params_free(&p);
    unlink(path);
    unlink(path2);
    rmdir(d.path);
}

/* Lines longer than the packaged libinih's 198 characters: a 49-value list (244
 * characters) and a 5000-character value arrive whole, with the right line numbers. */
static void test_ini_long_lines(void **state)
{
    (void)state;
    struct tmpdir d;
    tmpdir_make(&d);
    char *text = malloc(8000), list[400] = "";
    assert_non_null(text);
    for (int i = 0; i < 49; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d", i ? "," : "",
                 1000 + i);
    assert_int_equal(strlen(list), 244);
    int len = snprintf(text, 8000, "# long lines\nqueue_size = %s\n[plot]\ntitle = ", list);
    memset(text + len, 'w', 5000);
    strcpy(text + len + 5000, "\nx = N\n");
    char path[700];
    struct rs_params p;
    struct rs_err err;
    write_file(&d, "long.ini", text, path, sizeof path);
    rs_params_init(&p);
    assert_int_equal(rs_params_load_ini(&p, path, &err), 0);
    assert_int_equal(p.n, 3);
    assert_string_equal(rs_params_find(&p, "queue_size")->value, list);
    assert_int_equal(rs_params_find(&p, "queue_size")->line, 2);
    assert_int_equal(strlen(rs_params_find(&p, "plot.title")->value), 5000);
    assert_int_equal(rs_params_find(&p, "plot.title")->line, 4);
    assert_int_equal(rs_params_find(&p, "plot.x")->line, 5);
    rs_params_free(&p);
    /* a syntax error after a long line is reported on its own line */
    strcpy(text + len + 5000, "\nbroken\n");
    write_file(&d, "long2.ini", text, path, sizeof path);
    rs_params_init(&p);
    assert_int_equal(rs_params_load_ini(&p, path, &err), RS_EPARSE);
    assert_non_null(strstr(err.msg, "long2.ini:5: syntax error"));
    rs_params_free(&p);
    free(text);
    unlink(path);
    snprintf(path, sizeof path, "%s/long.ini", d.path);
    unlink(path);
    rmdir(d.path);
}

/* Params from "K=V K=V". */
static void params_of(struct rs_params *p, const char *kv)
{
    char buf[512], *save = NULL;
    struct rs_err err;
    rs_params_init(p);
    snprintf(buf, sizeof buf, "%s", kv);
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
        assert_int_equal(rs_params_parse_arg(p, w, &err), 0);
}

/* rs_opt_int of name in "K=V" params: expect rc and, on success, want; else message. */
static void expect_int(const char *kv, const char *name, int rc, int64_t want, const char *msg)
{
    struct rs_params p;
    struct rs_err err;
    int64_t v = -12345;
    params_of(&p, kv);
    rs_err_clear(&err);
    assert_int_equal(rs_opt_int(&p, opts, name, &v, &err), rc);
    if (rc == 0)
        assert_true(v == want);
    else
        assert_string_equal(err.msg, msg);
    rs_params_free(&p);
}

static void test_int(void **state)
{
    (void)state;
    expect_int("queue_size=12", "queue_size", 0, 12, NULL);
    expect_int("queue_size=+12", "queue_size", 0, 12, NULL);
    expect_int("", "queue_size", 0, 0, NULL); /* the default */
    expect_int("queue_size=2^16", "queue_size", 0, 65536, NULL);
    expect_int("queue_size=10^9", "queue_size", 0, 1000000000, NULL);
    expect_int("queue_size=7^0", "queue_size", 0, 1, NULL);
    expect_int("seed=-2^3", "seed", 0, -8, NULL); /* the sign applies to the power */
    expect_int("seed=-2^2", "seed", 0, -4, NULL);
    expect_int("seed=2^62", "seed", 0, INT64_C(4611686018427387904), NULL);
    expect_int("seed=9223372036854775807", "seed", 0, INT64_MAX, NULL);
    expect_int("seed=-9223372036854775808", "seed", 0, INT64_MIN, NULL);
    expect_int("seed=-2^63", "seed", 0, INT64_MIN, NULL);
    expect_int("seed=1^1000", "seed", 0, 1, NULL);
    expect_int("seed=0^5", "seed", 0, 0, NULL);
    expect_int("seed=-1", "seed", 0, -1, NULL);

    /* not an integer: RS_EINVAL */
    expect_int("queue_size=12abc", "queue_size", RS_EINVAL, 0,
               "command line: key 'queue_size': expected an integer in [0, 1e9], got '12abc'");
    expect_int("queue_size=two", "queue_size", RS_EINVAL, 0,
               "command line: key 'queue_size': expected an integer in [0, 1e9], got 'two'");
    expect_int("queue_size=", "queue_size", RS_EINVAL, 0,
               "command line: key 'queue_size': expected an integer in [0, 1e9], got ''");
    expect_int("queue_size=1.5", "queue_size", RS_EINVAL, 0,
               "command line: key 'queue_size': expected an integer in [0, 1e9], got '1.5'");
    expect_int("queue_size=2^", "queue_size", RS_EINVAL, 0,
               "command line: key 'queue_size': expected an integer in [0, 1e9], got '2^'");
    expect_int("queue_size=2^-1", "queue_size", RS_EINVAL, 0,
               "command line: key 'queue_size': expected an integer in [0, 1e9], got '2^-1'");
    expect_int("queue_size=0x10", "queue_size", RS_EINVAL, 0,
               "command line: key 'queue_size': expected an integer in [0, 1e9], got '0x10'");
    /* overflow of 64 bits is not an integer either */
    expect_int("seed=2^63", "seed", RS_EINVAL, 0,
               "command line: key 'seed': expected an integer in [-1e19, 1e19], got '2^63'");
    expect_int("seed=99999999999999999999", "seed", RS_EINVAL, 0,
               "command line: key 'seed': expected an integer in [-1e19, 1e19], got "
               "'99999999999999999999'");
    expect_int("seed=3^41", "seed", RS_EINVAL, 0,
               "command line: key 'seed': expected an integer in [-1e19, 1e19], got '3^41'");
    /* out of range: RS_ECONSTRAINT */
    expect_int("queue_size=-1", "queue_size", RS_ECONSTRAINT, 0,
               "command line: key 'queue_size': expected an integer in [0, 1e9], got '-1'");
    expect_int("queue_size=2^30", "queue_size", RS_ECONSTRAINT, 0,
               "command line: key 'queue_size': expected an integer in [0, 1e9], got '2^30'");
    /* a broken default names "default" as its origin */
    expect_int("", "bad_default", RS_EINVAL, 0,
               "default: key 'bad_default': expected an integer in [0, 10], got 'many'");
    /* a name the table does not declare is a programming error */
    expect_int("", "nope", RS_EINVARIANT, 0, "option 'nope' is not declared");
}

static void test_int_from_ini(void **state)
{
    (void)state;
    struct tmpdir d;
    char path[700], want[900];
    tmpdir_make(&d);
    write_file(&d, "q.ini", "topology = butterfly\nN = 16\nqueue_size = two\n", path, sizeof path);
    struct rs_params p;
    struct rs_err err;
    rs_params_init(&p);
    assert_int_equal(rs_params_load_ini(&p, path, &err), 0);
    int64_t v;
    assert_int_equal(rs_opt_int(&p, opts, "queue_size", &v, &err), RS_EINVAL);
    snprintf(want, sizeof want,
             "%s:3: key 'queue_size': expected an integer in [0, 1e9], got 'two'", path);
    assert_string_equal(err.msg, want);
    rs_params_free(&p);
    unlink(path);
    rmdir(d.path);
}

static void test_double(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    double v = -1;
    params_of(&p, "");
    assert_int_equal(rs_opt_double(&p, opts, "rate", &v, &err), 0);
    assert_true(v == 0.5);
    rs_params_free(&p);

    static const struct {
        const char *text;
        double want;
    } ok[] = {{"0.25", 0.25}, {"1e-3", 0.001}, {"1", 1}, {"0", 0}, {" .75 ", 0.75}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        rs_params_init(&p);
        rs_params_set(&p, "rate", ok[i].text, NULL, 0, &err);
        assert_int_equal(rs_opt_double(&p, opts, "rate", &v, &err), 0);
        assert_true(v == ok[i].want);
        rs_params_free(&p);
    }
    static const struct {
        const char *text;
        int rc;
    } bad[] = {{"nan", RS_EINVAL}, {"inf", RS_EINVAL}, {"", RS_EINVAL}, {"0.5x", RS_EINVAL},
               {"1e999", RS_EINVAL}, {"1.5", RS_ECONSTRAINT}, {"-0.1", RS_ECONSTRAINT}};
    char want[200];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rs_params_init(&p);
        rs_params_set(&p, "rate", bad[i].text, NULL, 0, &err);
        assert_int_equal(rs_opt_double(&p, opts, "rate", &v, &err), bad[i].rc);
        snprintf(want, sizeof want,
                 "command line: key 'rate': expected a number in [0, 1], got '%s'", bad[i].text);
        assert_string_equal(err.msg, want);
        rs_params_free(&p);
    }
}

static void test_bool(void **state)
{
    (void)state;
    static const char *const words[] = {"0", "1", "false", "true", "no", "yes", "off", "on",
                                        "FALSE", "True", "NO", "Yes", "Off", "ON"};
    struct rs_params p;
    struct rs_err err;
    for (int i = 0; i < 14; i++) {
        int v = -1;
        rs_params_init(&p);
        rs_params_set(&p, "wrap", words[i], NULL, 0, &err);
        assert_int_equal(rs_opt_bool(&p, opts, "wrap", &v, &err), 0);
        assert_int_equal(v, i % 2);
        rs_params_free(&p);
    }
    int v = -1;
    params_of(&p, "");
    assert_int_equal(rs_opt_bool(&p, opts, "wrap", &v, &err), 0);
    assert_int_equal(v, 0);
    rs_params_free(&p);
    params_of(&p, "wrap=maybe");
    assert_int_equal(rs_opt_bool(&p, opts, "wrap", &v, &err), RS_EINVAL);
    assert_string_equal(err.msg, "command line: key 'wrap': expected a boolean "
                                 "(0|1|true|false|yes|no|on|off), got 'maybe'");
    rs_params_free(&p);
    params_of(&p, "wrap=2");
    assert_int_equal(rs_opt_bool(&p, opts, "wrap", &v, &err), RS_EINVAL);
    rs_params_free(&p);
}

static void test_choice(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    int idx = -1;
    params_of(&p, "");
    assert_int_equal(rs_opt_choice(&p, opts, "protocol", &idx, &err), 0);
    assert_int_equal(idx, 0); /* default fifo */
    rs_params_free(&p);
    params_of(&p, "protocol=furthest_first");
    assert_int_equal(rs_opt_choice(&p, opts, "protocol", &idx, &err), 0);
    assert_int_equal(idx, 3);
    rs_params_free(&p);

    params_of(&p, "protocol=fifoo");
    assert_int_equal(rs_opt_choice(&p, opts, "protocol", &idx, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg,
                        "command line: unknown value 'fifoo' for key 'protocol' (did you mean 'fifo'?)");
    rs_params_free(&p);
    params_of(&p, "protocol=FIFO"); /* case matters for values, but is suggested */
    assert_int_equal(rs_opt_choice(&p, opts, "protocol", &idx, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg,
                        "command line: unknown value 'FIFO' for key 'protocol' (did you mean 'fifo'?)");
    rs_params_free(&p);
    params_of(&p, "protocol=lifo_stack");
    assert_int_equal(rs_opt_choice(&p, opts, "protocol", &idx, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "command line: unknown value 'lifo_stack' for key 'protocol' "
                                 "(expected fifo|random|priority|furthest_first)");
    rs_params_free(&p);
}

static void test_string_and_text(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    const char *s = NULL;
    params_of(&p, "file=perm.txt");
    assert_int_equal(rs_opt_string(&p, opts, "file", &s, &err), 0);
    assert_string_equal(s, "perm.txt");
    assert_string_equal(rs_params_text(&p, rs_optdef_find(opts, "file")), "perm.txt");
    assert_string_equal(rs_params_text(&p, rs_optdef_find(opts, "protocol")), "fifo");
    rs_params_free(&p);

    /* no value and no default */
    params_of(&p, "");
    assert_null(rs_params_text(&p, rs_optdef_find(opts, "file")));
    rs_err_clear(&err);
    assert_int_equal(rs_opt_string(&p, opts, "file", &s, &err), RS_EINVAL);
    assert_string_equal(err.msg, "missing required key 'file' (permutation file)");
    int64_t v;
    static const struct rs_optdef req[] = {{"n", RS_OPT_INT, NULL, 0, 9, NULL, NULL, "1"},
                                           {NULL, RS_OPT_INT, NULL, 0, 0, NULL, NULL, NULL}};
    assert_int_equal(rs_opt_int(&p, req, "n", &v, &err), RS_EINVAL);
    assert_string_equal(err.msg, "missing required key 'n' (it has no default)");
    rs_params_free(&p);
}

static void test_check_known(void **state)
{
    (void)state;
    const struct rs_optdef *const tables[] = {net_opts, opts};
    struct rs_params p;
    struct rs_err err;

    params_of(&p, "N=16 queue_size=2 plot.title=x grid.N=2^4..2^6");
    assert_int_equal(rs_params_check_known(&p, tables, 2, &err), 0); /* dotted keys skipped */
    rs_params_free(&p);

    /* the first unknown key in insertion order, with a suggestion from any table */
    params_of(&p, "N=16 quue_size=2 topolgy=mesh");
    assert_int_equal(rs_params_check_known(&p, tables, 2, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "command line: unknown key 'quue_size' (did you mean 'queue_size'?)");
    rs_params_free(&p);
    params_of(&p, "topolgy=mesh quue_size=2");
    assert_int_equal(rs_params_check_known(&p, tables, 2, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "command line: unknown key 'topolgy' (did you mean 'topology'?)");
    rs_params_free(&p);
    /* a case-only difference is suggested */
    params_of(&p, "n=16");
    assert_int_equal(rs_params_check_known(&p, tables, 2, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "command line: unknown key 'n' (did you mean 'N'?)");
    rs_params_free(&p);
    /* nothing close */
    params_of(&p, "banana=1");
    assert_int_equal(rs_params_check_known(&p, tables, 2, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "command line: unknown key 'banana' (see `routesim list`)");
    rs_params_free(&p);
    /* only the tables given count */
    params_of(&p, "queue_size=1");
    assert_int_equal(rs_params_check_known(&p, tables, 1, &err), RS_EUNKNOWN);
    assert_int_equal(rs_params_check_known(&p, tables + 1, 1, &err), 0);
    rs_params_free(&p);

    /* from an INI file: FILE:LINE */
    struct tmpdir d;
    char path[700], want[900];
    tmpdir_make(&d);
    write_file(&d, "typo.ini", "N = 16\nprotcol = fifo\n", path, sizeof path);
    rs_params_init(&p);
    assert_int_equal(rs_params_load_ini(&p, path, &err), 0);
    assert_int_equal(rs_params_check_known(&p, tables, 2, &err), RS_EUNKNOWN);
    snprintf(want, sizeof want, "%s:2: unknown key 'protcol' (did you mean 'protocol'?)", path);
    assert_string_equal(err.msg, want);
    rs_params_free(&p);
    unlink(path);
    rmdir(d.path);
}

static void test_where(void **state)
{
    (void)state;
    char buf[64];
    struct rs_param file = {"N", "16", "run.ini", 12};
    struct rs_param cmd = {"N", "16", "command line", 0};
    rs_param_where(&file, buf, sizeof buf);
    assert_string_equal(buf, "run.ini:12");
    rs_param_where(&cmd, buf, sizeof buf);
    assert_string_equal(buf, "command line");
    rs_param_where(NULL, buf, sizeof buf);
    assert_string_equal(buf, "default");
    char small[5];
    rs_param_where(&file, small, sizeof small); /* cut, NUL-terminated */
    assert_string_equal(small, "run.");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_find_replace),
        cmocka_unit_test(test_parse_arg),
        cmocka_unit_test(test_load_ini),
        cmocka_unit_test(test_load_ini_errors),
        cmocka_unit_test(test_ini_section_resets_continuation),
        cmocka_unit_test(test_ini_sections),
        cmocka_unit_test(test_ini_duplicates),
        cmocka_unit_test(test_ini_long_lines),
        cmocka_unit_test(test_int),
        cmocka_unit_test(test_int_from_ini),
        cmocka_unit_test(test_double),
        cmocka_unit_test(test_bool),
        cmocka_unit_test(test_choice),
        cmocka_unit_test(test_string_and_text),
        cmocka_unit_test(test_check_known),
        cmocka_unit_test(test_where),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
