/* Expanding every message's route into its list of channel ids (struct rs_path_set), the
 * input of off-line schedules. Contracts in include/routesim/path_set.h. */
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/path_set.h"

uint32_t rs_path_max_hops(const struct rs_net *net)
{
    uint64_t h = 4ull * net->n_nodes + net->n_channels + 16;
    return h > UINT32_MAX ? UINT32_MAX : (uint32_t)h;
}

static void route_state(struct rs_route_state *st, const struct rs_net *net,
                        const struct rs_problem *pb, const struct rs_routing_ops *routing,
                        uint64_t seed, uint64_t m)
{
    st->src = rs_problem_src(pb, m);
    st->dst = pb->dst[m];
    st->mid = rs_route_mid_for(net, routing, seed, m, st->src, st->dst);
    st->hops = 0;
    st->msg = (uint32_t)m;
}

int rs_path_set_build(struct rs_path_set *ps, const struct rs_net *net,
                      const struct rs_problem *pb, const struct rs_routing_ops *routing,
                      uint64_t seed, struct rs_err *err)
{
    RS_ASSERT(ps != NULL && net != NULL && pb != NULL && routing != NULL);
    RS_ASSERT(pb->n_terminals == net->n_terminals);
    memset(ps, 0, sizeof *ps);
    int rc = rs_route_need_fixed(routing, "an off-line path set", err);
    if (rc)
        return rc;
    uint32_t max_hops = rs_path_max_hops(net);
    ps->off = rs_malloc(((size_t)pb->n_msgs + 1) * sizeof *ps->off);
    if (!ps->off)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu paths",
                          (unsigned long long)pb->n_msgs);
    ps->off[0] = 0;
    for (uint64_t m = 0; m < pb->n_msgs; m++) { /* pass 1: lengths */
        struct rs_route_state st;
        route_state(&st, net, pb, routing, seed, m);
        int64_t len = rs_route_walk(net, routing, &st, NULL, 0, max_hops, NULL);
        if (len < 0) {
            rs_path_set_free(ps);
            return rs_err_set(err, RS_EINVARIANT,
                              "route of message %llu (%u -> %u) does not end at its destination",
                              (unsigned long long)m, st.src, st.dst);
        }
        ps->off[m + 1] = ps->off[m] + (uint64_t)len;
    }
    ps->chan = rs_malloc((size_t)(ps->off[pb->n_msgs] ? ps->off[pb->n_msgs] : 1) * sizeof *ps->chan);
    if (!ps->chan) {
        uint64_t total = ps->off[pb->n_msgs];
        rs_path_set_free(ps);
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu hops",
                          (unsigned long long)total);
    }
    for (uint64_t m = 0; m < pb->n_msgs; m++) { /* pass 2: the channels */
        struct rs_route_state st;
        route_state(&st, net, pb, routing, seed, m);
        uint64_t len = ps->off[m + 1] - ps->off[m];
        int64_t again = rs_route_walk(net, routing, &st, ps->chan + ps->off[m], (uint32_t)len,
                                        max_hops, NULL);
        RS_ASSERT(again == (int64_t)len); /* routes are pure: pass 2 walks pass 1's paths */
        (void)again;
    }
    ps->n_msgs = pb->n_msgs;
    return 0;
}

void rs_path_set_free(struct rs_path_set *ps)
{
    rs_free(ps->off);
    rs_free(ps->chan);
    memset(ps, 0, sizeof *ps);
}
