/* Registry of switching engines, selected by the `switching` key. */
#include <string.h>

#include "routesim/engine.h"

extern const struct rs_engine_ops rs_engine_store_forward;

const struct rs_engine_ops *const rs_engines[] = {&rs_engine_store_forward, NULL};

const struct rs_engine_ops *rs_engine_find(const char *name)
{
    for (int i = 0; rs_engines[i]; i++)
        if (strcmp(rs_engines[i]->name, name) == 0)
            return rs_engines[i];
    return NULL;
}
