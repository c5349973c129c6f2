/* Switching engines: a model that advances the whole network one step at a time until
 * every message is delivered or dropped. Registry of engines selected by `switching`. */
#ifndef ROUTESIM_ENGINE_H
#define ROUTESIM_ENGINE_H

#include <stdint.h>

#include "routesim/net.h"
#include "routesim/problem.h"
#include "routesim/record.h"
#include "routesim/route.h"

/* A per-message schedule that an algorithm (src/algo) hands to an engine through
 * rs_engine_input.plan, and the per-message outcome the engine hands back. Every pointer
 * may be NULL, meaning "the default" for an input and "not wanted" for an output; arrays
 * have n_msgs entries, indexed by message id. Caller-owned: the engine reads the inputs and
 * writes the outputs during run() and keeps no pointer afterwards. Engines that cannot
 * honour a field must reject it with RS_EUNSUPPORTED; the flit engines (switching=wormhole,
 * virtual_cut_through, cut_through_partial, store_forward_flits) honour all of them; the
 * store-and-forward engine does not read plans yet. */
struct rs_engine_plan {
    /* Release step of message m (UNITS: the engine's steps): it waits in its source until
     * then and its first move (header crossing its first channel) is at step release+1 at
     * the earliest. NULL: every message is released at step 0. */
    const uint32_t *release;
    /* Valiant intermediate terminal of message m (RS_NONE: direct route), passed to the
     * topology's route as rs_route_state.mid. NULL: from the `routing` key. */
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
};

/* Outcome of a message in rs_engine_plan.fate. */
enum rs_fate { RS_FATE_PENDING = 0, RS_FATE_DELIVERED = 1, RS_FATE_DROPPED = 2 };

/* What every engine is given. */
struct rs_engine_input {
    const struct rs_net *net;
    const struct rs_problem *pb;
    const struct rs_params *params;
    const struct rs_routing_ops *routing;
    uint64_t seed;
    int check; /* run the per-step invariant checker */
    const struct rs_engine_plan *plan; /* NULL: no plan (the usual case) */
};

struct rs_engine_ops {
    const char *name;                /* value of `switching` */
    const char *summary;
    const struct rs_optdef *options; /* NULL-terminated */
    /* Run to completion and add the metrics to out. A deadlock is not an error return: the
     * engine records deadlock=1 and the step, and writes the waiting cycle into
     * deadlock_msg (may be left empty). Returns 0 or RS_E... */
    int (*run)(const struct rs_engine_input *in, struct rs_record *out, char *deadlock_msg,
               size_t deadlock_len, struct rs_err *err);
    /* 1 when the engine runs open-loop injection (injection_process=bernoulli, SPEC W4,
     * include/routesim/openloop.h) besides the static message set; its options table then
     * contains RS_OPENLOOP_OPTIONS. */
    int openloop;
};

/* The registry (NULL-terminated) and its names in the same order (the choices of the
 * `switching` key). */
extern const struct rs_engine_ops *const rs_engines[];
extern const char *const rs_engine_names[];

/* Engine named name, or NULL. */
const struct rs_engine_ops *rs_engine_find(const char *name);

#endif
