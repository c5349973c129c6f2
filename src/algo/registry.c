/* Registry of routing algorithms, selected by the `algorithm` key (X-macro: the registry,
 * the key's choices and the declarations cannot drift apart), the compatibility check of an
 * algorithm with the chosen engine and topology, and the model an algorithm fixes. */
#include <stdio.h>
#include <string.h>

#include "routesim/algo.h"
#include "routesim/assert.h"
#include "routesim/buf.h"

#define RS__ALGO_LIST(X) X(greedy) X(offline) X(self_route) X(cms_butterfly) X(colour_refine) X(wave) \
    X(ms_chain) X(ms_mesh) X(ms_torus) X(bay_bilardi) X(flexible_sort) X(sorting_fat_tree)

#define RS__ALGO_DECL(name) extern const struct rs_algo_ops rs_algo_##name;
RS__ALGO_LIST(RS__ALGO_DECL)
#undef RS__ALGO_DECL

#define RS__ALGO_PTR(name) &rs_algo_##name,
const struct rs_algo_ops *const rs_algos[] = {RS__ALGO_LIST(RS__ALGO_PTR) NULL};
#undef RS__ALGO_PTR

#define RS__ALGO_NAME(name) #name,
const char *const rs_algo_names[] = {RS__ALGO_LIST(RS__ALGO_NAME) NULL};
#undef RS__ALGO_NAME

const struct rs_algo_ops *rs_algo_find(const char *name)
{
    RS_ASSERT(name != NULL);
    for (int i = 0; rs_algos[i]; i++)
        if (strcmp(rs_algos[i]->name, name) == 0)
            return rs_algos[i];
    return NULL;
}

static int listed(const char *const *list, const char *name)
{
    if (!list)
        return 1;
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], name) == 0)
            return 1;
    return 0;
}

static void join(char *buf, size_t n, const char *const *list)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; list[i] && used + 1 < n; i++) {
        int w = snprintf(buf + used, n - used, "%s%s", i ? "|" : "", list[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

int rs_algo_check(const struct rs_algo_ops *algo, const char *switching,
                  const struct rs_topo_ops *topology, struct rs_err *err)
{
    char names[256];
    RS_ASSERT(algo != NULL && switching != NULL && topology != NULL);
    /* also an algorithm that fixes its model, given another switching= explicitly */
    if (!listed(algo->switching, switching)) {
        join(names, sizeof names, algo->switching);
        return rs_err_set(err, RS_EUNSUPPORTED, "algorithm=%s needs switching=%s (got %s)",
                          algo->name, names, switching);
    }
    uint32_t alt = algo->needs_alt;
    if ((topology->caps & algo->needs) != algo->needs && !(alt && (topology->caps & alt) == alt)) {
        rs_topo_names_with(algo->needs, names, sizeof names);
        size_t used = strlen(names);
        if (alt && used + 1 < sizeof names) {
            names[used] = '|';
            rs_topo_names_with(alt, names + used + 1, sizeof names - used - 1);
        }
        return rs_err_set(err, RS_EUNSUPPORTED, "algorithm=%s needs topology=%s (got %s)",
                          algo->name, names, topology->name);
    }
    return 0;
}

const char *rs_algo_fixed_switching(const struct rs_algo_ops *algo)
{
    RS_ASSERT(algo != NULL);
    return algo->switching && algo->switching[0] && !algo->switching[1] ? algo->switching[0]
                                                                         : NULL;
}

int rs_algo_check_timed(const struct rs_algo_ops *algo, const struct rs_engine_ops *engine,
                        const struct rs_params *p, struct rs_err *err)
{
    RS_ASSERT(algo != NULL && engine != NULL && p != NULL);
    if (!algo->timed)
        return 0;
    for (const struct rs_optdef *d = engine->options; d && d->name; d++)
        if (rs_params_find(p, d->name))
            return rs_err_set(err, RS_EUNSUPPORTED,
                              "algorithm=%s is a timed model of switching=%s: %s= is a key of "
                              "that engine's step simulation and does not apply",
                              algo->name, engine->name, d->name);
    return 0;
}
