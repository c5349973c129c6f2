/* k-ary n-dimensional meshes and tori (BookSim's k and n; 8x8 is k=8 n=2), their
 * one-dimensional cases chain (mesh) and ring (torus), and the binary n-cube hypercube (the
 * mesh with k = 2, whose routing is e-cube: lowest dimension first), with c terminals per router
 * (concentration; unset: 1). Node id = sum x_i k^i (dimension 0 varies fastest); terminal t
 * is on node t / c (t itself when c = 1). Port 2i goes +1 in dimension i, port 2i+1 goes -1;
 * a channel enters its head at the in-slot of the head's port pointing back (+i at 2i+1,
 * -i at 2i). Routing is dimension order (docs/routing.md). */
#include <stdio.h>

#include "routesim/alloc.h"
#include "routesim/net.h"

#define MESH_MAX_NODES (1u << 26)

/* net->priv when c > 1 (NULL when c = 1, so that the routes of an unconcentrated network
 * take no division) */
struct grid_conc {
    uint32_t c; /* terminals per router */
};

/* c: no default in the table, so that an unset key adds no column to records (the
 * reproductions' bytes); unset means 1 */
#define CONC_OPT                                                                             \
    {"c", RS_OPT_INT, NULL, 1, 256, NULL,                                                    \
     "terminals per router (concentration; 1 when unset): terminal t on router t / c", "terminals"}

static const struct rs_optdef mesh_options[] = {
    {"k", RS_OPT_INT, "8", 2, 67108864, NULL, "nodes per dimension", "nodes"},
    {"n", RS_OPT_INT, "2", 1, 12, NULL, "dimensions", "dimensions"},
    CONC_OPT,
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const struct rs_optdef cube_options[] = {
    {"n", RS_OPT_INT, "6", 1, 26, NULL, "dimensions (2^n nodes)", "dimensions"},
    CONC_OPT,
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const struct rs_optdef line_options[] = {
    {"k", RS_OPT_INT, "8", 2, 67108864, NULL, "nodes", "nodes"},
    CONC_OPT,
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* torus_tie: the direction at distance k/2 (rs_coord_step, docs/routing.md) */
static const char *const tie_names[] = {"plus", "split", NULL};
#define TIE_OPT                                                                              \
    {"torus_tie", RS_OPT_CHOICE, NULL, 0, 0, tie_names,                                      \
     "direction at distance k/2: plus (always +; the default when unset) or split (+ from " \
     "even, - from odd coordinates)", "-"}

static const struct rs_optdef torus_options[] = {
    {"k", RS_OPT_INT, "8", 2, 67108864, NULL, "nodes per dimension", "nodes"},
    {"n", RS_OPT_INT, "2", 1, 12, NULL, "dimensions", "dimensions"},
    CONC_OPT,
    TIE_OPT,
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const struct rs_optdef ring_options[] = {
    {"k", RS_OPT_INT, "8", 2, 67108864, NULL, "nodes", "nodes"},
    CONC_OPT,
    TIE_OPT,
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* one_dim: 1 (chain, ring: k only), 0 (mesh, torus: k and n) or -1 (hypercube: n, k = 2) */
static int grid_build(struct rs_net *net, const struct rs_params *p, int wrap, int one_dim,
                      struct rs_err *err)
{
    int64_t k = 2, n = 1, c = 1;
    int tie = RS_TIE_PLUS;
    const struct rs_optdef *opts = one_dim < 0 ? cube_options
                                   : wrap      ? (one_dim ? ring_options : torus_options)
                                               : (one_dim ? line_options : mesh_options);
    int rc = one_dim < 0 ? 0 : rs_opt_int(p, opts, "k", &k, err);
    if (!rc && one_dim <= 0)
        rc = rs_opt_int(p, opts, "n", &n, err);
    /* no default in the table, so that an unset key adds no column to records (the
     * reproductions' bytes); unset means plus */
    if (!rc && wrap && rs_params_find(p, "torus_tie"))
        rc = rs_opt_choice(p, opts, "torus_tie", &tie, err);
    if (!rc && rs_params_find(p, "c"))
        rc = rs_opt_int(p, opts, "c", &c, err);
    if (rc)
        return rc;
    uint64_t nodes = 1;
    for (int64_t i = 0; i < n; i++) {
        nodes *= (uint64_t)k;
        if (nodes > MESH_MAX_NODES)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "topology=%s needs k^n <= 2^26 nodes (got k=%lld n=%lld)",
                              net->name, (long long)k, (long long)n);
    }
    if (nodes * (uint64_t)c > MESH_MAX_NODES)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=%s needs k^n c <= 2^26 terminals (got k=%lld n=%lld c=%lld)",
                          net->name, (long long)k, (long long)n, (long long)c);
    if (c > 1) {
        struct grid_conc *g = rs_malloc(sizeof *g);
        if (!g)
            return rs_err_set(err, RS_ENOMEM, "topology=%s: out of memory", net->name);
        g->c = (uint32_t)c;
        net->priv = g;
    }
    net->k = (uint32_t)k;
    net->dims = (uint32_t)n;
    net->wrap = wrap;
    net->tie = (uint32_t)tie;
    net->n_nodes = (uint32_t)nodes;
    net->max_ports = 2 * net->dims;
    net->n_terminals = net->n_nodes * (uint32_t)c;
    net->N = net->n_terminals;
    /* per dimension: k-1 (mesh) or k (torus) links per line, both directions */
    net->n_channels = 2ull * net->dims * (nodes / (uint64_t)k) * (uint64_t)(wrap ? k : k - 1);
    if (c == 1) { /* terminal addresses = node coordinates: digit traffic works */
        net->shape_k = net->k;
        net->shape_n = net->dims;
    }
    return 0;
}

static void grid_destroy(struct rs_net *net)
{
    rs_free(net->priv);
    net->priv = NULL;
}

static int mesh_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    return grid_build(net, p, 0, 0, err);
}

static int torus_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    return grid_build(net, p, 1, 0, err);
}

static int chain_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    return grid_build(net, p, 0, 1, err);
}

static int ring_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    return grid_build(net, p, 1, 1, err);
}

static int hypercube_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    return grid_build(net, p, 0, -1, err);
}

/* k^i */
static uint32_t stride(const struct rs_net *net, uint32_t dim)
{
    uint32_t s = 1;
    for (uint32_t i = 0; i < dim; i++)
        s *= net->k;
    return s;
}

static uint32_t grid_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                              uint32_t *in_slot)
{
    if (port >= net->max_ports)
        return RS_NONE;
    uint32_t dim = port / 2, s = stride(net, dim);
    uint32_t x = (node / s) % net->k;
    uint32_t nx;
    if (port % 2 == 0)
        nx = x + 1 < net->k ? x + 1 : (net->wrap ? 0 : RS_NONE);
    else
        nx = x > 0 ? x - 1 : (net->wrap ? net->k - 1 : RS_NONE);
    if (nx == RS_NONE)
        return RS_NONE;
    if (in_slot)
        *in_slot = port ^ 1u;
    return node - x * s + nx * s;
}

/* Node of terminal t: t / c. */
static inline uint32_t grid_terminal_node(const struct rs_net *net, uint32_t t)
{
    const struct grid_conc *g = net->priv;
    return g ? t / g->c : t;
}

static int grid_level(const struct rs_net *net, uint32_t node)
{
    return -1;
}

static void grid_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    int len = snprintf(buf, n, "(");
    for (uint32_t i = 0; i < net->dims && len > 0 && (size_t)len < n; i++) {
        len += snprintf(buf + len, n - (size_t)len, "%s%u", i ? "," : "", node % net->k);
        node /= net->k;
    }
    if (len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, ")");
}

/* Hops from coordinate a to b in one dimension and the direction taken: rs_coord_step
 * (on a torus the shorter way round, ties by net->tie). */
static uint32_t dim_step(const struct rs_net *net, uint32_t a, uint32_t b, int *dir)
{
    return rs_coord_step(net, a, b, dir);
}

/* Dimension-order distance between two nodes. */
static uint32_t grid_dist(const struct rs_net *net, uint32_t u, uint32_t v)
{
    uint32_t d = 0;
    int dir;
    for (uint32_t i = 0; i < net->dims; i++) {
        d += dim_step(net, u % net->k, v % net->k, &dir);
        u /= net->k;
        v /= net->k;
    }
    return d;
}

/* Productive ports: per dimension whose coordinate differs, the direction(s) of a shortest
 * way (both on a torus when the two ways round are equally long). Increasing port order. */
static uint32_t grid_productive(const struct rs_net *net, uint32_t node, uint32_t target,
                                uint32_t *ports)
{
    uint32_t n = 0, u = node, v = target;
    for (uint32_t i = 0; i < net->dims; i++) {
        uint32_t a = u % net->k, b = v % net->k;
        int dir;
        uint32_t d = dim_step(net, a, b, &dir);
        if (d) {
            int tie = net->wrap && 2 * d == net->k; /* both ways round are shortest */
            if (dir > 0 || tie)
                ports[n++] = 2 * i;
            if (dir < 0 || tie)
                ports[n++] = 2 * i + 1;
        }
        u /= net->k;
        v /= net->k;
    }
    return n;
}

/* Dimension order: correct dimension 0 first, then 1, ... toward dst (Valiant's legs are
 * the routing layer's, rs_route_leg). */
static uint32_t grid_route(const struct rs_net *net, uint32_t node,
                           const struct rs_route_state *st)
{
    uint32_t u = node, v = grid_terminal_node(net, st->dst);
    for (uint32_t i = 0; i < net->dims; i++) {
        int dir;
        if (dim_step(net, u % net->k, v % net->k, &dir))
            return 2 * i + (dir > 0 ? 0 : 1);
        u /= net->k;
        v /= net->k;
    }
    return RS_ROUTE_DONE;
}

/* grid_route then grid_neighbor in one pass over the dimensions (the engines' hot path):
 * the first dimension whose coordinate differs, its direction, and the node one step along
 * it (wrapping on a torus). */
static uint32_t grid_next_hop(const struct rs_net *net, uint32_t node,
                              const struct rs_route_state *st, uint32_t *port, uint32_t *in_slot)
{
    const uint32_t k = net->k;
    uint32_t u = node, v = grid_terminal_node(net, st->dst), s = 1;
    for (uint32_t i = 0; i < net->dims; i++) {
        uint32_t a = u % k;
        int dir;
        if (dim_step(net, a, v % k, &dir)) {
            uint32_t p = 2 * i + (dir > 0 ? 0 : 1);
            uint32_t nx = dir > 0 ? (a + 1 < k ? a + 1 : 0) : (a > 0 ? a - 1 : k - 1);
            *port = p;
            *in_slot = p ^ 1u;
            return node - a * s + nx * s;
        }
        u /= k;
        v /= k;
        s *= k;
    }
    *port = RS_ROUTE_DONE;
    return RS_NONE;
}

/* Dimension order is minimal: the distance. */
static uint32_t grid_path_length(const struct rs_net *net, const struct rs_route_state *st)
{
    return grid_dist(net, grid_terminal_node(net, st->src), grid_terminal_node(net, st->dst));
}

/* Dateline classes (Dally & Seitz): in each ring of a torus a message uses class 0 until it
 * crosses the wrap-around channel (from coordinate k-1 to 0 going +, 0 to k-1 going -) and
 * class 1 on it and after it, so the channels of one class never close a cycle; dimension
 * order forbids cycles across dimensions. The ring starts at the leg's source (Valiant's
 * second leg starts again from class 0; the routing layer adds its phase bit 1). */
static uint32_t grid_vc_class(const struct rs_net *net, uint32_t node, uint32_t port,
                              const struct rs_route_state *st)
{
    if (!net->wrap)
        return 0;
    uint32_t s = stride(net, port / 2);
    uint32_t x = (node / s) % net->k, x0 = (grid_terminal_node(net, st->src) / s) % net->k;
    int crossed = port % 2 == 0 ? (x < x0 || x == net->k - 1) : (x > x0 || x == 0);
    return (uint32_t)crossed;
}

#define GRID_OPS(id, nm, sum, opts, builder, cap)                                            \
    const struct rs_topo_ops id = {                                                          \
        .name = nm,                                                                          \
        .summary = sum,                                                                      \
        .options = opts,                                                                     \
        .caps = RS_CAP_COORDS | RS_CAP_MIN_ESCAPE | (cap),                                   \
        .build = builder,                                                                    \
        .destroy = grid_destroy,                                                             \
        .neighbor = grid_neighbor,                                                           \
        .src_node = grid_terminal_node,                                                      \
        .dst_node = grid_terminal_node,                                                      \
        .level = grid_level,                                                                 \
        .label = grid_label,                                                                 \
        .route = grid_route,                                                                 \
        .next_hop = grid_next_hop,                                                           \
        .valiant_ok = NULL,                                                                  \
        .valiant_via_terminal = 1,                                                           \
        .path_length = grid_path_length,                                                     \
        .vc_class = grid_vc_class,                                                           \
        .distance = grid_dist,                                                               \
        .productive = grid_productive,                                                       \
    };

GRID_OPS(rs_topo_mesh, "mesh", "k-ary n-dimensional mesh, dimension-order routing",
         mesh_options, mesh_build, 0)
GRID_OPS(rs_topo_torus, "torus", "k-ary n-dimensional torus, dimension-order routing",
         torus_options, torus_build, RS_CAP_WRAP)
GRID_OPS(rs_topo_chain, "chain", "chain (linear array) of k nodes", line_options, chain_build, 0)
GRID_OPS(rs_topo_hypercube, "hypercube",
         "binary n-cube (the mesh with k=2), e-cube routing (lowest dimension first)",
         cube_options, hypercube_build, 0)
GRID_OPS(rs_topo_ring, "ring", "ring of k nodes, shortest direction (ties: torus_tie)",
         ring_options, ring_build, RS_CAP_WRAP)
