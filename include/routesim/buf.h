/* A growable byte buffer used to build output in memory, so that nothing is half-written
 * when a run fails: output is assembled first and written whole at the end. */
#ifndef ROUTESIM_BUF_H
#define ROUTESIM_BUF_H

#include <stddef.h>
#include <stdio.h>

#include "routesim/error.h"

struct rs_buf {
    char *data; /* NUL-terminated; NULL until the first append */
    size_t len;
    size_t cap;
    int failed; /* 1 once an append failed (out of memory): the text lacks a piece */
};

/* Zero-initialise (equivalent to `struct rs_buf b = {0}`). */
void rs_buf_init(struct rs_buf *b);

/* Release the storage; b is empty afterwards and may be reused. */
void rs_buf_free(struct rs_buf *b);

/* Append len bytes / a string / formatted text. Return 0 or RS_ENOMEM; a failure also sets
 * b->failed, so a caller that builds a text from many appends may check once (and
 * rs_buf_write_file refuses such a buffer). */
int rs_buf_append(struct rs_buf *b, const char *s, size_t len);
int rs_buf_puts(struct rs_buf *b, const char *s);
int rs_buf_printf(struct rs_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Write the buffer to path as rs_out_resolve (outpath.h) classifies it: a regular file or
 * a new path atomically (a temporary file in the target's folder, given the existing
 * file's mode (as root also its owner and group), synced, then renamed over it; symbolic links are followed and
 * kept), a character device or FIFO through (opened in place), standard output when path
 * is NULL, "-" or names this process's standard output. Returns 0; RS_EIO or RS_EINVAL
 * (bad input: a directory, a missing folder, a path that cannot be opened or created);
 * RS_EWRITE when writing fails (e.g. a full disk, /dev/full), the target left as it was
 * for a regular file; RS_ENOMEM, also when b->failed (nothing is written). */
int rs_buf_write_file(const struct rs_buf *b, const char *path, struct rs_err *err);

#endif
