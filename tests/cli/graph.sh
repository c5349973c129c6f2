#!/usr/bin/env bash
# topology=graph, traffic=paths and topology=cms_lower_bound through the binary: analysis and
# runs on good input; every validation error is one line naming file:line (or the rule),
# exit status 2, nothing on stdout and no output file.
. "$(dirname "$0")/lib.bash"

G="$RS_TEST_DATA/graph_small.txt"
P="$RS_TEST_DATA/graph_small_paths.txt"

expect_ok '^congestion +4$' analyze topology=graph graph_file="$G" paths_file="$P" traffic=paths
expect_ok '^dilation +4$' analyze topology=graph graph_file="$G" paths_file="$P" traffic=paths
expect_ok '^makespan +5$' run topology=graph graph_file="$G" paths_file="$P" traffic=paths
expect_ok '^delivered +24$' run topology=graph graph_file="$G" traffic=uniform per_input=4 routing=valiant
expect_ok '^channels +9$' topo topology=graph graph_file="$G"
expect_ok '^  n1 -> n4;$' topo topology=graph graph_file="$G" --dot
expect_ok '^congestion +6$' analyze topology=cms_lower_bound B=2 C=6 D=20 L=40 traffic=paths
expect_ok '^dilation +20$' analyze topology=cms_lower_bound B=2 C=6 D=20 L=40 traffic=paths
expect_ok '^deadlock +0$' run topology=cms_lower_bound B=2 C=6 D=20 L=40 traffic=paths queue_size=1
expect_ok '^  n0 \[label="t\{0,1\}"\];$' topo topology=cms_lower_bound --dot

# The graph file: file:line and what was expected.
printf 'nodes 4\n0 1\n1 x\n' >"$TMP/g1.txt"
expect_fail 2 "g1.txt:3: expected an edge 'u v' with u, v in 0..3, got '1 x'" analyze topology=graph graph_file="$TMP/g1.txt"
printf 'nodes 4\n0 1\n\n0 1\n' >"$TMP/g2.txt"
expect_fail 2 "g2.txt:4: edge 0 -> 1 repeated \(first at line 2\)" analyze topology=graph graph_file="$TMP/g2.txt"
printf 'nodes 4\n3 3\n' >"$TMP/g3.txt"
expect_fail 2 "g3.txt:2: self-loop 3 -> 3" topo topology=graph graph_file="$TMP/g3.txt"
printf '0 1\n' >"$TMP/g4.txt"
expect_fail 2 "g4.txt:1: expected 'nodes N'" run topology=graph graph_file="$TMP/g4.txt"
expect_fail 2 "g4.txt:1: expected 'nodes N'" run topology=graph graph_file="$TMP/g4.txt" -o "$TMP/out.csv" --format csv
if [ -e "$TMP/out.csv" ]; then echo "FAIL: output file written on error"; FAILS=$((FAILS + 1)); fi
printf 'nodes 3\n0 1\n1 2\n' >"$TMP/g5.txt"
expect_fail 2 "g5.txt: node 1 cannot reach node 0" analyze topology=graph graph_file="$TMP/g5.txt"
expect_fail 2 "topology=graph needs graph_file=PATH" analyze topology=graph
expect_fail 2 "cannot open '$TMP/none.txt'" analyze topology=graph graph_file="$TMP/none.txt"

# The paths file.
printf '0 1 2\n0 2\n' >"$TMP/p1.txt"
expect_fail 2 "p1.txt:2: no edge 0 -> 2 in the graph \(hop 1 of the path\)" analyze topology=graph graph_file="$G" paths_file="$TMP/p1.txt" traffic=paths
printf '0 1 2 3 0 1\n' >"$TMP/p2.txt"
expect_fail 2 "p2.txt:1: edge 0 -> 1 used twice in one path \(hops 1 and 5\)" analyze topology=graph graph_file="$G" paths_file="$TMP/p2.txt" traffic=paths
printf '# m0\n0 1 9\n' >"$TMP/p3.txt"
expect_fail 2 "p3.txt:2: node 9 out of range 0..5" run topology=graph graph_file="$G" paths_file="$TMP/p3.txt" traffic=paths -o "$TMP/out2.csv"
if [ -e "$TMP/out2.csv" ]; then echo "FAIL: output file written on error"; FAILS=$((FAILS + 1)); fi
printf '0 a\n' >"$TMP/p4.txt"
expect_fail 2 "p4.txt:1: expected node ids 0..5 separated by blanks, got 'a'" analyze topology=graph graph_file="$G" paths_file="$TMP/p4.txt" traffic=paths
printf '2\n' >"$TMP/p5.txt"
expect_fail 2 "p5.txt:1: a path needs at least two nodes" analyze topology=graph graph_file="$G" paths_file="$TMP/p5.txt" traffic=paths
printf '\n' >"$TMP/p6.txt"
expect_fail 2 "p6.txt: no paths" analyze topology=graph graph_file="$G" paths_file="$TMP/p6.txt" traffic=paths

# Combinations.
expect_fail 2 "unknown key 'paths_file' for topology=butterfly \(it is a key of topology=graph\)" analyze topology=butterfly paths_file="$P"
expect_fail 2 "traffic=paths needs a network that carries message paths" analyze topology=mesh traffic=paths
expect_fail 2 "traffic=paths needs a network that carries message paths: .* \(got topology=graph without paths\)" analyze topology=graph graph_file="$G" traffic=paths
expect_fail 2 "topology=graph gives its messages as explicit paths: use traffic=paths \(got traffic=uniform\)" run topology=graph graph_file="$G" paths_file="$P"
expect_fail 2 "topology=cms_lower_bound gives its messages as explicit paths" analyze topology=cms_lower_bound
expect_fail 2 "routing=valiant is not possible on topology=graph with explicit paths" run topology=graph graph_file="$G" paths_file="$P" traffic=paths routing=valiant
expect_fail 2 "per_input does not apply to traffic=paths \(one message per path; these paths give per_input=2, got 3\)" run topology=cms_lower_bound traffic=paths per_input=3
expect_fail 2 "needs C a multiple of B\+1" analyze topology=cms_lower_bound B=2 C=4 traffic=paths
expect_fail 2 "needs L > D" analyze topology=cms_lower_bound D=9 L=9 traffic=paths
expect_fail 2 "traffic=transpose needs terminal addresses as digits" analyze topology=graph graph_file="$G" traffic=transpose
finish
