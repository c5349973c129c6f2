#!/usr/bin/env bash
# Store-and-forward on networks whose nodes carry several terminals (concentrated meshes and
# tori, k-ary n-trees and n-flies, the flattened butterfly, the Slim Fly, HyperX with T > 1):
# a node's sources inject in increasing terminal order, each into a channel the switch and
# the lower terminals left idle (docs/model-saf.md). Worked examples on a chain of 2 nodes
# with 2 terminals each; the invariant checker (check=1) on every queue placement; the same
# bytes on 1 and 2 threads; open loop.
. "$(dirname "$0")/lib.bash"

# expect_lines ARGS... -- LINE...: status 0 and every LINE (a regex) among stdout's lines.
expect_lines() {
  local args=() ; while [ "$1" != "--" ]; do args+=("$1"); shift; done; shift
  "$RS" "${args[@]}" >"$TMP/out" 2>"$TMP/err"
  local got=$? bad=0
  for l in "$@"; do grep -Eq -- "$l" "$TMP/out" || bad=1; done
  if [ "$got" != 0 ] || [ $bad = 1 ]; then
    echo "FAIL: routesim ${args[*]} -> status $got; wanted $*"; grep -E "^(makespan|delivered|latency|hops|max_queue)" "$TMP/out"; cat "$TMP/err"
    FAILS=$((FAILS + 1))
  else
    PASSES=$((PASSES + 1))
  fi
}

# terminals 0, 1 on node 0 and 2, 3 on node 1; 0 -> 2, 1 -> 3 and back: both of a node's
# packets want its one channel, the lower terminal's crosses in step 1, the other's in step 2
printf '2\n3\n0\n1\n' >"$TMP/cross"
for qa in input switch output; do
  expect_lines run topology=chain k=2 c=2 switching=store_forward traffic=file \
    traffic_file="$TMP/cross" queue_at=$qa check=1 -- '^makespan +2$' '^delivered +4$' \
    '^latency_mean +1.5$' '^latency_max +2$' '^hops +4$'
done
# a terminal's own node's terminals: an empty route, delivered at step 0 (latency 0)
printf '1\n3\n2\n0\n' >"$TMP/local"
expect_lines run topology=chain k=2 c=2 switching=store_forward traffic=file \
  traffic_file="$TMP/local" check=1 -- '^makespan +1$' '^latency_mean +0.5$' '^hops +2$'
# the lower terminal goes first: 0 -> 3 and 1 -> 2 want node 0's one channel; the event
# log shows packet 0 delivered at step 1 and packet 1 at step 2
printf '3\n2\n0\n1\n' >"$TMP/order"
"$RS" run topology=chain k=2 c=2 switching=store_forward traffic=file traffic_file="$TMP/order" \
  --events "$TMP/ev.csv" >/dev/null 2>&1
if grep -q '^1,delivered,0,1,' "$TMP/ev.csv" 2>/dev/null &&
   grep -q '^2,delivered,1,1,' "$TMP/ev.csv"; then
  PASSES=$((PASSES + 1))
else
  echo "FAIL: terminal 0's packet is not delivered at step 1"; cat "$TMP/ev.csv"
  FAILS=$((FAILS + 1))
fi

# every placement and protocol on the concentrated networks: the checker's invariants hold
# each step, every packet is delivered or the run reports its deadlock (status 1)
for net in "topology=kary_ntree k=4 n=3" "topology=kary_nfly k=4 n=3" "topology=mesh k=4 c=4" \
           "topology=torus k=4 c=2" "topology=flattened_butterfly k=4 n=3" "topology=slimfly q=5" \
           "topology=hyperx S=4,4 T=2" "topology=hypercube n=4 c=2"; do
  for qa in input output switch; do
    for pr in fifo random rank; do
      "$RS" run $net switching=store_forward traffic=uniform per_input=4 queue_size=2 \
        queue_at=$qa protocol=$pr seed=3 check=1 >"$TMP/out" 2>"$TMP/err"
      st=$?
      if { [ $st = 0 ] && grep -Eq '^deadlock +0$' "$TMP/out"; } ||
         { [ $st = 1 ] && grep -q 'deadlock at step' "$TMP/err"; }; then
        PASSES=$((PASSES + 1))
      else
        echo "FAIL: $net queue_at=$qa protocol=$pr: status $st"; cat "$TMP/err"
        FAILS=$((FAILS + 1))
      fi
    done
  done
  # threads: the serial bytes
  for qa in input switch; do
    a=$("$RS" run $net switching=store_forward traffic=uniform per_input=8 queue_size=3 \
      queue_at=$qa seed=5 2>&1); b=$("$RS" run $net switching=store_forward traffic=uniform \
      per_input=8 queue_size=3 queue_at=$qa seed=5 threads=2 2>&1)
    if [ "$a" = "$b" ]; then PASSES=$((PASSES + 1)); else
      echo "FAIL: $net queue_at=$qa: threads=2 differs"; FAILS=$((FAILS + 1)); fi
  done
done

# open loop on a k-ary n-tree below saturation: every measured packet delivered
expect_lines run topology=kary_ntree k=4 n=3 switching=store_forward queue_size=4 \
  injection_process=bernoulli injection_rate=0.2 warmup_steps=200 measure_steps=600 \
  drain_steps=600 seed=2 check=1 -- '^saturated +0$'
finish
