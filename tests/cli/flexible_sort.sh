#!/usr/bin/env bash
# algorithm=flexible_sort (000 §4.1) from the command line: the hand-worked bit-step count of
# tests/algo/test_flexible_sort.c, `list` and `help`, refused keys (exit 2, one line; analyze
# and network keys), and a sweep over r with identical times for every keys=.
. "$(dirname "$0")/lib.bash"

expect_ok '"bit_steps":376,"phases":4,"perm_steps":4,"column_sorts":8,' \
  run algorithm=flexible_sort b=8 s=4 r=8 --format json
expect_ok '^  flexible_sort +the \(b,s,l\)-flexible sorter' list
expect_ok 'keys +choice' help flexible_sort

expect_fail 2 "^routesim: key 's': expected a power of two, got 12$" run algorithm=flexible_sort s=12
expect_fail 2 "key 'r': expected r >= s=16" run algorithm=flexible_sort r=8
expect_fail 2 "key 'b'" run algorithm=flexible_sort b=0
expect_fail 2 "unknown key 'keyz'.*did you mean 'keys'" run algorithm=flexible_sort keyz=sorted
expect_fail 2 "unknown key 'topology'.*self-contained model" run algorithm=flexible_sort topology=mesh
expect_fail 2 "no network to analyze" analyze algorithm=flexible_sort

printf 'algorithm = flexible_sort\ns = 16\nr = 16,64,256\nkeys = random,adversarial\nruns = 2\n' >"$TMP/f.ini"
if "$RS" sweep -c "$TMP/f.ini" -o "$TMP/f.csv" 2>/dev/null &&
   [ "$(cut -d, -f8 "$TMP/f.csv" | sed -n '2p;3p' | sort -u | wc -l)" = 1 ]; then
  PASSES=$((PASSES + 1))
else
  echo "FAIL: sweep of flexible_sort"; cat "$TMP/f.csv"; FAILS=$((FAILS + 1))
fi
finish
