#!/usr/bin/env bash
# One circuit-switching or store-and-forward run partitioned over Open MPI ranks (issue 23
# item 3, docs/distributed.md): `mpirun --oversubscribe -np P routesim run ...
# switching=circuit` (or store_forward in the leveled butterfly kernel's domain) for P = 2, 3
# and 4 (two of them per case, rotating: mpi_lib.bash) prints the bytes of the serial run
# (stdout, stderr, exit status; -o FILE too) on butterflies and Beneš networks (hop by hop),
# LCANs (their level stages), meshes, tori and a dragonfly (every hop at once), with drops,
# circuits=2 and
# down=rank; circuits in open loop; the per-rank memory estimate; a path error found while the
# ranks expand their own messages' paths gives the serial error line; and what is not
# partitioned (other engines, other algorithms, the checker,
# --events, pictures) is refused with one error line and exit status 2 instead of running
# whole on every rank. The flit engine's runs: mpi_run_flit.sh; router=iq's: mpi_run_iq.sh;
# the general store-and-forward engine's: mpi_run_saf.sh.
# Skipped (status 77) only when routesim was built without MPI (CMake passes RS_MPIEXEC,
# empty then).
. "$(dirname "$0")/lib.bash"
cd "$TMP"

mpi_setup # exit 77 (skipped) when routesim was built without MPI
. "$(dirname "$0")/mpi_lib.bash"

cases=(
  "topology=butterfly N=1024 traffic=randperm seed=1"
  "topology=butterfly N=512 traffic=uniform per_input=3 seed=2"
  "topology=butterfly N=512 traffic=uniform passes=1 seed=3"
  "topology=butterfly N=512 traffic=randperm circuits=2 down=rank seed=4"
  "topology=benes N=256 traffic=randperm routing=valiant seed=1"
  "topology=lcan N=1024 d=4 u=2 traffic=randperm seed=1"
  "topology=lcan N=256 d=4 u=2 pi=tree traffic=uniform per_input=2 down=lower_lca_first seed=2"
  "topology=lcan N=729 d=3 u=2 traffic=randperm up=random_per_permutation down=higher_lca_first seed=3"
  "topology=mesh k=16 traffic=randperm seed=1"
  "topology=torus k=10 traffic=uniform circuits=2 down=rank seed=4"
  "topology=butterfly N=64 wrap=1 routing=valiant circuits=2 seed=2"
  "topology=butterfly N=256 wrap=1 traffic=uniform per_input=2 seed=5"
  "topology=dragonfly p=2 a=4 h=2 traffic=randperm seed=1"
)
for c in "${cases[@]}"; do
  # shellcheck disable=SC2086 # the configuration is a list of key=value words
  same_over_ranks $c switching=circuit
done

# Store-and-forward in the leveled butterfly kernel's domain (docs/distributed.md): each rank
# holds a contiguous range of rows; packets crossing to another rank's rows, and the credits
# of the queues they fill, go in one all-to-all per step. Ranges that are not whole blocks
# (P = 3, N = 8 with rows 2, 3, 3 and sources crossing at level 0), one row per rank (N = 4,
# P = 4), N = 2 on 2 ranks (delivered at the first hop), queues of 1 to 15, the sparse tail,
# explicit sources (many_to_one, one_to_many), a loaded network and one whose levels outlive
# their compact ring entries (turned wide).
saf_cases=(
  "topology=butterfly N=1024 traffic=randperm queue_size=2 seed=1"
  "topology=butterfly N=512 traffic=uniform per_input=3 queue_size=2 seed=2"
  "topology=butterfly N=256 traffic=transpose per_input=4 queue_size=1 seed=3"
  "topology=butterfly N=2048 traffic=uniform per_input=16 queue_size=4 seed=4"
  "topology=butterfly N=512 traffic=bitrev per_input=2 queue_size=15 seed=5"
  "topology=butterfly N=256 traffic=many_to_one packets=100 per_input=1 queue_size=1 seed=6"
  "topology=butterfly N=256 traffic=one_to_many packets=77 per_input=5 queue_size=2 seed=7"
)
for c in "${saf_cases[@]}"; do
  # shellcheck disable=SC2086
  same_over_ranks $c
done
NPS="2 3 4" same_over_ranks topology=butterfly N=8 traffic=uniform per_input=7 queue_size=1 seed=8
NPS=4 same_over_ranks topology=butterfly N=4 traffic=uniform per_input=5 queue_size=2 seed=9
# 73,734 steps of one all-to-all and one all-reduce each: on 2 ranks only
NPS=2 same_over_ranks topology=butterfly N=16 traffic=uniform per_input=66000 queue_size=2 seed=2
T="topology=butterfly N=2 traffic=uniform per_input=3 queue_size=1 seed=1"
# shellcheck disable=SC2086
{ "$RS" run $T --format csv 2>&1; echo "rc=$?"; } >serial
# shellcheck disable=SC2086
{ mpi 2 run $T --format csv 2>&1; echo "rc=$?"; } >m2
check "store_forward N=2 over 2 ranks: the serial bytes" cmp -s serial m2
# threads=T inside each rank is ignored by the kernel over ranks (one thread per rank)
K="topology=butterfly N=8192 traffic=uniform per_input=2 queue_size=2 seed=4"
# shellcheck disable=SC2086
{ "$RS" run $K --format csv 2>&1; echo "rc=$?"; } >serial
# shellcheck disable=SC2086
{ mpi 2 run $K threads=2 --format csv 2>&1; echo "rc=$?"; } >m2
check "store_forward threads=2 under mpirun -np 2: the serial bytes" cmp -s serial m2

# The memory estimate over ranks is per rank: the kernel's state is 1/P on each (about 20 MiB
# whole at N = 2^16, so max_memory=16MiB refuses the serial run and admits 4 ranks, which
# print the serial run's bytes; max_memory is not echoed in the record).
M="topology=butterfly N=2^16 traffic=randperm queue_size=2 seed=3"
# shellcheck disable=SC2086
"$RS" run $M max_memory=16MiB >out 2>err
check "store_forward N=2^16, max_memory=16MiB: the serial run is refused (status 3)" \
  test $? = 3 -a ! -s out
check "  with the estimate's line" grep -q '^routesim: topology=butterfly with N=65536 .* needs about' err
# shellcheck disable=SC2086
{ "$RS" run $M --format csv 2>&1; echo "rc=$?"; } >serial
# shellcheck disable=SC2086
{ mpi 4 run $M max_memory=16MiB --format csv 2>&1; echo "rc=$?"; } >mem4
check "  and admitted on 4 ranks, with the serial bytes" cmp -s serial mem4

# A failure found while the ranks expand their own messages' paths (Valiant round the wrapped
# butterfly twice needs a channel twice): the serial error line (the first failing message
# over all ranks, whichever rank holds it) and status, from rank 0; mpirun adds its notice.
for s in 2 3 7; do
  same_failure 'more than circuits=1 times' topology=butterfly N=64 wrap=1 routing=valiant seed=$s \
    switching=circuit
done

# Circuit switching in open loop (docs/distributed.md): every rank keeps the open-loop state
# (arrivals, windows) and lists every cycle's positions, expands the paths of its own share
# of them only (fixed paths) and the stages run as in batch; the fail flags are gathered at
# the end of a cycle. Butterflies (hop by hop, down=rank, drops), a Beneš network, LCANs
# (level stages), a mesh and a torus (every hop at once), BookSim's run control, on/off
# arrivals, a network of 4 inputs on 4 ranks; and a path refused in a cycle (Valiant round
# the wrapped butterfly twice with circuits=1) gives the serial error line.
COL="switching=circuit injection_process=bernoulli warmup_steps=50 measure_steps=200 drain_steps=200"
circ_ol_cases=(
  "topology=butterfly N=256 injection_rate=0.3 down=rank seed=3 $COL"
  "topology=butterfly N=128 injection_rate=0.9 passes=2 seed=4 $COL"
  "topology=butterfly N=64 wrap=1 routing=valiant circuits=2 injection_rate=0.2 seed=5 $COL"
  "topology=benes N=64 injection_rate=0.4 seed=6 $COL"
  "topology=lcan N=64 d=4 u=2 injection_rate=0.8 circuits=2 down=rank seed=8 $COL"
  "topology=lcan N=64 d=4 u=2 injection_rate=0.5 up=random_per_permutation passes=2 seed=16 $COL"
  "topology=mesh k=6 injection_rate=0.2 seed=9 $COL"
  "topology=torus k=4 traffic=transpose injection_rate=0.5 passes=3 seed=11 $COL"
  "topology=butterfly N=32 injection_rate=0.95 seed=14 switching=circuit injection_process=bernoulli sim_type=throughput warmup_periods=1 sample_period=100 max_samples=4"
  "topology=butterfly N=16 injection_rate=0.3 arrivals=on_off seed=13 $COL"
)
for c in "${circ_ol_cases[@]}"; do
  # shellcheck disable=SC2086
  same_over_ranks $c
done
# shellcheck disable=SC2086
NPS=4 same_over_ranks topology=butterfly N=4 injection_rate=0.5 seed=17 $COL
# shellcheck disable=SC2086
same_failure 'more than circuits=1 times' topology=butterfly N=64 wrap=1 routing=valiant \
  injection_rate=0.2 seed=2 $COL

# -o FILE: written once, by rank 0, the serial bytes.
B="topology=butterfly N=256 traffic=randperm switching=circuit seed=9"
# shellcheck disable=SC2086
"$RS" run $B --format json -o serial.json
# shellcheck disable=SC2086
mpi 3 run $B --format json -o m.json >out 2>err
check "-o under mpirun: exit 0" test $? = 0
check "-o under mpirun: the serial bytes" cmp -s serial.json m.json
check "-o under mpirun: nothing on stdout or stderr" test ! -s out -a ! -s err
# threads=T inside each rank is ignored (one thread per rank): the same bytes
# shellcheck disable=SC2086
{ mpi 2 run $B threads=2 --format csv 2>&1; echo "rc=$?"; } >mt
# shellcheck disable=SC2086
{ "$RS" run $B --format csv 2>&1; echo "rc=$?"; } >st
check "threads=2 under mpirun -np 2: the serial bytes" cmp -s st mt

# (the general store-and-forward engine over ranks and its refusals: mpi_run_saf.sh)
REFUSED_NP=3 refused '^routesim: a butterfly of N=2 inputs over 3 MPI ranks: every rank needs a row' \
  run topology=butterfly N=2 traffic=randperm queue_size=2
refused '^routesim: switching=cut_through_partial is not partitioned over MPI ranks' \
  run topology=mesh k=4 traffic=randperm switching=cut_through_partial
refused '^routesim: link=shared is not partitioned over MPI ranks' \
  run topology=mesh k=4 traffic=randperm switching=wormhole link=shared
refused '^routesim: check=1 is not partitioned over MPI ranks' \
  run topology=mesh k=4 traffic=randperm switching=wormhole check=1
REFUSED_NP=3 refused '^routesim: a network of 2 nodes over 3 MPI ranks: every rank needs a node' \
  run topology=chain k=2 traffic=randperm switching=wormhole
refused '^routesim: algorithm=offline is not partitioned over MPI ranks' \
  run topology=lcan N=64 d=4 u=2 traffic=randperm switching=circuit algorithm=offline
refused '^routesim: check=1 is not supported when switching=circuit is partitioned' \
  run topology=butterfly N=64 traffic=randperm switching=circuit check=1
refused '^routesim: command line: --events is not supported when a run is partitioned' \
  run topology=butterfly N=64 traffic=randperm switching=circuit --events ev.bin
refused '^routesim: command line: --svg is not supported when a run is partitioned' \
  run topology=butterfly N=16 traffic=randperm switching=circuit --svg x.svg
check "refused runs wrote nothing" test ! -e ev.bin -a ! -e x.svg
finish
