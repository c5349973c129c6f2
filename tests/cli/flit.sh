#!/usr/bin/env bash
# The flit engines from the command line: the issue's acceptance examples (D+L-1 = 17 on the
# 1024-input butterfly, a deadlock reported with its waiting channels, an open-loop 8x8 mesh
# run with throughput and latency), help and list, and bad input.
. "$(dirname "$0")/lib.bash"

# A worm never blocked takes D+L-1 flit steps: 10 + 8 - 1.
expect_ok '"makespan":17,' run topology=butterfly N=1024 traffic=identity switching=wormhole vcs=1 length=8 --format json
# store-and-forward snakes take D*L.
expect_ok '^makespan +80$' run topology=butterfly N=1024 traffic=identity switching=store_forward_flits length=8

# Deadlock: exit 1, the record on stdout with deadlock=1, one line on stderr naming the cycle.
"$RS" run topology=ring k=8 traffic=tornado switching=wormhole >"$TMP/out" 2>"$TMP/err"
st=$?
if [ $st != 1 ] || [ "$(wc -l <"$TMP/err")" != 1 ] ||
   ! grep -q "routesim: deadlock at step 2: waiting cycle of 8 channels: message 0 waits for (1)->(2) vc 0 held by message 1;" "$TMP/err" ||
   ! grep -Eq '^deadlock +1$' "$TMP/out"; then
  echo "FAIL: flit deadlock run -> status $st"; cat "$TMP/err"; FAILS=$((FAILS + 1))
else
  PASSES=$((PASSES + 1))
fi
# With two dateline classes the same traffic is delivered.
expect_ok '^deadlock +0$' run topology=ring k=8 traffic=tornado switching=wormhole vcs=2 vc_classes=dateline

# Open loop on an 8x8 mesh: accepted throughput and latency, not saturated at 0.1 flits.
"$RS" run topology=mesh k=8 traffic=uniform switching=wormhole vcs=2 vc_depth=4 length=4 \
  injection_process=bernoulli injection_rate=0.1 injection_rate_uses_flits=1 warmup_steps=1000 \
  measure_steps=5000 --format csv >"$TMP/ol.csv" || FAILS=$((FAILS + 1))
acc=$(awk -F, -v c="$(csvcol accepted "$TMP/ol.csv")" 'NR==2{print $c}' "$TMP/ol.csv")
sat=$(awk -F, -v c="$(csvcol saturated "$TMP/ol.csv")" 'NR==2{print $c}' "$TMP/ol.csv")
lat=$(awk -F, -v c="$(csvcol latency_mean "$TMP/ol.csv")" 'NR==2{print $c}' "$TMP/ol.csv")
if ! awk -v a="$acc" -v s="$sat" -v l="$lat" 'BEGIN{exit !(a > 0.095 && a < 0.105 && s == 0 && l > 8 && l < 10)}'; then
  echo "FAIL: open loop accepted=$acc saturated=$sat latency=$lat"; FAILS=$((FAILS + 1))
else
  PASSES=$((PASSES + 1))
fi
# Past saturation the latency is not reported.
expect_ok '"saturated":1,"latency_mean":null' run topology=mesh k=8 switching=wormhole link=shared \
  injection_process=bernoulli injection_rate=0.9 injection_rate_uses_flits=1 warmup_steps=100 \
  measure_steps=1000 drain_steps=200 --format json

# help and list show the engines' keys, open-loop keys included.
expect_ok 'vc_depth' help wormhole
expect_ok 'injection_rate_uses_flits' help cut_through_partial
expect_ok 'collapse' help virtual_cut_through
expect_ok 'store_forward_flits' list

# Bad input: one line, exit 2.
expect_fail 2 "unknown key 'queue_size'" run switching=wormhole queue_size=2
expect_fail 2 "unknown value 'per_link' for key 'link' \(expected per_vc\|shared\)" run switching=wormhole link=per_link
expect_fail 2 "vc_classes=dateline needs vcs a multiple of 2 \(got vcs=1\)" run topology=torus k=4 switching=wormhole vc_classes=dateline
expect_fail 2 "topology=benes defines no virtual-channel classes" run topology=benes switching=wormhole vcs=2 vc_classes=dateline
expect_fail 2 "on_delay=discard is not defined for switching=cut_through_partial" run switching=cut_through_partial on_delay=discard
expect_fail 2 "length_max=2 is below length=4" run switching=wormhole injection_process=bernoulli length_max=2
# every engine has open loop now (store_forward by default): an open-loop key in a batch run
# would be ignored, so it is refused
expect_fail 2 "injection_rate= is a key of open-loop injection: it needs injection_process=bernoulli" run injection_rate=0.1

# router=iq: identity on the 16-input butterfly crosses 5 routers unhindered: 2 (injection)
# + 5 x 3 (route, VC and switch allocation, traversal) + 4 x 2 (channels) + 2 (ejection)
# + 3 body flits = 30 cycles; its keys in the record; refused with router=simple.
expect_ok '"makespan":30,' run topology=butterfly N=16 traffic=identity switching=wormhole router=iq vcs=2 vc_depth=4 length=4 --format json
expect_ok '^sw_allocator +islip$' run topology=butterfly N=16 traffic=identity switching=wormhole router=iq
expect_fail 2 "routing_delay= is a key of router=iq: it has no effect with router=simple" run switching=wormhole routing_delay=2
finish
