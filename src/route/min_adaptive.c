/* routing=min_adaptive: minimal adaptive routing on meshes, tori and HyperX (networks with
 * RS_CAP_MIN_ESCAPE), deadlock-free by Duato's condition. VC 0 (on wrap-around networks
 * the dateline pair VC 0-1) is the escape channel, used on the dimension-order port only;
 * the other VCs are adaptive, usable on every productive port. Productive ports are tried by
 * most free slots at the start of the step, ties by port id; the escape choice comes last.
 * The rule and the deadlock argument: docs/routing.md. */
#include "routesim/assert.h"
#include "routesim/route.h"

/* First VC that is not an escape VC. */
static uint32_t adaptive_lo(const struct rs_net *net)
{
    return net->wrap ? 2 : 1;
}

static int min_adaptive_check_vcs(const struct rs_net *net, uint32_t vcs, struct rs_err *err)
{
    uint32_t need = adaptive_lo(net) + 1;
    if (vcs >= need)
        return 0;
    return rs_err_set(err, RS_ECONSTRAINT,
                      "routing=min_adaptive needs vcs >= %u on topology=%s (%s for the "
                      "dimension-order escape, at least one adaptive VC; got vcs=%u)",
                      need, net->name, net->wrap ? "the dateline pair VC 0-1" : "VC 0", vcs);
}

/* Free slots of VCs [lo, hi) of (node, port) at the start of the step. */
static uint32_t free_space(const struct rs_route_view *view, uint32_t node, uint32_t port,
                           uint32_t lo, uint32_t hi)
{
    uint32_t s = 0;
    for (uint32_t v = lo; v < hi; v++)
        s += view->free_slots(view->ctx, node, port, v);
    return s;
}

static uint32_t min_adaptive_choose(const struct rs_net *net, uint32_t node,
                                    const struct rs_route_state *st,
                                    const struct rs_route_view *view,
                                    struct rs_route_choice *out)
{
    RS_DASSERT(node < net->n_nodes && view != NULL); /* view: never NULL (route.h) */
    /* the escape: the dimension-order port, in its dateline class on wrap-around rings */
    uint32_t esc = net->ops->route(net, node, st);
    if (esc == RS_ROUTE_DONE)
        return 0;
    uint32_t ev = net->wrap ? net->ops->vc_class(net, node, esc, st) & 1u : 0;
    uint32_t lo = adaptive_lo(net), ports[RS_MAX_PRODUCTIVE], score[RS_MAX_PRODUCTIVE];
    uint32_t n = net->ops->productive(net, node, net->ops->dst_node(net, st->dst), ports);
    /* per head flit and step: checked in Debug only; n + 1 choices fit the caller's out */
    RS_DASSERT(n >= 1 && n <= RS_MAX_PRODUCTIVE && n + 1 <= RS_ROUTE_MAX_CHOICES);
    /* order: most free slots first (the adaptive VCs, plus the escape VC on the escape
     * port), ties by port id (insertion sort keeps the increasing port order of equals) */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = ports[i], s = 0;
        if (view->free_slots) {
            s = free_space(view, node, p, lo, view->vcs);
            if (p == esc)
                s += free_space(view, node, p, ev, ev + 1);
        }
        uint32_t j = i;
        for (; j > 0 && score[j - 1] < s; j--) {
            ports[j] = ports[j - 1];
            score[j] = score[j - 1];
        }
        ports[j] = p;
        score[j] = s;
    }
    for (uint32_t i = 0; i < n; i++)
        out[i] = (struct rs_route_choice){ports[i], lo, view->vcs};
    out[n] = (struct rs_route_choice){esc, ev, ev + 1};
    return n + 1;
}

const struct rs_routing_ops rs_routing_min_adaptive = {
    .name = "min_adaptive",
    .summary = "minimal adaptive by free downstream slots, dimension-order escape VCs "
               "(Duato); flit engines, vcs >= 2 (tori: 3)",
    .needs = RS_CAP_MIN_ESCAPE,
    .choose = min_adaptive_choose,
    .check_vcs = min_adaptive_check_vcs,
};
