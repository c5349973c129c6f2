#!/usr/bin/env bash
# Sweep data safety: --resume refuses foreign or damaged rows and reconciles the per-run
# file with the statistics file; deadlocked runs are kept out of the statistics, counted,
# warned about and marked in plots; a second Ctrl-C stops at once with whole rows only.
. "$(dirname "$0")/lib.bash"
cd "$TMP"


cat >grid.ini <<'INI'
topology = butterfly
N = 2^4..2^5
traffic = uniform
queue_size = 1,2
runs = 3
seed = 5
INI
"$RS" sweep -c grid.ini -o ref.csv --per-run ref-runs.csv --jobs 1 2>/dev/null
check "reference: 4 points, 12 runs" test "$(wc -l <ref.csv) $(wc -l <ref-runs.csv)" = "5 13"

# ---- resume: rows of another experiment with the same columns are refused, nothing changed
sed 's/^traffic = uniform/traffic = bitrev/' grid.ini >other.ini
cp ref.csv s.csv
out=$("$RS" sweep -c other.ini -o s.csv --resume 2>&1)
st=$?
check "another experiment with the same columns: exit 2 ($st) naming file:line and the cell" \
  test "$st" = 2 -a "$out" = "routesim: s.csv:2: a row of another grid or experiment: traffic is uniform (this sweep: bitrev); remove the file or write elsewhere"
check "... left as it was" cmp -s s.csv ref.csv

# ---- a point killed between its per-run rows and its statistics row, with a torn line
# after it: the per-run rows of that point are cut and the point is run again.
head -3 ref.csv >s.csv
head -10 ref-runs.csv >r.csv                 # rows of points 1-3 (point 3 has no stats row)
sed -n 11p ref-runs.csv | head -c 25 >>r.csv # and half a row of point 4
out=$("$RS" sweep -c grid.ini -o s.csv --per-run r.csv --resume 2>&1)
st=$?
check "per-run file ahead: resumed (exit $st) to the same statistics" test "$st" = 0 && cmp -s s.csv ref.csv
check "... and the same per-run bytes" cmp -s r.csv ref-runs.csv
check "... the summary says what was kept and cut" grep -qF "(2 written, 2 kept from before: their parameters, runs and seed match this sweep; cut 3 per-run rows of 1 point without a statistics row from r.csv (run again); cut a torn last line of r.csv)" <<<"$out"

# A torn per-run line alone (the statistics row of its point not written) is cut too.
head -3 ref.csv >s.csv
head -7 ref-runs.csv >r.csv
sed -n 8p ref-runs.csv | head -c 30 >>r.csv
"$RS" sweep -c grid.ini -o s.csv --per-run r.csv --resume 2>/dev/null
check "torn per-run line: same bytes" cmp -s r.csv ref-runs.csv

# ---- a missing or lagging per-run file is refused, nothing changed or created
head -3 ref.csv >s.csv
cp s.csv s0.csv
out=$("$RS" sweep -c grid.ini -o s.csv --per-run none.csv --resume 2>&1)
st=$?
check "missing per-run file: exit 2 ($st)" test "$st" = 2
check "... saying what to do" grep -qF "routesim: 'none.csv' does not exist, but 's.csv' holds 2 points: resume with the per-run file of that sweep, or without --per-run (the statistics alone), or remove 's.csv' to start afresh" <<<"$out"
check "... nothing created or changed" test ! -e none.csv && cmp -s s.csv s0.csv
head -4 ref-runs.csv >r.csv
out=$("$RS" sweep -c grid.ini -o s.csv --per-run r.csv --resume 2>&1)
st=$?
check "per-run file behind: exit 2 ($st)" test "$st" = 2
check "... naming the point" grep -qF "routesim: 'r.csv' lacks per-run rows (0 of 3) of the point at s.csv:3: the per-run file is behind" <<<"$out"
check "... nothing changed" test "$(wc -l <r.csv)" = 4 && cmp -s s.csv s0.csv

# ---- per-run rows of another experiment (another seed) are refused
sed 's/^seed = 5/seed = 6/' grid.ini >seed6.ini
"$RS" sweep -c seed6.ini -o s6.csv --per-run r6.csv --jobs 1 2>/dev/null
head -3 ref.csv >s.csv
cp r6.csv r.csv
out=$("$RS" sweep -c grid.ini -o s.csv --per-run r.csv --resume 2>&1)
st=$?
check "foreign per-run rows: exit 2 ($st) at r.csv:2" test "$st" = 2 && grep -qF "routesim: r.csv:2: a row of another grid or experiment: seed is" <<<"$out"
check "... nothing changed" cmp -s r.csv r6.csv

# ---- damaged rows: a torn row glued to the next (too many cells), a duplicated row
{ head -2 ref.csv; sed -n 3p ref.csv | head -c 40; sed -n 3,4p ref.csv; } >glued.csv
cp glued.csv g0.csv
out=$("$RS" sweep -c grid.ini -o glued.csv --resume 2>&1)
st=$?
check "a glued row: exit 2 ($st) naming its line" test "$st" = 2 && grep -qE "^routesim: glued.csv:3: a damaged row \([0-9]+ cells; the header has [0-9]+\)" <<<"$out"
check "... nothing changed" cmp -s glued.csv g0.csv
{ head -3 ref.csv; sed -n 2p ref.csv; } >dup.csv
out=$("$RS" sweep -c grid.ini -o dup.csv --resume 2>&1)
st=$?
check "a duplicated row: exit 2 ($st)" test "$st" = 2 && grep -qF "routesim: dup.csv:4: a second row of the point at line 2" <<<"$out"

# ---- deadlocks: closed loop (ring tornado, queue of 1: k >= 7 deadlocks every run)
cat >dead.ini <<'INI'
topology = ring
k = 5..8
traffic = tornado
queue_size = 1
runs = 2
[plot]
x = k
INI
"$RS" sweep -c dead.ini -o dead.csv --per-run dead-runs.csv --plot dead.svg 2>err.txt
st=$?
col() { awk -F, -v c="$(csvcol "$1" "$2")" 'NR>1 {printf "%s ", $c}' "$2"; }
check "deadlocked sweep exits 0 ($st)" test "$st" = 0
check "makespan of fully deadlocked points is nan, not 0 ($(col makespan_mean dead.csv))" test "$(col makespan_mean dead.csv)" = "2 2 nan nan "
check "runs_deadlocked per point ($(col runs_deadlocked dead.csv))" test "$(col runs_deadlocked dead.csv)" = "0 0 2 2 "
check "runs_used per point" test "$(col runs_used dead.csv)" = "2 2 0 0 "
check "deadlock_mean is still the fraction of runs" test "$(col deadlock_mean dead.csv)" = "0 0 1 1 "
check "per-run rows keep the deadlocked runs' values" test "$(col makespan dead-runs.csv)" = "2 2 2 2 0 0 0 0 "
check "a warning on stderr" grep -qF "routesim: warning: 4 of 8 runs deadlocked, in 2 points (the first is point 3 in grid order); in 2 of them every run deadlocked: nan statistics; their metrics are left out of the statistics of dead.csv (see runs_deadlocked, runs_used)" err.txt
blk() { awk -v b="\$$1 << EOD" '$0 == b {on = 1; next} /^EOD$/ {on = 0} on' "$2"; }
check "plot: deadlocked points are a gap, not 0" test "$(blk D0_0 dead.gp | paste -sd'|')" = "5 2 0|6 2 0||"
check "plot: and a marker on the x axis" test "$(blk X0_0 dead.gp | paste -sd'|')" = "7 0.03|8 0.03"
check "plot: its legend" grep -qF 'axes x1y2 with points title "makespan: every run deadlocked (no value; marked on the x axis)"' dead.gp

# Open loop, some runs deadlock: their metrics are out of the means, the others' are in.
cat >open.ini <<'INI'
topology = mesh
k = 4
queue_at = switch
queue_size = 2
injection_process = bernoulli
injection_rate = 0.05,0.1
warmup_steps = 50
measure_steps = 300
drain_steps = 200
runs = 6
[plot]
x = injection_rate
y = accepted
INI
"$RS" sweep -c open.ini -o open.csv --per-run open-runs.csv --plot open.svg 2>err.txt
check "open loop: runs_deadlocked ($(col runs_deadlocked open.csv))" test "$(col runs_deadlocked open.csv)" = "0 2 "
check "open loop: deadlocked runs are saturated ($(col runs_saturated open.csv))" test "$(col runs_saturated open.csv)" = "0 2 "
cd_=$(csvcol deadlock open-runs.csv) ca=$(csvcol accepted open-runs.csv) cr=$(csvcol injection_rate open-runs.csv)
want=$(awk -F, -v d="$cd_" -v a="$ca" -v r="$cr" 'NR>1 && $r==0.1 && $d==0 {s+=$a; n++} END{printf "%.9g", s/n}' open-runs.csv)
got=$(awk -F, -v c="$(csvcol accepted_mean open.csv)" 'NR==3 {print $c}' open.csv)
check "open loop: accepted_mean ($got) is the mean of the runs that did not deadlock ($want)" \
  awk -v a="$got" -v b="$want" 'BEGIN {exit !(a - b < 1e-8 && b - a < 1e-8)}'
check "plot: points with some deadlocked runs marked at their mean" test "$(blk P0_0 open.gp)" = "0.1 $got"

# ---- Ctrl-C: the first says what it waits for, the second stops at once with whole rows.
# Point 1 takes well under a second, point 2 (a long chain) about 30 s alone.
cat >slow.ini <<'INI'
topology = chain
k = 8,4096
traffic = uniform
per_input = 64
queue_size = 2
INI
"$RS" sweep -c slow.ini -o slow.csv --per-run slow-runs.csv --jobs 1 2>slow-err.txt &
pid=$!
wait_for() { # wait_for SECONDS COMMAND...: poll every 0.1 s
  local n=$(($1 * 10)); shift
  while [ "$n" -gt 0 ]; do "$@" && return 0; sleep 0.1; n=$((n - 1)); done
  return 1
}
first_row() { [ -f slow.csv ] && [ "$(wc -l <slow.csv)" -ge 2 ]; }
check "first point written" wait_for 60 first_row
kill -INT $pid
check "first Ctrl-C says what it waits for" wait_for 20 grep -qF "routesim: interrupted: no new run starts; waiting for the runs in progress (at most 1, one per thread) to finish, then writing their points; Ctrl-C again stops at once, keeping whole rows" slow-err.txt
kill -INT $pid
gone() { ! kill -0 $pid 2>/dev/null; }
check "second Ctrl-C stops at once" wait_for 10 gone
gone || kill -KILL $pid
wait $pid
st=$?
check "... with status 130 ($st)" test "$st" = 130
check "... saying so" grep -qF "routesim: stopped at once; the files hold whole rows only (run again with --resume to finish)" slow-err.txt
check "... whole rows: the first point in both files" test "$(wc -l <slow.csv) $(wc -l <slow-runs.csv)" = "2 2"
check "... ending in a newline" test "$(tail -c 1 slow.csv | od -An -c | tr -d ' ')" = '\n' -a "$(tail -c 1 slow-runs.csv | od -An -c | tr -d ' ')" = '\n'
sed -i 's/^k = 8,4096/k = 8/' slow.ini
"$RS" sweep -c slow.ini -o slow1.csv --per-run slow1-runs.csv 2>/dev/null
check "... the same rows as a sweep of that point alone" cmp -s slow.csv slow1.csv && cmp -s slow-runs.csv slow1-runs.csv

# ---- The same two Ctrl-Cs stop a reproduction: whole rows, status 130.
mkdir -p repro/slowrepro
cp slow.ini repro/slowrepro/slow.ini
sed -i 's/^k = 8$/k = 8,4096/' repro/slowrepro/slow.ini
printf 'title = two interrupts\npaper = none\n[claim.c]\nkind = report\nexperiment = slow\nmetric = makespan\n' >repro/slowrepro/claims.ini
RS_EXPERIMENTS="$PWD/repro" "$RS" reproduce slowrepro --out rout --jobs 1 >/dev/null 2>rerr.txt &
pid=$!
first_row() { [ -f rout/slow.csv ] && [ "$(wc -l <rout/slow.csv)" -ge 2 ]; }
check "reproduce: first point written" wait_for 60 first_row
kill -INT $pid
check "reproduce: first Ctrl-C says what it waits for" wait_for 20 grep -qF "Ctrl-C again stops at once" rerr.txt
kill -INT $pid
check "reproduce: second Ctrl-C stops at once" wait_for 10 gone
gone || kill -KILL $pid
wait $pid
st=$?
check "... with status 130 ($st)" test "$st" = 130
check "... saying so ($(cat rerr.txt))" grep -qF "routesim: stopped at once; every file holds whole rows only (run again with --resume to finish)" rerr.txt
check "... whole rows: the first point" test "$(wc -l <rout/slow.csv)" = 2
check "... and no report" test ! -e rout/REPORT.md
finish
