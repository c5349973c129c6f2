/* The butterfly (Maggs & Sitaraman 004 §1.1): N = 2^n inputs, levels 0..n, node
 * <l, c_0...c_{n-1}> has id l*N + row where c_i is bit i of row. The straight edge (port 0)
 * goes to <l+1, row>, the cross edge (port 1) to <l+1, row ^ 2^l>: the edge from level l
 * fixes bit c_l. With wrap=1 level n is identified with level 0 (n levels, n*N nodes). */
#include "routesim/net.h"
#include "topo/topo_util.h"

static const struct rs_optdef butterfly_options[] = {
    {"N", RS_OPT_INT, "8", 2, 67108864, NULL, "inputs (a power of two)", "terminals"},
    {"wrap", RS_OPT_BOOL, "0", 0, 0, NULL, "identify level n with level 0 (wrap-around)", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static int butterfly_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int rc, wrap;
    if ((rc = rs__topo_read_pow2(p, butterfly_options, "butterfly", 1u << 26, &net->N,
                                 &net->log2n, err)) ||
        (rc = rs_opt_bool(p, butterfly_options, "wrap", &wrap, err)))
        return rc;
    uint64_t levels = net->log2n + (wrap ? 0 : 1);
    if ((uint64_t)net->N * levels >= UINT32_MAX / 2)
        return rs_err_set(err, RS_ECONSTRAINT, "topology=butterfly with N=%u is too large",
                          net->N);
    net->wrap = wrap;
    if (wrap)
        net->caps |= RS_CAP_WRAP;
    net->n_levels = (uint32_t)levels;
    net->n_nodes = (uint32_t)(levels * net->N);
    net->max_ports = 2;
    net->n_terminals = net->N;
    net->n_channels = 2ull * net->log2n * net->N;
    net->shape_k = 2;
    net->shape_n = net->log2n;
    return 0;
}

static uint32_t butterfly_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                                   uint32_t *in_slot)
{
    uint32_t l = (node >> net->log2n), row = (node & (net->N - 1));
    if (port > 1 || l >= net->log2n)
        return RS_NONE;
    if (in_slot)
        *in_slot = port;
    uint32_t nl = l + 1 == net->log2n && net->wrap ? 0 : l + 1;
    return nl * net->N + (port ? row ^ (1u << l) : row);
}

static uint32_t butterfly_src_node(const struct rs_net *net, uint32_t t)
{
    return t;
}

static uint32_t butterfly_dst_node(const struct rs_net *net, uint32_t t)
{
    return net->wrap ? t : net->log2n * net->N + t;
}

static int butterfly_level(const struct rs_net *net, uint32_t node)
{
    return (int)((node >> net->log2n));
}

static void butterfly_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    rs__topo_label_row(buf, n, (node >> net->log2n), (node & (net->N - 1)), net->log2n);
}

/* Bit-fixing (004 §1.1): from <l, row> take the edge that makes bit l agree with the
 * target. On the wrapped butterfly hops count the levels crossed and a route goes round
 * once (Valiant's two legs, round twice, are the routing layer's: 004 §2.2). */
static uint32_t butterfly_route(const struct rs_net *net, uint32_t node,
                                const struct rs_route_state *st)
{
    uint32_t row = (node & (net->N - 1)), l, target;
    if (!net->wrap) {
        l = (node >> net->log2n);
        if (l == net->log2n)
            return RS_ROUTE_DONE;
        return ((row ^ st->dst) >> l) & 1;
    }
    if (st->hops >= net->log2n)
        return RS_ROUTE_DONE;
    target = st->dst;
    l = st->hops;
    return ((row ^ target) >> l) & 1;
}

/* butterfly_route then butterfly_neighbor, sharing the level and row arithmetic. */
static uint32_t butterfly_next_hop(const struct rs_net *net, uint32_t node,
                                   const struct rs_route_state *st, uint32_t *port,
                                   uint32_t *in_slot)
{
    uint32_t l = node >> net->log2n, row = node & (net->N - 1), target = st->dst;
    if (!net->wrap) {
        if (l == net->log2n) {
            *port = RS_ROUTE_DONE;
            return RS_NONE;
        }
    } else {
        if (st->hops >= net->log2n) {
            *port = RS_ROUTE_DONE;
            return RS_NONE;
        }
        l = st->hops; /* equals the node's level */
    }
    uint32_t p = ((row ^ target) >> l) & 1;
    *port = p;
    *in_slot = p;
    uint32_t nl = l + 1 == net->log2n && net->wrap ? 0 : l + 1;
    return nl * net->N + (p ? row ^ (1u << l) : row);
}

/* n hops: one pass (Valiant on the wrapped butterfly makes two, one per leg). */
static uint32_t butterfly_path_length(const struct rs_net *net, const struct rs_route_state *st)
{
    (void)st;
    return net->log2n;
}

static int butterfly_valiant_ok(const struct rs_net *net, struct rs_err *err)
{
    if (!net->wrap)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "routing=valiant on a butterfly needs wrap=1 (004 §2.2) or "
                          "topology=benes");
    return 0;
}

/* Dateline classes: on the wrapped butterfly the channels out of level n-1 (back to level
 * 0) close the ring of levels, so they are class 1 and the others class 0 (the routing
 * layer adds bit 1 in Valiant's second pass). Without wrap-around there is no cycle. */
static uint32_t butterfly_vc_class(const struct rs_net *net, uint32_t node, uint32_t port,
                                   const struct rs_route_state *st)
{
    (void)port;
    (void)st;
    if (!net->wrap)
        return 0;
    return (node >> net->log2n) == net->log2n - 1;
}

const struct rs_topo_ops rs_topo_butterfly = {
    .name = "butterfly",
    .summary = "N-input butterfly, n+1 levels, straight and cross edges (004 §1.1)",
    .options = butterfly_options,
    .caps = RS_CAP_LEVELED | RS_CAP_BUTTERFLY,
    .build = butterfly_build,
    .neighbor = butterfly_neighbor,
    .src_node = butterfly_src_node,
    .dst_node = butterfly_dst_node,
    .level = butterfly_level,
    .label = butterfly_label,
    .route = butterfly_route,
    .valiant_ok = butterfly_valiant_ok,
    .valiant_via_terminal = 1,
    .path_length = butterfly_path_length,
    .next_hop = butterfly_next_hop,
    .vc_class = butterfly_vc_class,
};
