#!/usr/bin/env bash
# The rules of INI files and the command line (docs/cli.md): only the sections [plot],
# [quick] and [claim.NAME], spelled exactly; no dots in keys; no key given twice in one
# file or on the command line (the command line overrides the file); lines longer than the
# packaged libinih's 198 characters (a 49-value list) are read whole.
. "$(dirname "$0")/lib.bash"

ini() { # ini NAME LINES...: write $TMP/NAME from one line per argument
  local f=$1; shift
  printf '%s\n' "$@" >"$TMP/$f"
}
BASE=("topology = butterfly" "N = 8")

# Sections: unknown, miscased, misspelled, dotted; each names file:line with a suggestion.
ini weird.ini "${BASE[@]}" "[weird]" "x = 1"
expect_fail 2 "weird.ini:3: unknown section \[weird\] \(expected \[plot\], \[quick\] or \[claim.NAME\]\)" run -c "$TMP/weird.ini"
ini plot.ini "${BASE[@]}" "runs = 2" "[Plot]" "x = N"
expect_fail 2 "plot.ini:4: unknown section \[Plot\] \(did you mean \[plot\]\?\)" sweep -c "$TMP/plot.ini" -o "$TMP/plot.csv"
check "a bad section writes nothing" test ! -e "$TMP/plot.csv"
ini quik.ini "${BASE[@]}" "[quik]" "N = 4"
expect_fail 2 "quik.ini:3: unknown section \[quik\] \(did you mean \[quick\]\?\)" run -c "$TMP/quik.ini"
ini dotsect.ini "${BASE[@]}" "[plot.x]" "y = 1"
expect_fail 2 "dotsect.ini:3: unknown section \[plot.x\] \(did you mean \[plot\]\?\)" run -c "$TMP/dotsect.ini"
ini dotkey.ini "${BASE[@]}" "plot.x = N"
expect_fail 2 "dotkey.ini:3: key 'plot.x' contains a dot" run -c "$TMP/dotkey.ini"
ini dotkey2.ini "${BASE[@]}" "[plot]" "x.y = N"
expect_fail 2 "dotkey2.ini:4: key 'x.y' in \[plot\] contains a dot" run -c "$TMP/dotkey2.ini"
ini fine.ini "${BASE[@]}" "[plot]" "x = N" "[quick]" "N = 4"
expect_ok "^topology +butterfly" run -c "$TMP/fine.ini"

# Duplicates: in one file (also across two headers of one section), on the command line,
# options; the command line overriding the file is the documented rule.
ini dup.ini "${BASE[@]}" "queue_size = 1" "N = 16"
expect_fail 2 "dup.ini:4: key 'N' given twice \(first at line 2\)" run -c "$TMP/dup.ini"
ini dup2.ini "${BASE[@]}" "[quick]" "N = 4" "[plot]" "x = N" "[quick]" "N = 2"
expect_fail 2 "dup2.ini:8: key 'N' in \[quick\] given twice \(first at line 4\)" run -c "$TMP/dup2.ini"
expect_fail 2 "command line: key 'N' given twice \(N=8, N=16\)" run N=8 N=16
expect_fail 2 "command line: option '--format' given twice" run --format csv --format json
expect_fail 2 "command line: option '--output' given twice" run -o "$TMP/a.csv" --output "$TMP/b.csv"
expect_fail 2 "command line: option '--jobs' given twice" sweep -c "$TMP/fine.ini" -o "$TMP/f.csv" --jobs 1 --jobs 2
check "duplicates write nothing" test ! -e "$TMP/a.csv" -a ! -e "$TMP/b.csv"
expect_ok "^N +16$" run -c "$TMP/fine.ini" N=16

# Long lines: a 49-value list (244 characters) sweeps 49 points.
list=$(seq -s, 1000 1048)
check "the list is over 198 characters (${#list})" test ${#list} = 244
ini long.ini "${BASE[@]}" "queue_size = $list" "runs = 1"
"$RS" sweep -c "$TMP/long.ini" -o "$TMP/long.csv" --jobs 1 2>"$TMP/err"
check "a 49-value list sweeps ($(head -c 200 "$TMP/err"))" test "$(($(wc -l <"$TMP/long.csv") - 1))" = 49
check "... every value" test "$(cut -d, -f"$(csvcol queue_size "$TMP/long.csv")" "$TMP/long.csv" | tail -n +2 | paste -sd,)" = "$list"
head -c 1000001 /dev/zero | tr '\0' x >"$TMP/huge.ini"
echo " = 1" >>"$TMP/huge.ini"
expect_fail 2 "huge.ini:1: line too long \(more than 1000000 characters\)" run -c "$TMP/huge.ini"
finish
