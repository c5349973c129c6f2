#!/usr/bin/env bash
# One circuit-switching run on several threads (threads=T, issue 23): the output (stdout,
# stderr, exit status) is byte-identical at threads=1, 2 and 3 for runs large enough that
# every thread has requests and channels are contested: butterflies and Beneš networks
# (hop by hop), LCANs of every form with each up and down policy, plans (algorithm=offline),
# meshes and tori with Valiant paths (every hop at once), one pass with drops, circuits=2,
# down=rank, batch and open loop at several loads, and runs with the invariant checker after
# every cycle (check=1); and the errors met while the threads expand paths.
. "$(dirname "$0")/lib.bash"

OL="injection_process=bernoulli warmup_steps=50 measure_steps=200 drain_steps=100"
cases=(
  "topology=butterfly N=1024 traffic=randperm seed=1"
  "topology=butterfly N=1024 traffic=uniform per_input=3 seed=2"
  "topology=butterfly N=512 traffic=uniform passes=1 seed=3"
  "topology=butterfly N=512 traffic=randperm circuits=2 down=rank seed=4"
  "topology=butterfly N=256 traffic=uniform per_input=2 check=1 seed=5"
  "topology=benes N=512 traffic=randperm routing=valiant seed=1"
  "topology=benes N=256 traffic=randperm routing=ranade seed=2"
  "topology=lcan N=1024 d=4 u=2 traffic=randperm seed=1"
  "topology=lcan N=1024 d=4 u=2 pi=tree traffic=uniform per_input=2 down=lower_lca_first seed=2"
  "topology=lcan N=729 d=3 u=2 traffic=randperm up=random_per_permutation down=higher_lca_first seed=3"
  "topology=lcan N=1024 d=4 u=2 traffic=randperm up=fixed circuits=2 down=rank seed=4"
  "topology=lcan N=256 d=4 u=2 pi=tree traffic=randperm check=1 seed=5"
  "topology=cm5 N=1024 traffic=randperm seed=6"
  "topology=lcan N=256 d=4 u=2 traffic=randperm algorithm=offline seed=7"
  "topology=lcan N=256 d=4 u=2 traffic=randperm algorithm=offline check=1 seed=8"
  "topology=mesh k=24 traffic=randperm seed=1"
  "topology=mesh k=16 traffic=uniform per_input=2 check=1 seed=2"
  "topology=torus k=12 traffic=randperm routing=valiant seed=3"
  "topology=torus k=10 traffic=uniform circuits=2 down=rank check=1 seed=4"
  "topology=butterfly N=1024 $OL injection_rate=0.1 seed=1"
  "topology=butterfly N=512 $OL injection_rate=0.5 passes=3 seed=2"
  "topology=butterfly N=256 $OL injection_rate=0.3 check=1 seed=3"
  "topology=lcan N=1024 d=4 u=2 $OL injection_rate=0.3 seed=1"
  "topology=lcan N=256 d=4 u=2 pi=tree $OL injection_rate=0.6 down=rank check=1 seed=2"
  "topology=mesh k=16 $OL injection_rate=0.05 seed=1"
  "topology=mesh k=12 $OL injection_rate=0.2 passes=2 check=1 seed=2"
  "topology=torus k=8 routing=valiant $OL injection_rate=0.1 seed=3"
)
for c in "${cases[@]}"; do
  # shellcheck disable=SC2086 # the configuration is a list of key=value words
  { "$RS" run $c switching=circuit --format csv 2>&1; echo "rc=$?"; } >"$TMP/t1"
  if ! grep -q '^rc=0$' "$TMP/t1"; then
    echo "FAIL: routesim run $c switching=circuit did not run:"; head -3 "$TMP/t1"
    FAILS=$((FAILS + 1))
    continue
  fi
  for T in 2 3; do
    # shellcheck disable=SC2086 # the configuration is a list of key=value words
    threads_same "$T" $c switching=circuit
  done
done
# errors found while the threads expand the paths: the first failing message in order
for c in "topology=butterfly N=64 wrap=1 routing=valiant seed=2" \
         "topology=butterfly N=64 wrap=1 routing=valiant seed=3 injection_process=bernoulli injection_rate=0.2"; do
  # shellcheck disable=SC2086
  { "$RS" run $c switching=circuit 2>&1; echo "rc=$?"; } >"$TMP/t1"
  if ! grep -q 'more than circuits=1 times' "$TMP/t1"; then
    echo "FAIL: routesim run $c switching=circuit: no error:"; head -3 "$TMP/t1"
    FAILS=$((FAILS + 1))
  fi
  for T in 2 3; do
    # shellcheck disable=SC2086
    { "$RS" run $c switching=circuit threads=$T 2>&1; echo "rc=$?"; } >"$TMP/t$T"
    if cmp -s "$TMP/t1" "$TMP/t$T"; then PASSES=$((PASSES + 1)); else
      echo "FAIL: routesim run $c switching=circuit: threads=$T differs:"; diff "$TMP/t1" "$TMP/t$T" | head -4
      FAILS=$((FAILS + 1)); fi
  done
done
# the cases contend (a test of nothing otherwise): the first needs several cycles and has
# conflicts, the mesh too
for c in "${cases[0]}" "${cases[15]}" "${cases[19]}"; do
  # shellcheck disable=SC2086
  "$RS" run $c switching=circuit --format csv >"$TMP/a.csv"
  conf=$(awk -F, -v c="$(csvcol conflicts "$TMP/a.csv")" 'NR==2{print $c}' "$TMP/a.csv")
  if [ "${conf:-0}" -gt 100 ]; then PASSES=$((PASSES + 1)); else
    echo "FAIL: conflicts=$conf in $c"; FAILS=$((FAILS + 1)); fi
done
# threads is not a column
if head -1 "$TMP/a.csv" | tr ',' '\n' | grep -qx threads; then
  echo "FAIL: threads is a column"; FAILS=$((FAILS + 1)); else PASSES=$((PASSES + 1)); fi
finish
