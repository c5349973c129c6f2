#!/usr/bin/env bash
# Reproductions: a fixture with known verdicts (every kind of claim, holding and not: the
# reasons are in tests/data/repro/fixture/claims.ini), the files a reproduction writes, bad
# claims (one line, exit 2, no report), unknown and former names, dry runs; the shipped
# reproductions of 002 and 004 validate in both modes (dry run) and run end to end, their
# largest experiments with a test-only override of their [quick] sizes (001: cole_maggs_sitaraman.sh).
. "$(dirname "$0")/lib.bash"

out=$(RS_EXPERIMENTS="$RS_TEST_DATA/repro" "$RS" reproduce fixture --quick --out "$TMP/fx" 2>/dev/null)
check "fixture verdicts" grep -q "fixture: 14 hold, 10 do not hold, 2 inconclusive, 1 vacuous;" <<<"$out"
check "report written" test -s "$TMP/fx/REPORT.md"
check "identity ratio is exactly 1" grep -q "ratio makespan/log2(N) from 1.000 to 1.000 over the last 4 sizes (N = 16 .. 128)" "$TMP/fx/REPORT.md"
check "false claim reported as not holding" grep -q "Verdict (all rows): does not hold\*\* — fitted exponent 1.000" "$TMP/fx/REPORT.md"
check "quick sizes used" test "$(($(wc -l <"$TMP/fx/exact.csv") - 1))" = 5
for f in exact.csv exact-runs.csv exact.gp exact.svg; do check "writes $f" test -s "$TMP/fx/$f"; done

# verdicts NAME: the verdict words of claim NAME's groups, one per line.
verdicts() {
  awk -v h="### $1" '$0 == h {on = 1; next} /^### / {on = 0} on && /^\*\*Verdict/' "$TMP/fx/REPORT.md" |
    sed -E 's/^\*\*Verdict \([^)]*\): ([a-z ]+)\*\*.*/\1/'
}
while read -r name want; do
  got=$(verdicts "$name" | paste -sd, -)
  check "claim $name: $want (got $got)" test "$got" = "$want"
done <<'END'
identity_is_log2N holds
messages_grow_linearly holds
messages_grow_quadratically does not hold
bitrev_congestion_exact holds
bitrev_hops_exact holds
bitrev_makespan_is_log2N does not hold
bitrev_within_CD holds
bitrev_within_log2N does not hold
bitrev_at_least_log2N holds
bitrev_at_least_zero vacuous
identity_at_least_2log2N does not hold
identity_predicted_by_dilation holds
uniform_predicted_by_log2N does not hold
uniform_slower_than_identity holds
uniform_faster_than_identity does not hold
uniform_more_hops_than_identity does not hold
identity_has_no_variance holds
uniform_has_no_variance does not hold
identity_factor_64_16 holds
identity_factor_of_two does not hold
uniform_factor_256_16 holds
identity_difference_at_most_one holds
identity_difference_half does not hold
first_doubling_adds_little holds,holds
factor_missing_size inconclusive
no_rows inconclusive
END
r=$TMP/fx/REPORT.md
check "bound: worst row and margin" grep -q "7 of 7 rows exceed the bound; worst row N=512: makespan max 24 against the bound 9 (margin -15)" "$r"
check "vacuous: lower bound 0" grep -q "the lower bound is 0 or below in all 7 rows, and makespan is never negative" "$r"
check "lower bound: worst row and margin" grep -q "5 of 5 rows fall below the bound; worst row N=128: makespan min 7 against the bound 14 (margin -7)" "$r"
check "equal: the farthest row" grep -q "7 of 7 rows differ; the farthest, N=512: makespan from 24 to 24 against 9" "$r"
check "prediction: tolerance reason quoted" grep -q 'Why this tolerance: "closely approximate" read as 5%' "$r"
check "prediction: largest error" grep -q "largest relative error 45.31% (N=256)" "$r"
check "compare: Welch row" grep -qF "| | 16 | 5.5 ± 0.447 | 4 ± 0 | 1.5 [1.05313, 1.94687] | 7.94 | 7.0 | 9.58e-05 | as claimed |" "$r"
check "factor: Fieller interval" grep -qF "ratio A / B = 2.11364, 95% interval [1.93535, 2.31571] (N=256 against N=16)" "$r"
check "missing point named" grep -qF "no pair of rows: no row with \`N=4096\` in this group" "$r"
check "range: extremes named" grep -qF "makespan_var from 0 (N=128) to 0.553571 (N=256)" "$r"
# The worst instance of a bound is a command that reproduces it.
cmd=$(awk '/^### bitrev_within_log2N$/ {on = 1} on && /^Worst instance/ {print; exit}' "$r" |
  sed -E 's/.*`routesim run ([^`]*)`.*/\1/')
# shellcheck disable=SC2086
"$RS" run $cmd --format csv >"$TMP/worst.csv" 2>/dev/null
check "worst instance re-runs to the same makespan" test "$(awk -F, -v c="$(csvcol makespan "$TMP/worst.csv")" 'NR == 2 {print $c}' "$TMP/worst.csv")" = 24
check "theory curve in the plot" grep -q '^\$T0_0 << EOD' "$TMP/fx/bitrev.gp"
check "theory curve title" grep -qF 'title "theory: congestion 2^floor((log2 N - 1)/2)"' "$TMP/fx/bitrev.gp"
check "theory column in the plot" grep -qF 'title "dilation_mean"' "$TMP/fx/bitrev.gp"
check "two metrics, both with error bars" test "$(grep -c 'with yerrorlines' "$TMP/fx/bitrev.gp")" = 2

# Bad claims: one line naming the claim, file and key; exit 2; no report.
mkdir -p "$TMP/bad/fixture"
cp "$RS_TEST_DATA/repro/fixture/random.ini" "$TMP/bad/fixture/"
bad_claim() {
  local pat=$1; shift
  printf 'title = bad\n[claim.c]\nexperiment = random\n' >"$TMP/bad/fixture/claims.ini"
  printf '%s\n' "$@" >>"$TMP/bad/fixture/claims.ini"
  rm -rf "$TMP/bad/out"
  RS_EXPERIMENTS="$TMP/bad" "$RS" reproduce fixture --out "$TMP/bad/out" >/dev/null 2>"$TMP/err"
  local st=$?
  if [ $st = 2 ] && [ "$(grep -vc '^routesim: reproducing' "$TMP/err")" = 1 ] &&
    grep -Eq -- "$pat" "$TMP/err" && [ ! -e "$TMP/bad/out/REPORT.md" ]; then
    PASSES=$((PASSES + 1))
  else
    echo "FAIL: bad claim ($*): status $st, stderr:"; cat "$TMP/err"; echo "      wanted /$pat/"
    FAILS=$((FAILS + 1))
  fi
}
bad_claim "claims.ini:5: claim 'c': unknown key 'bund' for kind bound \(did you mean 'bound'\?\)" "kind = bound" "bund = 3"
bad_claim "claims.ini:4: claim 'c': unknown kind 'bund' \(did you mean 'bound'\?\)" "kind = bund"
bad_claim "claim 'c': missing key 'kind' \(one of bounded_ratio, exponent, report, bound, equal, prediction, compare, range, factor, difference\)" "bound = 3"
bad_claim "claim 'c': key 'bound': cannot evaluate 'log2\(N\) \+ congestion_men' \(row N=16, traffic=identity\): no column 'congestion_men' \(did you mean 'congestion_mean'\?\)" "kind = bound" "bound = log2(N) + congestion_men"
bad_claim "claim 'c': missing key 'tolerance_reason' \(why this tolerance" "kind = prediction" "predicted = log2(N)" "tol = 0.1"
bad_claim "claims.ini:6: key 'tol': expected a number" "kind = prediction" "predicted = log2(N)" "tol = ten" "tolerance_reason = r"
bad_claim "claim 'c': a range needs key 'lo', 'hi' or both" "kind = range"
bad_claim "claim 'c': a row of side a has several partners in side b \(they differ in 'N'\)" "kind = compare" "a = traffic=uniform" "b = traffic=identity" "match = topology" "sign = less"
bad_claim "claims.ini:5: unknown value 'lesser' for key 'sign' \(did you mean 'less'\?\)" "kind = compare" "sign = lesser" "a = traffic=uniform" "b = traffic=identity"
bad_claim "claim 'c': key 'a': item 'N' is not KEY=VALUE" "kind = factor" "a = N" "b = N=16" "expect = 2" "tol = 0.1"
bad_claim "claim 'c': '.*random.csv' has no column 'M' \(did you mean 'N'\?\)" "kind = difference" "a = M=32" "b = N=16" "at_most = 1"
bad_claim "claims.ini:5: unknown section \[clam.d\] \(did you mean \[claim.d\]\?\)" "kind = report" "[clam.d]" "kind = report"
bad_claim "claim 'c': at_least = 2 is above at_most = 1" "kind = difference" "a = N=32" "b = N=16" "at_most = 1" "at_least = 2"
RS_EXPERIMENTS="$RS_TEST_DATA/repro" "$RS" reproduce fixture --out "$TMP/full" >/dev/null 2>&1
check "full sizes used" test "$(($(wc -l <"$TMP/full/exact.csv") - 1))" = 6

RS_EXPERIMENTS="$RS_TEST_DATA/repro" "$RS" reproduce fixtrue >/dev/null 2>"$TMP/err"
st=$?
check "unknown reproduction exits 2 ($st)" test $st = 2
check "... with a suggestion" grep -q "did you mean 'fixture'" "$TMP/err"
check "list" grep -q "fixture" <<<"$(RS_EXPERIMENTS="$RS_TEST_DATA/repro" "$RS" reproduce)"

# Dry runs: every point of every grid validated, claims' kinds and keys checked, nothing
# written; a bad point of the full grid only, a bad claim key and a claim naming no
# experiment are one line and exit 2.
SHIPPED=$(realpath "$(dirname "$0")/../../experiments")
# (their full grids are validated nowhere else; the quick one of 001 runs in cole_maggs_sitaraman.sh)
expect_ok '^cole-maggs-sitaraman \(full\): [0-9]+ experiments, [0-9]+ points, [0-9]+ runs, [0-9]+ claims: valid' reproduce cole-maggs-sitaraman --dry-run
expect_ok '^maggs-sitaraman \(full\): [0-9]+ experiments, [0-9]+ points, [0-9]+ runs, [0-9]+ claims: valid' reproduce maggs-sitaraman --dry-run
expect_ok '^maggs-sitaraman \(quick\): 11 experiments, 712 points, 7218 runs, 30 claims: valid' reproduce maggs-sitaraman --dry-run --quick
expect_ok '^scherson-chien \(full\): 7 experiments, 123 points, 389400 runs, 28 claims: valid' reproduce scherson-chien --dry-run
expect_ok '^bay-bilardi \(quick\): [0-9]+ experiments, [0-9]+ points, [0-9]+ runs, [0-9]+ claims: valid' reproduce bay-bilardi --dry-run --quick
expect_ok '^scherson-chien \(quick\): [0-9]+ experiments, [0-9]+ points, [0-9]+ runs, [0-9]+ claims: valid' reproduce scherson-chien --dry-run --quick
expect_ok '^makedon-symvonis \(full\): [0-9]+ experiments, [0-9]+ points, [0-9]+ runs, [0-9]+ claims: valid' reproduce makedon-symvonis --dry-run
expect_ok '^makedon-symvonis \(quick\): [0-9]+ experiments, [0-9]+ points, [0-9]+ runs, [0-9]+ claims: valid' reproduce makedon-symvonis --dry-run --quick
expect_ok '^openloop \(quick\): 18 experiments, 144 points, 528 runs, 33 claims: valid' reproduce openloop --dry-run --quick
expect_ok '^openloop \(full\): 18 experiments, 576 points, 2688 runs, 33 claims: valid' reproduce openloop --dry-run
expect_ok '^dragonfly \(full\): 5 experiments, 184 points, 552 runs, 6 claims: valid' reproduce dragonfly --dry-run
expect_ok '^dragonfly \(quick\): 5 experiments, [0-9]+ points, [0-9]+ runs, 6 claims: valid' reproduce dragonfly --dry-run --quick
# One reproduction per paper: a former name is an error naming the reproduction that holds it.
expect_fail 2 "^routesim: no reproduction 'koch': it is now part of 'maggs-sitaraman' \(one reproduction per paper; try \`routesim reproduce maggs-sitaraman\`\)$" reproduce koch --dry-run
expect_fail 2 "no reproduction 'cms': it is now named 'cole-maggs-sitaraman'" reproduce cms
expect_fail 2 "no reproduction 'lcan-realization': it is now part of 'scherson-chien'" reproduce lcan-realization --quick
mkdir -p "$TMP/dry/fixture"
cp "$RS_TEST_DATA"/repro/fixture/*.ini "$TMP/dry/fixture/"
printf 'topology = butterfly\nN = 2^4..2^5\ntraffic = transpose\nruns = 2\n[quick]\nN = 16\n[plot]\nx = N\n' >"$TMP/dry/fixture/odd.ini"
RS_EXPERIMENTS="$TMP/dry" expect_ok 'fixture \(quick\): 4 experiments' reproduce fixture --dry-run --quick
RS_EXPERIMENTS="$TMP/dry" expect_fail 2 'traffic=transpose needs an even number of address digits or of address bits \(got 5 digits of base 2, N=32\)' reproduce fixture --dry-run
rm "$TMP/dry/fixture/odd.ini"
cp "$TMP/dry/fixture/claims.ini" "$TMP/claims.ini"
printf '[claim.x]\nkind = range\nexperiment = exact\nhi = many\n' >>"$TMP/dry/fixture/claims.ini"
RS_EXPERIMENTS="$TMP/dry" expect_fail 2 "claims.ini:[0-9]+: key 'hi': expected a number" reproduce fixture --dry-run
cp "$TMP/claims.ini" "$TMP/dry/fixture/claims.ini"
printf '[claim.x]\nkind = range\nexperiment = exakt\nhi = 1\n' >>"$TMP/dry/fixture/claims.ini"
RS_EXPERIMENTS="$TMP/dry" expect_fail 2 "claims.ini:[0-9]+: claim 'x': no experiment 'exakt'" reproduce fixture --dry-run
check "a dry run writes nothing" test ! -e results/fixture -a ! -e "$TMP/dry/out"

# The shipped reproductions of 002 and 004 end to end: 002 §4 (acceptance, offline,
# selfroute) and 004 §2, §3, §6 (greedy, permutations, loaded) at their [quick] sizes; 002 §3
# (fig5-7) and 004 §5 (drop_*) cut further in copies of their INIs (set_quick replaces a key
# of the [quick] section; a key given twice in one section is an error): every claim is
# judged on the real columns, every plot drawn.
# set_quick FILE KEY VALUE: KEY = VALUE in FILE's [quick] section (replaced or added).
set_quick() {
  awk -v key="$2" -v val="$3" '
    /^\[/ { if (inq && !done) { print key " = " val; done = 1 } inq = ($0 == "[quick]") }
    inq && $1 == key && $2 == "=" { if (!done) print key " = " val; done = 1; next }
    { print }
    END { if (!done) { if (!inq) print "[quick]"; print key " = " val } }' "$1" >"$1.new" && mv "$1.new" "$1"
}
for r in scherson-chien maggs-sitaraman; do
  mkdir -p "$TMP/ship/$r"
  cp "$SHIPPED/$r"/*.ini "$TMP/ship/$r/"
done
for f in "$TMP"/ship/scherson-chien/fig[567].ini "$TMP"/ship/maggs-sitaraman/drop_{random,permutations,atom}.ini; do
  set_quick "$f" runs 3
done
set_quick "$TMP/ship/scherson-chien/fig7.ini" N '4^2..4^5'
set_quick "$TMP/ship/maggs-sitaraman/drop_random.ini" N '2^4..2^8'
set_quick "$TMP/ship/maggs-sitaraman/drop_permutations.ini" N '4^3..4^4'
set_quick "$TMP/ship/maggs-sitaraman/drop_atom.ini" N '4^3..4^4'
set_quick "$TMP/ship/maggs-sitaraman/loaded_threshold.ini" N '2^4..2^8'
set_quick "$TMP/ship/maggs-sitaraman/hard_bound.ini" N '2^8..2^10'
set_quick "$TMP/ship/maggs-sitaraman/hard_contrast.ini" N '2^11..2^12'
check "set_quick replaced the [quick] sizes" test "$(grep -c '^N = 4^3..4^4$' "$TMP/ship/maggs-sitaraman/drop_atom.ini")" = 1
sed -i 's/^filter = N=16384$/filter = N=256/' "$TMP/ship/maggs-sitaraman/claims.ini"
for r in scherson-chien:122 maggs-sitaraman:130; do
  name=${r%%:*} verdicts=${r##*:}
  out=$(RS_EXPERIMENTS="$TMP/ship" "$RS" reproduce "$name" --quick --jobs 2 --out "$TMP/ship/out-$name" 2>"$TMP/err")
  check "$name smoke run ($(head -c 300 "$TMP/err"))" grep -q "^$name: [0-9]* hold, [0-9]* do not hold, [0-9]* inconclusive" <<<"$out"
  n=$(grep -c '^\*\*Verdict' "$TMP/ship/out-$name/REPORT.md")
  check "$name: $verdicts verdict lines (got $n)" test "$n" = "$verdicts"
  claims=$(grep -c '^\[claim\.' "$SHIPPED/$name/claims.ini")
  check "$name: every claim reported" test "$(grep -c '^### ' "$TMP/ship/out-$name/REPORT.md")" = "$claims"
  for f in "$TMP/ship/$name"/*.ini; do
    b=$(basename "$f" .ini)
    [ "$b" = claims ] && continue
    check "$name: $b.png" test -s "$TMP/ship/out-$name/$b.png" -o -s "$TMP/ship/out-$name/$b.gp"
  done
done
check "scherson-chien: the recurrence beside the measurement" grep -qF 'title "predicted_cycles_mean, traffic=root"' "$TMP/ship/out-scherson-chien/fig6.gp"
# 002 §4 at its real quick sizes: every claim of permutation realization holds in every group.
ship_verdicts() { # ship_verdicts REPRODUCTION CLAIM: its verdict words, distinct, comma-separated
  awk -v h="### $2" '$0 == h {on = 1; next} /^### / {on = 0} on && /^\*\*Verdict/' "$TMP/ship/out-$1/REPORT.md" |
    sed -E 's/^\*\*Verdict \([^)]*\): ([a-z ]+)\*\*.*/\1/' | sort -u | paste -sd, -
}
for c in $(awk '/^experiment = (acceptance|offline|selfroute)$/ {print name} /^\[claim\./ {name = substr($0, 8, length($0) - 8)}' "$SHIPPED/scherson-chien/claims.ini"); do
  got=$(ship_verdicts scherson-chien "$c")
  check "scherson-chien: claim $c holds (got $got)" test "$got" = holds
done
check "scherson-chien: the nine claims of 002 §4" test "$(grep -cE '^experiment = (acceptance|offline|selfroute)$' "$SHIPPED/scherson-chien/claims.ini")" = 9
finish
