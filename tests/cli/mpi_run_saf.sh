#!/usr/bin/env bash
# The general store-and-forward engine (switching=store_forward outside the leveled butterfly
# kernel, or saf_kernel=general) partitioned over Open MPI ranks (docs/distributed.md "The
# general engine over ranks", src/engine/saf_dist.c): `mpirun --oversubscribe -np P routesim
# run ...` for two of P = 2, 3 and 4 per case (rotating: mpi_lib.bash) prints the bytes of the
# serial run (stdout, stderr, exit status) with queue_at=input, batch and open loop
# (injection_process=bernoulli; sim_type fixed, latency and throughput; on/off arrivals):
# every protocol (fifo, random, priority, furthest_first, rank), on_full=block and drop,
# queue_threshold, direct, Valiant and Ranade routing (Valiant via a terminal: packets ending
# phase A join another rank's store), on meshes, tori, rings, hypercubes, butterflies (split
# by rows), a wrapped butterfly, Beneš networks, LCANs, a dragonfly, a HyperX, a fat tree and
# nodes of several terminals, with input, output and switch queues (output and switch: a
# request/grant round per step, src/engine/saf_dist_out.c); its deadlocks (rank 0 prints the
# serial waiting cycle); and what is not partitioned (check=1, a network with fewer nodes
# than ranks) is refused with one error line and exit status 2.
# Skipped (status 77) only when routesim was built without MPI (RS_MPIEXEC empty).
. "$(dirname "$0")/lib.bash"
cd "$TMP"

mpi_setup # exit 77 (skipped) when routesim was built without MPI
. "$(dirname "$0")/mpi_lib.bash"

saf_cases=(
  "topology=mesh k=8 traffic=uniform per_input=4 queue_size=2 seed=1"
  "topology=torus k=8 traffic=uniform per_input=3 queue_size=2 seed=3"
  "topology=mesh k=2 n=6 traffic=uniform per_input=4 queue_size=2 seed=4"
  "topology=benes N=64 traffic=randperm routing=valiant queue_size=2 seed=6"
  "topology=butterfly N=64 traffic=randperm seed=8"
  "topology=butterfly N=64 wrap=1 traffic=uniform per_input=4 routing=valiant queue_size=2 seed=5"
  "topology=butterfly N=128 wrap=1 traffic=randperm routing=valiant queue_size=1 protocol=random seed=6"
  "topology=lcan N=64 d=4 u=2 traffic=uniform per_input=3 queue_size=1 seed=10"
  "topology=lcan N=64 d=4 u=2 traffic=randperm routing=valiant queue_size=1 protocol=rank seed=9"
  "topology=mesh k=8 traffic=uniform per_input=4 queue_size=1 on_full=drop seed=11"
  "topology=mesh k=8 traffic=uniform per_input=4 queue_size=2 protocol=random seed=12"
  "topology=mesh k=8 traffic=uniform per_input=4 queue_size=2 protocol=priority seed=13"
  "topology=mesh k=8 traffic=uniform per_input=4 queue_size=1 protocol=furthest_first seed=14"
  "topology=torus k=8 traffic=uniform per_input=4 queue_size=1 protocol=rank on_full=drop seed=16"
  "topology=ring k=9 traffic=uniform per_input=3 queue_size=2 protocol=rank seed=11"
  "topology=torus k=8 traffic=uniform per_input=2 routing=valiant queue_size=2 protocol=random seed=18"
  "topology=mesh k=8 traffic=uniform per_input=3 queue_threshold=1 seed=19"
  "topology=mesh k=6 traffic=many_to_one queue_size=1 seed=12"
  "topology=benes N=64 traffic=bitrev routing=ranade protocol=rank on_full=drop queue_size=1 seed=21"
  "topology=butterfly N=256 traffic=uniform per_input=3 queue_size=2 saf_kernel=general on_full=drop protocol=random seed=10"
  "topology=dragonfly traffic=uniform per_input=2 queue_size=2 seed=22"
  "topology=hyperx S=4,4 traffic=uniform per_input=4 routing=valiant queue_size=2 protocol=random seed=3"
  "topology=fat_tree traffic=randperm routing=valiant queue_size=1 protocol=priority seed=4"
  # nodes of several terminals (their sources inject in increasing terminal order)
  "topology=mesh k=4 c=4 traffic=uniform per_input=3 queue_size=1 seed=3"
  "topology=torus k=4 c=2 traffic=randperm queue_size=1 on_full=drop protocol=priority seed=4"
  "topology=hypercube n=4 c=2 traffic=uniform per_input=3 queue_size=1 protocol=furthest_first seed=8"
)
for c in "${saf_cases[@]}"; do
  # shellcheck disable=SC2086
  same_over_ranks $c
done
# A dragonfly of 3 groups: whole groups on 2 ranks, groups cut between routers on 4 (each
# router with its terminals, node_split.h), also in a deadlock whose cycle crosses ranks.
NPS="2 4" same_over_ranks topology=dragonfly p=2 a=4 h=2 g=3 traffic=uniform per_input=4 \
  queue_size=2 seed=5
NPS=4 same_failure '^routesim: deadlock at step 15: waiting cycle of 3 full queues' \
  topology=dragonfly p=2 a=4 h=2 g=3 traffic=uniform per_input=4 queue_size=2 routing=valiant seed=5
# Deadlocks: every rank's non-empty queues are gathered, rank 0 prints the serial waiting
# cycle (full queues of 2 with sticky selections made on other ranks: the selections travel
# with the gathered queues) and status 1.
same_failure '^routesim: deadlock at step 2: waiting cycle of 7 full queues' \
  topology=ring k=7 traffic=tornado queue_size=1
same_failure '^routesim: deadlock at step 2: waiting cycle of 6 full queues' \
  topology=torus k=6 traffic=tornado per_input=4 queue_size=1 protocol=random seed=1
same_failure '^routesim: deadlock at step 23: waiting cycle of 6 full queues' \
  topology=dragonfly traffic=uniform per_input=8 queue_size=2 routing=valiant protocol=random seed=2
same_failure '^routesim: deadlock at step 28: waiting cycle of 5 full queues' \
  topology=dragonfly traffic=uniform per_input=8 queue_size=2 routing=valiant protocol=priority seed=2

# Open loop (injection_process=bernoulli): each rank generates its own terminals' arrivals;
# the generation counts are summed and the packets finished in a step recorded on every rank
# at every step, so the run control (BookSim's sim_type too) reads the serial record.
OL="injection_process=bernoulli warmup_steps=100 measure_steps=300 drain_steps=300"
saf_ol_cases=(
  "topology=mesh k=8 traffic=uniform queue_size=2 injection_rate=0.1 seed=1 $OL"
  "topology=mesh k=8 traffic=uniform queue_size=1 injection_rate=0.6 seed=2 $OL"
  "topology=torus k=8 traffic=bitrev queue_size=2 injection_rate=0.3 protocol=random seed=3 $OL"
  "topology=mesh k=8 traffic=transpose queue_size=1 injection_rate=0.4 on_full=drop protocol=priority seed=4 $OL"
  "topology=butterfly N=64 traffic=uniform queue_size=2 injection_rate=0.3 saf_kernel=general protocol=furthest_first seed=5 $OL"
  "topology=butterfly N=64 wrap=1 traffic=uniform routing=valiant queue_size=2 injection_rate=0.2 protocol=rank seed=6 $OL"
  "topology=dragonfly traffic=uniform queue_size=2 injection_rate=0.2 seed=7 $OL"
  "topology=mesh k=8 traffic=uniform queue_size=2 injection_rate=0.2 seed=8 injection_process=bernoulli sim_type=latency warmup_periods=1 sample_period=200 max_samples=3"
  "topology=mesh k=8 traffic=uniform queue_size=2 injection_rate=0.3 arrivals=on_off seed=10 $OL"
)
for c in "${saf_ol_cases[@]}"; do
  # shellcheck disable=SC2086
  same_over_ranks $c
done
# Output and switch queues (src/engine/saf_dist_out.c): a request/grant round per step, the
# owners admitting each queue's candidates in the serial order (by switch id and port, then
# the injections by terminal; protocol=rank by rank keys, here with drops across ranks);
# butterflies and Benes networks split by rows, Valiant via a terminal (HyperX and Slim Fly:
# injections that end phase A, granted in the second round and sent to the store's rank in a
# third), nodes of several terminals (a channel's injections chained on the candidate and
# the lower terminal holding it), queue_threshold, unbounded queues.
saf_out_cases=(
  "topology=mesh k=8 traffic=uniform per_input=4 queue_size=2 queue_at=output seed=1"
  "topology=torus k=8 traffic=uniform per_input=3 queue_size=1 queue_at=output on_full=drop protocol=random seed=3"
  "topology=mesh k=8 traffic=uniform per_input=4 queue_size=1 queue_at=output protocol=priority seed=13"
  "topology=mesh k=8 traffic=uniform per_input=4 queue_size=1 queue_at=output protocol=furthest_first on_full=drop seed=14"
  "topology=butterfly N=64 traffic=uniform per_input=4 queue_size=1 queue_at=output protocol=rank on_full=drop seed=8"
  "topology=benes N=64 traffic=bitrev routing=ranade protocol=rank on_full=drop queue_size=1 queue_at=output seed=21"
  "topology=mesh k=8 traffic=uniform per_input=3 queue_threshold=1 queue_at=output seed=19"
  "topology=hyperx S=4,4 T=2 traffic=uniform per_input=4 routing=valiant queue_size=2 queue_at=output protocol=rank on_full=drop seed=3"
  "topology=mesh k=4 c=2 traffic=uniform per_input=3 queue_size=2 queue_at=output seed=3"
  "topology=butterfly N=64 wrap=1 traffic=uniform per_input=4 routing=valiant queue_size=2 queue_at=output seed=5"
  "topology=mesh k=8 traffic=uniform per_input=4 queue_size=2 queue_at=switch on_full=drop seed=3"
  "topology=torus k=6 traffic=uniform per_input=3 queue_size=2 queue_at=switch protocol=rank on_full=drop seed=5"
  "topology=butterfly N=64 traffic=uniform per_input=4 queue_size=1 queue_at=switch protocol=rank on_full=drop seed=8"
  "topology=benes N=64 traffic=randperm routing=valiant queue_size=2 queue_at=switch seed=6"
  "topology=hyperx S=4,4 T=2 traffic=uniform per_input=4 routing=valiant queue_size=1 queue_at=switch protocol=random on_full=drop seed=4"
  "topology=hyperx S=4,4 T=2 traffic=uniform per_input=4 routing=valiant queue_size=2 queue_at=switch seed=3"
  "topology=mesh k=4 c=4 traffic=uniform per_input=3 queue_size=2 queue_at=switch protocol=rank on_full=drop seed=3"
  "topology=hypercube n=4 c=2 traffic=uniform per_input=3 queue_size=2 queue_at=switch protocol=furthest_first on_full=drop seed=8"
  "topology=mesh k=8 traffic=uniform per_input=3 queue_threshold=1 queue_at=switch on_full=drop seed=19"
  "topology=mesh k=8 traffic=uniform per_input=4 queue_size=0 queue_at=switch seed=2"
  "topology=hyperx S=4,4 traffic=uniform per_input=4 routing=valiant queue_threshold=1 queue_at=switch protocol=priority seed=5"
  "topology=slimfly traffic=uniform per_input=2 routing=valiant queue_size=2 queue_at=switch on_full=drop seed=2"
)
for c in "${saf_out_cases[@]}"; do
  # shellcheck disable=SC2086
  same_over_ranks $c
done
for c in "topology=mesh k=8 traffic=uniform queue_size=2 injection_rate=0.1 queue_at=output seed=1 $OL" \
  "topology=mesh k=8 traffic=uniform queue_size=2 injection_rate=0.6 queue_at=switch on_full=drop protocol=rank seed=2 $OL" \
  "topology=butterfly N=64 wrap=1 traffic=uniform routing=valiant queue_size=2 injection_rate=0.2 protocol=rank queue_at=output seed=6 $OL" \
  "topology=hyperx S=4,4 T=2 traffic=uniform routing=valiant queue_size=1 injection_rate=0.3 queue_at=switch protocol=random on_full=drop seed=4 $OL"; do
  # shellcheck disable=SC2086
  same_over_ranks $c
done
same_failure '^routesim: deadlock at step 1: waiting cycle of 7 full queues: output queue 0' \
  topology=ring k=7 traffic=tornado queue_size=1 queue_at=output
same_failure '^routesim: deadlock at step 12: waiting cycle of 9 full queues: output queue 5 of r1.1' \
  topology=dragonfly traffic=uniform per_input=8 queue_size=2 routing=valiant protocol=random queue_at=output seed=2
same_failure '^routesim: deadlock at step 9: waiting cycle of 2 full queues: switch queue of r0.0' \
  topology=dragonfly traffic=uniform per_input=8 queue_size=2 queue_at=switch protocol=priority seed=2

# an open-loop deadlock (BookSim's sim_type=throughput above saturation on a torus)
same_failure '^routesim: deadlock at step 222: waiting cycle of 8 full queues' \
  topology=torus k=8 traffic=uniform queue_size=2 injection_rate=0.5 seed=9 \
  injection_process=bernoulli sim_type=throughput warmup_periods=1 sample_period=200 max_samples=4

refused '^routesim: check=1 is not partitioned over MPI ranks' \
  run topology=mesh k=4 traffic=randperm queue_size=2 check=1
refused '^routesim: check=1 is not partitioned over MPI ranks' \
  run topology=mesh k=4 traffic=randperm queue_size=2 queue_at=switch check=1
REFUSED_NP=3 refused '^routesim: a network of 2 nodes over 3 MPI ranks: every rank needs a node' \
  run topology=chain k=2 traffic=randperm queue_size=1

finish
