#!/usr/bin/env bash
# `make bench-large` (issue 23, item 4): the store-and-forward engine on the butterfly at the
# large sizes that `make bench` leaves out, one packet per input, queues of 2, FIFO, seed 1.
# Each size runs in its own process under /usr/bin/time -v; a Markdown row per size gives
# N, packet-hops (the `hops` field of the record), wall seconds, packet-hops/s and peak RSS.
# Sizes: BENCH_LARGE_N (default "16777216 67108864", i.e. 2^24 and 2^26). A size whose run
# fails (for instance out of memory) gets a row saying so with its exit status.
# Run it on an otherwise idle machine: it is not part of `make test`.
set -u
build=${1:-build}
bin="$build/routesim"
sizes=${BENCH_LARGE_N:-16777216 67108864}
echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
echo "commit:  $(git describe --always --dirty 2>/dev/null || echo unknown)"
echo "date:    $(date -u +%Y-%m-%d)"
echo
echo "| N | packet-hops | wall s | packet-hops/s | peak RSS MiB | exit |"
echo "|---|---|---|---|---|---|"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in $sizes; do
  /usr/bin/time -v -o "$tmp/time" "$bin" run topology=butterfly N="$n" traffic=uniform \
    per_input=1 queue_size=2 seed=1 --format csv >"$tmp/out" 2>"$tmp/err"
  rc=$?
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
    for (i = 1; i <= n; i++) s = s * 60 + t[i]; printf "%.2f", s }' "$tmp/time")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$tmp/time")
  hops=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "hops") c = i }
    NR == 2 && c { print $c }' "$tmp/out")
  if [ "$rc" = 0 ] && [ -n "$hops" ]; then
    rate=$(awk -v h="$hops" -v w="$wall" 'BEGIN { printf "%.1f M", (w > 0 ? h / w / 1e6 : 0) }')
  else
    rate="failed: $(head -1 "$tmp/err")"
  fi
  echo "| $n | ${hops:--} | ${wall:--} | $rate | ${rss:--} | $rc |"
done
