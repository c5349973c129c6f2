#!/usr/bin/env bash
# `run --save-traffic F` and `analyze --save-traffic F` (docs/cli.md): the workload written
# as a traffic_file, read back by traffic=file into the same run; the same bytes twice
# (traffic=hard_permutation is deterministic); an output that is an input is refused.
. "$(dirname "$0")/lib.bash"

field() { awk -v k="$1" '$1 == k {print $2}' "$2"; }
HARD=(topology=butterfly N=512 traffic=hard_permutation queue_at=switch queue_threshold=2)
ROUTE=(topology=butterfly N=512 queue_at=switch queue_threshold=2)

"$RS" run "${HARD[@]}" --save-traffic "$TMP/hard.txt" >"$TMP/a.out"
check "run --save-traffic exits 0" test $? = 0
"$RS" run "${HARD[@]}" --save-traffic "$TMP/hard2.txt" >/dev/null
check "the same bytes twice" cmp -s "$TMP/hard.txt" "$TMP/hard2.txt"
check "a comment line, then 512 destinations" test "$(grep -vc '^#' "$TMP/hard.txt")" = 512
check "a permutation" test "$(grep -v '^#' "$TMP/hard.txt" | sort -n | uniq | wc -l)" = 512
"$RS" run "${ROUTE[@]}" traffic=file traffic_file="$TMP/hard.txt" >"$TMP/b.out"
check "routed again from the file: the same makespan" \
  test "$(field makespan "$TMP/a.out")" = "$(field makespan "$TMP/b.out")"
check "the run reports bound_hard" test "$(field bound_hard "$TMP/a.out")" = 16

# analyze saves any workload it can build (here bit reversal)
"$RS" analyze topology=butterfly N=8 traffic=bitrev --save-traffic "$TMP/bitrev.txt" >/dev/null
check "analyze --save-traffic: bit reversal" \
  test "$(grep -v '^#' "$TMP/bitrev.txt" | tr '\n' ' ')" = "0 4 2 6 1 5 3 7 "

expect_fail 2 "--save-traffic '$TMP/hard.txt' is the same file as the input traffic_file" \
  run "${ROUTE[@]}" traffic=file traffic_file="$TMP/hard.txt" --save-traffic "$TMP/hard.txt"
expect_fail 2 "--save-traffic '$TMP/x.txt' is the same file as -o" \
  run topology=butterfly N=8 -o "$TMP/x.txt" --save-traffic "$TMP/x.txt"
finish
