/* LCANs (002 §2): the worked example of §2.3, LCA levels against the digit rule, Lemma 1
 * (u^i switches reachable on level i), Lemma 2 (u^i LCA switches), Theorem 2 (as many
 * non-redundant switch paths as LCA switches) and Lemma 3 (one LCA switch in a T-LCAN),
 * exhaustively over all pairs of small instances; labels; the oblivious route. */
#include "rs_test.h"

#include "routesim/route.h"
#include "routesim/lcan.h"

/* Switches reachable upwards from PE s (Lemma 1), as a 0/1 array over node ids. */
static void up_reach(const struct rs_net *net, uint32_t s, uint8_t *mark)
{
    const struct rs_lcan *lc = rs__lcan_of(net);
    memset(mark, 0, net->n_nodes);
    uint32_t first = net->ops->neighbor(net, s, 0, NULL);
    mark[first] = 1;
    for (uint32_t i = 0; i + 1 < lc->l; i++) /* level by level: ids increase with the level */
        for (uint32_t v = lc->first[i]; v < lc->first[i] + lc->S[i]; v++)
            if (mark[v])
                for (uint32_t k = 0; k < lc->u[i]; k++)
                    mark[net->ops->neighbor(net, v, lc->d[i] + k, NULL)] = 1;
}

/* Most significant differing digit of s and t in the mixed radix d_0, d_1, ... (CB). */
static uint32_t digit_lca(const struct rs_lcan *lc, uint32_t s, uint32_t t)
{
    uint32_t lca = 0;
    for (uint32_t i = 0; i < lc->l; i++) {
        if (s % lc->d[i] != t % lc->d[i])
            lca = i;
        s /= lc->d[i];
        t /= lc->d[i];
    }
    return lca;
}

/* Non-redundant switch paths from the switch v (entered from above when down_only) to PE
 * t: a switch connects downer to downer or upper, upper to downer only (002 §2, Fig. 1a),
 * and a path passes through every switch at most once. */
static uint64_t count_paths(const struct rs_net *net, uint32_t v, int down_only, uint32_t t,
                            uint8_t *visited)
{
    const struct rs_lcan *lc = rs__lcan_of(net);
    int lv = rs__lcan_level(lc, v);
    if (lv < 0)
        return v == t;
    uint64_t n = 0;
    visited[v] = 1;
    uint32_t ports = lc->d[lv] + (!down_only && (uint32_t)lv + 1 < lc->l ? lc->u[lv] : 0);
    for (uint32_t port = 0; port < ports; port++) {
        uint32_t w = net->ops->neighbor(net, v, port, NULL);
        if (w >= lc->N && visited[w])
            continue;
        n += count_paths(net, w, port < lc->d[lv], t, visited);
    }
    visited[v] = 0;
    return n;
}

/* Every pair: LCA level = digit rule (CB), Lemma 1, Lemma 2 / Lemma 3, Theorem 2 (CB). */
static void check_pairs(const char *kv, int theorem2)
{
    struct rs_net net;
    rs_test_net(&net, kv);
    const struct rs_lcan *lc = rs__lcan_of(&net);
    assert_non_null(lc);
    uint8_t *rs = malloc(net.n_nodes), *rt = malloc(net.n_nodes), *vis = calloc(net.n_nodes, 1);
    assert_non_null(rs);
    assert_non_null(rt);
    assert_non_null(vis);
    for (uint32_t s = 0; s < lc->N; s++) {
        up_reach(&net, s, rs);
        for (uint32_t i = 0; i < lc->l; i++) { /* Lemma 1: prod u_j (j < i) on level i */
            uint32_t n = 0, want = lc->tree ? 1 : lc->U[i];
            for (uint32_t x = 0; x < lc->S[i]; x++)
                n += rs[lc->first[i] + x];
            assert_int_equal(n, want);
        }
        for (uint32_t t = 0; t < lc->N; t++) {
            if (t == s)
                continue;
            up_reach(&net, t, rt);
            uint32_t L = rs__lcan_lca_level(lc, s, t);
            if (!lc->tree)
                assert_int_equal(L, digit_lca(lc, s, t));
            /* the LCA level is the lowest one with a switch above both; count them */
            for (uint32_t i = 0; i <= L; i++) {
                uint32_t common = 0;
                for (uint32_t x = 0; x < lc->S[i]; x++) {
                    uint32_t v = lc->first[i] + x;
                    common += rs[v] && rt[v];
                    assert_int_equal(rs[v] && rt[v], i == L && rs__lcan_above(lc, i, x, t) &&
                                                         rs__lcan_above(lc, i, x, s));
                }
                /* Lemma 2 (CB: u^L LCA switches), Lemma 3 (T: exactly one) */
                assert_int_equal(common, i < L ? 0 : lc->tree ? 1 : lc->U[L]);
            }
            if (theorem2) { /* Theorem 2: non-redundant switch paths = LCA switches */
                uint32_t first = net.ops->neighbor(&net, s, 0, NULL);
                assert_int_equal(count_paths(&net, first, 0, t, vis), lc->U[L]);
            }
        }
    }
    free(rs);
    free(rt);
    free(vis);
    rs_net_free(&net);
}

static void test_lca_lemmas_theorem2(void **state)
{
    check_pairs("topology=lcan N=27 d=3 u=2", 1);
    check_pairs("topology=baseline N=16", 1);
    check_pairs("topology=lcan N=16 d=4 u=2", 1);
    check_pairs("topology=lcan N=8 d=2 u=3", 1); /* d < u */
    check_pairs("topology=lcan N=64 d=4,4,4 u=2,2,4", 1);
    check_pairs("topology=lcan N=16 d=4 u=2 pi=tree", 0);
    check_pairs("topology=lcan N=32 d=4,4,4,4 u=2,2,2,2 pi=tree", 0);
}

/* 002 §2.3 / Fig. 4: CB-LCAN(27,3,2), PEs 4 (011) and 18 (200): LCA level 2, u^2 = 4 LCA
 * switches, and from each of them the downward digits 2, 0, 0 reach PE 18. */
static void test_worked_example(void **state)
{
    struct rs_net net;
    char buf[64];
    rs_test_net(&net, "topology=lcan N=27 d=3 u=2");
    const struct rs_lcan *lc = rs__lcan_of(&net);
    assert_int_equal(lc->l, 3);
    assert_int_equal(lc->S[0], 9); /* eq. 1: N/d (u/d)^i = 9, 6, 4 */
    assert_int_equal(lc->S[1], 6);
    assert_int_equal(lc->S[2], 4);
    net.ops->label(&net, 4, buf, sizeof buf);
    assert_string_equal(buf, "011");
    net.ops->label(&net, 18, buf, sizeof buf);
    assert_string_equal(buf, "200");
    assert_int_equal(rs__lcan_lca_level(lc, 4, 18), 2);
    uint8_t *mark = malloc(net.n_nodes), *m18 = malloc(net.n_nodes);
    assert_non_null(mark);
    assert_non_null(m18);
    up_reach(&net, 4, mark);
    up_reach(&net, 18, m18);
    uint32_t lca_switches = 0;
    for (uint32_t x = 0; x < lc->S[2]; x++) {
        uint32_t v = lc->first[2] + x, wires;
        if (!mark[v] || !m18[v])
            continue;
        lca_switches++;
        uint32_t digits[3], at = v;
        for (int i = 2; i >= 0; i--) {
            digits[i] = rs__lcan_downer_to(lc, (uint32_t)i, 18, &wires);
            at = net.ops->neighbor(&net, at, digits[i], NULL);
        }
        assert_int_equal(digits[2], 2);
        assert_int_equal(digits[1], 0);
        assert_int_equal(digits[0], 0);
        assert_int_equal(at, 18);
    }
    assert_int_equal(lca_switches, 4);
    /* level-2 labels: no base-d digit, two base-u digits */
    net.ops->label(&net, lc->first[2] + 3, buf, sizeof buf);
    assert_string_equal(buf, "L2:11");
    /* level-1 switch 01 (base-d digit 0, base-u digit 1) = index 1 */
    net.ops->label(&net, lc->first[1] + 1, buf, sizeof buf);
    assert_string_equal(buf, "L1:01");
    free(mark);
    free(m18);
    rs_net_free(&net);
}

/* §2.1's wiring rule on CB-LCAN(27,3,2): switch w = 12 of level 0 (digits p2 p1 = 1 2)
 * through upper k reaches the level-1 switch "1k" (w_0 = 2 removed, k appended) at its
 * downer 2; that switch's upper k' reaches "kk'" of level 2 at downer 1. */
static void test_wiring_rule(void **state)
{
    struct rs_net net;
    char buf[64];
    rs_test_net(&net, "topology=lcan N=27 d=3 u=2");
    const struct rs_lcan *lc = rs__lcan_of(&net);
    uint32_t w = lc->first[0] + 1 * 3 + 2, slot;
    net.ops->label(&net, w, buf, sizeof buf);
    assert_string_equal(buf, "L0:12");
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t v = net.ops->neighbor(&net, w, 3 + k, &slot);
        char want[16];
        snprintf(want, sizeof want, "L1:1%u", k);
        net.ops->label(&net, v, buf, sizeof buf);
        assert_string_equal(buf, want);
        assert_int_equal(slot, 2);
        for (uint32_t k2 = 0; k2 < 2; k2++) {
            uint32_t top = net.ops->neighbor(&net, v, 3 + k2, &slot);
            snprintf(want, sizeof want, "L2:%u%u", k, k2);
            net.ops->label(&net, top, buf, sizeof buf);
            assert_string_equal(buf, want);
            assert_int_equal(slot, 1);
            /* and back down: downer 1 of the top switch is this wire, arriving at upper k2 */
            assert_int_equal(net.ops->neighbor(&net, top, 1, &slot), v);
            assert_int_equal(slot, 3 + k2);
        }
    }
    /* the top level has no uppers */
    assert_int_equal(net.ops->neighbor(&net, lc->first[2], 3, NULL), RS_NONE);
    rs_net_free(&net);
}

/* Labels of a T-LCAN and of digits above 9. */
static void test_labels(void **state)
{
    struct rs_net net;
    char buf[64];
    rs_test_net(&net, "topology=lcan N=16 d=4 u=2 pi=tree"); /* 2-ary tree of 3 levels */
    const struct rs_lcan *lc = rs__lcan_of(&net);
    assert_int_equal(lc->S[0], 4);
    assert_int_equal(lc->S[1], 2);
    assert_int_equal(lc->S[2], 1);
    net.ops->label(&net, 13, buf, sizeof buf); /* children 1, 1 from the top, downer 1 */
    assert_string_equal(buf, "111");
    net.ops->label(&net, lc->first[2], buf, sizeof buf);
    assert_string_equal(buf, "L2:-");
    net.ops->label(&net, lc->first[0] + 2, buf, sizeof buf);
    assert_string_equal(buf, "L0:10");
    rs_net_free(&net);
    rs_test_net(&net, "topology=lcan N=144 d=12 u=12");
    net.ops->label(&net, 143, buf, sizeof buf);
    assert_string_equal(buf, "11.11");
    rs_net_free(&net);
}

/* The oblivious route of CB-LCAN(27,3,2) from PE 4 (011) to PE 18 (200): up with the fixed
 * choice "downer j -> upper j mod u": at level 0 downer 1 -> upper 1 (switch 01 -> level-1
 * switch "0" + "1" = 01), at level 1 downer 1 -> upper 1 (-> level-2 switch 11), then down
 * by the digits 2, 0, 0: level-1 switch "2"+"1" = 21, level-0 switch 20, PE 200. */
static void test_route_example(void **state)
{
    struct rs_net net;
    char buf[64];
    uint64_t ch[16];
    rs_test_net(&net, "topology=lcan N=27 d=3 u=2");
    struct rs_route_state st = {4, 18, RS_NONE, 0, 0};
    uint32_t end;
    int64_t h = rs_route_expand(&net, &st, ch, 16, 16, &end);
    assert_int_equal(h, 6);
    assert_int_equal(end, 18);
    const char *want[] = {"L0:01", "L1:01", "L2:11", "L1:21", "L0:20", "200"};
    uint32_t at = 4;
    for (int i = 0; i < 6; i++) {
        at = net.ops->neighbor(&net, (uint32_t)(ch[i] / net.max_ports),
                               (uint32_t)(ch[i] % net.max_ports), NULL);
        net.ops->label(&net, at, buf, sizeof buf);
        assert_string_equal(buf, want[i]);
    }
    /* to itself: no hop */
    struct rs_route_state self = {5, 5, RS_NONE, 0, 0};
    assert_int_equal(rs_route_expand(&net, &self, NULL, 0, 16, NULL), 0);
    rs_net_free(&net);
}

/* Root groups and the named instances' shapes. */
static void test_instances(void **state)
{
    struct rs_net net;
    rs_test_net(&net, "topology=cm5 N=256");
    const struct rs_lcan *lc = rs__lcan_of(&net);
    assert_int_equal(lc->l, 4);
    assert_int_equal(lc->u[0], 2);
    assert_int_equal(lc->u[1], 2);
    assert_int_equal(lc->u[2], 4);
    assert_int_equal(lc->S[3], 2 * 2 * 4);
    assert_int_equal(lc->groups, 4);
    assert_int_equal(rs__lcan_group(lc, 63), 0);
    assert_int_equal(rs__lcan_group(lc, 64), 1);
    rs_net_free(&net);
    rs_test_net(&net, "topology=swbanyan N=125 f=5 s=3");
    lc = rs__lcan_of(&net);
    assert_int_equal(lc->l, 3);
    assert_int_equal(lc->S[2], 9);
    assert_int_equal(net.shape_k, 5);
    assert_int_equal(net.shape_n, 3);
    rs_net_free(&net);
    rs_test_net(&net, "topology=lcan N=32 d=4 u=2 pi=tree"); /* Corollary 2: l = 4 */
    lc = rs__lcan_of(&net);
    assert_int_equal(lc->l, 4);
    assert_int_equal(lc->groups, 2);
    rs_net_free(&net);
    rs_test_net(&net, "topology=butterfly N=8");
    assert_null(rs__lcan_of(&net));
    rs_net_free(&net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked_example),     cmocka_unit_test(test_wiring_rule),
        cmocka_unit_test(test_lca_lemmas_theorem2), cmocka_unit_test(test_labels),
        cmocka_unit_test(test_route_example),      cmocka_unit_test(test_instances),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
