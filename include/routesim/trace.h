/* Trace-driven open-loop injection (traffic=trace, issue 22 item 4): a text file of
 * `cycle source destination size` lines ('#' comments and blank lines skipped), sorted by
 * cycle, read as a stream: the reader holds one line at a time, so a trace larger than
 * memory replays in constant memory (the packets waiting at their sources aside). Format
 * and rules in docs/workloads.md. */
#ifndef ROUTESIM_TRACE_H
#define ROUTESIM_TRACE_H

#include <stdint.h>

#include "routesim/error.h"

#define RS_TRACE_MAX_SIZE 65535u /* flits of one packet */

/* One packet of the trace: generated at step cycle (>= 1) at terminal src for dst. */
struct rs_trace_rec {
    uint32_t cycle, src, dst, size;
};

/* The reader (opaque): the file, the terminal count, the last cycle and its line. */
struct rs_trace;

/* What a whole pass saw (rs_trace_scan). */
struct rs_trace_stats {
    uint64_t packets, flits;
    uint32_t size_min, size_max; /* flits */
    uint32_t first_cycle, last_cycle;
};

/* Open path for a network of n terminals into *out (allocated). Returns 0 or RS_EIO /
 * RS_ENOMEM (*out is then NULL). */
int rs_trace_open(struct rs_trace **out, const char *path, uint32_t n, struct rs_err *err);

/* The next packet into *rec: 1, or 0 at the end of the file, or RS_E... with "F:L: ..."
 * naming the field and its range (RS_EPARSE: not four unsigned integers; RS_ECONSTRAINT:
 * a cycle 0, a terminal >= n, a size 0 or above RS_TRACE_MAX_SIZE, a cycle below the
 * previous line's: unsorted traces are refused). */
int rs_trace_read(struct rs_trace *tr, struct rs_trace_rec *rec, struct rs_err *err);

/* Close the file and free tr; safe on NULL. */
void rs_trace_close(struct rs_trace *tr);

/* Validate the whole of path in one pass (constant memory) and summarise it into *st. An
 * empty trace (no packet) is RS_ECONSTRAINT "F: no packets". Returns 0 or RS_E... */
int rs_trace_scan(const char *path, uint32_t n, struct rs_trace_stats *st,
                  struct rs_err *err);

#endif
