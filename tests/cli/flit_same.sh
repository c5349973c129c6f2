#!/usr/bin/env bash
# The flit engines give the same bytes as before their speed work (issue 21: the path cache,
# the step's counters; issue 23: threads): every run listed in tests/data/flit_same.txt
# (mesh, torus, ring, butterfly, k-ary n-fly, dragonfly, k-ary n-tree, Beneš, LCAN, fat-tree
# and cms_lower_bound; the four switching models, link=shared, collapse, on_delay=discard;
# dateline and partition classes; direct, yx, Valiant, Ranade and the adaptive routings;
# batch and open loop, several seeds; deadlocks; the algorithms that drive a flit engine)
# must print exactly what the base commit printed, its stdout, stderr and exit status hashing
# to the recorded value, at threads=1 (the default) and at threads=2.
. "$(dirname "$0")/lib.bash"

list="${RS_TEST_DATA:-$(dirname "$0")/../data}/flit_same.txt"
runs=0
while read -r want config; do
  case $want in '#'*|'') continue ;; esac
  runs=$((runs + 1))
  for threads in "" " threads=2"; do
    # shellcheck disable=SC2086 # the configuration is a list of key=value words
    got=$( { "$RS" run $config$threads --format csv 2>&1; echo "rc=$?"; } | sha256sum | cut -c1-16)
    if [ "$got" != "$want" ]; then
      echo "FAIL: routesim run $config$threads --format csv: output hash $got, base commit's $want; output:"
      # shellcheck disable=SC2086
      "$RS" run $config$threads --format csv 2>&1 | head -5
      FAILS=$((FAILS + 1))
    else
      PASSES=$((PASSES + 1))
    fi
  done
done < "$list"
# the list itself must be there and complete, or the loop above proves nothing
if [ "$runs" -lt 218 ]; then
  echo "FAIL: $list has $runs runs (want 218)"; FAILS=$((FAILS + 1))
fi
finish
