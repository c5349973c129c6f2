# `routesim topo ... --svg F --png F`: pictures through Graphviz, and `routesim run ... --svg`
# with a deadlock's waiting cycle in red (checked by deadlock_svg.py). Every topology kind is
# drawn, and the SVG has one node and one edge per node and edge of the Graphviz text
# (`--dot`); grids get pinned positions (a k x k mesh drawn as a k x k grid); the size
# guard, the missing program, and the output rules (no input overwritten, nothing left
# behind on failure) are checked. Skipped when Graphviz is not installed.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.bash"
cd "$TMP" || exit 1
if ! command -v dot >/dev/null || ! command -v neato >/dev/null; then
  echo "SKIPPED: Graphviz (dot, neato) is not installed: scripts/setup.sh installs it"
  exit 77
fi

i=0
while read -r args; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  "$RS" topo $args --dot -o "g$i.dot" 2>"err$i"
  # shellcheck disable=SC2086
  "$RS" topo $args --svg "p$i.svg" 2>>"err$i"
  check "$args: --svg exit 0 ($(cat "err$i"))" test $? = 0
  want_nodes=$(grep -cE '^ +n[0-9]+ \[' "g$i.dot")
  want_edges=$(grep -cE '^ +n[0-9]+ -[->] n[0-9]+' "g$i.dot")
  check "$args: $want_nodes nodes drawn" test "$(grep -c 'class="node"' "p$i.svg")" = "$want_nodes"
  check "$args: $want_edges edges drawn" test "$(grep -c 'class="edge"' "p$i.svg")" = "$want_edges"
done <<'LIST'
topology=mesh k=4 n=2
topology=torus k=3 n=2
topology=ring k=5
topology=butterfly N=8
topology=benes N=8
topology=fat_tree N=16
topology=kary_nfly k=3 n=2
topology=kary_ntree k=2 n=2
topology=dragonfly p=1 a=2 h=1
topology=lcan N=8
LIST

# a 4 x 4 mesh is drawn as a grid: 4 distinct x and 4 distinct y positions of the nodes
"$RS" topo topology=mesh k=4 n=2 --svg grid.svg 2>/dev/null
xs=$(grep -A3 'class="node"' grid.svg | grep -o '<text[^>]* x="[-0-9.]*"' | grep -o 'x="[-0-9.]*"' | sort -u | wc -l)
ys=$(grep -A3 'class="node"' grid.svg | grep -o '<text[^>]* y="[-0-9.]*"' | grep -o 'y="[-0-9.]*"' | sort -u | wc -l)
check "4x4 mesh: 4 columns ($xs)" test "$xs" = 4
check "4x4 mesh: 4 rows ($ys)" test "$ys" = 4

"$RS" topo topology=butterfly N=8 --png b.png --svg b.svg 2>/dev/null
check "--png writes a PNG" bash -c "head -c 8 b.png | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a'"
check "--png and --svg together" test -s b.svg

expect_fail 3 "picture of topology=mesh with 4096 nodes is refused: more than picture_limit=2000 nodes" \
  topo topology=mesh k=64 n=2 --svg big.svg
check "refused picture: nothing written" test ! -e big.svg
"$RS" topo topology=mesh k=64 n=2 picture_limit=5000 --svg /dev/null 2>err
check "picture_limit raised: drawn ($(cat err))" test $? = 0
expect_fail 2 "picture_limit" topo topology=mesh k=4 picture_limit=0 --svg z.svg
expect_fail 2 "without --dot and -o" topo topology=mesh k=4 --svg z.svg --dot
printf 'topology = mesh\nk = 4\n' >in.ini
expect_fail 2 "in.ini" topo -c in.ini --svg in.ini
check "the input is not overwritten" grep -q "topology = mesh" in.ini

echo old >keep.svg
PATH=/nonexistent "$RS" topo topology=mesh k=4 --svg keep.svg >out 2>err
check "no Graphviz: exit status 2" test $? = 2
check "no Graphviz: the reason" grep -q "cannot run neato: not found on PATH (Graphviz" err
check "no Graphviz: the old file whole" grep -qx old keep.svg
check "no Graphviz: no temporary file left" test "$(ls keep.svg.tmp* 2>/dev/null | wc -l)" = 0
# run --svg: a deadlock's waiting cycle drawn in red (tests/cli/deadlock_svg.py: the red
# edges are the line's channels, once each, and the filled nodes their ends)
dl=0
while read -r args; do
  dl=$((dl + 1))
  # shellcheck disable=SC2086
  "$RS" run $args --svg "d$dl.svg" >"d$dl.out" 2>"d$dl.err"
  check "$args: deadlock exit 1" test $? = 1
  check "$args: the deadlock line" grep -q "waiting cycle of" "d$dl.err"
  got=$(python3 "$HERE/deadlock_svg.py" "d$dl.svg" "d$dl.err" 2>&1)
  check "$args: the cycle drawn ($got)" test "${got%% *}" = ok
  check "$args: metrics written" grep -q '^deadlock  *1$' "d$dl.out"
done <<'LIST'
topology=ring k=8 traffic=tornado switching=wormhole
topology=torus k=8 n=2 traffic=tornado switching=wormhole vcs=2
topology=ring k=7 traffic=tornado queue_size=1
topology=ring k=7 traffic=tornado queue_size=1 queue_at=output
topology=ring k=7 traffic=tornado queue_size=1 queue_at=switch
topology=ring k=8 traffic=tornado switching=wormhole router=iq
topology=ring k=8 traffic=tornado switching=cut_through_partial vc_depth=4
LIST
"$RS" run topology=ring k=8 traffic=tornado switching=wormhole --svg same.svg >/dev/null 2>same.err
check "the line is unchanged by --svg" cmp -s same.err d1.err
# the 8x8 torus with 2 VCs: a cycle of 4 channels of one row, out of 256
check "torus: 4 of 256 edges red" test "$(grep -c 'class="edge deadlock"' d2.svg)" = 4
check "torus: 256 edges drawn" test "$(grep -c 'class="edge' d2.svg)" = 256
# no deadlock: the network plain, exit 0
"$RS" run topology=ring k=8 traffic=tornado switching=wormhole vcs=2 vc_classes=dateline --svg plain.svg --png plain.png >/dev/null 2>err
check "no deadlock: exit 0 ($(cat err))" test $? = 0
check "no deadlock: nothing red" test "$(grep -c 'stroke="red"' plain.svg)" = 0
check "no deadlock: 16 edges" test "$(grep -c 'class="edge"' plain.svg)" = 16
check "no deadlock: a PNG too" bash -c "head -c 8 plain.png | od -An -tx1 | grep -q '89 50 4e 47'"
expect_fail 3 "more than picture_limit=2000 nodes" run topology=mesh k=64 n=2 --svg big.svg
check "refused before running: nothing written" test ! -e big.svg
printf 'topology = ring\nk = 8\ntraffic = tornado\nswitching = wormhole\n' >run.ini
expect_fail 2 "run.ini" run -c run.ini --svg run.ini
check "run: the input is not overwritten" grep -q "topology = ring" run.ini
expect_fail 2 "does not apply here" analyze topology=ring k=8 --svg a.svg
finish
