#!/usr/bin/env bash
# Sweeps and reproductions over Open MPI ranks: `mpirun --oversubscribe -np P` for P = 2, 3
# and 4 on localhost gives the bytes of the serial sweep (statistics and per-run files),
# other ranks make runs, a torn file resumes under mpirun to the same bytes, a shard under
# mpirun is the serial shard, a reproduction's CSVs and REPORT.md are the serial ones, and
# bad input on rank 0 ends every rank with exit status 2. Skipped (status 77) only when
# routesim was built without MPI (CMake passes RS_MPIEXEC, empty then).
. "$(dirname "$0")/lib.bash"
cd "$TMP"

mpi_setup # exit 77 (skipped) when routesim was built without MPI

# Runs of 1-40 ms (0.8 s in all, serial): rank 0 serves runs too, so with runs of a few
# microseconds it could finish the grid before the other ranks have started (seen under
# load with N = 2^4..2^7); at these sizes the other ranks make about 30 of the 48 runs.
cat >grid.ini <<'INI'
topology = butterfly
N = 2^12..2^15
traffic = uniform
queue_size = 1,2
protocol = fifo,random
runs = 3
seed = 17
INI


"$RS" sweep -c grid.ini -o serial.csv --per-run serial-runs.csv --jobs 1 2>/dev/null
for np in 2 3 4; do
  mpi "$np" sweep -c grid.ini -o "m$np.csv" --per-run "m$np-runs.csv" 2>"err$np"
  check "mpirun -np $np: exit 0" test $? = 0
  check "mpirun -np $np: the serial statistics bytes" cmp -s serial.csv "m$np.csv"
  check "mpirun -np $np: the serial per-run bytes" cmp -s serial-runs.csv "m$np-runs.csv"
  check "mpirun -np $np: other ranks made runs" \
    grep -Eq "; [1-9][0-9]* runs made by the $((np - 1)) other MPI ranks\)$" "err$np"
done

# Resume under mpirun: a torn statistics file and a per-run file ahead of it.
head -n 6 serial.csv >t.csv; sed -n 7p serial.csv | head -c 20 >>t.csv
head -n 22 serial-runs.csv >t-runs.csv
mpi 2 sweep -c grid.ini -o t.csv --per-run t-runs.csv --resume 2>/dev/null
check "resume under mpirun: the serial statistics bytes" cmp -s serial.csv t.csv
check "resume under mpirun: the serial per-run bytes" cmp -s serial-runs.csv t-runs.csv

# A shard under mpirun is the serial shard.
"$RS" sweep -c grid.ini --shard 2/3 -o s2.csv --jobs 1 2>/dev/null
mpi 3 sweep -c grid.ini --shard 2/3 -o ms2.csv 2>/dev/null
check "a shard under mpirun: the serial shard's bytes" cmp -s s2.csv ms2.csv

# A reproduction: every CSV and REPORT.md as the serial one.
RS_EXPERIMENTS="$RS_TEST_DATA/repro" "$RS" reproduce fixture --quick --out r1 --jobs 1 >/dev/null 2>&1
RS_EXPERIMENTS="$RS_TEST_DATA/repro" mpi 3 reproduce fixture --quick --out r3 >out3 2>/dev/null
check "reproduce under mpirun: exit 0 and the verdict line" grep -q "^fixture: .* hold" out3
check "reproduce under mpirun: the same CSV files" \
  test "$(cd r1 && ls *.csv)" = "$(cd r3 && ls *.csv)" -a -n "$(cd r1 && ls *.csv)"
same=1
for f in r1/*.csv r1/REPORT.md; do cmp -s "$f" "r3/${f#r1/}" || same=0; done
check "reproduce under mpirun: every CSV and REPORT.md byte-identical" test $same = 1

# Bad input on rank 0: one error line from routesim, status 2, every rank ends.
mpi 2 sweep -c missing.ini -o x.csv >/dev/null 2>err
check "bad input under mpirun: exit status 2" test $? = 2
check "bad input under mpirun: the error line" grep -q "^routesim: cannot open 'missing.ini'" err
check "bad input under mpirun: nothing written" test ! -e x.csv
# `routesim` links no MPI; under mpirun it replaces itself with routesim-mpi beside it (every
# check above ran `routesim`). Alone, without routesim-mpi, it refuses instead of letting every
# rank run the whole sweep.
check "routesim itself links no MPI library" bash -c "! ldd '$RS' | grep -q libmpi"
mkdir alone && cp "$RS" alone/routesim
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
  timeout 300 "$RS_MPIEXEC" --oversubscribe -np 2 alone/routesim sweep -c grid.ini -o alone.csv \
  >/dev/null 2>err
check "routesim without routesim-mpi under mpirun: refused" test $? != 0
check "routesim without routesim-mpi under mpirun: the reason" grep -q "no routesim-mpi beside it" err
check "routesim without routesim-mpi under mpirun: nothing written" test ! -e alone.csv
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
  timeout 300 "$RS_MPIEXEC" --oversubscribe -np 2 alone/routesim run topology=butterfly N=16 \
  traffic=randperm switching=circuit >alone.out 2>err
check "routesim run without routesim-mpi under mpirun: refused" test $? != 0
check "routesim run without routesim-mpi under mpirun: the reason names the command" \
  grep -q "every process would run the whole command" err
check "routesim run without routesim-mpi under mpirun: nothing on stdout" test ! -s alone.out
finish
