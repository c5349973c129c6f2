/* Routing algorithms: what the papers call an algorithm when it is more than "every message
 * is sent greedily along its route" (off-line schedules, rounds with copies, Valiant-like
 * stages). An algorithm drives one or more runs of an engine, or hands an engine a plan.
 * Selected by the `algorithm` key; `greedy` (the default) runs the engine once. */
#ifndef ROUTESIM_ALGO_H
#define ROUTESIM_ALGO_H

#include <stddef.h>

#include "routesim/engine.h"

struct rs_algo_ops {
    const char *name;
    const char *summary;             /* one line for `routesim list` */
    const struct rs_optdef *options; /* extra keys; NULL-terminated (may be NULL) */
    /* Switching models (engine names) it runs on, NULL-terminated; NULL = every engine. */
    const char *const *switching;
    /* RS_CAP_... a topology must declare (rs_topo_ops.caps) for it to run; 0 = any. */
    uint32_t needs;
    /* RS_CAP_... that satisfy it instead of needs (0 = none): offline runs on LCANs or on
     * a Beneš network. */
    uint32_t needs_alt;
    /* Run with engine (already selected by `switching`) and add the metrics to out, as
     * rs_engine_ops.run does; deadlock_msg as there. Returns 0 or RS_E... */
    int (*run)(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
               struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
               struct rs_err *err);
    /* A self-contained timed model (NULL for the others): when set, rs_run builds no
     * network, workload or engine; it accepts only seed, algorithm and the algorithm's own
     * options, records them, and calls model to add the metrics (run, switching and needs
     * are unused). seed as the `seed` key; out NULL: check the options only (rs_validate,
     * rs_check). Returns 0 or RS_E... with err set. */
    int (*model)(const struct rs_params *p, uint64_t seed, struct rs_record *out,
                 struct rs_err *err);
};

/* The registry (NULL-terminated) and its names in the same order (the choices of the
 * `algorithm` key). */
extern const struct rs_algo_ops *const rs_algos[];
extern const char *const rs_algo_names[];

/* Algorithm named name, or NULL. */
const struct rs_algo_ops *rs_algo_find(const char *name);

/* RS_EUNSUPPORTED with a message naming the supported choices when algo cannot run with
 * the engine named switching on topology (which lacks a capability of algo->needs); else
 * 0. */
int rs_algo_check(const struct rs_algo_ops *algo, const char *switching,
                  const struct rs_topo_ops *topology, struct rs_err *err);

#endif
