/* Fuzzing harness of the output-path code (src/core/outpath.c, rs_buf_write_file; libFuzzer
 * entry point). Each input is a script run in a fresh private folder, one command a line:
 * "f NAME MODE" a file (octal mode), "d NAME" a folder, "l NAME TARGET" a symbolic link,
 * "w PATH" write through rs_buf_write_file, "s PATH PATH" compare, "c PATH" check. Names and
 * targets are relative, of [a-z0-9_./-] without "..", so nothing outside the folder is ever
 * touched (no FIFO or device is made: a write would block or reach a real device). Checked
 * invariants (abort on failure): a write the resolver calls REPLACE leaves exactly the
 * buffer in the target, with the target's earlier mode, and no temporary file; a refused
 * path has a message; rs_path_same is symmetric and reflexive on existing files. Built with
 * libFuzzer by -DRS_FUZZ=ON (clang); replayed over tests/fuzz/corpus_outpath. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "routesim/buf.h"
#include "routesim/outpath.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_NAME 48

/* A relative name of [a-z0-9_./-], not starting with '/' or '-' (standard output), no
 * ".." and no ".tmp." (the writer's temporary names, which the harness looks for), not
 * empty: 1; else 0. */
static int safe_name(const char *s)
{
    size_t n = strlen(s);
    if (!n || n > MAX_NAME || s[0] == '/' || s[0] == '-' || strstr(s, "..") || strstr(s, ".tmp."))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_./-", s[i]))
            return 0;
    return 1;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* No "*.tmp.*" left anywhere under dir. */
static int no_temporary(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 1;
    int ok = 1;
    for (struct dirent *e; ok && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char sub[512];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        struct stat st;
        ok = !strstr(e->d_name, ".tmp.") && (lstat(sub, &st) || !S_ISDIR(st.st_mode) || no_temporary(sub));
    }
    closedir(d);
    return ok;
}

static void do_write(const char *root, const char *path, unsigned n)
{
    struct rs_out o;
    struct rs_err err;
    struct stat before, after;
    struct rs_buf b;
    rs_buf_init(&b);
    rs_buf_printf(&b, "write %u\n", n);
    int rc = rs_out_resolve(path, &o, &err);
    if (rc) {
        if (!err.msg[0] || rs_buf_write_file(&b, path, &err) != rc)
            abort(); /* refused the same way by the writer */
        rs_buf_free(&b);
        return;
    }
    if (o.how != RS_OUT_REPLACE) /* only files and folders are made: never through */
        abort();
    int existed = !stat(o.path, &before);
    rc = rs_buf_write_file(&b, path, &err);
    if (!rc) {
        FILE *f = fopen(o.path, "rb");
        char got[64] = "";
        size_t k = f ? fread(got, 1, sizeof got - 1, f) : 0;
        if (f)
            fclose(f);
        got[k] = '\0';
        if (strcmp(got, b.data) || stat(o.path, &after) ||
            (existed && (after.st_mode & 07777) != (before.st_mode & 07777)))
            abort();
    } else if (!err.msg[0]) {
        abort();
    }
    if (!no_temporary(root))
        abort();
    rs_out_free(&o);
    rs_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char root[64], cwd[4096];
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/rs_fuzz_out_XXXXXX", tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    char *text = malloc(size + 1);
    if (!text || !mkdtemp(root) || !getcwd(cwd, sizeof cwd) || chdir(root)) {
        free(text);
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    unsigned n = 0;
    for (char *line = text, *next; line && n < 64; line = next, n++) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char a[MAX_NAME + 2] = "", b[MAX_NAME + 2] = "";
        char op = line[0];
        int k = op ? sscanf(line + 1, " %49s %49s", a, b) : 0;
        if (k < 1 || !safe_name(a) || (k == 2 && op != 'f' && !safe_name(b)))
            continue;
        struct rs_err err;
        switch (op) {
        case 'f': {
            FILE *f = fopen(a, "w");
            if (f) {
                fputs("old\n", f);
                fclose(f);
                chmod(a, (mode_t)(k == 2 ? strtoul(b, NULL, 8) & 0777 : 0644) | 0600);
            }
            break;
        }
        case 'd':
            mkdir(a, 0755);
            break;
        case 'l':
            if (k == 2)
                symlink(b, a);
            break;
        case 'w':
            do_write(root, a, n);
            break;
        case 's':
            if (k == 2) {
                int ab = rs_path_same(a, b), ba = rs_path_same(b, a);
                struct stat st;
                if (ab != ba || (!stat(a, &st) && !rs_path_same(a, a)))
                    abort();
            }
            break;
        case 'c':
            if (rs_out_check(a, &err) && !err.msg[0])
                abort();
            break;
        }
    }
    free(text);
    if (chdir(cwd)) {
        /* the folder is removed below by its absolute path either way */
    }
    nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}
