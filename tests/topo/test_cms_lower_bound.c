/* topology=cms_lower_bound (001 Thm 2.2.1): the smallest instance worked by hand (nodes,
 * paths, labels), the choice of M', and the proof's claims checked on every instance of a
 * grid: congestion exactly C, dilation exactly D, every set of B+1 base messages crosses a
 * common (primary) edge, secondary edges carry at most B base messages, the network with
 * used secondary edges is acyclic; the parameter rules; a store-and-forward run. */
#include "rs_test.h"

#include "routesim/analysis.h"
#include "routesim/msg_paths.h"
#include "routesim/net.h"
#include "routesim/path_set.h"
#include "routesim/problem.h"

static void net_of(struct rs_net *net, uint32_t B, uint32_t C, uint32_t D, const char *extra)
{
    char kv[256];
    snprintf(kv, sizeof kv, "topology=cms_lower_bound B=%u C=%u D=%u L=%u %s", B, C, D, D + 1,
             extra);
    rs_test_net(net, kv);
}

/* The nodes along path m. */
static void expect_path(const struct rs_net *net, uint64_t m, const uint32_t *nodes,
                        uint32_t k)
{
    const struct rs_msg_paths *mp = net->paths;
    assert_int_equal(rs_msg_paths_len(mp, m), k - 1);
    assert_int_equal(mp->start[m], nodes[0]);
    for (uint32_t i = 1; i < k; i++)
        assert_int_equal(mp->head[mp->off[m] + i - 1], nodes[i]);
}

/* B=1 C=2 D=5: M'=4 base messages, primary edges p0..p5 = {0,1} {0,2} {0,3} {1,2} {1,3}
 * {2,3} from node 2p to 2p+1. Message i crosses the sets holding i, in this order:
 * 0: p0 p1 p2 = nodes 0 1 2 3 4 5; 1: p0 p3 p4 = 0 1 6 7 8 9; 2: p1 p3 p5 = 2 3 6 7 10 11;
 * 3: p2 p4 p5 = 4 5 8 9 10 11. C/(B+1) = 1 copy each. With D=6, M' stays 4 (M'=5 needs
 * D >= 7) and each path gets one padding node 12+i after its last primary edge. */
static void test_smallest_by_hand(void **state)
{
    struct rs_net net;
    char buf[64];
    net_of(&net, 1, 2, 5, "");
    assert_int_equal(net.n_nodes, 12);
    assert_int_equal(net.paths->n_msgs, 4);
    static const uint32_t p0[] = {0, 1, 2, 3, 4, 5}, p1[] = {0, 1, 6, 7, 8, 9},
                          p2[] = {2, 3, 6, 7, 10, 11}, p3[] = {4, 5, 8, 9, 10, 11};
    expect_path(&net, 0, p0, 6);
    expect_path(&net, 1, p1, 6);
    expect_path(&net, 2, p2, 6);
    expect_path(&net, 3, p3, 6);
    /* out-ports ascend with the head's id: h0 = node 1 leads to t1 (2) on port 0, t3 (6) on
     * port 1 */
    assert_int_equal(net.ops->neighbor(&net, 1, 0, NULL), 2);
    assert_int_equal(net.ops->neighbor(&net, 1, 1, NULL), 6);
    net.ops->label(&net, 0, buf, sizeof buf);
    assert_string_equal(buf, "t{0,1}");
    net.ops->label(&net, 11, buf, sizeof buf);
    assert_string_equal(buf, "h{2,3}");
    rs_net_free(&net);

    net_of(&net, 1, 4, 6, "");
    assert_int_equal(net.paths->n_msgs, 8); /* C/(B+1) = 2 copies: messages 2i and 2i+1 */
    static const uint32_t q0[] = {0, 1, 2, 3, 4, 5, 12}, q3[] = {4, 5, 8, 9, 10, 11, 15};
    expect_path(&net, 0, q0, 7);
    expect_path(&net, 1, q0, 7);
    expect_path(&net, 6, q3, 7);
    expect_path(&net, 7, q3, 7);
    net.ops->label(&net, 15, buf, sizeof buf);
    assert_string_equal(buf, "x3.1");
    rs_net_free(&net);
}

/* M' is the integer with 2 binom(M'-1, B) - 1 <= D < 2 binom(M', B) - 1; with C = B+1 there
 * is one message per base message. E.g. B=2, D=10: 2 binom(3,2) - 1 = 5 <= 10 < 11 =
 * 2 binom(4,2) - 1, so M' = 4. */
static void test_m_prime(void **state)
{
    static const uint32_t cases[][3] = {{1, 2, 2},  {1, 5, 4},  {1, 6, 4}, {1, 7, 5},
                                        {2, 3, 3},  {2, 5, 4},  {2, 10, 4}, {2, 11, 5},
                                        {3, 4, 4},  {3, 7, 5},  {1, 99, 51}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct rs_net net;
        net_of(&net, cases[i][0], cases[i][0] + 1, cases[i][1], "");
        if (net.paths->n_msgs != cases[i][2]) {
            print_error("B=%u D=%u: M'=%llu, want %u\n", cases[i][0], cases[i][1],
                        (unsigned long long)net.paths->n_msgs, cases[i][2]);
            fail();
        }
        rs_net_free(&net);
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* 1 when the sorted channel lists of all members of set (k base messages) share one. */
static int share_a_channel(const struct rs_path_set *ps, const uint32_t *set, uint32_t k,
                           uint32_t R)
{
    const uint64_t *a = ps->chan + ps->off[(uint64_t)set[0] * R];
    uint64_t na = ps->off[(uint64_t)set[0] * R + 1] - ps->off[(uint64_t)set[0] * R];
    for (uint64_t i = 0; i < na; i++) {
        int all = 1;
        for (uint32_t j = 1; j < k && all; j++) {
            uint64_t m = (uint64_t)set[j] * R;
            all = bsearch(&a[i], ps->chan + ps->off[m], ps->off[m + 1] - ps->off[m],
                          sizeof *a, cmp_u64) != NULL;
        }
        if (all)
            return 1;
    }
    return 0;
}

/* Every claim of the construction on one instance. */
static void check_instance(uint32_t B, uint32_t C, uint32_t D)
{
    struct rs_net net;
    struct rs_params p;
    struct rs_problem pb;
    struct rs_path_set ps;
    struct rs_path_stats st;
    struct rs_err err;
    char kv[256];
    snprintf(kv, sizeof kv, "topology=cms_lower_bound B=%u C=%u D=%u L=%u traffic=paths", B, C,
             D, 2 * D);
    rs_test_params(&p, kv);
    assert_int_equal(rs_net_build(&net, &p, &err), 0);
    assert_int_equal(rs_problem_build(&pb, &net, &p, 1, &err), 0);
    assert_int_equal(rs_path_stats_compute(&st, &net, &pb, RS_ROUTING_DIRECT, 1, &err), 0);
    if (st.congestion != C || st.dilation != D) {
        print_error("%s: congestion %u dilation %u\n", kv, st.congestion, st.dilation);
        fail();
    }
    assert_int_equal(st.total_hops, pb.n_msgs * D); /* every path is exactly D long */
    rs_path_stats_free(&st);
    assert_int_equal(rs_path_set_build(&ps, &net, &pb, RS_ROUTING_DIRECT, 1, &err), 0);
    uint32_t R = C / (B + 1), Mp = (uint32_t)(pb.n_msgs / R);
    assert_int_equal((uint64_t)Mp * R, pb.n_msgs);
    /* copies share their path */
    for (uint64_t m = 0; m < pb.n_msgs; m++)
        assert_memory_equal(ps.chan + ps.off[m], ps.chan + ps.off[m - m % R], D * sizeof(uint64_t));
    /* every set of B+1 base messages crosses a common edge (sorted copies for bsearch) */
    for (uint64_t m = 0; m < pb.n_msgs; m++)
        qsort(ps.chan + ps.off[m], D, sizeof(uint64_t), cmp_u64);
    uint32_t set[8];
    for (uint32_t i = 0; i <= B; i++)
        set[i] = i;
    for (;;) {
        if (!share_a_channel(&ps, set, B + 1, R)) {
            print_error("%s: a set of B+1 base messages shares no edge\n", kv);
            fail();
        }
        int i = (int)B;
        while (i >= 0 && set[i] == Mp - (B + 1) + (uint32_t)i)
            i--;
        if (i < 0)
            break;
        set[i]++;
        for (uint32_t j = (uint32_t)i + 1; j <= B; j++)
            set[j] = set[j - 1] + 1;
    }
    /* primary edges (out of the tails, labelled t{...}) carry exactly C messages, the
     * others (secondary, padding) at most B base messages' copies, B*R */
    uint64_t n_ch = (uint64_t)net.n_nodes * net.max_ports;
    uint32_t *load = calloc(n_ch, sizeof *load);
    assert_non_null(load);
    for (uint64_t h = 0; h < ps.off[ps.n_msgs]; h++)
        load[ps.chan[h]]++;
    for (uint64_t c = 0; c < n_ch; c++) {
        uint32_t v = (uint32_t)(c / net.max_ports);
        uint32_t w = net.ops->neighbor(&net, v, (uint32_t)(c % net.max_ports), NULL);
        if (w == RS_NONE)
            continue;
        char label[64];
        net.ops->label(&net, v, label, sizeof label);
        if (label[0] == 't')
            assert_int_equal(load[c], C);
        else
            assert_true(load[c] <= B * R);
    }
    free(load);
    /* acyclic: Kahn's algorithm removes every node */
    uint32_t *indeg = calloc(net.n_nodes, sizeof *indeg), *queue = malloc(net.n_nodes * 4);
    assert_non_null(indeg);
    assert_non_null(queue);
    for (uint32_t v = 0; v < net.n_nodes; v++)
        for (uint32_t port = 0; port < net.max_ports; port++) {
            uint32_t w = net.ops->neighbor(&net, v, port, NULL);
            if (w != RS_NONE)
                indeg[w]++;
        }
    uint32_t qh = 0, qt = 0;
    for (uint32_t v = 0; v < net.n_nodes; v++)
        if (!indeg[v])
            queue[qt++] = v;
    while (qh < qt) {
        uint32_t v = queue[qh++];
        for (uint32_t port = 0; port < net.max_ports; port++) {
            uint32_t w = net.ops->neighbor(&net, v, port, NULL);
            if (w != RS_NONE && --indeg[w] == 0)
                queue[qt++] = w;
        }
    }
    assert_int_equal(qt, net.n_nodes);
    free(indeg);
    free(queue);
    rs_path_set_free(&ps);
    rs_problem_free(&pb);
    rs_net_free(&net);
    rs_params_free(&p);
}

static void test_claims_on_a_grid(void **state)
{
    for (uint32_t B = 1; B <= 3; B++)
        for (uint32_t c = 1; c <= 3; c++)
            for (uint32_t D = B + 1; D <= B + 10; D++)
                check_instance(B, c * (B + 1), D);
}

static void expect_error(const char *kv, int code, const char *want)
{
    struct rs_params p;
    struct rs_net net;
    struct rs_err err;
    rs_test_params(&p, kv);
    int rc = rs_net_build(&net, &p, &err);
    if (rc != code || strcmp(err.msg, want) != 0) {
        print_error("%s: got %d '%s'\n   want %d '%s'\n", kv, rc, err.msg, code, want);
        fail();
    }
    assert_null(net.priv);
    rs_params_free(&p);
}

static void test_parameter_rules(void **state)
{
    expect_error("topology=cms_lower_bound B=2 C=2 D=5", RS_ECONSTRAINT,
                 "topology=cms_lower_bound needs C >= B+1 and D >= B+1 (001 Thm 2.2.1; got B=2 "
                 "C=2 D=5)");
    expect_error("topology=cms_lower_bound B=3 C=4 D=3", RS_ECONSTRAINT,
                 "topology=cms_lower_bound needs C >= B+1 and D >= B+1 (001 Thm 2.2.1; got B=3 "
                 "C=4 D=3)");
    expect_error("topology=cms_lower_bound B=1 C=3 D=5", RS_ECONSTRAINT,
                 "topology=cms_lower_bound needs C a multiple of B+1 (every base message is "
                 "replicated C/(B+1) times; got C=3 B=1)");
    expect_error("topology=cms_lower_bound B=1 C=2 D=5 L=5", RS_ECONSTRAINT,
                 "topology=cms_lower_bound needs L > D (L = (1+Omega(1))D: the bound (L-D)M/B "
                 "needs L-D > 0; got L=5 D=5)");
    expect_error("topology=cms_lower_bound B=1 C=2 D=100000 L=200000", RS_ECONSTRAINT,
                 "topology=cms_lower_bound with B=1 C=2 D=100000 is too large: M'=50001 base "
                 "messages, 1250025000 primary edges, 2500100001 nodes, 5000100000 hops (at most "
                 "4194304 primary edges, 2^24 nodes, 2^30 hops, 2^28 edges)");
    expect_error("topology=cms_lower_bound secondary=some", RS_EUNKNOWN,
                 "command line: unknown value 'some' for key 'secondary' (expected used|all)");
}

/* secondary=all adds every head -> other tail edge; the paths (and C, D) are unchanged. */
static void test_secondary_all(void **state)
{
    struct rs_net a, u;
    net_of(&u, 1, 2, 7, "");
    net_of(&a, 1, 2, 7, "secondary=all");
    /* M'=5: 10 primary edges; all: 10*9 secondary */
    assert_int_equal(a.n_channels, 10 + 90);
    assert_int_equal(a.max_ports, 9);
    assert_true(u.n_channels < a.n_channels);
    assert_int_equal(a.paths->n_msgs, u.paths->n_msgs);
    for (uint64_t m = 0; m < a.paths->n_msgs; m++) {
        uint64_t len = rs_msg_paths_len(a.paths, m);
        assert_int_equal(len, rs_msg_paths_len(u.paths, m));
        assert_int_equal(a.paths->start[m], u.paths->start[m]);
        assert_memory_equal(a.paths->head + a.paths->off[m], u.paths->head + u.paths->off[m],
                            len * sizeof(uint32_t));
    }
    rs_net_free(&a);
    rs_net_free(&u);
}

/* Store-and-forward with queues of one packet on the (acyclic) network: everything is
 * delivered, no deadlock, and the makespan is at least C and at least D. */
static void test_store_forward(void **state)
{
    struct rs_record rec;
    rs_test_run("topology=cms_lower_bound B=2 C=6 D=20 L=40 traffic=paths queue_size=1 check=1",
                &rec);
    assert_int_equal(rs_test_int(&rec, "deadlock"), 0);
    /* M' = 6 for B=2, D=20 (2 binom(5,2) - 1 = 19 <= 20 < 29), 6/3 = 2 copies each */
    assert_int_equal(rs_test_int(&rec, "messages"), 12);
    assert_int_equal(rs_test_int(&rec, "delivered"), 12);
    assert_int_equal(rs_test_int(&rec, "congestion"), 6);
    assert_int_equal(rs_test_int(&rec, "dilation"), 20);
    assert_true(rs_test_int(&rec, "makespan") >= 20);
    rs_record_free(&rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_smallest_by_hand),
        cmocka_unit_test(test_m_prime),
        cmocka_unit_test(test_claims_on_a_grid),
        cmocka_unit_test(test_parameter_rules),
        cmocka_unit_test(test_secondary_all),
        cmocka_unit_test(test_store_forward),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
