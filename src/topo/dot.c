/* Graphviz export of any network: nodes with their labels, one edge per channel, and one
 * rank per level for leveled networks. */
#include <stdio.h>

#include "routesim/net.h"

int rs_net_write_dot(const struct rs_net *net, struct rs_buf *out)
{
    char label[128];
    int rc = rs_buf_printf(out, "digraph \"%s\" {\n  rankdir=LR;\n  node [shape=circle];\n",
                           net->name);
    for (uint32_t v = 0; v < net->n_nodes && !rc; v++) {
        net->ops->label(net, v, label, sizeof label);
        rc = rs_buf_printf(out, "  n%u [label=\"%s\"];\n", v, label);
    }
    for (uint32_t v = 0; v < net->n_nodes && !rc; v++)
        for (uint32_t port = 0; port < net->max_ports && !rc; port++) {
            uint32_t w = net->ops->neighbor(net, v, port, NULL);
            if (w != RS_NONE)
                rc = rs_buf_printf(out, "  n%u -> n%u [label=\"%u\"];\n", v, w, port);
        }
    if (net->n_levels && net->ops->level) {
        for (uint32_t l = 0; l < net->n_levels && !rc; l++) {
            rc = rs_buf_puts(out, "  { rank=same;");
            for (uint32_t v = 0; v < net->n_nodes && !rc; v++)
                if (net->ops->level(net, v) == (int)l)
                    rc = rs_buf_printf(out, " n%u;", v);
            rc = rc ? rc : rs_buf_puts(out, " }\n");
        }
    }
    return rc ? rc : rs_buf_puts(out, "}\n");
}
