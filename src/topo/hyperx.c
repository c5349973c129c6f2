/* topology=hyperx (Ahn, Binkert, Davis, McLaren, Schreiber 2009) and its regular case
 * topology=flattened_butterfly (Kim, Dally, Abts 2007: the k-ary n-flat): routers at the
 * points of an L-dimensional lattice S_0 x ... x S_{L-1}, each joined by one channel each
 * way to every router that differs from it in exactly one coordinate (all-to-all in each
 * dimension, trunking K = 1), T terminals per router. Dimension-order routing: one hop per
 * dimension whose coordinate differs, dimension 0 first; Valiant through the routing layer
 * (two such routes joined at a random terminal); minimal adaptive (any differing dimension
 * first) over dimension order as the escape, src/route/min_adaptive.c. docs/topologies.md. */
#include <stdio.h>

#include "routesim/alloc.h"
#include "routesim/net.h"
#include "topo/topo_util.h"

#define HX_MAX_DIMS 8
#define HX_MAX_SIZE 256
#define HX_MAX_TERMINALS (1u << 26)

struct hyperx {
    uint32_t L;                   /* dimensions */
    uint32_t S[HX_MAX_DIMS];      /* routers per dimension */
    uint32_t stride[HX_MAX_DIMS]; /* router id = sum x_i stride_i, stride_0 = 1 */
    uint32_t port0[HX_MAX_DIMS];  /* first port of dimension i: sum_{j<i} (S_j - 1) */
    uint32_t T;                   /* terminals per router */
};

static const struct rs_optdef hyperx_options[] = {
    {"S", RS_OPT_LIST, "4,4", 0, 0, NULL,
     "routers per dimension, one value per dimension (4,4 is a 4x4 HyperX; 2..256, at most 8 "
     "dimensions)", "routers"},
    {"T", RS_OPT_INT, "1", 1, 256, NULL, "terminals per router (concentration)", "terminals"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const struct rs_optdef fbfly_options[] = {
    {"k", RS_OPT_INT, "4", 2, 256, NULL,
     "radix of the butterfly flattened: k routers per dimension and k terminals per router",
     "ports"},
    {"n", RS_OPT_INT, "2", 2, 9, NULL,
     "stages of the k-ary n-fly flattened: n-1 dimensions, N = k^n terminals", "levels"},
    {"c", RS_OPT_INT, "0", 0, 256, NULL, "terminals per router (0: k, as in the k-ary n-flat)",
     "terminals"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* Fill net and its struct hyperx from L sizes S and T terminals per router. */
static int hx_setup(struct rs_net *net, const uint32_t *S, uint32_t L, uint32_t T,
                    const char *topo, struct rs_err *err)
{
    uint64_t R = 1;
    for (uint32_t i = 0; i < L; i++)
        R *= S[i];
    if (R * T > HX_MAX_TERMINALS)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=%s needs at most 2^26 terminals (got %llu routers x %u)",
                          topo, (unsigned long long)R, T);
    struct hyperx *h = rs_calloc(1, sizeof *h);
    if (!h)
        return rs_err_set(err, RS_ENOMEM, "topology=%s: out of memory", topo);
    h->L = L;
    h->T = T;
    uint32_t stride = 1, port = 0;
    for (uint32_t i = 0; i < L; i++) {
        h->S[i] = S[i];
        h->stride[i] = stride;
        h->port0[i] = port;
        stride *= S[i];
        port += S[i] - 1;
    }
    net->priv = h;
    net->dims = L;
    net->k = S[0];
    net->n_nodes = (uint32_t)R;
    net->max_ports = port;
    net->n_terminals = (uint32_t)R * T;
    net->N = net->n_terminals;
    net->n_channels = R * port;
    int equal = 1;
    for (uint32_t i = 1; i < L; i++)
        equal = equal && S[i] == S[0];
    if (equal && T == 1) { /* terminal addresses = router coordinates: digit traffic works */
        net->shape_k = S[0];
        net->shape_n = L;
    }
    return 0;
}

static int hyperx_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    uint32_t S[HX_MAX_DIMS], L;
    int64_t T;
    int rc = rs__topo_read_list(p, hyperx_options, "S", 2, HX_MAX_SIZE, HX_MAX_DIMS, S, &L, err);
    if (rc || (rc = rs_opt_int(p, hyperx_options, "T", &T, err)))
        return rc;
    return hx_setup(net, S, L, (uint32_t)T, "hyperx", err);
}

static int fbfly_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int64_t k, n, c;
    int rc;
    if ((rc = rs_opt_int(p, fbfly_options, "k", &k, err)) ||
        (rc = rs_opt_int(p, fbfly_options, "n", &n, err)) ||
        (rc = rs_opt_int(p, fbfly_options, "c", &c, err)))
        return rc;
    uint32_t S[HX_MAX_DIMS];
    for (int64_t i = 0; i + 1 < n; i++)
        S[i] = (uint32_t)k;
    return hx_setup(net, S, (uint32_t)(n - 1), c ? (uint32_t)c : (uint32_t)k,
                    "flattened_butterfly", err);
}

static void hx_destroy(struct rs_net *net)
{
    rs_free(net->priv);
    net->priv = NULL;
}

/* Port p of dimension i (p - port0_i = j in 0..S_i-2) goes to the router whose coordinate i
 * is j when j < x_i, else j + 1 (every other value, in increasing order); it enters there at
 * the port that leads back. */
static uint32_t hx_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                            uint32_t *in_slot)
{
    const struct hyperx *h = net->priv;
    for (uint32_t i = h->L; i-- > 0;) {
        if (port < h->port0[i])
            continue;
        uint32_t j = port - h->port0[i];
        if (j + 1 >= h->S[i])
            return RS_NONE;
        uint32_t x = node / h->stride[i] % h->S[i], y = j < x ? j : j + 1;
        if (in_slot)
            *in_slot = h->port0[i] + (x < y ? x : x - 1);
        return node + (y - x) * h->stride[i];
    }
    return RS_NONE;
}

static uint32_t hx_src_node(const struct rs_net *net, uint32_t t)
{
    return t / ((const struct hyperx *)net->priv)->T;
}

static int hx_level(const struct rs_net *net, uint32_t node)
{
    (void)net;
    (void)node;
    return -1;
}

/* "(x_0,x_1,...)" */
static void hx_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    const struct hyperx *h = net->priv;
    int len = snprintf(buf, n, "(");
    for (uint32_t i = 0; i < h->L && len > 0 && (size_t)len < n; i++)
        len += snprintf(buf + len, n - (size_t)len, "%s%u", i ? "," : "",
                        node / h->stride[i] % h->S[i]);
    if (len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, ")");
}

/* Dimension order: the port to the target's coordinate in the lowest dimension that
 * differs; RS_ROUTE_DONE at the target's router. */
static uint32_t hx_route(const struct rs_net *net, uint32_t node, const struct rs_route_state *st)
{
    const struct hyperx *h = net->priv;
    uint32_t target = st->dst / h->T;
    for (uint32_t i = 0; i < h->L; i++) {
        uint32_t x = node / h->stride[i] % h->S[i], y = target / h->stride[i] % h->S[i];
        if (x != y)
            return h->port0[i] + (y < x ? y : y - 1);
    }
    return RS_ROUTE_DONE;
}

/* Hops between routers u and v: the number of coordinates in which they differ. */
static uint32_t hx_distance(const struct rs_net *net, uint32_t u, uint32_t v)
{
    const struct hyperx *h = net->priv;
    uint32_t d = 0;
    for (uint32_t i = 0; i < h->L; i++)
        d += u / h->stride[i] % h->S[i] != v / h->stride[i] % h->S[i];
    return d;
}

/* Productive ports at router node toward router target: per dimension that differs, the
 * one port to the target's coordinate (every minimal route takes exactly these hops, in
 * any order); increasing port order, as dimensions are. routing=min_adaptive's adaptive
 * choices, with hx_route (dimension order) as its escape (docs/routing.md). */
static uint32_t hx_productive(const struct rs_net *net, uint32_t node, uint32_t target,
                              uint32_t *ports)
{
    const struct hyperx *h = net->priv;
    uint32_t n = 0;
    for (uint32_t i = 0; i < h->L; i++) {
        uint32_t x = node / h->stride[i] % h->S[i], y = target / h->stride[i] % h->S[i];
        if (x != y)
            ports[n++] = h->port0[i] + (y < x ? y : y - 1);
    }
    return n;
}

static uint32_t hx_path_length(const struct rs_net *net, const struct rs_route_state *st)
{
    const struct hyperx *h = net->priv;
    return hx_distance(net, st->src / h->T, st->dst / h->T);
}

/* Valiant's legs are two dimension-order routes joined at a terminal (the layer's). */
static int hx_valiant_ok(const struct rs_net *net, struct rs_err *err)
{
    (void)net;
    (void)err;
    return 0;
}

/* The two entries differ in name, summary, keys and build only. */
#define HX_OPS(NAME, SUMMARY, OPTIONS, BUILD)                                                 \
    const struct rs_topo_ops rs_topo_##NAME = {                                               \
        .name = #NAME,                                                                        \
        .summary = SUMMARY,                                                                   \
        .options = OPTIONS,                                                                   \
        .caps = RS_CAP_MIN_ESCAPE,                                                            \
        .build = BUILD,                                                                       \
        .destroy = hx_destroy,                                                                \
        .neighbor = hx_neighbor,                                                              \
        .src_node = hx_src_node,                                                              \
        .dst_node = hx_src_node,                                                              \
        .level = hx_level,                                                                    \
        .label = hx_label,                                                                    \
        .route = hx_route,                                                                    \
        .valiant_ok = hx_valiant_ok,                                                          \
        .valiant_via_terminal = 1,                                                            \
        .path_length = hx_path_length,                                                        \
        .distance = hx_distance,                                                              \
        .productive = hx_productive,                                                          \
    };

HX_OPS(hyperx,
       "HyperX: routers on an S_0 x ... x S_{L-1} lattice, all-to-all in each dimension, T "
       "terminals per router, dimension-order routing",
       hyperx_options, hyperx_build)
HX_OPS(flattened_butterfly,
       "k-ary n-flat (flattened butterfly): the HyperX of n-1 dimensions of k routers with k "
       "terminals each, dimension-order routing",
       fbfly_options, fbfly_build)
