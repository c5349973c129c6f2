/* Graphviz export of any network: nodes with their labels, one edge per channel, and one
 * rank per level for leveled networks and LCANs. */
#include <stdio.h>
#include <string.h>

#include "routesim/net.h"
#include "routesim/lcan.h"

/* Output, in this order (deterministic; ids increasing):
 *   digraph "<name>" {
 *     rankdir=LR;
 *     node [shape=box];
 *     n<v> [label="<label of v>"];              one per node
 *     n<v> -> n<w>;                             one per channel, by (v, port)
 *     { rank=same; n<v>; ... }                  leveled networks: one per level
 *   }
 * Leveled networks with two ports (butterfly, Beneš) have port 0 = straight edge and
 * port 1 = cross edge; their channel lines carry [label="s"] / [label="c"].
 * LCANs are drawn bottom-up (rankdir=BT) with one rank for the PEs and one per switch
 * level; their down channels carry [label="d"], their up channels [label="u"]. */
int rs_net_write_dot(const struct rs_net *net, struct rs_buf *out)
{
    char label[128];
    const struct rs_lcan *lc = rs__lcan_of(net);
    int leveled = net->n_levels > 0 && net->ops->level;
    int straight_cross = leveled && net->max_ports == 2;
    int rc = rs_buf_printf(out, "digraph \"%s\" {\n  rankdir=%s;\n  node [shape=box];\n",
                           net->name, lc ? "BT" : "LR");
    for (uint32_t v = 0; v < net->n_nodes && !rc; v++) {
        net->ops->label(net, v, label, sizeof label);
        rc = rs_buf_printf(out, "  n%u [label=\"%s\"];\n", v, label);
    }
    for (uint32_t v = 0; v < net->n_nodes && !rc; v++)
        for (uint32_t port = 0; port < net->max_ports && !rc; port++) {
            uint32_t w = net->ops->neighbor(net, v, port, NULL);
            if (w == RS_NONE)
                continue;
            if (straight_cross)
                rc = rs_buf_printf(out, "  n%u -> n%u [label=\"%s\"];\n", v, w,
                                   port ? "c" : "s");
            else if (lc)
                rc = rs_buf_printf(out, "  n%u -> n%u [label=\"%s\"];\n", v, w,
                                   rs__lcan_level(lc, w) > rs__lcan_level(lc, v) ? "u" : "d");
            else
                rc = rs_buf_printf(out, "  n%u -> n%u;\n", v, w);
        }
    for (uint32_t l = 0; leveled && l < net->n_levels && !rc; l++) {
        rc = rs_buf_puts(out, "  { rank=same;");
        for (uint32_t v = 0; v < net->n_nodes && !rc; v++)
            if (net->ops->level(net, v) == (int)l)
                rc = rs_buf_printf(out, " n%u;", v);
        if (!rc)
            rc = rs_buf_puts(out, " }\n");
    }
    /* LCAN ranks: the PEs (level -1), then every switch level; nodes are numbered by level */
    for (int l = -1; lc && l < (int)lc->l && !rc; l++) {
        uint32_t lo = l < 0 ? 0 : lc->first[l], hi = l < 0 ? lc->N : lo + lc->S[l];
        rc = rs_buf_puts(out, "  { rank=same;");
        for (uint32_t v = lo; v < hi && !rc; v++)
            rc = rs_buf_printf(out, " n%u;", v);
        if (!rc)
            rc = rs_buf_puts(out, " }\n");
    }
    if (!rc)
        rc = rs_buf_puts(out, "}\n");
    return rc ? RS_ENOMEM : 0;
}

/* Decimal digits of v. */
static uint64_t dot_digits(uint64_t v)
{
    uint64_t d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

uint64_t rs_net_dot_bytes(const struct rs_net *net)
{
    char label[128];
    uint64_t lab = 0, V = net->n_nodes, d = dot_digits(V ? V - 1 : 0);
    uint32_t sample[3] = {0, net->n_nodes / 2, net->n_nodes ? net->n_nodes - 1 : 0};
    for (int i = 0; i < 3 && V; i++) {
        net->ops->label(net, sample[i], label, sizeof label);
        uint64_t len = strlen(label);
        lab = len > lab ? len : lab;
    }
    /* "  n<v> [label="<label>"];\n", "  n<v> -> n<w> [label="s"];\n", " n<v>;" in a rank */
    uint64_t node_line = 15 + d + lab + 2, edge_line = 23 + 2 * d, rank_entry = 3 + d;
    return 128 + V * (node_line + rank_entry) + net->n_channels * edge_line +
           (uint64_t)(net->n_levels + 1) * 20;
}
