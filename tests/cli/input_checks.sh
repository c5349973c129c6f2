#!/usr/bin/env bash
# The last bad inputs of issue 20, each refused before anything runs (or fixed), and the
# plots' honesty: dotted command-line keys, [plot] x/filter/logx/theory checked before the
# first point, control bytes escaped in every message, a grid too large for max_memory,
# a key of another topology, titles counting the runs used, gnuplot's warnings kept off
# the terminal, a single-x experiment drawn as points.
. "$(dirname "$0")/lib.bash"
cd "$TMP" || exit 1

# no_raw_controls FILE: no control byte in FILE other than the line ends
no_raw_controls() { ! tr -d '\n' <"$1" | LC_ALL=C grep -q '[[:cntrl:]]'; }

# ---- a dotted key on the command line: the INI rule, exit 2
expect_fail 2 "^routesim: command line: key 'foo.bar' contains a dot \(a key of a section is written under its \[section\] header in an INI file\)$" \
  run topology=butterfly N=8 foo.bar=3
expect_fail 2 "key 'plot.x' contains a dot" sweep -c /dev/null plot.x=N

# ---- [plot] checked before the first point: nothing runs, no statistics file
plot_ini() { # plot_ini NAME [plot]-LINES...
  local name=$1; shift
  { printf 'topology = butterfly\nN = 8,16\ntraffic = uniform\nruns = 2\n[plot]\n'
    printf '%s\n' "$@"; } >"$name.ini"
}
plot_ini badx 'x = M'
expect_fail 2 "badx.ini:6: \[plot\] key 'x': 'M' is no column of the statistics file \(neither a key of the experiment nor a metric\) \(did you mean 'N'\?\)" \
  sweep -c badx.ini -o badx.csv
check "x naming no column: no statistics file" test ! -e badx.csv
plot_ini badfilter 'x = N' 'filter = queue_sise=2'
expect_fail 2 "badfilter.ini:7: \[plot\] key 'filter': 'queue_sise' is no column" sweep -c badfilter.ini -o badfilter.csv
check "filter naming no column: no statistics file" test ! -e badfilter.csv
plot_ini goodfilter 'x = N' 'filter = queue_size=0'
"$RS" sweep -c goodfilter.ini -o goodfilter.csv --plot goodfilter.svg 2>/dev/null
check "a filter on a default key (a column) is accepted" test -s goodfilter.csv
plot_ini badlog 'x = N' 'logx = 2'
expect_fail 2 "badlog.ini:7: \[plot\] key 'logx': expected 0 or 1, got '2'" sweep -c badlog.ini -o badlog.csv
plot_ini badlogy 'logy = yes'
expect_fail 2 "badlogy.ini:6: \[plot\] key 'logy': expected 0 or 1, got 'yes'" sweep -c badlogy.ini -o badlogy.csv
plot_ini badtheory 'x = N' 'theory = log2(N'
expect_fail 2 "badtheory.ini:7: \[plot\]: theory 'log2\(N': " sweep -c badtheory.ini -o badtheory.csv
check "theory syntax error: no statistics file" test ! -e badtheory.csv
plot_ini badfn 'theory2 = sqr(N)' 'theory = N'
expect_fail 2 "badfn.ini:6: \[plot\]: theory 'sqr\(N\)': .*sqr" sweep -c badfn.ini -o badfn.csv
# reproduce --dry-run checks the same, over every shipped experiment (none refused)
expect_ok "valid \(dry run" reproduce all --quick --dry-run

# ---- control bytes in quoted input are escaped: one line, no raw ESC
expect_fail 2 "unknown key '\\\\x1b\[2Jfoo'" run $'\e[2Jfoo=1'
check "argument: no raw control byte" no_raw_controls err
expect_fail 2 "expected KEY=VALUE, got 'a\\\\x0ab'" run $'a\nb'
printf 'N = 8\nqueue_size = \e[2J\x01\x7f\xff\n' >ctl.ini
expect_fail 2 "ctl.ini:2: key 'queue_size'.*\\\\x1b\[2J\\\\x01\\\\x7f\\\\xff" run -c ctl.ini
check "INI value: no raw control byte" no_raw_controls err
printf 'N = 8\n\e]0;pwned\a = 1\n' >ctlkey.ini
expect_fail 2 "ctlkey.ini:2: " run -c ctlkey.ini
check "INI key: no raw control byte" no_raw_controls err
expect_fail 2 "unknown command 'r\\\\x1bun'" $'r\eun'
check "command: no raw control byte" no_raw_controls err
expect_fail 2 "cannot open 'x\\\\x0ay.ini'" run -c $'x\ny.ini'
# valid UTF-8 is kept as it is
expect_fail 2 "unknown key 'Größe'" run topology=butterfly 'Größe=3'

# ---- a grid too large for max_memory is refused at once (exit 3), nothing written
printf 'topology = butterfly\nN = 8\nqueue_size = 1..2600\nruns = 1000000\nmax_memory = 16G\n' >big.ini
expect_fail 3 "^routesim: a sweep of 2600 points x 1000000 runs needs about [0-9.]+ GiB of memory, more than max_memory=16G \(16 GiB\)$" \
  sweep -c big.ini -o big.csv
check "huge grid: no statistics file" test ! -e big.csv

# ---- a key of another topology is named as such, with what the chosen one takes
expect_fail 2 "^routesim: command line: unknown key 'N' for topology=mesh \(it is a key of topology=butterfly\|.*\); mesh takes k, n, c$" \
  run topology=mesh N=16
expect_fail 2 "unknown key 'k' for topology=butterfly \(it is a key of topology=mesh\|torus\|chain\|ring\|kary_nfly\|kary_ntree\|flattened_butterfly\); butterfly takes N, wrap" \
  run topology=butterfly k=4
# one grid over two topologies with different size keys: refused naming the line and why
# (docs/sweeps.md: write it as two sweeps)
printf 'topology = mesh,butterfly\nN = 16\ntraffic = uniform\n' >twotopo.ini
expect_fail 2 "twotopo.ini:2: unknown key 'N' for topology=mesh \(it is a key of topology=butterfly" sweep -c twotopo.ini -o twotopo.csv

# ---- plots: titles count the runs used; gnuplot's stderr captured; one x drawn as points
mkdir -p bin
cat >bin/gnuplot <<'EOS'
#!/bin/sh
# a gnuplot that renders (writes where rs_output says) but warns on stderr, as the real one
# does on a single x value
out=$(printf '%s\n' "$2" | sed -n 's/^rs_output="\(.*\)"$/\1/p')
echo '<svg/>' >"$out"
echo '         warning: empty x range [16:16], adjusting to [15.84:16.16]' >&2
echo 'Warning: slow font initialization' >&2
exit 0
EOS
chmod +x bin/gnuplot
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
PATH="$TMP/bin:$PATH" "$RS" sweep -c open.ini -o open.csv --plot open.svg >out 2>err
st=$?
check "a gnuplot that warns: the sweep succeeds ($st)" test "$st" = 0
check "... its warnings are not shown ($(grep -i warn err | grep -v 'runs deadlocked\|saturated'))" \
  test -z "$(grep -i 'x range\|font' err)"
check "... and the image is written" grep -q '<svg/>' open.svg
check "title: deadlocked runs left out are counted ($(grep '^set title' open.gp))" \
  grep -qxF 'set title "accepted (mean and 95% CI over 4-6 of 6 runs)"' open.gp
plot_ini all 'x = N'
"$RS" sweep -c all.ini -o all.csv --plot all.svg 2>/dev/null
check "title: every run used" grep -qxF 'set title "makespan (mean and 95% CI over 2 runs)"' all.gp
cat >bin/gnuplot <<'EOS'
#!/bin/sh
echo 'plot $D0_0 using 1:2' >&2
echo '         ^' >&2
echo '"x.gp" line 12: undefined variable: foo' >&2
exit 1
EOS
PATH="$TMP/bin:$PATH" "$RS" sweep -c open.ini -o open.csv --plot open.svg >out 2>err
st=$?
check "a failing gnuplot: exit 2 as before, RS_EIO ($st)" test "$st" = 2
check "... its last stderr line in the one error line ($(tail -1 err))" \
  grep -qxF "routesim: gnuplot failed on open.gp (exit status 1): \"x.gp\" line 12: undefined variable: foo" err

# A single x value (makedon-symvonis/mesh_sort.ini's quick grid): the series on the x axis,
# each drawn as a point with its error bar, not lines over an empty x range.
cat >one.ini <<'INI'
topology = butterfly
N = 16
traffic = uniform
queue_size = 1,2
runs = 3
[plot]
x = N
series = queue_size
logx = 1
theory = log2(N) + queue_size
INI
"$RS" sweep -c one.ini -o one.csv --plot one.svg 2>/dev/null
check "single x: series placed on the x axis, by their values" grep -qxF 'set xtics ("1" 1, "2" 2)' one.gp
check "single x: x range around them" grep -qxF 'set xrange [0.5:2.5]' one.gp
check "single x: the x value in the label" grep -qxF 'set xlabel "queue_size (N = 16)"' one.gp
check "single x: points with error bars, no lines" \
  test "$(grep -c 'using (1):2:3 with yerrorbars\|using (2):2:3 with yerrorbars' one.gp)" = 2 -a \
  "$(grep -c 'yerrorlines\|linespoints\|with lines' one.gp)" = 0
check "single x: no log scale on a one-value axis" test -z "$(grep logscale one.gp)"
if command -v gnuplot >/dev/null; then
  gnuplot -e 'rs_output="one2.svg"' one.gp 2>gp.err
  check "single x: gnuplot renders without a warning ($(cat gp.err))" test ! -s gp.err -a -s one2.svg
  printf 'topology = butterfly\nN = 16\ntraffic = uniform\nruns = 1\n[plot]\nx = N\n' >one1.ini
  "$RS" sweep -c one1.ini -o one1.csv --plot one1.svg 2>/dev/null
  gnuplot -e 'rs_output="one3.svg"' one1.gp 2>gp.err
  check "single x, one run, no series: no warning ($(cat gp.err))" test ! -s gp.err -a -s one3.svg
  check "... with a y range around the one value" grep -qxF 'set yrange [3:9]' one1.gp
fi

finish
