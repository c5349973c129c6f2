/* rs_run / rs_analyze contract: every resolved parameter (defaults included) comes first,
 * in table order, then the metrics; keys are validated against the chosen modules' tables
 * only; errors leave a clear message. */
#include <math.h>
#include <string.h>

#include "rs_test.h"

#include "routesim/engine.h"
#include "routesim/net.h"

static const char *const param_order[] = {"topology", "N",        "wrap",     "traffic",
                                          "per_input", "switching", "routing", "seed",
                                          "check",    "algorithm", "queue_at",  "queue_size", "protocol",
                                          "on_full", "rank_levels"};
static const char *const metric_order[] = {"makespan",     "messages",    "delivered",
                                           "dropped",      "delivered_fraction", "max_queue",
                                           "latency_mean", "latency_p99",  "latency_max",
                                           "hops",         "steps",        "deadlock",
                                           "rank_levels_used", "top_rank_messages",
                                           "top_rank_delivered", "congestion", "dilation"};

/* The shortest command does the common thing: butterfly N=8, uniform, one message per
 * input, store-and-forward, direct routing, input queues, FIFO, unbounded, block. */
static void test_defaults_and_order(void **state)
{
    struct rs_record r;
    rs_test_run("", &r);
    size_t np = sizeof param_order / sizeof *param_order;
    size_t nm = sizeof metric_order / sizeof *metric_order;
    assert_int_equal(r.n, np + nm);
    for (size_t i = 0; i < np; i++)
        assert_string_equal(r.f[i].name, param_order[i]);
    for (size_t i = 0; i < nm; i++)
        assert_string_equal(r.f[np + i].name, metric_order[i]);
    assert_string_equal(rs_record_get(&r, "topology")->s, "butterfly");
    assert_int_equal(rs_test_int(&r, "N"), 8);
    assert_string_equal(rs_record_get(&r, "traffic")->s, "uniform");
    assert_int_equal(rs_test_int(&r, "per_input"), 1);
    assert_string_equal(rs_record_get(&r, "switching")->s, "store_forward");
    assert_string_equal(rs_record_get(&r, "routing")->s, "direct");
    assert_string_equal(rs_record_get(&r, "queue_at")->s, "input");
    assert_string_equal(rs_record_get(&r, "protocol")->s, "fifo");
    assert_int_equal(rs_test_int(&r, "queue_size"), 0);
    assert_int_equal(rs_test_int(&r, "delivered"), 8);
    rs_record_free(&r);
}

/* Keys of a module that is not chosen are unknown; keys of the chosen one are fine. */
static void test_keys_follow_the_chosen_modules(void **state)
{
    struct rs_record r;
    char msg[512];
    assert_int_equal(rs_test_try("topology=mesh N=16", 1, &r, msg, sizeof msg), RS_EUNKNOWN);
    /* N sizes other topologies: named as such, with the keys mesh takes (not "did you
     * mean 'n'?", issue 20) */
    assert_string_equal(msg, "command line: unknown key 'N' for topology=mesh (it is a key of "
                             "topology=butterfly|benes|lcan|baseline|swbanyan|trac|cm5|"
                             "pruned_butterfly|fat_tree|sorting_fat_tree); mesh takes k, n, c");
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=mesh k=3 n=2 traffic=bpc bpc=0", 1, &r, msg,
                                 sizeof msg),
                     RS_ECONSTRAINT); /* bpc is known, but 3x3 = 9 is not a power of two */
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=chain k=4 wrap=1", 0, &r, msg, sizeof msg),
                     RS_EUNKNOWN);
    rs_record_free(&r);
}

/* Analysis records parameters, then messages, congestion, dilation, total hops and the
 * per-level loads; on a mesh there are no levels. */
static void test_analyze_fields(void **state)
{
    struct rs_record r;
    char msg[512];
    assert_int_equal(rs_test_try("topology=mesh k=4 n=2 traffic=tornado", 0, &r, msg,
                                 sizeof msg),
                     0);
    assert_int_equal(rs_test_int(&r, "messages"), 16);
    /* tornado on k=4: every coordinate x -> x+1 mod 4 (ceil(4/2)-1 = 1); a mesh has no
     * wrap-around, so 3 -> 0 is 3 hops back: per dimension the 4 coordinates cost
     * 1+1+1+3 = 6, over 4 lines = 24, two dimensions = 48; the longest is (3,3) -> (0,0)
     * with 6 hops */
    assert_int_equal(rs_test_int(&r, "dilation"), 6);
    assert_int_equal(rs_test_int(&r, "total_hops"), 48);
    assert_null(rs_record_get(&r, "level0_max"));
    rs_record_free(&r);
}

/* topology=cms_lower_bound's B and L are the flit engines' vcs and length (linked keys):
 * one of a pair set gives both its value; neither set gives the engine key the topology's
 * default; both set keep their own values (a network built for B=1 run with vcs=3). An
 * engine without the key (store_forward) links nothing. A linked value out of the engine's
 * range names the key the user wrote, and a topology error caused by a linked value says
 * where it came from. */
static void test_linked_keys_of_the_lower_bound_network(void **state)
{
    static const struct {
        const char *kv;
        int64_t B, vcs, L, length;
    } cases[] = {
        {"B=2 C=3 D=5", 2, 2, 10, 10},          /* B alone: vcs = B, length = default L */
        {"vcs=2 C=3 D=5", 2, 2, 10, 10},        /* vcs alone: the network is built for it */
        {"L=12 D=5", 1, 1, 12, 12},             /* L alone */
        {"length=12 D=5", 1, 1, 12, 12},        /* length alone: L follows */
        {"B=1 vcs=3 D=5", 1, 3, 10, 10},        /* both: fix the network, vary vcs */
        {"L=20 length=30 D=5", 1, 1, 20, 30},   /* both: as given */
        {"", 1, 1, 10, 10},                     /* neither: the topology's defaults */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char kv[256];
        struct rs_record r;
        snprintf(kv, sizeof kv, "topology=cms_lower_bound traffic=paths switching=wormhole %s",
                 cases[i].kv);
        rs_test_run(kv, &r);
        if (rs_test_int(&r, "B") != cases[i].B || rs_test_int(&r, "vcs") != cases[i].vcs ||
            rs_test_int(&r, "L") != cases[i].L || rs_test_int(&r, "length") != cases[i].length) {
            print_error("%s: B=%lld vcs=%lld L=%lld length=%lld\n", kv,
                        (long long)rs_test_int(&r, "B"), (long long)rs_test_int(&r, "vcs"),
                        (long long)rs_test_int(&r, "L"), (long long)rs_test_int(&r, "length"));
            fail();
        }
        rs_record_free(&r);
    }
    /* the engine really runs with the linked values: B=2 D=5 gives M' = 4 base messages
     * (2 binom(3,2) - 1 = 5 <= 5 < 2 binom(4,2) - 1 = 11), C/(B+1) = 1 copy each: 4 messages
     * of length = L = 10 flits on 5 hops, 4 * 10 * 5 = 200 flit hops */
    struct rs_record r;
    rs_test_run("topology=cms_lower_bound traffic=paths switching=wormhole B=2 C=3 D=5", &r);
    assert_int_equal(rs_test_int(&r, "messages"), 4);
    assert_int_equal(rs_test_int(&r, "flit_hops"), 200);
    rs_record_free(&r);
    rs_test_run("topology=cms_lower_bound traffic=paths B=2 C=3", &r); /* store_forward */
    assert_null(rs_record_get(&r, "vcs"));
    assert_null(rs_record_get(&r, "length"));
    rs_record_free(&r);
    char msg[512];
    assert_int_equal(rs_test_try("topology=cms_lower_bound traffic=paths switching=wormhole "
                                 "D=5 L=70000",
                                 1, &r, msg, sizeof msg),
                     RS_ECONSTRAINT);
    assert_string_equal(msg, "command line (length follows L=70000 of topology=cms_lower_bound):"
                             " key 'length': expected an integer in [1, 65535], got '70000'");
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=cms_lower_bound traffic=paths switching=wormhole "
                                 "vcs=3",
                                 1, &r, msg, sizeof msg),
                     RS_ECONSTRAINT);
    assert_string_equal(msg, "topology=cms_lower_bound needs C >= B+1 and D >= B+1 (001 Thm "
                             "2.2.1; got B=3 C=2 D=5) (B=3 follows vcs=3)");
    rs_record_free(&r);
}

/* predict=lcan in a run: the recurrence's metrics come last, after the measured ones, and
 * equal analyze's; a network the recurrence does not cover is refused by validation (so a
 * sweep stops before writing anything). CB-LCAN(16,4,4) by hand: l = 2, the top level's
 * 4 switches have 16 downers, all loaded (p = 16/16 = 1), so its down channels carry
 * q = 1 - (1 - 1/4)^4 = 175/256, and the 16 channels into level 0 route 16 q = 10.9375
 * circuits in the first cycle. */
static void test_run_with_prediction(void **state)
{
    struct rs_record r, a;
    char msg[512];
    const char *kv = "topology=lcan N=16 d=4 u=4 traffic=root switching=circuit predict=lcan";
    rs_test_run(kv, &r);
    assert_string_equal(rs_record_get(&r, "predict")->s, "lcan");
    assert_true(rs_record_get(&r, "predict") - r.f < (long)r.n_params); /* a parameter */
    assert_string_equal(r.f[r.n - 4].name, "dilation");
    assert_string_equal(r.f[r.n - 3].name, "predicted_cycles");
    assert_string_equal(r.f[r.n - 2].name, "predicted_first_cycle");
    assert_string_equal(r.f[r.n - 1].name, "predicted_per_cycle");
    assert_true(fabs(rs_test_double(&r, "predicted_first_cycle") - 10.9375) < 1e-12);
    assert_int_equal(rs_test_try("topology=lcan N=16 d=4 u=4 traffic=root predict=lcan", 0, &a,
                                 msg, sizeof msg),
                     0);
    assert_true(rs_test_double(&r, "predicted_cycles") == rs_test_double(&a, "predicted_cycles"));
    assert_string_equal(rs_record_get(&r, "predicted_per_cycle")->s,
                        rs_record_get(&a, "predicted_per_cycle")->s);
    rs_record_free(&r);
    rs_record_free(&a);
    rs_test_run("topology=lcan N=16 d=4 u=4 traffic=root switching=circuit", &r);
    assert_null(rs_record_get(&r, "predicted_cycles"));
    rs_record_free(&r);

    struct rs_params p;
    struct rs_err err;
    rs_test_params(&p, "topology=butterfly N=16 switching=circuit predict=lcan");
    rs_err_clear(&err);
    assert_int_equal(rs_validate(&p, NULL, &err), RS_EUNSUPPORTED);
    assert_non_null(strstr(err.msg, "predict=lcan is the recurrence of CB-LCANs"));
    rs_params_free(&p);
    assert_int_equal(rs_test_try("topology=lcan N=16 d=4 u=2 pi=tree switching=circuit "
                                 "predict=lcan",
                                 1, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    rs_record_free(&r);
}

/* rs_check refuses a value out of its range with nothing built, but lets a constraint that
 * only the build checks (a power of two) through; rs_validate, which builds, refuses it. */
static void test_check_builds_nothing(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    rs_test_params(&p, "topology=butterfly N=2^40");
    assert_int_equal(rs_check(&p, &err), RS_ECONSTRAINT);
    assert_non_null(strstr(err.msg, "key 'N': expected an integer in [2, 2^26]"));
    rs_params_free(&p);
    rs_test_params(&p, "topology=butterfly N=12");
    assert_int_equal(rs_check(&p, &err), 0);
    assert_int_equal(rs_validate(&p, NULL, &err), RS_ECONSTRAINT);
    rs_params_free(&p);
    rs_test_params(&p, "topology=butterfly N=16 max_memory=lots");
    assert_int_equal(rs_check(&p, &err), RS_EINVAL);
    rs_params_free(&p);
}

/* Every engine estimates its memory; the estimate grows with the messages; rs_run and
 * rs_validate refuse a run over max_memory with RS_ERESOURCE, and the same run under a
 * large max_memory gives the record it gives without one. */
static void test_memory_estimate_refuses(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_net net;
    struct rs_err err;
    rs_test_params(&p, "topology=butterfly N=2^8");
    assert_int_equal(rs_net_build(&net, &p, &err), 0);
    for (int i = 0; rs_engines[i]; i++) {
        const struct rs_engine_ops *e = rs_engines[i];
        assert_non_null(e->estimate);
        uint64_t one = e->estimate(e, &net, 256, &p, 1),
                 four = e->estimate(e, &net, 1024, &p, 1);
        assert_true(one > 256 * 8);
        assert_true(four > one);
    }
    rs_net_free(&net);
    rs_params_free(&p);
    for (int i = 0; rs_engines[i]; i++) {
        char kv[256];
        struct rs_record rec;
        snprintf(kv, sizeof kv, "topology=butterfly N=2^12 switching=%s max_memory=64K",
                 rs_engines[i]->name);
        rs_test_params(&p, kv);
        rs_record_init(&rec);
        assert_int_equal(rs_run(&p, &rec, NULL, 0, &err), RS_ERESOURCE);
        assert_non_null(strstr(err.msg, "of memory, more than max_memory (64 KiB)"));
        assert_int_equal(rs_validate(&p, NULL, &err), RS_ERESOURCE);
        rs_record_free(&rec);
        rs_params_free(&p);
    }
    struct rs_record a, b;
    rs_record_init(&a);
    rs_record_init(&b);
    rs_test_params(&p, "topology=butterfly N=64 seed=5");
    assert_int_equal(rs_run(&p, &a, NULL, 0, &err), 0);
    rs_params_free(&p);
    rs_test_params(&p, "topology=butterfly N=64 seed=5 max_memory=1G");
    assert_int_equal(rs_run(&p, &b, NULL, 0, &err), 0);
    rs_params_free(&p);
    assert_int_equal(a.n, b.n);
    for (size_t k = 0; k < a.n; k++)
        assert_string_equal(a.f[k].name, b.f[k].name);
    rs_record_free(&a);
    rs_record_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_order),
        cmocka_unit_test(test_keys_follow_the_chosen_modules),
        cmocka_unit_test(test_analyze_fields),
        cmocka_unit_test(test_linked_keys_of_the_lower_bound_network),
        cmocka_unit_test(test_run_with_prediction),
        cmocka_unit_test(test_check_builds_nothing),
        cmocka_unit_test(test_memory_estimate_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
