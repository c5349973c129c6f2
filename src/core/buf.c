/* Growable output buffer and file writes by what the path names (outpath.h): a regular file
 * is replaced atomically (temporary file in its folder, then rename), so a failed run never
 * leaves a half-written result behind; a device or FIFO is written through. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/buf.h"
#include "routesim/outpath.h"

void rs_buf_init(struct rs_buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

void rs_buf_free(struct rs_buf *b)
{
    rs_free(b->data);
    rs_buf_init(b);
}

/* Make room for extra more bytes plus the terminating NUL. 0 or RS_ENOMEM. */
static int reserve(struct rs_buf *b, size_t extra)
{
    if (extra > SIZE_MAX - 1 - b->len)
        return b->failed = 1, RS_ENOMEM;
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : 2 * cap;
    char *p = rs_realloc(b->data, cap);
    if (!p)
        return b->failed = 1, RS_ENOMEM;
    b->data = p;
    b->cap = cap;
    return 0;
}

int rs_buf_append(struct rs_buf *b, const char *s, size_t len)
{
    RS_ASSERT(b != NULL && (s != NULL || len == 0));
    if (reserve(b, len))
        return RS_ENOMEM;
    if (len)
        memcpy(b->data + b->len, s, len);
    b->len += len;
    b->data[b->len] = '\0';
    return 0;
}

int rs_buf_puts(struct rs_buf *b, const char *s)
{
    return rs_buf_append(b, s, strlen(s));
}

int rs_buf_printf(struct rs_buf *b, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || reserve(b, (size_t)n)) {
        va_end(ap2);
        b->failed = 1;
        return RS_ENOMEM;
    }
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    b->len += (size_t)n;
    return 0;
}

/* Write all of data[0..len) to fd. 0 or an errno value. */
static int write_all(int fd, const char *data, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return errno;
        if (w == 0)
            return EIO;
        off += (size_t)w;
    }
    return 0;
}

/* Standard output: the whole buffer, flushed. 0 or RS_EWRITE. */
static int write_stdout(const struct rs_buf *b, struct rs_err *err)
{
    if ((b->len && fwrite(b->data, 1, b->len, stdout) != b->len) || fflush(stdout))
        return rs_err_set(err, RS_EWRITE, "cannot write to standard output: %s",
                          strerror(errno));
    return 0;
}

/* A character device or FIFO: opened without creating or truncating, written in place. */
static int write_through(const struct rs_buf *b, const char *path, struct rs_err *err)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return rs_err_set(err, RS_EIO, "cannot write '%s': %s", path, strerror(errno));
    int e = write_all(fd, b->data, b->len);
    if (close(fd) && !e && errno != EINTR)
        e = errno;
    if (e)
        return rs_err_set(err, RS_EWRITE, "cannot write '%s': %s", path, strerror(e));
    return 0;
}

/* A regular file or a new path o->path: a temporary file in the same folder (so rename is
 * atomic), given the existing file's mode, owner and group (or mode 0666 under the umask,
 * as for any file the user creates), synced, then renamed over the target. O_EXCL and a
 * name from the process id and a counter avoid collisions between threads. */
static int write_replace(const struct rs_buf *b, const char *shown, const struct rs_out *o,
                         struct rs_err *err)
{
    static _Atomic unsigned counter;
    size_t plen = strlen(o->path);
    char *tmp = rs_malloc(plen + 64);
    if (!tmp)
        return rs_err_set(err, RS_ENOMEM, "cannot write '%s': out of memory", shown);
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(tmp, plen + 64, "%s.tmp.%ld.%u", o->path, (long)getpid(), counter++);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e2 = errno;
        rs_free(tmp);
        return rs_err_set(err, RS_EIO, "cannot write '%s': %s", shown, strerror(e2));
    }
    int e = 0;
    if (o->exists) { /* owner first: chown clears the set-id bits that fchmod then restores */
        if (geteuid() == 0 && fchown(fd, o->uid, o->gid))
            e = errno;
        if (!e && fchmod(fd, o->mode))
            e = errno;
    }
    e = e ? e : write_all(fd, b->data, b->len);
    if (!e && fsync(fd))
        e = errno;
    if (close(fd) && !e)
        e = errno;
    if (!e && rename(tmp, o->path))
        e = errno;
    if (e)
        unlink(tmp);
    rs_free(tmp);
    if (e)
        return rs_err_set(err, RS_EWRITE, "cannot write '%s': %s", shown, strerror(e));
    return 0;
}

int rs_buf_write_file(const struct rs_buf *b, const char *path, struct rs_err *err)
{
    if (b->failed) /* a text with a piece missing is never written */
        return rs_err_set(err, RS_ENOMEM, "cannot write '%s': out of memory",
                          path ? path : "-");
    struct rs_out o;
    int rc = rs_out_resolve(path, &o, err);
    if (rc)
        return rc;
    if (o.how == RS_OUT_STDOUT)
        rc = write_stdout(b, err);
    else if (o.how == RS_OUT_THROUGH)
        rc = write_through(b, o.path, err);
    else
        rc = write_replace(b, path, &o, err);
    rs_out_free(&o);
    return rc;
}
