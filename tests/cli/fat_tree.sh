#!/usr/bin/env bash
# topology=pruned_butterfly and topology=fat_tree through the binary: the fat-tree view of
# `topo` (one row per level), its DOT text, the load factors in analyze and run records and
# in a sweep's columns, traffic=subtree_cross (N = 64, g = 4, q = 3: lambda = 3 * 2^2 = 12;
# bit reversal of 16: 8 messages over the 4 wires of a root channel, lambda = 2), and the
# lower-bound set of §5 (N = 4096, eta = 2: eta(M) = 3 eta = 6), and the errors (one line,
# exit 2).
. "$(dirname "$0")/lib.bash"

expect_ok '^pruned_butterfly +52 +144 +4 +16 +0 +2 +2 +4 +2 +4 +16$' topo topology=pruned_butterfly N=16
expect_ok '^fat_tree,15,48,8,8,0,1,2,2,1,4,8$' topo topology=fat_tree N=8 capacity=full --format csv
expect_ok '^  subgraph cluster_1_1 \{ label="\(1,1\)"; n8 \[label="<1,1,0>"\];' topo topology=pruned_butterfly N=16 --dot
expect_ok '^  n0 -- n1 \[label="3"\];$' topo topology=fat_tree N=4 capacity=constant cap=3 --dot
expect_ok '^load_factor +12$' analyze topology=pruned_butterfly N=64 traffic=subtree_cross height=4 per_input=3
expect_ok '^reference_load_factor +12$' analyze topology=pruned_butterfly N=64 traffic=subtree_cross height=4 per_input=3
expect_ok '^peak2_msgs +192$' analyze topology=pruned_butterfly N=64 traffic=subtree_cross height=4 per_input=3
expect_ok '^degree +3$' run topology=fat_tree N=32 traffic=qrelation per_input=3
expect_ok '^load_factor +2$' run topology=pruned_butterfly N=16 traffic=subtree_cross height=2
expect_ok '^load_factor +2$' analyze topology=pruned_butterfly N=16 traffic=bitrev
printf 'topology = pruned_butterfly\nN = 16,64\ntraffic = subtree_cross\nheight = 2,3\nruns = 2\n' >"$TMP/g.ini"
if "$RS" sweep -c "$TMP/g.ini" -o "$TMP/s.csv" 2>/dev/null &&
    c=$(csvcol load_factor_mean "$TMP/s.csv") && [ -n "$c" ] &&
    [ "$(awk -F, -v c="$c" 'NR > 1 { printf "%s ", $c }' "$TMP/s.csv")" = "2 2 2 2 " ]; then
  PASSES=$((PASSES + 1))
else
  echo "FAIL: sweep with load_factor_mean 2 at every point (height 2 and 3)"; FAILS=$((FAILS + 1))
fi

expect_ok '^reference_load_factor +6$' analyze topology=pruned_butterfly N=4096 traffic=mot_expander eta=2
expect_fail 2 "topology=pruned_butterfly needs N a power of 4 \(000 §3.1; got N=32\)" topo topology=pruned_butterfly N=32
expect_fail 2 "topology=fat_tree: key 'caps': expected 3 integers" topo topology=fat_tree N=8 capacity=list caps=1,2
expect_fail 2 "traffic=subtree_cross needs height <= log2 N = 4 \(got height=5\)" analyze topology=fat_tree N=16 traffic=subtree_cross height=5
finish
