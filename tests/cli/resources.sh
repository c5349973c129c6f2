#!/usr/bin/env bash
# Resource limits (docs/resources.md): exit status 3 for out of memory and for a run, sweep
# or DOT description refused by its estimate (max_memory, dot_limit), before anything is
# built or written; a grid's ranges are checked before any of its networks is built.
. "$(dirname "$0")/lib.bash"

# A run over max_memory is refused with its estimate and the limit, for every engine and
# for analyze; nothing on stdout, no output file.
for sw in store_forward circuit wormhole virtual_cut_through cut_through_partial store_forward_flits; do
  expect_fail 3 "^routesim: topology=butterfly with N=65536 and 65536 messages needs about [0-9.]+ MiB of memory, more than max_memory \(1.0 MiB\)$" \
    run topology=butterfly N=2^16 switching=$sw max_memory=1M
done
expect_fail 3 "needs about [0-9.]+ MiB of memory, more than max_memory \(512 KiB\)" \
  analyze topology=butterfly N=2^16 per_input=4 max_memory=512K
expect_fail 3 "more than max_memory" run topology=butterfly N=2^16 max_memory=1M -o "$TMP/r.csv" --format csv
if [ -e "$TMP/r.csv" ]; then echo "FAIL: output file written on a refused run"; FAILS=$((FAILS + 1)); fi
# a workload sized by its file is estimated once read
expect_fail 3 "more than max_memory \(100 B\)" run topology=graph graph_file="$(dirname "$0")/../data/graph_small.txt" \
  paths_file="$(dirname "$0")/../data/graph_small_paths.txt" traffic=paths max_memory=100

# router=iq's state is estimated too (src/engine/iq_estimate.c): this 128x128 mesh in open
# loop peaks at 37-39 MiB resident with router=iq (measured), 11 MiB with router=simple.
# Under max_memory=36M the iq run is refused (estimate 88 MiB); the flit engine's estimate
# without the router's state (34 MiB) or without its packet pool (12 MiB) admitted it.
IQ="topology=mesh k=128 switching=wormhole vcs=2 vc_depth=4 length=4 injection_process=bernoulli
  injection_rate=0.05 injection_rate_uses_flits=1 warmup_steps=100"
# shellcheck disable=SC2086
expect_fail 3 "^routesim: topology=mesh with N=16384 and 16384 messages needs about [0-9.]+ MiB of memory, more than max_memory \(36 MiB\)$" \
  run $IQ measure_steps=200 drain_steps=200 router=iq max_memory=36M
# shellcheck disable=SC2086
expect_ok "latency_mean" run $IQ measure_steps=2 drain_steps=2 router=simple max_memory=36M

# threads=T counts the threads' lists and, under an adaptive routing, the route phase's stored
# choices (flit_estimate.c): this 64x64 mesh peaks at 5.2 MiB resident on one thread and
# 7.0 MiB on two (measured); estimated 8.3 MiB and 11 MiB, so 9M admits one thread only.
AD="topology=mesh k=64 routing=min_adaptive vcs=3 switching=wormhole length=4 traffic=uniform per_input=4"
# shellcheck disable=SC2086
expect_fail 3 "needs about [0-9.]+ MiB of memory, more than max_memory \(9.0 MiB\)$" run $AD threads=2 max_memory=9M
# shellcheck disable=SC2086
expect_ok "latency_mean" run $AD threads=1 max_memory=9M

# 2^32 messages or more is bad input whatever the memory (the constraint, not the estimate)
expect_fail 2 "N x per_input must be below 2\^32" analyze topology=butterfly N=2^12 per_input=2^20 max_memory=1M

# Within the limit: the same run as without it, and max_memory is no column of the record.
"$RS" run topology=butterfly N=2^8 seed=3 --format csv >"$TMP/plain.csv"
expect_ok "makespan" run topology=butterfly N=2^8 seed=3 max_memory=1G --format csv
if ! cmp -s "$TMP/plain.csv" "$TMP/out"; then echo "FAIL: max_memory changed the record"; FAILS=$((FAILS + 1)); fi

# Bad limits are bad input.
expect_fail 2 "key 'max_memory': expected a size in bytes \(e.g. 512M, 4G, 1048576\), got '12Q'" run max_memory=12Q
expect_fail 2 "key 'max_memory'.*got '0'" run max_memory=0
expect_fail 2 "key 'dot_limit'.*got 'lots'" topo topology=butterfly N=16 --dot dot_limit=lots

# Out of memory while building is status 3 too (the deadlock status is 1). Not under
# AddressSanitizer, whose shadow memory cannot be mapped under ulimit -v.
if ! ldd "$RS" 2>/dev/null | grep -q libasan; then
  ( ulimit -v 300000; expect_fail 3 "^routesim: out of memory" run topology=butterfly N=2^20 max_memory=100G
    echo "$PASSES $FAILS" >"$TMP/sub" )
  read -r PASSES FAILS <"$TMP/sub"
fi

# A sweep: every point's ranges are checked before any network is built, so the range error
# of the last point comes first (not the first point's power-of-two constraint), at once.
printf 'topology = butterfly\nN = 12, 2^40\n' >"$TMP/range.ini"
expect_fail 2 "range.ini:2: key 'N': expected an integer in \[2, 2\^26\]" sweep -c "$TMP/range.ini" -o "$TMP/range.csv"
# No point is built before every range is checked: with a memory limit that the points from
# 2^19 on exceed, a sweep that validated (built) its points in order would stop at 2^19 with
# exit 3; the range error of 2^27 comes first. (Behaviour, not timing: no speed is asserted.)
printf 'topology = butterfly\nN = 2^4..2^40\nmax_memory = 16M\n' >"$TMP/big.ini"
expect_fail 2 "key 'N': expected an integer in \[2, 2\^26\], got '134217728'" sweep -c "$TMP/big.ini" -o "$TMP/big.csv"
# a sweep whose largest point exceeds max_memory is refused before it runs; no file
printf 'topology = butterfly\nN = 2^4..2^18\nmax_memory = 40M\n' >"$TMP/mem.ini"
expect_fail 3 "topology=butterfly with N=65536 and 65536 messages needs about [0-9.]+ MiB of memory, more than max_memory \(40 MiB\)" \
  sweep -c "$TMP/mem.ini" -o "$TMP/mem.csv"
if [ -e "$TMP/mem.csv" ]; then echo "FAIL: sweep output written on a refused grid"; FAILS=$((FAILS + 1)); fi

# topo --dot: refused over dot_limit (default 64 MiB) before any text is made; exit 3.
expect_fail 3 "^routesim: the DOT description of topology=butterfly with 2359296 nodes would be about [0-9.]+ MiB, more than dot_limit=64M \(64 MiB\)$" \
  topo topology=butterfly N=2^17 --dot -o "$TMP/b.dot"
if [ -e "$TMP/b.dot" ]; then echo "FAIL: DOT file written over the limit"; FAILS=$((FAILS + 1)); fi
expect_fail 3 "more than dot_limit=100K \(100 KiB\)" topo topology=butterfly N=2^10 --dot dot_limit=100K
expect_ok "^digraph" topo topology=butterfly N=2^10 --dot dot_limit=2M
expect_ok "nodes" topo topology=butterfly N=2^26

finish
