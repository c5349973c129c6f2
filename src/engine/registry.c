/* Registry of switching engines, selected by the `switching` key. The X-macro yields the
 * registry, the CHOICE list of the key and the declarations of the ops structs, so that the
 * three cannot drift apart. */
#include <string.h>

#include "routesim/engine.h"

#define RS__ENGINE_LIST(X)                                                     \
    X(store_forward) X(circuit) X(wormhole) X(virtual_cut_through) X(cut_through_partial)     \
    X(store_forward_flits)

#define RS__ENGINE_DECL(name) extern const struct rs_engine_ops rs_engine_##name;
RS__ENGINE_LIST(RS__ENGINE_DECL)
#undef RS__ENGINE_DECL

#define RS__ENGINE_PTR(name) &rs_engine_##name,
const struct rs_engine_ops *const rs_engines[] = {RS__ENGINE_LIST(RS__ENGINE_PTR) NULL};
#undef RS__ENGINE_PTR

#define RS__ENGINE_NAME(name) #name,
const char *const rs_engine_names[] = {RS__ENGINE_LIST(RS__ENGINE_NAME) NULL};
#undef RS__ENGINE_NAME

const struct rs_engine_ops *rs_engine_find(const char *name)
{
    for (int i = 0; rs_engines[i]; i++)
        if (strcmp(rs_engines[i]->name, name) == 0)
            return rs_engines[i];
    return NULL;
}
