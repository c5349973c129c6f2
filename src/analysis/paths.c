/* Congestion, dilation and per-level load of a message set, from the expanded oblivious
 * routes (no simulation). */
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/analysis.h"
#include "routesim/assert.h"
#include "routesim/path_set.h"

int rs_path_stats_compute(struct rs_path_stats *st, const struct rs_net *net,
                          const struct rs_problem *pb,
                          const struct rs_routing_ops *routing, uint64_t seed,
                          struct rs_err *err)
{
    RS_ASSERT(st != NULL && net != NULL && pb != NULL && routing != NULL);
    RS_ASSERT(pb->n_terminals == net->n_terminals);
    memset(st, 0, sizeof *st);
    int rc = rs_route_need_fixed(routing, "path analysis (congestion, dilation)", err);
    if (rc)
        return rc;
    uint64_t n_ch = (uint64_t)net->n_nodes * net->max_ports;
    uint32_t max_hops = rs_path_max_hops(net);
    uint32_t *load = rs_calloc(n_ch ? n_ch : 1, sizeof *load);
    uint32_t path_cap = 1024;
    uint64_t *path = rs_malloc(path_cap * sizeof *path);
    if (!load || !path) {
        rs_free(load);
        rs_free(path);
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu channel loads",
                          (unsigned long long)n_ch);
    }
    for (uint64_t m = 0; m < pb->n_msgs; m++) {
        uint32_t src = rs_problem_src(pb, m);
        struct rs_route_state rst = {
            src, pb->dst[m], rs_route_mid_for(net, routing, seed, m, src, pb->dst[m]), 0,
            (uint32_t)m};
        int64_t len = rs_route_walk(net, routing, &rst, path, path_cap, max_hops, NULL);
        if (len > (int64_t)path_cap) { /* longer than the buffer: grow and redo */
            uint64_t *np = rs_realloc(path, (size_t)len * sizeof *np);
            if (!np) {
                rs_free(load);
                rs_free(path);
                return rs_err_set(err, RS_ENOMEM, "out of memory for a path of %lld hops",
                                  (long long)len);
            }
            path = np;
            path_cap = (uint32_t)len;
            len = rs_route_walk(net, routing, &rst, path, path_cap, max_hops, NULL);
        }
        if (len < 0) {
            rs_free(load);
            rs_free(path);
            return rs_err_set(err, RS_EINVARIANT,
                              "route of message %llu (%u -> %u) does not end at its destination",
                              (unsigned long long)m, rst.src, rst.dst);
        }
        if ((uint32_t)len > st->dilation)
            st->dilation = (uint32_t)len;
        st->total_hops += (uint64_t)len;
        for (int64_t h = 0; h < len; h++) {
            uint32_t c = ++load[path[h]];
            if (c > st->congestion)
                st->congestion = c;
        }
    }
    rs_free(path);
    if (net->n_levels && net->ops->level) {
        st->level_max = rs_calloc(net->n_levels, sizeof *st->level_max);
        st->level_msgs = rs_calloc(net->n_levels, sizeof *st->level_msgs);
        if (!st->level_max || !st->level_msgs) {
            rs_free(load);
            rs_path_stats_free(st);
            return rs_err_set(err, RS_ENOMEM, "out of memory for level loads");
        }
        for (uint64_t c = 0; c < n_ch; c++) {
            uint32_t v = (uint32_t)(c / net->max_ports);
            int l = net->ops->level(net, v);
            if (l < 0 || (uint32_t)l >= net->n_levels)
                continue;
            if (net->ops->neighbor(net, v, (uint32_t)(c % net->max_ports), NULL) != RS_NONE &&
                (uint32_t)l + 1 > st->n_levels)
                st->n_levels = (uint32_t)l + 1; /* levels 0..n_levels-1 have channels */
            st->level_msgs[l] += load[c];
            if (load[c] > st->level_max[l])
                st->level_max[l] = load[c];
        }
    }
    rs_free(load);
    return 0;
}

void rs_path_stats_free(struct rs_path_stats *st)
{
    rs_free(st->level_max);
    rs_free(st->level_msgs);
    st->level_max = NULL;
    st->level_msgs = NULL;
    st->n_levels = 0;
}
