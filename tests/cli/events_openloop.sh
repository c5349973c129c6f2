#!/usr/bin/env bash
# `run --events FILE` on open-loop runs (docs/events.md, "Open loop"): two hand-worked logs
# of a 1x3 line fed by traffic=trace, checked line by line (wormhole with two blocked
# headers and a measured packet; store-and-forward); on 4x4 meshes the log agrees with the
# run's metrics (hops, delivered, dropped, the measured packets' latency_max) for
# store_forward, wormhole, router=iq; the record is the same with and without the log; the
# ids are 0, 1, 2, ... in generation order; filters and the size guard on a long run.
. "$(dirname "$0")/lib.bash"

# ---- 1x3 line, wormhole, 1 VC: packets 0->2, 1->2, 2->0 of 2 flits generated at step 1
# (warm-up), 0->1 of 1 flit at step 2 (measured: warmup_steps=1)
printf '# cycle src dst size\n1 0 2 2\n1 1 2 2\n1 2 0 2\n2 0 1 1\n' >"$TMP/t4.txt"
OL3=(topology=mesh k=3 n=1 traffic=trace injection_process=bernoulli warmup_steps=1
  measure_steps=4 drain_steps=20)
"$RS" run "${OL3[@]}" trace_file="$TMP/t4.txt" switching=wormhole vcs=1 --format csv -o "$TMP/w.out" --events "$TMP/w.csv"
check "open-loop wormhole line: exit 0" test $? = 0
cat >"$TMP/w.want" <<'EOF'
step,event,packet,node,port,vc
1,generated,0,0,,
1,generated,1,1,,
1,generated,2,2,,
2,injected,0,0,0,0
2,hop,0,0,0,0
2,injected,1,1,0,0
2,hop,1,1,0,0
2,injected,2,2,1,0
2,hop,2,2,1,0
2,generated,3,0,,
3,blocked,0,1,0,
3,delivered,1,2,,
3,hop,2,1,1,0
3,blocked,3,0,0,
4,hop,0,1,0,0
4,delivered,2,0,,
5,delivered,0,2,,
6,injected,3,0,0,0
6,hop,3,0,0,0
6,delivered,3,1,,
EOF
check "open-loop wormhole line: the log line by line" diff "$TMP/w.want" "$TMP/w.csv"
check "open-loop wormhole line: one measured packet, latency 6 - 2" \
  test "$(metric measured_packets "$TMP/w.out"),$(metric latency_max "$TMP/w.out")" = 1,4
check "open-loop wormhole line: blocked header steps 1 + 3" \
  test "$(metric blocked_header_steps "$TMP/w.out")" = 4

# the same packets of one flit, store-and-forward (a packet crosses a channel in one step)
printf '1 0 2 1\n1 1 2 1\n1 2 0 1\n2 0 1 1\n' >"$TMP/t1.txt"
"$RS" run "${OL3[@]}" trace_file="$TMP/t1.txt" switching=store_forward --format csv -o "$TMP/s.out" --events "$TMP/s.csv"
cat >"$TMP/s.want" <<'EOF'
step,event,packet,node,port,vc
1,generated,0,0,,
1,generated,1,1,,
1,generated,2,2,,
2,injected,0,0,0,
2,hop,0,0,0,
2,injected,1,1,0,
2,hop,1,1,0,
2,delivered,1,2,,
2,injected,2,2,1,
2,hop,2,2,1,
2,generated,3,0,,
3,injected,3,0,0,
3,hop,3,0,0,
3,delivered,3,1,,
3,hop,0,1,0,
3,delivered,0,2,,
3,hop,2,1,1,
3,delivered,2,0,,
EOF
check "open-loop saf line: the log line by line" diff "$TMP/s.want" "$TMP/s.csv"
check "open-loop saf line: hops 6" test "$(metric hops "$TMP/s.out")" = 6

# ---- larger runs: the log agrees with the metrics
# mlat LOG WARMUP MEASURE: latency_max of the packets generated in (WARMUP, WARMUP+MEASURE]
mlat() {
  awk -F, -v lo="$2" -v hi="$(($2 + $3))" '$2 == "generated" {g[$3] = $1}
    $2 == "delivered" && g[$3] > lo && g[$3] <= hi {d = $1 - g[$3]; if (d > m) m = d}
    END {print m + 0}' "$1"
}
# ids LOG: 1 when the generated records are numbered 0, 1, 2, ... in log order
ids() { awk -F, '$2 == "generated" {if ($3 != n + 0) bad = 1; n++} END {print (!bad && n > 0)}' "$1"; }
MESH=(topology=mesh k=4 n=2 traffic=uniform injection_process=bernoulli injection_rate=0.15
  warmup_steps=50 measure_steps=100 drain_steps=300 seed=5)
for name in saf:switching=store_forward wh:switching=wormhole,vcs=2,length=1 \
  iq:switching=wormhole,router=iq,vcs=2,length=1 drop:switching=store_forward,on_full=drop,queue_size=1; do
  tag=${name%%:*}
  IFS=, read -r -a cfg <<<"${name#*:}"
  "$RS" run "${MESH[@]}" "${cfg[@]}" --format csv -o "$TMP/$tag.out" --events "$TMP/$tag.csv"
  "$RS" run "${MESH[@]}" "${cfg[@]}" --format csv -o "$TMP/$tag.0"
  check "$tag: the record is the same without --events" cmp -s "$TMP/$tag.out" "$TMP/$tag.0"
  hops=flit_hops # length 1: a flit hop per hop
  head -1 "$TMP/$tag.out" | tr , '\n' | grep -qx hops && hops=hops
  hops=$(metric $hops "$TMP/$tag.out")
  check "$tag: hop records = hops ($hops)" test "$(count hop "$TMP/$tag.csv")" = "$hops"
  check "$tag: delivered records = delivered" \
    test "$(count delivered "$TMP/$tag.csv")" = "$(metric delivered "$TMP/$tag.out")"
  check "$tag: dropped records = dropped" \
    test "$(count dropped "$TMP/$tag.csv")" = "$(metric dropped "$TMP/$tag.out")"
  check "$tag: ids 0, 1, 2, ... at generation" test "$(ids "$TMP/$tag.csv")" = 1
  check "$tag: generated records from warm-up to drain" \
    test "$(awk -F, '$2 == "generated" && $1 <= 50' "$TMP/$tag.csv" | wc -l)" -gt 0
  if [ "$(metric saturated "$TMP/$tag.out")" = 0 ]; then
    check "$tag: latency_max of the measured packets from the log" \
      test "$(mlat "$TMP/$tag.csv" 50 100)" = "$(metric latency_max "$TMP/$tag.out")"
  fi
done
check "drop: some dropped" test "$(metric dropped "$TMP/drop.out")" -gt 0
check "wh: some blocked episodes" test "$(count blocked "$TMP/wh.csv")" -gt 0
"$RS" run "${MESH[@]}" switching=wormhole vcs=2 length=1 --events "$TMP/wh2.csv" >/dev/null
check "wh: the same log twice" cmp -s "$TMP/wh.csv" "$TMP/wh2.csv"
"$RS" run "${MESH[@]}" switching=wormhole router=iq vcs=2 length=1 threads=2 \
  --events "$TMP/iq2.csv" >/dev/null
check "iq: the same log with threads=2" cmp -s "$TMP/iq.csv" "$TMP/iq2.csv"
"$RS" run "${MESH[@]}" switching=wormhole vcs=2 length=1 threads=2 --events "$TMP/e.csv" \
  >/dev/null 2>"$TMP/thr.err"
check "flit threads=2 (router=simple) still refused" grep -q 'threads > 1 is not covered' "$TMP/thr.err"

# ---- a long run: filters and the size guard
pick() { awk -F, "NR == 1 || ($2)" "$1"; }
LONG=(topology=mesh k=4 n=2 traffic=uniform injection_process=bernoulli injection_rate=0.2
  warmup_steps=1000 measure_steps=4000 drain_steps=2000 switching=wormhole vcs=2 length=3)
"$RS" run "${LONG[@]}" --format csv -o "$TMP/l.out" --events "$TMP/l.csv"
check "long: a large log" test "$(wc -l <"$TMP/l.csv")" -gt 20000
"$RS" run "${LONG[@]}" --format csv -o "$TMP/g.out" --events "$TMP/g.csv" --events-max 1000 \
  2>"$TMP/g.err"
check "size guard: exit 0" test $? = 0
check "size guard: header, 1000 records, the marker" test "$(wc -l <"$TMP/g.csv")" = 1002
check "size guard: the first 1000 records of the full log" \
  cmp -s <(head -1001 "$TMP/g.csv") <(head -1001 "$TMP/l.csv")
check "size guard: the marker" grep -qx '[0-9]*,truncated,,,,' <(tail -1 "$TMP/g.csv")
check "size guard: a warning" grep -q 'event log truncated after 1000 records' "$TMP/g.err"
check "size guard: the same record" cmp -s "$TMP/g.out" "$TMP/l.out"
"$RS" run "${LONG[@]}" --events "$TMP/p.csv" --events-packets 500-520,3000 >/dev/null
check "packets filter" cmp -s "$TMP/p.csv" <(pick "$TMP/l.csv" '($3 >= 500 && $3 <= 520) || $3 == 3000')
check "packets filter keeps something" test "$(wc -l <"$TMP/p.csv")" -gt 60
"$RS" run "${LONG[@]}" --events "$TMP/st.csv" --events-steps 4000-4010 --events-nodes 5 >/dev/null
check "steps and nodes filters" cmp -s "$TMP/st.csv" \
  <(pick "$TMP/l.csv" '$1 >= 4000 && $1 <= 4010 && $4 == 5')
"$RS" run "${LONG[@]}" --events "$TMP/l.bin" >/dev/null
check "binary: the CSV's bytes" cmp -s <("$RS" events "$TMP/l.bin") "$TMP/l.csv"
finish
