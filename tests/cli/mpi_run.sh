#!/usr/bin/env bash
# One circuit-switching, store-and-forward or flit-engine run partitioned over Open MPI ranks
# (issue 23 item 3, docs/distributed.md): `mpirun --oversubscribe -np P routesim run ...
# switching=circuit` (or store_forward in the leveled butterfly kernel's domain, or
# wormhole, virtual_cut_through and store_forward_flits) for P = 2, 3 and 4 (two of them per
# case, rotating) prints the bytes of the serial run (stdout, stderr, exit status; -o FILE
# too) on butterflies and Beneš networks (hop by hop), LCANs (their level stages), meshes and
# tori (every hop at once), with drops, circuits=2 and down=rank; the flit engine's worms on
# many topologies, with oblivious and adaptive routings, and its deadlocks (the serial waiting
# cycle); router=iq (BookSim's router) with oblivious and adaptive routings; circuits in open
# loop; a path error found while the ranks expand their own
# messages' paths gives the serial error line; and what is not partitioned (other engines,
# store-and-forward in open loop, other algorithms, the checker, --events, pictures) is refused
# with one error line and exit status 2 instead of running whole on every rank. Skipped
# (status 77) only when routesim was built without MPI (CMake passes RS_MPIEXEC, empty then).
. "$(dirname "$0")/lib.bash"
cd "$TMP"

mpi_setup # exit 77 (skipped) when routesim was built without MPI

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
)
# Rank counts: a case runs on two of P = 2, 3, 4, the pair rotating from case to case
# ({2,3}, {3,4}, {2,4}), so that every P sees two cases in three and the script stays within
# the test budget (an mpirun start costs 0.4-0.6 s on the 2-core CI machine); NPS="..." names
# the counts of a case that needs particular ones (one row per rank at N = P = 4, say).
ROTATION=("2 3" "3 4" "2 4")
ROT=0
next_nps() { # sets NPS_NOW to NPS if given, else to the next pair of the rotation
  NPS_NOW=${NPS:-${ROTATION[ROT % 3]}}
  [ -n "${NPS:-}" ] || ROT=$((ROT + 1))
}
# same_over_ranks ARGS...: `routesim run ARGS --format csv` under mpirun -np P for the rank
# counts above prints the serial run's bytes and exit status (the serial run must succeed).
same_over_ranks() {
  { "$RS" run "$@" --format csv 2>&1; echo "rc=$?"; } >serial
  if ! grep -q '^rc=0$' serial; then
    echo "FAIL: routesim run $* did not run:"; head -3 serial
    FAILS=$((FAILS + 1))
    return
  fi
  local np
  next_nps
  for np in $NPS_NOW; do
    { mpi "$np" run "$@" --format csv 2>&1; echo "rc=$?"; } >"m$np"
    if ! cmp -s serial "m$np"; then
      echo "FAIL: mpirun -np $np routesim run $* differs from the serial run:"
      diff serial "m$np" | head -6
      FAILS=$((FAILS + 1))
    else
      PASSES=$((PASSES + 1))
    fi
  done
}
# same_failure PATTERN ARGS...: `routesim run ARGS` ends in an error or a deadlock with a
# stderr line matching PATTERN; under mpirun -np P (the rank counts above), rank 0 prints the
# same stdout and the same routesim lines, and the status is the same (mpirun adds its notice
# of the status).
same_failure() {
  local pat=$1 want got np; shift
  "$RS" run "$@" >sout 2>serr
  want=$?
  next_nps
  for np in $NPS_NOW; do
    mpi "$np" run "$@" >out 2>err
    got=$?
    if [ "$want" = 0 ] || [ "$got" != "$want" ] || ! grep -q -- "$pat" serr ||
       [ "$(grep '^routesim:' err)" != "$(cat serr)" ] || ! cmp -s sout out; then
      echo "FAIL: mpirun -np $np routesim run $*: status $got (serial $want), stderr:"; cat err
      echo "      serial: $(cat serr)"
      FAILS=$((FAILS + 1))
    else
      PASSES=$((PASSES + 1))
    fi
  done
}
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
# channels, whose counts go to every rank of the group (cut
# at P = 3 and 4 with p=1 a=6 h=1). Batch and open loop on a mesh, a torus (escape classes
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
  "topology=dragonfly p=1 a=6 h=1 ugal_threshold=2 routing=ugal_g vcs=3 switching=wormhole length=2 vc_depth=2 traffic=uniform per_input=8 seed=340"
  "topology=mesh k=4 routing=min_adaptive vcs=3 switching=wormhole length=6 vc_depth=2 injection_rate=0.9 injection_rate_uses_flits=1 seed=459 $OLA"
  "topology=torus k=6 routing=min_adaptive vcs=4 switching=wormhole length=4 vc_depth=2 injection_rate=0.9 injection_rate_uses_flits=1 seed=103 $OLA"
  "topology=kary_ntree k=2 n=3 routing=nca_adaptive vcs=2 switching=virtual_cut_through length=4 injection_rate=0.6 injection_rate_uses_flits=1 seed=12 $OLA"
  "topology=dragonfly p=2 a=4 h=2 routing=par vcs=4 switching=wormhole length=4 injection_rate=0.3 injection_rate_uses_flits=1 seed=9 $OLA"
  "topology=dragonfly p=1 a=6 h=1 ugal_threshold=2 routing=ugal_g vcs=3 switching=wormhole length=8 vc_depth=2 injection_rate=0.6 injection_rate_uses_flits=1 seed=29 $OLA"
)
for c in "${adaptive_cases[@]}"; do
  # shellcheck disable=SC2086
  same_over_ranks $c
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

# Refused under mpirun -np P > 1: exit 2, exactly one routesim line (rank 0's; mpirun adds
# its own notice of the status), nothing on stdout.
refused() { # refused PATTERN ARGS... (on REFUSED_NP ranks, 2 by default)
  local pat=$1; shift
  mpi "${REFUSED_NP:-2}" "$@" >out 2>err
  local got=$?
  if [ "$got" != 2 ] || [ "$(grep -c '^routesim:' err)" != 1 ] || ! grep -Eq -- "$pat" err || [ -s out ]; then
    echo "FAIL: mpirun -np ${REFUSED_NP:-2} routesim $* -> status $got (want 2), stderr:"; cat err
    echo "      wanted one line /$pat/"
    FAILS=$((FAILS + 1))
  else
    PASSES=$((PASSES + 1))
  fi
}
refused '^routesim: switching=store_forward is partitioned over MPI ranks only in the leveled butterfly kernel' \
  run topology=butterfly N=64 traffic=randperm
refused '^routesim: switching=store_forward is partitioned over MPI ranks only in the leveled butterfly kernel' \
  run topology=mesh k=4 traffic=randperm queue_size=2
refused '^routesim: saf_kernel=general is not partitioned over MPI ranks' \
  run topology=butterfly N=64 traffic=randperm queue_size=2 saf_kernel=general
REFUSED_NP=3 refused '^routesim: a butterfly of N=2 inputs over 3 MPI ranks: every rank needs a row' \
  run topology=butterfly N=2 traffic=randperm queue_size=2
refused '^routesim: switching=cut_through_partial is not partitioned over MPI ranks' \
  run topology=mesh k=4 traffic=randperm switching=cut_through_partial
refused '^routesim: link=shared is not partitioned over MPI ranks' \
  run topology=mesh k=4 traffic=randperm switching=wormhole link=shared
refused '^routesim: router=iq with routing=ugal_g is not partitioned over MPI ranks' \
  run topology=dragonfly p=1 a=6 h=1 routing=ugal_g vcs=3 switching=wormhole router=iq traffic=randperm
refused '^routesim: check=1 is not partitioned over MPI ranks' \
  run topology=mesh k=4 traffic=randperm switching=wormhole check=1
REFUSED_NP=3 refused '^routesim: a network of 2 nodes over 3 MPI ranks: every rank needs a node' \
  run topology=chain k=2 traffic=randperm switching=wormhole
refused '^routesim: open-loop runs .* of switching=store_forward are not partitioned over MPI ranks yet' \
  run topology=butterfly N=64 queue_size=2 injection_process=bernoulli injection_rate=0.1 \
  warmup_steps=10 measure_steps=20 drain_steps=10
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
