#!/usr/bin/env bash
# router=iq gives the same bytes as before its event-driven cycle (issue 21 item 5: work lists
# and bit sets instead of scans of every router, port and terminal): every run listed in
# tests/data/iq_same.txt (8x8 mesh and torus, 4-ary 3-fly, butterfly, dragonfly; the three
# allocators, iSLIP iterations, speculation, speedups, wait_for_tail_credit,
# vc_busy_when_full, hold_switch_for_packet, pipeline delays, virtual cut-through; direct,
# Valiant, min_adaptive, UGAL-L/G and PAR; batch and open loop from light load to
# saturation; an event log) must print exactly what the base commit f3b4a76 printed: its
# stdout, stderr and exit status hash to the recorded value.
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
if [ "$runs" -lt 34 ]; then
  echo "FAIL: $list has $runs runs (want 34)"; FAILS=$((FAILS + 1))
fi
finish
