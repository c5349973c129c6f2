#!/usr/bin/env bash
# `make bench`, MPI part: wall time of one sweep (48 runs of store-and-forward on 2^12- and
# 2^13-input butterflies) run serially (--jobs 1), under `mpirun -np 1` and `mpirun -np 2` on
# localhost, each checked to give the serial bytes. Skipped when the build made no
# routesim-mpi beside routesim (routesim under mpirun replaces itself with it).
set -eu
# shellcheck source=bench/mpi_common.bash
. "$(dirname "$0")/mpi_common.bash" "${1:-build}" "MPI sweep"
cat >"$tmp/bench.ini" <<'INI'
topology = butterfly
N = 2^12,2^13
traffic = uniform
per_input = 8
queue_size = 1,2,4
protocol = fifo,random
runs = 4
seed = 3
INI
# wall NAME CMD...: "WALL CPU" seconds of CMD (CPU: user + system of it and its children,
# every rank included)
wall() {
  local name=$1; shift
  local TIMEFORMAT='%R %U %S'
  { time "$@" >/dev/null 2>"$tmp/$name.err"; } 2>"$tmp/$name.time"
  awk '{printf "%.2f %.2f", $1, $2 + $3}' "$tmp/$name.time"
}
read -r s sc <<<"$(wall serial "$rs" sweep -c "$tmp/bench.ini" -o "$tmp/serial.csv" --jobs 1)"
read -r m1 m1c <<<"$(wall np1 "$mpiexec" -np 1 "$rs" sweep -c "$tmp/bench.ini" -o "$tmp/np1.csv")"
read -r m2 m2c <<<"$(wall np2 "$mpiexec" --oversubscribe -np 2 "$rs" sweep -c "$tmp/bench.ini" -o "$tmp/np2.csv")"
same() { cmp -s "$tmp/serial.csv" "$tmp/$1.csv" && echo yes || echo NO; }
echo
echo "| sweep (12 points x 4 runs, butterfly 2^12/2^13, 8 packets per input) | wall s | CPU s | same bytes | wall speed-up |"
echo "| --- | ---: | ---: | --- | ---: |"
echo "| serial, --jobs 1 | $s | $sc | - | 1.00 |"
echo "| mpirun -np 1 | $m1 | $m1c | $(same np1) | $(awk -v a="$s" -v b="$m1" 'BEGIN{printf "%.2f", a/b}') |"
echo "| mpirun -np 2 | $m2 | $m2c | $(same np2) | $(awk -v a="$s" -v b="$m2" 'BEGIN{printf "%.2f", a/b}') |"
echo "mpirun -np 2: $(grep -o '[0-9]* runs made by the 1 other MPI ranks' "$tmp/np2.err" || echo 'no count') (of 48)"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
