/* topology=graph: ports and in-slots in file order, shortest-path routes with the lowest-port
 * tie rule and Valiant's two legs, explicit paths, congestion/dilation and a hand-worked
 * store-and-forward run on tests/data/graph_small*.txt, and every error of the two file
 * formats with its exact file:line message. Channel id = node * 2 + port here. */
#include "rs_test.h"

#include <sys/stat.h>
#include <unistd.h>

#include "routesim/msg_paths.h"
#include "routesim/net.h"
#include "routesim/route.h"

static char tmpdir[256];

static int setup(void **state)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/rs_test_graph_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Write text to tmpdir/name; the path goes into path. */
static const char *put(const char *name, const char *text, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static const char *data(void)
{
    const char *d = getenv("RS_TEST_DATA");
    assert_non_null(d);
    return d;
}

static void small(struct rs_net *net, int with_paths)
{
    char kv[1024];
    snprintf(kv, sizeof kv, "topology=graph graph_file=%s/graph_small.txt%s%s%s", data(),
             with_paths ? " paths_file=" : "", with_paths ? data() : "",
             with_paths ? "/graph_small_paths.txt" : "");
    rs_test_net(net, kv);
}

static void expect_route(const struct rs_net *net, uint32_t s, uint32_t d, uint32_t mid,
                         uint32_t msg, const uint64_t *want, uint32_t len)
{
    uint64_t chans[64];
    uint32_t end = RS_NONE;
    struct rs_route_state st = {s, d, mid, 0, msg};
    int64_t h = rs_route_expand(net, &st, chans, 64, 64, &end);
    if (h != (int64_t)len) {
        print_error("%u -> %u via %d (message %u): %lld hops, want %u\n", s, d, (int)mid, msg,
                    (long long)h, len);
        fail();
    }
    assert_memory_equal(chans, want, len * sizeof *want);
    assert_int_equal(end, d);
    assert_int_equal(rs_route_length(net, NULL, &st, 64), len);
}

/* graph_small.txt lists 0 1, 1 2, 2 3, 3 4, 4 5, 5 0, 0 3, 3 0, 1 4. Out-ports in file
 * order: node 0: port 0 -> 1, port 1 -> 3; node 1: 0 -> 2, 1 -> 4; node 3: 0 -> 4, 1 -> 0.
 * In-slots in file order: node 0: slot 0 from 5, slot 1 from 3; node 3: 0 from 2, 1 from 0;
 * node 4: 0 from 3, 1 from 1. */
static void test_ports_and_slots(void **state)
{
    struct rs_net net;
    uint32_t slot = 99;
    char buf[16];
    small(&net, 0);
    assert_int_equal(net.n_nodes, 6);
    assert_int_equal(net.n_terminals, 6);
    assert_int_equal(net.n_channels, 9);
    assert_int_equal(net.max_ports, 2);
    assert_null(net.paths);
    assert_int_equal(net.ops->neighbor(&net, 0, 0, &slot), 1);
    assert_int_equal(slot, 0);
    assert_int_equal(net.ops->neighbor(&net, 0, 1, &slot), 3);
    assert_int_equal(slot, 1);
    assert_int_equal(net.ops->neighbor(&net, 3, 1, &slot), 0);
    assert_int_equal(slot, 1);
    assert_int_equal(net.ops->neighbor(&net, 5, 0, &slot), 0);
    assert_int_equal(slot, 0);
    assert_int_equal(net.ops->neighbor(&net, 1, 1, &slot), 4);
    assert_int_equal(slot, 1);
    assert_int_equal(net.ops->neighbor(&net, 2, 1, NULL), RS_NONE); /* node 2 has one edge */
    assert_int_equal(net.ops->neighbor(&net, 6, 0, NULL), RS_NONE);
    net.ops->label(&net, 5, buf, sizeof buf);
    assert_string_equal(buf, "5");
    rs_net_free(&net);
}

static void test_shortest_paths(void **state)
{
    struct rs_net net;
    small(&net, 0);
    /* 0 -> 4: 0 1 4 and 0 3 4 are both 2 hops; the tie goes to the lowest port at 0 (port 0,
     * towards 1): channels 0*2+0 = 0, then 1 -> 4 = 1*2+1 = 3 */
    static const uint64_t r04[] = {0, 3};
    expect_route(&net, 0, 4, RS_NONE, 0, r04, 2);
    /* 4 -> 2 is the longest, 4 5 0 1 2: channels 8, 10, 0, 2 */
    static const uint64_t r42[] = {8, 10, 0, 2};
    expect_route(&net, 4, 2, RS_NONE, 0, r42, 4);
    /* 3 -> 0: the chord, port 1 of node 3 = channel 7 */
    static const uint64_t r30[] = {7};
    expect_route(&net, 3, 0, RS_NONE, 0, r30, 1);
    expect_route(&net, 2, 2, RS_NONE, 0, NULL, 0);
    /* Valiant 0 -> 4 via 2: 0 1 2 (channels 0, 2), then 2 3 4 (channels 4, 6) */
    static const uint64_t v[] = {0, 2, 4, 6};
    expect_route(&net, 0, 4, 2, 0, v, 4);
    /* via the destination itself: the second leg is empty */
    expect_route(&net, 0, 4, 4, 0, r04, 2);
    struct rs_err err;
    assert_int_equal(net.ops->valiant_ok(&net, &err), 0);
    rs_net_free(&net);
}

/* The paths of graph_small_paths.txt, followed by message id whatever src and dst say:
 * message 3 is 2 3 0 1 4 = channels 4 (2->3), 7 (3->0), 0 (0->1), 3 (1->4). */
static void test_explicit_paths(void **state)
{
    struct rs_net net;
    struct rs_err err;
    small(&net, 1);
    assert_non_null(net.paths);
    assert_int_equal(net.paths->n_msgs, 5);
    static const uint64_t m3[] = {4, 7, 0, 3};
    expect_route(&net, 2, 4, RS_NONE, 3, m3, 4);
    static const uint32_t len[5] = {4, 4, 3, 4, 4}, start[5] = {0, 1, 0, 2, 3};
    for (uint32_t m = 0; m < 5; m++) {
        assert_int_equal(rs_msg_paths_len(net.paths, m), len[m]);
        assert_int_equal(net.paths->start[m], start[m]);
    }
    /* a message id the network does not carry has no route (a port without a channel) */
    struct rs_route_state st = {0, 4, RS_NONE, 0, 5};
    assert_int_equal(rs_route_expand(&net, &st, NULL, 0, 64, NULL), -1);
    assert_int_equal(net.ops->valiant_ok(&net, &err), RS_EUNSUPPORTED);
    assert_string_equal(err.msg, "routing=valiant is not possible on topology=graph with "
                                 "explicit paths: every message follows its own path");
    rs_net_free(&net);
}

/* Loads worked out in graph_small_paths.txt: C = 4 (edge 3->4), D = 4, 19 hops. */
static void test_congestion_dilation(void **state)
{
    char kv[1024];
    struct rs_record rec;
    snprintf(kv, sizeof kv, "topology=graph graph_file=%s/graph_small.txt "
             "paths_file=%s/graph_small_paths.txt traffic=paths", data(), data());
    assert_int_equal(rs_test_try(kv, 0, &rec, NULL, 0), 0);
    assert_int_equal(rs_test_int(&rec, "messages"), 5);
    assert_int_equal(rs_test_int(&rec, "congestion"), 4);
    assert_int_equal(rs_test_int(&rec, "dilation"), 4);
    assert_int_equal(rs_test_int(&rec, "total_hops"), 19);
    assert_int_equal(rs_test_int(&rec, "per_input"), 2); /* node 0 sends messages 0 and 2 */
    rs_record_free(&rec);
}

/* Store-and-forward, FIFO input queues, unbounded (docs/model-saf.md), worked by hand:
 *   step 1: sources inject m0 (0->1), m1 (1->2), m3 (2->3), m4 (3->4); m2 waits behind m0.
 *   step 2: m0 1->2, m1 2->3, m3 3->0, m4 4->5 (all different channels); m2 injected 0->3.
 *   step 3: at node 3, m1 (slot 0, from 2) and m2 (slot 1, from 0) both want 3->4, both
 *           arrived in step 2: the lower in-slot wins, m1 goes. m0 2->3, m3 0->1, m4 5->0.
 *   step 4: at node 3, m2 (arrived step 2) beats m0 (step 3) for 3->4. m1 4->5, m3 1->4
 *           and m4 0->3 cross their last edges: delivered at 4.
 *   step 5: m0 3->4 and m2 4->5: delivered at 5.
 * makespan 5, latencies 5 4 5 4 4 (mean 4.4), 19 hops, no queue holds more than one. */
static void test_store_forward_by_hand(void **state)
{
    char kv[1024];
    struct rs_record rec;
    snprintf(kv, sizeof kv, "topology=graph graph_file=%s/graph_small.txt "
             "paths_file=%s/graph_small_paths.txt traffic=paths check=1", data(), data());
    rs_test_run(kv, &rec);
    assert_int_equal(rs_test_int(&rec, "makespan"), 5);
    assert_int_equal(rs_test_int(&rec, "delivered"), 5);
    assert_int_equal(rs_test_int(&rec, "hops"), 19);
    assert_int_equal(rs_test_int(&rec, "max_queue"), 1);
    assert_true(rs_test_double(&rec, "latency_mean") == 4.4);
    assert_true(rs_test_double(&rec, "latency_max") == 5.0);
    assert_int_equal(rs_test_int(&rec, "congestion"), 4);
    assert_int_equal(rs_test_int(&rec, "dilation"), 4);
    rs_record_free(&rec);
}

/* Build "topology=graph graph_file=G [paths_file=P]" and expect code and message, with
 * "F" in want replaced by the graph or paths path. */
static void expect_build_error(const char *gpath, const char *ppath, int code,
                               const char *want)
{
    struct rs_params p;
    struct rs_net net;
    struct rs_err err;
    char kv[1024], msg[1024];
    snprintf(kv, sizeof kv, "topology=graph%s%s%s%s", gpath ? " graph_file=" : "",
             gpath ? gpath : "", ppath ? " paths_file=" : "", ppath ? ppath : "");
    rs_test_params(&p, kv);
    int rc = rs_net_build(&net, &p, &err);
    const char *f = strchr(want, 'F'), *file = ppath ? ppath : gpath;
    if (f && file)
        snprintf(msg, sizeof msg, "%.*s%s%s", (int)(f - want), want, file, f + 1);
    else
        snprintf(msg, sizeof msg, "%s", want);
    if (rc != code || strcmp(err.msg, msg) != 0) {
        print_error("%s: got %d '%s'\n   want %d '%s'\n", kv, rc, err.msg, code, msg);
        fail();
    }
    assert_null(net.priv);
    assert_null(net.paths);
    assert_int_equal(net.n_nodes, 0);
    rs_params_free(&p);
}

static void test_graph_file_errors(void **state)
{
    char g[512], dir[512];
    expect_build_error(NULL, NULL, RS_EINVAL, "topology=graph needs graph_file=PATH");
    snprintf(g, sizeof g, "%s/missing.txt", tmpdir);
    expect_build_error(g, NULL, RS_EIO, "cannot open 'F': No such file or directory");
    snprintf(dir, sizeof dir, "%s", tmpdir);
    expect_build_error(dir, NULL, RS_EIO, "cannot read 'F': Is a directory");
    put("g.txt", "# nothing\n\n", g, sizeof g);
    expect_build_error(g, NULL, RS_EPARSE, "F: no 'nodes N' line (the file has no content)");
    put("g.txt", "# no header\n0 1\n", g, sizeof g);
    expect_build_error(g, NULL, RS_EPARSE,
                       "F:2: expected 'nodes N' with N in 1..16777216 before the edges, got '0 1'");
    put("g.txt", "nodes 0\n", g, sizeof g);
    expect_build_error(g, NULL, RS_EPARSE,
                       "F:1: expected 'nodes N' with N in 1..16777216 before the edges, got "
                       "'nodes 0'");
    put("g.txt", "nodes 16777217\n", g, sizeof g);
    expect_build_error(g, NULL, RS_ECONSTRAINT,
                       "F:1: expected 'nodes N' with N in 1..16777216 before the edges, got "
                       "'nodes 16777217'");
    put("g.txt", "nodes 4\n\n0 x\n", g, sizeof g);
    expect_build_error(g, NULL, RS_EPARSE,
                       "F:3: expected an edge 'u v' with u, v in 0..3, got '0 x'");
    put("g.txt", "nodes 4\n0 1 2\n", g, sizeof g);
    expect_build_error(g, NULL, RS_EPARSE,
                       "F:2: expected an edge 'u v' with u, v in 0..3, got '0 1 2'");
    put("g.txt", "nodes 4\n0 1  # comment\n", g, sizeof g);
    expect_build_error(g, NULL, RS_EPARSE,
                       "F:2: expected an edge 'u v' with u, v in 0..3, got '0 1  # comment'");
    put("g.txt", "nodes 4\n3\n", g, sizeof g);
    expect_build_error(g, NULL, RS_EPARSE,
                       "F:2: expected an edge 'u v' with u, v in 0..3, got '3'");
    put("g.txt", "nodes 4\n0 1\n1 4\n", g, sizeof g);
    expect_build_error(g, NULL, RS_ECONSTRAINT, "F:3: node 4 out of range 0..3");
    put("g.txt", "nodes 4\n0 99999999999999999999\n", g, sizeof g);
    expect_build_error(g, NULL, RS_ECONSTRAINT, "F:2: node 99999999999999999999 out of range 0..3");
    put("g.txt", "nodes 4\n0 1\n2 2\n", g, sizeof g);
    expect_build_error(g, NULL, RS_ECONSTRAINT,
                       "F:3: self-loop 2 -> 2 (an edge joins two different nodes)");
    put("g.txt", "nodes 4\n0 1\n1 0\n\n0 1\n", g, sizeof g);
    expect_build_error(g, NULL, RS_ECONSTRAINT, "F:5: edge 0 -> 1 repeated (first at line 2)");
    put("g.txt", "nodes 3\n0 1\n1 2\n", g, sizeof g);
    expect_build_error(g, NULL, RS_ECONSTRAINT,
                       "F: node 1 cannot reach node 0; topology=graph without paths_file routes "
                       "every pair on shortest paths, so the graph must be strongly connected (or "
                       "give paths_file=PATH)");
    put("g.txt", "nodes 5000\n0 1\n", g, sizeof g);
    expect_build_error(g, NULL, RS_ECONSTRAINT,
                       "F: topology=graph without paths_file routes on shortest paths, which "
                       "supports at most 4096 nodes (got 5000); give paths_file=PATH");
}

static void test_paths_file_errors(void **state)
{
    char g[512], p[512];
    snprintf(g, sizeof g, "%s/graph_small.txt", data());
    put("p.txt", "0 1 2\n0 x 2\n", p, sizeof p);
    expect_build_error(g, p, RS_EPARSE, "F:2: expected node ids 0..5 separated by blanks, got 'x'");
    put("p.txt", "0 1 2\n0 -1\n", p, sizeof p);
    expect_build_error(g, p, RS_EPARSE,
                       "F:2: expected node ids 0..5 separated by blanks, got '-1'");
    put("p.txt", "# m0\n0 1 6\n", p, sizeof p);
    expect_build_error(g, p, RS_ECONSTRAINT, "F:2: node 6 out of range 0..5");
    put("p.txt", "0 1 2\n3\n", p, sizeof p);
    expect_build_error(g, p, RS_ECONSTRAINT,
                       "F:2: a path needs at least two nodes (one hop), got 1");
    put("p.txt", "0 1 2\n0 1 2 4\n", p, sizeof p);
    expect_build_error(g, p, RS_ECONSTRAINT,
                       "F:2: no edge 2 -> 4 in the graph (hop 3 of the path)");
    /* 0 1 2 3 0 1 4: edge 0 -> 1 at hops 1 and 5 */
    put("p.txt", "\n\n0 1 2 3 0 1 4\n", p, sizeof p);
    expect_build_error(g, p, RS_ECONSTRAINT,
                       "F:3: edge 0 -> 1 used twice in one path (hops 1 and 5)");
    put("p.txt", "# only comments\n", p, sizeof p);
    expect_build_error(g, p, RS_ECONSTRAINT,
                       "F: no paths (expected one message per line: the node ids along its path)");
    snprintf(p, sizeof p, "%s/missing.txt", tmpdir);
    expect_build_error(g, p, RS_EIO, "cannot open 'F': No such file or directory");
}

/* Nodes may repeat in a path (only edges may not): 0 1 2 3 0 3 visits 0 and 3 twice. With
 * paths, a graph need not be strongly connected: 0 -> 1 -> 2 only. Tabs separate too. */
static void test_paths_accepted(void **state)
{
    char g[400], p[400], kv[1000];
    struct rs_net net;
    snprintf(g, sizeof g, "%s/graph_small.txt", data());
    put("p.txt", "0 1 2 3 0 3\r\n\t2\t3 \n", p, sizeof p);
    snprintf(kv, sizeof kv, "topology=graph graph_file=%s paths_file=%s", g, p);
    rs_test_net(&net, kv);
    assert_int_equal(net.paths->n_msgs, 2);
    assert_int_equal(rs_msg_paths_len(net.paths, 0), 5);
    assert_int_equal(rs_msg_paths_end(net.paths, 0), 3);
    assert_int_equal(rs_msg_paths_len(net.paths, 1), 1);
    rs_net_free(&net);
    put("line.txt", "nodes 3\n0 1\n1 2\n", g, sizeof g);
    put("p.txt", "0 1 2\n1 2\n", p, sizeof p);
    snprintf(kv, sizeof kv, "topology=graph graph_file=%s paths_file=%s", g, p);
    rs_test_net(&net, kv);
    assert_int_equal(net.n_channels, 2);
    assert_int_equal(net.max_ports, 1);
    rs_net_free(&net);
}

/* A k x k torus written as a graph file, node y*k + x, each node's edges in the order +x,
 * -x, +y, -y: node ids and out-ports are those of topology=torus, and the lowest-port rule
 * among shortest paths is dimension order with the torus tie rule (distance k/2 goes +, the
 * lower port). So every route, direct and Valiant, takes the same channels (k = 5, 6). */
static void test_torus_as_graph_routes_like_the_torus(void **state)
{
    for (uint32_t k = 5; k <= 6; k++) {
        char g[400], kv[500], *text = malloc(64 * 1024);
        size_t len = 0;
        assert_non_null(text);
        len += (size_t)sprintf(text + len, "nodes %u\n", k * k);
        for (uint32_t y = 0; y < k; y++)
            for (uint32_t x = 0; x < k; x++)
                len += (size_t)sprintf(text + len, "%u %u\n%u %u\n%u %u\n%u %u\n", y * k + x,
                                       y * k + (x + 1) % k, y * k + x, y * k + (x + k - 1) % k,
                                       y * k + x, (y + 1) % k * k + x, y * k + x,
                                       (y + k - 1) % k * k + x);
        put("torus.txt", text, g, sizeof g);
        free(text);
        struct rs_net gr, to;
        snprintf(kv, sizeof kv, "topology=graph graph_file=%s", g);
        rs_test_net(&gr, kv);
        snprintf(kv, sizeof kv, "topology=torus k=%u n=2", k);
        rs_test_net(&to, kv);
        assert_int_equal(gr.max_ports, to.max_ports);
        for (uint32_t s = 0; s < k * k; s++)
            for (uint32_t d = 0; d < k * k; d++)
                for (uint32_t m = 0; m <= k * k; m += 3) {
                    struct rs_route_state st = {s, d, m >= k * k ? RS_NONE : m, 0, 0};
                    uint64_t a[64], b[64];
                    int64_t la = rs_route_expand(&gr, &st, a, 64, 64, NULL);
                    int64_t lb = rs_route_expand(&to, &st, b, 64, 64, NULL);
                    assert_int_equal(la, lb);
                    assert_memory_equal(a, b, (size_t)la * sizeof *a);
                }
        rs_net_free(&gr);
        rs_net_free(&to);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ports_and_slots),
        cmocka_unit_test(test_shortest_paths),
        cmocka_unit_test(test_explicit_paths),
        cmocka_unit_test(test_congestion_dilation),
        cmocka_unit_test(test_store_forward_by_hand),
        cmocka_unit_test(test_graph_file_errors),
        cmocka_unit_test(test_paths_file_errors),
        cmocka_unit_test(test_paths_accepted),
        cmocka_unit_test(test_torus_as_graph_routes_like_the_torus),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
