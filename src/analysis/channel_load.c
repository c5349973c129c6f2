/* Channel-load analysis: expected load per channel of open-loop traffic under an oblivious
 * routing (path enumeration, Valiant averaged over its intermediate), or the minimal-routing
 * bound for an adaptive one. Contract in include/routesim/channel_load.h. */
#include <math.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/channel_load.h"
#include "routesim/path_set.h"

/* Accumulated sums over the flows (source, destination, weight). */
struct acc {
    const struct rs_net *net;
    const struct rs_routing_ops *routing;
    double *load;     /* per channel (oblivious) */
    double *cut;      /* [dims][2][k] flows crossing each position (adaptive) */
    double *eject;    /* per destination terminal */
    double hops;      /* sum of weight x hops */
    double local;     /* sum of weight over empty paths */
    uint64_t *path;
    uint32_t path_cap, max_hops;
};

/* Add w to every channel of the route src -> (mid) -> dst; returns 0 or RS_E.... */
static int add_route(struct acc *a, uint32_t src, uint32_t dst, uint32_t mid, uint32_t msg,
                     double w, struct rs_err *err)
{
    struct rs_route_state st = {src, dst, mid, 0, msg};
    int64_t len = rs_route_expand(a->net, &st, a->path, a->path_cap, a->max_hops, NULL);
    if (len > (int64_t)a->path_cap) {
        uint64_t *np = rs_realloc(a->path, (size_t)len * sizeof *np);
        if (!np)
            return rs_err_set(err, RS_ENOMEM, "out of memory for a path of %lld hops",
                              (long long)len);
        a->path = np;
        a->path_cap = (uint32_t)len;
        len = rs_route_expand(a->net, &st, a->path, a->path_cap, a->max_hops, NULL);
    }
    if (len < 0)
        return rs_err_set(err, RS_EINVARIANT,
                          "channel load: the route %u -> %u does not end at its destination",
                          src, dst);
    for (int64_t h = 0; h < len; h++)
        a->load[a->path[h]] += w;
    a->hops += w * (double)len;
    if (len == 0)
        a->local += w;
    return 0;
}

/* Minimal routing on a coordinate network: the positions a flow must cross (adaptive). */
static void add_minimal(struct acc *a, uint32_t src, uint32_t dst, double w)
{
    const struct rs_net *net = a->net;
    uint32_t u = net->ops->src_node(net, src), v = net->ops->dst_node(net, dst), k = net->k;
    uint32_t d = net->ops->distance(net, u, v);
    a->hops += w * d;
    if (d == 0)
        a->local += w;
    for (uint32_t i = 0; i < net->dims; i++, u /= k, v /= k) {
        uint32_t x = u % k, y = v % k, fwd, back;
        double *plus = a->cut + ((size_t)i * 2) * k, *minus = plus + k;
        if (x == y)
            continue;
        if (!net->wrap) {
            for (uint32_t j = x; j < y; j++) /* + channels with tails x .. y-1 */
                plus[j] += w;
            for (uint32_t j = y + 1; j <= x && y < x; j++) /* - channels, tails y+1 .. x */
                minus[j] += w;
            continue;
        }
        fwd = (y + k - x) % k;
        back = k - fwd;
        if (fwd < back)
            for (uint32_t h = 0; h < fwd; h++)
                plus[(x + h) % k] += w;
        else if (back < fwd)
            for (uint32_t h = 0; h < back; h++)
                minus[(x + k - h) % k] += w;
        /* a tie (distance k/2) may go either way: left out of the cut bound */
    }
}

/* One flow of weight w (flits per step per unit rate) from src to dst. */
static int add_flow(struct acc *a, uint32_t src, uint32_t dst, uint32_t msg, double w,
                    struct rs_err *err)
{
    int rc = 0;
    a->eject[dst] += w;
    if (rs_route_is_adaptive(a->routing)) {
        add_minimal(a, src, dst, w);
        return 0;
    }
    if (!a->routing->mid)
        return add_route(a, src, dst, RS_NONE, msg, w, err);
    uint32_t n = a->net->n_terminals; /* Valiant: uniform intermediate */
    for (uint32_t m = 0; m < n && !rc; m++)
        rc = add_route(a, src, dst, m, msg, w / n, err);
    return rc;
}

static int refuse(const struct rs_net *net, const struct rs_routing_ops *routing,
                  struct rs_err *err)
{
    if (routing->mid && routing != RS_ROUTING_VALIANT)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "channel load: routing=%s has no open-loop intermediate to average "
                          "over (routing=direct, valiant or min_adaptive)",
                          routing->name);
    if (rs_route_is_adaptive(routing) &&
        (!(net->caps & RS_CAP_COORDS) || !net->ops->distance))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "channel load: the bound for routing=%s needs a mesh or torus "
                          "(got topology=%s)",
                          routing->name, net->name);
    return 0;
}

/* Largest cut load per parallel channel (adaptive bound (b)). */
static double cut_bound(const struct acc *a)
{
    const struct rs_net *net = a->net;
    double lines = 1, best = 0;
    for (uint32_t i = 1; i < net->dims; i++)
        lines *= net->k;
    for (size_t j = 0; j < (size_t)net->dims * 2 * net->k; j++)
        if (a->cut[j] / lines > best)
            best = a->cut[j] / lines;
    return best;
}

int rs_channel_load(struct rs_channel_load *out, const struct rs_net *net,
                    const struct rs_problem *pb, int uniform,
                    const struct rs_routing_ops *routing, double *load, struct rs_err *err)
{
    RS_ASSERT(out != NULL && net != NULL && pb != NULL && routing != NULL);
    RS_ASSERT(pb->n_terminals == net->n_terminals);
    memset(out, 0, sizeof *out);
    out->gamma_chan = UINT64_MAX;
    int rc = refuse(net, routing, err);
    if (rc)
        return rc;
    uint32_t n = net->n_terminals;
    uint64_t n_ch = (uint64_t)net->n_nodes * net->max_ports;
    int adaptive = rs_route_is_adaptive(routing);
    struct acc a = {.net = net, .routing = routing, .path_cap = 256,
                    .max_hops = rs_path_max_hops(net)};
    uint32_t *count = rs_calloc((size_t)n + 1, sizeof *count);
    a.eject = rs_calloc((size_t)n + 1, sizeof *a.eject);
    a.load = load ? load : rs_calloc(n_ch ? n_ch : 1, sizeof *a.load);
    a.path = rs_malloc(a.path_cap * sizeof *a.path);
    if (adaptive)
        a.cut = rs_calloc((size_t)net->dims * 2 * net->k + 1, sizeof *a.cut);
    if (!count || !a.eject || !a.load || !a.path || (adaptive && !a.cut)) {
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the channel loads");
        goto out;
    }
    if (load)
        memset(load, 0, n_ch * sizeof *load);
    if (uniform) {
        for (uint32_t s = 0; s < n && !rc; s++) {
            uint32_t msg = pb->src || !pb->per_input ? 0 : s * pb->per_input;
            for (uint32_t d = 0; d < n && !rc; d++)
                rc = add_flow(&a, s, d, msg, 1.0 / n, err);
        }
        out->senders = n;
    } else {
        for (uint64_t m = 0; m < pb->n_msgs; m++)
            count[rs_problem_src(pb, m)]++;
        for (uint64_t m = 0; m < pb->n_msgs && !rc; m++) {
            uint32_t s = rs_problem_src(pb, m);
            rc = add_flow(&a, s, pb->dst[m], (uint32_t)m, 1.0 / count[s], err);
        }
        for (uint32_t s = 0; s < n; s++)
            out->senders += count[s] > 0;
    }
    if (rc)
        goto out;
    out->exact = !adaptive;
    if (adaptive) {
        out->gamma_max = cut_bound(&a);
        if (net->n_channels && a.hops / (double)net->n_channels > out->gamma_max)
            out->gamma_max = a.hops / (double)net->n_channels;
    } else {
        for (uint64_t c = 0; c < n_ch; c++)
            if (a.load[c] > out->gamma_max) {
                out->gamma_max = a.load[c];
                out->gamma_chan = c;
            }
    }
    out->gamma_terminal = out->senders ? 1 : 0;
    for (uint32_t d = 0; d < n; d++)
        if (a.eject[d] > out->gamma_terminal)
            out->gamma_terminal = a.eject[d];
    double g = out->gamma_max > out->gamma_terminal ? out->gamma_max : out->gamma_terminal;
    out->theta = g > 0 ? ((double)out->senders / n) / g : INFINITY;
    out->hops_mean = out->senders ? a.hops / out->senders : 0;
    out->local_fraction = out->senders ? a.local / out->senders : 0;
out:
    rs_free(count);
    rs_free(a.eject);
    if (!load)
        rs_free(a.load);
    rs_free(a.path);
    rs_free(a.cut);
    return rc;
}
