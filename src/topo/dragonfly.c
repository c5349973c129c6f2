/* topology=dragonfly (Kim, Dally, Scott, Abts 2008): g groups of a routers, each router with
 * p terminals, a-1 local links (the group is a complete graph) and h global links, arranged
 * absolute, relative or circulant. Its route is minimal (local, global, local), or with
 * st->mid Valiant through the group of terminal mid in one pass; its VC classes count the
 * global channels crossed. Numbering: include/routesim/dragonfly.h; docs/topologies.md. */
#include <stdio.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/dragonfly.h"

#define DFLY_MAX_NODES (1u << 26)
#define DFLY_MAX_PORTS 4096

static const char *const arrangement_names[] = {"absolute", "relative", "circulant", NULL};

static const struct rs_optdef dfly_options[] = {
    {"p", RS_OPT_INT, "2", 1, 1024, NULL, "terminals per router", "terminals"},
    {"a", RS_OPT_INT, NULL, 1, 1024, NULL, "routers per group (default 2p, balanced)", "routers"},
    {"h", RS_OPT_INT, NULL, 1, 1024, NULL, "global links per router (default a/2, at least 1)",
     "channels"},
    {"g", RS_OPT_INT, NULL, 2, 1u << 20, NULL,
     "groups (default a*h+1, the most; a*h must be a multiple of g-1)", "groups"},
    {"arrangement", RS_OPT_CHOICE, "absolute", 0, 0, arrangement_names,
     "global links: absolute, relative (SST/Merlin's global_route_mode) or circulant "
     "(group G to G+1, G-1, G+2, G-2, ...; needs g = a*h+1)", "-"},
    {"ugal_threshold", RS_OPT_DOUBLE, "0", -1e6, 1e6, NULL,
     "UGAL bias T in flits: minimal unless q_min*H_min > q_nm*H_nm + T (routing=ugal_l, "
     "ugal_g)", "flits"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

uint32_t rs_dfly_peer(const struct rs_dfly *d, uint32_t G, uint32_t k)
{
    RS_DASSERT(G < d->g && k < d->a * d->h);
    if (d->arrangement == RS_DFLY_CIRCULANT) {
        uint32_t o = k / 2 + 1;
        return k % 2 == 0 ? (G + o) % d->g : (G + d->g - o) % d->g;
    }
    uint32_t x = k % (d->g - 1);
    if (d->arrangement == RS_DFLY_RELATIVE)
        return (G + x + 1) % d->g;
    return x < G ? x : x + 1;
}

uint32_t rs_dfly_link_to(const struct rs_dfly *d, uint32_t G, uint32_t D, uint32_t lane)
{
    RS_DASSERT(G < d->g && D < d->g && G != D && lane < d->par);
    if (d->arrangement == RS_DFLY_CIRCULANT) {
        uint32_t o = (D + d->g - G) % d->g;
        return o <= d->g / 2 ? 2 * (o - 1) : 2 * (d->g - o - 1) + 1;
    }
    uint32_t x = d->arrangement == RS_DFLY_RELATIVE ? (D + d->g - G - 1) % d->g
                                                    : (D < G ? D : D - 1);
    return lane * (d->g - 1) + x;
}

uint32_t rs_dfly_lane(const struct rs_dfly *d, uint32_t k)
{
    return d->arrangement == RS_DFLY_CIRCULANT ? 0 : k / (d->g - 1);
}

uint32_t rs_dfly_port_to_group(const struct rs_dfly *d, uint32_t v, uint32_t D, uint32_t lane)
{
    uint32_t k = rs_dfly_link_to(d, rs_dfly_group(d, v), D, lane), r = rs_dfly_index(d, v);
    return k / d->h == r ? rs_dfly_gport0(d) + k % d->h : rs_dfly_local_port(d, r, k / d->h);
}

uint32_t rs_dfly_port_to_term(const struct rs_dfly *d, uint32_t v, uint32_t t)
{
    uint32_t rt = rs_dfly_term_router(d, t);
    return rt == v ? t % d->p : rs_dfly_local_port(d, rs_dfly_index(d, v), rs_dfly_index(d, rt));
}

static int dfly_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int64_t P, A, H, Gn;
    int arr, rc;
    double thr;
    if ((rc = rs_opt_int(p, dfly_options, "p", &P, err)))
        return rc;
    A = 2 * P;
    if (rs_params_find(p, "a") && (rc = rs_opt_int(p, dfly_options, "a", &A, err)))
        return rc;
    H = A / 2 > 0 ? A / 2 : 1;
    if (rs_params_find(p, "h") && (rc = rs_opt_int(p, dfly_options, "h", &H, err)))
        return rc;
    Gn = A * H + 1;
    if (rs_params_find(p, "g") && (rc = rs_opt_int(p, dfly_options, "g", &Gn, err)))
        return rc;
    if ((rc = rs_opt_choice(p, dfly_options, "arrangement", &arr, err)) ||
        (rc = rs_opt_double(p, dfly_options, "ugal_threshold", &thr, err)))
        return rc;
    if (A > 1024 || H > 1024 || Gn < 2 || Gn > A * H + 1 || (A * H) % (Gn - 1) != 0)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=dragonfly needs 2 <= g <= a*h+1 with a*h a multiple of g-1 "
                          "(every global link used, the same number between any two groups; "
                          "got a=%lld h=%lld g=%lld)",
                          (long long)A, (long long)H, (long long)Gn);
    if (arr == RS_DFLY_CIRCULANT && Gn != A * H + 1)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=dragonfly arrangement=circulant needs g = a*h+1 (one link "
                          "between any two groups; got a=%lld h=%lld g=%lld)",
                          (long long)A, (long long)H, (long long)Gn);
    uint64_t terms = (uint64_t)P * A * Gn, nodes = terms + (uint64_t)A * Gn;
    uint64_t ports = (uint64_t)P + A - 1 + H;
    if (nodes > DFLY_MAX_NODES || ports > DFLY_MAX_PORTS || nodes * ports >= UINT32_MAX / 2)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=dragonfly too large: %llu nodes of %llu ports (at most 2^26 "
                          "nodes, 4096 ports, 2^31 channel ids)",
                          (unsigned long long)nodes, (unsigned long long)ports);
    struct rs_dfly *d = rs_calloc(1, sizeof *d);
    if (!d)
        return rs_err_set(err, RS_ENOMEM, "topology=dragonfly: out of memory");
    d->p = (uint32_t)P;
    d->a = (uint32_t)A;
    d->h = (uint32_t)H;
    d->g = (uint32_t)Gn;
    d->arrangement = (uint32_t)arr;
    d->par = (uint32_t)(A * H / (Gn - 1));
    d->N = (uint32_t)terms;
    d->ugal_threshold = thr;
    net->priv = d;
    net->n_terminals = d->N;
    net->N = d->N;
    net->n_nodes = (uint32_t)nodes;
    net->max_ports = (uint32_t)ports;
    /* terminal links both ways, the complete graph of each group, the global links */
    net->n_channels = 2 * terms + (uint64_t)Gn * A * (A - 1) + (uint64_t)Gn * A * H;
    net->k = d->a;
    net->dims = d->g;
    /* the engines' split (dfly_part_pos): a group, else a router with its terminals */
    net->part_unit[0] = d->a * (d->p + 1);
    net->part_unit[1] = d->p + 1;
    return 0;
}

static void dfly_destroy(struct rs_net *net)
{
    rs_free(net->priv);
}

static uint32_t dfly_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                              uint32_t *in_slot)
{
    const struct rs_dfly *d = net->priv;
    uint32_t slot, head;
    if (node < d->N) { /* a terminal: port 0 to its router, at the router's port t mod p */
        if (port != 0)
            return RS_NONE;
        slot = node % d->p;
        head = rs_dfly_term_router(d, node);
    } else if (port < d->p) { /* down to a terminal */
        slot = 0;
        head = (node - d->N) * d->p + port;
    } else if (port < rs_dfly_gport0(d)) { /* local */
        uint32_t r = rs_dfly_index(d, node), i = port - d->p, r2 = i < r ? i : i + 1;
        slot = rs_dfly_local_port(d, r2, r);
        head = node - r + r2;
    } else if (port < net->max_ports) { /* global */
        uint32_t G = rs_dfly_group(d, node);
        uint32_t k = rs_dfly_index(d, node) * d->h + (port - rs_dfly_gport0(d));
        uint32_t D = rs_dfly_peer(d, G, k);
        uint32_t back = rs_dfly_link_to(d, D, G, rs_dfly_lane(d, k));
        slot = rs_dfly_gport0(d) + back % d->h;
        head = d->N + D * d->a + back / d->h;
    } else {
        return RS_NONE;
    }
    if (in_slot)
        *in_slot = slot;
    return head;
}

static uint32_t dfly_src_node(const struct rs_net *net, uint32_t t)
{
    return t;
}

static int dfly_level(const struct rs_net *net, uint32_t node)
{
    return -1;
}

static void dfly_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    const struct rs_dfly *d = net->priv;
    if (node < d->N)
        snprintf(buf, n, "t%u.%u.%u", rs_dfly_term_group(d, node), node / d->p % d->a,
                 node % d->p);
    else
        snprintf(buf, n, "r%u.%u", rs_dfly_group(d, node), rs_dfly_index(d, node));
}

/* The engines' partition order (rs_topo_ops.part_pos): router r (node N + r) at position
 * r (p + 1), its terminals r p + i right after it at r (p + 1) + 1 + i, so that a group is
 * a(p + 1) consecutive positions and a range of groups holds their terminals. */
static uint32_t dfly_part_pos(const struct rs_net *net, uint32_t node)
{
    const struct rs_dfly *d = net->priv;
    if (node >= d->N)
        return (node - d->N) * (d->p + 1);
    return node / d->p * (d->p + 1) + 1 + node % d->p;
}

/* The node at position pos (the inverse of dfly_part_pos). */
static uint32_t dfly_part_node(const struct rs_net *net, uint32_t pos)
{
    const struct rs_dfly *d = net->priv;
    uint32_t r = pos / (d->p + 1), i = pos % (d->p + 1);
    return i == 0 ? d->N + r : r * d->p + i - 1;
}

/* Valiant's intermediate group of st: the group of terminal st->mid when that is neither the
 * source's nor the destination's group; RS_NONE otherwise (the route is minimal). */
static uint32_t valiant_group(const struct rs_dfly *d, const struct rs_route_state *st)
{
    if (st->mid == RS_NONE)
        return RS_NONE;
    uint32_t Gi = rs_dfly_term_group(d, st->mid), Gs = rs_dfly_term_group(d, st->src),
             Gd = rs_dfly_term_group(d, st->dst);
    return Gi == Gs || Gi == Gd ? RS_NONE : Gi;
}

/* Minimal: in the destination group straight to the destination's router, elsewhere to the
 * router holding the link to the next group on lane src mod par, then over it. Valiant: the
 * next group is the intermediate group while in the source group. */
static uint32_t dfly_route(const struct rs_net *net, uint32_t node, const struct rs_route_state *st)
{
    const struct rs_dfly *d = net->priv;
    if (node < d->N)
        return node == st->dst ? RS_ROUTE_DONE : 0;
    uint32_t G = rs_dfly_group(d, node), Gd = rs_dfly_term_group(d, st->dst);
    if (G == Gd)
        return rs_dfly_port_to_term(d, node, st->dst);
    uint32_t Gi = valiant_group(d, st);
    uint32_t next = Gi != RS_NONE && G == rs_dfly_term_group(d, st->src) ? Gi : Gd;
    return rs_dfly_port_to_group(d, node, next, st->src % d->par);
}

/* Global channels crossed before channel (node, port): 0 in the source group, 1 in the
 * intermediate group, 1 (minimal) or 2 (Valiant) in the destination group. Along every route
 * the class never drops and a global channel is followed by a higher class, so with one VC
 * set per class (vc_classes=dateline) no cycle of channel dependencies exists. */
static uint32_t dfly_vc_class(const struct rs_net *net, uint32_t node, uint32_t port,
                              const struct rs_route_state *st)
{
    const struct rs_dfly *d = net->priv;
    (void)port;
    if (node < d->N)
        return 0;
    uint32_t G = rs_dfly_group(d, node), Gs = rs_dfly_term_group(d, st->src);
    if (G == Gs)
        return 0;
    uint32_t Gi = valiant_group(d, st);
    return Gi == RS_NONE || G == Gi ? 1 : 2;
}

const struct rs_topo_ops rs_topo_dragonfly = {
    .name = "dragonfly",
    .summary = "dragonfly (Kim et al. 2008): g groups of a routers, p terminals and h global "
               "links per router",
    .options = dfly_options,
    .caps = RS_CAP_DRAGONFLY,
    .build = dfly_build,
    .destroy = dfly_destroy,
    .neighbor = dfly_neighbor,
    .src_node = dfly_src_node,
    .dst_node = dfly_src_node,
    .level = dfly_level,
    .label = dfly_label,
    .route = dfly_route,
    .valiant_via_terminal = 0,
    .vc_class = dfly_vc_class,
    .part_pos = dfly_part_pos,
    .part_node = dfly_part_node,
};
