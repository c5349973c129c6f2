#!/usr/bin/env bash
# Congestion counted by the store-and-forward engine during the run (a byte per channel and,
# past 255 crossings, an overflow table: src/engine/saf_load.c) equals the static analysis's
# count over the expanded routes (`routesim analyze`), including loads past 255 (N=16 with
# 1000 or 5000 packets per input: every channel overflows, so the table grows several
# times) and a hot spot (every packet to terminal 0).
. "$(dirname "$0")/lib.bash"

col() { # col NAME: the column NAME of the CSV record on stdin
  awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i } NR == 2 && c { print $c }'
}
for config in "topology=butterfly N=16 traffic=uniform per_input=1000 queue_size=4 seed=2" \
              "topology=butterfly N=16 traffic=uniform per_input=5000 queue_size=2 seed=3" \
              "topology=butterfly N=64 traffic=hotspot hotspot_fraction=1 per_input=8 queue_size=2 seed=1" \
              "topology=mesh k=6 traffic=uniform per_input=300 queue_size=0 seed=4" \
              "topology=butterfly N=256 traffic=uniform per_input=2 queue_size=2 seed=5"; do
  # shellcheck disable=SC2086 # a list of key=value words
  got=$("$RS" run $config --format csv 2>&1 | col congestion)
  # shellcheck disable=SC2086
  want=$("$RS" analyze ${config% queue_size=*} ${config##* } --format csv 2>&1 | col congestion)
  if [ -z "$got" ] || [ "$got" != "$want" ]; then
    echo "FAIL: routesim run $config: congestion '$got', analyze says '$want'"
    FAILS=$((FAILS + 1))
  else
    PASSES=$((PASSES + 1))
  fi
done
# the loads really pass 255 (the overflow table is exercised)
got=$("$RS" run topology=butterfly N=16 traffic=uniform per_input=5000 queue_size=2 seed=3 --format csv | col congestion)
if [ "${got:-0}" -le 255 ]; then
  echo "FAIL: congestion $got, want > 255"; FAILS=$((FAILS + 1))
else
  PASSES=$((PASSES + 1))
fi
finish
