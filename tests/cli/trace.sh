# `routesim run ... --trace F.html`: the browser view of a run. The page is loaded in
# headless Chromium at given steps, and the numbers it reads back from the drawing (nodes
# drawn, packets present) are compared with the run's own event log (--events, replayed
# here with awk); a screenshot is kept as a test artefact (build/test-artefacts/trace.png).
# The page must be self-contained (nothing loaded from the network), show the deadlock
# line of a deadlocked run, and be refused above --trace-limit, for standard output, over
# an input file and without Graphviz. The browser part is skipped (exit 77, after the other
# checks) when Chromium is not installed; scripts/setup.sh installs it.
. "$(dirname "$0")/lib.bash"
cd "$TMP" || exit 1
if ! command -v dot >/dev/null || ! command -v neato >/dev/null; then
  echo "SKIPPED: Graphviz (dot, neato) is not installed: scripts/setup.sh installs it"
  exit 77
fi
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)

# packets present after every event of steps <= T in an event log (generated, not yet
# delivered or dropped)
present() { # present LOG T
  awk -F, -v t="$2" 'NR > 1 && $1 <= t {
      if ($2 == "generated") live[$3] = 1
      else if ($2 == "delivered" || $2 == "dropped") delete live[$3]
    } END { n = 0; for (p in live) n++; print n }' "$1"
}
# the <body> tag of the page at step T as Chromium draws it, and one attribute of it
page_body() { # page_body FILE T
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --virtual-time-budget=3000 \
    --dump-dom "file://$TMP/$1?step=$2" 2>/dev/null | grep -o "<body[^>]*>"
}
attr() { # attr BODY NAME
  echo "$1" | grep -o "data-$2=\"[0-9]*\"" | grep -o "[0-9]*"
}

# 1. A batch wormhole run with blocked headers: the page and the log of the same run.
"$RS" run topology=mesh k=4 n=2 switching=wormhole vcs=2 traffic=transpose \
  --events w.csv --trace w.html -o w.out 2>err
check "wormhole run with --trace: exit 0 ($(cat err))" test $? = 0
check "the page is written" test -s w.html
check "no script, style or image loaded from elsewhere" \
  test "$(grep -cE '(src|href)="(https?:)?//' w.html)" = 0
check "the event log is embedded (one record per log line)" \
  test "$(grep -o '\[[0-9]*,[0-9],[0-9]*,[0-9]*,-\?[0-9]*,-\?[0-9]*\]' w.html | wc -l)" = \
  "$(($(wc -l <w.csv) - 1))"
check "the metrics are embedded" grep -q '"flit_hops":160' w.html
"$RS" run topology=mesh k=4 n=2 switching=wormhole vcs=2 traffic=transpose -o w2.out 2>/dev/null
check "the record is the same with --trace" cmp -s w.out w2.out

# A store-and-forward run: its log is embedded whole too.
"$RS" run topology=butterfly N=16 traffic=uniform queue_size=2 --events s.csv --trace s.html \
  >/dev/null 2>err
check "store-and-forward run with --trace: exit 0 ($(cat err))" test $? = 0
check "store-and-forward: the event log is embedded" \
  test "$(grep -o '\[[0-9]*,[0-9],[0-9]*,[0-9]*,-\?[0-9]*,-\?[0-9]*\]' s.html | wc -l)" = \
  "$(($(wc -l <s.csv) - 1))"

# An open-loop run (warm-up, measurement, drain): its log is embedded whole too.
OL=(topology=mesh k=4 n=2 switching=wormhole vcs=2 traffic=uniform injection_process=bernoulli
  injection_rate=0.2 warmup_steps=10 measure_steps=20 drain_steps=40)
"$RS" run "${OL[@]}" --events o.csv --trace o.html -o o.out 2>err
check "open-loop run with --trace: exit 0 ($(cat err))" test $? = 0
check "open-loop: the event log is embedded" \
  test "$(grep -o '\[[0-9]*,[0-9],[0-9]*,[0-9]*,-\?[0-9]*,-\?[0-9]*\]' o.html | wc -l)" = \
  "$(($(wc -l <o.csv) - 1))"
"$RS" run "${OL[@]}" -o o2.out 2>/dev/null
check "open-loop: the record is the same with --trace" cmp -s o.out o2.out

# 2. A deadlocked run: the page carries the waiting cycle's line.
"$RS" run topology=ring k=8 traffic=tornado switching=wormhole --trace d.html >/dev/null 2>err
check "deadlocked run: exit 1" test $? = 1
check "deadlocked run: the page is written" grep -q '"deadlock":"deadlock at step 2: waiting cycle of 8 channels' d.html
check "deadlocked run: the cycle's 8 channels are embedded" \
  test "$(grep -o '"cycle":\[[][0-9,]*\]' d.html | grep -o '\[[0-9]*,[0-9]*\]' | wc -l)" = 8

# 3. Refusals: one line, exit status 2 or 3, nothing written.
expect_fail 3 "browser view of topology=mesh with 576 nodes is refused: more than --trace-limit 500 nodes" \
  run topology=mesh k=24 n=2 switching=wormhole --trace big.html
check "refused view: nothing written" test ! -e big.html
expect_fail 2 "expected a number of nodes" run topology=mesh k=4 --trace x.html --trace-limit 0
expect_fail 2 "the browser view is a file" run topology=mesh k=4 --trace - -o y.out
printf 'topology = mesh\nk = 4\nswitching = wormhole\n' >in.ini
expect_fail 2 "in.ini" run -c in.ini --trace in.ini
check "the input is not overwritten" grep -q "topology = mesh" in.ini
echo old >keep.html
PATH=/nonexistent "$RS" run topology=mesh k=4 switching=wormhole --trace keep.html >out 2>err
check "no Graphviz: exit status 2" test $? = 2
check "no Graphviz: the reason" grep -q "cannot run neato: not found on PATH (Graphviz" err
check "no Graphviz: the old file whole" grep -qx old keep.html

# 4. In a browser: nodes drawn, packets present at steps 0, 3 and 6 as the log says (and
# at steps 5, 15 and 25 of the open-loop run).
if [ -z "$CHROMIUM" ]; then
  echo "SKIPPED (browser part): Chromium is not installed: scripts/setup.sh installs it"
  [ "$FAILS" = 0 ] && exit 77
  finish
fi
for t in 0 3 6; do
  body=$(page_body w.html $t)
  want=$(present w.csv $t)
  got=$(attr "$body" drawn-packets)
  check "step $t: packets drawn $got, the log says $want" test "$got" = "$want"
  check "step $t: the page is at the step asked" test "$(attr "$body" step)" = $t
  check "step $t: all 16 nodes drawn" test "$(attr "$body" drawn-nodes)" = 16
done
for t in 5 15 25; do # open loop: packets generated, moving, delivered at that step
  body=$(page_body o.html $t)
  want=$(present o.csv $t)
  got=$(attr "$body" drawn-packets)
  check "open loop, step $t: packets drawn $got, the log says $want" test "$got" = "$want"
  check "open loop, step $t: some packets present" test "$want" -gt 0
  check "open loop, step $t: the page is at the step asked" test "$(attr "$body" step)" = $t
  check "open loop, step $t: all 16 nodes drawn" test "$(attr "$body" drawn-nodes)" = 16
done
body=$(page_body d.html 2)
check "deadlocked run: the 8 channels of the cycle drawn red" test "$(attr "$body" cycle-edges)" = 8
art=$(dirname "$RS")/test-artefacts
mkdir -p "$art"
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1200,800 --virtual-time-budget=3000 --screenshot="$art/trace.png" \
  "file://$TMP/w.html?step=3" >/dev/null 2>&1
check "screenshot kept in $art/trace.png" test -s "$art/trace.png"
finish
