/* Switching engines: a model that advances the whole network one step at a time until
 * every message is delivered or dropped. Registry of engines selected by `switching`; every
 * engine runs on the one driver (rs_engine_run, include/routesim/driver.h). */
#ifndef ROUTESIM_ENGINE_H
#define ROUTESIM_ENGINE_H

#include <stdint.h>

#include "routesim/metrics.h"
#include "routesim/net.h"
#include "routesim/problem.h"
#include "routesim/record.h"
#include "routesim/route.h"
#include "routesim/deadlock.h"

/* A per-message schedule that an algorithm (src/algo) hands to an engine through
 * rs_engine_input.plan, and the per-message outcome the engine hands back. Every pointer
 * may be NULL, meaning "the default" for an input and "not wanted" for an output; arrays
 * have n_msgs entries, indexed by message id. Caller-owned: the engine reads the inputs and
 * writes the outputs during rs_engine_run and keeps no pointer afterwards. Each engine
 * declares the fields it honours (rs_engine_life.plan_fields) and the driver refuses any
 * other non-NULL (non-zero) field with RS_EUNSUPPORTED naming it: the flit engines
 * (switching=wormhole, virtual_cut_through, cut_through_partial, store_forward_flits)
 * honour all but via; circuit honours release, mid
 * (the middle row on topology=benes) and via; store_forward honours release and
 * mid. The driver applies release and mid itself (include/routesim/driver.h:
 * rs_driver_released, rs_driver_mid_of). A plan needs injection_process=batch. */
struct rs_engine_plan {
    /* Release step of message m (UNITS: the engine's steps; below UINT32_MAX, or
     * RS_EINVAL): it waits in its source until then and its first move (header crossing its
     * first channel) is at step release+1 at the earliest. NULL: every message is released
     * at step 0. */
    const uint32_t *release;
    /* Valiant intermediate terminal of message m (RS_NONE: direct route; otherwise below
     * n_terminals, or RS_EINVAL), passed to the topology's route as rs_route_state.mid.
     * NULL: from the `routing` key. */
    const uint32_t *mid;
    /* Length of message m in flits (>= 1). NULL: the `length` key. */
    const uint32_t *length;
    /* 1: a message whose header is delayed is discarded (001 §3.1 step 4), as with
     * on_delay=discard; 0: the `on_delay` key decides. */
    int discard_on_delay;
    /* Out: step at which message m was delivered (its last flit) or discarded; RS_NONE when
     * neither happened (deadlock). */
    uint32_t *finish;
    /* Out: RS_FATE_... of message m. */
    uint8_t *fate;
    /* LCAN circuits (002 §4): node id of the switch where message m's circuit turns down,
     * a switch above both its source and its destination; the circuit goes up to it and
     * down from it (on a CB-LCAN the up path is unique; on a T-LCAN only its level
     * matters). NULL: the engine's up policy chooses. */
    const uint32_t *via;
};

/* Outcome of a message in rs_engine_plan.fate. */
enum rs_fate { RS_FATE_PENDING = 0, RS_FATE_DELIVERED = 1, RS_FATE_DROPPED = 2 };

/* What every engine is given. */
struct rs_engine_input {
    const struct rs_net *net;
    const struct rs_problem *pb;
    const struct rs_params *params;
    const struct rs_routing_ops *routing; /* never NULL: RS_ROUTING_DIRECT is the topology's own
                                             route (include/routesim/route.h) */
    uint64_t seed;
    int check; /* run the per-step invariant checker */
    const struct rs_engine_plan *plan; /* NULL: no plan (the usual case) */
    /* Optional progress report (NULL: none): the driver calls progress(progress_user, step,
     * remaining) after every progress_every-th step (0: every 4096 steps), with the step
     * just run (UNITS: the engine's steps) and, in batch runs, the messages neither
     * delivered nor dropped (open loop: 0). A nonzero return stops the run with
     * RS_EINTERRUPTED. The callback must not touch the run's inputs. */
    int (*progress)(void *progress_user, uint32_t step, uint64_t remaining);
    void *progress_user;
    uint32_t progress_every;
    /* Out: NULL, or where the driver has the engine fill the run's typed result
     * (include/routesim/metrics.h): the values of the record, which the driver writes from
     * it; algorithms read these fields, never record keys. Its string fields are NULL on
     * return (read those from the record). */
    struct rs_result *result;
    /* Out: NULL, or where an engine that walked every message's whole fixed route during the
     * run reports the congestion and dilation of the message set (as rs_path_stats_compute
     * would: include/routesim/analysis.h), so that `run` needs no second walk. The engine
     * sets filled = 1 only when the values are exact (store_forward batch runs without a
     * plan in which every message was delivered); otherwise it leaves *paths alone. */
    struct rs_engine_paths *paths;
    /* NULL, or the run's per-packet event log (include/routesim/events.h), which the engine
     * appends to through RS_EVENT (src/core/events_hook.h); an engine that does not write
     * it refuses it at set-up (RS_EUNSUPPORTED) */
    struct rs_events *events;
    /* Out: NULL, or where the driver keeps the waiting cycle of a deadlock as data
     * (include/routesim/deadlock.h; initialised by the caller, emptied by the driver at the
     * start of the run): filled by the lifecycle's deadlock_cycle op when the run ends on a
     * deadlock, left empty otherwise. */
    struct rs_deadlock *deadlock;
    /* NULL, or the ranks one partitioned run is split over (include/routesim/exchange.h,
     * docs/distributed.md): with size > 1 every rank runs the same input and switching=
     * circuit decides each rank's share of the resources; other engines are refused by
     * rs_run_traced */
    const struct rs_exchange *exchange;
};

/* Congestion and dilation counted by an engine (rs_engine_input.paths). */
struct rs_engine_paths {
    int filled;          /* 1: the fields below are set */
    uint32_t congestion; /* max messages over one channel */
    uint32_t dilation;   /* max path length in hops */
};

struct rs_engine_life; /* include/routesim/driver.h */
struct rs_exchange;    /* include/routesim/exchange.h */

struct rs_engine_ops {
    const char *name;                /* value of `switching` */
    const char *summary;
    const struct rs_optdef *options; /* NULL-terminated */
    /* The lifecycle of a batch run (the static message set) and of an open-loop run
     * (injection_process=bernoulli; NULL when the engine has none). */
    const struct rs_engine_life *batch, *open;
    /* 1 when the engine runs open-loop injection (injection_process=bernoulli, SPEC W4,
     * include/routesim/openloop.h) besides the static message set: open is set and its
     * options table contains RS_OPENLOOP_OPTIONS. */
    int openloop;
    /* Optional (NULL: not estimated): bytes of memory a batch run of this engine on net
     * with n_msgs messages and the validated parameters p would allocate for its state,
     * computed from the sizes alone, never allocating; an upper estimate of the peak
     * (docs/resources.md gives its measured ratio to the peak RSS). rs_run refuses a run
     * whose estimate exceeds max_memory before building its workload. ranks: the MPI
     * ranks the run is partitioned over (1: one process); the estimate is then of one
     * rank's share (what the engine splits, divided by ranks; what it replicates, whole). */
    uint64_t (*estimate)(const struct rs_engine_ops *self, const struct rs_net *net,
                         uint64_t n_msgs, const struct rs_params *p, int ranks);
    /* Optional (NULL: never): 1 when a batch run of this engine on net with the validated
     * parameters p, partitioned over ranks MPI ranks (1: one process), fills
     * rs_engine_input.paths (congestion and dilation of the static routes) whatever its
     * outcome, so that rs_run expands no route of its own and its memory estimate leaves out
     * the channel-load array that would need. */
    int (*counts_paths)(const struct rs_engine_ops *self, const struct rs_net *net,
                        const struct rs_params *p, int ranks);
};

/* Run engine on in to completion through the driver (src/engine/driver.c) and add the
 * metrics to out. A deadlock is not an error return: the engine records deadlock=1 and the
 * step, and the waiting cycle is written into deadlock_msg (deadlock_len bytes; may be
 * NULL; empty when there was no deadlock). Returns 0 or RS_E...: RS_EUNSUPPORTED for a
 * plan field the engine does not honour (naming it) or a plan in an open-loop run,
 * RS_EINTERRUPTED when the progress callback asked to stop. */
int rs_engine_run(const struct rs_engine_ops *engine, const struct rs_engine_input *in,
                  struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                  struct rs_err *err);

/* The registry (NULL-terminated) and its names in the same order (the choices of the
 * `switching` key). */
extern const struct rs_engine_ops *const rs_engines[];
extern const char *const rs_engine_names[];

/* Engine named name, or NULL. */
const struct rs_engine_ops *rs_engine_find(const char *name);

/* The keys of router=iq (the flit engines' input-queued router, docs/model-iq.md), router
 * included: a run's record has them only when router=iq. */
extern const struct rs_optdef rs_iq_options[];

/* Does p select router=iq? */
int rs_router_is_iq(const struct rs_params *p);

#endif
