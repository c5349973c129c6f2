/* Routing algorithms: what the papers call an algorithm when it is more than "every message
 * is sent greedily along its route" (off-line schedules, rounds with copies, Valiant-like
 * stages). Selected by the `algorithm` key; `greedy` (the default) runs the engine once.
 *
 * Which form to write (docs/ARCHITECTURE.md "Algorithms: two forms"):
 *   - a STEP SIMULATION (anything that advances a state one step at a time, checks it and
 *     can stall) is an engine lifecycle (struct rs_engine_life, routesim/driver.h) run by
 *     rs_engine_run or rs__driver_run_life: the loop, the per-step check, the Debug builds'
 *     auto-check of small runs, progress and stall handling are the driver's. The algorithm's
 *     run op drives one or more such runs (of a registered engine with a plan, or of its own
 *     lifecycle: wave, the line simulator of ms_chain/ms_mesh/ms_torus) and writes no loop
 *     over steps itself.
 *   - a TIMED MODEL (a closed-form or stage-by-stage cost computation that has no step state
 *     to check: bay_bilardi's and the sorting fat-tree's bit-step stages, flexible_sort) sets
 *     `timed` (it runs on the built network and workload; run gets engine NULL) or `model`
 *     (it needs no network at all). */
#ifndef ROUTESIM_ALGO_H
#define ROUTESIM_ALGO_H

#include <stddef.h>

#include "routesim/engine.h"

struct rs_algo_ops {
    const char *name;
    const char *summary;             /* one line for `routesim list` */
    const struct rs_optdef *options; /* extra keys; NULL-terminated (may be NULL) */
    /* Switching models (engine names) it runs on, NULL-terminated; NULL = every engine. A
     * single entry means the algorithm fixes its model: a run without switching= selects it
     * (and records it), a different switching= is refused naming both. */
    const char *const *switching;
    /* 1: a timed model on the network (see above): run is called with engine NULL; the one
     * entry of switching names the paper's switching model, recorded as the `switching`
     * column with that engine's keys at their defaults (the record's columns stay those of
     * the model), and giving one of that engine's keys is refused (it would be ignored). */
    int timed;
    /* RS_CAP_... a topology must declare (rs_topo_ops.caps) for it to run; 0 = any. */
    uint32_t needs;
    /* RS_CAP_... that satisfy it instead of needs (0 = none): offline runs on LCANs or on
     * a Beneš network. */
    uint32_t needs_alt;
    /* Run with engine (already selected by `switching`; NULL for a timed model) and add the
     * metrics to out, as rs_engine_run does; deadlock_msg as there. Returns 0 or RS_E... */
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

/* The engine name algo fixes (its switching list has one entry), or NULL. */
const char *rs_algo_fixed_switching(const struct rs_algo_ops *algo);

/* A timed model (algo->timed) with engine, its recorded model: RS_EUNSUPPORTED naming the
 * first of engine's keys that p gives (it would be ignored); 0 otherwise, and for every
 * algorithm that is not timed. */
int rs_algo_check_timed(const struct rs_algo_ops *algo, const struct rs_engine_ops *engine,
                        const struct rs_params *p, struct rs_err *err);

#endif
