/* Graphviz export of a dragonfly: one cluster per group holding its routers and their
 * terminals, then every channel; global channels drawn bold. */
#include <stdio.h>

#include "routesim/dragonfly.h"

/* Output, in this order (deterministic; ids increasing):
 *   digraph "dragonfly" {
 *     node [shape=box];
 *     subgraph cluster_g<G> { label="group <G>";
 *       n<v> [label="r<G>.<r>"]; ...            its routers, by index
 *       n<t> [label="t<G>.<r>.<i>", shape=ellipse]; ...   its terminals, by id
 *     }
 *     n<v> -> n<w>;                             one per channel, by (v, port)
 *     n<v> -> n<w> [style=bold];                global channels
 *   } */
int rs__dfly_write_dot(const struct rs_net *net, struct rs_buf *out)
{
    const struct rs_dfly *d = rs_dfly_of(net);
    char label[64];
    int rc = rs_buf_printf(out, "digraph \"%s\" {\n  node [shape=box];\n", net->name);
    for (uint32_t G = 0; G < d->g && !rc; G++) {
        rc = rs_buf_printf(out, "  subgraph cluster_g%u { label=\"group %u\";\n", G, G);
        for (uint32_t r = 0; r < d->a && !rc; r++) {
            uint32_t v = d->N + G * d->a + r;
            net->ops->label(net, v, label, sizeof label);
            rc = rs_buf_printf(out, "    n%u [label=\"%s\"];\n", v, label);
        }
        for (uint32_t t = G * d->a * d->p; t < (G + 1) * d->a * d->p && !rc; t++) {
            net->ops->label(net, t, label, sizeof label);
            rc = rs_buf_printf(out, "    n%u [label=\"%s\", shape=ellipse];\n", t, label);
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
                               v >= d->N && port >= rs_dfly_gport0(d) ? " [style=bold]" : "");
        }
    if (!rc)
        rc = rs_buf_puts(out, "}\n");
    return rc ? RS_ENOMEM : 0;
}
