#!/usr/bin/env bash
# BookSim compatibility: config files read by `run -c` and `convert` (with KEY=VALUE over
# them), BookSim key names on the command line, BookSim's run control (sim_type) on a small
# mesh, and `saturate` on a case with a known answer: tornado on an 8-node ring, where
# every channel carries three sources' packets, saturates at exactly 1/3 packet per step.
. "$(dirname "$0")/lib.bash"

cat >"$TMP/mesh44" <<'CFG'
// a 4x4 mesh, BookSim syntax
topology = mesh;
k = 4; n = 2;  /* two dimensions */
routing_function = dor;
num_vcs = {2};
vc_buf_size = 4;
packet_size = 4;
traffic = "transpose";
injection_rate = 0.02;
CFG
expect_ok "^topology = mesh$" convert "$TMP/mesh44"
expect_ok "^# from $TMP/mesh44:5$" convert "$TMP/mesh44"
expect_ok "^vcs = 2$" convert "$TMP/mesh44"
expect_ok "^traffic = transpose$" convert "$TMP/mesh44"
expect_ok "^router = iq$" convert "$TMP/mesh44"
expect_ok "^sim_type = latency$" convert "$TMP/mesh44"
expect_ok "^vcs = 3$" convert "$TMP/mesh44" vcs=3
"$RS" convert "$TMP/mesh44" vcs=3 >"$TMP/conv"
if [ "$(grep -c '^vcs = ' "$TMP/conv")" != 1 ]; then
  echo "FAIL: an override must replace the file's value"; FAILS=$((FAILS + 1)); fi
expect_fail 2 "command line: unknown key 'num_vcs' \(did you mean 'vcs'\? 'num_vcs' is BookSim's name\)" convert "$TMP/mesh44" num_vcs=3
expect_fail 2 "unknown key 'vc_buf_size' \(did you mean 'vc_depth'\? 'vc_buf_size' is BookSim's name\)" run vc_buf_size=2
expect_fail 2 "unknown key 'packet_size' \(did you mean 'length'\?" run packet_size=2
# speculation with a VC allocation longer than a cycle: BookSim 2 stops on an assertion, routesim refuses
expect_fail 2 "router=iq: speculative=1 needs vc_alloc_delay=1 \(got 2\)" run topology=mesh k=4 \
  router=iq vcs=3 switching=wormhole length=4 traffic=uniform per_input=4 speculative=1 vc_alloc_delay=2
printf 'topology = mesh;\nrouting_function = dor;\nclasses = 2;\n' >"$TMP/classes"
expect_fail 2 "classes:3: BookSim key 'classes = 2' cannot be honoured: routesim has one traffic class" run -c "$TMP/classes"
printf 'topology = mesh;\nrouting_function = dor;\nnum_vc = 2;\n' >"$TMP/typo"
expect_fail 2 "typo:3: unknown BookSim key 'num_vc' \(did you mean 'num_vcs'\?\)" convert "$TMP/typo"
# An INI file is still read as INI (the .ini rule, and no ';' at the end of its first line).
printf 'topology = mesh\nk = 4\n' >"$TMP/plain.cfg"
expect_ok "^k = 4$" convert "$TMP/plain.cfg"

# run -c on a BookSim file: the file means router=iq, which the flit engine gains with the
# iq router (issue 21 item 1); until then the run names the key it cannot take.
if "$RS" list | grep -q "^ *router "; then
  expect_ok '"ended_by":"converged"' run -c "$TMP/mesh44" sample_period=500 --format json
else
  expect_fail 2 "mesh44 \(BookSim's default\): unknown key 'router'" run -c "$TMP/mesh44"
fi

# BookSim's run control on a 4x4 mesh: 3 warm-up periods, then 3 converging periods of
# 1000 steps at a load far below saturation, then the drain of the measured packets.
M0="topology=mesh k=4 switching=wormhole vcs=2 injection_process=bernoulli"
M="$M0 injection_rate=0.05"
"$RS" run $M sim_type=latency --format json >"$TMP/lat.json"
if ! grep -q '"ended_by":"converged"' "$TMP/lat.json" || ! grep -q '"saturated":0' "$TMP/lat.json"; then
  echo "FAIL: sim_type=latency at low load"; cat "$TMP/lat.json"; FAILS=$((FAILS + 1)); fi
steps=$(grep -o '"steps":[0-9]*' "$TMP/lat.json" | cut -d: -f2)
if [ "$steps" -lt 6000 ] || [ "$steps" -gt 6100 ]; then
  echo "FAIL: sim_type=latency took $steps steps (want 6000 + a short drain)"; FAILS=$((FAILS + 1)); fi
expect_ok '"ended_by":"converged"' run $M sim_type=throughput --format json
expect_ok '"steps":6000,' run $M sim_type=throughput --format json
# far past saturation the mean latency passes latency_thres: aborted, saturated
expect_ok '"saturated":1,.*"ended_by":"latency_thres"' run $M0 injection_rate=0.6 sim_type=latency --format json
# the periods run out before the warm-up ends (warmup_periods above max_samples)
expect_ok '"saturated":1,.*"ended_by":"max_samples"' run $M sim_type=latency warmup_periods=5 max_samples=4 --format json
expect_ok '"ended_by":"window"' run $M --format json
expect_fail 2 "warmup_periods= is a key of BookSim's run control: it needs sim_type=latency or throughput" run $M warmup_periods=2
expect_fail 2 "measure_steps= is a key of the fixed phases: it needs sim_type=fixed" run $M sim_type=latency measure_steps=10

# saturate: the bracket holds 1/3 to within the precision plus the finite window's bias
# (loads just below 1/3 need longer windows than 5000 steps to look stable): the load judged
# below is at most 1/3, the one judged above at least 1/3 - 0.02.
R="topology=ring k=8 traffic=tornado switching=store_forward measure_steps=5000 drain_steps=5000"
"$RS" saturate $R saturate_precision=0.01 --format csv >"$TMP/sat.csv"
lo=$(awk -F, -v c="$(csvcol saturation_rate_lo "$TMP/sat.csv")" '$1=="saturation"{print $c}' "$TMP/sat.csv")
hi=$(awk -F, -v c="$(csvcol saturation_rate_hi "$TMP/sat.csv")" '$1=="saturation"{print $c}' "$TMP/sat.csv")
th=$(awk -F, -v c="$(csvcol saturation_throughput "$TMP/sat.csv")" '$1=="saturation"{print $c}' "$TMP/sat.csv")
if ! awk -v lo="$lo" -v hi="$hi" -v th="$th" 'BEGIN{exit !(lo <= 1/3 && hi >= 1/3 - 0.02 && hi - lo <= 0.01 && th <= 1/3 && th >= 1/3 - 0.03)}'; then
  echo "FAIL: saturate bracket [$lo, $hi], throughput $th (want 1/3)"; cat "$TMP/sat.csv"; FAILS=$((FAILS + 1)); fi
if [ "$(grep -c '^point,' "$TMP/sat.csv")" -lt 5 ]; then
  echo "FAIL: saturate prints the loads it walked"; FAILS=$((FAILS + 1)); fi
expect_ok '"saturation_rate_lo":0.3' run search=saturation $R saturate_precision=0.05 --format json
expect_fail 2 "saturate_reps': expected an integer in \[2, 1000\]" saturate $R saturate_reps=1
# a wormhole ring with one VC class deadlocks under tornado: no throughput to judge (status 1)
expect_fail 1 "saturate: injection_rate=[0-9.]+ deadlocks \(seed [0-9]+\)" saturate topology=ring k=8 traffic=tornado switching=wormhole
expect_fail 2 "saturate_hi=0.1 must be above saturate_lo=0.2" saturate $R saturate_lo=0.2 saturate_hi=0.1
# search=saturation in a sweep: tornado on a 16-ring loads each channel with 7 sources
# (1/7), on an 8-ring with 3 (1/3); each bracket is at most 0.05 wide and its lower end at
# most the bound.
printf 'search = saturation\ntopology = ring\nk = 8,16\ntraffic = tornado\nswitching = store_forward\nmeasure_steps = 3000\ndrain_steps = 3000\nsaturate_precision = 0.05\nruns = 1\n' >"$TMP/s.ini"
if "$RS" sweep -c "$TMP/s.ini" -o "$TMP/s.csv" -j 1 2>/dev/null; then
  lo=$(csvcol saturation_rate_lo_mean "$TMP/s.csv"); hi=$(csvcol saturation_rate_hi_mean "$TMP/s.csv")
  if ! awk -F, -v lo="$lo" -v hi="$hi" 'NR>1{b = ($2 == 8) ? 1/3 : 1/7; if (!($lo <= b && $hi >= b - 0.02 && $hi - $lo <= 0.05)) bad=1; n++} END{exit bad || n != 2}' "$TMP/s.csv"; then
    echo "FAIL: sweep of search=saturation"; cat "$TMP/s.csv"; FAILS=$((FAILS + 1)); fi
else
  echo "FAIL: sweep of search=saturation did not run"; FAILS=$((FAILS + 1))
fi
expect_fail 2 "search=none: leave the key out for one run" run search=none $R
# the replications of a load run in parallel (OpenMP) and give the serial search's bytes
OMP_NUM_THREADS=1 "$RS" saturate $R saturate_precision=0.05 --format csv >"$TMP/sat1.csv"
OMP_NUM_THREADS=4 "$RS" saturate $R saturate_precision=0.05 --format csv >"$TMP/sat4.csv"
check "saturate: 1 and 4 threads give the same bytes" cmp -s "$TMP/sat1.csv" "$TMP/sat4.csv"
check "saturate: the walk has points" test "$(grep -c '^point,' "$TMP/sat1.csv")" -ge 4
# with predict=channel_load the record carries the bound: 3 sources per channel, 1/3
expect_ok '"saturation_rate_hi":[0-9.]+,"channel_load":3,"throughput_bound":0.333333' run search=saturation $R saturate_precision=0.05 predict=channel_load --format json
# `routesim help saturate` lists the search's keys (not search=, which the command implies)
expect_ok '^  saturate_reps ' help saturate
check "help saturate: every saturate_ key" test "$("$RS" help saturate | grep -cE '^  saturate_(lo|hi|precision|reps) ')" = 4
finish
