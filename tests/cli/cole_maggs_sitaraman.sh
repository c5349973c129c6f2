#!/usr/bin/env bash
# Cole-Maggs-Sitaraman (001) through the binary: algorithm=colour_refine on good input (no
# blocked header, the lower-bound network with its linked keys), its errors (one line, exit
# 2, nothing written), and the reproduction `cole-maggs-sitaraman --quick` end to end: CSV,
# plots, a report whose exact claims hold.
. "$(dirname "$0")/lib.bash"

expect_ok '^blocked_header_steps +0$' run topology=mesh k=8 traffic=uniform per_input=2 switching=wormhole vcs=2 algorithm=colour_refine
expect_ok '^late_messages +0$' run topology=torus k=6 traffic=randperm switching=virtual_cut_through vcs=3 algorithm=colour_refine colour_constants=tight
# built for B = 1, run with 2 virtual channels: every primary edge carries 2 messages, one class
expect_ok '^classes +1$' run topology=cms_lower_bound B=1 C=2 D=15 L=30 vcs=2 traffic=paths switching=wormhole algorithm=colour_refine colour_constants=tight
expect_ok '^makespan +44$' run topology=cms_lower_bound B=1 C=2 D=15 L=30 vcs=2 traffic=paths switching=wormhole algorithm=colour_refine
# B=2 alone: vcs follows it
expect_ok '^vcs +2$' run topology=cms_lower_bound B=2 C=3 D=10 L=20 traffic=paths switching=wormhole
# link=shared: classes B (L + D - 1) = 2 (10 + 5 - 1) apart (D = 5 for this seed)
expect_ok '^period +28$' run topology=mesh k=4 traffic=uniform switching=wormhole vcs=2 length=10 link=shared algorithm=colour_refine

expect_fail 2 "algorithm=colour_refine needs switching=wormhole\|virtual_cut_through\|cut_through_partial \(got store_forward\)" run topology=mesh k=4 algorithm=colour_refine
expect_fail 2 "algorithm=colour_refine needs vc_classes=none" run topology=torus k=4 switching=wormhole vcs=2 vc_classes=dateline algorithm=colour_refine
expect_fail 2 "unknown value 'best' for key 'colour_constants' \(expected proof\|tight\)" run topology=mesh k=4 switching=wormhole algorithm=colour_refine colour_constants=best
expect_fail 2 "takes channel 10 twice: the colour-refinement schedule needs edge-simple paths" run topology=butterfly N=8 wrap=1 traffic=uniform per_input=2 routing=valiant switching=wormhole algorithm=colour_refine -o "$TMP/x.csv"
check "nothing written on error" test ! -e "$TMP/x.csv"
expect_fail 2 "unknown key 'colour_constants' for algorithm=greedy \(it is a key of algorithm=colour_refine\)" run topology=mesh k=4 switching=wormhole colour_constants=tight
expect_fail 2 "command line \(length follows L=70000 of topology=cms_lower_bound\): key 'length'" run topology=cms_lower_bound L=70000 traffic=paths switching=wormhole

# The reproduction, quick, end to end.
out=$("$RS" reproduce cole-maggs-sitaraman --quick --out "$TMP/cole-maggs-sitaraman" 2>/dev/null)
check "cole-maggs-sitaraman quick runs" grep -q "report: $TMP/cole-maggs-sitaraman/REPORT.md" <<<"$out"
for f in lb_greedy lb_colour vcs_lb_greedy vcs_lb_colour vcs_butterfly vct_butterfly vct_chunks_butterfly colour_paths; do
  check "writes $f.csv" test -s "$TMP/cole-maggs-sitaraman/$f.csv"
  check "writes $f-runs.csv" test -s "$TMP/cole-maggs-sitaraman/$f-runs.csv"
  check "writes $f.gp" test -s "$TMP/cole-maggs-sitaraman/$f.gp"
  if command -v gnuplot >/dev/null; then check "renders $f.png" test -s "$TMP/cole-maggs-sitaraman/$f.png"; fi
done
verdicts() {
  awk -v h="### $1" '$0 == h {on = 1; next} /^### / {on = 0} on && /^\*\*Verdict/' "$TMP/cole-maggs-sitaraman/REPORT.md" |
    sed -E 's/^\*\*Verdict \([^)]*\): ([a-z ]+)\*\*.*/\1/' | sort -u | paste -sd, -
}
# the exact claims: the proof's count is a true lower bound; the schedule never blocks
for c in lb_greedy_explicit_count lb_colour_explicit_count lb_greedy_omega lb_colour_never_blocked colour_never_blocked colour_on_time; do
  got=$(verdicts "$c")
  check "claim $c holds (got $got)" test "$got" = "holds"
done
# the worst instance of a bound on the lower-bound network is a command that runs again
# (its recorded per_input, given by the paths, is accepted)
cmd=$(awk '/^### lb_greedy_explicit_count$/ {on = 1} on && /^Worst instance/ {print; exit}' "$TMP/cole-maggs-sitaraman/REPORT.md" |
  sed -E 's/.*`routesim run ([^`]*)`.*/\1/')
# shellcheck disable=SC2086
"$RS" run $cmd --format csv >"$TMP/worst.csv" 2>"$TMP/worst.err"
check "worst instance re-runs ($(cat "$TMP/worst.err"))" test "$(awk -F, -v c="$(csvcol makespan "$TMP/worst.csv")" 'NR == 2 {print $c}' "$TMP/worst.csv")" = 57
finish
