#!/usr/bin/env bash
# Metrics: `list metrics` and `help METRIC` print the table; docs/metrics.md names every
# metric it lists; a deadlocked run prints latency nan, never 0; unknown metrics in [plot]
# are refused, with a suggestion, before anything runs.
. "$(dirname "$0")/lib.bash"
DOCS="$(dirname "$0")/../../docs/metrics.md"

expect_ok '^  latency_p99 +real, steps; from ' list metrics
expect_ok '^  cycles +int, cycles; from circuit' list metrics
expect_ok '^  makespan ' list
expect_ok '^metric latency_p99 \(steps, number' help latency_p99
expect_ok '^metric level3_max \(messages' help level3_max
expect_fail 2 "unknown list 'metric' \(did you mean 'metrics'\?\)" list metric

# every metric of the table has its row in docs/metrics.md
"$RS" list metrics | sed -nE 's/^  ([a-z0-9_<>]+) .*/\1/p' >"$TMP/names"
[ "$(wc -l <"$TMP/names")" -gt 60 ] || { echo "FAIL: list metrics printed too few"; FAILS=$((FAILS + 1)); }
while read -r m; do
  if grep -qF "| \`$m\` |" "$DOCS"; then PASSES=$((PASSES + 1)); else echo "FAIL: docs/metrics.md lacks $m"; FAILS=$((FAILS + 1)); fi
done <"$TMP/names"
# and names no metric the table lacks
sed -nE 's/^\| `([a-z0-9_<>]+)` \|.*/\1/p' "$DOCS" >"$TMP/documented"
while read -r m; do
  if grep -qxF "$m" "$TMP/names"; then PASSES=$((PASSES + 1)); else echo "FAIL: docs/metrics.md documents unknown $m"; FAILS=$((FAILS + 1)); fi
done <"$TMP/documented"

# a deadlock (tornado on a ring, one VC: docs/model-flit.md) delivers nothing: latency nan
"$RS" run topology=ring k=8 traffic=tornado switching=wormhole >"$TMP/out" 2>"$TMP/err"
st=$?
if [ "$st" = 1 ] && grep -Eq '^latency_mean +nan$' "$TMP/out" && grep -Eq '^latency_max +nan$' "$TMP/out" &&
   ! grep -Eq '^latency_[a-z0-9]+ +0$' "$TMP/out" && grep -q 'deadlock at step 2' "$TMP/err"; then
  PASSES=$((PASSES + 1))
else
  echo "FAIL: deadlocked run: status $st"; cat "$TMP/out" "$TMP/err"; FAILS=$((FAILS + 1))
fi
"$RS" run topology=ring k=8 traffic=tornado switching=wormhole --format json >"$TMP/out" 2>/dev/null
grep -q '"latency_mean":null,"latency_p99":null,"latency_max":null' "$TMP/out" &&
  PASSES=$((PASSES + 1)) || { echo "FAIL: json latency of a deadlock is not null"; FAILS=$((FAILS + 1)); }

# the circuit engine reports makespan and latency like the others
expect_ok '"cycles":1,"makespan":1,.*"latency_mean":1,"latency_p99":1,"latency_max":1,' run topology=butterfly N=8 traffic=identity switching=circuit --format json

# [plot] metrics are checked before the sweep runs: nothing written
printf 'topology = butterfly\nN = 8, 16\nruns = 2\n[plot]\ny = makespan, latncy_p99\n' >"$TMP/p.ini"
expect_fail 2 "p.ini:5: \[plot\] key 'y': unknown metric 'latncy_p99' \(did you mean 'latency_p99'\?\)" sweep -c "$TMP/p.ini" -o "$TMP/p.csv" --plot "$TMP/p.svg"
[ ! -e "$TMP/p.csv" ] && PASSES=$((PASSES + 1)) || { echo "FAIL: the sweep ran"; FAILS=$((FAILS + 1)); }
printf 'topology = butterfly\nN = 8, 16\nruns = 2\n[plot]\ny = makespan_mean, delivered\n' >"$TMP/q.ini"
"$RS" sweep -c "$TMP/q.ini" -o "$TMP/q.csv" 2>/dev/null && PASSES=$((PASSES + 1)) || { echo "FAIL: sweep of q.ini"; FAILS=$((FAILS + 1)); }
finish
