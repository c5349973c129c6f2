/* routing=direct: every packet follows its topology's oblivious route from source to
 * destination (no intermediate, no choice). */
#include "routesim/route.h"

const struct rs_routing_ops rs_routing_direct = {
    .name = "direct",
    .summary = "the topology's oblivious route (dimension order, bit fixing, LCA, ...)",
};
