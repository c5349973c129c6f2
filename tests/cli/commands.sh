#!/usr/bin/env bash
# The subcommands on good input: run, analyze, topo (--dot), list, help, INI files with
# command-line overrides, CSV/JSON output, atomic -o files, determinism of the bytes.
. "$(dirname "$0")/lib.bash"

# The issue's acceptance examples.
expect_ok '^\{.*"delivered":1024' run topology=butterfly N=1024 traffic=uniform queue_size=2 protocol=fifo seed=7 --format json
lines=$("$RS" run topology=butterfly N=1024 traffic=uniform queue_size=2 protocol=fifo seed=7 --format json | wc -l)
[ "$lines" = 1 ] || { echo "FAIL: json is $lines lines"; FAILS=$((FAILS + 1)); }
expect_ok '"congestion":16' analyze topology=butterfly N=1024 traffic=bitrev --format json

expect_ok '^makespan +5$' run topology=butterfly N=8 traffic=bitrev queue_size=1
expect_ok '^topology,N,wrap,' run topology=butterfly N=8 traffic=bitrev --format csv
expect_ok '^nodes +32$' topo topology=butterfly N=8
expect_ok '^digraph' topo topology=mesh k=3 n=2 --dot
expect_ok 'butterfly' list
expect_ok 'queue_size' help store_forward
expect_ok 'usage: routesim' help
expect_ok '^routing=valiant: via' help valiant
expect_ok '^  open loop: sets the first butterfly' help ranade
expect_ok 'runs on: mesh\|torus\|chain\|ring' help min_adaptive
expect_ok 'tolerance_reason +text +default \(none\)' help claims

# INI file, overridden on the command line.
printf '# a comment\ntopology = butterfly\nN = 16\nqueue_size = 1\ntraffic = bitrev\n' >"$TMP/run.ini"
expect_ok '^N +16$' run -c "$TMP/run.ini"
expect_ok '^N +32$' run -c "$TMP/run.ini" N=32

# -o writes the file whole; same seed, same bytes.
"$RS" run topology=butterfly N=256 traffic=uniform protocol=random queue_size=2 seed=5 --format csv -o "$TMP/a.csv" || FAILS=$((FAILS + 1))
"$RS" run topology=butterfly N=256 traffic=uniform protocol=random queue_size=2 seed=5 --format csv -o "$TMP/b.csv" || FAILS=$((FAILS + 1))
"$RS" run topology=butterfly N=256 traffic=uniform protocol=random queue_size=2 seed=6 --format csv -o "$TMP/c.csv" || FAILS=$((FAILS + 1))
if ! cmp -s "$TMP/a.csv" "$TMP/b.csv"; then echo "FAIL: same seed, different bytes"; FAILS=$((FAILS + 1)); fi
if cmp -s "$TMP/a.csv" "$TMP/c.csv"; then echo "FAIL: another seed, same bytes"; FAILS=$((FAILS + 1)); fi
[ "$(wc -l <"$TMP/a.csv")" = 2 ] || { echo "FAIL: csv is not header + one row"; FAILS=$((FAILS + 1)); }
finish
