#!/usr/bin/env bash
# Bad input: one clear line on stderr naming what is wrong, exit status 2, nothing on
# stdout and no output file written.
. "$(dirname "$0")/lib.bash"

expect_fail 2 "unknown command 'rn' \(did you mean 'run'\?\)" rn
expect_fail 2 "unknown key 'quue_size' \(did you mean 'queue_size'\?\)" run quue_size=2
expect_fail 2 "unknown value 'fifoo' for key 'protocol' \(did you mean 'fifo'\?\)" run protocol=fifoo
expect_fail 2 "unknown value 'butterfy' for key 'topology' \(did you mean 'butterfly'\?\)" run topology=butterfy
expect_fail 2 "power of two" run topology=butterfly N=12
expect_fail 2 "queue_size" run queue_size=-1
expect_fail 2 "expected KEY=VALUE, got 'banana'" run banana
expect_fail 2 "unknown option '--fromat' \(did you mean '--format'\?\)" run --fromat json
expect_fail 2 "unknown value 'xml'" run --format xml
expect_fail 2 "wrap=1" run routing=valiant
expect_fail 2 "routing=ranade is not available on topology=butterfly \(Ranade's first stage needs back-to-back butterflies: topology=benes, 004 §5\)" run routing=ranade
expect_fail 2 "key 'rank_levels'" run protocol=rank rank_levels=70000
expect_fail 2 "unknown key 'bpc'" run traffic=uniform bpc=0,1,2
expect_fail 2 "cannot open '$TMP/missing.ini'" run -c "$TMP/missing.ini"
printf 'topology = butterfly\nN = 16\nqueue_size = two\n' >"$TMP/bad.ini"
expect_fail 2 "bad.ini:3: key 'queue_size'" run -c "$TMP/bad.ini"
printf 'N = 16\nprotcol = fifo\n' >"$TMP/typo.ini"
expect_fail 2 "typo.ini:2: unknown key 'protcol' \(did you mean 'protocol'\?\)" run -c "$TMP/typo.ini"
expect_fail 2 "no help on 'butterfli' \(did you mean 'butterfly'\?\)" help butterfli
expect_fail 2 "even number of address digits" analyze topology=butterfly N=8 traffic=transpose

# Nothing half-written: a failing run leaves no output file behind.
expect_fail 2 "power of two" run topology=butterfly N=12 -o "$TMP/res.csv" --format csv
if [ -e "$TMP/res.csv" ]; then echo "FAIL: output file written on error"; FAILS=$((FAILS + 1)); fi

# A deadlock is reported with its waiting cycle (exit 1), never a hang.
"$RS" run topology=ring k=7 traffic=tornado queue_size=1 >"$TMP/out" 2>"$TMP/err"
st=$?
if [ $st != 1 ] || ! grep -q "waiting cycle of 7 full queues" "$TMP/err" || ! grep -q "deadlock" "$TMP/out"; then
  echo "FAIL: deadlock run -> status $st"; cat "$TMP/err"; FAILS=$((FAILS + 1))
else
  PASSES=$((PASSES + 1))
fi
finish
