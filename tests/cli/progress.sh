# The progress line of one long `routesim run`: on stderr only when stderr is a terminal
# (here the pseudo-terminal of script(1)), never with --quiet, never when stderr is a file;
# the results are the same bytes with and without it.
. "$(dirname "$0")/lib.bash"
cd "$TMP" || exit 1
if ! command -v script >/dev/null; then
  echo "SKIPPED: script(1) (util-linux) is not installed"
  exit 77
fi
# about 2 s on this machine: the line first appears after one second
args="topology=mesh k=16 n=2 switching=wormhole injection_process=bernoulli injection_rate=0.1 warmup_steps=1000 measure_steps=120000 drain_steps=0 seed=3"
script -qc "'$RS' run $args -o tty.txt" /dev/null >tty.log 2>&1
check "on a terminal: exit 0" test $? = 0
check "on a terminal: a progress line" grep -aq "routesim: step [0-9]*, .* steps/s" tty.log
script -qc "'$RS' run $args --quiet -o quiet.txt" /dev/null >quiet.log 2>&1
check "--quiet: nothing on the terminal" test ! -s quiet.log
"$RS" run $args -o file.txt 2>file.err
check "stderr a file: nothing on it" test ! -s file.err
check "the same results with the progress line" cmp -s tty.txt file.txt
check "the same results with --quiet" cmp -s quiet.txt file.txt
expect_fail 2 "option '--quiet' does not apply here" analyze topology=mesh k=4 --quiet
finish
