/* Output paths (outpath.h): classify what a path names before writing to it, follow
 * symbolic links to their target, and tell whether two paths name the same file. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "routesim/alloc.h"
#include "routesim/outpath.h"

#define MAX_LINKS 40 /* as the kernel's ELOOP limit */

/* The folder part of path ("." when there is none), newly allocated. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return rs_strdup(".");
    if (slash == path)
        return rs_strdup("/");
    return rs_strndup(path, (size_t)(slash - path));
}

/* Follow the symbolic links of path's last component: *final gets the path of the first
 * name that is not a link (newly allocated, may not exist), *st its lstat (when *exists).
 * 0 or an errno value (ELOOP, ENOMEM, or lstat's). */
static int follow_links(const char *path, char **final, struct stat *st, int *exists)
{
    char *cur = rs_strdup(path);
    *final = NULL;
    *exists = 0;
    if (!cur)
        return ENOMEM;
    for (int depth = 0;; depth++) {
        if (lstat(cur, st)) {
            int e = errno;
            if (e == ENOENT) {
                *final = cur;
                return 0;
            }
            rs_free(cur);
            return e;
        }
        if (!S_ISLNK(st->st_mode)) {
            *exists = 1;
            *final = cur;
            return 0;
        }
        if (depth == MAX_LINKS) {
            rs_free(cur);
            return ELOOP;
        }
        char target[PATH_MAX];
        ssize_t n = readlink(cur, target, sizeof target - 1);
        if (n < 0) {
            int e = errno;
            rs_free(cur);
            return e;
        }
        target[n] = '\0';
        char *next;
        if (target[0] == '/') {
            next = rs_strdup(target);
        } else {
            char *dir = dir_of(cur);
            size_t len = dir ? strlen(dir) + strlen(target) + 2 : 0;
            next = dir ? rs_malloc(len) : NULL;
            if (next)
                snprintf(next, len, "%s/%s", dir, target);
            rs_free(dir);
        }
        rs_free(cur);
        if (!next)
            return ENOMEM;
        cur = next;
    }
}

/* RS_EIO naming path and the reason (errno value e); RS_ENOMEM when e is ENOMEM. */
static int cannot(struct rs_err *err, const char *path, int e)
{
    return rs_err_set(err, e == ENOMEM ? RS_ENOMEM : RS_EIO, "cannot write '%s': %s", path,
                      strerror(e));
}

int rs_out_resolve(const char *path, struct rs_out *o, struct rs_err *err)
{
    memset(o, 0, sizeof *o);
    o->how = RS_OUT_STDOUT;
    if (!path || !strcmp(path, "-"))
        return 0;
    if (!path[0])
        return rs_err_set(err, RS_EINVAL, "cannot write '': empty output path");
    struct stat st, out;
    /* the file this process's standard output already is: write there (a shell's `>` or
     * `>>` decides truncation; /dev/stdout on a socket cannot be reopened) */
    if (!stat(path, &st) && !fstat(STDOUT_FILENO, &out) && st.st_dev == out.st_dev &&
        st.st_ino == out.st_ino)
        return 0;
    if (path[strlen(path) - 1] == '/')
        return cannot(err, path, EISDIR);
    char *final;
    int exists, e = follow_links(path, &final, &st, &exists);
    if (e)
        return cannot(err, path, e);
    if (!exists) { /* a new file: its folder must exist */
        char *dir = dir_of(final);
        struct stat ds;
        e = !dir ? ENOMEM : stat(dir, &ds) ? errno : !S_ISDIR(ds.st_mode) ? ENOTDIR : 0;
        rs_free(dir);
        if (e) {
            rs_free(final);
            return cannot(err, path, e);
        }
        o->how = RS_OUT_REPLACE;
        o->path = final;
        return 0;
    }
    if (S_ISREG(st.st_mode)) {
        o->how = RS_OUT_REPLACE;
        o->path = final;
        o->exists = 1;
        o->mode = st.st_mode & 07777;
        o->uid = st.st_uid;
        o->gid = st.st_gid;
        return 0;
    }
    rs_free(final);
    if (S_ISDIR(st.st_mode))
        return cannot(err, path, EISDIR);
    if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
        return rs_err_set(err, RS_EIO,
                          "cannot write '%s': not a regular file, character device or FIFO", path);
    o->how = RS_OUT_THROUGH;
    if (!(o->path = rs_strdup(path)))
        return rs_err_set(err, RS_ENOMEM, "cannot write '%s': out of memory", path);
    return 0;
}

void rs_out_free(struct rs_out *o)
{
    rs_free(o->path);
    o->path = NULL;
}

int rs_out_check(const char *path, struct rs_err *err)
{
    struct rs_out o;
    int rc = rs_out_resolve(path, &o, err);
    if (rc || o.how == RS_OUT_STDOUT)
        return rc;
    char *dir = o.how == RS_OUT_REPLACE ? dir_of(o.path) : NULL;
    /* a replaced file needs its folder (temporary file, rename); a device needs itself */
    int ok = o.how == RS_OUT_REPLACE ? dir && !access(dir, W_OK | X_OK) &&
                                           (!o.exists || !access(o.path, W_OK))
                                     : !access(o.path, W_OK);
    int e = o.how == RS_OUT_REPLACE && !dir ? ENOMEM : errno;
    rs_free(dir);
    rs_out_free(&o);
    return ok ? 0 : cannot(err, path, e ? e : EACCES);
}

/* Canonical name of path for comparing files that do not exist yet: the last component's
 * links followed, its folder made absolute by realpath. NULL when it cannot be made. */
static char *canonical(const char *path)
{
    char *final, *dir = NULL, *real = NULL, *out = NULL;
    struct stat st;
    int exists;
    if (follow_links(path, &final, &st, &exists))
        return NULL;
    const char *slash = strrchr(final, '/');
    const char *base = slash ? slash + 1 : final;
    if ((dir = dir_of(final)) && (real = realpath(dir, NULL))) {
        size_t len = strlen(real) + strlen(base) + 2;
        if ((out = rs_malloc(len)))
            snprintf(out, len, "%s/%s", real, base);
    }
    free(real);
    rs_free(dir);
    rs_free(final);
    return out;
}

int rs_path_same(const char *a, const char *b)
{
    if (!a || !b || !strcmp(a, "-") || !strcmp(b, "-") || !a[0] || !b[0])
        return 0;
    struct stat sa, sb;
    int ea = !stat(a, &sa), eb = !stat(b, &sb);
    if (ea && eb)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea != eb)
        return 0;
    char *ca = canonical(a), *cb = canonical(b);
    int same = ca && cb && !strcmp(ca, cb);
    rs_free(ca);
    rs_free(cb);
    return same;
}

int rs_out_check_distinct(const struct rs_named_path *outs, size_t n_outs,
                          const struct rs_named_path *ins, size_t n_ins, struct rs_err *err)
{
    for (size_t i = 0; i < n_outs; i++) {
        const struct rs_named_path *o = &outs[i];
        for (size_t j = 0; j < n_ins; j++)
            if (rs_path_same(o->path, ins[j].path))
                return rs_err_set(err, RS_EINVAL,
                                  "%s '%s' is the same file as the input %s '%s' (refusing to "
                                  "overwrite it)",
                                  o->what, o->path, ins[j].what, ins[j].path);
        for (size_t j = 0; j < i; j++)
            if (rs_path_same(o->path, outs[j].path))
                return rs_err_set(err, RS_EINVAL,
                                  "%s '%s' is the same file as %s '%s' (give each output its "
                                  "own file)",
                                  o->what, o->path, outs[j].what, outs[j].path);
    }
    return 0;
}
