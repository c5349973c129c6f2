/* `-c -`: a configuration read from standard input, through a temporary file so that the
 * format detection and the INI reader (which read a file by path) apply unchanged. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "routesim/alloc.h"
#include "routesim/api.h"
#include "routesim/booksim_config.h"

#define STDIN_NAME "<stdin>"

/* Replace every occurrence of from in err->msg by to (the message stays within its size). */
static void rename_in_message(struct rs_err *err, const char *from, const char *to)
{
    char out[sizeof err->msg];
    size_t o = 0, lf = strlen(from), lt = strlen(to);
    for (const char *s = err->msg; *s && o + 1 < sizeof out;) {
        if (!strncmp(s, from, lf) && o + lt + 1 < sizeof out) {
            memcpy(out + o, to, lt);
            o += lt;
            s += lf;
        } else {
            out[o++] = *s++;
        }
    }
    out[o] = '\0';
    memcpy(err->msg, out, o + 1);
}

int rs_params_load_stdin(struct rs_params *p, struct rs_err *err)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/routesim-stdin.XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return rs_err_set(err, RS_EIO, "cannot make a temporary file for standard input: %s",
                          strerror(errno));
    char buf[65536];
    size_t got;
    int rc = 0;
    while (!rc && (got = fread(buf, 1, sizeof buf, stdin)) > 0)
        for (size_t off = 0; off < got && !rc;) {
            ssize_t w = write(fd, buf + off, got - off);
            if (w < 0)
                rc = rs_err_set(err, RS_EIO, "cannot copy standard input: %s", strerror(errno));
            else
                off += (size_t)w;
        }
    if (!rc && ferror(stdin))
        rc = rs_err_set(err, RS_EIO, "cannot read standard input");
    close(fd);
    if (!rc && (rc = rs_params_load_config(p, path, err)))
        rename_in_message(err, path, STDIN_NAME);
    unlink(path);
    for (size_t i = 0; i < p->n && !rc; i++) { /* this file's keys name <stdin> */
        struct rs_param *q = &p->v[i];
        if (q->origin && !strcmp(q->origin, path)) {
            char *o = rs_strdup(STDIN_NAME);
            if (!o)
                return rs_err_set(err, RS_ENOMEM, "out of memory");
            rs_free(q->origin);
            q->origin = o;
        }
    }
    return rc;
}
