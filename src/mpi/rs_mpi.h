/* Sweeps and reproductions over Open MPI ranks (docs/sweeps.md): rank 0 runs the command
 * and writes every file; the other ranks serve runs handed to them one at a time. Part of
 * the command-line tool only (the library never links MPI); without MPI at build time, or
 * when not started by mpirun, there is one rank and nothing is distributed. */
#ifndef ROUTESIM_MPI_RS_MPI_H
#define ROUTESIM_MPI_RS_MPI_H

#include "routesim/error.h"
#include "routesim/exchange.h"
#include "routesim/sweep.h"

struct rs_mpi {
    int rank, size; /* 0 and 1 when MPI is not in use */
    int active;     /* MPI_Init_thread was called */
    struct rs_sweep_remote remote; /* rank 0's view of the other ranks (size - 1 workers) */
};

/* A routesim built without MPI that was started by mpirun -np P > 1 (its environment says
 * so) replaces itself with routesim-mpi, the same program linked with Open MPI, found next
 * to the running binary (/proc/self/exe); argv is passed unchanged. Returns only when there
 * is nothing to do or no routesim-mpi to run (then rs_mpi_start reports the error). The
 * plain binary links no MPI, so the runs that do not use it skip Open MPI's start-up. In
 * routesim-mpi itself: a no-op. */
void rs_mpi_reexec(char **argv);

/* Join the MPI job when the process was started by mpirun (its environment says so) and
 * routesim was built with MPI; otherwise rank 0 of 1. Returns 0 or RS_E... (MPI could not
 * start with the thread support the sweep needs). */
int rs_mpi_start(struct rs_mpi *m, int *argc, char ***argv, struct rs_err *err);

/* The workers' loop (ranks > 0): run every task rank 0 sends (rs__wire_serve) and send
 * back its reply, until rank 0 says it is done. Returns an exit status (0). */
int rs_mpi_serve(struct rs_mpi *m);

/* The remote runs of rank 0 (NULL when there is one rank). */
const struct rs_sweep_remote *rs_mpi_remote(struct rs_mpi *m);

/* Rank 0: tell every worker to stop; every rank: leave MPI. No-op when MPI is not in use. */
void rs_mpi_stop(struct rs_mpi *m);

/* The collectives of one run partitioned over every rank (include/routesim/exchange.h,
 * `mpirun -np P routesim run`, docs/distributed.md) over MPI_COMM_WORLD: x is filled with
 * this rank, the size and the operations. Returns x, or NULL when there is one rank. */
const struct rs_exchange *rs_mpi_exchange(struct rs_mpi *m, struct rs_exchange *x);

/* Every rank: leave MPI without the sweep's stop messages (after a partitioned run). No-op
 * when MPI is not in use. */
void rs_mpi_finish(struct rs_mpi *m);

#endif
