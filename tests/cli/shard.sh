#!/usr/bin/env bash
# Shards for batch schedulers: `sweep --shard I/N` runs the I-th of N contiguous parts of a
# grid into its own file; `merge` joins the parts (in any order) into the bytes of the
# whole sweep, statistics and per-run files alike; a shard resumes like a sweep; gaps,
# overlaps, torn parts, foreign files and bad --shard values are refused, writing nothing.
. "$(dirname "$0")/lib.bash"
cd "$TMP"

cat >grid.ini <<'INI'
topology = butterfly
N = 2^4..2^6
traffic = uniform
queue_size = 1,2
protocol = fifo,random
runs = 3
seed = 5
INI


"$RS" sweep -c grid.ini -o all.csv --per-run all-runs.csv --jobs 1 2>/dev/null
for n in 1 2 5 12; do
  parts=() rparts=()
  for i in $(seq 1 $n); do
    "$RS" sweep -c grid.ini --shard "$i/$n" -o "p$i.csv" --per-run "r$i.csv" --jobs 1 2>"err$i"
    parts=("p$i.csv" "${parts[@]}") rparts=("r$i.csv" "${rparts[@]}") # reversed order
  done
  check "shard 1/$n names its points" grep -q "^routesim: shard 1 of $n: points 1 to " err1
  "$RS" merge -c grid.ini -o "m$n.csv" "${parts[@]}" 2>/dev/null
  check "$n shards merge to the serial statistics bytes" cmp -s all.csv "m$n.csv"
  "$RS" merge -c grid.ini -o "mr$n.csv" "${rparts[@]}" 2>/dev/null
  check "$n shards merge to the serial per-run bytes" cmp -s all-runs.csv "mr$n.csv"
  rm -f p*.csv r*.csv
done
# contiguous parts: 12 points in 5 shards are 2,2,3,2,3 points (floor((I-1)*12/5) ...)
"$RS" sweep -c grid.ini --shard 3/5 -o p3.csv --jobs 1 2>/dev/null
check "shard 3/5 holds points 5..7 of the grid" test "$(tail -n +2 p3.csv)" = "$(sed -n 6,8p all.csv)"
check "default shard file name" test "$("$RS" sweep -c grid.ini --shard 2/5 --jobs 1 2>&1 >/dev/null | tail -1 | grep -c 'grid-shard-2-of-5.csv')" = 1

# A shard resumes like a sweep: a torn part is finished to the same bytes.
"$RS" sweep -c grid.ini --shard 1/2 -o h1.csv --per-run hr1.csv --jobs 1 2>/dev/null
"$RS" sweep -c grid.ini --shard 2/2 -o h2.csv --per-run hr2.csv --jobs 1 2>/dev/null
cp h2.csv full2.csv; cp hr2.csv fullr2.csv
head -c -25 full2.csv >h2.csv
"$RS" sweep -c grid.ini --shard 2/2 -o h2.csv --per-run hr2.csv --resume --jobs 1 2>/dev/null
check "a torn shard resumes to the same bytes" cmp -s h2.csv full2.csv
check "... and its per-run file" cmp -s hr2.csv fullr2.csv
"$RS" merge -c grid.ini -o hm.csv h2.csv h1.csv 2>/dev/null
check "the resumed shard merges to the serial bytes" cmp -s hm.csv all.csv
expect_fail 2 "holds a row of point 1, which is not in this shard \(points 7 to 12\)" \
  sweep -c grid.ini --shard 2/2 -o h1.csv --resume

# Refused, nothing written.
expect_fail 2 "no part holds point 7 of 12 \(point 7: butterfly,32," merge -c grid.ini -o x.csv h1.csv
cp h1.csv h1b.csv
expect_fail 2 "h1b.csv:2: the same point as h1.csv:2 \(shards overlap\)" merge -c grid.ini -o x.csv h1.csv h1b.csv h2.csv
expect_fail 2 "hr1.csv:1: its header differs from that of 'h1.csv'" merge -c grid.ini -o x.csv h1.csv hr1.csv
head -c -5 h2.csv >torn.csv
expect_fail 2 "torn.csv: its last line is torn" merge -c grid.ini -o x.csv h1.csv torn.csv
sed 's/^N = .*/N = 2^4..2^5/' grid.ini >small.ini
expect_fail 2 "h2.csv:4: a row of another grid or experiment" merge -c small.ini -o x.csv h1.csv h2.csv
expect_fail 2 "the output 'h1.csv' is the same file as the part 'h1.csv'" merge -c grid.ini -o h1.csv h1.csv h2.csv
expect_fail 2 "'./h1.csv' is given twice" merge -c grid.ini -o x.csv h1.csv h2.csv ./h1.csv
expect_fail 2 "merge needs -c FILE.ini" merge -o x.csv h1.csv
check "a refused merge writes nothing" test ! -e x.csv
expect_fail 2 "--shard: expected I/N with 1 <= I <= N" sweep -c grid.ini --shard 0/3
expect_fail 2 "--shard: expected I/N with 1 <= I <= N" sweep -c grid.ini --shard 4/3
expect_fail 2 "--shard: expected I/N with 1 <= I <= N" sweep -c grid.ini --shard 1
expect_fail 2 "--shard 1/13: the grid has only 12 points" sweep -c grid.ini --shard 1/13
expect_fail 2 "--plot draws a whole sweep, not a shard" sweep -c grid.ini --shard 1/2 --plot x.png
check "a refused shard writes nothing" test ! -e grid-shard-1-of-13.csv -a ! -e grid-shard-1-of-2.csv
finish
