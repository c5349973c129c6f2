/* Internal interface between the plot script writer (plot.c) and the theory curves
 * (plot_theory.c): the rows of one series and the evaluation of `theory = EXPR` over them. */
#ifndef RS_REPORT_PLOT_THEORY_H
#define RS_REPORT_PLOT_THEORY_H

#include <stddef.h>

#include "routesim/buf.h"
#include "routesim/error.h"
#include "routesim/grid.h"
#include "routesim/table.h"

#define RS__PLOT_MAX_CONDS 8

/* Column conditions a row of one series meets: the plot's filter, then the series keys. */
struct rs__plot_conds {
    const char *key[RS__PLOT_MAX_CONDS];
    const char *value[RS__PLOT_MAX_CONDS];
    int is_series[RS__PLOT_MAX_CONDS];
    int n;
};

/* The data of one series: rows[0..n) of t meeting cd, sorted by x (column cx). */
struct rs__plot_series {
    const struct rs_table *t;
    const struct rs__plot_conds *cd;
    const size_t *rows;
    size_t n;
    long cx;
    const char *xkey; /* the x parameter's name */
};

/* Append the points "x y" of the theory curve expr for series s to b (a gnuplot datablock
 * body; a blank line where the value is not finite, which breaks the line).
 * Names in expr are the x key (each x sampled), the series and filter keys (their values),
 * and keys of the experiment with a single value (derived ones evaluated at the sample).
 * Sampled at the series' x values and 64 points between each neighbouring pair (evenly, or
 * geometrically when logx), so the curve is the formula's, not a join of the measured x.
 * If expr names a column of the statistics file that is none of these (congestion_mean, a
 * predicted value), it is evaluated at the series' rows only, with the row's columns.
 * *uses_series is set to 1 when the curve depends on the series (a series key or a column
 * of the rows was used). Errors (RS_EINVAL, naming [plot], the expression and why): bad
 * syntax, an unknown name, a key with several values that is neither x nor a series nor
 * filtered. */
int rs__plot_theory(struct rs_buf *b, const struct rs_grid *g, const struct rs__plot_series *s,
                    const char *expr, int logx, int *uses_series, struct rs_err *err);

#endif
