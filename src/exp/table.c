/* CSV tables read back from sweep results (see table.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/buf.h"
#include "routesim/table.h"

static void free_cells(char **cells, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rs_free(cells[i]);
    rs_free(cells);
}

/* Split one line into cells, undoing RFC 4180 quotes; returns an rs_malloc'd array of
 * rs_malloc'd strings and its length in *n; NULL when out of memory (nothing kept). */
static char **split_line(const char *line, size_t *n)
{
    char **cells = NULL;
    size_t cap = 0;
    *n = 0;
    const char *r = line;
    for (;;) {
        struct rs_buf cell;
        rs_buf_init(&cell);
        rs_buf_puts(&cell, "");
        int quoted = *r == '"';
        if (quoted)
            r++;
        for (;;) {
            if (quoted && r[0] == '"' && r[1] == '"') {
                rs_buf_append(&cell, "\"", 1);
                r += 2;
            } else if (quoted && *r == '"') {
                quoted = 0;
                r++;
            } else if (!*r || (!quoted && (*r == ',' || *r == '\n' || *r == '\r'))) {
                break;
            } else {
                rs_buf_append(&cell, r++, 1);
            }
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            char **nc = rs_realloc(cells, cap * sizeof *nc);
            if (nc)
                cells = nc;
            else
                cell.failed = 1;
        }
        if (cell.failed) { /* a cut cell or a lost one would misplace a value */
            rs_buf_free(&cell);
            free_cells(cells, *n);
            *n = 0;
            return NULL;
        }
        cells[(*n)++] = cell.data;
        if (*r != ',')
            break;
        r++;
    }
    return cells;
}

int rs_table_read(struct rs_table *t, const char *path, struct rs_err *err)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f)
        return rs_err_set(err, RS_EIO, "cannot open '%s': %s", path, strerror(errno));
    char *line = NULL;
    size_t len = 0, cap = 0;
    int nomem = 0;
    while (!nomem && getline(&line, &len, f) > 0) {
        size_t n;
        char **cells = split_line(line, &n);
        if (!cells) {
            nomem = 1;
            break;
        }
        if (!t->names) {
            t->names = cells;
            t->ncols = n;
            continue;
        }
        if (t->nrows == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            char ***nr = rs_realloc(t->rows, ncap * sizeof *nr);
            if (nr) {
                t->rows = nr;
                cap = ncap;
            }
        }
        char **row = t->nrows < cap ? rs_calloc(t->ncols ? t->ncols : 1, sizeof *row) : NULL;
        for (size_t i = 0; row && i < t->ncols; i++) {
            row[i] = i < n ? cells[i] : rs_strdup("");
            if (i < n)
                cells[i] = NULL; /* moved into the row */
            if (!row[i]) {
                free_cells(row, i);
                row = NULL;
            }
        }
        free_cells(cells, n);
        if (!row)
            nomem = 1;
        else
            t->rows[t->nrows++] = row;
    }
    int read_errno = ferror(f) ? errno : 0;
    free(line);
    fclose(f);
    if (nomem) { /* a table with rows missing would be read as the whole result */
        rs_table_free(t);
        return rs_err_set(err, RS_ENOMEM, "cannot read '%s': out of memory", path);
    }
    if (read_errno) {
        rs_table_free(t);
        return rs_err_set(err, read_errno == ENOMEM ? RS_ENOMEM : RS_EIO, "cannot read '%s': %s",
                          path, strerror(read_errno));
    }
    if (!t->names)
        return rs_err_set(err, RS_EPARSE, "'%s' has no header line", path);
    return 0;
}

void rs_table_free(struct rs_table *t)
{
    for (size_t i = 0; i < t->ncols; i++)
        rs_free(t->names[i]);
    rs_free(t->names);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t i = 0; i < t->ncols; i++)
            rs_free(t->rows[r][i]);
        rs_free(t->rows[r]);
    }
    rs_free(t->rows);
    memset(t, 0, sizeof *t);
}

long rs_table_col(const struct rs_table *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (!strcmp(t->names[i], name))
            return (long)i;
    return -1;
}

double rs_table_num(const struct rs_table *t, size_t row, long col)
{
    if (col < 0 || row >= t->nrows)
        return NAN;
    const char *s = t->rows[row][col];
    char *end;
    double v = strtod(s, &end);
    return (end == s || *end) ? NAN : v;
}
