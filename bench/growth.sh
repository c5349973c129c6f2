#!/usr/bin/env bash
# `make bench-growth` (issue 23, item 4): how time and memory grow with the network size, per
# engine. Each engine runs the butterfly with one packet per input (uniform destinations,
# seed 1) at N = 2^12, 2^14, ..., in its own process under /usr/bin/time; a Markdown row per
# run gives hops, wall and CPU seconds and peak RSS. Then, per engine, a least-squares fit of
# log2(CPU seconds) and log2(peak RSS) against log2(N) over the largest three sizes gives the
# growth exponents, and the fit extrapolates to 2^24, 2^26 and 2^30 inputs.
# Sizes: GROWTH_SIZES (default "12 14 16 18 20", exponents of 2). Engines: GROWTH_ENGINES
# (default "saf flit circuit"). Not part of `make test`; run it on an otherwise idle machine
# (CPU seconds are less sensitive to other load than wall seconds, but not immune to it).
set -u
build=${1:-build}
bin="$build/routesim"
sizes=${GROWTH_SIZES:-12 14 16 18 20}
engines=${GROWTH_ENGINES:-saf flit circuit}
keys_saf="switching=store_forward queue_size=2 protocol=fifo"
keys_flit="switching=wormhole vcs=2 vc_depth=2 length=2"
keys_circuit="switching=circuit"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, load $(cut -d' ' -f1 /proc/loadavg)"
echo "commit:  $(git describe --always --dirty 2>/dev/null || echo unknown)"
echo "date:    $(date -u +%Y-%m-%d)"
echo
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| engine | N | hops | wall s | CPU s | M hops per CPU s | peak RSS MiB | bytes per input |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for e in $engines; do
  keys_var="keys_$e"
  : >"$tmp/fit_$e"
  for x in $sizes; do
    n=$((1 << x))
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$bin" run topology=butterfly N="$n" \
      traffic=uniform per_input=1 seed=1 ${!keys_var} --format csv >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" != 0 ]; then
      echo "| $e | 2^$x | failed (exit $rc): $(head -1 "$tmp/err") | | | | | |"
      continue
    fi
    read -r wall user sys rss <<<"$(tail -1 "$tmp/time")"
    # hops: packet-hops (store-and-forward), flit-hops (flit engine), or for circuits the
    # channels held by the delivered messages (delivered x dilation: every butterfly path
    # has the same length)
    hops=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "hops" || $i == "flit_hops") c = i;
        if ($i == "delivered") dv = i; if ($i == "dilation") dl = i } }
      NR == 2 { if (c) print $c; else if (dv && dl) print $dv * $dl }' "$tmp/out")
    awk -v e="$e" -v x="$x" -v n="$n" -v h="${hops:-0}" -v w="$wall" -v u="$user" -v s="$sys" \
      -v r="$rss" 'BEGIN { cpu = u + s;
        printf "| %s | 2^%d | %s | %.2f | %.2f | %.1f | %.0f | %.0f |\n", e, x, h, w, cpu,
          (cpu > 0 ? h / cpu / 1e6 : 0), r / 1024, r * 1024 / n }'
    echo "$x $user $sys $rss" >>"$tmp/fit_$e"
  done
done
echo
echo "Growth exponents (least squares over the largest three sizes; time ~ N^a, memory ~ N^b)"
echo "and the fit's extrapolation (one process; a run split over P ranks would need about 1/P"
echo "of the memory per rank plus its boundary state, which the model leaves out):"
echo
echo "| engine | a (CPU) | b (memory) | CPU s at 2^24 | GiB at 2^24 | CPU s at 2^26 | GiB at 2^26 | CPU h at 2^30 | GiB at 2^30 | ranks of 16 GiB at 2^30 |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for e in $engines; do
  tail -3 "$tmp/fit_$e" | awk -v e="$e" '
    { x[NR] = $1; t[NR] = log($2 + $3) / log(2); m[NR] = log($4 * 1024) / log(2); k = NR }
    END {
      if (k < 2) { printf "| %s | too few sizes | | | | | | | | |\n", e; exit }
      sx = sy = sm = sxx = sxy = sxm = 0
      for (i = 1; i <= k; i++) { sx += x[i]; sy += t[i]; sm += m[i]; sxx += x[i] * x[i];
        sxy += x[i] * t[i]; sxm += x[i] * m[i] }
      d = k * sxx - sx * sx
      a = (k * sxy - sx * sy) / d; a0 = (sy - a * sx) / k
      b = (k * sxm - sx * sm) / d; b0 = (sm - b * sx) / k
      for (j = 0; j < 3; j++) { X = (j == 0 ? 24 : j == 1 ? 26 : 30)
        T[j] = 2 ^ (a0 + a * X); M[j] = 2 ^ (b0 + b * X) / 2 ^ 30 }
      r = M[2] / 16; r = (r == int(r) ? r : int(r) + 1)
      printf "| %s | %.2f | %.2f | %.0f | %.1f | %.0f | %.1f | %.1f | %.0f | %d |\n", e, a, b,
        T[0], M[0], T[1], M[1], T[2] / 3600, M[2], r }'
done
