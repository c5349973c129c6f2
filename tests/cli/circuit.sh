#!/usr/bin/env bash
# LCANs and circuit switching from the command line: the issue's acceptance commands (every
# LCAN form, named instances, DOT), traffic=root and BPC on LCAN terminals, the one-pass
# butterfly and Ranade's first stage, analyze predict=lcan, sweeps of circuit runs, and the
# errors (one line, exit 2).
. "$(dirname "$0")/lib.bash"

# Acceptance: cycles and delivered per cycle in JSON for every LCAN form.
for t in "topology=lcan N=64 d=4 u=4" "topology=lcan N=64 d=4 u=2 pi=tree" \
         "topology=lcan N=64 d=4 u=2" "topology=lcan N=64 d=4,4,4 u=2,2,4" \
         "topology=baseline N=64" "topology=swbanyan N=64 f=4 s=2" "topology=trac N=81" \
         "topology=cm5 N=256"; do
  expect_ok '^\{.*"cycles":[0-9]+,.*"delivered_per_cycle":"[0-9;]+"' run $t traffic=randperm switching=circuit --format json
done
expect_ok '"delivered":64,' run topology=lcan N=64 d=4 u=4 traffic=randperm switching=circuit --format json
expect_ok '^digraph "lcan" \{' topo topology=lcan N=27 d=3 u=2 --dot
expect_ok 'n4 \[label="011"\];' topo topology=lcan N=27 d=3 u=2 --dot
expect_ok 'rank=same; n36; n37; n38; n39;' topo topology=lcan N=27 d=3 u=2 --dot
expect_ok '^nodes +46$' topo topology=lcan N=27 d=3 u=2
expect_ok '^channels +114$' topo topology=lcan N=27 d=3 u=2
expect_ok '^digraph "cm5"' topo topology=cm5 N=64 --dot

# Workloads on LCAN terminals: root, BPC (a power of two only), random permutations.
expect_ok '^delivered +81$' run topology=trac N=81 traffic=root switching=circuit
expect_ok '^delivered +64$' run topology=lcan N=64 d=4 u=4 traffic=bpc switching=circuit
expect_fail 2 '^routesim: traffic=bpc needs N a power of two \(got N=27\)$' run topology=trac N=27 traffic=bpc switching=circuit
expect_fail 2 'traffic=root needs an LCAN' run topology=butterfly traffic=root

# The one-pass butterfly (BBN, 004 §5) and back-to-back butterflies with Ranade's stage.
expect_ok '"cycles":1,.*"dropped":[1-9]' run topology=butterfly N=256 traffic=uniform switching=circuit passes=1 --format json
expect_ok '"ranks_used":3,' run topology=benes N=256 traffic=bitrev switching=circuit passes=1 circuits=2 routing=ranade down=rank --format json

# The predictor, in analyze and beside a run's measurement (after its metrics).
expect_ok '^predicted_first_cycle +10.9375$' analyze topology=lcan N=16 d=4 u=4 traffic=root predict=lcan
expect_ok '"dilation":[0-9]+,"predicted_cycles":2.5696[0-9]*,"predicted_first_cycle":10.9375,' run topology=lcan N=16 d=4 u=4 traffic=root switching=circuit predict=lcan --format json
expect_fail 2 "unknown value 'lcna' for key 'predict'" run topology=lcan N=16 d=4 u=4 switching=circuit predict=lcna
expect_fail 2 'predict=lcan is the recurrence of CB-LCANs' run topology=butterfly N=16 switching=circuit predict=lcan
expect_fail 2 'predict=lcan is the recurrence of CB-LCANs' analyze topology=lcan N=16 d=4 u=2 pi=tree predict=lcan

# Bad LCANs name the rule; bad circuit options name the key.
expect_fail 2 'Corollary 1 of 002' run topology=lcan N=32 d=4 u=4 switching=circuit
expect_fail 2 'Corollary 2 of 002' topo topology=lcan N=24 d=4 u=2 pi=tree
expect_fail 2 'Theorem 1 of 002' topo topology=lcan N=64 d=4 u=2 l=6
expect_fail 2 "key 'd': expected an integer 2..1024" topo topology=lcan d=1
expect_fail 2 "unknown value 'randm' for key 'down' \(did you mean 'random'\?\)" run switching=circuit down=randm
expect_fail 2 'up=fixed chooses uppers on an LCAN' run topology=butterfly switching=circuit up=fixed
expect_fail 2 "key 'circuits'" run switching=circuit circuits=0

# Same seed, same bytes; the invariant checker passes on a larger run.
"$RS" run topology=cm5 N=1024 traffic=randperm switching=circuit seed=9 --format csv >"$TMP/a.csv"
"$RS" run topology=cm5 N=1024 traffic=randperm switching=circuit seed=9 --format csv >"$TMP/b.csv"
cmp -s "$TMP/a.csv" "$TMP/b.csv" || { echo "FAIL: same seed, different bytes"; FAILS=$((FAILS + 1)); }
expect_ok '^delivered +1024$' run topology=cm5 N=1024 traffic=randperm switching=circuit check=1

# A sweep of circuit runs: statistics of numbers; the per-cycle text only per run.
# u = 4,2 are two points; d = 4/4 is one per-level list (two levels of d = 4)
printf 'topology = lcan\nN = 16\nd = 4/4\nu = 4,2\ntraffic = root\nswitching = circuit\nruns = 3\n' >"$TMP/c.ini"
if "$RS" sweep -c "$TMP/c.ini" -o "$TMP/c.csv" --per-run "$TMP/r.csv" -j 2 2>/dev/null; then
  col=$(csvcol cycles_mean "$TMP/c.csv")
  [ -n "$col" ] && [ "$(wc -l <"$TMP/c.csv")" = 3 ] || { echo "FAIL: sweep statistics"; FAILS=$((FAILS + 1)); }
  [ -z "$(csvcol delivered_per_cycle_mean "$TMP/c.csv")" ] || { echo "FAIL: text metric averaged"; FAILS=$((FAILS + 1)); }
  [ -n "$(csvcol delivered_per_cycle "$TMP/r.csv")" ] || { echo "FAIL: per-run text metric missing"; FAILS=$((FAILS + 1)); }
else
  echo "FAIL: sweep of circuit runs"; FAILS=$((FAILS + 1))
fi
finish
