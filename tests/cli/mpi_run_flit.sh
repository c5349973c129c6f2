#!/usr/bin/env bash
# One flit-engine run (router=simple: wormhole, virtual cut-through, store-and-forward snakes)
# partitioned over Open MPI ranks (issue 23 item 3, docs/distributed.md "Wormhole ..."):
# `mpirun --oversubscribe -np P routesim run ...` for P = 2, 3 and 4 (two of them per case,
# rotating: mpi_lib.bash) prints the bytes of the serial run (stdout, stderr, exit status) on
# many topologies, with oblivious and adaptive routings, in batch and open loop, with
# on_delay=discard and traffic=trace, and its deadlocks (the serial waiting cycle). Skipped
# (status 77) only when routesim was built without MPI (CMake passes RS_MPIEXEC, empty then).
. "$(dirname "$0")/lib.bash"
cd "$TMP"

mpi_setup # exit 77 (skipped) when routesim was built without MPI
. "$(dirname "$0")/mpi_lib.bash"

# The flit engine (wormhole, virtual cut-through, store-and-forward snakes) split by nodes
# (docs/distributed.md "Wormhole"): worms move to the rank of their header's node with their
# chains' VC records, VCs released away from home go home, every step. Worms longer than the
# route (length=16 on N=16: a chain across every rank), one flit, VC classes (dateline, with
# Valiant on the wrapped butterfly), butterflies, meshes, tori, rings, a Benes network, an
# LCAN, a dragonfly, a HyperX, a k-ary n-tree and N=2 on 2 ranks.
flit_cases=(
  "topology=butterfly N=256 traffic=randperm switching=wormhole length=4 seed=1"
  "topology=butterfly N=16 traffic=uniform per_input=6 switching=wormhole length=16 seed=1"
  "topology=butterfly N=256 traffic=uniform per_input=4 switching=wormhole length=8 vc_depth=2 vcs=2 seed=2"
  "topology=butterfly N=1024 traffic=uniform per_input=2 switching=virtual_cut_through length=4 seed=6"
  "topology=butterfly N=64 wrap=1 routing=valiant switching=wormhole length=3 vcs=4 vc_classes=dateline seed=8"
  "topology=mesh k=8 traffic=uniform per_input=3 switching=virtual_cut_through length=4 vcs=2 seed=4"
  "topology=mesh k=4 traffic=uniform per_input=5 switching=wormhole length=12 vcs=2 seed=3"
  "topology=mesh k=5 traffic=uniform per_input=4 switching=wormhole length=1 seed=10"
  "topology=mesh k=6 traffic=transpose switching=store_forward_flits length=3 seed=7"
  "topology=torus k=6 traffic=randperm per_input=4 switching=wormhole length=3 vcs=2 vc_classes=dateline seed=6"
  "topology=ring k=9 traffic=uniform per_input=2 switching=wormhole length=3 vcs=2 vc_classes=dateline seed=11"
  "topology=benes N=128 traffic=randperm routing=valiant switching=wormhole length=2 seed=9"
  "topology=lcan N=64 d=4 u=2 traffic=randperm switching=wormhole length=3 seed=9"
  "topology=dragonfly p=2 a=4 h=2 traffic=uniform per_input=3 switching=wormhole length=4 vcs=2 seed=1"
  "topology=hyperx S=4,4 traffic=randperm switching=wormhole length=4 seed=2"
  "topology=kary_ntree k=4 n=3 traffic=uniform per_input=2 switching=wormhole length=5 seed=3"
)
for c in "${flit_cases[@]}"; do
  # shellcheck disable=SC2086
  same_over_ranks $c
done
NPS=2 same_over_ranks topology=butterfly N=2 traffic=uniform per_input=3 switching=wormhole length=2 seed=7
# Open loop: every rank generates every terminal's arrivals (keyed by terminal and packet)
# and starts its own; the packets finished in a step go into every rank's open-loop record
# at its end; the periodic search for a deadlocked set sees every rank's worms. Loads below
# and above saturation, BookSim's run control (sim_type=latency, throughput), the three
# arrival processes, mixed packet sizes, a dragonfly, a butterfly, store-and-forward snakes.
OL="injection_process=bernoulli warmup_steps=100 measure_steps=300 drain_steps=300"
ol_cases=(
  "topology=mesh k=8 switching=wormhole vcs=2 vc_depth=4 length=4 injection_rate=0.1 injection_rate_uses_flits=1 seed=1 $OL"
  "topology=mesh k=8 switching=wormhole vcs=2 vc_depth=4 length=4 injection_rate=0.9 injection_rate_uses_flits=1 seed=11 $OL"
  "topology=mesh k=8 routing=direct switching=wormhole vcs=2 vc_depth=4 traffic=uniform injection_process=bernoulli length=4 seed=0 injection_rate=0.1 injection_rate_uses_flits=1 sim_type=latency warmup_periods=1 sample_period=1000 max_samples=3"
  "topology=torus k=8 routing=direct switching=wormhole vcs=2 vc_classes=dateline vc_depth=4 traffic=bitrev injection_process=bernoulli length=4 seed=3 injection_rate=0.2 injection_rate_uses_flits=1 sim_type=throughput warmup_periods=1 sample_period=500 max_samples=4"
  "topology=mesh k=6 switching=wormhole vcs=2 vc_depth=2 length=4 injection_rate=0.05 arrivals=per_step seed=6 $OL"
  "topology=mesh k=6 traffic=tornado switching=wormhole vcs=2 length=3 injection_rate=0.1 arrivals=on_off seed=8 $OL"
  "topology=mesh k=6 switching=wormhole vcs=2 vc_depth=2 injection_rate=0.2 injection_rate_uses_flits=1 packet_sizes=1,4,8 seed=7 $OL"
  "topology=dragonfly p=2 a=4 h=2 switching=wormhole vcs=2 length=4 injection_rate=0.15 injection_rate_uses_flits=1 seed=9 $OL"
  "topology=butterfly N=64 switching=virtual_cut_through length=3 injection_rate=0.2 seed=4 $OL"
  "topology=mesh k=8 switching=store_forward_flits length=2 injection_rate=0.05 seed=10 $OL"
)
for c in "${ol_cases[@]}"; do
  # shellcheck disable=SC2086
  same_over_ranks $c
done
# Each rank generates its own terminals' arrivals, the counts summed every step (above);
# traffic=trace is one stream, read whole by every rank: 400 packets on a 6x6 mesh, two per
# cycle, every fifth pair from one source (worms of equal key, ordered by their sequence
# number at the terminal wherever they meet).
awk 'BEGIN { srand(5); for (i = 0; i < 400; i++)
  printf "%d %d %d %d\n", 1 + int(i / 2), (7 * (i - (i % 10 == 1))) % 36, int(rand() * 36),
    1 + int(rand() * 5) }' >tr.txt
same_over_ranks topology=mesh k=6 switching=wormhole vcs=2 traffic=trace trace_file="$PWD/tr.txt" \
  injection_process=bernoulli warmup_steps=20 measure_steps=150 drain_steps=300
# Adaptive routings (docs/distributed.md "Adaptive routings"): a header orders its choices by
# the start-of-step counts of the VCs out of its node, which the home rank keeps from count
# records of the VCs that worms on other ranks hold (a delivered header's head VC passes
# its flits uncounted, read as 0: it needs no record); ugal_g reads its group's global
# channels, whose counts go to every rank of the group (the ranks hold whole groups when
# there are at least P of them: with g = 3 groups are cut at P = 4 only, on routers 5, 9
# and 14 of 18 with p=1 a=6 h=1). Batch and open loop on a mesh, a torus (escape classes
# in the dateline pair), a HyperX (virtual cut-through), k-ary n-trees, a Slim Fly and
# dragonflies; each case fails when one kind of record is left out (tested by mutation).
OLA="injection_process=bernoulli warmup_steps=60 measure_steps=200 drain_steps=300"
adaptive_cases=(
  "topology=mesh k=4 traffic=randperm switching=wormhole routing=min_adaptive vcs=2"
  "topology=mesh k=6 traffic=uniform per_input=4 switching=wormhole routing=min_adaptive vcs=3 vc_depth=2 length=4 seed=2"
  "topology=torus k=6 routing=min_adaptive vcs=4 traffic=uniform per_input=8 switching=wormhole length=16 vc_depth=2 seed=869"
  "topology=hyperx S=3,3,3 routing=min_adaptive vcs=2 traffic=uniform per_input=4 switching=virtual_cut_through length=4 seed=5"
  "topology=kary_ntree k=4 n=3 traffic=uniform per_input=3 switching=wormhole routing=nca_adaptive vcs=2 length=5 seed=3"
  "topology=slimfly q=3 routing=ugal_l_sf vcs=4 traffic=randperm switching=wormhole length=9 vc_depth=1 seed=797"
  "topology=dragonfly p=2 a=4 h=2 traffic=uniform per_input=3 switching=wormhole routing=ugal_l vcs=3 length=4 seed=1"
  "topology=mesh k=4 routing=min_adaptive vcs=3 switching=wormhole length=6 vc_depth=2 injection_rate=0.9 injection_rate_uses_flits=1 seed=459 $OLA"
  "topology=torus k=6 routing=min_adaptive vcs=4 switching=wormhole length=4 vc_depth=2 injection_rate=0.9 injection_rate_uses_flits=1 seed=103 $OLA"
  "topology=kary_ntree k=2 n=3 routing=nca_adaptive vcs=2 switching=virtual_cut_through length=4 injection_rate=0.6 injection_rate_uses_flits=1 seed=12 $OLA"
  "topology=dragonfly p=2 a=4 h=2 routing=par vcs=4 switching=wormhole length=4 injection_rate=0.3 injection_rate_uses_flits=1 seed=9 $OLA"
)
for c in "${adaptive_cases[@]}"; do
  # shellcheck disable=SC2086
  same_over_ranks $c
done
ugal_g_cases=(
  "topology=dragonfly p=1 a=6 h=1 g=3 ugal_threshold=2 routing=ugal_g vcs=3 switching=wormhole length=2 vc_depth=2 traffic=uniform per_input=8 seed=340"
  "topology=dragonfly p=1 a=6 h=1 g=3 ugal_threshold=2 routing=ugal_g vcs=3 switching=wormhole length=8 vc_depth=2 injection_rate=0.6 injection_rate_uses_flits=1 seed=29 $OLA"
)
for c in "${ugal_g_cases[@]}"; do
  # shellcheck disable=SC2086
  NPS="3 4" same_over_ranks $c
done
# on_delay=discard (a blocked header step discards the message): a discarded worm's VCs are
# released on its rank and sent home at the end of the step like any release; batch on a
# mesh (fails when those releases are not sent home), open loop on a torus and with
# min_adaptive, and a Slim Fly with ugal_l_sf (fails when a discarded VC's count is zeroed at
# once in the serial run, instead of at the end of the step: the view of later headers).
discard_cases=(
  "topology=mesh k=8 traffic=uniform per_input=4 switching=wormhole vcs=2 vc_depth=2 length=6 on_delay=discard seed=2"
  "topology=slimfly q=3 routing=ugal_l_sf vcs=4 vc_depth=2 length=4 switching=wormhole on_delay=discard traffic=uniform per_input=6 seed=1"
  "topology=torus k=6 switching=wormhole vcs=2 vc_classes=dateline length=4 on_delay=discard injection_rate=0.5 injection_rate_uses_flits=1 seed=5 $OLA"
  "topology=mesh k=6 routing=min_adaptive vcs=3 switching=wormhole length=5 vc_depth=2 on_delay=discard injection_rate=0.8 injection_rate_uses_flits=1 seed=7 $OLA"
)
for c in "${discard_cases[@]}"; do
  # shellcheck disable=SC2086
  same_over_ranks $c
done
# A deadlock (wormhole on tori without VC classes): every rank's worms are gathered to trace
# the serial run's waiting cycle; rank 0 prints the serial stdout, its deadlock line and
# status 1 (mpirun adds its notice of the status).
same_failure 'waiting cycle of' topology=torus k=8 traffic=uniform per_input=2 switching=wormhole \
  length=6 seed=5 --format csv
same_failure 'waiting cycle of' topology=torus k=4 traffic=uniform per_input=8 \
  switching=virtual_cut_through length=4 collapse=1 seed=11 --format csv
# shellcheck disable=SC2086 # an open-loop run whose periodic search finds a deadlocked set
same_failure 'waiting cycle of' topology=torus k=6 switching=wormhole length=4 injection_rate=0.3 \
  injection_rate_uses_flits=1 seed=3 $OL --format csv

finish
