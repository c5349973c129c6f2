#!/usr/bin/env bash
# `make bench`: run every standard case of bench/bench.c in its own process and print a
# Markdown table with the machine and commit, ready for docs/PERFORMANCE.md.
set -eu
build=${1:-build}
bin="$build/routesim_bench"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
echo "commit:  $(git describe --always --dirty 2>/dev/null || echo unknown)"
echo "date:    $(date -u +%Y-%m-%d)"
echo
# store-and-forward cases a-e (a_t2, c_t2: a and c on two threads), then the flit-engine cases f-j (for the open-loop cases h-j
# "messages" are the packets delivered), then algorithm=wave k-l (packet-hops, as a-e),
# then algorithm=ms_chain's line simulator m-n and ms_mesh o (flit-hops), then
# algorithm=bay_bilardi p-q (bit steps), then the folded Clos r-s and the dragonfly
# dfly_min, dfly_ugal, hyperx, the Slim Fly sf_min, sf_ugal, and router=iq iq_h, iq_i, iq_j
# (flit engine), then every engine at 2^16 and 2^20 on threads 1 and 2 (b, b_t2: the
# store-and-forward ones; flit16, flit20; circ16, circ20 in the circuit table)
cases=${BENCH_CASES:-a a_t2 b c c_t2 d e f g h i j k l m n o p q r s dfly_min dfly_ugal hyperx sf_min sf_ugal iq_h iq_i iq_j b_t2 flit16 flit16_t2 flit20 flit20_t2 circ16 circ16_t2 circ20 circ20_t2}
header=
for c in $cases; do
  case $c in
    [a-e] | a_t2 | b_t2 | c_t2 | k | l) want=--header ;;
    p | q) want=--header-algo ;;
    circ*) want=--header-circuit ;;
    *) want=--header-flit ;;
  esac
  if [ "$want" != "$header" ]; then
    [ -n "$header" ] && echo
    "$bin" "$want"
    header=$want
  fi
  "$bin" "$c"
done
# the sweep over MPI ranks 1 and 2 (issue 23)
bash "$(dirname "$0")/mpi_sweep.sh" "$build"
# one run over MPI ranks 1 and 2 (issue 23)
bash "$(dirname "$0")/mpi_run.sh" "$build"
