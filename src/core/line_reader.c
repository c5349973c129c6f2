/* Line-by-line reading of the traffic, graph and paths files (comments, blanks, CRLF) and the
 * decimal tokens they hold. Contracts in line_reader.h. */
#include "routesim/line_reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

int rs__lines_open(struct rs__lines *r, const char *path, struct rs_err *err)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->f = fopen(path, "r");
    if (!r->f)
        return rs_err_set(err, RS_EIO, "cannot open '%s': %s", path, strerror(errno));
    return 0;
}

int rs__lines_next(struct rs__lines *r, char **text, struct rs_err *err)
{
    for (;;) {
        errno = 0;
        ssize_t len = getline(&r->buf, &r->cap, r->f);
        if (len < 0) {
            if (!ferror(r->f))
                return 0;
            if (errno == ENOMEM)
                return rs_err_set(err, RS_ENOMEM, "%s: out of memory reading a line", r->path);
            return rs_err_set(err, RS_EIO, "cannot read '%s': %s", r->path,
                              strerror(errno ? errno : EIO));
        }
        r->line++;
        char *s = r->buf, *e = r->buf + len;
        for (char *c = s; c < e; c++)
            if (*c == '\0')
                *c = '?';
        while (s < e && is_blank(*s))
            s++;
        while (e > s && is_blank(e[-1]))
            e--;
        if (s == e || *s == '#')
            continue;
        *e = '\0';
        *text = s;
        return 1;
    }
}

void rs__lines_close(struct rs__lines *r)
{
    if (r->f)
        fclose(r->f);
    free(r->buf);
    memset(r, 0, sizeof *r);
}

int rs__parse_uint(char **s, uint64_t max, uint64_t *v, const char **tok, int *tok_len)
{
    char *p = *s;
    while (rs__is_sep(*p))
        p++;
    char *start = p;
    while (*p && !rs__is_sep(*p))
        p++;
    size_t n = (size_t)(p - start);
    *tok = start;
    *tok_len = n > 40 ? 40 : (int)n;
    *s = p;
    if (n == 0)
        return 0;
    uint64_t x = 0;
    int big = 0;
    for (char *c = start; c < p; c++) {
        if (*c < '0' || *c > '9')
            return 0;
        if (!big) {
            x = x * 10 + (uint64_t)(*c - '0');
            big = x > max;
        }
    }
    if (big)
        return -1;
    *v = x;
    return 1;
}
