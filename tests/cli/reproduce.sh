#!/usr/bin/env bash
# Reproductions: a fixture with known verdicts (two hold, one does not), the files a
# reproduction writes, unknown names; and the shipped quick reproduction runs end to end.
. "$(dirname "$0")/lib.bash"
check() { local name=$1; shift; if "$@"; then PASSES=$((PASSES + 1)); else echo "FAIL: $name"; FAILS=$((FAILS + 1)); fi; }

out=$(RS_EXPERIMENTS="$RS_TEST_DATA/repro" "$RS" reproduce fixture --quick --out "$TMP/fx" 2>/dev/null)
check "fixture verdicts" grep -q "fixture: 2 hold, 1 do not hold, 0 inconclusive" <<<"$out"
check "report written" test -s "$TMP/fx/REPORT.md"
check "identity ratio is exactly 1" grep -q "ratio makespan/log2(N) from 1.000 to 1.000 over the last 4 sizes (N = 16 .. 128)" "$TMP/fx/REPORT.md"
check "false claim reported as not holding" grep -q "Verdict (all rows): does not hold\*\* — fitted exponent 1.000" "$TMP/fx/REPORT.md"
check "quick sizes used" test "$(($(wc -l <"$TMP/fx/exact.csv") - 1))" = 5
for f in exact.csv exact-runs.csv exact.gp exact.svg; do check "writes $f" test -s "$TMP/fx/$f"; done
RS_EXPERIMENTS="$RS_TEST_DATA/repro" "$RS" reproduce fixture --out "$TMP/full" >/dev/null 2>&1
check "full sizes used" test "$(($(wc -l <"$TMP/full/exact.csv") - 1))" = 6

RS_EXPERIMENTS="$RS_TEST_DATA/repro" "$RS" reproduce fixtrue >/dev/null 2>"$TMP/err"
st=$?
check "unknown reproduction exits 2 ($st)" test $st = 2
check "... with a suggestion" grep -q "did you mean 'fixture'" "$TMP/err"
check "list" grep -q "fixture" <<<"$(RS_EXPERIMENTS="$RS_TEST_DATA/repro" "$RS" reproduce)"

# The shipped first reproduction, quick, end to end.
out=$("$RS" reproduce maggs-sitaraman-greedy --quick --out "$TMP/ms" 2>/dev/null)
check "maggs-sitaraman-greedy quick runs" grep -q "report: $TMP/ms/REPORT.md" <<<"$out"
check "its report has verdicts" test "$(grep -c '^\*\*Verdict' "$TMP/ms/REPORT.md")" -ge 20
finish
