#!/usr/bin/env bash
# Sweeps: bytes independent of --jobs; a point re-run alone gives the same row; a torn
# results file is resumed to the same bytes; an interrupted sweep keeps whole rows and
# resumes to the same bytes; bad experiments write nothing; plots with theory curves.
. "$(dirname "$0")/lib.bash"
cd "$TMP"

cat >grid.ini <<'INI'
topology = butterfly
N = 2^4..2^7
traffic = uniform
queue_size = 1,2
protocol = fifo,random
runs = 4
seed = 11
INI


"$RS" sweep -c grid.ini -o j1.csv --per-run r1.csv --jobs 1 2>/dev/null
"$RS" sweep -c grid.ini -o j2.csv --per-run r2.csv --jobs 2 2>/dev/null
check "16 points + header" test "$(wc -l <j1.csv)" = 17
check "64 runs + header" test "$(wc -l <r1.csv)" = 65
check "--jobs 1 and --jobs 2 give the same statistics bytes" cmp -s j1.csv j2.csv
check "--jobs 1 and --jobs 2 give the same per-run bytes" cmp -s r1.csv r2.csv
check "columns" grep -q '^topology,N,wrap,traffic,per_input,switching,routing,seed,check,algorithm,queue_at,queue_size,protocol,on_full,rank_levels,runs,makespan_mean,makespan_var,makespan_sd,makespan_min,makespan_max,makespan_ci95,' j1.csv

# threads= says how a run is computed, not what: a grid with threads = 2 gives every run the
# seed and the makespan it has without it (the key is left out of the point's seed hash).
{ cat grid.ini; echo 'threads = 2'; } >t2.ini
"$RS" sweep -c t2.ini -o t2.csv --per-run rt2.csv 2>/dev/null
cols() { # cols FILE: its seed and makespan columns
  awk -F, -v s="$(csvcol seed "$1")" -v m="$(csvcol makespan "$1")" 'NR>1{print $s, $m}' "$1"
}
check "threads = 2 in the grid: the same seeds and makespans" \
  test "$(cols rt2.csv)" = "$(cols r1.csv)" -a "$(wc -l <rt2.csv)" = 65

# One point alone: the same row as in the full grid (seeds depend on the point only).
sed -e 's/^N = .*/N = 64/' -e 's/^queue_size = .*/queue_size = 2/' -e 's/^protocol = .*/protocol = random/' grid.ini >one.ini
"$RS" sweep -c one.ini -o one.csv 2>/dev/null
check "a point re-run alone gives the same row" grep -qxF "$(tail -1 one.csv)" j1.csv
# ... and each of its runs is `routesim run` with the run's seed.
cN=$(csvcol N r1.csv); cq=$(csvcol queue_size r1.csv); cp=$(csvcol protocol r1.csv)
cr=$(csvcol replication r1.csv); cs=$(csvcol seed r1.csv); cm=$(csvcol makespan r1.csv)
sel="NR>1 && \$$cN==64 && \$$cq==2 && \$$cp==\"random\" && \$$cr==0"
seed=$(awk -F, "$sel {print \$$cs}" r1.csv)
mk=$("$RS" run topology=butterfly N=64 traffic=uniform queue_size=2 protocol=random seed="$seed" --format csv >one-run.csv && awk -F, -v c="$(csvcol makespan one-run.csv)" 'NR==2{print $c}' one-run.csv)
check "a run re-run by hand gives the same makespan ($mk)" test -n "$mk" -a "$mk" = "$(awk -F, "$sel {print \$$cm}" r1.csv)"

# A torn file (3 whole rows, then half a row) resumes to the same bytes.
head -4 j1.csv >torn.csv
sed -n 5p j1.csv | head -c 40 >>torn.csv
out=$("$RS" sweep -c grid.ini -o torn.csv --resume 2>&1)
check "resume from a torn file gives the same bytes" cmp -s torn.csv j1.csv
check "resume reports the kept points" grep -q "13 written, 3 kept" <<<"$out"

# An empty file and a header-only file resume to the same bytes too.
: >empty.csv
"$RS" sweep -c grid.ini -o empty.csv --resume 2>/dev/null
check "resume from an empty file" cmp -s empty.csv j1.csv
head -1 j1.csv >hdr.csv
"$RS" sweep -c grid.ini -o hdr.csv --resume 2>/dev/null
check "resume from a header-only file" cmp -s hdr.csv j1.csv

# Resuming a complete file runs nothing; another experiment's file is refused.
out=$("$RS" sweep -c grid.ini -o j1.csv --resume 2>&1)
check "resume of a complete file runs nothing" grep -q "0 written, 16 kept" <<<"$out"
sed -e 's/^runs = 4/runs = 3/' grid.ini >other.ini
cp j1.csv j3.csv
out=$("$RS" sweep -c other.ini -o j3.csv --resume 2>&1)
st=$?
check "a resume with other runs is refused (exit $st), naming file, line and cell" \
  test "$st" = 2 -a "$out" = "routesim: j3.csv:2: a row of another grid or experiment: runs is 4 (this sweep: 3); remove the file or write elsewhere"
check "... and the file is left as it was" cmp -s j3.csv j1.csv
sed -e 's/^topology = butterfly/topology = benes/' grid.ini >benes.ini
"$RS" sweep -c benes.ini -o j2.csv --resume 2>err.txt
st=$?
check "another experiment's file is refused" grep -q "holds results of another experiment" err.txt
check "... and left as it was" cmp -s j2.csv j1.csv

# Interruption: SIGINT mid-way stops with status 130 and only whole rows; resume finishes
# with the same bytes as an uninterrupted sweep.
cat >long.ini <<'INI'
topology = butterfly
N = 2^11,2^12
traffic = uniform
per_input = 1..10
queue_size = 2
runs = 8
INI
"$RS" sweep -c long.ini -o long_ref.csv --jobs 2 2>/dev/null
"$RS" sweep -c long.ini -o long.csv --jobs 1 2>/dev/null &
pid=$!
wait_catches_int $pid
sleep 0.5
kill -INT $pid
wait $pid
st=$?
rows=$(($(wc -l <long.csv) - 1)); [ "$rows" -lt 0 ] && rows=0
check "interrupted sweep exits 130 (got $st) with fewer rows ($rows)" test "$st" = 130 -a "$rows" -lt 20
# (an interrupt before the first point finished leaves an empty file: no row at all)
check "interrupted file has only whole rows" test ! -s long.csv -o "$(tail -c 1 long.csv | od -An -c | tr -d ' ')" = '\n'
check "interrupted rows are a prefix of the full result" test ! -s long.csv -o "$(cat long.csv)" = "$(head -$((rows + 1)) long_ref.csv)"
"$RS" sweep -c long.ini -o long.csv --resume --jobs 2 2>/dev/null
check "resume after interruption gives the same bytes" cmp -s long.csv long_ref.csv

# A bad point anywhere in the grid: exit 2, one line, nothing written.
printf 'topology = butterfly\nN = 16,24\n' >bad.ini
"$RS" sweep -c bad.ini -o bad.csv 2>err.txt
st=$?
check "bad grid exits 2 ($st)" test "$st" = 2
check "bad grid names the constraint" grep -q "power of two" err.txt
check "bad grid writes nothing" test ! -e bad.csv

# Plot: a PNG and its script.
printf 'topology = butterfly\nN = 2^4..2^6\nqueue_size = 1,2\nruns = 3\n[plot]\nx = N\nseries = queue_size\n' >plot.ini
"$RS" sweep -c plot.ini -o plot.csv --plot plot.png 2>/dev/null
check "plot script written" grep -q 'with yerrorlines title "queue_size=2"' plot.gp
if command -v gnuplot >/dev/null; then check "plot rendered" test -s plot.png; fi
# Without gnuplot: the CSV and the script are still written, with a one-line notice.
rm -f plot.gp plot.png
PATH=/nonexistent "$RS" sweep -c plot.ini -o plot.csv --plot plot.png 2>err.txt
st=$?
check "no gnuplot: still succeeds ($st)" test "$st" = 0
check "no gnuplot: notice says how to render" grep -q "gnuplot is not installed: wrote plot.csv and plot.gp; render with \`gnuplot plot.gp\`" err.txt
check "no gnuplot: script written, no image" test -s plot.gp -a ! -e plot.png

# Theory curves beside the measurement, and two metrics in one plot.
cat >theory.ini <<'INI'
topology = butterfly
N = 2^4..2^6
queue_size = 1,2
runs = 3
[plot]
x = N
y = makespan,dilation
series = queue_size
logx = 1
theory = log2(N) * queue_size
theory2 = 2*log2(N)
theory_title2 = twice the path
theory3 = dilation_mean + 1
theory_column = congestion_mean
key = bottom right
INI
"$RS" sweep -c theory.ini -o theory.csv --plot theory.png 2>err.txt
st=$?
check "theory plot renders ($st)" test "$st" = 0
if command -v gnuplot >/dev/null; then check "theory plot rendered" test -s theory.png; fi
block() { awk -v b="\$$1 << EOD" '$0 == b {on = 1; next} /^EOD$/ {on = 0} on' theory.gp; }
# Per series (it uses queue_size): 3 measured x and 63 geometric samples between each pair.
check "theory sampled between the points" test "$(block T0_0 | wc -l)" = 129
check "theory at a measured x (queue_size=2)" test "$(block T1_0 | head -1)" = "16 8"
check "theory between (16 * 2^0.5: log2 = 4.5)" test "$(block T0_0 | sed -n 33p)" = "22.627417 4.5"
# Independent of the series: drawn once, in black, with its title.
check "shared theory drawn once" test -z "$(block T1_1)" -a "$(block T0_1 | wc -l)" = 129
check "shared theory title" grep -qF 'title "theory: twice the path" lc rgb "black"' theory.gp
# A theory naming a column of the statistics is evaluated at the rows: dilation + 1.
check "theory over columns, at the rows" test "$(block T0_2 | paste -sd' ')" = "16 5 32 6 64 7"
check "theory column drawn" test "$(block C1_0 | wc -l)" = 3
check "both metrics with error bars, per series" test "$(grep -c 'with yerrorlines' theory.gp)" = 4
check "legend where [plot] key puts it" grep -qx 'set key bottom right' theory.gp
check "log2 x axis labelled as powers of two (2^20, not 1.04858e+06)" grep -qxF 'set format x "2^%L"' theory.gp
sed -i 's/^key = .*/key = middle/' theory.ini
"$RS" sweep -c theory.ini -o theory.csv --resume --plot theory.png 2>err.txt
check "a bad legend place is named" grep -qF "theory.ini:15: [plot] key 'key': expected top left, top right, bottom left, bottom right or below, got 'middle'" err.txt
sed -i 's/^key = .*/key = below/' theory.ini
"$RS" sweep -c theory.ini -o theory.csv --resume --plot theory.png 2>err.txt
check "legend below" grep -qx 'set key below' theory.gp
sed -i 's/^theory3 = .*/theory3 = log2(N) + queu_size/' theory.ini
"$RS" sweep -c theory.ini -o theory.csv --resume --plot theory.png 2>err.txt
st=$?
check "theory with a typo exits 2 ($st)" test "$st" = 2
check "... naming the line and the nearest key" grep -qF "theory.ini:13: [plot]: theory 'log2(N) + queu_size': unknown name 'queu_size' (did you mean 'queue_size'?)" err.txt
sed -i 's/^series = .*/series = /; s/^theory3 = .*/theory3 = N * queue_size/' theory.ini
"$RS" sweep -c theory.ini -o theory.csv --resume --plot theory.png 2>err.txt
check "theory over a key with several values" grep -q "'queue_size' takes several values in this plot: make it a series or filter it" err.txt
finish
