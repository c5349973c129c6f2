/* Graphviz export of any network: nodes with their labels, one edge per channel, and one
 * rank per level for leveled networks. */
#include <stdio.h>

#include "routesim/net.h"

/* Output, in this order (deterministic; ids increasing):
 *   digraph "<name>" {
 *     rankdir=LR;
 *     node [shape=box];
 *     n<v> [label="<label of v>"];              one per node
 *     n<v> -> n<w>;                             one per channel, by (v, port)
 *     { rank=same; n<v>; ... }                  leveled networks: one per level
 *   }
 * Leveled networks with two ports (butterfly, Beneš) have port 0 = straight edge and
 * port 1 = cross edge; their channel lines carry [label="s"] / [label="c"]. */
int rs_net_write_dot(const struct rs_net *net, struct rs_buf *out)
{
    char label[128];
    int leveled = net->n_levels > 0 && net->ops->level;
    int straight_cross = leveled && net->max_ports == 2;
    int rc = rs_buf_printf(out, "digraph \"%s\" {\n  rankdir=LR;\n  node [shape=box];\n",
                           net->name);
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
    if (!rc)
        rc = rs_buf_puts(out, "}\n");
    return rc ? RS_ENOMEM : 0;
}
