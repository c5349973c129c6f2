/* Memory estimate of router=iq's state (the part of the flit engines' estimate,
 * flit_estimate.c, that router=iq adds): the arrays rs__iq_init allocates, from the
 * network's sizes and the router keys alone. docs/resources.md. */
#include "engine/estimate_util.h"
#include "engine/iq.h"
#include "engine/iq_impl.h"
#include "routesim/alloc.h"
#include "routesim/route.h"

/* The least power of two >= n: the capacity rs__iq_init gives a ring. */
static uint64_t pow2_ge(uint64_t n)
{
    uint64_t c = 1;
    while (c < n)
        c <<= 1;
    return c;
}

/* The most terminals injecting at one node (*in) and ejecting at one (*out): counted over
 * the terminals, as rs__iq_init does; T (a bound) when the count cannot be allocated. */
static void most_per_node(const struct rs_net *net, uint64_t T, uint64_t *in, uint64_t *out)
{
    uint32_t *a = rs_calloc((size_t)net->n_nodes + 1, sizeof *a);
    uint32_t *b = rs_calloc((size_t)net->n_nodes + 1, sizeof *b);
    *in = *out = T ? T : 1;
    if (a && b) {
        *in = *out = 1;
        for (uint64_t t = 0; t < T; t++) {
            uint32_t x = ++a[net->ops->src_node(net, (uint32_t)t)];
            uint32_t y = ++b[net->ops->dst_node(net, (uint32_t)t)];
            *in = x > *in ? x : *in;
            *out = y > *out ? y : *out;
        }
    }
    rs_free(a);
    rs_free(b);
}

uint64_t rs__iq_estimate(const struct rs_engine_ops *self, const struct rs_net *net,
                         const struct rs_params *p, uint64_t n_slots)
{
    uint64_t n = net->n_nodes, P = net->max_ports, T = net->n_terminals;
    uint64_t B = (uint64_t)rs__est_int(self, p, "vcs", 1);
    uint64_t depth = (uint64_t)rs__est_int(self, p, "vc_depth", 1);
    uint64_t xd = (uint64_t)(rs__est_int(self, p, "st_prepare_delay", 0) +
                             rs__est_int(self, p, "st_final_delay", 1));
    uint64_t cd = (uint64_t)rs__est_int(self, p, "credit_delay", 0);
    uint64_t R = (uint64_t)rs__est_int(self, p, "channel_latency", 1) + 2, Rt = 3;
    uint64_t s_in = (uint64_t)rs__est_int(self, p, "input_speedup", 1);
    uint64_t s_out = (uint64_t)rs__est_int(self, p, "output_speedup", 1);
    uint64_t most_in, most_out;
    most_per_node(net, T, &most_in, &most_out);
    uint64_t NI = P + most_in, NO = P + most_out, NIe = NI * s_in, NOe = NO * s_out;
    uint64_t n_ivc = n * NI * B, n_chan = n * P, nt = T * Rt;
    uint64_t QO = pow2_ge(B * depth + s_out + 2), QP = pow2_ge(NO * (cd + 2));
    uint64_t QS = pow2_ge(NI * B), QX = pow2_ge(NIe * (2 * xd + 1) + 1);
    /* input VCs: the buffer ring, its indices, state, route, output VC state (sized by the
     * input VCs, as allocated), VC-allocation pointers */
    uint64_t bytes = n_ivc * (pow2_ge(depth) * sizeof(struct iq_fl) + sizeof(struct iq_ring) +
                              1 + 5 * 2 + 4 + 1 + 4 + 2 * 4);
    const struct rs_param *rt = rs_params_find(p, "routing");
    const struct rs_routing_ops *ro = rt ? rs_routing_find(rt->value) : NULL;
    if (ro && ro->choose)
        bytes += n_ivc * (2 + RS_ROUTE_MAX_CHOICES * sizeof(struct rs_route_choice)) + n_slots +
                 n * NO * B * 4; /* the route sets */
    bytes += n * NO * (QO * sizeof(struct iq_fl) + sizeof(struct iq_ring)); /* output queues */
    bytes += n * (QP * sizeof(struct iq_cred) + 4 * QS * sizeof(struct iq_ent) +
                  QX * sizeof(struct iq_xent) + sizeof(struct iq_rings) + 3 * 8);
    bytes += n * (NIe * 4 * 4 + NOe * 4 * 2); /* held connections, switch pointers */
    bytes += n * NI * (sizeof(struct iq_fl) + 4); /* received flits, credit targets */
    bytes += n_chan * (3 * 4 + R * (4 + 8 + sizeof(struct iq_fev) + 4)); /* channels */
    bytes += nt * (4 * 8 + 3 * 4) + T * B * (4 + 1 + 4) + T * 10 * 4; /* terminals */
    bytes += n * ((NI + 63) / 64 + (NO + 63) / 64) * 8 + 4 * ((T + 63) / 64) * 8; /* sets */
    return bytes;
}
