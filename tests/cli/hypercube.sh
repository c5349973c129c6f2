#!/usr/bin/env bash
# topology=hypercube is the binary n-cube: the mesh with k = 2 under another name. Every
# engine (store-and-forward with each queue placement, wormhole on both router models,
# circuits, open loop) gives the mesh's bytes below the topology's own key lines; the
# 10-cube's counts, a Valiant run's deliveries and the bit-reversal's dilation n; bad keys.
. "$(dirname "$0")/lib.bash"

# same_as_mesh ARGS...: the run on hypercube n=D and on mesh k=2 n=D print the same lines
# once the topology lines (topology, n, and the mesh's k) are left out.
same_as_mesh() {
  local d=$1; shift
  "$RS" run topology=hypercube n="$d" "$@" >"$TMP/cube" 2>&1
  local a=$?
  "$RS" run topology=mesh k=2 n="$d" "$@" >"$TMP/mesh" 2>&1
  local b=$?
  if [ "$a" != 0 ] || [ "$b" != 0 ] ||
     ! diff <(grep -Ev '^(topology|n|k) ' "$TMP/cube") <(grep -Ev '^(topology|n|k) ' "$TMP/mesh") >/dev/null ||
     ! grep -Eq '^topology +hypercube$' "$TMP/cube"; then
    echo "FAIL: hypercube n=$d $* differs from mesh k=2 n=$d (status $a, $b)"
    diff "$TMP/cube" "$TMP/mesh" | head -10
    FAILS=$((FAILS + 1))
  else
    PASSES=$((PASSES + 1))
  fi
}

same_as_mesh 8 traffic=randperm seed=3
same_as_mesh 8 traffic=randperm routing=valiant queue_size=2 protocol=random seed=4
same_as_mesh 6 traffic=uniform per_input=4 queue_at=output queue_size=1 on_full=drop seed=5
same_as_mesh 6 traffic=bitrev switching=wormhole vcs=2 length=4 per_input=2 seed=6
same_as_mesh 6 traffic=uniform switching=wormhole routing=min_adaptive vcs=3 length=4 per_input=3 seed=7
same_as_mesh 5 traffic=uniform switching=wormhole router=iq vcs=2 vc_depth=4 length=4 \
  injection_process=bernoulli injection_rate=0.1 injection_rate_uses_flits=1 \
  warmup_steps=200 measure_steps=400 drain_steps=400 seed=8
same_as_mesh 7 traffic=randperm switching=circuit seed=9

# the hypercube's own numbers: 2^n nodes, n 2^n channels, diameter n
expect_ok '^nodes +1024$' topo topology=hypercube n=10
expect_ok '^channels +10240$' topo topology=hypercube n=10
expect_ok '^delivered +1024$' run topology=hypercube n=10 traffic=randperm routing=valiant seed=1
expect_ok '^dilation +10$' run topology=hypercube n=10 traffic=bitrev
expect_fail 2 "key 'n': expected an integer in \\[1, 26\\], got '27'" run topology=hypercube n=27
expect_fail 2 "unknown key 'k' for topology=hypercube" run topology=hypercube k=4
finish
