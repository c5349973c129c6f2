#!/usr/bin/env bash
# Permutation realization on CB-LCANs from the command line (002 §4): algorithm=offline
# (Theorem 3) and algorithm=self_route, traffic=linear and traffic=inverse_omega, their
# help and the errors (one line, exit 2). Its claims, quick, are judged in reproduce.sh
# (002 §4 is part of the reproduction scherson-chien).
. "$(dirname "$0")/lib.bash"

# Off-line: one cycle for d <= u, (d/u)^(l-1) for d > u, no conflict.
expect_ok '"cycles":1,.*"conflicts":0,.*"bound_cycles":1' run topology=baseline N=8 traffic=randperm switching=circuit algorithm=offline --format json
expect_ok '"cycles":1,.*"conflicts":0,.*"bound_cycles":1' run topology=lcan N=27 d=3 u=3 traffic=randperm switching=circuit algorithm=offline --format json
expect_ok '"cycles":4,.*"conflicts":0,.*"bound_cycles":4' run topology=lcan N=64 d=4 u=2 traffic=randperm switching=circuit algorithm=offline --format json
expect_ok '"cycles":4,.*"conflicts":0,.*"bound_cycles":4' run topology=lcan N=64 d=4 u=2 traffic=randperm switching=circuit algorithm=offline grouping=blocks turn=top check=1 --format json
expect_ok '"cycles":1,.*"conflicts":0' run topology=lcan N=16 d=2 u=4 traffic=bitrev switching=circuit algorithm=offline --format json
expect_ok '"cycles":1,.*"conflicts":0' run topology=lcan N=64 d=4 u=2 traffic=identity switching=circuit algorithm=offline --format json
expect_ok '"cycles":16,.*"conflicts":0,.*"bound_cycles":16' run topology=swbanyan N=64 f=4 s=1 traffic=root switching=circuit algorithm=offline --format json
expect_ok '"cycles":1,.*"conflicts":0,.*"bound_cycles":1,"crossed_switches":[0-9]+' run topology=benes N=1024 traffic=randperm switching=circuit algorithm=offline --format json
# Beneš: the settings file (2 comment lines, 2n = 6 lines of N/2 = 4 switches), never over an input.
expect_ok '^cycles +1$' run topology=benes N=8 traffic=bitrev switching=circuit algorithm=offline save_settings="$TMP/set.txt"
if [ "$(grep -c '^#' "$TMP/set.txt")" = 2 ] && [ "$(grep -v '^#' "$TMP/set.txt" | grep -cx '[01]\{4\}')" = 6 ] &&
   [ "$(wc -l <"$TMP/set.txt")" = 8 ]; then PASSES=$((PASSES + 1)); else echo "FAIL: settings file"; cat "$TMP/set.txt"; FAILS=$((FAILS + 1)); fi
printf '1\n0\n3\n2\n5\n4\n7\n6\n' >"$TMP/perm.txt"
expect_fail 2 "save_settings '.*perm.txt' is the same file as the input traffic_file" run topology=benes N=8 traffic=file traffic_file="$TMP/perm.txt" switching=circuit algorithm=offline save_settings="$TMP/perm.txt"
expect_fail 2 "key 'save_settings' has no effect with algorithm=offline" run topology=baseline N=8 traffic=randperm switching=circuit algorithm=offline save_settings="$TMP/x.txt"

# Self-routing: the classes go through in one cycle; a random permutation does not.
expect_ok '"cycles":1,.*"conflicts":0' run topology=baseline N=256 traffic=bpc switching=circuit algorithm=self_route --format json
expect_ok '"cycles":1,.*"conflicts":0' run topology=baseline N=256 traffic=inverse_omega switching=circuit algorithm=self_route --format json
expect_ok '"cycles":1,.*"conflicts":0' run topology=baseline N=256 traffic=linear switching=circuit algorithm=self_route priority=smaller_tag --format json
expect_ok '"conflicts":[1-9]' run topology=baseline N=256 traffic=randperm switching=circuit algorithm=self_route --format json
# matrix=4,5,2: (d0, d1, d2) = (s2, s0 ^ s2, s1), the permutation 0 2 4 6 3 1 7 5: linear,
# so the smaller-destination rule realizes it; the lower-input rule refuses 2 circuits.
expect_ok '^conflicts +2$' run topology=baseline N=8 traffic=linear matrix=4,5,2 switching=circuit algorithm=self_route priority=lower_input
expect_ok '^conflicts +0$' run topology=baseline N=8 traffic=linear matrix=4,5,2 switching=circuit algorithm=self_route priority=smaller_tag

# The traffics and their keys.
expect_ok '^delivered +16$' run topology=butterfly N=16 traffic=linear matrix=1,3,7,15 complement=9
expect_ok '^delivered +16$' run topology=butterfly N=16 traffic=inverse_omega
expect_ok 'matrix +text' help linear
expect_ok 'grouping +choice +default consecutive' help offline
expect_ok 'priority +choice +default lower_input' help self_route
expect_ok '^  self_route ' list

# Errors: one line, exit 2.
expect_fail 2 'algorithm=offline needs switching=circuit \(got store_forward\)' run topology=baseline N=8 traffic=randperm switching=store_forward algorithm=offline
expect_fail 2 'algorithm=offline needs d <= u or d a multiple of u' run topology=trac N=27 traffic=randperm switching=circuit algorithm=offline
expect_fail 2 'algorithm=offline routes a permutation: PE [0-9]+ receives two messages' run topology=baseline N=64 traffic=uniform switching=circuit algorithm=offline
expect_fail 2 "key 'grouping' has no effect with algorithm=offline" run topology=baseline N=8 traffic=randperm switching=circuit algorithm=offline grouping=blocks
expect_fail 2 "unknown key 'priority'" run topology=baseline N=8 traffic=randperm switching=circuit algorithm=offline priority=smaller_tag
expect_fail 2 'algorithm=self_route needs CB-LCAN\(N,2,2\)' run topology=lcan N=16 d=4 u=4 traffic=randperm switching=circuit algorithm=self_route
expect_fail 2 "key 'matrix': row 2 is a XOR of earlier rows" run topology=baseline N=8 traffic=linear matrix=3,5,6
expect_fail 2 'traffic=inverse_omega needs N a power of two \(got N=27\)' run topology=trac N=27 traffic=inverse_omega

finish
