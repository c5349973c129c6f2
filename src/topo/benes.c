/* The Beneš network as two back-to-back butterflies sharing level n: levels 0..2n, node id
 * level*N + row. For l < n the cross edge out of level l flips bit l; for n <= l < 2n it
 * flips bit 2n-1-l, so the second half fixes the bits in the reverse order. */
#include "routesim/net.h"
#include "routesim/rng.h"
#include "topo/topo_util.h"

/* N <= 2^25 (not 2^26 as for the butterfly): engines number queues node*max_ports + slot
 * in 32 bits, and (2n+1)N nodes times 2 ports only fit below 2^32 up to N = 2^25. */
static const struct rs_optdef benes_options[] = {
    {"N", RS_OPT_INT, "8", 2, 33554432, NULL, "inputs (a power of two)", "terminals"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static int benes_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int rc = rs__topo_read_pow2(p, benes_options, "benes", 1u << 25, &net->N, &net->log2n, err);
    if (rc)
        return rc;
    uint64_t levels = 2ull * net->log2n + 1;
    if ((uint64_t)net->N * levels >= UINT32_MAX / 2)
        return rs_err_set(err, RS_ECONSTRAINT, "topology=benes with N=%u is too large", net->N);
    net->n_levels = (uint32_t)levels;
    net->n_nodes = (uint32_t)(levels * net->N);
    net->max_ports = 2;
    net->n_terminals = net->N;
    net->n_channels = 4ull * net->log2n * net->N;
    net->shape_k = 2;
    net->shape_n = net->log2n;
    return 0;
}

/* Bit flipped by the cross edge out of level l. */
static uint32_t benes_bit(const struct rs_net *net, uint32_t l)
{
    return l < net->log2n ? l : 2 * net->log2n - 1 - l;
}

static uint32_t benes_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                               uint32_t *in_slot)
{
    uint32_t l = (node >> net->log2n), row = (node & (net->N - 1));
    if (port > 1 || l >= 2 * net->log2n)
        return RS_NONE;
    if (in_slot)
        *in_slot = port;
    return (l + 1) * net->N + (port ? row ^ (1u << benes_bit(net, l)) : row);
}

static uint32_t benes_src_node(const struct rs_net *net, uint32_t t)
{
    return t;
}

static uint32_t benes_dst_node(const struct rs_net *net, uint32_t t)
{
    return 2 * net->log2n * net->N + t;
}

static int benes_level(const struct rs_net *net, uint32_t node)
{
    return (int)((node >> net->log2n));
}

static void benes_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    rs__topo_label_row(buf, n, (node >> net->log2n), (node & (net->N - 1)), net->log2n);
}

/* Direct routing goes straight through the first half (to row src at level n) and fixes
 * the bits toward dst in the second; Valiant fixes bits toward mid in the first half. */
static uint32_t benes_route(const struct rs_net *net, uint32_t node,
                            const struct rs_route_state *st)
{
    uint32_t l = (node >> net->log2n), row = (node & (net->N - 1));
    if (l == 2 * net->log2n)
        return RS_ROUTE_DONE;
    if (l < net->log2n)
        return st->mid == RS_NONE ? 0 : ((row ^ st->mid) >> l) & 1;
    return ((row ^ st->dst) >> benes_bit(net, l)) & 1;
}

static uint32_t benes_path_length(const struct rs_net *net, const struct rs_route_state *st)
{
    return 2 * net->log2n;
}

/* Ranade's first stage (004 §5): every 2x2 block of the first butterfly -- at level l the
 * nodes <l,b> and <l,b^2^l> and their four edges into level l+1, b with bit l cleared -- is
 * set straight or crossed by a fair coin from (seed, RS_STREAM_RANADE, entity b, step l).
 * The source's row follows the settings; the row it reaches at level n is its
 * intermediate. Each setting maps the block's two rows onto themselves, so the sources'
 * intermediates form a permutation and every first-half edge carries at most one of them. */
static uint32_t benes_ranade_mid(const struct rs_net *net, uint64_t seed, uint32_t src)
{
    uint32_t row = src;
    for (uint32_t l = 0; l < net->log2n; l++)
        row ^= rs_rand_below(seed, RS_STREAM_RANADE, row & ~(1u << l), l, 2) << l;
    return row;
}

const struct rs_topo_ops rs_topo_benes = {
    .name = "benes",
    .summary = "Beneš network: two back-to-back butterflies, 2n+1 levels",
    .options = benes_options,
    .caps = RS_CAP_LEVELED | RS_CAP_BENES,
    .build = benes_build,
    .neighbor = benes_neighbor,
    .src_node = benes_src_node,
    .dst_node = benes_dst_node,
    .level = benes_level,
    .label = benes_label,
    .route = benes_route,
    .valiant_ok = NULL,
    .valiant_via_terminal = 0,
    .path_length = benes_path_length,
    .ranade_mid = benes_ranade_mid,
};
