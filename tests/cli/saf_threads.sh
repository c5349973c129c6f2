#!/usr/bin/env bash
# One store-and-forward run on several threads (threads=T, issue 23): the output (stdout,
# stderr, exit status) is byte-identical at threads=1, 2, 3 and 4. First for runs large
# enough that every thread decides nodes in most steps (at least 32 active nodes per thread;
# docs/model-saf.md, "Threads"): butterflies, Beneš networks (Valiant, Ranade), LCANs,
# meshes and tori (Valiant through terminals: the stores of phase A), every protocol, every
# queue placement, on_full=drop, queue_threshold, the invariant checker, batch and open loop.
# Output and switch queues run the step of src/engine/saf_par_out.c (admissions per queue
# in the feeders' order, or by rank): the cases after the first block cover each protocol,
# block and drop, queue_threshold, unbounded queues, Valiant with phase-A stores, the
# checker, batch and open loop, on 2^12-input butterflies, 32x32 meshes and tori, so that
# most steps split.
# Then every run of tests/data/saf_same.txt (the 168 pinned runs of saf_same.sh) at
# threads=2 and 3 against its recorded hash.
. "$(dirname "$0")/lib.bash"

OL="injection_process=bernoulli warmup_steps=50 measure_steps=200 drain_steps=100"
OLS="injection_process=bernoulli warmup_steps=20 measure_steps=60 drain_steps=40"
cases=(
  "topology=butterfly N=4096 traffic=uniform per_input=4 queue_size=2 seed=1"
  "topology=butterfly N=2048 traffic=randperm queue_size=1 protocol=random seed=2"
  "topology=butterfly N=2048 traffic=uniform per_input=3 queue_size=2 protocol=priority seed=3"
  "topology=butterfly N=2048 traffic=uniform per_input=3 queue_size=1 protocol=furthest_first seed=4"
  "topology=butterfly N=2048 traffic=uniform per_input=3 queue_size=2 protocol=rank seed=5"
  "topology=butterfly N=2048 traffic=uniform per_input=3 queue_size=1 on_full=drop seed=6"
  "topology=butterfly N=2048 traffic=uniform per_input=3 queue_size=1 protocol=rank on_full=drop seed=7"
  "topology=butterfly N=2048 traffic=uniform per_input=3 queue_size=0 queue_threshold=1 seed=8"
  "topology=butterfly N=2048 traffic=uniform per_input=3 queue_size=2 queue_at=output seed=9"
  "topology=butterfly N=2048 traffic=uniform per_input=3 queue_size=2 queue_at=switch seed=10"
  "topology=butterfly N=2048 traffic=uniform per_input=3 queue_size=2 queue_at=output protocol=rank seed=11"
  "topology=butterfly N=2048 traffic=uniform per_input=3 queue_size=2 queue_at=switch protocol=rank on_full=drop seed=12"
  "topology=butterfly N=1024 traffic=uniform per_input=2 queue_size=1 check=1 seed=13"
  "topology=benes N=2048 traffic=randperm routing=valiant queue_size=2 seed=1"
  "topology=benes N=2048 traffic=bitrev routing=ranade protocol=rank on_full=drop queue_size=1 seed=2"
  "topology=lcan N=1024 d=4 u=2 traffic=randperm queue_size=2 seed=1"
  "topology=lcan N=1024 d=4 u=2 traffic=uniform per_input=2 queue_size=1 protocol=random seed=2"
  "topology=mesh k=24 traffic=uniform per_input=2 queue_size=2 seed=1"
  "topology=mesh k=24 traffic=randperm routing=valiant queue_size=2 seed=2"
  "topology=torus k=16 traffic=uniform per_input=2 queue_size=2 routing=valiant seed=3"
  "topology=torus k=16 traffic=randperm queue_size=2 protocol=rank on_full=drop check=1 seed=4"
  "topology=butterfly N=2048 $OL injection_rate=0.3 queue_size=2 seed=1"
  "topology=butterfly N=1024 $OL injection_rate=0.6 queue_size=1 protocol=rank on_full=drop seed=2"
  "topology=mesh k=16 $OL injection_rate=0.2 queue_size=2 routing=valiant seed=3"
  "topology=lcan N=1024 d=4 u=2 $OL injection_rate=0.3 queue_size=2 check=1 seed=4"
  # output and switch queues, other protocols (saf_par_out.c)
  "topology=butterfly N=4096 traffic=uniform per_input=4 queue_size=2 queue_at=output protocol=random seed=21"
  "topology=butterfly N=4096 traffic=uniform per_input=4 queue_size=1 queue_at=switch protocol=priority on_full=drop seed=22"
  "topology=butterfly N=4096 traffic=uniform per_input=4 queue_size=1 queue_at=output protocol=furthest_first on_full=drop seed=23"
  "topology=butterfly N=4096 traffic=uniform per_input=3 queue_size=2 queue_at=switch protocol=furthest_first seed=24"
  "topology=butterfly N=4096 traffic=uniform per_input=3 queue_threshold=1 queue_at=switch protocol=random seed=25"
  "topology=butterfly N=4096 traffic=uniform per_input=3 queue_threshold=0 queue_at=output on_full=drop seed=26"
  "topology=butterfly N=2048 traffic=uniform per_input=3 queue_at=output protocol=priority seed=27"
  "topology=benes N=2048 traffic=randperm routing=valiant queue_size=2 queue_at=switch protocol=random seed=28"
  "topology=mesh k=32 traffic=uniform per_input=2 queue_size=2 queue_at=output check=1 seed=30"
  "topology=mesh k=32 traffic=randperm routing=valiant queue_size=4 queue_at=output protocol=furthest_first seed=31"
  "topology=torus k=32 traffic=uniform per_input=2 queue_size=2 queue_at=switch on_full=drop routing=valiant seed=32"
  "topology=torus k=32 traffic=uniform per_input=2 queue_size=1 queue_at=output protocol=priority on_full=drop routing=valiant seed=33"
  "topology=lcan N=1024 d=4 u=2 traffic=uniform per_input=2 queue_size=1 queue_at=output protocol=random on_full=drop seed=34"
  "topology=butterfly N=4096 $OLS injection_rate=0.3 queue_size=2 queue_at=output protocol=random seed=35"
  "topology=butterfly N=4096 $OLS injection_rate=0.5 queue_size=1 queue_at=switch on_full=drop protocol=furthest_first seed=36"
  "topology=mesh k=32 $OLS injection_rate=0.1 queue_size=2 queue_at=output routing=valiant on_full=drop seed=37"
  "topology=torus k=32 $OLS injection_rate=0.2 queue_size=2 queue_at=switch protocol=priority on_full=drop check=1 seed=38"
  # protocol=rank with output and switch queues (batch: the admission by rank per queue)
  "topology=butterfly N=4096 traffic=uniform per_input=4 queue_size=1 queue_at=switch protocol=rank seed=42"
  "topology=butterfly N=4096 traffic=uniform per_input=4 queue_size=2 queue_at=output protocol=rank on_full=drop rank_levels=2 seed=44"
  "topology=butterfly N=4096 traffic=uniform per_input=4 queue_threshold=1 queue_at=switch protocol=rank seed=45"
  "topology=benes N=2048 traffic=randperm routing=valiant protocol=rank queue_size=2 queue_at=output seed=48"
  "topology=torus k=32 traffic=uniform per_input=2 queue_size=2 queue_at=switch protocol=rank on_full=drop routing=valiant check=1 seed=49"
  "topology=mesh k=32 traffic=uniform per_input=2 queue_size=2 queue_at=output protocol=rank routing=valiant seed=50"
  "topology=butterfly N=4096 $OLS injection_rate=0.4 queue_size=1 queue_at=switch protocol=rank on_full=drop seed=51"
)
for c in "${cases[@]}"; do
  # shellcheck disable=SC2086 # the configuration is a list of key=value words
  { "$RS" run $c --format csv 2>&1; echo "rc=$?"; } >"$TMP/t1"
  if ! grep -q '^rc=0$' "$TMP/t1"; then
    echo "FAIL: routesim run $c did not run:"; head -3 "$TMP/t1"
    FAILS=$((FAILS + 1))
    continue
  fi
  for T in 2 3 4; do
    # shellcheck disable=SC2086 # the configuration is a list of key=value words
    threads_same "$T" $c
  done
done
# the cases move packets and contend (a test of nothing otherwise): the first, the Valiant
# mesh and the output- and switch-queue butterflies wait in queues, the drop cases drop
for i in 0 5 18 25 26 27 28; do
  # shellcheck disable=SC2086
  "$RS" run ${cases[$i]} --format csv >"$TMP/a.csv"
  row=$(sed -n 2p "$TMP/a.csv")
  hops=$(echo "$row" | cut -d, -f"$(csvcol hops "$TMP/a.csv")")
  mq=$(echo "$row" | cut -d, -f"$(csvcol max_queue "$TMP/a.csv")")
  dr=$(echo "$row" | cut -d, -f"$(csvcol dropped "$TMP/a.csv")")
  case $i in 5 | 26 | 27) want_drop=1 ;; *) want_drop=0 ;; esac
  if [ "${hops:-0}" -gt 1000 ] && [ "${mq:-0}" -ge 1 ] &&
    { [ "$want_drop" = 0 ] || [ "${dr:-0}" -gt 0 ]; }; then
    PASSES=$((PASSES + 1))
  else
    echo "FAIL: ${cases[$i]}: hops=$hops max_queue=$mq dropped=$dr"; FAILS=$((FAILS + 1))
  fi
done
# with the event log the run takes one thread: the same record and the same log
ev="topology=butterfly N=1024 traffic=uniform per_input=2 queue_size=1 seed=5"
for T in 1 2; do
  # shellcheck disable=SC2086
  { "$RS" run $ev threads=$T --events "$TMP/ev$T.csv" 2>&1; echo "rc=$?"; } >"$TMP/r$T"
done
if cmp -s "$TMP/r1" "$TMP/r2" && cmp -s "$TMP/ev1.csv" "$TMP/ev2.csv" && [ -s "$TMP/ev1.csv" ]; then
  PASSES=$((PASSES + 1))
else
  echo "FAIL: routesim run $ev --events: threads=2 differs from threads=1"; FAILS=$((FAILS + 1))
fi
# threads is not a column
if head -1 "$TMP/a.csv" | tr ',' '\n' | grep -qx threads; then
  echo "FAIL: threads is a column"; FAILS=$((FAILS + 1)); else PASSES=$((PASSES + 1)); fi

# the pinned runs of saf_same.sh at threads=2 and 3 (hashing as saf_same.sh does)
same_runs "${RS_TEST_DATA:-$(dirname "$0")/../data}/saf_same.txt" 168 cut_arrivals \
  threads=2 threads=3
finish
