/* router=iq: the input-queued virtual-channel router of BookSim 2 (iq_router) for the flit
 * engine (switching=wormhole and virtual_cut_through). The flit engine keeps its sources,
 * packets (worm slots), open loop and record; this model replaces its network step. The
 * exact model (stages, their order within a cycle, allocators, credits) is docs/model-iq.md.
 * Cycle c of the model is routesim step c + 1: a packet generated at step s is injected in
 * cycle s, as BookSim injects a packet in the cycle that generates it. */
#ifndef RS_ENGINE_IQ_H
#define RS_ENGINE_IQ_H

#include <stdint.h>

#include "engine/flit.h"

/* The router's keys, with BookSim 2's defaults (booksim_config.cpp), in one option table
 * fragment that the wormhole and virtual_cut_through engines include. */
extern const char *const rs__iq_router_names[];
extern const char *const rs__iq_alloc_names[];
extern const char *const rs__iq_adaptive_set_names[];
/* Bytes of router=iq's state on net with the keys p (self: the flit engine whose option
 * table holds the router keys) and n_slots worm slots, as rs__iq_init allocates it
 * (iq_estimate.c; docs/resources.md): the input and output VCs, stage and output queues,
 * channels and terminals. Allocates only a count per node, freed before it returns. */
uint64_t rs__iq_estimate(const struct rs_engine_ops *self, const struct rs_net *net,
                         const struct rs_params *p, uint64_t n_slots);

#define IQ_OPTIONS                                                                             \
    {"router", RS_OPT_CHOICE, "simple", 0, 0, rs__iq_router_names,                             \
     "simple: one flit step per hop (docs/model-flit.md); iq: BookSim's input-queued "         \
     "virtual-channel router with its pipeline, allocators and credits (docs/model-iq.md)",    \
     "-"},                                                                                     \
    {"routing_delay", RS_OPT_INT, "1", 0, 64, NULL, "router=iq: cycles of route computation",  \
     "cycles"},                                                                                \
    {"vc_alloc_delay", RS_OPT_INT, "1", 1, 64, NULL, "router=iq: cycles of VC allocation",     \
     "cycles"},                                                                                \
    {"sw_alloc_delay", RS_OPT_INT, "1", 1, 64, NULL, "router=iq: cycles of switch allocation", \
     "cycles"},                                                                                \
    {"st_prepare_delay", RS_OPT_INT, "0", 0, 64, NULL,                                         \
     "router=iq: cycles of switch-traversal set-up", "cycles"},                                \
    {"st_final_delay", RS_OPT_INT, "1", 0, 64, NULL,                                           \
     "router=iq: cycles of switch traversal (st_prepare_delay + st_final_delay >= 1)",         \
     "cycles"},                                                                                \
    {"credit_delay", RS_OPT_INT, "0", 0, 64, NULL,                                             \
     "router=iq: cycles a received credit waits before it counts", "cycles"},                  \
    {"channel_latency", RS_OPT_INT, "1", 1, 64, NULL,                                          \
     "router=iq: cycles of a network channel (flits and credits; BookSim: 1 on a mesh, 2 on " \
     "a torus)", "cycles"},                                                                    \
    {"input_speedup", RS_OPT_INT, "1", 1, 64, NULL,                                            \
     "router=iq: crossbar inputs per router input (VC v uses input v mod speedup)", "1"},      \
    {"output_speedup", RS_OPT_INT, "1", 1, 64, NULL,                                           \
     "router=iq: crossbar outputs per router output (input i uses output i mod speedup)",      \
     "1"},                                                                                     \
    {"vc_allocator", RS_OPT_CHOICE, "islip", 0, 0, rs__iq_alloc_names,                         \
     "router=iq: VC allocator, round-robin arbiters", "-"},                                    \
    {"sw_allocator", RS_OPT_CHOICE, "islip", 0, 0, rs__iq_alloc_names,                         \
     "router=iq: switch allocator, round-robin arbiters", "-"},                                \
    {"alloc_iters", RS_OPT_INT, "1", 1, 16, NULL, "router=iq: iSLIP iterations", "1"},         \
    {"speculative", RS_OPT_BOOL, "0", 0, 0, NULL,                                              \
     "router=iq: 1: a head bids for the switch while it bids for a VC", "-"},                  \
    {"wait_for_tail_credit", RS_OPT_BOOL, "0", 0, 0, NULL,                                     \
     "router=iq: 1: a VC is reallocated only once the credit of its tail came back", "-"},     \
    {"vc_busy_when_full", RS_OPT_BOOL, "0", 0, 0, NULL,                                        \
     "router=iq: 1: a VC without credits is not allocated", "-"},                              \
    {"hold_switch_for_packet", RS_OPT_BOOL, "0", 0, 0, NULL,                                   \
     "router=iq: 1: a won switch connection stays with the packet until its tail", "-"},       \
    {"adaptive_set", RS_OPT_CHOICE, NULL, 0, 0, rs__iq_adaptive_set_names,                     \
     "router=iq, adaptive routing with escape VCs (min_adaptive): all (unset): every "         \
     "productive port; booksim: the escape's port only, as BookSim's min_adapt route set", "-"}

/* Set up router=iq on the flit engine f (already initialised for its mode): read the
 * router's keys from p (option table opt), check that the network and the routing suit it,
 * allocate its state (f->iq). Returns 0 or RS_E... (message in err). */
int rs__iq_init(struct flit *f, const struct rs_params *p, const struct rs_optdef *opt,
                struct rs_err *err);

/* Refuse the router's keys when router=simple (they would be ignored): RS_EUNSUPPORTED
 * naming the first one given in p, else 0. */
int rs__iq_refuse_keys(const struct rs_params *p, struct rs_err *err);

/* Run one cycle (f->step already advanced; cycle = f->step - 1). Returns 0 or RS_E... */
int rs__iq_step(struct flit *f, struct rs_err *err);

/* Packets that entered the network and have not been delivered. */
uint64_t rs__iq_in_flight(const struct flit *f);

/* One line naming a cycle of waiting input VCs of a deadlocked state. */
void rs__iq_describe_deadlock(struct flit *f, char *buf, size_t n);

/* The waiting cycle of input VCs as data: for each, the channel and VC it needs (found by
 * following "waits for" from the first waiting head until an input VC repeats; empty when
 * the walk ends first). Returns 0 or RS_ENOMEM. */
int rs__iq_deadlock_cycle(struct flit *f, struct rs_deadlock *out);

/* Check the credit invariants: every output VC's occupancy equals the flits in flight to
 * its buffer plus the flits in it. Returns 0 or RS_EINVARIANT. */
int rs__iq_check(struct flit *f, struct rs_err *err);

void rs__iq_free(struct flit *f);

/* The end of a cycle's idle count: no flit or credit moved (f->step_moves = 0) while
 * `packets` are in the network: a fixed point is reported (step_moves stays 0) only after
 * more idle cycles than any pipeline can take, else step_moves = 1. rs__iq_step calls it
 * serially; over MPI ranks the exchange does, on the sums of every rank's. */
void rs__iq_settle(struct flit *f, uint64_t packets);

/* ---- over MPI ranks (iq_dist.c, docs/distributed.md "router=iq over ranks") ----
 * rs__iq_dist_init: the records of the packets whose flits cross ranks (f->dist set).
 * Returns 0 or RS_ENOMEM. rs__iq_dist_send: at the end of a cycle, the flits written to
 * channels into other ranks' routers and the credits written back to other ranks' routers
 * leave this rank's lists for the exchange's records (rs__flit_dist_reserve); a packet's
 * record goes with its head; under routing=ugal_g also the counts of this rank's routers'
 * global-channel VCs (class 0) that changed in the cycle, to the other ranks holding routers
 * of their group (they read them through the next cycle's start-of-phase copy).
 * rs__iq_dist_take: one such record (kind, after its tag, at p, from rank `from`) into this
 * rank's lists (a count: into its copy of that router's counts); returns the end of the
 * record.
 * rs__iq_dist_failed: a record could not be taken (no slot): the step fails on every rank.
 * rs__iq_dist_gather: every rank's input VCs, as the deadlock's waiting cycle reads them,
 * on every rank (once; collective). Returns 0, RS_ENOMEM or RS_EIO. */
int rs__iq_dist_init(struct flit *f);
void rs__iq_dist_send(struct flit *f);
const uint8_t *rs__iq_dist_take(struct flit *f, uint32_t kind, const uint8_t *p,
                                uint32_t from);
int rs__iq_dist_failed(const struct flit *f);
int rs__iq_dist_gather(struct flit *f);

#endif
