#!/usr/bin/env bash
# `run --events FILE` on circuit runs (docs/events.md, "switching=circuit"): a hand-worked
# log of a 1x3 line checked line by line; on a butterfly (staged), a mesh (all at once) and
# an LCAN the log agrees with the metrics (hop records = locks, delivered, dropped with
# passes=1, blocked <= conflicts); the record is the same with and without the log; open
# loop refused.
. "$(dirname "$0")/lib.bash"

# ---- 1x3 line, messages 0->2, 1->2, 2->0: every hop of every path contends at once;
# 0 and 1 want channel (1, 0) and message 0's key wins (seed 1), 1 fails the cycle having
# locked nothing, and is routed in cycle 2
printf '2\n2\n0\n' >"$TMP/t3.txt"
"$RS" run topology=mesh k=3 n=1 traffic=file file_kind=any traffic_file="$TMP/t3.txt" \
  switching=circuit --format csv -o "$TMP/c.out" --events "$TMP/c.csv"
check "circuit line: exit 0" test $? = 0
cat >"$TMP/c.want" <<'EOF'
step,event,packet,node,port,vc
0,generated,0,0,,
0,generated,1,1,,
0,generated,2,2,,
1,hop,0,0,0,
1,hop,0,1,0,
1,hop,2,1,1,
1,hop,2,2,1,
1,delivered,0,2,,
1,blocked,1,1,,
1,delivered,2,0,,
2,hop,1,1,0,
2,delivered,1,2,,
EOF
check "circuit line: the log line by line" diff "$TMP/c.want" "$TMP/c.csv"
check "circuit line: locks 5, conflicts 1, cycles 2" \
  test "$(metric locks "$TMP/c.out"),$(metric conflicts "$TMP/c.out"),$(metric cycles "$TMP/c.out")" = 5,1,2

# ---- larger runs
for name in bfly:topology=butterfly,N=256,traffic=uniform,per_input=2 \
  onepass:topology=butterfly,N=256,traffic=uniform,passes=1 \
  mesh:topology=mesh,k=6,n=2,traffic=uniform,per_input=2 \
  lcan:topology=lcan,N=64,d=4,u=2,traffic=randperm; do
  tag=${name%%:*}
  IFS=, read -r -a cfg <<<"${name#*:}"
  "$RS" run "${cfg[@]}" switching=circuit --format csv -o "$TMP/$tag.out" --events "$TMP/$tag.csv"
  "$RS" run "${cfg[@]}" switching=circuit --format csv -o "$TMP/$tag.0"
  check "$tag: the record is the same without --events" cmp -s "$TMP/$tag.out" "$TMP/$tag.0"
  check "$tag: hop records = locks" test "$(count hop "$TMP/$tag.csv")" = "$(metric locks "$TMP/$tag.out")"
  check "$tag: delivered records = delivered" \
    test "$(count delivered "$TMP/$tag.csv")" = "$(metric delivered "$TMP/$tag.out")"
  check "$tag: dropped records = dropped" \
    test "$(count dropped "$TMP/$tag.csv")" = "$(metric dropped "$TMP/$tag.out")"
  check "$tag: generated records = messages" \
    test "$(count generated "$TMP/$tag.csv")" = "$(metric messages "$TMP/$tag.out")"
  b=$(count blocked "$TMP/$tag.csv") cf=$(metric conflicts "$TMP/$tag.out")
  check "$tag: 0 < blocked records <= conflicts ($b, $cf)" test "$b" -gt 0 -a "$b" -le "$cf"
done
check "onepass: some dropped" test "$(metric dropped "$TMP/onepass.out")" -gt 0
# latency from the log (delivered cycle - release cycle) = latency_max
lat() { awk -F, '$2 == "generated" {g[$3] = $1} $2 == "delivered" {d = $1 - g[$3]; if (d > m) m = d} END {print m + 0}' "$1"; }
check "bfly: latency_max from the log" test "$(lat "$TMP/bfly.csv")" = "$(metric latency_max "$TMP/bfly.out")"
expect_fail 2 "^routesim: --events: switching=circuit with open-loop injection is not covered" \
  run topology=butterfly N=16 switching=circuit injection_process=bernoulli injection_rate=0.1 \
  measure_steps=10 --events "$TMP/e.csv"
check "nothing written by the refused run" test ! -e "$TMP/e.csv"
finish
