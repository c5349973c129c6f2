/* topology=kary_nfly: the k-ary n-fly (radix-k butterfly) exactly as BookSim 2's `fly`
 * (networks/fly.cpp): n stages of R = k^(n-1) routers of radix k, N = k^n terminals attached
 * directly to the first stage (inputs) and the last stage (outputs), k per router.
 * Destination-tag routing; with wrap=1 a return channel from each last-stage router to the
 * first-stage router of the same terminals carries Valiant's second pass. docs/topologies.md. */
#include <stdio.h>

#include "routesim/net.h"
#include "topo/topo_util.h"

#define KFLY_MAX_TERMINALS (1u << 26)

static const struct rs_optdef kfly_options[] = {
    {"k", RS_OPT_INT, "2", 2, 256, NULL, "router radix: k inputs and k outputs per router",
     "ports"},
    {"n", RS_OPT_INT, "3", 1, 26, NULL, "stages (N = k^n terminals, k^(n-1) routers each)",
     "levels"},
    {"wrap", RS_OPT_BOOL, "0", 0, 0, NULL,
     "add a return channel from each last-stage router to the first-stage router of the same "
     "terminals (needed by routing=valiant)", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* Routers per stage, R = k^(n-1), kept in net->N / net->k (N = k^n terminals). */
static uint32_t per_stage(const struct rs_net *net)
{
    return net->N / net->k;
}

static int kfly_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int64_t k, n;
    int wrap, rc;
    if ((rc = rs_opt_int(p, kfly_options, "k", &k, err)) ||
        (rc = rs_opt_int(p, kfly_options, "n", &n, err)) ||
        (rc = rs_opt_bool(p, kfly_options, "wrap", &wrap, err)))
        return rc;
    uint64_t N = 1;
    for (int64_t i = 0; i < n; i++) {
        N *= (uint64_t)k;
        if (N > KFLY_MAX_TERMINALS)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "topology=kary_nfly needs k^n <= 2^26 terminals (got k=%lld n=%lld)",
                              (long long)k, (long long)n);
    }
    net->k = (uint32_t)k;
    net->dims = (uint32_t)n;
    net->N = (uint32_t)N;
    net->wrap = wrap;
    if (wrap)
        net->caps |= RS_CAP_WRAP;
    uint64_t R = N / (uint64_t)k;
    net->n_levels = (uint32_t)n;
    net->n_nodes = (uint32_t)(R * (uint64_t)n);
    net->max_ports = net->k + (wrap ? 1 : 0);
    net->n_terminals = net->N;
    net->n_channels = (uint64_t)(n - 1) * R * (uint64_t)k + (wrap ? R : 0);
    net->shape_k = net->k;
    net->shape_n = net->dims;
    return 0;
}

/* Router <s, a> (stage s, address a of n-1 base-k digits) is node s*R + a. Port p < k of a
 * stage s < n-1 router goes to <s+1, a with digit n-2-s replaced by p> and enters it at in-slot
 * digit n-2-s of a (BookSim's _InChannel). Port k (wrap=1, last stage) returns to <0, a> at
 * in-slot k. */
static uint32_t kfly_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                              uint32_t *in_slot)
{
    uint32_t R = per_stage(net), s = node / R, a = node % R, n = net->dims, k = net->k;
    if (s + 1 < n && port < k) {
        uint32_t sh = rs__topo_upow(k, n - 2 - s), d = a / sh % k;
        if (in_slot)
            *in_slot = d;
        return (s + 1) * R + a - d * sh + port * sh;
    }
    if (net->wrap && s + 1 == n && port == k) {
        if (in_slot)
            *in_slot = k;
        return a;
    }
    return RS_NONE;
}

static uint32_t kfly_src_node(const struct rs_net *net, uint32_t t)
{
    return t / net->k;
}

static uint32_t kfly_dst_node(const struct rs_net *net, uint32_t t)
{
    return (net->dims - 1) * per_stage(net) + t / net->k;
}

static int kfly_level(const struct rs_net *net, uint32_t node)
{
    return (int)(node / per_stage(net));
}

/* "<s,d_{n-2}...d_0>", the address most significant digit first; digits separated by dots
 * when k > 10. */
static void kfly_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    uint32_t R = per_stage(net), a = node % R;
    int len = snprintf(buf, n, "<%u,", node / R);
    for (uint32_t i = net->dims - 1; i-- > 0 && len > 0 && (size_t)len < n;)
        len += snprintf(buf + len, n - (size_t)len, "%s%u",
                        net->k > 10 && i + 2 < net->dims ? "." : "", a / rs__topo_upow(net->k, i) % net->k);
    if (len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, ">");
}

/* Valiant's second pass: the packet has crossed the return channel (with a route through
 * mid, a router of stage s is in pass one exactly when it has crossed s channels). */
static int second_pass(const struct rs_net *net, uint32_t node, const struct rs_route_state *st)
{
    return st->mid != RS_NONE && st->hops > node / per_stage(net);
}

/* Destination tag (BookSim's dest_tag_fly): at stage s < n-1 take port digit n-1-s of the
 * target terminal (base k, most significant first); the last stage delivers (ejection port
 * = digit 0). With mid: to mid's last-stage router, the return channel, then to dst. */
static uint32_t kfly_route(const struct rs_net *net, uint32_t node, const struct rs_route_state *st)
{
    uint32_t s = node / per_stage(net), n = net->dims;
    int pass2 = second_pass(net, node, st);
    uint32_t target = st->mid != RS_NONE && !pass2 ? st->mid : st->dst;
    if (s + 1 == n)
        return st->mid != RS_NONE && !pass2 ? net->k : RS_ROUTE_DONE;
    return target / rs__topo_upow(net->k, n - 1 - s) % net->k;
}

/* n-1 channels; Valiant: twice that and the return channel. */
static uint32_t kfly_path_length(const struct rs_net *net, const struct rs_route_state *st)
{
    return st->mid == RS_NONE ? net->dims - 1 : 2 * net->dims - 1;
}

static int kfly_valiant_ok(const struct rs_net *net, struct rs_err *err)
{
    if (!net->wrap)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "routing=valiant on topology=kary_nfly needs wrap=1 (the return "
                          "channels from the last stage to the first)");
    return 0;
}

/* Without wrap-around the network is acyclic: class 0. With it, the return channel is class
 * 1 (bit 0) and Valiant's second pass sets bit 1, so no class closes a cycle. */
static uint32_t kfly_vc_class(const struct rs_net *net, uint32_t node, uint32_t port,
                              const struct rs_route_state *st)
{
    if (!net->wrap)
        return 0;
    return (second_pass(net, node, st) ? 2u : 0u) | (port == net->k);
}

const struct rs_topo_ops rs_topo_kary_nfly = {
    .name = "kary_nfly",
    .summary = "k-ary n-fly as BookSim's fly: n stages of k^(n-1) radix-k routers, k "
               "terminals per first/last-stage router, destination-tag routing",
    .options = kfly_options,
    .caps = RS_CAP_LEVELED,
    .build = kfly_build,
    .neighbor = kfly_neighbor,
    .src_node = kfly_src_node,
    .dst_node = kfly_dst_node,
    .level = kfly_level,
    .label = kfly_label,
    .route = kfly_route,
    .valiant_ok = kfly_valiant_ok,
    .valiant_via_terminal = 0,
    .path_length = kfly_path_length,
    .vc_class = kfly_vc_class,
};
