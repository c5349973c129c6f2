/* The routing registry, selected by the `routing` key (X-macro: the registry, the key's
 * choices and the declarations cannot drift apart). Adding a routing function: its file in
 * src/route/ defining `const struct rs_routing_ops rs_routing_NAME`, and NAME below. */
#include <string.h>

#include "routesim/assert.h"
#include "routesim/route.h"

#define RS__ROUTING_LIST(X)                                                                     \
    X(direct) X(yx) X(valiant) X(ranade) X(min_adaptive) X(nca_adaptive) X(ugal_l) X(ugal_g) \
    X(par) X(romm) X(updown) X(ugal_l_sf)

#define RS__ROUTING_DECL(name) extern const struct rs_routing_ops rs_routing_##name;
RS__ROUTING_LIST(RS__ROUTING_DECL)
#undef RS__ROUTING_DECL

#define RS__ROUTING_PTR(name) &rs_routing_##name,
const struct rs_routing_ops *const rs_routings[] = {RS__ROUTING_LIST(RS__ROUTING_PTR) NULL};
#undef RS__ROUTING_PTR

#define RS__ROUTING_NAME(name) #name,
const char *const rs_routing_names[] = {RS__ROUTING_LIST(RS__ROUTING_NAME) NULL};
#undef RS__ROUTING_NAME

const struct rs_routing_ops *rs_routing_find(const char *name)
{
    RS_ASSERT(name != NULL);
    for (int i = 0; rs_routings[i]; i++)
        if (strcmp(rs_routings[i]->name, name) == 0)
            return rs_routings[i];
    return NULL;
}
