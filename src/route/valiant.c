/* routing=valiant: via a uniformly random intermediate terminal, then on to the destination
 * (Valiant's two phases, 004 §1.3 and §2.2), each phase the topology's route. */
#include "routesim/rng.h"
#include "routesim/route.h"

static int valiant_check(const struct rs_net *net, struct rs_err *err)
{
    return net->ops->valiant_ok ? net->ops->valiant_ok(net, err) : 0;
}

/* Per message id, step 0 of the Valiant stream: independent of source and visiting order. */
static uint32_t valiant_mid(const struct rs_net *net, uint64_t seed, uint64_t msg_id,
                            uint32_t src, uint32_t dst)
{
    (void)src;
    (void)dst;
    return rs_route_uniform_mid(seed, msg_id, net->n_terminals);
}

/* Open loop: per (terminal, generation step), from its own stream. */
static uint32_t valiant_mid_openloop(const struct rs_net *net, uint64_t seed, uint32_t src,
                                     uint32_t dst, uint32_t gen)
{
    (void)dst;
    return rs_rand_below(seed, RS_STREAM_OL_VALIANT, src, gen, net->n_terminals);
}

const struct rs_routing_ops rs_routing_valiant = {
    .name = "valiant",
    .summary = "via a uniformly random intermediate terminal, then to the destination "
               "(004 §2.2)",
    .check = valiant_check,
    .mid = valiant_mid,
    .mid_openloop = valiant_mid_openloop,
};
