#!/usr/bin/env bash
# One flit run on several threads (threads=T, issue 23): the output (stdout, stderr, exit
# status) is byte-identical at threads=1, 2, 3 and 4 for runs large enough that every thread
# has worms to move and headers contest VCs: meshes, tori with dateline classes and Valiant
# routing, a k-ary n-fly, a dragonfly, the four switching models, discard on delay, variable
# lengths, a deadlock, and runs with the invariant checker after every step (check=1); and
# the adaptive routings, whose headers order their choices in the step's route phase:
# min_adaptive on a mesh and a torus, ugal_l, ugal_g (a 3-group dragonfly: 4 threads cut its
# groups, node_split.h) and par on dragonflies, ugal_l_sf on a Slim Fly, nca_adaptive on a
# k-ary n-tree, batch and open loop, with discards and collapse=1. threads is never a column,
# and out-of-range values are refused.
. "$(dirname "$0")/lib.bash"

OL="injection_process=bernoulli warmup_steps=100 measure_steps=400 drain_steps=200"
cases=(
  "topology=mesh k=16 switching=wormhole vcs=2 vc_depth=2 $OL injection_rate=0.3 seed=1"
  "topology=mesh k=16 switching=wormhole vcs=2 vc_depth=4 length=4 $OL injection_rate=0.1 injection_rate_uses_flits=1 seed=2"
  "topology=torus k=12 switching=wormhole vcs=2 vc_classes=dateline $OL injection_rate=0.4 seed=3"
  "topology=torus k=8 switching=wormhole vcs=4 vc_classes=dateline routing=valiant $OL injection_rate=0.3 seed=1"
  "topology=torus k=8 switching=wormhole vcs=2 vc_classes=partition traffic=uniform per_input=4 seed=2"
  "topology=mesh k=16 switching=virtual_cut_through vcs=2 traffic=uniform per_input=6 seed=2"
  "topology=mesh k=12 switching=virtual_cut_through vcs=1 collapse=1 $OL injection_rate=0.5 length=2 length_max=8 seed=3"
  "topology=mesh k=16 switching=store_forward_flits vcs=2 traffic=transpose per_input=3 seed=3"
  "topology=mesh k=16 switching=wormhole vcs=2 on_delay=discard traffic=uniform per_input=6 seed=1"
  "topology=kary_nfly k=2 n=8 switching=wormhole vcs=2 vc_depth=4 $OL injection_rate=0.3 injection_rate_uses_flits=1 seed=2"
  "topology=dragonfly p=3 switching=wormhole vcs=2 $OL injection_rate=0.2 seed=1"
  "topology=torus k=8 switching=wormhole vcs=1 traffic=uniform per_input=8 seed=1"
  "topology=mesh k=8 switching=wormhole vcs=2 check=1 traffic=uniform per_input=4 seed=2"
  "topology=torus k=6 switching=wormhole vcs=2 vc_classes=dateline check=1 $OL injection_rate=0.3 seed=3"
  "topology=mesh k=16 switching=wormhole routing=min_adaptive vcs=3 vc_depth=2 length=4 $OL injection_rate=0.1 injection_rate_uses_flits=1 seed=1"
  "topology=torus k=10 switching=wormhole routing=min_adaptive vcs=3 traffic=uniform per_input=6 seed=2"
  "topology=dragonfly p=2 switching=wormhole routing=ugal_l vcs=3 vc_depth=2 $OL injection_rate=0.4 seed=1"
  "topology=dragonfly p=2 a=2 h=1 switching=wormhole routing=ugal_g vcs=3 length=3 traffic=uniform per_input=20 seed=3"
  "topology=dragonfly p=3 switching=wormhole routing=ugal_g vcs=6 $OL injection_rate=0.3 seed=2"
  "topology=dragonfly p=2 switching=virtual_cut_through routing=par vcs=4 traffic=group_shift per_input=6 seed=1"
  "topology=slimfly q=5 switching=wormhole routing=ugal_l_sf vcs=4 vc_depth=4 length=4 $OL injection_rate=0.1 injection_rate_uses_flits=1 seed=1"
  "topology=kary_ntree k=4 n=3 switching=wormhole routing=nca_adaptive vcs=2 $OL injection_rate=0.4 seed=2"
  "topology=mesh k=12 switching=wormhole routing=min_adaptive vcs=3 on_delay=discard length=4 traffic=uniform per_input=6 seed=1"
  "topology=slimfly q=5 switching=wormhole routing=ugal_l_sf vcs=4 on_delay=discard length=3 traffic=uniform per_input=4 seed=2"
  "topology=mesh k=8 switching=virtual_cut_through routing=min_adaptive vcs=2 collapse=1 length=4 check=1 traffic=uniform per_input=6 seed=3"
)
for c in "${cases[@]}"; do
  # shellcheck disable=SC2086 # the configuration is a list of key=value words
  { "$RS" run $c --format csv 2>&1; echo "rc=$?"; } >"$TMP/t1"
  for T in 2 3 4; do
    # shellcheck disable=SC2086 # the configuration is a list of key=value words
    threads_same "$T" $c
  done
done
# the cases move flits (a test of nothing otherwise): the first has flit_hops > 100000
"$RS" run ${cases[0]} --format csv >"$TMP/a.csv"
hops=$(awk -F, -v c="$(csvcol flit_hops "$TMP/a.csv")" 'NR==2{print $c}' "$TMP/a.csv")
if [ "${hops:-0}" -gt 100000 ]; then PASSES=$((PASSES + 1)); else
  echo "FAIL: flit_hops=$hops in the first case"; FAILS=$((FAILS + 1)); fi
# threads is not a column; 0 is refused
if head -1 "$TMP/a.csv" | tr ',' '\n' | grep -qx threads; then
  echo "FAIL: threads is a column"; FAILS=$((FAILS + 1)); else PASSES=$((PASSES + 1)); fi
expect_fail 2 'threads' run topology=mesh k=4 switching=wormhole threads=0
finish
