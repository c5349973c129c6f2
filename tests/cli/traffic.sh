#!/usr/bin/env bash
# Issue 22 item 4 from the command line: trace-driven injection (a hand-worked trace on a
# chain, every refused trace file with its file:line message and exit 2, a trace streamed
# in constant memory), the sampled patterns, on/off bursts and size mixes in a run.
. "$(dirname "$0")/lib.bash"
cd "$TMP" || exit 1

cell() { # cell COLUMN FILE: the value in the first data row
  awk -F, -v c="$(csvcol "$1" "$2")" 'NR==2{print $c}' "$2"
}
CHAIN="topology=chain k=4 switching=store_forward injection_process=bernoulli traffic=trace"
WIN="warmup_steps=0 measure_steps=5 drain_steps=20"

# Worked by hand: store-and-forward on a chain of 4, one step per hop, a packet generated
# at step c starts at c + 1. 0->3 and 2->0 at cycle 1, 1->2 at cycle 3: latencies 3, 2, 1
# (no two share a link in a step): mean 2, max 3, 6 hops; offered 3 flits / (4 x 5 steps).
printf '# cycle source destination size\n1 0 3 1\n\n1 2 0 1\n3 1 2 1\n' >t1.txt
"$RS" run $CHAIN trace_file=t1.txt $WIN --format csv >t1.csv || FAILS=$((FAILS + 1))
check "trace t1: $(cell latency_mean t1.csv) $(cell latency_max t1.csv) $(cell hops t1.csv)" \
  test "$(cell latency_mean t1.csv),$(cell latency_max t1.csv),$(cell hops t1.csv),$(cell offered t1.csv),$(cell measured_delivered t1.csv)" = "2,3,6,0.15,3"
# Two packets of source 0 at cycle 1: the first (to 3) leaves at step 2, the second (to 1)
# waits for it and crosses 0->1 at step 3: latencies 3 and 2.
printf '1 0 3 1\n1 0 1 1\n' >t2.txt
"$RS" run $CHAIN trace_file=t2.txt $WIN --format csv >t2.csv || FAILS=$((FAILS + 1))
check "trace t2 FIFO: $(cell latency_mean t2.csv) $(cell latency_max t2.csv)" \
  test "$(cell latency_mean t2.csv),$(cell latency_max t2.csv)" = "2.5,3"
# Wormhole, one to three packets of a source in one cycle (159 packets on a 6x6 mesh): the
# worms of one terminal generated in one step share a key (generation step, terminal) and
# are ordered by their sequence number at the terminal; the invariant checker (check=1)
# verifies the age order of the active list every step (it failed at step 2 when the two
# were equal in age), in both router models; every packet is delivered.
awk 'BEGIN { srand(3); for (c = 1; c <= 80; c += 8) for (s = 0; s < 36; s += 5)
  for (j = 0; j < 1 + (c + s) % 3; j++)
    printf "%d %d %d %d\n", c, s, int(rand() * 36), 1 + int(rand() * 4) }' >t3.txt
for r in simple iq; do
  "$RS" run topology=mesh k=6 switching=wormhole vcs=2 router=$r traffic=trace trace_file=t3.txt \
    injection_process=bernoulli warmup_steps=0 measure_steps=80 drain_steps=400 check=1 \
    --format csv >t3.csv 2>t3.err
  check "trace t3, router=$r, check=1: exit 0, 159 delivered ($(cat t3.err))" \
    test $? = 0 -a "$(cell delivered t3.csv)" = 159
done

# Refused files: exit 2, one line naming file:line and the field.
printf '1 0 3 1\n2 0 x 1\n' >bad1.txt
expect_fail 2 "^routesim: bad1.txt:2: destination: expected an unsigned integer, got 'x'$" run $CHAIN trace_file=bad1.txt
printf '1 0 3\n' >bad2.txt
expect_fail 2 "^routesim: bad2.txt:1: expected 4 fields .cycle source destination size., got 3$" run $CHAIN trace_file=bad2.txt
printf '1 0 3 1 9\n' >bad3.txt
expect_fail 2 "bad3.txt:1: expected 4 fields .cycle source destination size., got more" run $CHAIN trace_file=bad3.txt
printf '5 0 3 1\n# late\n2 1 0 1\n' >unsorted.txt
expect_fail 2 "^routesim: unsorted.txt:3: cycle 2 comes after cycle 5 \(line 1\): a trace must be sorted by cycle" run $CHAIN trace_file=unsorted.txt
printf '1 0 4 1\n' >range.txt
expect_fail 2 "^routesim: range.txt:1: destination 4 out of range 0..3$" run $CHAIN trace_file=range.txt
printf '0 0 1 1\n' >cycle0.txt
expect_fail 2 "cycle0.txt:1: cycle 0 out of range 1..4294967294" run $CHAIN trace_file=cycle0.txt
printf '1 0 1 0\n' >size0.txt
expect_fail 2 "size0.txt:1: size 0 out of range 1..65535" run $CHAIN trace_file=size0.txt
printf '# nothing\n\n' >empty.txt
expect_fail 2 "empty.txt: no packets" run $CHAIN trace_file=empty.txt
expect_fail 2 "cannot open 'missing.txt'" run $CHAIN trace_file=missing.txt
expect_fail 2 "traffic=trace needs trace_file=FILE" run $CHAIN
expect_fail 2 "traffic=trace injects open loop" run topology=chain k=4 traffic=trace trace_file=t1.txt

# Streamed: 400000 packets (about 4.4 MB) replay with the same peak memory as 4000, to
# within 1 MB (the reader holds one line; the FIFOs stay short at this load).
awk 'BEGIN{for(c=1;c<=100000;c++)for(s=0;s<4;s++)print c, s, (s+1)%4, 1}' >big.txt
head -n 4000 big.txt >small.txt
rss() { /usr/bin/time -f %M "$RS" run $CHAIN trace_file="$1" warmup_steps=0 measure_steps=100000 drain_steps=100 --format csv 2>&1 >/dev/null | tail -n 1; }
if [ -x /usr/bin/time ]; then
  big=$(rss big.txt) small=$(rss small.txt)
  check "trace streamed: peak RSS ${big} kB for 400000 packets, ${small} kB for 4000" \
    test $((big - small)) -lt 1024
fi

# Sampled patterns, bursts and size mixes in a flit-level run; their refusals.
FLIT="topology=mesh k=4 n=2 switching=wormhole injection_process=bernoulli warmup_steps=200 measure_steps=4000"
"$RS" run $FLIT traffic=mix mix=uniform@0.8,hotspot@0.2 hotspot_nodes=5 injection_rate=0.05 \
  arrivals=on_off burst_length=8 packet_sizes=1,4 packet_size_rates=3,1 >mix.txt || FAILS=$((FAILS + 1))
check "mix + on_off + sizes: not saturated" grep -qx 'saturated *0' mix.txt
expect_fail 2 "mix=uniform@0.8,foo@1: part 2: unknown traffic 'foo'" run $FLIT traffic=mix mix=uniform@0.8,foo@1
expect_fail 2 "burst_alpha, burst_beta, burst_r1 and burst_length need arrivals=on_off" run $FLIT burst_length=4
expect_fail 2 "packet_sizes and length_max both give packet lengths" run $FLIT packet_sizes=1,2 length_max=5
finish
