/* The one entry of the commands that run under mpirun (sweep, reproduce): join the job,
 * let rank 0 run the command and the other ranks serve its runs (rs_mpi.h). */
#include "cli/cli.h"
#include "mpi/rs_mpi.h"

int cli_mpi_main(int argc, char **argv,
                 int (*rank0)(int argc, char **argv, const struct rs_sweep_remote *remote))
{
    struct rs_mpi m;
    struct rs_err err;
    rs_err_clear(&err);
    if (rs_mpi_start(&m, &argc, &argv, &err)) {
        int status = m.rank == 0 ? cli_fail(&err) : 1;
        rs_mpi_stop(&m);
        return status;
    }
    int status = m.rank > 0 ? rs_mpi_serve(&m) : rank0(argc, argv, rs_mpi_remote(&m));
    rs_mpi_stop(&m);
    return status;
}
