/* routing=yx: dimension order with the highest dimension first (YX on a 2-D mesh or torus,
 * dimension n-1 down to 0 in general), oblivious, on any network with coordinates. Each
 * dimension is corrected as the topology's dimension order corrects it (rs_coord_step: the
 * shorter way round a ring, ties by torus_tie), so the topology's dateline classes hold. */
#include "routesim/assert.h"
#include "routesim/route.h"

/* The first dimension from the top whose coordinate differs: its port; RS_ROUTE_DONE at the
 * target. */
static uint32_t yx_next_port(const struct rs_net *net, uint32_t node,
                             const struct rs_route_state *st)
{
    RS_DASSERT(st->mid == RS_NONE);
    uint32_t target = net->ops->dst_node(net, st->dst), s = 1;
    for (uint32_t i = 1; i < net->dims; i++)
        s *= net->k;
    for (uint32_t i = net->dims; i-- > 0; s /= net->k) {
        int dir;
        if (rs_coord_step(net, node / s % net->k, target / s % net->k, &dir))
            return 2 * i + (dir > 0 ? 0 : 1);
    }
    return RS_ROUTE_DONE;
}

/* Minimal: the topology's distance. */
static uint32_t yx_path_length(const struct rs_net *net, const struct rs_route_state *st)
{
    return net->ops->distance(net, net->ops->src_node(net, st->src),
                              net->ops->dst_node(net, st->dst));
}

const struct rs_routing_ops rs_routing_yx = {
    .name = "yx",
    .summary = "dimension order from the highest dimension down (YX on 2-D meshes and tori)",
    .needs = RS_CAP_COORDS,
    .next_port = yx_next_port,
    .path_length = yx_path_length,
};
