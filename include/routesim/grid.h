/* Experiment grids: an INI experiment whose run keys may hold lists ("16,64,256"), power
 * ranges ("2^4..2^20"), integer ranges ("1..8") or arithmetic ranges ("0.05:0.05:0.6")
 * expands into the grid of points, in file order with the first key varying slowest. */
#ifndef ROUTESIM_GRID_H
#define ROUTESIM_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "routesim/params.h"

/* One swept (or fixed) key and its values. */
struct rs_axis {
    char *key;
    char **values;
    size_t n;
    char *origin; /* where the key was set, for messages */
    int line;
    int derived;  /* value "=EXPR": evaluated per point from the other keys (one value) */
};

struct rs_grid {
    struct rs_axis *axes; /* every run key, in file order */
    size_t n_axes;
    uint64_t n_points;    /* product of the axes' sizes */
    uint64_t seed;        /* experiment seed (`seed`, default 1) */
    uint32_t runs;        /* replications per point (`runs`, default 1) */
    struct rs_params extra; /* keys inside [sections], e.g. plot.x */
};

/* Expand the values of every key of p that is not inside a section. A value starting with
 * '=' is derived: an expression over the point's other keys (numbers, key names, + - * / ^,
 * parentheses and the functions of src/exp/expr.h), e.g. `per_input = =log2(N)`. `runs` and `seed` are
 * experiment keys, not run keys. Values of text keys (traffic_file, bpc: any key an option
 * table declares RS_OPT_STRING) are never split; RS_OPT_LIST keys (an LCAN's d and u)
 * are, so a per-level list inside a sweep is written with '/' (d = 4/4/4). Errors name the origin, key and value:
 * RS_EPARSE for bad syntax, RS_ECONSTRAINT for empty or oversized ranges (more than 10^6
 * values) and grids of more than 10^7 points. */
int rs_grid_build(struct rs_grid *g, const struct rs_params *p, struct rs_err *err);

void rs_grid_free(struct rs_grid *g);

/* The parameters of point i (0 <= i < n_points): every run key with its value at i (the
 * first axis varies slowest). dst is initialised here; free with rs_params_free. */
int rs_grid_point(const struct rs_grid *g, uint64_t i, struct rs_params *dst,
                  struct rs_err *err);

/* Seed of replication r of point i: a Philox draw keyed by the experiment seed over a
 * 64-bit FNV-1a hash of the point's "key=value;" text, `threads` left out (it changes how a
 * run is computed, not its bytes), so that one point re-run alone, at any thread count,
 * gets the same seeds. Below 2^53 (the `seed` option's range). */
uint64_t rs_grid_seed(const struct rs_grid *g, uint64_t i, uint32_t r);

#endif
