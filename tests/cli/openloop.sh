#!/usr/bin/env bash
# Open-loop injection from the command line for switching=store_forward and circuit: a mesh
# and an LCAN run with throughput and latency, a deadlock (exit 1, the record written,
# saturated), sweeps giving the same bytes with --jobs 1 and 2, help, and bad input.
. "$(dirname "$0")/lib.bash"
cd "$TMP"

cell() { # cell COLUMN FILE: the value in the first data row
  awk -F, -v c="$(csvcol "$1" "$2")" 'NR==2{print $c}' "$2"
}

# Store-and-forward on an 8x8 mesh, input queues of 4, 0.2 packets per terminal per step:
# accepted = offered (within 2%), not saturated, latency above the zero-load 5.25 and below 7.
"$RS" run topology=mesh k=8 queue_size=4 injection_process=bernoulli injection_rate=0.2 \
  warmup_steps=500 measure_steps=3000 --format csv >saf.csv || FAILS=$((FAILS + 1))
acc=$(cell accepted saf.csv) off=$(cell offered saf.csv) sat=$(cell saturated saf.csv)
lat=$(cell latency_mean saf.csv)
check "store_forward open loop: accepted=$acc offered=$off saturated=$sat latency=$lat" \
  awk -v a="$acc" -v o="$off" -v s="$sat" -v l="$lat" \
  'BEGIN{exit !(a > 0.98 * o && a < 1.02 * o && s == 0 && l > 5.25 && l < 7)}'
check "batch columns unchanged" grep -q '^topology,k,n,traffic,per_input,switching,routing,seed,check,algorithm,queue_at,queue_size,protocol,on_full,rank_levels,makespan,' \
  <("$RS" run topology=mesh k=4 --format csv)

# Circuit switching on an LCAN(64,4,4): latency in network cycles, at least 1.
"$RS" run topology=lcan N=64 d=4 u=4 switching=circuit injection_process=bernoulli \
  injection_rate=0.1 warmup_steps=200 measure_steps=2000 --format csv >circ.csv || FAILS=$((FAILS + 1))
acc=$(cell accepted circ.csv) sat=$(cell saturated circ.csv) lat=$(cell latency_mean circ.csv)
cyc=$(cell cycles circ.csv)
check "circuit open loop: accepted=$acc saturated=$sat latency=$lat cycles=$cyc" \
  awk -v a="$acc" -v s="$sat" -v l="$lat" -v c="$cyc" \
  'BEGIN{exit !(a > 0.09 && a < 0.11 && s == 0 && l >= 1 && l < 1.5 && c > 2200 && c < 2300)}'

# A deadlock of switch queues: exit 1, the record on stdout (saturated), one line on stderr.
"$RS" run topology=mesh k=4 queue_at=switch queue_size=2 injection_process=bernoulli \
  injection_rate=0.3 warmup_steps=50 measure_steps=300 drain_steps=200 arrivals=per_step >out 2>err
st=$?
check "deadlock: status $st, $(wc -l <err) stderr line(s)" test "$st" = 1 -a "$(wc -l <err)" = 1
check "deadlock line" grep -q '^routesim: deadlock at step 84: waiting cycle of 2 full queues: switch queue of (3,1) (2/2) -> switch queue of (3,2) (2/2) -> back to the first$' err
check "deadlocked run is saturated" grep -Eq '^saturated +1$' out

# Sweeps: the same bytes whatever the number of jobs.
cat >saf.ini <<'INI'
topology = mesh
k = 4
queue_size = 2
protocol = fifo,random
injection_process = bernoulli
injection_rate = 0.1,0.4
warmup_steps = 50
measure_steps = 400
runs = 3
seed = 7
INI
cat >circ.ini <<'INI'
topology = butterfly
N = 16
switching = circuit
passes = 0,2
injection_process = bernoulli
injection_rate = 0.2,0.8
warmup_steps = 50
measure_steps = 400
runs = 3
seed = 7
INI
for g in saf circ; do
  "$RS" sweep -c $g.ini -o ${g}1.csv --per-run ${g}r1.csv --jobs 1 2>/dev/null || FAILS=$((FAILS + 1))
  "$RS" sweep -c $g.ini -o ${g}2.csv --per-run ${g}r2.csv --jobs 2 2>/dev/null || FAILS=$((FAILS + 1))
  check "$g sweep: 4 points" test "$(wc -l <${g}1.csv)" = 5
  check "$g sweep: --jobs 1 and 2 give the same statistics" cmp -s ${g}1.csv ${g}2.csv
  check "$g sweep: --jobs 1 and 2 give the same runs" cmp -s ${g}r1.csv ${g}r2.csv
  check "$g sweep: accepted and saturated columns" grep -q 'accepted_mean,.*saturated_mean' ${g}1.csv
done

# help lists the open-loop keys with each engine.
expect_ok 'injection_rate_uses_flits' help store_forward
expect_ok 'warmup_steps' help circuit

# Bad input: one line, exit 2, nothing on stdout.
expect_fail 2 "length_max=2: a store-and-forward packet has no length" run injection_process=bernoulli length_max=2
expect_fail 2 "length_max=4: a circuit carries one message per cycle" run switching=circuit injection_process=bernoulli length_max=4
expect_fail 2 "injection_rate= is a key of open-loop injection: it needs injection_process=bernoulli" run switching=circuit injection_rate=0.3
expect_fail 2 "routing=ranade sets the first butterfly once" run topology=benes routing=ranade injection_process=bernoulli
expect_fail 2 "unknown value 'poisson' for key 'injection_process'" run injection_process=poisson
finish
