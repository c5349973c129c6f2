/* topology=kary_ntree: the k-ary n-tree (Petrini & Vanneschi), a folded Clos: N = k^n
 * terminals, n levels of k^(n-1) switches with k ports down and k up, k terminals on each
 * leaf switch. Nearest-common-ancestor routing: up to the lowest level whose switch reaches
 * the destination (the up-port random per packet), then down the unique way.
 * docs/topologies.md. */
#include <stdio.h>

#include "routesim/net.h"
#include "routesim/rng.h"
#include "topo/topo_util.h"

#define KTREE_MAX_TERMINALS (1u << 24)

static const struct rs_optdef ktree_options[] = {
    {"k", RS_OPT_INT, "2", 2, 128, NULL, "half the switch radix: k ports down and k up", "ports"},
    {"n", RS_OPT_INT, "3", 1, 24, NULL, "levels (N = k^n terminals, k^(n-1) switches each)",
     "levels"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static uint32_t per_level(const struct rs_net *net)
{
    return net->N / net->k;
}

static int ktree_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int64_t k, n;
    int rc;
    if ((rc = rs_opt_int(p, ktree_options, "k", &k, err)) ||
        (rc = rs_opt_int(p, ktree_options, "n", &n, err)))
        return rc;
    uint64_t N = 1;
    for (int64_t i = 0; i < n; i++) {
        N *= (uint64_t)k;
        if (N > KTREE_MAX_TERMINALS)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "topology=kary_ntree needs k^n <= 2^24 terminals (got k=%lld n=%lld)",
                              (long long)k, (long long)n);
    }
    uint64_t R = N / (uint64_t)k;
    net->k = (uint32_t)k;
    net->dims = (uint32_t)n;
    net->N = (uint32_t)N;
    net->n_nodes = (uint32_t)(R * (uint64_t)n);
    net->max_ports = 2 * net->k;
    net->n_terminals = net->N;
    net->n_channels = 2ull * (uint64_t)(n - 1) * R * (uint64_t)k;
    net->shape_k = net->k;
    net->shape_n = net->dims;
    net->part_unit[0] = net->dims; /* the engines' split on rows (ktree_part_pos) */
    return 0;
}

/* Digit i (0 = most significant, of n-1) of switch address w. */
static uint32_t wdigit(const struct rs_net *net, uint32_t w, uint32_t i)
{
    return w / rs__topo_upow(net->k, net->dims - 2 - i) % net->k;
}

/* w with digit i set to v. */
static uint32_t wset(const struct rs_net *net, uint32_t w, uint32_t i, uint32_t v)
{
    uint32_t sh = rs__topo_upow(net->k, net->dims - 2 - i);
    return w - (w / sh % net->k) * sh + v * sh;
}

/* Switch <w, l> (level l, 0 = the roots; address w of n-1 base-k digits w_0..w_{n-2}, w_0
 * most significant) is node l*R + w. Down port j (l < n-1) goes to <w with w_l = j, l+1> and
 * enters at its in-slot k + w_l; up port k + j (l > 0) goes to <w with w_{l-1} = j, l-1> and
 * enters at its in-slot w_{l-1} (the ports pointing back). */
static uint32_t ktree_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                               uint32_t *in_slot)
{
    uint32_t R = per_level(net), l = node / R, w = node % R, k = net->k;
    if (port < k) {
        if (l + 1 >= net->dims)
            return RS_NONE;
        if (in_slot)
            *in_slot = k + wdigit(net, w, l);
        return (l + 1) * R + wset(net, w, l, port);
    }
    if (port < 2 * k && l > 0) {
        if (in_slot)
            *in_slot = wdigit(net, w, l - 1);
        return (l - 1) * R + wset(net, w, l - 1, port - k);
    }
    return RS_NONE;
}

/* Terminal t (digits t_0..t_{n-1}) is on leaf switch <t / k, n-1>, both ways. */
static uint32_t ktree_leaf(const struct rs_net *net, uint32_t t)
{
    return (net->dims - 1) * per_level(net) + t / net->k;
}

static int ktree_level(const struct rs_net *net, uint32_t node)
{
    (void)net;
    (void)node;
    return -1; /* channels go up and down: not leveled in the sense of net.h */
}

/* "<l,w_0...w_{n-2}>"; digits separated by dots when k > 10. */
static void ktree_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    uint32_t R = per_level(net), w = node % R;
    int len = snprintf(buf, n, "<%u,", node / R);
    for (uint32_t i = 0; i + 1 < net->dims && len > 0 && (size_t)len < n; i++)
        len += snprintf(buf + len, n - (size_t)len, "%s%u", net->k > 10 && i ? "." : "",
                        wdigit(net, w, i));
    if (len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, ">");
}

/* Level of the nearest common ancestors of terminals s and t: the largest m <= n-1 with
 * s_i = t_i for i < m. */
static uint32_t nca_level(const struct rs_net *net, uint32_t s, uint32_t t)
{
    uint32_t m = 0;
    while (m + 1 < net->dims && s / rs__topo_upow(net->k, net->dims - 1 - m) % net->k ==
                                    t / rs__topo_upow(net->k, net->dims - 1 - m) % net->k)
        m++;
    return m;
}

static uint32_t leg_length(const struct rs_net *net, uint32_t s, uint32_t t)
{
    return 2 * (net->dims - 1 - nca_level(net, s, t));
}

/* 1 when switch <w, l> has terminal t below it: w_i = t_i for i < l. */
static int below(const struct rs_net *net, uint32_t l, uint32_t w, uint32_t t)
{
    for (uint32_t i = 0; i < l; i++)
        if (wdigit(net, w, i) != t / rs__topo_upow(net->k, net->dims - 1 - i) % net->k)
            return 0;
    return 1;
}

/* Nearest common ancestor: down port t_l when the switch reaches the leg's target t (the
 * leaf delivers), else up on port k + j, j uniform from Philox keyed by the run seed
 * (net->seed, rs_route_prepare) and the packet as the route state names it: entity
 * (message << 32 | source), step (the leg's target << 6 | level, + n in Valiant's second leg).
 * Oblivious, fixed per packet; a message id is one packet in a static problem, while in open
 * loop the packets of one terminal share their template message, so those with the same
 * destination share their up-ports. */
static uint32_t ktree_route(const struct rs_net *net, uint32_t node, const struct rs_route_state *st)
{
    uint32_t R = per_level(net), l = node / R, w = node % R, target = st->dst, leg = 0;
    if (st->mid != RS_NONE) {
        if (st->hops < leg_length(net, st->src, st->mid))
            target = st->mid;
        else
            leg = net->dims;
    }
    if (below(net, l, w, target))
        return l + 1 == net->dims ? RS_ROUTE_DONE
                                  : target / rs__topo_upow(net->k, net->dims - 1 - l) % net->k;
    return net->k + rs_rand_below(net->seed, RS_STREAM_NCA_UP,
                                  (uint64_t)st->msg << 32 | st->src,
                                  target << 6 | (leg + l), net->k);
}

static uint32_t ktree_path_length(const struct rs_net *net, const struct rs_route_state *st)
{
    if (st->mid == RS_NONE)
        return leg_length(net, st->src, st->dst);
    return leg_length(net, st->src, st->mid) + leg_length(net, st->mid, st->dst);
}

/* Up/down never turns up after going down within a leg: one class is deadlock-free. A
 * Valiant route turns up again at mid: its second leg is class 2 (bit 1). */
static uint32_t ktree_vc_class(const struct rs_net *net, uint32_t node, uint32_t port,
                               const struct rs_route_state *st)
{
    (void)node;
    (void)port;
    return st->mid != RS_NONE && st->hops >= leg_length(net, st->src, st->mid) ? 2u : 0u;
}

/* Minimal out-ports toward node target (a leaf switch): the down port toward it when node
 * reaches it, else every up port (all lead to nearest common ancestors). */
static uint32_t ktree_productive(const struct rs_net *net, uint32_t node, uint32_t target,
                                 uint32_t *ports)
{
    uint32_t R = per_level(net), l = node / R, w = node % R, t = (target % R) * net->k;
    if (node == target)
        return 0;
    if (below(net, l, w, t)) {
        ports[0] = t / rs__topo_upow(net->k, net->dims - 1 - l) % net->k;
        return 1;
    }
    uint32_t n = 0;
    for (uint32_t j = 0; j < net->k && n < RS_MAX_PRODUCTIVE; j++)
        ports[n++] = net->k + j;
    return n;
}

/* The engines' partition order (rs_topo_ops.part_pos): switch <w, l> at position w n + l,
 * a row of every level together, so that parts cut on rows hold the leaf switches of a
 * range of terminals with the switches above them that the range's aligned blocks of k^m
 * rows reach by going up (the row split of the leveled networks). */
static uint32_t ktree_part_pos(const struct rs_net *net, uint32_t node)
{
    uint32_t R = per_level(net);
    return node % R * net->dims + node / R;
}

/* The node at position pos (the inverse of ktree_part_pos). */
static uint32_t ktree_part_node(const struct rs_net *net, uint32_t pos)
{
    return pos % net->dims * per_level(net) + pos / net->dims;
}

const struct rs_topo_ops rs_topo_kary_ntree = {
    .name = "kary_ntree",
    .summary = "k-ary n-tree / folded Clos (Petrini & Vanneschi): n levels of k^(n-1) "
               "switches, k terminals per leaf, nearest-common-ancestor routing",
    .options = ktree_options,
    .caps = RS_CAP_UP_DOWN | RS_CAP_ROUTE_PER_MSG,
    .build = ktree_build,
    .neighbor = ktree_neighbor,
    .src_node = ktree_leaf,
    .dst_node = ktree_leaf,
    .level = ktree_level,
    .label = ktree_label,
    .route = ktree_route,
    .valiant_via_terminal = 1,
    .path_length = ktree_path_length,
    .vc_class = ktree_vc_class,
    .productive = ktree_productive,
    .part_pos = ktree_part_pos,
    .part_node = ktree_part_node,
};
