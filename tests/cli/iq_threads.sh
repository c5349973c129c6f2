#!/usr/bin/env bash
# One router=iq run on several threads (threads=T, issue 23 item 2): the output (stdout,
# stderr, exit status) is byte-identical at threads=1, 2, 3 and 4, on networks large enough
# that the router phase of most cycles is split (at least two 64-node words of busy routers
# and 16 busy routers per thread; docs/model-iq.md, "Threads"): 16x16 meshes and tori near
# and past saturation, k-ary n-flies with several terminals per router (4-ary 4-fly, 2-ary
# 10-fly; the 4-ary 3-fly has one word and stays serial), dragonflies under UGAL-L and
# UGAL-G (which reads the credit counts of other routers of its group: with p=3 the groups
# of 6 routers are not aligned to the parts' 64-node words), virtual cut-through, min_adaptive (also
# adaptive_set=booksim), Valiant, speculation, the separable allocators, iSLIP iterations,
# speedups (the crossbar and output queues), wait_for_tail_credit, vc_busy_when_full,
# hold_switch_for_packet, pipeline delays, credit_delay, 16 VCs, batch and open loop
# (sim_type=fixed, latency and throughput), a deadlock (its error line and status), the
# invariant checker after every cycle (check=1) and an event log (the phase stays serial).
. "$(dirname "$0")/lib.bash"
# the bytes do not depend on how threads wait; passive waiting keeps the test's time bounded
# when the cores are busy with other work (a spinning thread takes the core its partner needs)
export OMP_WAIT_POLICY=passive

OL="injection_process=bernoulli injection_rate_uses_flits=1 warmup_steps=100 measure_steps=300 drain_steps=200"
W="switching=wormhole router=iq vcs=2 vc_depth=4 length=4"
SAMPLES="sample_period=300 max_samples=3 warmup_periods=1"
cases=(
  "topology=mesh k=16 $W $OL injection_rate=0.4 seed=1"
  "topology=mesh k=16 $W traffic=uniform per_input=12 seed=2"
  "topology=torus k=16 $W vc_classes=dateline channel_latency=2 $OL injection_rate=0.45 seed=3"
  "topology=kary_nfly k=4 n=4 $W $OL injection_rate=0.5 seed=4"
  "topology=kary_nfly k=2 n=10 $W traffic=uniform per_input=3 seed=5"
  "topology=kary_nfly k=4 n=3 $W $OL injection_rate=0.6 seed=6"
  "topology=dragonfly p=3 switching=wormhole router=iq vcs=3 vc_depth=4 length=4 routing=ugal_g $OL injection_rate=0.35 seed=7"
  "topology=dragonfly p=4 switching=wormhole router=iq vcs=3 vc_depth=4 length=4 routing=ugal_l traffic=uniform per_input=6 seed=8"
  "topology=mesh k=16 switching=virtual_cut_through router=iq vcs=2 length=4 $OL injection_rate=0.4 seed=9"
  "topology=mesh k=16 $W routing=min_adaptive $OL injection_rate=0.35 seed=10"
  "topology=torus k=16 switching=wormhole router=iq vcs=3 vc_depth=4 length=4 routing=min_adaptive adaptive_set=booksim traffic=transpose per_input=8 seed=11"
  "topology=mesh k=16 $W speculative=1 vc_allocator=separable_input_first sw_allocator=separable_output_first $OL injection_rate=0.45 seed=12"
  "topology=mesh k=16 switching=wormhole router=iq vcs=4 vc_depth=4 length=4 alloc_iters=3 input_speedup=2 output_speedup=2 $OL injection_rate=0.5 seed=13"
  "topology=mesh k=16 switching=wormhole router=iq vcs=2 vc_depth=4 length=6 wait_for_tail_credit=1 vc_busy_when_full=1 hold_switch_for_packet=1 $OL injection_rate=0.4 seed=14"
  "topology=mesh k=16 $W routing_delay=2 vc_alloc_delay=2 sw_alloc_delay=2 st_prepare_delay=1 st_final_delay=2 credit_delay=1 channel_latency=2 $OL injection_rate=0.35 seed=15"
  "topology=mesh k=16 $W routing=valiant traffic=uniform per_input=6 seed=16"
  "topology=mesh k=16 switching=wormhole router=iq vcs=16 vc_depth=2 length=4 vc_allocator=separable_output_first $OL injection_rate=0.4 seed=17"
  "topology=mesh k=16 $W traffic=uniform injection_process=bernoulli injection_rate_uses_flits=1 injection_rate=0.3 sim_type=latency $SAMPLES seed=18"
  "topology=mesh k=16 $W traffic=uniform injection_process=bernoulli injection_rate_uses_flits=1 injection_rate=0.6 sim_type=throughput $SAMPLES seed=19"
  "topology=torus k=16 switching=wormhole router=iq vcs=1 vc_depth=2 length=8 traffic=uniform per_input=8 seed=20"
  "topology=mesh k=12 $W check=1 traffic=uniform per_input=4 seed=21"
)
for c in "${cases[@]}"; do
  # shellcheck disable=SC2086 # the configuration is a list of key=value words
  { "$RS" run $c --format csv 2>&1; echo "rc=$?"; } >"$TMP/t1"
  # a record and status 0, or the deadlock's status 1 (the runs compared are real runs)
  if [ "$(tail -1 "$TMP/t1")" != rc=0 ] && ! grep -q '^routesim: waiting cycle' "$TMP/t1"; then
    echo "FAIL: routesim run $c: exit status $(tail -1 "$TMP/t1") at threads=1"; FAILS=$((FAILS + 1))
  fi
  for T in 2 3 4; do
    # shellcheck disable=SC2086 # the configuration is a list of key=value words
    threads_same "$T" $c
  done
done
# with an event log the phase stays serial (one log in the routers' order): the same log
ev="topology=mesh k=16 $W injection_process=bernoulli injection_rate_uses_flits=1 injection_rate=0.3 warmup_steps=50 measure_steps=100 drain_steps=50 seed=22"
for T in 1 3; do
  # shellcheck disable=SC2086 # the configuration is a list of key=value words
  { "$RS" run $ev threads=$T --events "$TMP/ev$T.csv" --format csv 2>&1; echo "rc=$?"; } >"$TMP/evo$T"
done
if cmp -s "$TMP/evo1" "$TMP/evo3" && cmp -s "$TMP/ev1.csv" "$TMP/ev3.csv" && [ "$(wc -l <"$TMP/ev1.csv")" -gt 1000 ]; then
  PASSES=$((PASSES + 1))
else
  echo "FAIL: routesim run $ev --events: threads=3 differs from threads=1"; FAILS=$((FAILS + 1))
fi
# the cases move flits (a test of nothing otherwise): the first has flit_hops > 100000; the
# torus with one VC and no dateline deadlocks (exit status 1, its waiting cycle named)
"$RS" run ${cases[0]} --format csv >"$TMP/a.csv"
hops=$(awk -F, -v c="$(csvcol flit_hops "$TMP/a.csv")" 'NR==2{print $c}' "$TMP/a.csv")
if [ "${hops:-0}" -gt 100000 ]; then PASSES=$((PASSES + 1)); else
  echo "FAIL: flit_hops=$hops in the first case"; FAILS=$((FAILS + 1)); fi
# shellcheck disable=SC2086 # the configuration is a list of key=value words
{ "$RS" run ${cases[19]} threads=2 --format csv 2>&1; echo "rc=$?"; } >"$TMP/d"
if [ "$(tail -1 "$TMP/d")" = rc=1 ] && grep -q '^routesim: waiting cycle of input virtual channels' "$TMP/d" &&
  [ "$(awk -F, -v c="$(csvcol deadlock "$TMP/d")" 'NR==2{print $c}' "$TMP/d")" = 1 ]; then
  PASSES=$((PASSES + 1))
else
  echo "FAIL: the torus with one VC: want deadlock=1, its waiting cycle and exit status 1, got:"
  tail -c 300 "$TMP/d"; FAILS=$((FAILS + 1))
fi
finish
