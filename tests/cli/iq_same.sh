#!/usr/bin/env bash
# router=iq gives the same bytes as before its event-driven cycle (issue 21 item 5: work lists
# and bit sets instead of scans of every router, port and terminal): every run listed in
# tests/data/iq_same.txt (8x8 mesh and torus, 4-ary 3-fly, butterfly, dragonfly; the three
# allocators, iSLIP iterations, speculation, speedups, wait_for_tail_credit,
# vc_busy_when_full, hold_switch_for_packet, pipeline delays, virtual cut-through; direct,
# Valiant, min_adaptive, UGAL-L/G and PAR; batch and open loop from light load to
# saturation; an event log) must print exactly what the base commit f3b4a76 printed (the
# runs added later: b2d2fb3): its stdout, stderr and exit status hash to the recorded value.
. "$(dirname "$0")/lib.bash"

list="${RS_TEST_DATA:-$(dirname "$0")/../data}/iq_same.txt"
runs=0
while read -r want config; do
  case $want in '#'*|'') continue ;; esac
  runs=$((runs + 1))
  # shellcheck disable=SC2086 # the configuration is a list of key=value words
  got=$( { "$RS" run $config --format csv 2>&1; echo "rc=$?"; } | sha256sum | cut -c1-16)
  if [ "$got" != "$want" ]; then
    echo "FAIL: routesim run $config --format csv: output hash $got, base commit's $want; output:"
    # shellcheck disable=SC2086
    "$RS" run $config --format csv 2>&1 | head -5
    FAILS=$((FAILS + 1))
  else
    PASSES=$((PASSES + 1))
  fi
done < "$list"
# the list itself must be there and complete, or the loop above proves nothing
if [ "$runs" -lt 39 ]; then
  echo "FAIL: $list has $runs runs (want 39)"; FAILS=$((FAILS + 1))
fi
# st_final_delay=2 alone: crossbar entries are evaluated in batches (none behind one in
# progress), so up to two batches wait at once; the base commits' crossbar queue was too
# short for that and aborted this run. It must finish with one CSV row.
cfg="topology=mesh k=8 switching=wormhole router=iq length=4 traffic=uniform
  injection_process=bernoulli injection_rate_uses_flits=1 injection_rate=0.9 warmup_steps=200
  measure_steps=600 drain_steps=400 vcs=2 vc_depth=4 st_final_delay=2"
# shellcheck disable=SC2086 # the configuration is a list of key=value words
got=$("$RS" run $cfg --format csv 2>&1; echo "rc=$?")
if [ "$(echo "$got" | grep -c '^mesh,8,2,')" = 1 ] && [ "$(echo "$got" | tail -1)" = rc=0 ]; then
  PASSES=$((PASSES + 1))
else
  echo "FAIL: routesim run $cfg: want one CSV row and exit status 0, got:"; echo "$got" | tail -3
  FAILS=$((FAILS + 1))
fi
finish
