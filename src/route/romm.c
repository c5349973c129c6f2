/* routing=romm: ROMM (Nesson and Johnsson 1995), two-phase randomized oblivious minimal
 * routing on networks with coordinates (RS_CAP_COORDS: mesh, torus, chain, ring). The
 * intermediate is drawn uniformly in the minimal quadrant of source and destination (per
 * dimension a coordinate on the minimal way between theirs), then the topology's dimension
 * order takes the packet to it and from it to the destination: Valiant's two legs of the
 * routing layer (rs_route_leg), so every path is minimal and the second phase is VC class
 * bit 1 (vc_classes=dateline, 4 classes). docs/routing.md. */
#include "routesim/assert.h"
#include "routesim/rng.h"
#include "routesim/route.h"

/* Terminals per node: the intermediate terminal of node v is v * romm_per(net). */
static uint32_t romm_per(const struct rs_net *net)
{
    return net->n_terminals / net->n_nodes;
}

/* ROMM needs Valiant's two legs through a terminal, and terminals numbered c per node
 * (node v holds terminals v*c .. v*c + c - 1) so that every node of the quadrant has one. */
static int romm_check(const struct rs_net *net, struct rs_err *err)
{
    int ok = net->ops->valiant_via_terminal && net->n_terminals % net->n_nodes == 0;
    uint32_t c = ok ? romm_per(net) : 1;
    for (uint32_t v = 0; ok && v < net->n_nodes; v++)
        ok = net->ops->src_node(net, v * c) == v && net->ops->dst_node(net, v * c) == v;
    if (ok)
        return 0;
    return rs_err_set(err, RS_EUNSUPPORTED,
                      "routing=romm needs a terminal on every node, numbered node by node "
                      "(got topology=%s)",
                      net->name);
}

/* The intermediate terminal of a packet from src to dst, one draw of r per dimension:
 * coordinate a + dir * off with off uniform in [0, h], where h and dir are the hops and
 * direction of the topology's dimension order in that dimension (rs_coord_step: the shorter
 * way round a ring, ties by torus_tie). */
static uint32_t romm_draw(const struct rs_net *net, struct rs_rng *r, uint32_t src, uint32_t dst)
{
    uint32_t u = net->ops->src_node(net, src), v = net->ops->dst_node(net, dst), k = net->k;
    uint32_t node = 0, s = 1;
    for (uint32_t i = 0; i < net->dims; i++, s *= k) {
        uint32_t a = u / s % k, b = v / s % k;
        int dir;
        uint32_t h = rs_coord_step(net, a, b, &dir);
        uint32_t off = rs_rng_below(r, h + 1);
        uint32_t x = dir >= 0 ? (a + off) % k : (a + k - off) % k;
        node += x * s;
    }
    RS_DASSERT(node < net->n_nodes);
    return node * romm_per(net);
}

/* Per message id: stream (seed, RS_STREAM_ROMM, msg_id, 0). */
static uint32_t romm_mid(const struct rs_net *net, uint64_t seed, uint64_t msg_id, uint32_t src,
                         uint32_t dst)
{
    struct rs_rng r;
    rs_rng_init(&r, seed, RS_STREAM_ROMM, msg_id, 0);
    return romm_draw(net, &r, src, dst);
}

/* Open loop: per (terminal, generation step), stream RS_STREAM_OL_ROMM. */
static uint32_t romm_mid_openloop(const struct rs_net *net, uint64_t seed, uint32_t src,
                                  uint32_t dst, uint32_t gen)
{
    struct rs_rng r;
    rs_rng_init(&r, seed, RS_STREAM_OL_ROMM, src, gen);
    return romm_draw(net, &r, src, dst);
}

const struct rs_routing_ops rs_routing_romm = {
    .name = "romm",
    .summary = "ROMM (Nesson & Johnsson): a random intermediate in the minimal quadrant, "
               "dimension order to it and on; minimal, 2 phase classes",
    .needs = RS_CAP_COORDS,
    .check = romm_check,
    .mid = romm_mid,
    .mid_openloop = romm_mid_openloop,
};
