/* Memory estimate of the flit engines (wormhole, virtual_cut_through, cut_through_partial,
 * store_forward_flits; rs_engine_ops.estimate): the arrays flit.c's set-up allocates, from
 * the sizes alone. docs/resources.md. */
#include <stdlib.h>

#include "engine/estimate_util.h"
#include "engine/flit.h"
#include "engine/iq.h"
#include "routesim/route.h"

uint64_t rs__flit_estimate(const struct rs_engine_ops *self, const struct rs_net *net,
                           uint64_t n_msgs, const struct rs_params *p, int ranks)
{
    uint64_t R = ranks > 1 ? (uint64_t)ranks : 1; /* over ranks a rank's home VCs: 1/R */
    uint64_t T = net->n_terminals, M = n_msgs;
    uint64_t n_chan = (uint64_t)net->n_nodes * net->max_ports;
    uint64_t B = (uint64_t)rs__est_int(self, p, "vcs", 1);
    uint64_t depth = (uint64_t)rs__est_int(self, p, "vc_depth", 1);
    uint64_t n_vc = n_chan * B;
    int partial = !strcmp(self->name, "cut_through_partial");
    uint64_t slots = partial ? n_vc * (depth ? depth : 1) : n_vc;
    int iq = rs__est_is(self, p, "router", "iq");
    int open_loop = rs_params_find(p, "injection_process") != NULL;
    if (iq) { /* router=iq: the pool is sized in flits and touched as used: a packet per VC
                 of each router input (depth / length of them with short packets) */
        uint64_t len = (uint64_t)rs__est_int(self, p, "length", 1);
        uint64_t per = len && depth > len ? depth / len : 1;
        slots = (uint64_t)net->n_nodes * (net->max_ports + 2) * B * per;
    }
    if (slots > M && (!iq || !open_loop)) /* (open loop: M is the terminals' templates) */
        slots = M;
    slots += T;
    uint64_t bytes = n_vc * sizeof(struct flit_vc) / R + n_chan * 4; /* VCs, shared links */
    if (partial)
        bytes += n_vc * (sizeof(struct flit_fifo) + 4);
    /* worms: the record, free list, active list, born list and its sort keys */
    bytes += slots * (sizeof(struct flit_worm) + 3 * 4 + sizeof(struct flit_keyed));
    if (R > 1) { /* over ranks (flit_dist.c) */
        /* the exchange's destinations, the parallel step's lists, and a wave of worms that
         * all cross ranks in one step: their records with two VCs each, on both sides */
        bytes += slots * (4 + 2 + 2 * 4 + 4) + 2 * M * (sizeof(struct flit_worm) + 4 + 2 * 28);
        /* the home VCs of a leveled network split by rows are one range per level: each may
         * round up to two 2 MiB huge pages, and the VCs of two levels more are touched where
         * chains cross ranks */
        uint64_t L = net->n_levels;
        if (L > 1 && (uint64_t)L * net->N == net->n_nodes && net->N >= R)
            bytes += L * (4u << 20) + 2 * n_vc * sizeof(struct flit_vc) / L;
    }
    const struct rs_param *th = rs_params_find(p, "threads");
    uint64_t nt = th ? strtoull(th->value, NULL, 10) : 1;
    if (nt > 1 && R == 1 && !iq && !partial && !rs__est_is(self, p, "link", "shared")) {
        /* the threads' lists (rs__flit_par_init): a worm's thread, and per thread two
         * releases and a finish */
        bytes += slots * (2 + nt * 3 * 4);
        const struct rs_param *r = rs_params_find(p, "routing");
        const struct rs_routing_ops *ro = r ? rs_routing_find(r->value) : NULL;
        if (ro && rs_route_is_adaptive(ro)) /* the route phase's stored choices */
            bytes += slots * (RS_ROUTE_MAX_CHOICES * sizeof(struct flit_ach) + 1);
    }
    if (iq)
        bytes += rs__iq_estimate(self, net, p, slots);
    /* messages by source and by release; per terminal: source lists and the driver's */
    bytes += M * (4 + 8) + T * (4 * 4 + 2 * 4 + 4);
    uint32_t hops = rs__flit_path_hops(T * T); /* the path cache, when it has one */
    if (hops)
        bytes += T * T * 4 + (uint64_t)hops * sizeof(struct flit_hop);
    return bytes + 4096;
}

int rs__flit_counts_paths(const struct rs_engine_ops *self, const struct rs_net *net,
                          const struct rs_params *p, int ranks)
{
    (void)self;
    (void)net;
    (void)p;
    /* over ranks the home ranks count them (rs__flit_dist_paths; a run the split refuses
     * never gets that far); one process leaves them to rs_run */
    return ranks > 1;
}
