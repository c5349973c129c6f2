/* Conformance of every registered routing function on every registered topology (small
 * instances): the capabilities a topology declares agree with its structure; a routing is
 * refused exactly where a capability it needs is missing (or its own check says so);
 * oblivious routings arrive at the destination by valid channels in the claimed number of
 * hops; adaptive ones offer only productive ports, valid VC ranges, the escape choice last,
 * ordered by free slots (ties by port id), and every walk along their choices is minimal;
 * up*-down* routes are legal (never up after down) and as short as the shortest legal route
 * a search of its own finds. */
#include "rs_test.h"

#include "routesim/lcan.h"
#include "routesim/route.h"

/* At least one instance per registered topology (checked); small enough for all pairs. */
static const char *const instances[] = {
    "topology=butterfly N=8",
    "topology=butterfly N=8 wrap=1",
    "topology=benes N=8",
    "topology=mesh k=4 n=2",
    "topology=mesh k=3 n=3",
    "topology=torus k=4 n=2",
    "topology=torus k=5 n=2",
    "topology=torus k=2 n=3",
    "topology=mesh k=3 n=2 c=2",
    "topology=torus k=4 n=2 c=3",
    "topology=ring k=4 c=2 torus_tie=split",
    "topology=chain k=5",
    "topology=ring k=6",
    "topology=hypercube n=4",
    "topology=hypercube n=3 c=2",
    "topology=lcan N=16 d=4 u=2",
    "topology=lcan N=16 d=4 u=2 pi=tree",
    "topology=baseline N=8",
    "topology=swbanyan N=9 f=3 s=2",
    "topology=trac N=9",
    "topology=cm5 N=16",
    "topology=graph graph_file=@/graph_small.txt",
    "topology=cms_lower_bound B=1 C=2 D=5 L=6",
    "topology=pruned_butterfly N=16",
    "topology=fat_tree N=8",
    "topology=sorting_fat_tree N=32 side=2",
    "topology=kary_nfly k=4 n=2",
    "topology=kary_nfly k=2 n=3 wrap=1",
    "topology=kary_ntree k=2 n=3",
    "topology=kary_ntree k=3 n=2",
    "topology=dragonfly p=1 a=4 h=2 g=5",
    "topology=hyperx S=3,4 T=2",
    "topology=flattened_butterfly k=2 n=4",
    "topology=slimfly q=3 p=2",
    NULL};

#define VCS 4
#define DEPTH 3

static void build(struct rs_net *net, const char *kv)
{
    char buf[1024];
    rs_test_net(net, rs_test_with_data(kv, buf, sizeof buf));
}

/* Hop distances from every node (BFS over neighbor), dist[u * n + v]; RS_NONE unreachable. */
static uint32_t *bfs_all(const struct rs_net *net)
{
    uint32_t n = net->n_nodes, *d = malloc((size_t)n * n * sizeof *d), *q = malloc(n * sizeof *q);
    assert_non_null(d);
    assert_non_null(q);
    for (uint32_t s = 0; s < n; s++) {
        uint32_t *ds = d + (size_t)s * n, head = 0, tail = 0;
        for (uint32_t v = 0; v < n; v++)
            ds[v] = RS_NONE;
        ds[s] = 0;
        q[tail++] = s;
        while (head < tail) {
            uint32_t u = q[head++];
            for (uint32_t p = 0; p < net->max_ports; p++) {
                uint32_t v = net->ops->neighbor(net, u, p, NULL);
                if (v != RS_NONE && ds[v] == RS_NONE) {
                    ds[v] = ds[u] + 1;
                    q[tail++] = v;
                }
            }
        }
    }
    free(q);
    return d;
}

/* A fixed pseudo-random credit pattern: free slots in [0, DEPTH]. */
static uint32_t fake_free(const void *ctx, uint32_t node, uint32_t port, uint32_t vc)
{
    uint64_t x = (uint64_t)(uintptr_t)ctx * 0x9E3779B97F4A7C15ull ^ node * 1000003ull ^
                 port * 7919ull ^ vc * 104729ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return (uint32_t)(x % (DEPTH + 1));
}

static void test_capabilities(void **state)
{
    /* every registered topology has an instance here */
    for (int t = 0; rs_topologies[t]; t++) {
        char want[64];
        snprintf(want, sizeof want, "topology=%s ", rs_topologies[t]->name);
        int found = 0;
        for (int i = 0; instances[i]; i++)
            found |= strncmp(instances[i], want, strlen(want)) == 0;
        if (!found) {
            print_error("no instance of topology=%s\n", rs_topologies[t]->name);
            fail();
        }
    }
    for (int i = 0; instances[i]; i++) {
        struct rs_net net;
        build(&net, instances[i]);
        assert_int_equal(net.caps & net.ops->caps, net.ops->caps); /* static ones kept */
        assert_int_equal(!(net.caps & RS_CAP_LEVELED), !net.n_levels);
        assert_int_equal(!(net.caps & RS_CAP_WRAP), !net.wrap);
        assert_int_equal(!(net.caps & RS_CAP_LCA), !rs__lcan_of(&net));
        if (net.caps & RS_CAP_LEVELED)
            for (uint32_t u = 0; u < net.n_nodes; u++)
                for (uint32_t p = 0; p < net.max_ports; p++) {
                    uint32_t v = net.ops->neighbor(&net, u, p, NULL);
                    int lu = net.ops->level(&net, u), lv;
                    if (v == RS_NONE)
                        continue;
                    lv = net.ops->level(&net, v);
                    assert_true(lv == lu + 1 || (net.wrap && lv == 0));
                }
        if (net.caps & RS_CAP_BUTTERFLY) /* the edges out of <l, row>: rows row, row^2^l */
            for (uint32_t u = 0; u < net.n_nodes; u++) {
                uint32_t l = u / net.N, row = u % net.N;
                if (net.ops->neighbor(&net, u, 0, NULL) == RS_NONE)
                    continue;
                assert_int_equal(net.ops->neighbor(&net, u, 0, NULL) % net.N, row);
                assert_int_equal(net.ops->neighbor(&net, u, 1, NULL) % net.N, row ^ (1u << l));
            }
        if (net.caps & RS_CAP_SLIMFLY) { /* diameter 2, distance against a BFS */
            uint32_t n = net.n_nodes, *d = bfs_all(&net);
            for (uint32_t u = 0; u < n; u++)
                for (uint32_t v = 0; v < n; v++) {
                    assert_true(d[(size_t)u * n + v] <= 2);
                    assert_int_equal(net.ops->distance(&net, u, v), d[(size_t)u * n + v]);
                }
            free(d);
        }
        if (net.caps & RS_CAP_COORDS)
            assert_int_equal(net.max_ports, 2 * net.dims);
        /* distance and productive ports against a BFS */
        if (net.caps & (RS_CAP_COORDS | RS_CAP_MIN_ESCAPE)) {
            uint32_t n = net.n_nodes, *d = bfs_all(&net), ports[RS_MAX_PRODUCTIVE];
            for (uint32_t u = 0; u < n; u++)
                for (uint32_t v = 0; v < n; v++) {
                    assert_int_equal(net.ops->distance(&net, u, v), d[(size_t)u * n + v]);
                    uint32_t k = net.ops->productive(&net, u, v, ports), want = 0;
                    for (uint32_t p = 0; p < net.max_ports; p++) {
                        uint32_t w = net.ops->neighbor(&net, u, p, NULL);
                        if (w != RS_NONE && d[(size_t)w * n + v] + 1 == d[(size_t)u * n + v]) {
                            assert_true(want < k);
                            assert_int_equal(ports[want], p); /* increasing port order */
                            want++;
                        }
                    }
                    assert_int_equal(k, want);
                }
            free(d);
        }
        rs_net_free(&net);
    }
}

/* A plain route (the topology's own, no intermediate) on a network without
 * RS_CAP_ROUTE_PER_MSG is the same for every message of a pair: the flit engine caches it per
 * (source, destination) (src/engine/flit_route.c). Walks each pair for two message ids. */
static void check_pair_route(const struct rs_net *net, const struct rs_routing_ops *r)
{
    uint32_t N = net->n_terminals, max_hops = 4 * net->n_nodes + 16;
    uint64_t a[256], b[256];
    if (net->paths || (net->caps & RS_CAP_ROUTE_PER_MSG) || !rs_route_plain(r, 0))
        return;
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t t = 0; t < N; t++) {
            struct rs_route_state x = {s, t, RS_NONE, 0, s * N + t};
            struct rs_route_state y = {s, t, RS_NONE, 0, 7919u * (s * N + t) + 12345u};
            int64_t la = rs_route_walk(net, r, &x, a, 256, max_hops, NULL);
            int64_t lb = rs_route_walk(net, r, &y, b, 256, max_hops, NULL);
            assert_int_equal(la, lb);
            for (int64_t h = 0; h < la && h < 256; h++)
                if (a[h] != b[h]) {
                    print_error("%s routing=%s: %u -> %u differs between two messages at hop "
                                "%lld (declare RS_CAP_ROUTE_PER_MSG)\n",
                                net->name, r->name, s, t, (long long)h);
                    fail();
                }
        }
}

/* Oblivious routing r on net: every pair arrives by valid channels in the claimed hops.
 * Networks that carry explicit per-message paths (cms_lower_bound) route only their own
 * messages: tests/topo/test_conformance.c walks those. */
static void check_oblivious(const struct rs_net *net, const struct rs_routing_ops *r)
{
    uint32_t N = net->n_terminals, max_hops = 4 * net->n_nodes + 16;
    if (net->paths)
        return;
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t t = 0; t < N; t++) {
            uint64_t id = (uint64_t)s * N + t;
            struct rs_route_state st = {s, t, rs_route_mid_for(net, r, 5, id, s, t), 0,
                                        (uint32_t)id};
            uint32_t end = RS_NONE;
            int64_t len = rs_route_walk(net, r, &st, NULL, 0, max_hops, &end);
            if (len < 0 || end != net->ops->dst_node(net, t)) {
                print_error("%s routing=%s: %u -> %u (mid %u) does not arrive\n", net->name,
                            r->name, s, t, st.mid);
                fail();
            }
            assert_int_equal(len, rs_route_length(net, r, &st, max_hops));
            /* dimension order is minimal per leg (updown is not: check_updown) */
            if ((net->caps & RS_CAP_COORDS) && r != RS_ROUTING_UPDOWN) {
                const struct rs_topo_ops *o = net->ops;
                uint32_t a = o->src_node(net, s), b = o->dst_node(net, t);
                uint32_t m = st.mid == RS_NONE ? RS_NONE : o->dst_node(net, st.mid);
                uint32_t want = st.mid == RS_NONE ? o->distance(net, a, b)
                                                  : o->distance(net, a, m) +
                                                        o->distance(net, m, b);
                assert_int_equal(len, want);
            }
        }
}

/* routing=updown (net prepared with root 0): a rank of its own (BFS levels from node 0 over
 * channels taken either way, then ids), and for every pair a breadth-first search over
 * (node, gone down) states for the shortest legal route; the routing's walk is legal (no up
 * channel after a down one) and exactly that long. */
static void check_updown(const struct rs_net *net, const struct rs_routing_ops *r)
{
    uint32_t n = net->n_nodes, N = net->n_terminals, max_hops = 4 * n + 16;
    uint32_t *level = malloc(n * sizeof *level), *q = malloc(2 * n * sizeof *q);
    uint32_t *dist = malloc(2 * n * sizeof *dist);
    uint64_t *chans = malloc(max_hops * sizeof *chans);
    assert_true(level && q && dist && chans);
    for (uint32_t v = 0; v < n; v++)
        level[v] = RS_NONE;
    uint32_t head = 0, tail = 0;
    level[0] = 0;
    q[tail++] = 0;
    while (head < tail) { /* undirected BFS: O(n^2 P) scan for in-channels, small nets */
        uint32_t u = q[head++];
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t p = 0; p < net->max_ports; p++)
                if (level[v] == RS_NONE && (net->ops->neighbor(net, u, p, NULL) == v ||
                                            net->ops->neighbor(net, v, p, NULL) == u)) {
                    level[v] = level[u] + 1;
                    q[tail++] = v;
                }
    }
#define RANK_BELOW(a, b) (level[a] != level[b] ? level[a] < level[b] : (a) < (b))
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t t = 0; t < N; t++) {
            uint32_t from = net->ops->src_node(net, s), to = net->ops->dst_node(net, t);
            for (uint32_t i = 0; i < 2 * n; i++)
                dist[i] = RS_NONE;
            head = tail = 0;
            dist[2 * from] = 0;
            q[tail++] = 2 * from;
            while (head < tail) {
                uint32_t x = q[head++], u = x / 2, down = x % 2;
                for (uint32_t p = 0; p < net->max_ports; p++) {
                    uint32_t v = net->ops->neighbor(net, u, p, NULL);
                    if (v == RS_NONE || v == u)
                        continue;
                    uint32_t is_down = !RANK_BELOW(v, u), y = 2 * v + (down | is_down);
                    if ((down && !is_down) || dist[y] != RS_NONE)
                        continue;
                    dist[y] = dist[x] + 1;
                    q[tail++] = y;
                }
            }
            uint32_t want = dist[2 * to] < dist[2 * to + 1] ? dist[2 * to] : dist[2 * to + 1];
            assert_int_not_equal(want, RS_NONE); /* prepare refuses unroutable networks */
            struct rs_route_state st = {s, t, RS_NONE, 0, 0};
            uint32_t end = RS_NONE;
            int64_t len = rs_route_walk(net, r, &st, chans, max_hops, max_hops, &end);
            assert_int_equal(end, to);
            assert_int_equal(len, want);
            int gone_down = 0;
            for (int64_t h = 0; h < len; h++) {
                uint32_t u = (uint32_t)(chans[h] / net->max_ports);
                uint32_t v = net->ops->neighbor(net, u, (uint32_t)(chans[h] % net->max_ports),
                                                NULL);
                int is_down = !RANK_BELOW(v, u);
                assert_false(gone_down && !is_down);
                gone_down |= is_down;
            }
        }
#undef RANK_BELOW
    free(level);
    free(q);
    free(dist);
    free(chans);
}

/* Adaptive routing r on net: choices at every node toward every destination, and one walk
 * per pair that takes a pseudo-random choice at each hop. */
static void check_adaptive(const struct rs_net *net, const struct rs_routing_ops *r)
{
    struct rs_err err;
    uint32_t N = net->n_terminals, lo = net->wrap ? 2 : 1;
    assert_int_equal(r->check_vcs(net, lo, &err), RS_ECONSTRAINT); /* no adaptive VC */
    assert_int_equal(r->check_vcs(net, lo + 1, &err), 0);
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t t = 0; t < N; t++) {
            struct rs_route_state st = {s, t, RS_NONE, 0, 0};
            uint32_t node = net->ops->src_node(net, s), target = net->ops->dst_node(net, t);
            uint32_t dist = net->ops->distance(net, node, target);
            for (;;) {
                struct rs_route_choice ch[RS_ROUTE_MAX_CHOICES], fx[RS_ROUTE_MAX_CHOICES];
                struct rs_route_view view = {(const void *)(uintptr_t)(s * N + t + st.hops),
                                             VCS, DEPTH, fake_free};
                struct rs_route_view fixed = {NULL, VCS, DEPTH, NULL};
                uint32_t n = r->choose(net, node, &st, &view, ch), ports[RS_MAX_PRODUCTIVE];
                assert_int_equal(r->choose(net, node, &st, &fixed, fx), n);
                if (!n) {
                    assert_int_equal(node, target);
                    break;
                }
                uint32_t np = net->ops->productive(net, node, target, ports);
                assert_int_equal(n, np + 1);
                /* the escape: dimension order, VC 0 or its dateline class */
                uint32_t esc = net->ops->route(net, node, &st);
                uint32_t ev = net->wrap ? net->ops->vc_class(net, node, esc, &st) & 1 : 0;
                assert_int_equal(ch[n - 1].port, esc);
                assert_int_equal(ch[n - 1].vc_lo, ev);
                assert_int_equal(ch[n - 1].vc_hi, ev + 1);
                assert_int_equal(fx[n - 1].port, esc);
                /* adaptive choices: each productive port once, VCs [lo, VCS); fixed order
                 * by port id; with state by free slots, ties by port id */
                uint32_t prev_score = UINT32_MAX, prev_port = 0;
                for (uint32_t i = 0; i + 1 < n; i++) {
                    assert_int_equal(ch[i].vc_lo, lo);
                    assert_int_equal(ch[i].vc_hi, VCS);
                    assert_int_equal(fx[i].port, ports[i]);
                    uint32_t seen = 0, score = 0;
                    for (uint32_t j = 0; j < np; j++)
                        seen += ports[j] == ch[i].port;
                    assert_int_equal(seen, 1);
                    for (uint32_t v = lo; v < VCS; v++)
                        score += fake_free(view.ctx, node, ch[i].port, v);
                    if (ch[i].port == esc)
                        score += fake_free(view.ctx, node, esc, ev);
                    assert_true(score < prev_score ||
                                (score == prev_score && ch[i].port > prev_port));
                    prev_score = score;
                    prev_port = ch[i].port;
                }
                uint32_t pick = (s * 31 + t * 17 + st.hops * 7) % n; /* any choice */
                uint32_t next = net->ops->neighbor(net, node, ch[pick].port, NULL);
                assert_int_not_equal(next, RS_NONE);
                assert_int_equal(net->ops->distance(net, next, target) + 1,
                                 net->ops->distance(net, node, target));
                node = next;
                st.hops++;
                assert_true(st.hops <= dist);
            }
            assert_int_equal(st.hops, dist);
        }
}

/* routing=nca_adaptive on an up/down tree: at every hop of one walk per pair (a
 * pseudo-random choice each time), the choices are exactly the productive ports, all VCs,
 * by most free slots (ties by port id), and the walk arrives in the oblivious route's
 * number of hops (every up/down route through a nearest common ancestor is minimal). */
static void check_nca_adaptive(const struct rs_net *net, const struct rs_routing_ops *r)
{
    uint32_t N = net->n_terminals;
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t t = 0; t < N; t++) {
            struct rs_route_state st = {s, t, RS_NONE, 0, 0};
            uint32_t node = net->ops->src_node(net, s), target = net->ops->dst_node(net, t);
            uint32_t len = net->ops->path_length(net, &st);
            for (;;) {
                struct rs_route_choice ch[RS_ROUTE_MAX_CHOICES];
                struct rs_route_view view = {(const void *)(uintptr_t)(s * N + t + st.hops),
                                             VCS, DEPTH, fake_free};
                uint32_t n = r->choose(net, node, &st, &view, ch), ports[RS_MAX_PRODUCTIVE];
                if (!n) {
                    assert_int_equal(node, target);
                    break;
                }
                assert_int_equal(n, net->ops->productive(net, node, target, ports));
                uint32_t prev_score = UINT32_MAX, prev_port = 0;
                for (uint32_t i = 0; i < n; i++) {
                    uint32_t seen = 0, score = 0;
                    assert_int_equal(ch[i].vc_lo, 0);
                    assert_int_equal(ch[i].vc_hi, VCS);
                    for (uint32_t j = 0; j < n; j++)
                        seen += ports[j] == ch[i].port;
                    assert_int_equal(seen, 1);
                    for (uint32_t v = 0; v < VCS; v++)
                        score += fake_free(view.ctx, node, ch[i].port, v);
                    assert_true(score < prev_score ||
                                (score == prev_score && ch[i].port > prev_port));
                    prev_score = score;
                    prev_port = ch[i].port;
                }
                uint32_t pick = (s * 31 + t * 17 + st.hops * 7) % n;
                node = net->ops->neighbor(net, node, ch[pick].port, NULL);
                assert_int_not_equal(node, RS_NONE);
                st.hops++;
                assert_true(st.hops <= len);
            }
            assert_int_equal(st.hops, len);
        }
}

/* A dragonfly routing (UGAL, PAR): one choice per hop, on an existing channel; between
 * routers the VC range is one class of floor(VCS/C) VCs (C = 3 classes, 4 for PAR) that never
 * drops along the walk (the deadlock argument); without state the choice is minimal; every
 * walk, with pseudo-random credits and every intermediate draw, arrives within 7 channels (8
 * for PAR, whose re-routed packets take a second local hop in the source group; 5 without
 * state). */
static void check_dragonfly(const struct rs_net *net, const struct rs_routing_ops *r)
{
    struct rs_err err;
    const int par = !strcmp(r->name, "par");
    uint32_t N = net->n_terminals, classes = par ? 4 : 3, per = VCS / classes;
    uint32_t longest = par ? 8 : 7;
    assert_int_equal(r->check_vcs(net, classes - 1, &err), RS_ECONSTRAINT);
    assert_int_equal(r->check_vcs(net, classes, &err), 0);
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t t = 0; t < N; t++)
            for (uint32_t m = 0; m < 8; m++)
                for (int with_state = 0; with_state < 2; with_state++) {
                    struct rs_route_state st = {s, t, r->mid(net, 7, s * N + t + m * N * N, s, t),
                                                0, 0};
                    uint32_t node = net->ops->src_node(net, s), cls = 0;
                    for (;;) {
                        struct rs_route_choice ch[RS_ROUTE_MAX_CHOICES];
                        struct rs_route_view view = {
                            (const void *)(uintptr_t)(s * N + t + st.hops + m), VCS, DEPTH,
                            with_state ? fake_free : NULL};
                        uint32_t n = r->choose(net, node, &st, &view, ch);
                        if (!n) {
                            assert_int_equal(node, net->ops->dst_node(net, t));
                            break;
                        }
                        assert_int_equal(n, 1);
                        uint32_t next = net->ops->neighbor(net, node, ch[0].port, NULL);
                        assert_int_not_equal(next, RS_NONE);
                        if (node >= N && next >= N) { /* router to router: one class */
                            assert_int_equal(ch[0].vc_lo % per, 0);
                            assert_int_equal(ch[0].vc_hi, ch[0].vc_lo + per);
                            assert_true(ch[0].vc_lo / per >= cls);
                            cls = ch[0].vc_lo / per;
                        } else {
                            assert_int_equal(ch[0].vc_lo, 0);
                            assert_int_equal(ch[0].vc_hi, VCS);
                        }
                        node = next;
                        st.hops++;
                        assert_true(st.hops <= (with_state ? longest : 5u));
                    }
                }
}

/* A Slim Fly routing (UGAL-L): one choice per hop, on an existing channel, the VCs of class
 * hops (floor(VCS/4) each), so the class rises by one per hop; without state the walk is
 * minimal; with pseudo-random credits and every intermediate draw it arrives within 4 router
 * hops, at most max(dist(s, d), dist(s, m) + dist(m, d)). */
static void check_slimfly(const struct rs_net *net, const struct rs_routing_ops *r)
{
    struct rs_err err;
    uint32_t N = net->n_terminals, per = VCS / 4;
    assert_int_equal(r->check_vcs(net, 3, &err), RS_ECONSTRAINT);
    assert_int_equal(r->check_vcs(net, 4, &err), 0);
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t t = 0; t < N; t++)
            for (uint32_t m = 0; m < 8; m++)
                for (int with_state = 0; with_state < 2; with_state++) {
                    struct rs_route_state st = {s, t, r->mid(net, 7, s * N + t + m * N * N, s, t),
                                                0, 0};
                    uint32_t node = net->ops->src_node(net, s), d = net->ops->dst_node(net, t);
                    uint32_t mr = net->ops->src_node(net, st.mid);
                    uint32_t dmin = net->ops->distance(net, node, d);
                    uint32_t dnm = net->ops->distance(net, node, mr) + net->ops->distance(net, mr, d);
                    uint32_t most = with_state && dnm > dmin ? dnm : dmin;
                    for (;;) {
                        struct rs_route_choice ch[RS_ROUTE_MAX_CHOICES];
                        struct rs_route_view view = {
                            (const void *)(uintptr_t)(s * N + t + st.hops + m), VCS, DEPTH,
                            with_state ? fake_free : NULL};
                        uint32_t n = r->choose(net, node, &st, &view, ch);
                        if (!n) {
                            assert_int_equal(node, d);
                            break;
                        }
                        assert_int_equal(n, 1);
                        assert_int_equal(ch[0].vc_lo, st.hops * per);
                        assert_int_equal(ch[0].vc_hi, (st.hops + 1) * per);
                        node = net->ops->neighbor(net, node, ch[0].port, NULL);
                        assert_int_not_equal(node, RS_NONE);
                        st.hops++;
                        assert_true(st.hops <= most && st.hops <= 4);
                    }
                    if (!with_state)
                        assert_int_equal(st.hops, net->ops->distance(
                                                      net, net->ops->src_node(net, s), d));
                }
}

static void test_every_routing_on_every_topology(void **state)
{
    uint32_t updown_on = 0; /* instances routing=updown routes (the rest it refuses) */
    for (int i = 0; instances[i]; i++) {
        for (int k = 0; rs_routings[k]; k++) {
            const struct rs_routing_ops *r = rs_routings[k];
            struct rs_net net; /* one per routing: a network is prepared for one routing */
            struct rs_err err;
            char want[64];
            build(&net, instances[i]);
            rs_err_clear(&err);
            int rc = rs_route_check(&net, r, &err);
            if (!rc) /* as every run does: seed, then the routing's tables */
                rc = rs_route_prepare(&net, r, NULL, 5, &err);
            if ((net.caps & r->needs) != r->needs) { /* a missing capability: refused */
                assert_int_equal(rc, RS_EUNSUPPORTED);
                snprintf(want, sizeof want, "routing=%s needs topology=", r->name);
                assert_non_null(strstr(err.msg, want));
                rs_net_free(&net);
                continue;
            }
            if (rc) { /* refused by the routing's own check or prepare, naming it */
                assert_int_equal(rc, RS_EUNSUPPORTED);
                snprintf(want, sizeof want, "routing=%s", r->name);
                assert_non_null(strstr(err.msg, want));
                rs_net_free(&net);
                continue;
            }
            if (r == RS_ROUTING_NCA_ADAPTIVE) {
                assert_true(net.caps & RS_CAP_UP_DOWN);
                assert_int_equal(rs_route_need_fixed(r, "x", &err), RS_EUNSUPPORTED);
                check_nca_adaptive(&net, r);
            } else if (rs_route_is_adaptive(r) && (r->needs & RS_CAP_DRAGONFLY)) {
                assert_int_equal(rs_route_need_fixed(r, "x", &err), RS_EUNSUPPORTED);
                check_dragonfly(&net, r);
            } else if (rs_route_is_adaptive(r) && (r->needs & RS_CAP_SLIMFLY)) {
                assert_int_equal(rs_route_need_fixed(r, "x", &err), RS_EUNSUPPORTED);
                check_slimfly(&net, r);
            } else if (rs_route_is_adaptive(r)) {
                assert_true(net.caps & RS_CAP_MIN_ESCAPE);
                assert_int_equal(rs_route_need_fixed(r, "x", &err), RS_EUNSUPPORTED);
                check_adaptive(&net, r);
            } else {
                assert_int_equal(rs_route_need_fixed(r, "x", &err), 0);
                check_oblivious(&net, r);
                check_pair_route(&net, r);
                if (r == RS_ROUTING_UPDOWN) {
                    check_updown(&net, r);
                    updown_on++;
                }
            }
            rs_net_free(&net);
        }
    }
    /* 25 of the 28 instances above (not cms_lower_bound: explicit paths; not the directed
     * graph_small.txt and the wrapped butterfly: pairs without a legal route) */
    if (updown_on < 25)
        fail_msg("routing=updown routed only %u instances", updown_on);
}

/* Which pairs are accepted, by name: the capabilities decide, not the topology's name. */
static void test_acceptance(void **state)
{
    static const struct {
        const char *kv, *routing;
        int ok;
    } cases[] = {
        {"topology=mesh k=4", "min_adaptive", 1},
        {"topology=torus k=4", "min_adaptive", 1},
        {"topology=ring k=5", "min_adaptive", 1},
        {"topology=mesh k=4 c=2", "min_adaptive", 1},
        {"topology=hyperx S=4,4", "min_adaptive", 1},
        {"topology=flattened_butterfly k=2 n=4", "min_adaptive", 1},
        {"topology=hyperx S=4,4", "yx", 0},
        {"topology=butterfly N=8 wrap=1", "min_adaptive", 0},
        {"topology=lcan N=16 d=4 u=2", "min_adaptive", 0},
        {"topology=benes N=8", "ranade", 1},
        {"topology=mesh k=4", "ranade", 0},
        {"topology=butterfly N=8", "valiant", 0},
        {"topology=butterfly N=8 wrap=1", "valiant", 1},
        {"topology=dragonfly p=1", "ugal_l", 1},
        {"topology=dragonfly p=1", "ugal_g", 1},
        {"topology=dragonfly p=1", "par", 1},
        {"topology=mesh k=4", "par", 0},
        {"topology=dragonfly p=1", "min_adaptive", 0},
        {"topology=mesh k=4", "ugal_l", 0},
        {"topology=slimfly q=3", "ugal_l_sf", 1},
        {"topology=slimfly q=3", "ugal_l", 0},
        {"topology=slimfly q=3", "min_adaptive", 0},
        {"topology=dragonfly p=1", "ugal_l_sf", 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct rs_net net;
        struct rs_err err;
        build(&net, cases[c].kv);
        int rc = rs_route_check(&net, rs_routing_find(cases[c].routing), &err);
        assert_int_equal(rc, cases[c].ok ? 0 : RS_EUNSUPPORTED);
        rs_net_free(&net);
    }
    struct rs_net net;
    struct rs_err err;
    build(&net, "topology=benes N=8");
    assert_int_equal(rs_route_check(&net, RS_ROUTING_MIN_ADAPTIVE, &err), RS_EUNSUPPORTED);
    assert_string_equal(err.msg, "routing=min_adaptive needs topology=mesh|torus|chain|ring|hypercube|"
                                 "hyperx|flattened_butterfly (got benes)");
    rs_net_free(&net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capabilities),
        cmocka_unit_test(test_every_routing_on_every_topology),
        cmocka_unit_test(test_acceptance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
