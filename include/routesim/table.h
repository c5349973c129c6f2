/* A CSV file read into memory as a table of text cells (the sweep's own output format:
 * a header line, RFC 4180 quoting), for plots and claim checks. */
#ifndef ROUTESIM_TABLE_H
#define ROUTESIM_TABLE_H

#include <stddef.h>

#include "routesim/error.h"

struct rs_table {
    char **names;  /* [ncols] header cells */
    size_t ncols;
    char ***rows;  /* [nrows][ncols] cells; short rows are padded with "" */
    size_t nrows;
};

/* Read path. RS_EIO when it cannot be read, RS_EPARSE when it has no header, RS_ENOMEM
 * (never a table with a row or cell missing). */
int rs_table_read(struct rs_table *t, const char *path, struct rs_err *err);

void rs_table_free(struct rs_table *t);

/* Column index of name, or -1. */
long rs_table_col(const struct rs_table *t, const char *name);

/* Cell (row, col) as a number (NaN when empty or not a number). */
double rs_table_num(const struct rs_table *t, size_t row, long col);

#endif
