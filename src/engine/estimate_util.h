/* Shared arithmetic of the engines' memory estimates (the engines' *_estimate.c files): an
 * engine option's value as the engine will read it, and a bound on route lengths. */
#ifndef RS_ENGINE_ESTIMATE_UTIL_H
#define RS_ENGINE_ESTIMATE_UTIL_H

#include <stdint.h>
#include <string.h>

#include "routesim/engine.h"

/* Integer option name of self's table as p gives it (its default when absent), or dflt
 * when it cannot be read. */
static inline int64_t rs__est_int(const struct rs_engine_ops *self, const struct rs_params *p,
                                  const char *name, int64_t dflt)
{
    int64_t v;
    return rs_opt_int(p, self->options, name, &v, NULL) ? dflt : v;
}

/* 1 when the choice option name of self's table has the value text (p or its default). */
static inline int rs__est_is(const struct rs_engine_ops *self, const struct rs_params *p,
                             const char *name, const char *text)
{
    const struct rs_optdef *d = rs_optdef_find(self->options, name);
    const char *v = d ? rs_params_text(p, d) : NULL;
    return v && !strcmp(v, text);
}

/* Channels of a route on net, bounded above (UNITS: channels): a leveled network's levels
 * (twice when routing goes via an intermediate), a mesh's dims * k, else 64. */
static inline uint64_t rs__est_path(const struct rs_net *net, const struct rs_params *p)
{
    const struct rs_param *r = rs_params_find(p, "routing");
    uint64_t via = r && (!strcmp(r->value, "valiant") || !strcmp(r->value, "ranade")) ? 2 : 1;
    if (net->n_levels)
        return via * net->n_levels;
    if (net->dims && net->k)
        return via * net->dims * net->k;
    return 64;
}

/* The engines' estimate ops (rs_engine_ops.estimate; ranks >= 1). */
uint64_t rs__saf_estimate(const struct rs_engine_ops *self, const struct rs_net *net,
                          uint64_t n_msgs, const struct rs_params *p, int ranks);
uint64_t rs__flit_estimate(const struct rs_engine_ops *self, const struct rs_net *net,
                           uint64_t n_msgs, const struct rs_params *p, int ranks);
/* store_forward's counts_paths: the runs of the leveled butterfly kernel (saf_wave.c). */
int rs__saf_counts_paths(const struct rs_engine_ops *self, const struct rs_net *net,
                         const struct rs_params *p, int ranks);
/* the flit engines' counts_paths: their runs over MPI ranks (flit_dist.c) */
int rs__flit_counts_paths(const struct rs_engine_ops *self, const struct rs_net *net,
                          const struct rs_params *p, int ranks);
uint64_t rs__circuit_estimate(const struct rs_engine_ops *self, const struct rs_net *net,
                              uint64_t n_msgs, const struct rs_params *p, int ranks);

#endif
