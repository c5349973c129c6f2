/* One subround of algorithm=cms_butterfly (001 §3.1 steps 3-4): the copies of one colour
 * enter the wrapped butterfly together, each makes its two passes through its intermediate,
 * and a copy delayed anywhere, its input switch included, is discarded. Runs the flit engine
 * with a plan (intermediates, discard on delay) on the copies that can enter. */
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "algo/cms_butterfly.h"

void rs__cms_sub_free(struct rs__cms_sub *s)
{
    rs_free(s->pb.src);
    rs_free(s->pb.dst);
    rs_free(s->mid);
    rs_free(s->finish);
    rs_free(s->fate);
    rs_free(s->copy);
    rs_free(s->used);
    memset(s, 0, sizeof *s);
}

int rs__cms_sub_reserve(struct rs__cms_sub *s, const struct rs_net *net, uint32_t cap,
                        struct rs_err *err)
{
    RS_ASSERT(s != NULL && net != NULL);
    if (!s->used) {
        s->used = rs_calloc((size_t)net->n_terminals * net->max_ports, sizeof *s->used);
        if (!s->used)
            return rs_err_set(err, RS_ENOMEM, "out of memory for %u inputs", net->n_terminals);
    }
    if (cap <= s->cap)
        return 0;
    uint32_t *src = rs_realloc(s->pb.src, (size_t)cap * sizeof *src);
    if (src)
        s->pb.src = src;
    uint32_t *dst = rs_realloc(s->pb.dst, (size_t)cap * sizeof *dst);
    if (dst)
        s->pb.dst = dst;
    uint32_t *mid = rs_realloc(s->mid, (size_t)cap * sizeof *mid);
    if (mid)
        s->mid = mid;
    uint32_t *fin = rs_realloc(s->finish, (size_t)cap * sizeof *fin);
    if (fin)
        s->finish = fin;
    uint8_t *fate = rs_realloc(s->fate, (size_t)cap * sizeof *fate);
    if (fate)
        s->fate = fate;
    uint32_t *copy = rs_realloc(s->copy, (size_t)cap * sizeof *copy);
    if (copy)
        s->copy = copy;
    if (!src || !dst || !mid || !fin || !fate || !copy)
        return rs_err_set(err, RS_ENOMEM, "out of memory for a subround of %u copies", cap);
    s->cap = cap;
    return 0;
}

/* The input switches: copies in idx order; a copy enters when fewer than start_cap copies
 * of its input took its first channel before it. Fills s->pb, s->mid, s->copy with those
 * that enter; marks the others in res and cp_finish. */
static void admit_at_inputs(const struct rs_engine_input *in, const struct rs__cms_cfg *cfg,
                            struct rs__cms_sub *s, const uint32_t *idx, uint32_t n,
                            const uint32_t *cp_msg, const uint32_t *cp_mid, uint32_t *cp_finish,
                            struct rs__cms_sub_result *res)
{
    const struct rs_net *net = in->net;
    const struct rs_problem *pb = in->pb;
    uint32_t m = 0, P = net->max_ports, most = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = idx[k], msg = cp_msg[i];
        uint32_t src = rs_problem_src(pb, msg);
        struct rs_route_state st = {src, pb->dst[msg], cp_mid[i], 0, msg};
        uint32_t port = rs_route_port(net, in->routing, net->ops->src_node(net, src), &st);
        uint32_t *u = &s->used[(uint64_t)src * P + port];
        cp_finish[i] = RS_NONE;
        if (*u >= cfg->start_cap) {
            res->discarded_at_input++;
            continue;
        }
        ++*u;
        s->pb.src[m] = src;
        s->pb.dst[m] = pb->dst[msg];
        s->mid[m] = cp_mid[i];
        s->copy[m] = i;
        m++;
    }
    for (uint32_t k = 0; k < m; k++) { /* the most copies one input sent; reset the counts */
        uint32_t *u = &s->used[(uint64_t)s->pb.src[k] * P], sum = 0;
        for (uint32_t p = 0; p < P; p++)
            sum += u[p];
        if (sum > most)
            most = sum;
    }
    for (uint32_t k = 0; k < m; k++)
        memset(&s->used[(uint64_t)s->pb.src[k] * P], 0, P * sizeof *s->used);
    s->pb.n_terminals = net->n_terminals;
    s->pb.n_msgs = m;
    s->pb.per_input = most;
}

int rs__cms_subround(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                     const struct rs__cms_cfg *cfg, struct rs__cms_sub *s, const uint32_t *idx,
                     uint32_t n, const uint32_t *cp_msg, const uint32_t *cp_mid,
                     uint32_t *cp_finish, struct rs__cms_sub_result *res, char *deadlock_msg,
                     size_t deadlock_len, struct rs_err *err)
{
    RS_ASSERT(in != NULL && engine != NULL && cfg != NULL && s != NULL && res != NULL);
    RS_ASSERT(n <= s->cap); /* s was reserved for the copies of this subround */
    memset(res, 0, sizeof *res);
    if (n == 0)
        return 0;
    if (n > s->cap)
        return rs_err_set(err, RS_EINVARIANT, "subround of %u copies in scratch for %u", n,
                          s->cap);
    admit_at_inputs(in, cfg, s, idx, n, cp_msg, cp_mid, cp_finish, res);
    /* at least the first copy of every input enters, so m >= 1 */
    struct rs_engine_plan plan = {.mid = s->mid, .discard_on_delay = 1, .finish = s->finish,
                                  .fate = s->fate};
    struct rs_engine_input sub = *in;
    struct rs_record rec;
    struct rs_result r;
    sub.pb = &s->pb;
    sub.plan = &plan;
    sub.result = &r;
    rs_record_init(&rec);
    rs_result_init(&r);
    int rc = rs_engine_run(engine, &sub, &rec, deadlock_msg, deadlock_len, err);
    if (!rc && r.deadlock)
        rc = rs_err_set(err, RS_EINVARIANT,
                        "a subround deadlocked although delayed copies are discarded");
    if (!rc) {
        res->steps = (uint32_t)r.makespan;
        res->flit_hops = (uint64_t)r.flit_hops;
        res->max_buffer = (uint32_t)r.max_buffer;
    }
    rs_record_free(&rec);
    /* the copies that entered all crossed their first channel at step 1: a discard at step 1
     * would be a delay at the input that admit_at_inputs did not foresee */
    for (uint64_t k = 0; k < s->pb.n_msgs && !rc; k++) {
        if (s->fate[k] == RS_FATE_DELIVERED) {
            cp_finish[s->copy[k]] = s->finish[k];
            res->delivered++;
        } else if (s->fate[k] == RS_FATE_DROPPED && s->finish[k] > 1) {
            res->discarded++;
        } else {
            rc = rs_err_set(err, RS_EINVARIANT,
                            "subround: copy %u of message %u %s at step %u", s->copy[k],
                            cp_msg[s->copy[k]],
                            s->fate[k] == RS_FATE_DROPPED ? "was delayed at its input"
                                                          : "was neither delivered nor discarded",
                            s->finish[k]);
        }
    }
    return rc;
}
