/* Switching engines: a model that advances the whole network one step at a time until
 * every message is delivered or dropped. Registry of engines selected by `switching`. */
#ifndef ROUTESIM_ENGINE_H
#define ROUTESIM_ENGINE_H

#include <stdint.h>

#include "routesim/net.h"
#include "routesim/problem.h"
#include "routesim/record.h"
#include "routesim/route.h"

/* What every engine is given. */
struct rs_engine_input {
    const struct rs_net *net;
    const struct rs_problem *pb;
    const struct rs_params *params;
    enum rs_routing routing;
    uint64_t seed;
    int check; /* run the per-step invariant checker */
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
};

/* The registry (NULL-terminated) and its names in the same order (the choices of the
 * `switching` key). */
extern const struct rs_engine_ops *const rs_engines[];
extern const char *const rs_engine_names[];

/* Engine named name, or NULL. */
const struct rs_engine_ops *rs_engine_find(const char *name);

#endif
