/* Plots of sweep results through gnuplot: a script is always written beside the image; the
 * image is rendered when gnuplot is installed. */
#ifndef ROUTESIM_PLOT_H
#define ROUTESIM_PLOT_H

#include <stddef.h>

#include "routesim/error.h"
#include "routesim/grid.h"

/* Plot the statistics file csv_path of sweep g into out_path (.png or .svg). The [plot]
 * section of the experiment names the columns: x (a parameter; default the first key
 * with several values), y (a metric, or a comma list of up to 8; default makespan) drawn
 * as <y>_mean with <y>_ci95 error bars when runs > 1, series (comma list of parameters:
 * one line per combination of their values, at most 64; optional), filter (KEY=VALUE;...
 * rows to keep; optional), logx, logy (0|1), title, xlabel, ylabel, and the theory beside
 * the measurement: theory, theory2 .. theory4 (expressions of the x key, the series and
 * the experiment's single-valued keys, sampled over the plotted x range; or of columns of
 * the statistics file, evaluated at the rows; see src/exp/plot_theory.h) with their legend
 * titles theory_title, theory_title2 ..; theory_column (comma list of columns, e.g. a
 * predicted value a run writes) drawn as lines at the measured x; key (where the legend
 * goes: top left, the default, top right, bottom left, bottom right, or below the plot in
 * columns). Rows with deadlocked runs (columns runs_deadlocked, runs_used) are marked: a
 * circle at the mean when some runs deadlocked, a gap in the line and a cross on the x axis
 * when every run did. Writes the gnuplot script to out_path with its extension replaced by .gp. When gnuplot is missing, *notice
 * (n bytes) says how to render the script later and 0 is returned. Errors: RS_EINVAL for a
 * bad [plot] key, a column missing from the file, a bad theory expression (naming the
 * file and line of the key) or extension, RS_EIO when a file cannot be written or gnuplot
 * fails. */
int rs_plot_sweep(const struct rs_grid *g, const char *csv_path, const char *out_path,
                  char *notice, size_t n, struct rs_err *err);

/* Check g's [plot] section without a statistics file: every key known, x resolvable, the
 * series keys keys of the experiment (at most 64 series), filter items KEY=VALUE, no
 * theory_title without its theory, key a known place. Columns and theory expressions need the results and
 * are checked by rs_plot_sweep. Returns 0 or RS_EINVAL as rs_plot_sweep would. */
int rs_plot_check(const struct rs_grid *g, struct rs_err *err);

/* The gnuplot script written beside the image out_path (its extension replaced by .gp)
 * into script[0..n). Returns 0, or RS_EINVAL when out_path does not end in .png or .svg
 * (the check rs_plot_sweep makes, for callers that validate before a sweep). */
int rs_plot_script_path(const char *out_path, char *script, size_t n, struct rs_err *err);

#endif
