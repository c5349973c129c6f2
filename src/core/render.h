/* Files made by an external program (gnuplot's plots, Graphviz's pictures of networks):
 * the program runs with its standard error captured (reported only when it fails), and a
 * regular output file is written through a temporary file beside it that is renamed over
 * it only when the program succeeded, so that a failed or interrupted program leaves the
 * old file whole (the rules of every output: docs/cli.md, routesim/outpath.h). */
#ifndef ROUTESIM_CORE_RENDER_H
#define ROUTESIM_CORE_RENDER_H

#include <stddef.h>

#include "routesim/error.h"

/* Run argv[0], found on PATH, with argv; its standard input is in[0..in_len) (or empty
 * when in is NULL), its standard output ours, its standard error captured. Returns 0 when
 * it exited with status 0; RS_EIO "cannot run PROG: not found on PATH (HINT)" when it is
 * not installed (hint: what installs it), "cannot run PROG: REASON" when it could not
 * start, or "PROG failed on WHAT (exit status N): LAST LINE OF ITS STDERR" ("on WHAT"
 * left out when what is NULL). */
int rs__spawn(char *const argv[], const void *in, size_t in_len, const char *what,
              const char *hint, struct rs_err *err);

/* Write out_path by calling make(ctx, target, err): target is a new temporary file beside
 * out_path's final target (given the existing file's mode, and owner as root), renamed
 * over it when make returns 0 and removed otherwise; NULL when out_path is standard output
 * ("-") or a device or FIFO, which make writes itself (to out_path as given, or stdout).
 * Returns make's result, or RS_EIO / RS_EWRITE "cannot write 'PATH': REASON". */
int rs__render_to(const char *out_path,
                  int (*make)(void *ctx, const char *target, struct rs_err *err), void *ctx,
                  struct rs_err *err);

#endif
