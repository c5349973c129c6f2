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

same_runs "${RS_TEST_DATA:-$(dirname "$0")/../data}/iq_same.txt" 39 cat
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
