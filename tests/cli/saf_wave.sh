#!/usr/bin/env bash
# The leveled butterfly kernel (src/engine/saf_wave.c, issue 23) against the general
# store-and-forward engine: saf_kernel=leveled (the kernel, or an error when the run is
# outside its domain) and saf_kernel=general must print the same CSV, byte for byte but the
# saf_kernel column, over sizes N = 2..2^12, messages per input, capacities 1..15, seeds
# and traffic patterns (explicit sources too: many_to_one, one_to_many), on 1 to 4 threads.
# Also: saf_kernel is not echoed when absent (the base commit's bytes), auto takes the
# kernel's results, and runs outside the domain are refused by saf_kernel=leveled and run
# by auto.
. "$(dirname "$0")/lib.bash"

# same CONFIG...: leveled vs general, CSV without the saf_kernel column
same() {
  local a b
  a=$("$RS" run "$@" saf_kernel=leveled --format csv 2>&1; echo "rc=$?")
  b=$("$RS" run "$@" saf_kernel=general --format csv 2>&1; echo "rc=$?")
  a=${a//,leveled,/,}
  b=${b//,general,/,}
  if [ "$a" != "$b" ] || [ "${a##*rc=}" != 0 ]; then
    echo "FAIL: routesim run $* : leveled and general differ:"; echo "$a" | tail -2; echo "$b" | tail -2
    FAILS=$((FAILS + 1))
  else
    PASSES=$((PASSES + 1))
  fi
}

for N in 2 4 8 32 64 1024; do
  for q in 1 2 3 5; do
    for per in 1 2 7; do
      same topology=butterfly N=$N per_input=$per queue_size=$q seed=$((N + q + per))
    done
  done
done
for tr in uniform randperm bitrev transpose shuffle bitcomp tornado hotspot one_to_many; do
  for seed in 1 2 3; do
    same topology=butterfly N=256 traffic=$tr per_input=3 queue_size=2 seed=$seed
  done
done
for seed in 1 2 3; do
  same topology=butterfly N=256 traffic=many_to_one packets=100 per_input=1 queue_size=1 seed=$seed
  same topology=butterfly N=256 traffic=one_to_many packets=77 per_input=5 queue_size=2 seed=$seed
done
for seed in 1 2 3 4 5 6 7 8; do
  same topology=butterfly N=4096 per_input=4 queue_size=$(( (seed % 4) + 1 )) seed=$seed
  same topology=butterfly N=128 per_input=16 queue_size=15 seed=$seed
done
same topology=butterfly N=512 traffic=identity per_input=5 queue_size=1 seed=1
# compact ring entries count a level's steps in at most 16 bits: a level alive for more than
# 65,535 steps turns the run's dense levels wide (N = 8: levels 1 and 2 from the first step to the
# last of 66,000 injections per source; N = 16: three levels converted, queues holding
# packets)
same topology=butterfly N=8 per_input=66000 queue_size=1 seed=1
same topology=butterfly N=16 per_input=66000 queue_size=2 seed=2
same topology=butterfly N=16 traffic=transpose per_input=66000 queue_size=3 seed=3
# threads: a dense level's walk split over T threads (from 64 T groups of 32 rows on)
for T in 2 3 4; do
  for seed in 1 2; do
    same topology=butterfly N=8192 per_input=$((seed * 3)) queue_size=$((seed + 1)) threads=$T seed=$seed
  done
done
same topology=butterfly N=4096 traffic=many_to_one packets=2000 per_input=1 queue_size=1 threads=2 seed=4
# the JSON and table outputs too (auto, the default, against general)
for fmt in json table; do
  a=$("$RS" run topology=butterfly N=64 per_input=3 queue_size=2 seed=9 --format $fmt)
  b=$("$RS" run topology=butterfly N=64 per_input=3 queue_size=2 seed=9 saf_kernel=general --format $fmt)
  b=$(printf '%s\n' "$b" | grep -v '^saf_kernel ' | sed 's/"saf_kernel":"general",//')
  if [ "$a" != "$b" ]; then echo "FAIL: auto and general differ (--format $fmt)"; FAILS=$((FAILS + 1)); else PASSES=$((PASSES + 1)); fi
done
# absent key: not echoed (the base commit's columns)
expect_ok '^topology,N,wrap,traffic,per_input,switching,routing,seed,check,algorithm,queue_at,queue_size,protocol,on_full,rank_levels,makespan,' \
  run topology=butterfly N=16 queue_size=2 --format csv
# outside the domain: leveled refuses, auto runs the general engine
for extra in "queue_size=0" "queue_size=16" "queue_size=2 protocol=random" "queue_size=2 queue_at=output" \
             "queue_size=2 on_full=drop" "queue_size=2 wrap=1" "queue_size=2 check=1" \
             "queue_size=2 injection_process=bernoulli injection_rate=0.1"; do
  # shellcheck disable=SC2086 # a list of key=value words
  expect_fail 2 'saf_kernel=leveled needs a batch run on a butterfly' run topology=butterfly N=16 $extra saf_kernel=leveled
  # shellcheck disable=SC2086
  expect_ok 'delivered' run topology=butterfly N=16 $extra
done
finish
