/* routing=nca_adaptive: nearest-common-ancestor routing with adaptive up-ports on trees whose
 * minimal routes all go up, then down (RS_CAP_UP_DOWN: the k-ary n-tree). Going up, every
 * up-port is offered, by most free slots (all VCs) at the start of the step, ties by port
 * id; going down, the one port. Up/down routes never turn up after going down, so the
 * channel dependencies are acyclic and every VC may be used everywhere: no escape class is
 * needed (the last choice is the one a blocked packet is said to wait for). docs/routing.md. */
#include "routesim/assert.h"
#include "routesim/route.h"

static int nca_adaptive_check(const struct rs_net *net, struct rs_err *err)
{
    if (net->k <= RS_MAX_PRODUCTIVE)
        return 0;
    return rs_err_set(err, RS_EUNSUPPORTED,
                      "routing=nca_adaptive offers at most %u up-ports (got k=%u on topology=%s)",
                      RS_MAX_PRODUCTIVE, net->k, net->name);
}

static uint32_t nca_adaptive_choose(const struct rs_net *net, uint32_t node,
                                    const struct rs_route_state *st,
                                    const struct rs_route_view *view,
                                    struct rs_route_choice *out)
{
    RS_DASSERT(node < net->n_nodes && view != NULL);
    uint32_t ports[RS_MAX_PRODUCTIVE], score[RS_MAX_PRODUCTIVE];
    uint32_t n = net->ops->productive(net, node, net->ops->dst_node(net, st->dst), ports);
    RS_DASSERT(n <= RS_MAX_PRODUCTIVE && n <= RS_ROUTE_MAX_CHOICES);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = ports[i], s = 0;
        if (view->free_slots)
            for (uint32_t v = 0; v < view->vcs; v++)
                s += view->free_slots(view->ctx, node, p, v);
        uint32_t j = i;
        for (; j > 0 && score[j - 1] < s; j--) {
            ports[j] = ports[j - 1];
            score[j] = score[j - 1];
        }
        ports[j] = p;
        score[j] = s;
    }
    for (uint32_t i = 0; i < n; i++)
        out[i] = (struct rs_route_choice){ports[i], 0, view->vcs};
    return n;
}

const struct rs_routing_ops rs_routing_nca_adaptive = {
    .name = "nca_adaptive",
    .summary = "nearest common ancestor, the up-port with most free downstream slots (k-ary "
               "n-tree; flit engines)",
    .needs = RS_CAP_UP_DOWN,
    .check = nca_adaptive_check,
    .choose = nca_adaptive_choose,
};
