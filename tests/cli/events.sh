#!/usr/bin/env bash
# `run --events FILE` (docs/events.md): two hand-worked logs checked line by line (a 1x3
# wormhole line with one blocked header, a 1x4 store-and-forward line with two full
# queues); on larger runs the log agrees with the run's metrics (hops, delivered, latency,
# blocked headers); the run's record is the same with and without the log; the same bytes
# twice; the binary log and `routesim events` give the CSV's bytes; filters; the size guard;
# refused engines and bad options (exit 2).
. "$(dirname "$0")/lib.bash"

# ---- 1x3 line, wormhole, 1 VC, 2-flit messages 0->2, 1->2, 2->0 (docs/events.md works it
# out): message 0's header waits at node 1 in step 2 for the VC message 1's tail holds
printf '2\n2\n0\n' >"$TMP/t3.txt"
LINE3=(topology=mesh k=3 n=1 traffic=file file_kind=any traffic_file="$TMP/t3.txt")
"$RS" run "${LINE3[@]}" switching=wormhole vcs=1 length=2 --format csv -o "$TMP/w.out" \
  --events "$TMP/w.csv"
check "wormhole line: exit 0" test $? = 0
cat >"$TMP/w.want" <<'EOF'
step,event,packet,node,port,vc
0,generated,0,0,,
0,generated,1,1,,
0,generated,2,2,,
1,injected,0,0,0,0
1,hop,0,0,0,0
1,injected,1,1,0,0
1,hop,1,1,0,0
1,injected,2,2,1,0
1,hop,2,2,1,0
2,blocked,0,1,0,
2,delivered,1,2,,
2,hop,2,1,1,0
3,hop,0,1,0,0
3,delivered,2,0,,
4,delivered,0,2,,
EOF
check "wormhole line: the log line by line" diff "$TMP/w.want" "$TMP/w.csv"
check "wormhole line: makespan 4" test "$(metric makespan "$TMP/w.out")" = 4
check "wormhole line: one blocked header step" \
  test "$(metric blocked_header_steps "$TMP/w.out")" = 1

# ---- 1x4 line, store-and-forward, input queues of 1: 0->3, 1->3, 2->0, 3->0; in step 2
# messages 0 and 3 find the queues they need full (held by 1 and 2 at the step's start)
printf '3\n3\n0\n0\n' >"$TMP/t4.txt"
"$RS" run topology=mesh k=4 n=1 traffic=file file_kind=any traffic_file="$TMP/t4.txt" \
  queue_size=1 --format csv -o "$TMP/s.out" --events "$TMP/s.csv"
check "saf line: exit 0" test $? = 0
cat >"$TMP/s.want" <<'EOF'
step,event,packet,node,port,vc
0,generated,0,0,,
0,generated,1,1,,
0,generated,2,2,,
0,generated,3,3,,
1,injected,0,0,0,
1,hop,0,0,0,
1,injected,1,1,0,
1,hop,1,1,0,
1,injected,2,2,1,
1,hop,2,2,1,
1,injected,3,3,1,
1,hop,3,3,1,
2,blocked,0,1,0,
2,blocked,3,2,1,
2,hop,2,1,1,
2,delivered,2,0,,
2,hop,1,2,0,
2,delivered,1,3,,
3,hop,0,1,0,
3,hop,3,2,1,
4,hop,3,1,1,
4,delivered,3,0,,
4,hop,0,2,0,
4,delivered,0,3,,
EOF
check "saf line: the log line by line" diff "$TMP/s.want" "$TMP/s.csv"
check "saf line: hops 10" test "$(metric hops "$TMP/s.out")" = 10

# ---- larger runs: the log agrees with the metrics
# lat LOG: the largest delivered step - generated step over packets
lat() { awk -F, '$2 == "generated" {g[$3] = $1} $2 == "delivered" {d = $1 - g[$3]; if (d > m) m = d} END {print m + 0}' "$1"; }
SAF=(topology=butterfly N=256 traffic=uniform per_input=4 queue_size=2 seed=3)
"$RS" run "${SAF[@]}" --format csv -o "$TMP/a.out" --events "$TMP/a.csv"
"$RS" run "${SAF[@]}" --format csv -o "$TMP/a0.out"
check "saf: the record is the same without --events" cmp -s "$TMP/a.out" "$TMP/a0.out"
check "saf: hop records = hops" test "$(count hop "$TMP/a.csv")" = "$(metric hops "$TMP/a.out")"
check "saf: generated = messages" \
  test "$(count generated "$TMP/a.csv")" = "$(metric messages "$TMP/a.out")"
check "saf: delivered records = delivered" \
  test "$(count delivered "$TMP/a.csv")" = "$(metric delivered "$TMP/a.out")"
check "saf: injected = messages" test "$(count injected "$TMP/a.csv")" = 1024
check "saf: some blocked episodes" test "$(count blocked "$TMP/a.csv")" -gt 0
check "saf: latency_max from the log" test "$(lat "$TMP/a.csv")" = "$(metric latency_max "$TMP/a.out")"
"$RS" run "${SAF[@]}" --format csv -o "$TMP/a2.out" --events "$TMP/a2.csv"
check "saf: the same log twice" cmp -s "$TMP/a.csv" "$TMP/a2.csv"
# Valiant through a terminal with output queues: one injected record a packet, not a second
# one when it leaves its intermediate's store
"$RS" run topology=torus k=4 n=2 routing=valiant queue_size=2 queue_at=output traffic=uniform \
  per_input=4 --format csv -o "$TMP/vt.out" --events "$TMP/vt.csv"
check "valiant, output queues: injected = messages" test "$(count injected "$TMP/vt.csv")" = 64
check "valiant, output queues: hop records = hops" \
  test "$(count hop "$TMP/vt.csv")" = "$(metric hops "$TMP/vt.out")"
# --events - with -o FILE: the log on standard output
"$RS" run "${LINE3[@]}" switching=wormhole vcs=1 length=2 -o "$TMP/w2.out" --events - >"$TMP/w2.csv"
check "--events - -o FILE: the log on standard output" cmp -s "$TMP/w.want" "$TMP/w2.csv"
DROP=(topology=butterfly N=64 traffic=uniform per_input=8 queue_size=1 on_full=drop)
"$RS" run "${DROP[@]}" --format csv -o "$TMP/d.out" --events "$TMP/d.csv"
check "saf drop: dropped records = dropped" \
  test "$(count dropped "$TMP/d.csv")" = "$(metric dropped "$TMP/d.out")"
check "saf drop: some dropped" test "$(metric dropped "$TMP/d.out")" -gt 0

FLIT=(topology=mesh k=6 n=2 traffic=uniform per_input=4 switching=wormhole vcs=2 length=4 seed=2)
"$RS" run "${FLIT[@]}" --format csv -o "$TMP/f.out" --events "$TMP/f.csv"
"$RS" run "${FLIT[@]}" --format csv -o "$TMP/f0.out"
"$RS" analyze topology=mesh k=6 n=2 traffic=uniform per_input=4 seed=2 --format csv -o "$TMP/f.an"
check "flit: the record is the same without --events" cmp -s "$TMP/f.out" "$TMP/f0.out"
check "flit: hop records = total_hops of the routes" \
  test "$(count hop "$TMP/f.csv")" = "$(metric total_hops "$TMP/f.an")"
check "flit: delivered records = delivered" \
  test "$(count delivered "$TMP/f.csv")" = "$(metric delivered "$TMP/f.out")"
check "flit: latency_max from the log" test "$(lat "$TMP/f.csv")" = "$(metric latency_max "$TMP/f.out")"
b=$(count blocked "$TMP/f.csv") bh=$(metric blocked_header_steps "$TMP/f.out")
check "flit: 0 < blocked episodes <= blocked header steps ($b, $bh)" test "$b" -gt 0 -a "$b" -le "$bh"
"$RS" run "${FLIT[@]}" --events "$TMP/f2.csv" >/dev/null
check "flit: the same log twice" cmp -s "$TMP/f.csv" "$TMP/f2.csv"
# router=iq: hop records = the routes' hops, delivered, latency (cycles) from the log
"$RS" run "${FLIT[@]}" router=iq --format csv -o "$TMP/q.out" --events "$TMP/q.csv"
"$RS" run "${FLIT[@]}" router=iq --format csv -o "$TMP/q0.out"
check "iq: the record is the same without --events" cmp -s "$TMP/q.out" "$TMP/q0.out"
check "iq: hop records = total_hops of the routes" \
  test "$(count hop "$TMP/q.csv")" = "$(metric total_hops "$TMP/f.an")"
check "iq: injected = delivered records = messages" \
  test "$(count injected "$TMP/q.csv")/$(count delivered "$TMP/q.csv")" = 144/144
check "iq: latency_max from the log" test "$(lat "$TMP/q.csv")" = "$(metric latency_max "$TMP/q.out")"
b=$(count blocked "$TMP/q.csv") bh=$(metric blocked_header_steps "$TMP/q.out")
check "iq: blocked episodes <= blocked header steps ($b, $bh)" test "$b" -le "$bh"
"$RS" run "${FLIT[@]}" router=iq threads=2 --events "$TMP/q2.csv" >/dev/null
check "iq: the same log with threads=2" cmp -s "$TMP/q.csv" "$TMP/q2.csv"
# length=1: a hop record per flit hop
"$RS" run topology=mesh k=6 n=2 traffic=uniform per_input=4 switching=virtual_cut_through \
  length=1 --format csv -o "$TMP/v.out" --events "$TMP/v.csv"
check "flit length 1: hop records = flit_hops" \
  test "$(count hop "$TMP/v.csv")" = "$(metric flit_hops "$TMP/v.out")"
"$RS" run topology=mesh k=4 n=2 traffic=uniform per_input=8 switching=wormhole on_delay=discard \
  --format csv -o "$TMP/x.out" --events "$TMP/x.csv"
check "flit discard: dropped records = dropped" \
  test "$(count dropped "$TMP/x.csv")" = "$(metric dropped "$TMP/x.out")"

# a deadlock (a 4-ring without datelines, 8-flit worms): exit 1, the log written, every
# message's last record its blocked episode
printf '2\n3\n0\n1\n' >"$TMP/ring.txt"
"$RS" run topology=torus k=4 n=1 traffic=file file_kind=any traffic_file="$TMP/ring.txt" \
  switching=wormhole vcs=1 length=8 vc_classes=none --events "$TMP/dl.csv" >/dev/null 2>&1
check "deadlock: exit 1" test $? = 1
check "deadlock: the log ends with four blocked records" \
  test "$(tail -4 "$TMP/dl.csv" | cut -d, -f2 | sort -u)" = blocked
check "deadlock: no delivered record" test "$(count delivered "$TMP/dl.csv")" = 0

# ---- binary log and the converter
"$RS" run "${FLIT[@]}" --events "$TMP/f.bin" >/dev/null
check "binary: 16 bytes a record after a 16-byte header" \
  test "$(stat -c %s "$TMP/f.bin")" = $((16 + 16 * ($(wc -l <"$TMP/f.csv") - 1)))
"$RS" events "$TMP/f.bin" >"$TMP/f.conv"
check "events FILE.bin prints the CSV's bytes" cmp -s "$TMP/f.csv" "$TMP/f.conv"
"$RS" events "$TMP/f.bin" -o "$TMP/f.conv2"
check "events -o FILE" cmp -s "$TMP/f.csv" "$TMP/f.conv2"

# ---- filters: the records of the full log that pass them, in the same order
pick() { # pick LOG AWK-CONDITION
  awk -F, "NR == 1 || ($2)" "$1"
}
"$RS" run "${SAF[@]}" --events "$TMP/p.csv" --events-packets 3,10-12,7 >/dev/null
check "packets filter" cmp -s "$TMP/p.csv" <(pick "$TMP/a.csv" '$3 == 3 || $3 == 7 || ($3 >= 10 && $3 <= 12)')
check "packets filter keeps something" test "$(wc -l <"$TMP/p.csv")" -gt 10
"$RS" run "${SAF[@]}" --events "$TMP/n.csv" --events-nodes 0-5,600 >/dev/null
check "nodes filter" cmp -s "$TMP/n.csv" <(pick "$TMP/a.csv" '$4 <= 5 || $4 == 600')
"$RS" run "${SAF[@]}" --events "$TMP/st.csv" --events-steps 3-4 >/dev/null
check "steps filter" cmp -s "$TMP/st.csv" <(pick "$TMP/a.csv" '$1 == 3 || $1 == 4')
"$RS" run "${SAF[@]}" --events "$TMP/all3.csv" --events-steps 2-9 --events-packets 0-99 \
  --events-nodes 100-1000 >/dev/null
check "three filters together" cmp -s "$TMP/all3.csv" \
  <(pick "$TMP/a.csv" '$1 >= 2 && $1 <= 9 && $3 <= 99 && $4 >= 100 && $4 <= 1000')

# ---- the size guard: N records, then a truncation marker; exit 0, a warning, same record
"$RS" run "${SAF[@]}" --format csv -o "$TMP/g.out" --events "$TMP/g.csv" --events-max 10 2>"$TMP/g.err"
check "size guard: exit 0" test $? = 0
check "size guard: header, 10 records, the marker" test "$(wc -l <"$TMP/g.csv")" = 12
check "size guard: the first 10 records of the full log" \
  cmp -s <(head -11 "$TMP/g.csv") <(head -11 "$TMP/a.csv")
check "size guard: the marker" grep -qx '[0-9]*,truncated,,,,' <(tail -1 "$TMP/g.csv")
check "size guard: a warning" grep -q 'event log truncated after 10 records' "$TMP/g.err"
check "size guard: the same record" cmp -s "$TMP/g.out" "$TMP/a.out"
"$RS" run "${SAF[@]}" --events "$TMP/g.bin" --events-max 10 2>/dev/null >/dev/null
check "size guard, binary: the same log" cmp -s <("$RS" events "$TMP/g.bin") "$TMP/g.csv"

# ---- refused (exit 2)
expect_fail 2 "^routesim: --events: threads > 1 is not covered" \
  run topology=mesh k=3 n=2 switching=wormhole threads=2 --events "$TMP/e.csv"
expect_fail 2 "^routesim: --events: only algorithm=greedy is covered, not algorithm=colour_refine" \
  run topology=butterfly N=8 algorithm=colour_refine switching=wormhole --events "$TMP/e.csv"
expect_fail 2 "^routesim: --events: a self-contained model has no per-packet events" \
  run algorithm=flexible_sort --events "$TMP/e.csv"
check "nothing written by refused runs" test ! -e "$TMP/e.csv"
expect_fail 2 "^routesim: command line: --events-max needs --events FILE" \
  run topology=butterfly N=8 --events-max 5
expect_fail 2 "^routesim: command line: --events-max: expected a number of records in \[1, 268435456\], got '0'" \
  run topology=butterfly N=8 --events "$TMP/e.csv" --events-max 0
expect_fail 2 "^routesim: command line: --events-max: expected a number of records" \
  run topology=butterfly N=8 --events "$TMP/e.csv" --events-max 12x
expect_fail 2 "^routesim: --events-packets: expected numbers and ranges like 3,10-20" \
  run topology=butterfly N=8 --events "$TMP/e.csv" --events-packets 5-2
expect_fail 2 "^routesim: --events-nodes: expected numbers and ranges" \
  run topology=butterfly N=8 --events "$TMP/e.csv" --events-nodes 1,,2
expect_fail 2 "^routesim: --events-steps: expected numbers and ranges" \
  run topology=butterfly N=8 --events "$TMP/e.csv" --events-steps x
expect_fail 2 "^routesim: command line: --events -: standard output carries the run's result" \
  run topology=butterfly N=8 --events -
expect_fail 2 "^routesim: --events '$TMP/same' is the same file as -o" \
  run topology=butterfly N=8 -o "$TMP/same" --events "$TMP/same"
expect_fail 2 "is the same file as the input traffic_file" \
  run "${LINE3[@]}" --events "$TMP/t3.txt"
expect_fail 2 "^routesim: command line: option '--events' does not apply here" \
  analyze topology=butterfly N=8 --events "$TMP/e.csv"
expect_fail 2 "^routesim: $TMP/w.csv: not a routesim event log" events "$TMP/w.csv"
head -c 20 "$TMP/f.bin" >"$TMP/cut.bin"
expect_fail 2 "^routesim: $TMP/cut.bin: truncated record at byte 16" events "$TMP/cut.bin"
expect_fail 2 "^routesim: command line: events needs one FILE.bin" events
expect_fail 2 "is the same file as the input FILE" events "$TMP/f.bin" -o "$TMP/f.bin"
check "the refused converter left the log alone" cmp -s <("$RS" events "$TMP/f.bin") "$TMP/f.csv"
finish
