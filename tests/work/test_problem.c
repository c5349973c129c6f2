/* Tests of the workload registry and rs_problem_build: the traffic/per_input options,
 * the per-traffic option tables, the N x per_input limit, and a conformance loop that
 * runs every registered traffic on several networks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work/fixture.h"
#include "routesim/net.h"
#include "routesim/params.h"
#include "routesim/problem.h"


static void assert_problem_empty(const struct rs_problem *pb)
{
    assert_null(pb->dst);
    assert_int_equal(pb->n_msgs, 0);
    assert_int_equal(pb->n_terminals, 0);
    assert_int_equal(pb->per_input, 0);
}

/* The CHOICE list of `traffic` names every registered traffic, in registry order, and
 * rs_traffic_find finds each of them. */
static void test_registry_matches_choices(void **state)
{
    const struct rs_optdef *def = rs_optdef_find(rs_problem_options, "traffic");
    assert_non_null(def);
    assert_int_equal(def->type, RS_OPT_CHOICE);
    assert_string_equal(def->def, "uniform");
    int i = 0;
    for (; rs_traffics[i] != NULL; i++) {
        const struct rs_traffic_ops *ops = rs_traffics[i];
        assert_non_null(def->choices[i]);
        assert_string_equal(ops->name, def->choices[i]);
        assert_ptr_equal(rs_traffic_find(ops->name), ops);
        assert_non_null(ops->summary);
        assert_non_null(ops->options);
        assert_true(ops->generate != NULL || ops->build != NULL);
    }
    assert_null(def->choices[i]);
    assert_int_equal(i, 27);
    assert_null(rs_traffic_find("uniformm"));
    assert_null(rs_traffic_find(NULL));

    const struct rs_optdef *q = rs_optdef_find(rs_problem_options, "per_input");
    assert_non_null(q);
    assert_int_equal(q->type, RS_OPT_INT);
    assert_string_equal(q->def, "1");
    assert_true(q->min == 1.0 && q->max == 1048576.0);
}

/* Only bpc, linear, file, subtree_cross, mot_expander, hard_permutation, many_to_one,
 * one_to_many, hotspot, mix and trace declare extra keys. */
static void test_extra_keys(void **state)
{
    for (int i = 0; rs_traffics[i] != NULL; i++) {
        const struct rs_traffic_ops *ops = rs_traffics[i];
        int n = 0;
        while (ops->options[n].name != NULL)
            n++;
        if (strcmp(ops->name, "bpc") == 0) {
            assert_int_equal(n, 1);
            assert_string_equal(ops->options[0].name, "bpc");
        } else if (strcmp(ops->name, "linear") == 0) {
            assert_int_equal(n, 2);
            assert_string_equal(ops->options[0].name, "matrix");
            assert_string_equal(ops->options[1].name, "complement");
        } else if (strcmp(ops->name, "subtree_cross") == 0) {
            assert_int_equal(n, 1);
            assert_string_equal(ops->options[0].name, "height");
        } else if (strcmp(ops->name, "mot_expander") == 0) {
            assert_int_equal(n, 1);
            assert_string_equal(ops->options[0].name, "eta");
        } else if (strcmp(ops->name, "file") == 0) {
            assert_int_equal(n, 2);
            assert_string_equal(ops->options[0].name, "traffic_file");
            assert_string_equal(ops->options[1].name, "file_kind");
        } else if (strcmp(ops->name, "hard_permutation") == 0) {
            assert_int_equal(n, 1);
            assert_string_equal(ops->options[0].name, "hard_protocol");
        } else if (strcmp(ops->name, "many_to_one") == 0) {
            assert_int_equal(n, 2);
            assert_string_equal(ops->options[0].name, "packets");
            assert_string_equal(ops->options[1].name, "spread");
        } else if (strcmp(ops->name, "one_to_many") == 0) {
            assert_int_equal(n, 1);
            assert_string_equal(ops->options[0].name, "packets");
        } else if (strcmp(ops->name, "trace") == 0) {
            assert_int_equal(n, 1);
            assert_string_equal(ops->options[0].name, "trace_file");
        } else if (strcmp(ops->name, "hotspot") == 0 || strcmp(ops->name, "mix") == 0) {
            int mix = strcmp(ops->name, "mix") == 0;
            assert_int_equal(n, 3 + mix);
            if (mix)
                assert_string_equal(ops->options[0].name, "mix");
            assert_string_equal(ops->options[mix].name, "hotspot_nodes");
            assert_string_equal(ops->options[mix + 1].name, "hotspot_rates");
            assert_string_equal(ops->options[mix + 2].name, "hotspot_fraction");
        } else {
            assert_int_equal(n, 0);
        }
    }
}

/* Run rs_params_check_known over the tables a run would use: net, topology, problem and
 * the chosen traffic's own keys. */
static int check_known(const char *traffic, const char *extra, struct rs_err *err)
{
    struct rs_params p;
    rs_params_init(&p);
    assert_int_equal(rs_params_parse_arg(&p, "topology=butterfly", err), 0);
    assert_int_equal(rs_params_parse_arg(&p, "N=8", err), 0);
    char arg[64];
    snprintf(arg, sizeof arg, "traffic=%s", traffic);
    assert_int_equal(rs_params_parse_arg(&p, arg, err), 0);
    assert_int_equal(rs_params_parse_arg(&p, extra, err), 0);
    const struct rs_optdef *const tables[] = {rs_net_options, rs_topo_find("butterfly")->options,
                                              rs_problem_options,
                                              rs_traffic_find(traffic)->options};
    int rc = rs_params_check_known(&p, tables, 4, err);
    rs_params_free(&p);
    return rc;
}

/* bpc= is a key of traffic=bpc only; traffic_file= of traffic=file only. */
static void test_extra_keys_unknown_elsewhere(void **state)
{
    struct rs_err err = {0};
    assert_int_equal(check_known("bpc", "bpc=~0,2,1", &err), 0);
    assert_int_equal(check_known("uniform", "bpc=~0,2,1", &err), RS_EUNKNOWN);
    assert_non_null(strstr(err.msg, "bpc"));
    assert_int_equal(check_known("file", "traffic_file=x.txt", &err), 0);
    assert_int_equal(check_known("file", "file_kind=any", &err), 0);
    assert_int_equal(check_known("bitrev", "traffic_file=x.txt", &err), RS_EUNKNOWN);
    assert_int_equal(check_known("randperm", "file_kind=any", &err), RS_EUNKNOWN);
}

/* Without traffic and per_input the workload is uniform with one message per source. */
static void test_defaults(void **state)
{
    struct fx a, b;
    assert_int_equal(fx_build(&a, 7, "topology=mesh k=4 n=2"), 0);
    assert_int_equal(fx_build(&b, 7, "topology=mesh k=4 n=2 traffic=uniform per_input=1"), 0);
    assert_int_equal(a.pb.n_terminals, 16);
    assert_int_equal(a.pb.per_input, 1);
    assert_int_equal(a.pb.n_msgs, 16);
    assert_memory_equal(a.pb.dst, b.pb.dst, 16 * sizeof(uint32_t));
    fx_free(&a);
    fx_free(&b);
}

/* n_msgs = N x per_input and message m = s*q + k: with identity every message of s is
 * for s, so dst[m] = m / q. */
static void test_message_numbering(void **state)
{
    struct fx f;
    assert_int_equal(fx_build(&f, 1, "topology=butterfly N=8 traffic=identity per_input=5"), 0);
    assert_int_equal(f.pb.n_terminals, 8);
    assert_int_equal(f.pb.per_input, 5);
    assert_int_equal(f.pb.n_msgs, 40);
    for (uint32_t m = 0; m < 40; m++)
        assert_int_equal(f.pb.dst[m], m / 5);
    fx_free(&f);
}

static void test_unknown_traffic(void **state)
{
    struct fx f;
    assert_int_equal(fx_build(&f, 1, "topology=butterfly N=8 traffic=bitrevv"), RS_EUNKNOWN);
    assert_non_null(strstr(f.err.msg, "bitrev"));
    assert_problem_empty(&f.pb);
    fx_free(&f);
}

static void test_per_input_range(void **state)
{
    struct fx f;
    assert_int_not_equal(fx_build(&f, 1, "topology=butterfly N=8 per_input=0"), 0);
    assert_non_null(strstr(f.err.msg, "per_input"));
    assert_problem_empty(&f.pb);
    fx_free(&f);
    assert_int_not_equal(fx_build(&f, 1, "topology=butterfly N=8 per_input=1048577"), 0);
    assert_non_null(strstr(f.err.msg, "per_input"));
    fx_free(&f);
    assert_int_not_equal(fx_build(&f, 1, "topology=butterfly N=8 per_input=many"), 0);
    assert_non_null(strstr(f.err.msg, "per_input"));
    fx_free(&f);
}

/* N x per_input must stay below 2^32: 4096 x 2^20 = 2^32 is refused before anything is
 * allocated. */
static void test_message_count_limit(void **state)
{
    struct fx f;
    assert_int_equal(fx_build(&f, 1, "topology=butterfly N=4096 per_input=1048576"),
                     RS_ECONSTRAINT);
    assert_string_equal(f.err.msg,
                        "N x per_input must be below 2^32 (got N=4096 x per_input=1048576)");
    assert_problem_empty(&f.pb);
    fx_free(&f);
}

/* A constraint error from a traffic leaves pb empty, and rs_problem_free is safe on it
 * and on a zeroed problem. */
static void test_error_leaves_empty(void **state)
{
    struct fx f;
    assert_int_equal(fx_build(&f, 1, "topology=ring k=12 traffic=bitrev"), RS_ECONSTRAINT);
    assert_problem_empty(&f.pb);
    rs_problem_free(&f.pb);
    assert_problem_empty(&f.pb);
    fx_free(&f);
    struct rs_problem zero = {0};
    rs_problem_free(&zero);
    rs_problem_free(NULL);
}

/* How often each destination appears in pb; returns the count array (caller frees). */
static uint64_t *histogram(const struct rs_problem *pb)
{
    uint64_t *h = calloc(pb->n_terminals, sizeof *h);
    assert_non_null(h);
    for (uint64_t m = 0; m < pb->n_msgs; m++) {
        assert_true(pb->dst[m] < pb->n_terminals);
        h[pb->dst[m]]++;
    }
    return h;
}

/* Every registered traffic on butterfly N=16 (shape 2^4) and a 4x4 mesh (root: on two
 * 16-PE LCANs, the only networks it is defined on), q = 3:
 * destinations in range; every traffic but uniform sends exactly q messages to each
 * terminal; the deterministic permutations send all q messages of a source alike. */
static void test_conformance(void **state)
{
    const char *plain[] = {"topology=butterfly N=16", "topology=mesh k=4 n=2"};
    const char *lcans[] = {"topology=lcan N=16 d=4 u=4", "topology=lcan N=16 d=4 u=2 pi=tree"};
    const char *data = getenv("RS_TEST_DATA");
    assert_non_null(data);
    for (int t = 0; rs_traffics[t] != NULL; t++) {
        const char *name = rs_traffics[t]->name;
        if (strcmp(name, "paths") == 0)
            continue; /* needs a network with paths: test_paths_traffic */
        if (strcmp(name, "mot_expander") == 0)
            continue; /* one message per graph edge, no per_input: test_mot_expander.c */
        if (strcmp(name, "many_to_one") == 0 || strcmp(name, "one_to_many") == 0)
            continue; /* not N x q messages: test_line_traffics */
        if (strcmp(name, "group_shift") == 0)
            continue; /* dragonflies only: tests/topo/test_dragonfly.c */
        if (strcmp(name, "hotspot") == 0 || strcmp(name, "diagonal") == 0 ||
            strcmp(name, "asymmetric") == 0 || strcmp(name, "mix") == 0)
            continue; /* sampled, not permutations: tests/work/test_patterns.c */
        if (strcmp(name, "trace") == 0)
            continue; /* open loop only: tests/cli/traffic.sh */
        int random = strcmp(name, "uniform") == 0 || strcmp(name, "randperm") == 0 ||
                     strcmp(name, "qrelation") == 0 || strcmp(name, "root") == 0 ||
                     strcmp(name, "subtree_cross") == 0;
        /* linear and inverse_omega draw one permutation: all q of a source alike */
        const char **nets = strcmp(name, "root") == 0 ? lcans : plain;
        for (int i = 0; i < 2; i++) {
            char args[1024];
            int q = 3;
            if (strcmp(name, "file") == 0) {
                q = 1;
                snprintf(args, sizeof args, "%s traffic=file traffic_file=%s/work_bitrev16.txt",
                         nets[i], data);
            } else if (strcmp(name, "hard_permutation") == 0) {
                if (i == 1)
                    continue; /* butterflies only: tests/work/test_hard_perm.c */
                q = 1;
                snprintf(args, sizeof args,
                         "%s traffic=hard_permutation queue_at=switch queue_threshold=0", nets[i]);
            } else {
                snprintf(args, sizeof args, "%s traffic=%s per_input=%d", nets[i], name, q);
            }
            struct fx f;
            if (fx_build(&f, 42, args) != 0)
                fail_msg("%s: %s", args, f.err.msg);
            assert_int_equal(f.pb.n_terminals, 16);
            assert_int_equal(f.pb.n_msgs, 16 * (uint64_t)q);
            uint64_t *h = histogram(&f.pb);
            if (strcmp(name, "uniform") != 0)
                for (uint32_t d = 0; d < 16; d++)
                    assert_int_equal(h[d], q);
            if (!random)
                for (uint64_t m = 0; m < f.pb.n_msgs; m++)
                    assert_int_equal(f.pb.dst[m], f.pb.dst[m - m % q]);
            free(h);
            fx_free(&f);
        }
    }
}

/* traffic=many_to_one and one_to_many (003 §2.2) on a chain of 20: the sources (the
 * destinations) distinct and as many as `packets`, many_to_one's sources multiples of
 * `spread`, nobody sends to itself, one_to_many's ceil(m/q) sources of q packets each (one
 * short), sorted by source; same seed, same set; impossible sizes refused. */
static void test_line_traffics(void **state)
{
    (void)state;
    struct fx f, g;
    for (int spread = 1; spread <= 3; spread++) {
        char args[256];
        snprintf(args, sizeof args, "topology=chain k=20 traffic=many_to_one packets=6 spread=%d",
                 spread);
        if (fx_build(&f, 5, args) != 0)
            fail_msg("%s: %s", args, f.err.msg);
        assert_int_equal(f.pb.n_msgs, 6);
        assert_int_equal(f.pb.per_input, 1);
        for (uint64_t m = 0; m < 6; m++) {
            uint32_t s = rs_problem_src(&f.pb, m);
            assert_int_equal(s % (uint32_t)spread, 0);
            assert_true(f.pb.dst[m] < 20 && f.pb.dst[m] != s);
            if (m > 0)
                assert_true(s > rs_problem_src(&f.pb, m - 1)); /* distinct, increasing */
        }
        assert_int_equal(fx_build(&g, 5, args), 0);
        for (uint64_t m = 0; m < 6; m++)
            assert_int_equal(g.pb.dst[m], f.pb.dst[m]);
        fx_free(&g);
        fx_free(&f);
    }
    assert_int_equal(fx_build(&f, 5, "topology=chain k=20 traffic=many_to_one"), 0);
    assert_int_equal(f.pb.n_msgs, 20);
    fx_free(&f);
    assert_int_equal(fx_build(&f, 5, "topology=chain k=20 traffic=many_to_one spread=2 "
                                     "packets=11"), RS_ECONSTRAINT);
    fx_free(&f);
    assert_int_equal(fx_build(&f, 5, "topology=chain k=20 traffic=many_to_one per_input=2"),
                     RS_EUNSUPPORTED);
    fx_free(&f);

    for (uint32_t q = 1; q <= 5; q++) {
        char args[128];
        snprintf(args, sizeof args, "topology=chain k=20 traffic=one_to_many packets=12 "
                 "per_input=%u", q);
        assert_int_equal(fx_build(&f, 9, args), 0);
        assert_int_equal(f.pb.n_msgs, 12);
        assert_int_equal(f.pb.per_input, q);
        uint32_t seen[20] = {0}, per[20] = {0}, senders = 0;
        for (uint64_t m = 0; m < 12; m++) {
            uint32_t s = rs_problem_src(&f.pb, m), t = f.pb.dst[m];
            assert_true(t < 20 && s != t);
            assert_int_equal(seen[t]++, 0);
            senders += per[s]++ == 0;
            if (m > 0)
                assert_true(s >= rs_problem_src(&f.pb, m - 1));
        }
        assert_int_equal(senders, (12 + q - 1) / q); /* ceil(m/q) sources ... */
        for (uint32_t s = 0, short_ = 0; s < 20; s++) /* ... of q each but one */
            if (per[s] && per[s] != q)
                assert_int_equal(short_++, 0);
        fx_free(&f);
    }
    assert_int_equal(fx_build(&f, 9, "topology=chain k=20 traffic=one_to_many"), 0);
    assert_int_equal(f.pb.n_msgs, 20); /* with per_input 1: a permutation without fixed point */
    fx_free(&f);
    assert_int_equal(fx_build(&f, 9, "topology=chain k=20 traffic=one_to_many packets=19 "
                                     "per_input=19"), 0); /* one source, never to itself */
    for (uint64_t m = 0; m < 19; m++)
        assert_int_not_equal(f.pb.dst[m], rs_problem_src(&f.pb, m));
    fx_free(&f);
    assert_int_equal(fx_build(&f, 9, "topology=chain k=20 traffic=one_to_many per_input=20"),
                     RS_ECONSTRAINT);
    fx_free(&f);
    assert_int_equal(fx_build(&f, 9, "topology=chain k=20 traffic=one_to_many packets=21"),
                     RS_ECONSTRAINT);
    fx_free(&f);
}

/* traffic=paths on graph_small.txt with its five paths (tests/data/graph_small_paths.txt):
 * message m runs from the first to the last node of path m; node 0 starts two paths
 * (messages 0 and 2), nodes 1, 2 and 3 one each, so per_input = 2. Any other traffic on a
 * network with paths, traffic=paths on one without, and per_input with it are errors. */
static void test_paths_traffic(void **state)
{
    const char *data = getenv("RS_TEST_DATA");
    char args[1024];
    struct fx f;
    assert_non_null(data);
    snprintf(args, sizeof args, "topology=graph graph_file=%s/graph_small.txt "
             "paths_file=%s/graph_small_paths.txt traffic=paths", data, data);
    if (fx_build(&f, 1, args) != 0)
        fail_msg("%s: %s", args, f.err.msg);
    static const uint32_t src[5] = {0, 1, 0, 2, 3}, dst[5] = {4, 5, 5, 4, 3};
    assert_int_equal(f.pb.n_msgs, 5);
    assert_int_equal(f.pb.n_terminals, 6);
    assert_int_equal(f.pb.per_input, 2);
    assert_non_null(f.pb.src);
    for (uint32_t m = 0; m < 5; m++) {
        assert_int_equal(rs_problem_src(&f.pb, m), src[m]);
        assert_int_equal(f.pb.dst[m], dst[m]);
    }
    fx_free(&f);

    snprintf(args, sizeof args, "topology=graph graph_file=%s/graph_small.txt "
             "paths_file=%s/graph_small_paths.txt traffic=uniform", data, data);
    assert_int_equal(fx_build(&f, 1, args), RS_EUNSUPPORTED);
    assert_string_equal(f.err.msg, "topology=graph gives its messages as explicit paths: use "
                                   "traffic=paths (got traffic=uniform)");
    assert_null(f.pb.dst);
    fx_free(&f);

    snprintf(args, sizeof args, "topology=graph graph_file=%s/graph_small.txt traffic=paths",
             data);
    assert_int_equal(fx_build(&f, 1, args), RS_EUNSUPPORTED);
    assert_string_equal(f.err.msg, "traffic=paths needs a network that carries message paths: "
                                   "topology=graph with paths_file=PATH, or "
                                   "topology=cms_lower_bound (got topology=graph without paths)");
    fx_free(&f);

    assert_int_equal(fx_build(&f, 1, "topology=mesh k=3 traffic=paths"), RS_EUNSUPPORTED);
    assert_non_null(strstr(f.err.msg, "(got topology=mesh without paths)"));
    fx_free(&f);

    /* the default lower-bound network: base messages 0 and 1 both start at t{0,1}, so the
     * paths give per_input = 2; that value is accepted (a recorded run's parameters run
     * again), any other is an error */
    assert_int_equal(fx_build(&f, 1, "topology=cms_lower_bound traffic=paths per_input=3"),
                     RS_EUNSUPPORTED);
    assert_string_equal(f.err.msg, "per_input does not apply to traffic=paths (one message per "
                                   "path; these paths give per_input=2, got 3)");
    assert_null(f.pb.src);
    fx_free(&f);
    assert_int_equal(fx_build(&f, 1, "topology=cms_lower_bound traffic=paths per_input=2"), 0);
    assert_int_equal(f.pb.per_input, 2);
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_matches_choices),
        cmocka_unit_test(test_extra_keys),
        cmocka_unit_test(test_extra_keys_unknown_elsewhere),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_message_numbering),
        cmocka_unit_test(test_unknown_traffic),
        cmocka_unit_test(test_per_input_range),
        cmocka_unit_test(test_message_count_limit),
        cmocka_unit_test(test_error_leaves_empty),
        cmocka_unit_test(test_conformance),
        cmocka_unit_test(test_paths_traffic),
        cmocka_unit_test(test_line_traffics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
