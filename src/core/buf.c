/* Growable output buffer and atomic file writes (temporary file + rename). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "routesim/buf.h"

void rs_buf_init(struct rs_buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
}

void rs_buf_free(struct rs_buf *b)
{
    free(b->data);
    rs_buf_init(b);
}

static int reserve(struct rs_buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p)
        return RS_ENOMEM;
    b->data = p;
    b->cap = cap;
    return 0;
}

int rs_buf_append(struct rs_buf *b, const char *s, size_t len)
{
    if (reserve(b, len))
        return RS_ENOMEM;
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
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || reserve(b, (size_t)n))
        return RS_ENOMEM;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 0;
}

int rs_buf_write_file(const struct rs_buf *b, const char *path, struct rs_err *err)
{
    if (!path || !strcmp(path, "-")) {
        if (b->len && fwrite(b->data, 1, b->len, stdout) != b->len)
            return rs_err_set(err, RS_EIO, "cannot write to standard output: %s",
                              strerror(errno));
        if (fflush(stdout))
            return rs_err_set(err, RS_EIO, "cannot write to standard output: %s",
                              strerror(errno));
        return 0;
    }
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return rs_err_set(err, RS_EIO, "cannot write '%s': %s", path, strerror(e));
    }
    fchmod(fd, 0644); /* mkstemp creates 0600; results are ordinary files */
    size_t off = 0;
    while (off < b->len) {
        ssize_t w = write(fd, b->data + off, b->len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        off += (size_t)w;
    }
    int e = off < b->len ? errno : 0;
    if (close(fd) && !e)
        e = errno;
    if (!e && rename(tmp, path))
        e = errno;
    if (e) {
        unlink(tmp);
        free(tmp);
        return rs_err_set(err, RS_EIO, "cannot write '%s': %s", path, strerror(e));
    }
    free(tmp);
    return 0;
}
