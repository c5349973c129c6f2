#!/usr/bin/env bash
# `make bench`, MPI part 2 (issue 23 item 4): one run split over MPI ranks on localhost
# (docs/distributed.md): each case run serially, under `mpirun -np 1` and under
# `mpirun --oversubscribe -np 2`; wall seconds, the largest peak RSS of one process (every
# rank measured by its own /usr/bin/time) and whether stdout is the serial bytes. Skipped
# when the build made no routesim-mpi or there is no mpirun. Cases: BENCH_MPI_RUNS, a list
# of run arguments separated by ';' (default: the circuit engine, the store-and-forward
# kernel and the flit engine (wormhole) on a 2^20-input butterfly; router=iq on a 32x32 mesh
# in open loop below saturation; the general store-and-forward engine on a 128x128 mesh).
set -eu
# shellcheck source=bench/mpi_common.bash
. "$(dirname "$0")/mpi_common.bash" "${1:-build}" "MPI run"
runs=${BENCH_MPI_RUNS:-topology=butterfly N=2^20 traffic=randperm switching=circuit;topology=butterfly N=2^20 traffic=randperm queue_size=2;topology=butterfly N=2^20 traffic=uniform per_input=1 switching=wormhole vcs=2 vc_depth=4 length=4;topology=mesh k=32 switching=wormhole router=iq vcs=2 vc_depth=4 length=4 injection_process=bernoulli injection_rate=0.05 injection_rate_uses_flits=1 warmup_steps=1000 measure_steps=2000 drain_steps=2000;topology=mesh k=128 traffic=randperm per_input=4 queue_size=2}
# measure NAME LAUNCHER...: runs "LAUNCHER routesim run ARGS" with every process under its
# own /usr/bin/time; prints "WALL MAXRSS_MIB"
measure() {
  local name=$1; shift
  local TIMEFORMAT='%R'
  rm -f "$tmp"/rss.*
  # the inner script's variables expand in the inner shell; $args is a list of KEY=VALUE words
  # shellcheck disable=SC2016,SC2086
  { time "$@" sh -c '/usr/bin/time -f %M -o "$0/rss.${OMPI_COMM_WORLD_RANK:-s}" "$@"' \
      "$tmp" "$rs" run $args --format csv >"$tmp/$name.out" 2>"$tmp/$name.err"; } 2>"$tmp/$name.time"
  printf '%s %s' "$(cat "$tmp/$name.time")" \
    "$(cat "$tmp"/rss.* | awk 'm < $1 { m = $1 } END { printf "%.0f", m / 1024 }')"
}
echo
echo "| run (one network split over ranks) | processes | wall s | peak RSS per process MiB | same bytes |"
echo "| --- | ---: | ---: | ---: | --- |"
IFS=';' read -ra cases <<<"$runs"
for args in "${cases[@]}"; do
  read -r w r <<<"$(measure serial)"
  echo "| \`$args\` | serial | $w | $r | - |"
  read -r w r <<<"$(measure np1 "$mpiexec" -np 1)"
  same=$(cmp -s "$tmp/serial.out" "$tmp/np1.out" && echo yes || echo NO)
  echo "| | mpirun -np 1 | $w | $r | $same |"
  read -r w r <<<"$(measure np2 "$mpiexec" --oversubscribe -np 2)"
  same=$(cmp -s "$tmp/serial.out" "$tmp/np2.out" && echo yes || echo NO)
  echo "| | mpirun -np 2 | $w | $r | $same |"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
