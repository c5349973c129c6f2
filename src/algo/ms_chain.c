/* algorithm=ms_chain: Makedon & Symvonis's routing on a chain or ring (003 §2, §4.1):
 * Route_on_a_Chain, many-to-one and one-to-many (farthest first), Lemmas 6 and 7 on rings,
 * run by the line simulator (include/routesim/ms_line.h) with the bounds beside. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "routesim/algo.h"
#include "routesim/alloc.h"
#include "routesim/metrics.h"
#include "routesim/ms_line.h"
#include "routesim/net.h"
#include "routesim/openloop.h"
#include "routesim/problem.h"
#include "routesim/route.h"

static const char *const problem_names[] = {"auto", "many_to_one", "one_to_many", NULL};
enum { PB_AUTO, PB_MANY_TO_ONE, PB_ONE_TO_MANY };

static const struct rs_optdef ms_chain_options[] = {
    {"ms_problem", RS_OPT_CHOICE, "auto", 0, 0, problem_names,
     "many_to_one: Route_on_a_Chain (FIFO; rings: Lemma 6, shortest way); one_to_many: "
     "farthest first (chains, Theorem 3) or Lemma 7's delayed store-and-forward (rings); "
     "auto: many_to_one when no source has two moving packets, else one_to_many", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL},
};

static const char *const ms_chain_engines[] = {"cut_through_partial", NULL};

static const char *const disc_names[] = {"fifo", "farthest_first", "saf_delayed"};

/* The engine keys ms_chain reads (length) and refuses (anything but the paper's single FIFO
 * of k flits per direction). */
static int read_keys(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                     uint32_t *k, struct rs_err *err)
{
    const struct rs_optdef *opt = engine->options;
    int64_t L, vcs, depth;
    int on_delay, classes, rc;
    enum rs_injection inj;
    if ((rc = rs_openloop_process(in->params, &inj, err)))
        return rc;
    if (inj != RS_INJECT_BATCH)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=ms_chain routes a static message set: use "
                          "injection_process=batch");
    if ((rc = rs_opt_int(in->params, opt, "length", &L, err)) ||
        (rc = rs_opt_int(in->params, opt, "vcs", &vcs, err)) ||
        (rc = rs_opt_int(in->params, opt, "vc_depth", &depth, err)) ||
        (rc = rs_opt_choice(in->params, opt, "on_delay", &on_delay, err)) ||
        (rc = rs_opt_choice(in->params, opt, "vc_classes", &classes, err)))
        return rc;
    if (vcs != 1 || depth != 0 || on_delay != 0 || classes != 0)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=ms_chain models 003's one FIFO of k flits per channel: "
                          "vcs=1, vc_depth=0, on_delay=wait and vc_classes=none only");
    if (in->routing != RS_ROUTING_DIRECT)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=ms_chain routes on the shortest way: use routing=direct");
    if (in->plan)
        return rs_err_set(err, RS_EUNSUPPORTED, "algorithm=ms_chain takes no engine plan");
    *k = (uint32_t)L;
    return 0;
}

/* Instance facts over the moving packets (destination != source). */
struct facts {
    uint32_t moving;
    bool one_per_source, one_per_dest, permutation, nonadjacent;
};

static int instance_facts(const struct rs_problem *pb, uint32_t n, bool ring, struct facts *f,
                          struct rs_err *err)
{
    uint32_t *cnt = rs_calloc((size_t)2 * n, sizeof *cnt);
    if (!cnt)
        return rs_err_set(err, RS_ENOMEM, "algorithm=ms_chain: out of memory for n=%u", n);
    uint32_t *scnt = cnt, *dcnt = cnt + n;
    memset(f, 0, sizeof *f);
    f->one_per_source = f->one_per_dest = f->nonadjacent = true;
    for (uint64_t m = 0; m < pb->n_msgs; m++) {
        uint32_t s = rs_problem_src(pb, m), t = pb->dst[m];
        if (s == t)
            continue;
        f->moving++;
        if (++scnt[s] > 1)
            f->one_per_source = false;
        if (++dcnt[t] > 1)
            f->one_per_dest = false;
    }
    for (uint32_t s = 0; s < n; s++) {
        uint32_t nx = s + 1 < n ? s + 1 : (ring && n > 2 ? 0 : n);
        if (nx < n && nx != s && scnt[s] && scnt[nx])
            f->nonadjacent = false;
    }
    /* Theorem 1's permutation: every processor sends exactly one packet and receives one
     * (fixed points included) */
    f->permutation = pb->n_msgs == n;
    memset(cnt, 0, (size_t)2 * n * sizeof *cnt);
    for (uint64_t m = 0; m < pb->n_msgs && f->permutation; m++)
        if (++scnt[rs_problem_src(pb, m)] > 1 || ++dcnt[pb->dst[m]] > 1)
            f->permutation = false;
    rs_free(cnt);
    return 0;
}

static int put_bound(struct rs_record *out, enum rs_metric b, enum rs_metric r, bool applies,
                     double bound, double makespan)
{
    double v = applies ? bound : NAN;
    return rs_metric_double(out, b, v) | rs_metric_double(out, r, applies ? makespan / v : NAN);
}

static int ms_chain_run(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                        struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                        struct rs_err *err)
{
    (void)deadlock_msg, (void)deadlock_len;
    const struct rs_net *net = in->net;
    const struct rs_problem *pb = in->pb;
    uint32_t k = 0;
    int which = 0, rc;
    if ((rc = read_keys(in, engine, &k, err)) ||
        (rc = rs_opt_choice(in->params, ms_chain_options, "ms_problem", &which, err)))
        return rc;
    if (!(net->caps & RS_CAP_COORDS) || net->dims != 1 || net->n_terminals != net->n_nodes)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=ms_chain runs on topology=chain or ring (one dimension, "
                          "a terminal per node); ms_mesh and ms_torus route meshes");
    const bool ring = (net->caps & RS_CAP_WRAP) != 0;
    const uint32_t n = net->n_terminals;
    if (pb->n_msgs > (uint64_t)INT32_MAX)
        return rs_err_set(err, RS_EINVAL, "algorithm=ms_chain: too many messages (%llu)",
                          (unsigned long long)pb->n_msgs);
    struct facts f;
    if ((rc = instance_facts(pb, n, ring, &f, err)))
        return rc;
    if (which == PB_AUTO) {
        if (!f.one_per_source && !f.one_per_dest)
            return rs_err_set(err, RS_EINVAL,
                              "algorithm=ms_chain: the message set is neither many-to-one (a "
                              "source sends two packets) nor one-to-many (a processor receives "
                              "two); set ms_problem");
        which = f.one_per_source ? PB_MANY_TO_ONE : PB_ONE_TO_MANY;
    }
    enum rs_ms_disc disc = which == PB_MANY_TO_ONE ? RS_MS_FIFO
                           : ring                  ? RS_MS_SAF_DELAYED
                                                   : RS_MS_FARTHEST;

    uint32_t m = (uint32_t)pb->n_msgs;
    struct rs_ms_packet *pkt = rs_malloc((size_t)(m ? m : 1) * sizeof *pkt);
    uint64_t *fin = rs_malloc((size_t)(m ? m : 1) * sizeof *fin);
    if (!pkt || !fin) {
        rs_free(pkt);
        rs_free(fin);
        return rs_err_set(err, RS_ENOMEM, "algorithm=ms_chain: out of memory for %u messages", m);
    }
    for (uint32_t i = 0; i < m; i++)
        pkt[i] = (struct rs_ms_packet){0, rs_problem_src(pb, i), pb->dst[i], 0};
    struct rs_ms_line_problem lp = {.lines = 1, .n = n, .shape = ring ? RS_MS_RING : RS_MS_CHAIN,
                                    .disc = disc, .k = k, .m = m, .pkt = pkt,
                                    .check = in->check};
    struct rs_ms_line_result lr;
    rc = rs__ms_line_route(&lp, &lr, fin, NULL, err);
    struct rs_result res;
    rs_result_init(&res);
    struct rs_lat_source ls = {.n = m, .finish64 = fin, .none = RS_LAT_EVERY};
    if (!rc && (rc = rs_result_latency(&res, &ls)))
        rc = rs_err_set(err, rc, "algorithm=ms_chain: out of memory for latencies");
    rs_free(pkt);
    rs_free(fin);
    if (rc)
        return rc;
    res.makespan = (int64_t)lr.steps;
    res.messages = res.delivered = m;
    res.dropped = 0;
    res.flit_hops = (int64_t)lr.flit_hops;
    res.steps = (int64_t)lr.steps;
    res.deadlock = 0;
    if (in->result)
        *in->result = res;
    static const enum rs_metric cols[] = {RS_M_MAKESPAN,    RS_M_MESSAGES,    RS_M_DELIVERED,
                                          RS_M_DROPPED,     RS_M_LATENCY_MEAN, RS_M_LATENCY_P99,
                                          RS_M_LATENCY_MAX, RS_M_FLIT_HOPS,   RS_M_STEPS,
                                          RS_M_DEADLOCK};
    int e = rs_result_record(&res, cols, sizeof cols / sizeof cols[0], out);
    double mk = (double)lr.steps;
    e |= rs_metric_string(out, RS_M_MS_DISCIPLINE, disc_names[disc]);
    e |= rs_metric_int(out, RS_M_MS_M, f.moving);
    e |= rs_metric_int(out, RS_M_MS_MAX_QUEUE, lr.max_queue);
    e |= put_bound(out, RS_M_BOUND_THM1, RS_M_MAKESPAN_OVER_THM1,
                   !ring && disc == RS_MS_FIFO && f.permutation,
                   rs__ms_bound_thm1(n, k), mk);
    bool thm23 = !ring && ((disc == RS_MS_FIFO && f.one_per_source) ||
                           (disc == RS_MS_FARTHEST && f.one_per_dest));
    e |= put_bound(out, RS_M_BOUND_THM23, RS_M_MAKESPAN_OVER_THM23, thm23,
                   rs__ms_bound_thm23(n, k, f.moving), mk);
    e |= put_bound(out, RS_M_BOUND_LEMMA6, RS_M_MAKESPAN_OVER_LEMMA6,
                   ring && disc == RS_MS_FIFO && f.one_per_source && f.nonadjacent,
                   rs__ms_bound_lemma6(n, k), mk);
    e |= put_bound(out, RS_M_BOUND_LEMMA7, RS_M_MAKESPAN_OVER_LEMMA7,
                   ring && disc == RS_MS_SAF_DELAYED && f.one_per_dest,
                   rs__ms_bound_lemma7(n, k), mk);
    return e ? rs_err_set(err, RS_ENOMEM, "out of memory for the result record") : 0;
}

const struct rs_algo_ops rs_algo_ms_chain = {
    .name = "ms_chain",
    .summary = "Makedon-Symvonis chain and ring routing (003 §2, §4.1): Route_on_a_Chain, "
               "many-to-one, one-to-many",
    .options = ms_chain_options,
    .switching = ms_chain_engines,
    .needs = RS_CAP_COORDS,
    .run = ms_chain_run,
};
