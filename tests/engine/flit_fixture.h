/* Shared fixture of the flit engine tests: run one flit engine on a hand-made list of
 * messages (explicit sources and destinations) with an optional plan, the invariant
 * checker on, and hand back the record and the deadlock or error text. */
#ifndef RS_TESTS_ENGINE_FLIT_FIXTURE_H
#define RS_TESTS_ENGINE_FLIT_FIXTURE_H

#include "rs_test.h"
#include "routesim/engine.h"
#include "routesim/problem.h"

/* Run the engine named by `switching` in kv (the other keys of kv are its options) on the
 * network of net_kv with messages i = 0..n-1 from pairs[i][0] to pairs[i][1]. routing gives
 * Valiant intermediates unless the plan has its own. Returns the engine's code; msg gets
 * the error or deadlock text. rec is initialised here. */
static inline int flit_try(const char *net_kv, const char *kv, const uint32_t (*pairs)[2],
                           uint32_t n, const struct rs_routing_ops *routing,
                           const struct rs_engine_plan *plan,
                           struct rs_record *rec, char *msg, size_t msg_len)
{
    struct rs_net net;
    struct rs_params p;
    struct rs_err err;
    struct rs_problem pb;
    char dl[2048] = "";
    rs_test_net(&net, net_kv);
    rs_test_params(&p, kv);
    rs_record_init(rec);
    rs_err_clear(&err);
    memset(&pb, 0, sizeof pb);
    pb.n_terminals = net.n_terminals;
    pb.n_msgs = n;
    pb.dst = malloc(n * sizeof *pb.dst + 1);
    pb.src = malloc(n * sizeof *pb.src + 1);
    uint32_t *per = calloc(net.n_terminals, sizeof *per);
    assert_non_null(pb.dst);
    assert_non_null(pb.src);
    assert_non_null(per);
    for (uint32_t i = 0; i < n; i++) {
        pb.src[i] = pairs[i][0];
        pb.dst[i] = pairs[i][1];
        if (++per[pairs[i][0]] > pb.per_input)
            pb.per_input = per[pairs[i][0]];
    }
    free(per);
    const struct rs_param *sw = rs_params_find(&p, "switching");
    const struct rs_engine_ops *eng = rs_engine_find(sw ? sw->value : "wormhole");
    assert_non_null(eng);
    /* the engine ignores the `switching` key itself: drop it from its view */
    struct rs_params q;
    rs_params_init(&q);
    for (size_t i = 0; i < p.n; i++)
        if (strcmp(p.v[i].key, "switching") != 0)
            assert_int_equal(rs_params_set(&q, p.v[i].key, p.v[i].value, NULL, 0, &err), 0);
    struct rs_engine_input in = {.net = &net, .pb = &pb, .params = &q, .routing = routing,
                                 .seed = 1, .check = 1, .plan = plan};
    int rc = rs_engine_run(eng, &in, rec, dl, sizeof dl, &err);
    if (msg && msg_len)
        rs_test_copy(msg, msg_len, rc ? err.msg : dl);
    rs_params_free(&q);
    rs_params_free(&p);
    rs_problem_free(&pb);
    rs_net_free(&net);
    return rc;
}

/* flit_try that must succeed. */
static inline void flit_run(const char *net_kv, const char *kv, const uint32_t (*pairs)[2],
                            uint32_t n, const struct rs_engine_plan *plan, struct rs_record *rec)
{
    char msg[2048];
    int rc = flit_try(net_kv, kv, pairs, n, RS_ROUTING_DIRECT, plan, rec, msg, sizeof msg);
    if (rc) {
        print_error("%s | %s: %s\n", net_kv, kv, msg);
        fail();
    }
}

#endif
