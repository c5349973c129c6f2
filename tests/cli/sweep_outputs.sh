#!/usr/bin/env bash
# Outputs of a sweep (docs/cli.md): every output is checked before the first point (its
# folder, the --plot type, the [plot] section, no output that is an input or another
# output), no file is created before its first whole row (a bad --per-run path, a failed
# start or SIGINT before the first point leave no file and an existing file untouched).
. "$(dirname "$0")/lib.bash"

printf 'topology = butterfly\nN = 8,16\ntraffic = uniform\nruns = 2\n[plot]\nx = N\n' >"$TMP/ok.ini"
cp "$TMP/ok.ini" "$TMP/ok.orig"

# An output that is an input or another output: refused, nothing written.
expect_fail 2 "-o '$TMP/ok.ini' is the same file as the input -c '$TMP/ok.ini' \(refusing to overwrite it\)" sweep -c "$TMP/ok.ini" -o "$TMP/ok.ini"
check "the experiment is intact" cmp -s "$TMP/ok.ini" "$TMP/ok.orig"
expect_fail 2 "--per-run '$TMP/x.csv' is the same file as -o '$TMP/x.csv' \(give each output its own file\)" sweep -c "$TMP/ok.ini" -o "$TMP/x.csv" --per-run "$TMP/x.csv"
(cd "$TMP" && "$RS" sweep -c ok.ini -o ./y.csv --per-run "$TMP/y.csv" 2>"$TMP/err")
check "the same new file by two names is refused ($(cat "$TMP/err"))" grep -q "is the same file as -o './y.csv'" "$TMP/err"
expect_fail 2 "--plot '$TMP/z.png' is the same file as -o '$TMP/z.png'" sweep -c "$TMP/ok.ini" -o "$TMP/z.png" --plot "$TMP/z.png"
expect_fail 2 "the plot's script '$TMP/p.gp' is the same file as -o '$TMP/p.gp'" sweep -c "$TMP/ok.ini" -o "$TMP/p.gp" --plot "$TMP/p.png"
check "nothing written" test ! -e "$TMP/x.csv" -a ! -e "$TMP/y.csv" -a ! -e "$TMP/z.png" -a ! -e "$TMP/p.gp"

# [plot] and --plot errors before the first point: no statistics file.
printf 'topology = butterfly\nN = 8,16\nruns = 2\n[plot]\nx = N\ncolour = red\n' >"$TMP/badkey.ini"
expect_fail 2 "badkey.ini:6: unknown \[plot\] key 'colour'" sweep -c "$TMP/badkey.ini" -o "$TMP/s1.csv"
expect_fail 2 "--plot: expected a file ending in .png or .svg, got '$TMP/s2.pdf'" sweep -c "$TMP/ok.ini" -o "$TMP/s2.csv" --plot "$TMP/s2.pdf"
expect_fail 2 "cannot write '$TMP/nowhere/s3.png': No such file or directory" sweep -c "$TMP/ok.ini" -o "$TMP/s3.csv" --plot "$TMP/nowhere/s3.png"
printf 'topology = butterfly\nN = 8,16\nruns = 2\n[plot]\nx = N\nseries = M\n' >"$TMP/badx.ini"
expect_fail 2 "\[plot\]: series 'M' is not a key of the experiment" sweep -c "$TMP/badx.ini" -o "$TMP/s4.csv"
check "no statistics file after a plot error" test ! -e "$TMP/s1.csv" -a ! -e "$TMP/s2.csv" -a ! -e "$TMP/s3.csv" -a ! -e "$TMP/s4.csv"

# A bad --per-run path: no statistics file, and an existing one is left as it was.
expect_fail 2 "cannot write '$TMP/nowhere/runs.csv': No such file or directory" sweep -c "$TMP/ok.ini" -o "$TMP/s5.csv" --per-run "$TMP/nowhere/runs.csv"
check "no empty statistics file" test ! -e "$TMP/s5.csv"
echo "precious results" >"$TMP/s6.csv"
mkdir "$TMP/dir"
expect_fail 2 "cannot write '$TMP/dir': Is a directory" sweep -c "$TMP/ok.ini" -o "$TMP/s6.csv" --per-run "$TMP/dir"
check "an existing statistics file is untouched" test "$(cat "$TMP/s6.csv")" = "precious results"

# A failed start (the first point's runs fail: exit 1): no file.
printf 'topology = butterfly\nwrap = 1\nswitching = wormhole\nalgorithm = cms_butterfly\nN = 8\ntraffic = bitrev\nlength = 2\npad = 0\nmax_rounds = 1\nruns = 4\n' >"$TMP/fail.ini"
expect_fail 1 "algorithm=cms_butterfly: 1 of 8 messages undelivered after max_rounds=1 rounds" sweep -c "$TMP/fail.ini" -o "$TMP/fail.csv" --per-run "$TMP/fail-runs.csv"
check "a failed start leaves no file" test ! -e "$TMP/fail.csv" -a ! -e "$TMP/fail-runs.csv"
# The error reported is the first failing run's in grid order, whatever the threads' timing
# (runs 1 and 3 of this point fail differently; with 2 threads either could fail first).
"$RS" sweep -c "$TMP/fail.ini" -o "$TMP/fail.csv" --jobs 1 2>"$TMP/fail1.txt"
same=1
for i in 1 2 3 4 5 6; do
  "$RS" sweep -c "$TMP/fail.ini" -o "$TMP/fail.csv" --jobs 2 2>"$TMP/fail2.txt"
  cmp -s "$TMP/fail1.txt" "$TMP/fail2.txt" || same=0
done
check "the same error with 1 and 2 threads" test $same = 1

# SIGINT before the first point is complete: exit 130, no file.
# (runs = 4 at --jobs 1: the first Ctrl-C lets the run in progress finish, so the signal
# must land before the last run starts for the point to stay incomplete)
printf 'topology = butterfly\nN = 2^17\ntraffic = uniform\nper_input = 4\nruns = 4\n' >"$TMP/slow.ini"
"$RS" sweep -c "$TMP/slow.ini" -o "$TMP/slow.csv" --per-run "$TMP/slow-runs.csv" --jobs 1 2>"$TMP/err" &
pid=$!
wait_catches_int $pid
kill -INT $pid
wait $pid
st=$?
if grep -q "interrupted: 0 of 1 points" "$TMP/err"; then
  check "SIGINT: status 130 ($st)" test $st = 130
  check "SIGINT before the first point leaves no file" test ! -e "$TMP/slow.csv" -a ! -e "$TMP/slow-runs.csv"
else
  echo "FAIL: the sweep was not interrupted by SIGINT as planned (status $st): $(cat "$TMP/err")"
  FAILS=$((FAILS + 1))
fi

# The good sweep still writes both files and the plot.
"$RS" sweep -c "$TMP/ok.ini" -o "$TMP/good.csv" --per-run "$TMP/good-runs.csv" --plot "$TMP/good.svg" 2>"$TMP/err"
check "a good sweep writes its rows ($(cat "$TMP/err"))" test "$(wc -l <"$TMP/good.csv")" = 3 -a "$(wc -l <"$TMP/good-runs.csv")" = 5
check "... and its plot script" test -s "$TMP/good.gp"

# The image is written like every output: through a temporary file renamed over the old
# one (mode kept), so a gnuplot that fails leaves the old image whole and no temporary.
if command -v gnuplot >/dev/null; then
  check "... and its image" grep -q '<svg' "$TMP/good.svg"
  chmod 640 "$TMP/good.svg"
  "$RS" sweep -c "$TMP/ok.ini" -o "$TMP/good.csv" --plot "$TMP/good.svg" 2>"$TMP/err"
  check "a redrawn image keeps its mode" test "$(stat -c %a "$TMP/good.svg")" = 640
  cp "$TMP/good.svg" "$TMP/before.svg"
  mkdir -p "$TMP/badbin"
  cat >"$TMP/badbin/gnuplot" <<'EOS'
#!/bin/sh
# a gnuplot that writes half an image where it is told (-e rs_output="PATH"), then fails
out=$(printf '%s\n' "$2" | sed -n 's/^rs_output="\(.*\)"$/\1/p')
[ -n "$out" ] && echo partial >"$out"
exit 1
EOS
  chmod +x "$TMP/badbin/gnuplot"
  PATH="$TMP/badbin:$PATH" "$RS" sweep -c "$TMP/ok.ini" -o "$TMP/good.csv" --plot "$TMP/good.svg" >"$TMP/out" 2>"$TMP/err"
  check "a failing gnuplot is an error ($(cat "$TMP/err"))" grep -q 'gnuplot failed on' "$TMP/err"
  check "... that leaves the old image whole" cmp -s "$TMP/good.svg" "$TMP/before.svg"
  check "... and no temporary file" test -z "$(ls "$TMP" | grep 'good.svg.tmp')"
fi
finish
