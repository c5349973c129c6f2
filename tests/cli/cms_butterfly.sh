#!/usr/bin/env bash
# algorithm=cms_butterfly from the command line: the hand-worked run of
# tests/algo/test_cms_butterfly.c, `list` and `help`, the round cap (exit 1, one line, no
# record), refused configurations (exit 2, one line), and a sweep over vcs with its plot data.
. "$(dirname "$0")/lib.bash"

CMS="topology=butterfly wrap=1 switching=wormhole algorithm=cms_butterfly"
expect_ok '"makespan":28,.*"rounds":2,.*"copies_discarded_at_input":1,.*"steps_per_round":"21;7"' \
  run $CMS N=8 traffic=bitrev length=2 pad=0 seed=33 --format json
expect_ok 'cms_butterfly' list
expect_ok 'max_rounds' help cms_butterfly

# The cap: an error on stderr (exit 1), nothing on stdout.
expect_fail 1 '^routesim: algorithm=cms_butterfly: 2 of 8 messages undelivered after max_rounds=1 rounds \(the paper.s count is 5\): 0, 4$' \
  run $CMS N=8 traffic=bitrev length=2 pad=0 seed=33 max_rounds=1

# Bad input.
expect_fail 2 'algorithm=cms_butterfly needs wrap=1' \
  run topology=butterfly N=16 switching=wormhole algorithm=cms_butterfly
expect_fail 2 'algorithm=cms_butterfly needs switching=wormhole \(got store_forward\)' \
  run topology=butterfly wrap=1 N=16 switching=store_forward algorithm=cms_butterfly
expect_ok '^switching +wormhole$' run topology=butterfly wrap=1 N=16 algorithm=cms_butterfly
expect_fail 2 'on_delay=wait is not possible' run $CMS N=16 on_delay=wait
expect_fail 2 "unknown key 'betta'.*did you mean 'beta'" run $CMS N=16 betta=2
expect_fail 2 "key 'max_rounds'" run $CMS N=16 max_rounds=0

# A sweep over vcs: one row per point, all messages delivered, the bound in its own column.
cat >"$TMP/cms.ini" <<INI
topology = butterfly
wrap = 1
N = 64
traffic = qrelation
per_input = 6
switching = wormhole
algorithm = cms_butterfly
length = 6
vcs = 1..3
runs = 2
seed = 4
INI
if "$RS" sweep -c "$TMP/cms.ini" -o "$TMP/cms.csv" --jobs 2 >/dev/null 2>&1 &&
   [ "$(wc -l <"$TMP/cms.csv")" = 4 ] &&
   awk -F, -v d="$(csvcol delivered_min "$TMP/cms.csv")" -v m="$(csvcol messages_max "$TMP/cms.csv")" \
     -v b="$(csvcol bound_mean "$TMP/cms.csv")" 'NR>1 && ($d != $m || $b <= 0) {bad=1} END{exit bad}' "$TMP/cms.csv"; then
  PASSES=$((PASSES + 1))
else
  echo "FAIL: cms_butterfly sweep"; cat "$TMP/cms.csv" 2>/dev/null | head -3; FAILS=$((FAILS + 1))
fi
finish
