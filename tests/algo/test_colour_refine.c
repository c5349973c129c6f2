/* algorithm=colour_refine end to end (001 §2.1 on the flit engine): on meshes, tori, a
 * chain, random graphs with random edge-simple paths and the lower-bound network, for
 * B = 1..4 and both constant choices, no header is ever blocked and every message arrives
 * exactly D_m + L - 1 flit steps after its release (link=per_vc); the record's arithmetic;
 * link=shared (the Remarks' slowdown of B, measured); the explicit lower bound on its
 * network; determinism; the errors. */
#include <unistd.h>

#include "rs_test.h"
#include "routesim/bounds.h"
#include "routesim/rng.h"

/* Run kv with algorithm=colour_refine and check every promise of the schedule: nothing
 * blocked, no worm late (each arrives D_m + L - 1 flit steps after its release), every
 * class inside its slot, everything delivered within the schedule, and the record's
 * arithmetic (period = L + D - 1 with D the dilation, schedule = classes * period, bound =
 * (L+D) C (D log D)^(1/B) / B, bound_thm by the cases of Theorem 2.1.6). */
static void expect_unblocked(const char *kv, struct rs_record *r)
{
    char full[1024];
    snprintf(full, sizeof full, "algorithm=colour_refine %s", kv);
    rs_test_run(full, r);
    int64_t M = rs_test_int(r, "messages"), L = rs_test_int(r, "length");
    int64_t B = rs_test_int(r, "vcs"), C = rs_test_int(r, "congestion");
    int64_t D = rs_test_int(r, "dilation"), classes = rs_test_int(r, "classes");
    if (rs_test_int(r, "blocked_header_steps") != 0 || rs_test_int(r, "late_messages") != 0 ||
        rs_test_int(r, "slot_overruns") != 0 || rs_test_int(r, "delivered") != M ||
        rs_test_int(r, "makespan") > rs_test_int(r, "schedule_length")) {
        print_error("%s: blocked %lld, late %lld, overruns %lld, delivered %lld of %lld, "
                    "makespan %lld, schedule %lld\n",
                    full, (long long)rs_test_int(r, "blocked_header_steps"),
                    (long long)rs_test_int(r, "late_messages"),
                    (long long)rs_test_int(r, "slot_overruns"),
                    (long long)rs_test_int(r, "delivered"), (long long)M,
                    (long long)rs_test_int(r, "makespan"),
                    (long long)rs_test_int(r, "schedule_length"));
        fail();
    }
    assert_int_equal(rs_test_int(r, "period"), L + D - 1);
    assert_int_equal(rs_test_int(r, "schedule_length"), classes * (L + D - 1));
    assert_true(classes >= (C + B - 1) / B && classes <= M); /* C messages on one channel */
    double bound = rs_bound_colour_refine((double)L, (double)C, (double)D, (double)B);
    assert_true(rs_test_double(r, "bound") == bound);
    bound = rs_bound_colour_refine_thm((double)L, (double)C, (double)D, (double)B);
    assert_true(rs_test_double(r, "bound_thm") == bound);
}

/* Meshes, tori, a chain and a ring with their oblivious routes (dimension order: edge-
 * simple), B = 1..4, proof and tight constants, wormhole. Also virtual cut-through and
 * cut-through with partial cuts (an unblocked worm takes D + L - 1 there too). */
static void test_never_blocked_on_grids(void **state)
{
    static const char *const nets[] = {
        "topology=mesh k=8 n=2 traffic=uniform per_input=2 length=6",
        "topology=mesh k=4 n=2 traffic=uniform per_input=8 length=3",
        "topology=torus k=6 n=2 traffic=randperm per_input=2 length=8",
        "topology=chain k=16 traffic=tornado length=5",
        "topology=ring k=8 traffic=neighbor length=4",
        NULL};
    static const char *const constants[] = {"proof", "tight"};
    for (int i = 0; nets[i]; i++)
        for (int B = 1; B <= 4; B++)
            for (int c = 0; c < 2; c++) {
                char kv[512];
                struct rs_record r;
                snprintf(kv, sizeof kv, "%s switching=wormhole vcs=%d colour_constants=%s "
                                        "seed=%d",
                         nets[i], B, constants[c], 3 + B);
                expect_unblocked(kv, &r);
                rs_record_free(&r);
            }
    static const char *const others[] = {"virtual_cut_through", "cut_through_partial"};
    for (int e = 0; e < 2; e++)
        for (int B = 1; B <= 3; B++) {
            char kv[512];
            struct rs_record r;
            snprintf(kv, sizeof kv, "%s switching=%s vcs=%d colour_constants=tight", nets[0],
                     others[e], B);
            expect_unblocked(kv, &r);
            rs_record_free(&r);
        }
}

/* A random directed graph on n nodes (each node gets `deg` distinct out-neighbours) and M
 * random walks of 1..D hops that never take an edge twice, written as graph and paths
 * files into dir; all choices from the test stream (seed, RS_STREAM_TEST). */
static void random_instance(const char *dir, uint32_t n, uint32_t deg, uint32_t M, uint32_t D,
                            uint64_t seed, char *gpath, char *ppath, size_t len)
{
    struct rs_rng g;
    uint32_t *adj = malloc((size_t)n * deg * sizeof *adj);
    uint8_t *used = calloc((size_t)n * deg, 1);
    assert_non_null(adj);
    assert_non_null(used);
    rs_rng_init(&g, seed, RS_STREAM_TEST, 0, 0);
    snprintf(gpath, len, "%s/g%llu.txt", dir, (unsigned long long)seed);
    snprintf(ppath, len, "%s/p%llu.txt", dir, (unsigned long long)seed);
    FILE *f = fopen(gpath, "w");
    assert_non_null(f);
    fprintf(f, "nodes %u\n", n);
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t k = 0; k < deg; k++) {
            uint32_t v;
            int again;
            do { /* a new neighbour, not u itself */
                v = rs_rng_below(&g, n);
                again = v == u;
                for (uint32_t j = 0; j < k && !again; j++)
                    again = adj[u * deg + j] == v;
            } while (again);
            adj[u * deg + k] = v;
            fprintf(f, "%u %u\n", u, v);
        }
    fclose(f);
    f = fopen(ppath, "w");
    assert_non_null(f);
    for (uint32_t m = 0; m < M; m++) {
        uint32_t u = rs_rng_below(&g, n), hops = 1 + rs_rng_below(&g, D);
        memset(used, 0, (size_t)n * deg);
        fprintf(f, "%u", u);
        for (uint32_t h = 0; h < hops; h++) {
            uint32_t free_k[64], nf = 0;
            for (uint32_t k = 0; k < deg; k++)
                if (!used[u * deg + k])
                    free_k[nf++] = k;
            if (!nf)
                break;
            uint32_t k = free_k[rs_rng_below(&g, nf)];
            used[u * deg + k] = 1;
            u = adj[u * deg + k];
            fprintf(f, " %u", u);
        }
        fprintf(f, "\n");
    }
    fclose(f);
    free(adj);
    free(used);
}

/* Random graphs with random edge-simple paths (8 instances: 24 nodes of out-degree 3, 80
 * walks of up to 12 hops), B = 1..4, both constants. */
static void test_never_blocked_on_random_paths(void **state)
{
    char dir[] = "/tmp/rs_colour_XXXXXX";
    assert_non_null(mkdtemp(dir));
    for (uint64_t s = 1; s <= 8; s++) {
        char g[256], p[256];
        random_instance(dir, 24, 3, 80, 12, s, g, p, sizeof g);
        for (int B = 1; B <= 4; B++)
            for (int c = 0; c < 2; c++) {
                char kv[1024];
                struct rs_record r;
                snprintf(kv, sizeof kv, "topology=graph graph_file=%s paths_file=%s "
                                        "traffic=paths switching=wormhole vcs=%d length=%d "
                                        "colour_constants=%s",
                         g, p, B, 2 + (int)s * 3, c ? "tight" : "proof");
                expect_unblocked(kv, &r);
                rs_record_free(&r);
            }
        unlink(g);
        unlink(p);
    }
    rmdir(dir);
}

/* The lower-bound network of 001 Thm 2.2.1: built for B and run with vcs = B (linked keys),
 * every B+1 messages share an edge, so a class holds at most B messages and the schedule
 * is at least the proof's (L - D) M / B; with B = 1 every message is alone in its class.
 * Built for B = 1 and run with vcs = 2..4: every edge carries at most 2 base messages, so
 * with C = 2 (one copy each) one class holds everything: L + D - 1 flit steps. */
static void test_lower_bound_network(void **state)
{
    for (int B = 1; B <= 4; B++)
        for (int c = 0; c < 2; c++) {
            char kv[512];
            struct rs_record r;
            int C = 2 * (B + 1), D = 3 * B + 4, L = 2 * D + 3;
            snprintf(kv, sizeof kv, "topology=cms_lower_bound B=%d C=%d D=%d L=%d "
                                    "traffic=paths switching=wormhole colour_constants=%s",
                     B, C, D, L, c ? "tight" : "proof");
            expect_unblocked(kv, &r);
            int64_t M = rs_test_int(&r, "messages");
            assert_int_equal(rs_test_int(&r, "vcs"), B);
            assert_true((double)rs_test_int(&r, "makespan") >=
                        rs_bound_cms_lower_explicit(L, D, (double)M, B));
            assert_true(rs_test_int(&r, "classes") >= (M + B - 1) / B);
            if (B == 1)
                assert_int_equal(rs_test_int(&r, "classes"), M);
            rs_record_free(&r);
        }
    for (int v = 2; v <= 4; v++) {
        char kv[512];
        struct rs_record r;
        snprintf(kv, sizeof kv, "topology=cms_lower_bound B=1 C=2 D=15 L=30 vcs=%d "
                                "traffic=paths switching=wormhole colour_constants=tight",
                 v);
        expect_unblocked(kv, &r);
        assert_int_equal(rs_test_int(&r, "classes"), 1);
        assert_int_equal(rs_test_int(&r, "makespan"), 30 + 15 - 1);
        rs_record_free(&r);
    }
}

/* link=shared: one flit per channel and step. With B = 1 it is the per_vc model: the same
 * record. With B >= 2 a class may put B messages on one channel, which now take turns:
 * classes are released B (L + D - 1) apart (001's Remarks: emulation with a slowdown of B),
 * and headers wait for the link (blocked header steps > 0). On the 8x8 mesh every class
 * stays inside its slot. On the graph of tests/data/colour_shared_*.txt (found by a random
 * search; 8 messages, C = 3, D = 5, L = 4, B = 2, tight: 2 classes, slot 2 (4 + 5 - 1) =
 * 16) it does not: message 7 (5 channels) meets message 1 on its first channel, message 3 on
 * two channels (message 3 being delayed by message 0 on three of its own) and message 6 on
 * its last, and oldest first each takes the link from it: it arrives 17 flit steps after
 * its release, one after its slot (makespan 16 + 17 = 33). The engine's shared link is
 * oldest-first, not the time division the Remarks' emulation assumes. */
static void test_shared_link(void **state)
{
    struct rs_record a, b;
    const char *mesh = "topology=mesh k=8 n=2 traffic=uniform per_input=2 length=6 "
                       "switching=wormhole colour_constants=tight algorithm=colour_refine";
    char kv[1024];
    snprintf(kv, sizeof kv, "%s vcs=1 link=per_vc", mesh);
    rs_test_run(kv, &a);
    snprintf(kv, sizeof kv, "%s vcs=1 link=shared", mesh);
    rs_test_run(kv, &b);
    assert_int_equal(rs_test_int(&a, "makespan"), rs_test_int(&b, "makespan"));
    assert_int_equal(rs_test_int(&b, "blocked_header_steps"), 0);
    rs_record_free(&a);
    rs_record_free(&b);
    for (int B = 2; B <= 4; B++) {
        snprintf(kv, sizeof kv, "%s vcs=%d link=shared", mesh, B);
        rs_test_run(kv, &a);
        int64_t D = rs_test_int(&a, "dilation");
        assert_int_equal(rs_test_int(&a, "period"), B * (6 + D - 1));
        assert_int_equal(rs_test_int(&a, "slot_overruns"), 0);
        assert_true(rs_test_int(&a, "blocked_header_steps") > 0);
        assert_int_equal(rs_test_int(&a, "delivered"), 128);
        rs_record_free(&a);
    }
    const char *data = getenv("RS_TEST_DATA");
    assert_non_null(data);
    snprintf(kv, sizeof kv, "topology=graph graph_file=%s/colour_shared_graph.txt "
                            "paths_file=%s/colour_shared_paths.txt traffic=paths "
                            "switching=wormhole algorithm=colour_refine vcs=2 length=4 "
                            "colour_constants=tight link=shared",
             data, data);
    rs_test_run(kv, &a);
    assert_int_equal(rs_test_int(&a, "classes"), 2);
    assert_int_equal(rs_test_int(&a, "period"), 16);
    assert_int_equal(rs_test_int(&a, "slot_overruns"), 1);
    assert_int_equal(rs_test_int(&a, "makespan"), 33);
    rs_record_free(&a);
}

/* The same parameters give the same record; the seed changes the colouring. */
static void test_deterministic(void **state)
{
    const char *kv = "topology=torus k=6 n=2 traffic=uniform per_input=3 switching=wormhole "
                     "vcs=2 length=5 algorithm=colour_refine colour_constants=tight";
    struct rs_record a, b;
    char s1[512], s2[512];
    rs_test_run(kv, &a);
    rs_test_run(kv, &b);
    assert_int_equal(a.n, b.n);
    for (size_t i = 0; i < a.n; i++) {
        assert_string_equal(a.f[i].name, b.f[i].name);
        assert_true(a.f[i].type == b.f[i].type && a.f[i].i == b.f[i].i &&
                    (a.f[i].type != RS_VAL_DOUBLE || a.f[i].d == b.f[i].d));
    }
    rs_record_free(&a);
    rs_record_free(&b);
    /* proof constants on a mesh: one class per message nearly, so the seed shows in the
     * makespan (the last class's worm lengths differ) */
    int differ = 0;
    int64_t first = -1;
    for (int s = 1; s <= 4; s++) {
        snprintf(s1, sizeof s1, "topology=mesh k=4 n=2 traffic=randperm switching=wormhole "
                                "algorithm=colour_refine vcs=1 length=4 seed=%d",
                 s);
        rs_test_run(s1, &a);
        if (first < 0)
            first = rs_test_int(&a, "makespan");
        differ |= rs_test_int(&a, "makespan") != first;
        rs_record_free(&a);
    }
    assert_true(differ);
    (void)s2;
}

/* Bad combinations are refused with one line: another engine, dateline classes, open-loop
 * injection, a Valiant route that takes a channel twice, an unknown constant choice. */
static void test_errors(void **state)
{
    struct rs_record r;
    char msg[512];
    assert_int_equal(rs_test_try("topology=mesh k=4 algorithm=colour_refine", 1, &r, msg,
                                 sizeof msg),
                     RS_EUNSUPPORTED);
    assert_string_equal(msg, "algorithm=colour_refine needs switching=wormhole|"
                             "virtual_cut_through|cut_through_partial (got store_forward)");
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=mesh k=4 algorithm=colour_refine "
                                 "switching=store_forward_flits",
                                 1, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=torus k=4 algorithm=colour_refine switching=wormhole "
                                 "vcs=2 vc_classes=dateline",
                                 1, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_string_equal(msg, "algorithm=colour_refine needs vc_classes=none (a class may put "
                             "vcs messages on one channel; a schedule that never blocks "
                             "cannot deadlock)");
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=mesh k=4 algorithm=colour_refine switching=wormhole "
                                 "injection_process=bernoulli",
                                 1, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_string_equal(msg, "a plan (per-message schedule) needs injection_process=batch");
    rs_record_free(&r);
    /* Valiant on the wrapped butterfly goes round twice; with seed 1, message 11's two
     * passes share channel 10 (not edge-simple) */
    assert_int_equal(rs_test_try("topology=butterfly N=8 wrap=1 traffic=uniform per_input=2 "
                                 "routing=valiant algorithm=colour_refine switching=wormhole",
                                 1, &r, msg, sizeof msg),
                     RS_EINVAL);
    assert_string_equal(msg, "message 11 takes channel 10 twice: the colour-refinement schedule "
                             "needs edge-simple paths (001 §1.4)");
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=mesh k=4 algorithm=colour_refine switching=wormhole "
                                 "colour_constants=best",
                                 1, &r, msg, sizeof msg),
                     RS_EUNKNOWN);
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_never_blocked_on_grids),
        cmocka_unit_test(test_never_blocked_on_random_paths),
        cmocka_unit_test(test_lower_bound_network),
        cmocka_unit_test(test_shared_link),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
