/* routing=ugal_l and ugal_g on the dragonfly: Universal Globally-Adaptive Load-balanced
 * routing (Singh 2005; Kim et al. 2008 §4). In the source group a packet takes the minimal
 * path unless q_min*H_min > q_nm*H_nm + T, where H counts the channels left on each path,
 * T is the topology key ugal_threshold (flits) and the non-minimal path is Valiant's through
 * a random intermediate group; q is what the router observes at the start of the step:
 * UGAL-L the occupancy of the first channel's VCs, UGAL-G that plus the occupancy of the
 * path's global channel in the source group. VC classes by hop type (Kim et al.): class 0 in
 * the source group, 1 in the intermediate group, 2 for the local hop in the destination
 * group. routing=par is progressive adaptive routing (Jiang, Kim, Dally 2009): UGAL-L at
 * the source router, re-decided once at the router of the minimal global link, with a fourth
 * VC class for the extra local hop; docs/routing.md. */
#include "routesim/assert.h"
#include "routesim/dragonfly.h"
#include "routesim/rng.h"
#include "routesim/route.h"

static int ugal_check_vcs(const struct rs_net *net, uint32_t vcs, struct rs_err *err)
{
    if (vcs >= 3)
        return 0;
    return rs_err_set(err, RS_ECONSTRAINT,
                      "routing=ugal needs vcs >= 3 on topology=%s (one VC class per hop type: "
                      "source group, intermediate group, destination group; got vcs=%u)",
                      net->name, vcs);
}

/* The intermediate draw: uniform below (g-2)*a*p, so that mid mod (g-2) is uniform. */
static uint32_t ugal_range(const struct rs_net *net)
{
    const struct rs_dfly *d = rs_dfly_of(net);
    return d->g > 2 ? (d->g - 2) * d->a * d->p : 1;
}

static uint32_t ugal_mid(const struct rs_net *net, uint64_t seed, uint64_t msg_id, uint32_t src,
                         uint32_t dst)
{
    (void)src;
    (void)dst;
    return rs_rand_below(seed, RS_STREAM_VALIANT, msg_id, 0, ugal_range(net));
}

static uint32_t ugal_mid_openloop(const struct rs_net *net, uint64_t seed, uint32_t src,
                                  uint32_t dst, uint32_t gen)
{
    (void)dst;
    return rs_rand_below(seed, RS_STREAM_OL_VALIANT, src, gen, ugal_range(net));
}

/* The intermediate group of st: the (mid mod (g-2))-th group other than the source's and the
 * destination's, in increasing order; RS_NONE when g = 2 or both ends share a group. */
static uint32_t ugal_group(const struct rs_dfly *d, const struct rs_route_state *st)
{
    uint32_t Gs = rs_dfly_term_group(d, st->src), Gd = rs_dfly_term_group(d, st->dst);
    if (d->g <= 2 || Gs == Gd || st->mid == RS_NONE)
        return RS_NONE;
    uint32_t x = st->mid % (d->g - 2), lo = Gs < Gd ? Gs : Gd, hi = Gs < Gd ? Gd : Gs;
    if (x >= lo)
        x++;
    if (x >= hi)
        x++;
    return x;
}

/* Occupied flit slots of the VCs [lo, hi) of channel (node, port) at the start of the step. */
static uint32_t occupancy(const struct rs_route_view *view, uint32_t node, uint32_t port,
                          uint32_t lo, uint32_t hi)
{
    uint32_t q = 0;
    for (uint32_t v = lo; v < hi; v++)
        q += view->depth - view->free_slots(view->ctx, node, port, v);
    return q;
}

/* What UGAL weighs for leaving router v of the source group toward group D (then on to
 * terminal dst): *hops gets the channels left to dst (H), the return value the occupancy
 * (q) of the class-0 VCs of the first channel and, for UGAL-G, of the global channel. */
static uint32_t path_cost(const struct rs_net *net, const struct rs_dfly *d, uint32_t v,
                          uint32_t D, uint32_t lane, uint32_t dst, const struct rs_route_view *view,
                          int global, uint32_t *hops)
{
    uint32_t per = view->vcs / 3, port = rs_dfly_port_to_group(d, v, D, lane), h = 0, q = 0;
    uint32_t gw = v; /* the router that holds the global link */
    if (port < rs_dfly_gport0(d)) {
        h++;
        gw = net->ops->neighbor(net, v, port, NULL);
    }
    uint32_t gport = rs_dfly_port_to_group(d, gw, D, lane);
    uint32_t land = net->ops->neighbor(net, gw, gport, NULL);
    h++;
    uint32_t Gd = rs_dfly_term_group(d, dst);
    if (D != Gd) { /* Valiant: across the intermediate group, then the second global link */
        uint32_t gw2 = land;
        if (rs_dfly_port_to_group(d, land, Gd, lane) < rs_dfly_gport0(d)) {
            h++;
            gw2 = net->ops->neighbor(net, land, rs_dfly_port_to_group(d, land, Gd, lane), NULL);
        }
        land = net->ops->neighbor(net, gw2, rs_dfly_port_to_group(d, gw2, Gd, lane), NULL);
        h++;
    }
    h += land == rs_dfly_term_router(d, dst) ? 1 : 2; /* the last local hop and the ejection */
    *hops = h;
    if (view->free_slots) {
        q = occupancy(view, v, port, 0, per);
        if (global && gw != v)
            q += occupancy(view, gw, gport, 0, per);
    }
    return q;
}

/* The choice that UGAL and PAR share everywhere but in the source group, with per VCs per
 * class, class ci in the intermediate group and cd for the destination group's local hop: 1
 * with out[0] set, 0 at the destination terminal, -1 when node is a router of the source
 * group (the caller decides there). */
static int dfly_outside_source(const struct rs_dfly *d, uint32_t node,
                               const struct rs_route_state *st, const struct rs_route_view *view,
                               uint32_t per, uint32_t ci, uint32_t cd,
                               struct rs_route_choice *out)
{
    if (node < d->N) { /* at a terminal: its one channel, any VC */
        if (node == st->dst)
            return 0;
        out[0] = (struct rs_route_choice){0, 0, view->vcs};
        return 1;
    }
    uint32_t G = rs_dfly_group(d, node), Gd = rs_dfly_term_group(d, st->dst);
    if (G == Gd) {
        uint32_t port = rs_dfly_port_to_term(d, node, st->dst);
        out[0] = port < d->p ? (struct rs_route_choice){port, 0, view->vcs}
                             : (struct rs_route_choice){port, cd * per, (cd + 1) * per};
        return 1;
    }
    if (G != rs_dfly_term_group(d, st->src)) { /* intermediate group: minimal to Gd */
        out[0] = (struct rs_route_choice){rs_dfly_port_to_group(d, node, Gd, st->src % d->par),
                                          ci * per, (ci + 1) * per};
        return 1;
    }
    return -1;
}

static uint32_t ugal_choose(const struct rs_net *net, uint32_t node,
                            const struct rs_route_state *st, const struct rs_route_view *view,
                            struct rs_route_choice *out, int global)
{
    const struct rs_dfly *d = rs_dfly_of(net);
    RS_DASSERT(d != NULL && view != NULL && view->vcs >= 3);
    uint32_t per = view->vcs / 3;
    int outside = dfly_outside_source(d, node, st, view, per, 1, 2, out);
    if (outside >= 0)
        return (uint32_t)outside;
    uint32_t Gd = rs_dfly_term_group(d, st->dst), lane = st->src % d->par;
    uint32_t Gi = ugal_group(d, st);
    uint32_t pm = rs_dfly_port_to_group(d, node, Gd, lane);
    uint32_t pn = Gi == RS_NONE ? pm : rs_dfly_port_to_group(d, node, Gi, lane);
    uint32_t port = pm;
    if (pn != pm) {
        /* after a local hop in the source group, the router reached tells the path taken,
         * unless it holds both global links (then the two paths still share everything so
         * far and it decides again) */
        int here_min = pm >= rs_dfly_gport0(d), here_nm = pn >= rs_dfly_gport0(d);
        int decide = st->hops <= 1 || (here_min && here_nm);
        if (!decide)
            port = here_nm ? pn : pm;
        else if (view->free_slots) {
            uint32_t hm, hn;
            uint32_t qm = path_cost(net, d, node, Gd, lane, st->dst, view, global, &hm);
            uint32_t qn = path_cost(net, d, node, Gi, lane, st->dst, view, global, &hn);
            if ((double)qm * hm > (double)qn * hn + d->ugal_threshold)
                port = pn;
        }
    }
    out[0] = (struct rs_route_choice){port, 0, per};
    return 1;
}

static uint32_t ugal_l_choose(const struct rs_net *net, uint32_t node,
                              const struct rs_route_state *st, const struct rs_route_view *view,
                              struct rs_route_choice *out)
{
    return ugal_choose(net, node, st, view, out, 0);
}

static uint32_t ugal_g_choose(const struct rs_net *net, uint32_t node,
                              const struct rs_route_state *st, const struct rs_route_view *view,
                              struct rs_route_choice *out)
{
    return ugal_choose(net, node, st, view, out, 1);
}

static int par_check_vcs(const struct rs_net *net, uint32_t vcs, struct rs_err *err)
{
    if (vcs >= 4)
        return 0;
    return rs_err_set(err, RS_ECONSTRAINT,
                      "routing=par needs vcs >= 4 on topology=%s (one VC class per hop type: "
                      "source group, the re-routed local hop, intermediate group, destination "
                      "group; got vcs=%u)",
                      net->name, vcs);
}

/* Progressive adaptive routing (PAR; Jiang, Kim and Dally, ISCA 2009), the variant of
 * docs/routing.md: at the source router UGAL-L's decision; a packet that took a local hop
 * toward the router of its minimal global link decides once more there, between that
 * global link and Valiant's path through the same intermediate group, each weighed as
 * UGAL-L does (first channel's occupancy x channels left); once non-minimal it stays so. VC
 * classes (vcs/4 VCs each): 0 in the source group up to the re-decision, 1 for the
 * re-routed local hop and the global link after it, 2 in the intermediate group, 3 for the
 * local hop in the destination group. With no per-packet state beyond mid, the router
 * reached tells the past: in the source group, hops = 2 at a router that holds the minimal
 * link but not the non-minimal one is the re-decision point, hops = 3 is a re-routed
 * packet. */
static uint32_t par_choose(const struct rs_net *net, uint32_t node, const struct rs_route_state *st,
                           const struct rs_route_view *view, struct rs_route_choice *out)
{
    const struct rs_dfly *d = rs_dfly_of(net);
    RS_DASSERT(d != NULL && view != NULL && view->vcs >= 4);
    uint32_t per = view->vcs / 4;
    int outside = dfly_outside_source(d, node, st, view, per, 2, 3, out);
    if (outside >= 0)
        return (uint32_t)outside;
    uint32_t Gd = rs_dfly_term_group(d, st->dst), lane = st->src % d->par;
    uint32_t Gi = ugal_group(d, st);
    uint32_t pm = rs_dfly_port_to_group(d, node, Gd, lane);
    uint32_t pn = Gi == RS_NONE ? pm : rs_dfly_port_to_group(d, node, Gi, lane);
    if (pn == pm) {
        out[0] = (struct rs_route_choice){pm, 0, per};
        return 1;
    }
    int here_min = pm >= rs_dfly_gport0(d), here_nm = pn >= rs_dfly_gport0(d);
    if (st->hops >= 3 || (st->hops == 2 && here_nm && !here_min)) {
        /* re-routed (hops 3: at the router of the non-minimal link, class 1), or Valiant
         * from the source router (class 0) */
        out[0] = (struct rs_route_choice){pn, st->hops >= 3 ? per : 0, st->hops >= 3 ? 2 * per : per};
        return 1;
    }
    uint32_t port = pm, lo = 0;
    if (view->free_slots) {
        uint32_t hm, hn, qm, qn;
        if (st->hops <= 1 || here_nm) { /* UGAL-L's decision (both links here: as at the source) */
            qm = path_cost(net, d, node, Gd, lane, st->dst, view, 0, &hm);
            qn = path_cost(net, d, node, Gi, lane, st->dst, view, 0, &hn);
        } else { /* the re-decision: the minimal global link against the class-1 local hop */
            path_cost(net, d, node, Gd, lane, st->dst, view, 0, &hm);
            path_cost(net, d, node, Gi, lane, st->dst, view, 0, &hn);
            qm = occupancy(view, node, pm, 0, per);
            qn = occupancy(view, node, pn, per, 2 * per);
        }
        if ((double)qm * hm > (double)qn * hn + d->ugal_threshold) {
            port = pn;
            lo = st->hops <= 1 || here_nm ? 0 : per;
        }
    }
    out[0] = (struct rs_route_choice){port, lo, lo + per};
    return 1;
}

const struct rs_routing_ops rs_routing_ugal_l = {
    .name = "ugal_l",
    .summary = "dragonfly UGAL-L (Singh 2005): minimal or Valiant by first-channel occupancy x "
               "hops; flit engines, vcs >= 3",
    .needs = RS_CAP_DRAGONFLY,
    .mid = ugal_mid,
    .mid_openloop = ugal_mid_openloop,
    .choose = ugal_l_choose,
    .check_vcs = ugal_check_vcs,
};

const struct rs_routing_ops rs_routing_ugal_g = {
    .name = "ugal_g",
    .summary = "dragonfly UGAL-G: as ugal_l, with the occupancy of the path's global channel "
               "added; flit engines, vcs >= 3",
    .needs = RS_CAP_DRAGONFLY,
    .mid = ugal_mid,
    .mid_openloop = ugal_mid_openloop,
    .choose = ugal_g_choose,
    .check_vcs = ugal_check_vcs,
};

const struct rs_routing_ops rs_routing_par = {
    .name = "par",
    .summary = "dragonfly progressive adaptive routing (Jiang, Kim, Dally 2009): UGAL-L at the "
               "source router, re-decided once at the minimal global link's router; flit "
               "engines, vcs >= 4",
    .needs = RS_CAP_DRAGONFLY,
    .mid = ugal_mid,
    .mid_openloop = ugal_mid_openloop,
    .choose = par_choose,
    .check_vcs = par_check_vcs,
};
