#!/usr/bin/env bash
# How `-o FILE` writes (docs/cli.md): a regular file or a new path is replaced atomically with
# its mode kept and symbolic links followed to their target; a character device, a FIFO or
# standard output is written through; a directory or a missing folder is refused (exit 2); a
# failed write is exit 1. An output that is an input (-c, *_file keys) is refused before
# anything is written. Real devices are tried only after the binary left private copies of
# them (mknod, as root) or a FIFO intact, so running this against a broken binary never
# replaces /dev/null or /dev/full.
. "$(dirname "$0")/lib.bash"

lines() { wc -l <"$1"; }
quiet() { # quiet ARGS...: status 0, nothing on stdout or stderr
  "$RS" "$@" >"$TMP/out" 2>"$TMP/err"
  local st=$?
  if [ $st = 0 ] && [ ! -s "$TMP/out" ] && [ ! -s "$TMP/err" ]; then PASSES=$((PASSES + 1))
  else echo "FAIL: routesim $* -> status $st"; cat "$TMP/err"; FAILS=$((FAILS + 1)); fi
}
RUN=(run topology=butterfly N=8 --format csv)
want=$("$RS" "${RUN[@]}" | wc -l)
check "a run prints a header and a row" test "$want" = 2

# A 0600 file: replaced, mode kept.
echo old >"$TMP/secret.csv"
chmod 600 "$TMP/secret.csv"
quiet "${RUN[@]}" -o "$TMP/secret.csv"
check "0600 file rewritten" test "$(lines "$TMP/secret.csv")" = "$want"
check "0600 file keeps its mode ($(stat -c %a "$TMP/secret.csv"))" test "$(stat -c %a "$TMP/secret.csv")" = 600

# A symbolic link (also a dangling one, also a chain): the link stays, its target is written.
echo old >"$TMP/target.csv"
ln -s target.csv "$TMP/link.csv"
ln -s link.csv "$TMP/link2.csv"
ln -s new-target.csv "$TMP/dangling.csv"
quiet "${RUN[@]}" -o "$TMP/link2.csv"
check "a link stays a link" test -L "$TMP/link.csv" -a -L "$TMP/link2.csv"
check "the link's target is written" test "$(lines "$TMP/target.csv")" = "$want"
quiet "${RUN[@]}" -o "$TMP/dangling.csv"
check "a dangling link stays a link" test -L "$TMP/dangling.csv"
check "... and its target is created" test "$(lines "$TMP/new-target.csv")" = "$want"
check "no temporary file is left" test -z "$(ls "$TMP" | grep '\.tmp\.')"

# A FIFO: written through to its reader, still a FIFO afterwards.
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/fifo.out" &
reader=$!
quiet "${RUN[@]}" -o "$TMP/fifo"
if [ -p "$TMP/fifo" ]; then wait "$reader"; else kill "$reader"; wait "$reader"; fi 2>/dev/null
check "a FIFO stays a FIFO" test -p "$TMP/fifo"
check "the FIFO's reader got the output" test "$(lines "$TMP/fifo.out")" = "$want"
safe=0
[ -p "$TMP/fifo" ] && safe=1

# Character devices: private nodes first (root only), then the real ones.
if mknod -m 666 "$TMP/null" c 1 3 2>/dev/null && mknod -m 666 "$TMP/full" c 1 7 2>/dev/null; then
  quiet "${RUN[@]}" -o "$TMP/null"
  check "a private /dev/null stays a character device" test -c "$TMP/null"
  expect_fail 1 "cannot write '$TMP/full': No space left on device" "${RUN[@]}" -o "$TMP/full"
  check "a private /dev/full stays a character device" test -c "$TMP/full"
  [ -c "$TMP/null" ] && [ -c "$TMP/full" ] || safe=0
fi
if [ $safe = 1 ] && [ -c /dev/null ] && [ -c /dev/full ]; then
  quiet "${RUN[@]}" -o /dev/null
  check "/dev/null is still a character device" test -c /dev/null
  expect_fail 1 "cannot write '/dev/full': No space left on device" "${RUN[@]}" -o /dev/full
  check "/dev/full is still a character device" test -c /dev/full
  # /dev/stdout, whatever standard output is: a pipe, a file (`>` and `>>`)
  out=$("$RS" "${RUN[@]}" -o /dev/stdout | wc -l)
  check "-o /dev/stdout into a pipe ($out lines)" test "$out" = "$want"
  echo first >"$TMP/log"
  "$RS" "${RUN[@]}" -o /dev/stdout >>"$TMP/log"
  check "-o /dev/stdout appended to a file (>>)" test "$(head -1 "$TMP/log")" = first -a "$(lines "$TMP/log")" = $((want + 1))
  check "/dev/stdout is still a link" test -L /dev/stdout
else
  echo "FAIL: real devices not tried: the binary replaced a FIFO or a private device"
  FAILS=$((FAILS + 1))
fi

# Refused (exit 2), nothing created: a directory, a missing folder, a path ending in '/'.
mkdir "$TMP/dir"
expect_fail 2 "cannot write '$TMP/dir': Is a directory" "${RUN[@]}" -o "$TMP/dir"
expect_fail 2 "cannot write '$TMP/nowhere/r.csv': No such file or directory" "${RUN[@]}" -o "$TMP/nowhere/r.csv"
expect_fail 2 "cannot write '$TMP/r.csv/': Is a directory" "${RUN[@]}" -o "$TMP/r.csv/"
check "nothing created by refused outputs" test ! -e "$TMP/nowhere" -a ! -e "$TMP/r.csv"
# ... and refused before the run: a bad run key is not reached
expect_fail 2 "cannot write '$TMP/dir': Is a directory" run N=12 -o "$TMP/dir"

# An output that is an input: refused, the input intact.
printf 'topology = butterfly\nN = 8\n' >"$TMP/cfg.ini"
cp "$TMP/cfg.ini" "$TMP/cfg.orig"
expect_fail 2 "-o '$TMP/cfg.ini' is the same file as the input -c '$TMP/cfg.ini' \(refusing to overwrite it\)" run -c "$TMP/cfg.ini" -o "$TMP/cfg.ini"
ln -s cfg.ini "$TMP/cfg-link"
expect_fail 2 "is the same file as the input -c" analyze -c "$TMP/cfg.ini" -o "$TMP/cfg-link"
expect_fail 2 "is the same file as the input -c" topo -c "$TMP/cfg.ini" --dot -o "$TMP/cfg.ini"
check "the config is intact" cmp -s "$TMP/cfg.ini" "$TMP/cfg.orig"
seq 0 7 | sort -r >"$TMP/dest.txt"
cp "$TMP/dest.txt" "$TMP/dest.orig"
expect_fail 2 "-o '$TMP/dest.txt' is the same file as the input traffic_file '$TMP/dest.txt'" run N=8 traffic=file traffic_file="$TMP/dest.txt" -o "$TMP/dest.txt"
check "the traffic file is intact" cmp -s "$TMP/dest.txt" "$TMP/dest.orig"
finish
