/* routing=ugal_l_sf on the Slim Fly: UGAL-L (Singh 2005) with one random Valiant candidate
 * per packet: at the source router a packet takes the
 * minimal path (1 or 2 router hops) unless q_min*H_min > q_nm*H_nm + T, where H counts the
 * router hops of each path, T is the topology key ugal_threshold (flits) and the non-minimal
 * path is Valiant's through the router of a uniformly random intermediate terminal; q is the
 * occupancy of the first channel (all its VCs) at the start of the step. VC class = router
 * hops taken (0..3): it rises by one at every hop, so no cycle of channel dependencies
 * exists; docs/routing.md. */
#include "routesim/assert.h"
#include "routesim/rng.h"
#include "routesim/route.h"
#include "routesim/slimfly.h"

#define SF_CLASSES 4 /* Valiant's longest path: 2 + 2 router hops */

static int ugal_sf_check_vcs(const struct rs_net *net, uint32_t vcs, struct rs_err *err)
{
    if (vcs >= SF_CLASSES)
        return 0;
    return rs_err_set(err, RS_ECONSTRAINT,
                      "routing=ugal_l_sf needs vcs >= 4 on topology=%s (one VC class per router "
                      "hop of the longest, non-minimal path; got vcs=%u)",
                      net->name, vcs);
}

static uint32_t ugal_sf_mid(const struct rs_net *net, uint64_t seed, uint64_t msg_id,
                            uint32_t src, uint32_t dst)
{
    (void)src;
    (void)dst;
    return rs_route_uniform_mid(seed, msg_id, net->n_terminals);
}

static uint32_t ugal_sf_mid_openloop(const struct rs_net *net, uint64_t seed, uint32_t src,
                                     uint32_t dst, uint32_t gen)
{
    (void)dst;
    return rs_rand_below(seed, RS_STREAM_OL_VALIANT, src, gen, net->n_terminals);
}

/* Occupied flit slots of every VC of channel (node, port) at the start of the step. */
static uint32_t occupancy(const struct rs_route_view *view, uint32_t node, uint32_t port)
{
    uint32_t q = 0;
    for (uint32_t v = 0; v < view->vcs; v++)
        q += view->depth - view->free_slots(view->ctx, node, port, v);
    return q;
}

/* The decision at the source router s toward router d through router m: 1 for the
 * non-minimal path. Its first port must differ from the minimal one (else the two paths
 * share their first channel and the packet is minimal). */
static int go_non_minimal(const struct rs_sfly *s, uint32_t src, uint32_t d, uint32_t m,
                          const struct rs_route_view *view, uint32_t *port)
{
    uint32_t pm = rs_sfly_min_port(s, src, d);
    *port = pm;
    if (m == src || m == d || !view->free_slots)
        return 0;
    uint32_t pn = rs_sfly_min_port(s, src, m);
    if (pn == pm)
        return 0;
    double hm = rs_sfly_distance(s, src, d);
    double hn = rs_sfly_distance(s, src, m) + rs_sfly_distance(s, m, d);
    if ((double)occupancy(view, src, pm) * hm >
        (double)occupancy(view, src, pn) * hn + s->ugal_threshold) {
        *port = pn;
        return 1;
    }
    return 0;
}

/* One choice: the port the path takes and the VCs of class st->hops. After the source the
 * router reached tells the path: at hop 1 the minimal path is at the head of the minimal
 * port (the non-minimal one left by another port); from hop 2 on a packet not yet at its
 * router is on the non-minimal path, Valiant's legs s -> m -> d. A packet that meets its
 * router on the way is delivered there. */
static uint32_t ugal_sf_choose(const struct rs_net *net, uint32_t node,
                               const struct rs_route_state *st, const struct rs_route_view *view,
                               struct rs_route_choice *out)
{
    const struct rs_sfly *s = rs_sfly_of(net);
    RS_DASSERT(s != NULL && view != NULL && view->vcs >= SF_CLASSES);
    uint32_t src = st->src / s->p, d = st->dst / s->p, port;
    uint32_t m = st->mid == RS_NONE ? src : st->mid / s->p;
    if (node == d)
        return 0;
    uint32_t per = view->vcs / SF_CLASSES, h = st->hops;
    RS_DASSERT(h < SF_CLASSES);
    if (h == 0) {
        go_non_minimal(s, src, d, m, view, &port);
    } else {
        uint32_t pm = rs_sfly_min_port(s, src, d);
        int minimal = h == 1 && node == net->ops->neighbor(net, src, pm, NULL);
        if (minimal)
            port = rs_sfly_min_port(s, node, d);
        else /* Valiant's legs: toward m for its dist(src, m) hops, then toward d */
            port = rs_sfly_min_port(s, node, h < rs_sfly_distance(s, src, m) ? m : d);
    }
    out[0] = (struct rs_route_choice){port, h * per, (h + 1) * per};
    return 1;
}

const struct rs_routing_ops rs_routing_ugal_l_sf = {
    .name = "ugal_l_sf",
    .summary = "Slim Fly UGAL-L: minimal or Valiant via a random router, by first-channel "
               "occupancy x hops; flit engines, vcs >= 4",
    .needs = RS_CAP_SLIMFLY,
    .mid = ugal_sf_mid,
    .mid_openloop = ugal_sf_mid_openloop,
    .choose = ugal_sf_choose,
    .check_vcs = ugal_sf_check_vcs,
};
