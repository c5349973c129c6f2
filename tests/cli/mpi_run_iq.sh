#!/usr/bin/env bash
# One router=iq run (BookSim's input-queued router, docs/model-iq.md) partitioned over Open
# MPI ranks by routers (issue 23 item 3, docs/distributed.md "router=iq over ranks"):
# `mpirun --oversubscribe -np P routesim run ... router=iq` for P = 2, 3 and 4 (two of them
# per case, rotating: mpi_lib.bash) prints the bytes of the serial run (stdout, stderr, exit
# status), batch and open loop, oblivious and adaptive routings (ugal_g too, with groups split
# across ranks), and its deadlocks. Skipped (status 77) only when routesim was built without
# MPI.
. "$(dirname "$0")/lib.bash"
cd "$TMP"

mpi_setup # exit 77 (skipped) when routesim was built without MPI
. "$(dirname "$0")/mpi_lib.bash"
OL="injection_process=bernoulli warmup_steps=100 measure_steps=300 drain_steps=300"
OLA="injection_process=bernoulli warmup_steps=60 measure_steps=200 drain_steps=300"

# router=iq (docs/distributed.md "router=iq over ranks"): each rank runs its own routers'
# cycles; the flits written to channels into another rank's routers and the credits back to
# another rank's routers cross in the step's all-to-all (a packet's record with its head),
# read there in the cycle the serial run reads them. Batch on a mesh, a torus (dateline
# classes, channel_latency=2, Valiant), a butterfly and a 4-ary 3-fly (split by rows),
# virtual cut-through, the pipeline's delays and credit_delay, speculation, held switch
# connections, speedups and the separable allocators; open loop below saturation (its
# latencies: a packet's finish is its delivery cycle, one less than the step) and above it,
# and BookSim's run control; adaptive routings whose route sets read their own router's
# credit counts (min_adaptive with both route sets, nca_adaptive, ugal_l_sf, par; a head
# carries whether its packet entered the escape VCs); a deadlock in batch and in open loop
# (the serial waiting cycle, from every rank's input VCs). Each fails when the credit records are left out, or the
# flit records read a cycle late (tested by mutation).
iq_cases=(
  "topology=mesh k=4 traffic=randperm switching=wormhole router=iq"
  "topology=mesh k=8 traffic=uniform per_input=4 switching=wormhole router=iq length=4 seed=2"
  "topology=torus k=6 traffic=uniform per_input=3 switching=wormhole router=iq vcs=4 vc_classes=dateline channel_latency=2 length=4 seed=5"
  "topology=torus k=6 traffic=randperm routing=valiant vcs=4 vc_classes=dateline switching=wormhole router=iq length=4 seed=7"
  "topology=butterfly N=64 traffic=randperm switching=wormhole router=iq length=4 seed=1"
  "topology=kary_nfly k=4 n=3 traffic=uniform per_input=2 switching=wormhole router=iq length=4 seed=3"
  "topology=mesh k=6 traffic=uniform per_input=3 switching=virtual_cut_through router=iq length=4 seed=2"
  "topology=mesh k=6 traffic=uniform per_input=3 switching=wormhole router=iq length=5 vcs=3 vc_depth=2 routing_delay=2 vc_alloc_delay=2 sw_alloc_delay=2 st_prepare_delay=1 credit_delay=1 seed=4"
  "topology=mesh k=6 traffic=uniform per_input=3 switching=wormhole router=iq length=5 vcs=3 speculative=1 hold_switch_for_packet=1 input_speedup=2 output_speedup=2 vc_allocator=separable_input_first sw_allocator=separable_output_first wait_for_tail_credit=1 vc_busy_when_full=1 alloc_iters=2 seed=4"
  "topology=mesh k=8 switching=wormhole router=iq vcs=2 vc_depth=4 length=4 injection_rate=0.05 injection_rate_uses_flits=1 seed=1 $OL"
  "topology=mesh k=8 switching=wormhole router=iq vcs=2 vc_depth=4 length=4 injection_rate=0.9 injection_rate_uses_flits=1 seed=11 $OL"
  "topology=torus k=8 switching=wormhole router=iq vcs=2 vc_classes=dateline vc_depth=4 traffic=bitrev injection_process=bernoulli length=4 seed=3 injection_rate=0.1 injection_rate_uses_flits=1 sim_type=latency warmup_periods=1 sample_period=500 max_samples=3"
  "topology=mesh k=6 traffic=uniform per_input=4 switching=wormhole router=iq routing=min_adaptive vcs=3 vc_depth=2 length=4 seed=2"
  "topology=torus k=6 router=iq routing=min_adaptive adaptive_set=booksim vcs=4 traffic=uniform per_input=8 switching=wormhole length=16 vc_depth=2 seed=869"
  "topology=kary_ntree k=4 n=3 traffic=uniform per_input=3 switching=wormhole router=iq routing=nca_adaptive vcs=2 length=5 seed=3"
  "topology=slimfly q=3 router=iq routing=ugal_l_sf vcs=4 traffic=randperm switching=wormhole length=9 vc_depth=1 seed=797"
  "topology=dragonfly p=2 a=4 h=2 router=iq routing=par vcs=4 switching=wormhole length=4 injection_rate=0.05 injection_rate_uses_flits=1 seed=9 $OLA"
  "topology=mesh k=4 router=iq routing=min_adaptive vcs=3 switching=wormhole length=6 vc_depth=2 injection_rate=0.9 injection_rate_uses_flits=1 seed=459 $OLA"
)
for c in "${iq_cases[@]}"; do
  # shellcheck disable=SC2086
  same_over_ranks $c
done
same_failure 'waiting cycle of input virtual channels' topology=torus k=6 switching=wormhole \
  router=iq vcs=1 vc_depth=2 length=8 traffic=uniform per_input=8 seed=20 --format csv
# shellcheck disable=SC2086 # and in open loop (no move for longer than any pipeline takes)
same_failure 'waiting cycle of input virtual channels' topology=torus k=6 switching=wormhole \
  router=iq vcs=1 vc_depth=2 length=4 injection_rate=0.3 injection_rate_uses_flits=1 seed=3 \
  $OL --format csv

# routing=ugal_g: a router of the source group reads the start-of-cycle counts of the class-0
# VCs of its group's global channels, which other ranks' routers keep where a rank boundary
# cuts the group; each rank sends the counts that changed in the cycle to the ranks holding
# the rest of the group (iq_dist.c). The ranks hold whole groups when there are at least P
# of them (node_split.h), so a boundary cuts groups only at P > g: g = 3 at P = 4 (a = 6:
# routers 5, 9 and 14 of 18; a = 8: 6, 12 and 18 of 24; a = 4: 3 and 9 of 12), P = 3 one
# group a rank (g = 2 would leave UGAL no intermediate group: no count read). Batch (also
# credit_delay=1 and 2 VCs per class; threads ignored over ranks) and open loop below
# saturation (wormhole, virtual cut-through) and above it (the drain limit). Not sending the
# counts makes 4 of these 14 comparisons differ (4 of the 7 at P = 4; tested by mutation).
ugal_cases=(
  "topology=dragonfly p=1 a=6 h=1 g=3 routing=ugal_g vcs=3 switching=wormhole router=iq traffic=uniform per_input=8 length=4 seed=1"
  "topology=dragonfly p=1 a=6 h=1 g=3 ugal_threshold=2 routing=ugal_g vcs=3 switching=wormhole router=iq length=2 vc_depth=2 traffic=uniform per_input=8 seed=340 threads=3"
  "topology=dragonfly p=1 a=8 h=2 g=3 routing=ugal_g vcs=6 switching=wormhole router=iq length=4 vc_depth=2 credit_delay=1 traffic=uniform per_input=3 seed=5"
  "topology=dragonfly p=1 a=6 h=1 g=3 routing=ugal_g vcs=3 switching=wormhole router=iq length=4 vc_depth=4 injection_rate=0.2 injection_rate_uses_flits=1 seed=3 $OLA"
  "topology=dragonfly p=1 a=6 h=1 g=3 routing=ugal_g vcs=3 switching=wormhole router=iq length=4 vc_depth=4 injection_rate=0.7 injection_rate_uses_flits=1 seed=3 $OLA"
  "topology=dragonfly p=1 a=8 h=2 g=3 routing=ugal_g vcs=3 switching=virtual_cut_through router=iq length=4 injection_rate=0.4 injection_rate_uses_flits=1 seed=7 $OLA"
)
for c in "${ugal_cases[@]}"; do
  # shellcheck disable=SC2086
  NPS="3 4" same_over_ranks $c
done
# shellcheck disable=SC2086
NPS="2 4" same_over_ranks topology=dragonfly p=2 a=4 h=2 g=3 routing=ugal_g vcs=3 switching=wormhole \
  router=iq length=4 vc_depth=2 traffic=uniform per_input=6 seed=4
finish
