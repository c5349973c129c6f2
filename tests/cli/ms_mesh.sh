#!/usr/bin/env bash
# Makedon-Symvonis (003) §3-§4 through the binary: algorithm=ms_mesh / ms_torus on good input
# (every packet delivered, the bounds in the record), their errors (one line, exit 2), and
# the §3/§4 part of the reproduction `makedon-symvonis --quick`: files, the verdicts of the
# mesh claims (hold) and of Theorem 7's random part under Lemma 7 (does not hold: step 4
# alone takes nk/2).
. "$(dirname "$0")/lib.bash"

MS="traffic=randperm switching=cut_through_partial check=1"
expect_ok '^delivered +64$' run topology=mesh k=8 $MS algorithm=ms_mesh colouring=B length=4
expect_ok '^bound_ms_main +48$' run topology=mesh k=8 $MS algorithm=ms_mesh colouring=A length=4
expect_ok '^steps_phase4 +16$' run topology=torus k=8 $MS algorithm=ms_torus length=4
expect_ok '^ms_u +8$' run topology=mesh k=8 $MS algorithm=ms_mesh snakes=2 length=4
expect_fail 2 "snakes=4 needs length divisible by 4 \(got length=6\)" run topology=torus k=8 $MS algorithm=ms_torus snakes=4 length=6
expect_fail 2 "algorithm=ms_mesh needs switching=cut_through_partial \(got wormhole\)" run topology=mesh k=8 traffic=randperm switching=wormhole algorithm=ms_mesh
# the algorithms that fix their model select it themselves (recorded as if given)
expect_ok '^switching +cut_through_partial$' run topology=mesh k=8 traffic=randperm algorithm=ms_mesh length=4
expect_ok '^switching +cut_through_partial$' run topology=torus k=8 traffic=randperm algorithm=ms_torus length=4
expect_ok '^switching +cut_through_partial$' run topology=chain k=16 traffic=randperm algorithm=ms_chain
expect_fail 2 "algorithm=ms_chain needs switching=cut_through_partial \(got wormhole\)" run topology=chain k=16 traffic=randperm switching=wormhole algorithm=ms_chain
expect_ok '^switching +store_forward$' run topology=butterfly N=8 algorithm=wave queue_size=1
expect_fail 2 "algorithm=wave needs switching=store_forward \(got circuit\)" run topology=butterfly N=8 switching=circuit algorithm=wave queue_size=1
expect_fail 2 "unknown value 'D' for key 'colouring' \(did you mean 'A'\?\)" run topology=mesh k=8 $MS algorithm=ms_mesh colouring=D

out=$("$RS" reproduce makedon-symvonis --quick --out "$TMP/ms" 2>/dev/null)
check "makedon-symvonis quick runs" grep -q "report: $TMP/ms/REPORT.md" <<<"$out"
for f in mesh_colourings mesh_transpose mesh_snakes torus torus_snakes greedy_saf greedy_flit; do
  check "writes $f.csv" test -s "$TMP/ms/$f.csv"
done
verdicts() {
  awk -v h="### $1" '$0 == h {on = 1; next} /^### / {on = 0} on && /^\*\*Verdict/' "$TMP/ms/REPORT.md" |
    sed -E 's/^\*\*Verdict \([^)]*\): ([a-z ]+)\*\*.*/\1/' | sort -u | paste -sd, -
}
for c in mesh_A_routing_3nk2 mesh_B_routing_3nk2 mesh_random_routing_nk mesh_thm4_expression two_snakes_nk four_snakes_nk2 torus_lemma7_no_competition; do
  got=$(verdicts "$c")
  check "claim $c holds (got $got)" test "$got" = "holds"
done
got=$(awk '$0 == "### torus_random_nk2" {on = 1; next} /^### / {on = 0} on && /^\*\*Verdict \(ring_step4=lemma7\)/' "$TMP/ms/REPORT.md")
check "torus_random_nk2 under Lemma 7 does not hold (got $got)" grep -q "does not hold" <<<"$got"
finish
