# Shared start of the MPI parts of `make bench` (bench/mpi_sweep.sh, bench/mpi_run.sh), sourced
# with the build directory in $1 and a name for the skip message in $2: sets rs (the
# routesim binary), mpiexec and tmp (a directory removed at exit), or prints that the part is
# skipped and exits 0 when the build made no routesim-mpi beside routesim or there is no
# mpirun (routesim under mpirun replaces itself with routesim-mpi).
rs=$(realpath "${1:-build}/routesim")
mpiexec=$(command -v mpirun || true)
if [ -z "$mpiexec" ] || ! grep -q "MPI_Init_thread" "$(dirname "$rs")/routesim-mpi" 2>/dev/null; then
  echo "$2: skipped (routesim built without MPI, or no mpirun)"
  exit 0
fi
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
