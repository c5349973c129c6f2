/* Graphviz export of a Slim Fly: one cluster per column of q routers (side 0, column x: the
 * routers (0, x, y); side 1, column m: the routers (1, m, c)), then every channel; the
 * channels within a column (generator sets X and X') drawn bold. */
#include <stdio.h>

#include "routesim/slimfly.h"

/* Output, in this order (deterministic; ids increasing):
 *   digraph "slimfly" {
 *     node [shape=box];
 *     subgraph cluster_s<S>_<a> { label="side S, column a";
 *       n<v> [label="(S,a,b)"]; ...              its q routers, by b
 *     }
 *     n<v> -> n<w>;                              one per channel, by (v, port)
 *     n<v> -> n<w> [style=bold];                 channels within a column
 *   } */
int rs__sfly_write_dot(const struct rs_net *net, struct rs_buf *out)
{
    const struct rs_sfly *s = rs_sfly_of(net);
    char label[64];
    int rc = rs_buf_printf(out, "digraph \"%s\" {\n  node [shape=box];\n", net->name);
    for (uint32_t col = 0; col < 2 * s->q && !rc; col++) {
        rc = rs_buf_printf(out, "  subgraph cluster_s%u_%u { label=\"side %u, column %u\";\n",
                           col / s->q, col % s->q, col / s->q, col % s->q);
        for (uint32_t v = col * s->q; v < (col + 1) * s->q && !rc; v++) {
            net->ops->label(net, v, label, sizeof label);
            rc = rs_buf_printf(out, "    n%u [label=\"%s\"];\n", v, label);
        }
        if (!rc)
            rc = rs_buf_puts(out, "  }\n");
    }
    for (uint32_t v = 0; v < net->n_nodes && !rc; v++)
        for (uint32_t port = 0; port < net->max_ports && !rc; port++) {
            uint32_t w = net->ops->neighbor(net, v, port, NULL);
            if (w == RS_NONE)
                continue;
            rc = rs_buf_printf(out, "  n%u -> n%u%s;\n", v, w,
                               port < s->half ? " [style=bold]" : "");
        }
    if (!rc)
        rc = rs_buf_puts(out, "}\n");
    return rc ? RS_ENOMEM : 0;
}
