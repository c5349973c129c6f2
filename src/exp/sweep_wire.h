/* Runs of a sweep handed to other processes (MPI ranks, src/mpi/): the bytes of a task (one
 * run's parameters) and of its reply (the run's record or error), and the worker's side,
 * which turns a task into a reply. Internal to routesim (library and CLI). */
#ifndef ROUTESIM_EXP_SWEEP_WIRE_H
#define ROUTESIM_EXP_SWEEP_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "routesim/buf.h"
#include "routesim/error.h"
#include "routesim/params.h"
#include "routesim/record.h"

/* Append to out the task message of task t (point * runs + replication) whose run has the
 * parameters p (the point's keys with the run's own seed). Returns 0 or RS_ENOMEM. */
int rs__wire_task(struct rs_buf *out, uint64_t t, const struct rs_params *p);

/* Read a task message: *t and the parameters into p (initialised here; the caller frees
 * it with rs_params_free, also on error). Returns 0, RS_EINVAL (damaged message) or
 * RS_ENOMEM. */
int rs__wire_task_read(const void *msg, size_t len, uint64_t *t, struct rs_params *p);

/* The worker's side: run the task in msg[0..len) (rs_run) and append its reply to out:
 * the task number, the run's return code with its error, and its record when the run
 * succeeded. Returns 0, or RS_ENOMEM / RS_EINVAL when no reply could be made (the run's
 * own errors travel in the reply). */
int rs__wire_serve(const void *msg, size_t len, struct rs_buf *out);

/* Read a reply: *t, the run's code *run_rc with its error in *run_err, and (when *run_rc is
 * 0) its record into rec (initialised by the caller; filled in the order of the fields
 * and n_params it had on the worker, so it writes the same bytes). Returns 0, RS_EINVAL
 * (damaged message) or RS_ENOMEM. */
int rs__wire_reply_read(const void *msg, size_t len, uint64_t *t, int *run_rc,
                        struct rs_err *run_err, struct rs_record *rec);

#endif
