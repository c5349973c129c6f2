# Helpers of the tests that run one routesim run over MPI ranks (tests/cli/mpi_run*.sh,
# docs/distributed.md): compare the serial bytes and status with `mpirun -np P`, a failure
# line over ranks, and a refusal. Sourced after lib.bash and mpi_setup; needs $RS and mpi.

# Rank counts: a case runs on two of P = 2, 3, 4, the pair rotating from case to case
# ({2,3}, {3,4}, {2,4}), so that every P sees two cases in three and the script stays within
# the test budget (an mpirun start costs 0.4-0.6 s on the 2-core CI machine); NPS="..." names
# the counts of a case that needs particular ones (one row per rank at N = P = 4, say).
ROTATION=("2 3" "3 4" "2 4")
ROT=0
next_nps() { # sets NPS_NOW to NPS if given, else to the next pair of the rotation
  NPS_NOW=${NPS:-${ROTATION[ROT % 3]}}
  [ -n "${NPS:-}" ] || ROT=$((ROT + 1))
}
# same_over_ranks ARGS...: `routesim run ARGS --format csv` under mpirun -np P for the rank
# counts above prints the serial run's bytes and exit status (the serial run must succeed).
same_over_ranks() {
  { "$RS" run "$@" --format csv 2>&1; echo "rc=$?"; } >serial
  if ! grep -q '^rc=0$' serial; then
    echo "FAIL: routesim run $* did not run:"; head -3 serial
    FAILS=$((FAILS + 1))
    return
  fi
  local np
  next_nps
  for np in $NPS_NOW; do
    { mpi "$np" run "$@" --format csv 2>&1; echo "rc=$?"; } >"m$np"
    if ! cmp -s serial "m$np"; then
      echo "FAIL: mpirun -np $np routesim run $* differs from the serial run:"
      diff serial "m$np" | head -6
      FAILS=$((FAILS + 1))
    else
      PASSES=$((PASSES + 1))
    fi
  done
}
# same_failure PATTERN ARGS...: `routesim run ARGS` ends in an error or a deadlock with a
# stderr line matching PATTERN; under mpirun -np P (the rank counts above), rank 0 prints the
# same stdout and the same routesim lines, and the status is the same (mpirun adds its notice
# of the status).
same_failure() {
  local pat=$1 want got np; shift
  "$RS" run "$@" >sout 2>serr
  want=$?
  next_nps
  for np in $NPS_NOW; do
    mpi "$np" run "$@" >out 2>err
    got=$?
    if [ "$want" = 0 ] || [ "$got" != "$want" ] || ! grep -q -- "$pat" serr ||
       [ "$(grep '^routesim:' err)" != "$(cat serr)" ] || ! cmp -s sout out; then
      echo "FAIL: mpirun -np $np routesim run $*: status $got (serial $want), stderr:"; cat err
      echo "      serial: $(cat serr)"
      FAILS=$((FAILS + 1))
    else
      PASSES=$((PASSES + 1))
    fi
  done
}
# Refused under mpirun -np P > 1: exit 2, exactly one routesim line (rank 0's; mpirun adds
# its own notice of the status), nothing on stdout.
refused() { # refused PATTERN ARGS... (on REFUSED_NP ranks, 2 by default)
  local pat=$1; shift
  mpi "${REFUSED_NP:-2}" "$@" >out 2>err
  local got=$?
  if [ "$got" != 2 ] || [ "$(grep -c '^routesim:' err)" != 1 ] || ! grep -Eq -- "$pat" err || [ -s out ]; then
    echo "FAIL: mpirun -np ${REFUSED_NP:-2} routesim $* -> status $got (want 2), stderr:"; cat err
    echo "      wanted one line /$pat/"
    FAILS=$((FAILS + 1))
  else
    PASSES=$((PASSES + 1))
  fi
}
