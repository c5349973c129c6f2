/* Valiant written once in the routing layer (rs_route_leg, src/route/route.c) over every
 * topology's minimal route: the same channels and virtual-channel classes as the per-topology
 * phase switch it replaced (hashes recorded from the base commit f9bba11, where each topology
 * read st->mid itself), the walk is the two legs joined at mid, and rs_route_length agrees. */
#include "rs_test.h"

#include "routesim/rng.h"
#include "routesim/route.h"

struct golden {
    const char *kv;
    uint64_t hash; /* FNV-1a over (length, channels, classes) of every message; see walk_hash */
};

/* Every instance of tests/route/test_routing_conformance.c that accepts routing=valiant. The
 * hashes were printed by this test run against f9bba11's topology routes (each reading
 * st->mid) and are kept as they were. */
static const struct golden instances[] = {
    {"topology=butterfly N=8 wrap=1", 0xf764f5dbf9b63ea3ull},
    {"topology=benes N=8", 0xb1feba7ed60a33e3ull},
    {"topology=mesh k=4 n=2", 0x2214dd3181e507d3ull},
    {"topology=mesh k=3 n=3", 0x29c2f111c0831bdcull},
    {"topology=torus k=4 n=2", 0x52a00352a98b918aull},
    {"topology=torus k=5 n=2", 0x03c278dec31af5c6ull},
    {"topology=torus k=2 n=3", 0x69330835265db916ull},
    {"topology=chain k=5", 0x9e6fbf00fa2a6065ull},
    {"topology=ring k=6", 0xbf08b8c67c89514full},
    {"topology=lcan N=16 d=4 u=2", 0x030f91fc4e02b480ull},
    {"topology=lcan N=16 d=4 u=2 pi=tree", 0x89cf67199556dfd9ull},
    {"topology=baseline N=8", 0xbc55c195a7472299ull},
    {"topology=swbanyan N=9 f=3 s=2", 0xb689334a69815d03ull},
    {"topology=trac N=9", 0xb689334a69815d03ull},
    {"topology=cm5 N=16", 0x030f91fc4e02b480ull},
    {"topology=graph graph_file=@/graph_small.txt", 0x0df6d6286b68d06bull},
    {"topology=pruned_butterfly N=16", 0xf2a64a431535cf5dull},
    {"topology=fat_tree N=8", 0x6fc6871dbd95ee8bull},
    {"topology=sorting_fat_tree N=32 side=2", 0xac4362dc9bdf4b4aull},
    {NULL, 0}};

#define SEED 7
#define MSGS 600

static uint64_t fnv(uint64_t h, uint64_t x)
{
    for (int i = 0; i < 8; i++) {
        h ^= (x >> (8 * i)) & 0xff;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Message m: source m mod N, destination and intermediate from the seed (the intermediate as
 * routing=valiant draws it). */
static struct rs_route_state message(const struct rs_net *net, uint32_t m)
{
    uint32_t n = net->n_terminals;
    struct rs_route_state st = {m % n, rs_rand_below(SEED, RS_STREAM_TEST, m, 0, n),
                                rs_route_uniform_mid(SEED, m, n), 0, m};
    return st;
}

/* Hash of the Valiant walks of MSGS messages through the routing layer: per message its
 * length, then per hop the channel and (where the topology has classes) the VC class. */
static uint64_t walk_hash(const struct rs_net *net)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t m = 0; m < MSGS; m++) {
        struct rs_route_state st = message(net, m);
        uint64_t ch[256];
        int64_t len = rs_route_walk(net, RS_ROUTING_VALIANT, &st, ch, 256, 256, NULL);
        assert_true(len >= 0 && len <= 256);
        assert_int_equal(rs_route_length(net, RS_ROUTING_VALIANT, &st, 256), len);
        h = fnv(h, (uint64_t)len);
        uint32_t node = net->ops->src_node(net, st.src);
        for (int64_t i = 0; i < len; i++) {
            uint32_t port = (uint32_t)(ch[i] % net->max_ports);
            assert_int_equal(ch[i] / net->max_ports, node);
            h = fnv(h, ch[i]);
            if (net->ops->vc_class)
                h = fnv(h, rs_route_vc_class(net, RS_ROUTING_VALIANT, node, port, &st));
            node = net->ops->neighbor(net, node, port, NULL);
            st.hops++;
        }
    }
    return h;
}

static void test_same_channels_as_base(void **state)
{
    (void)state;
    int bad = 0;
    for (int i = 0; instances[i].kv; i++) {
        char buf[1024];
        struct rs_net net;
        struct rs_err err;
        rs_test_net(&net, rs_test_with_data(instances[i].kv, buf, sizeof buf));
        assert_int_equal(rs_route_check(&net, RS_ROUTING_VALIANT, &err), 0);
        uint64_t h = walk_hash(&net);
        if (h != instances[i].hash) {
            print_message("%s: 0x%016llxull (want 0x%016llxull)\n", instances[i].kv,
                          (unsigned long long)h, (unsigned long long)instances[i].hash);
            bad = 1;
        }
        rs_net_free(&net);
    }
    assert_false(bad);
}

/* Where the intermediate is a terminal, the Valiant walk is the walk src -> mid followed by
 * the walk mid -> dst, and the VC class has bit 1 exactly on the second leg. */
static void test_two_legs(void **state)
{
    (void)state;
    for (int i = 0; instances[i].kv; i++) {
        char buf[1024];
        struct rs_net net;
        rs_test_net(&net, rs_test_with_data(instances[i].kv, buf, sizeof buf));
        if (!net.ops->valiant_via_terminal) {
            rs_net_free(&net);
            continue;
        }
        for (uint32_t m = 0; m < MSGS; m++) {
            struct rs_route_state st = message(&net, m);
            struct rs_route_state a = {st.src, st.mid, RS_NONE, 0, m};
            struct rs_route_state b = {st.mid, st.dst, RS_NONE, 0, m};
            uint64_t ch[256], ca[256], cb[256];
            uint32_t end;
            int64_t len = rs_route_walk(&net, RS_ROUTING_VALIANT, &st, ch, 256, 256, &end);
            int64_t la = rs_route_walk(&net, NULL, &a, ca, 256, 256, NULL);
            int64_t lb = rs_route_walk(&net, NULL, &b, cb, 256, 256, NULL);
            assert_true(la >= 0 && lb >= 0);
            assert_int_equal(len, la + lb);
            assert_memory_equal(ch, ca, (size_t)la * sizeof *ch);
            assert_memory_equal(ch + la, cb, (size_t)lb * sizeof *ch);
            assert_int_equal(end, net.ops->dst_node(&net, st.dst));
            if (!net.ops->vc_class)
                continue;
            for (int64_t h = 0; h < len; h++) {
                st.hops = (uint32_t)h;
                uint32_t node = (uint32_t)(ch[h] / net.max_ports);
                uint32_t port = (uint32_t)(ch[h] % net.max_ports);
                uint32_t c = rs_route_vc_class(&net, RS_ROUTING_VALIANT, node, port, &st);
                assert_int_equal(c >> 1, h >= la);
            }
        }
        rs_net_free(&net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_channels_as_base),
        cmocka_unit_test(test_two_legs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
