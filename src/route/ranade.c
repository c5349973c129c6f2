/* routing=ranade: Ranade's random-but-not-independent intermediates (004 §5): one per
 * source, from the topology's ranade_mid op (back-to-back butterflies: topology=benes). */
#include "routesim/route.h"

static int ranade_check(const struct rs_net *net, struct rs_err *err)
{
    if (net->ops->ranade_mid)
        return 0;
    return rs_err_set(err, RS_EUNSUPPORTED,
                      "routing=ranade is not available on topology=%s (Ranade's first stage "
                      "needs back-to-back butterflies: topology=benes, 004 §5)",
                      net->name);
}

static uint32_t ranade_mid(const struct rs_net *net, uint64_t seed, uint64_t msg_id,
                           uint32_t src, uint32_t dst)
{
    (void)msg_id;
    (void)dst;
    return net->ops->ranade_mid(net, seed, src);
}

const struct rs_routing_ops rs_routing_ranade = {
    .name = "ranade",
    .summary = "via Ranade's random-but-not-independent intermediate of the source "
               "(topology=benes, 004 §5)",
    .check = ranade_check,
    .mid = ranade_mid,
    .no_openloop = "sets the first butterfly once for one message per input (004 §5); it is "
                   "not defined for open-loop injection (use routing=valiant)",
};
