#!/usr/bin/env bash
# The routing layer from the command line: `list` shows the routing functions, a typo gets
# a did-you-mean, min_adaptive runs on a mesh and is refused where it cannot run (exit 2).
. "$(dirname "$0")/lib.bash"

expect_ok '^routing functions \(routing=NAME\)$' list
expect_ok '^  min_adaptive ' list
expect_fail 2 "did you mean 'min_adaptive'" run topology=mesh k=4 switching=wormhole routing=min_adaptve
expect_fail 2 'routing=min_adaptive needs topology=mesh\|torus\|chain\|ring\|hypercube\|hyperx\|flattened_butterfly \(got butterfly\)' \
  run topology=butterfly N=8 switching=wormhole routing=min_adaptive vcs=2
expect_fail 2 'routing=min_adaptive needs vcs >= 3 on topology=torus' \
  run topology=torus k=4 switching=wormhole routing=min_adaptive vcs=2
expect_fail 2 'switching=store_forward needs fixed paths' \
  run topology=mesh k=4 routing=min_adaptive
# a static transpose on a 6x6 mesh: everything delivered, no deadlock
expect_ok '^deadlock +0$' run topology=mesh k=6 traffic=transpose switching=wormhole \
  routing=min_adaptive vcs=2 length=4 per_input=2
finish
