#!/usr/bin/env bash
# `make run`: the main job. Until the experiment layer exists it runs a short tour: greedy
# FIFO routing of random problems on butterflies of growing size (004 §2), the congestion of
# bit-reversal, and direct vs Valiant routing of a fixed permutation.
set -euo pipefail
rs=${1:-build/routesim}

# field NAME: the value of column NAME in a one-row CSV read from stdin.
field() { awk -F, -v k="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==k) c=i; next} {print $c}'; }

echo "== greedy FIFO, random destinations, queue_size=2 (Maggs & Sitaraman 004 §2.1) =="
printf '%9s %9s %10s %15s\n' N makespan max_queue makespan/log2N
for n in 4 6 8 10 12 14 16; do
  csv=$("$rs" run topology=butterfly N=2^$n traffic=uniform queue_size=2 seed=1 --format csv)
  mk=$(field makespan <<<"$csv")
  printf '%9d %9d %10d %15.2f\n' $((1 << n)) "$mk" "$(field max_queue <<<"$csv")" \
    "$(awk -v a="$mk" -v b="$n" 'BEGIN{print a/b}')"
done
echo
echo "== bit-reversal on N=1024: congestion and per-level load (no simulation) =="
"$rs" analyze topology=butterfly N=1024 traffic=bitrev
echo
echo "== bit-reversal on N=4096, queue_size=2: direct vs Valiant (wrapped butterfly, 004 §2.2) =="
printf '%9s %9s %11s %9s\n' routing makespan congestion dilation
for r in direct valiant; do
  csv=$("$rs" run topology=butterfly N=4096 wrap=1 traffic=bitrev queue_size=2 routing=$r --format csv)
  printf '%9s %9s %11s %9s\n' "$r" "$(field makespan <<<"$csv")" "$(field congestion <<<"$csv")" \
    "$(field dilation <<<"$csv")"
done
