/* The pruned butterfly's arithmetic (000 §3.1) against the paper: Figure 1 (N = 16: vertex
 * set, the path from leaf 10 to root 2, channel capacities) and, for N = 4..4096, the edge
 * sets E_ij rebuilt literally from the even/odd rules against the header's unified form. */
#include "rs_test.h"

#include "routesim/pruned_butterfly.h"

/* Figure 1, N = 16: levels 0..4 of widths 4, 4, 2, 2, 1; 4 + 8 + 8 + 16 + 16 = 52 vertices;
 * channels of levels 1..4 carry 4, 4, 2, 2 wires (level 2: 4 edges, the printed formula 2). */
static void test_figure1_vertices_and_caps(void **state)
{
    (void)state;
    struct rs__pb pb;
    rs__pb_init(&pb, 4);
    static const uint32_t width[5] = {4, 4, 2, 2, 1}, cap[5] = {0, 4, 4, 2, 2};
    uint32_t count = 0;
    for (uint32_t i = 0; i <= 4; i++) {
        assert_int_equal(rs__pb_width(4, i), width[i]);
        assert_int_equal(pb.ft.cap[i], cap[i]);
        assert_int_equal(pb.first[i], count);
        for (uint32_t j = 0; j < (1u << i); j++)
            for (uint32_t k = 0; k < width[i]; k++) {
                uint32_t v = rs__pb_vertex(&pb, i, j, k), a, b, c;
                assert_int_equal(v, count);
                rs__pb_decode(&pb, v, &a, &b, &c);
                assert_true(a == i && b == j && c == k);
                count++;
            }
    }
    assert_int_equal(count, 52);
    assert_int_equal(pb.first[5], 52);
    assert_int_equal(rs__pb_leaf(&pb, 10), 36 + 10);
    assert_int_equal(rs__pb_root(&pb, 2), 2);
}

/* The figure marks <4,10,0> <3,5,0> <2,2,0> <1,1,2> <0,0,2> (leaf 10 = 1010, root 2 = 10),
 * and consecutive vertices of the path are joined by edges of the definition. */
static void test_figure1_path(void **state)
{
    (void)state;
    struct rs__pb pb;
    rs__pb_init(&pb, 4);
    static const uint32_t j[5] = {0, 1, 2, 5, 10}, k[5] = {2, 2, 0, 0, 0};
    for (uint32_t i = 0; i <= 4; i++)
        assert_int_equal(rs__pb_path_vertex(&pb, 10, 2, i), rs__pb_vertex(&pb, i, j[i], k[i]));
    /* up from leaf 10: even level 4 takes bit 0 of r (0), odd level 3 straight, even
     * level 2 takes bit 1 of r (1: k + W(2) = 2), odd level 1 straight */
    assert_int_equal(2u + 0, RS_PB_UP);
    uint32_t chan, wire;
    int up;
    assert_int_equal(rs__pb_channel_of(&pb, rs__pb_vertex(&pb, 2, 2, 0), RS_PB_UP + 1, &chan,
                                       &wire, &up), 0);
    assert_true(chan == rs__ft_node(2, 2) && wire == 2 && up == 1);
    assert_int_equal(rs__pb_channel_of(&pb, rs__pb_vertex(&pb, 3, 5, 0), RS_PB_UP + 1, &chan,
                                       &wire, &up), -1); /* odd level: one up edge */
    assert_int_equal(rs__pb_channel_of(&pb, rs__pb_leaf(&pb, 10), RS_PB_DOWN, &chan, &wire,
                                       &up), -1);
    assert_int_equal(rs__pb_channel_of(&pb, rs__pb_root(&pb, 2), RS_PB_UP, &chan, &wire, &up),
                     -1);
}

/* E_ij literally as printed for even i (k < sqrt(N) 2^floor(-i/2)) and, for odd i, over
 * every vertex of the node (k < W(i)): each edge once, the set equal to the unified form
 * { <i, j, e mod W(i)> -- <i-1, j/2, e> : e < W(i-1) }, and every path formula vertex
 * joined to the next by one of them. */
static void test_edge_sets(void **state)
{
    (void)state;
    for (uint32_t n = 2; n <= 12; n += 2) {
        struct rs__pb pb;
        rs__pb_init(&pb, n);
        uint32_t sq = 1u << (n / 2);
        for (uint32_t i = 1; i <= n; i++) {
            uint32_t w = rs__pb_width(n, i), wp = rs__pb_width(n, i - 1);
            assert_int_equal(w, sq >> (i / 2)); /* sqrt(N) 2^-floor(i/2) */
            assert_int_equal(pb.ft.cap[i], sq >> ((i - 1) / 2));
            uint32_t edges = 0;
            for (uint32_t k = 0; k < w; k++) {
                if (i % 2 == 0) {
                    assert_int_equal(sq >> (i / 2), w); /* floor(-i/2) = -i/2 for even i */
                    assert_true(k + w < wp);
                    edges += 2;
                } else {
                    assert_int_equal(w, wp);
                    edges += 1;
                }
            }
            assert_int_equal(edges, pb.ft.cap[i]);
            assert_int_equal(edges, wp);
            /* the printed formula sqrt(N) 2^floor(-(i-1)/2) halves the even levels */
            uint32_t printed = (i - 1) % 2 ? sq >> (i / 2) : sq >> ((i - 1) / 2);
            assert_int_equal(printed * (i % 2 == 0 ? 2 : 1), edges);
        }
        for (uint32_t l = 0; l < (1u << n); l += 1 + (l % 7))
            for (uint32_t r = 0; r < sq; r++)
                for (uint32_t i = 1; i <= n; i++) {
                    uint32_t lo = rs__pb_path_vertex(&pb, l, r, i);
                    uint32_t hi = rs__pb_path_vertex(&pb, l, r, i - 1);
                    uint32_t a, j, k, a2, j2, k2;
                    rs__pb_decode(&pb, lo, &a, &j, &k);
                    rs__pb_decode(&pb, hi, &a2, &j2, &k2);
                    assert_true(a == i && a2 == i - 1 && j2 == j / 2);
                    /* an edge of E_ij: k2 = k, or k2 = k + W(i) at even i */
                    assert_true(k2 == k || (i % 2 == 0 && k2 == k + rs__pb_width(n, i)));
                    uint32_t chan, wire;
                    int up;
                    assert_int_equal(rs__pb_channel_of(&pb, lo, RS_PB_UP + (k2 != k), &chan,
                                                       &wire, &up), 0);
                    assert_true(chan == rs__ft_node(i, j) && wire == k2 && up);
                    assert_int_equal(rs__pb_channel_of(&pb, hi, RS_PB_DOWN + (j & 1), &chan,
                                                       &wire, &up), 0);
                    assert_true(chan == rs__ft_node(i, j) && wire == k2 && !up);
                }
    }
}

/* Peaks and crossings on N = 16: peak(0, 8) = 0 (root), peak(10, 11) = 3, peak(5, 5) = 4;
 * 10 -> 2 crosses channels (i, 10 >> (4-i)) and (i, 2 >> (4-i)) for i = 1..4. */
static void test_peak_and_crossing(void **state)
{
    (void)state;
    struct rs__ftree ft;
    rs__ftree_init_area_universal(&ft, 4);
    assert_int_equal(rs__ft_peak(&ft, 0, 8), 0);
    assert_int_equal(rs__ft_peak(&ft, 10, 11), 3);
    assert_int_equal(rs__ft_peak(&ft, 10, 8), 2);
    assert_int_equal(rs__ft_peak(&ft, 5, 5), 4);
    uint32_t crossed = 0;
    for (uint32_t id = 2; id < 32; id++)
        crossed += (uint32_t)rs__ft_crosses(&ft, rs__ft_level(id), rs__ft_index(id), 10, 2);
    assert_int_equal(crossed, 8);
    assert_int_equal(rs__ft_level(rs__ft_node(3, 5)), 3);
    assert_int_equal(rs__ft_index(rs__ft_node(3, 5)), 5);
    /* area-universal rule for odd n too: n = 3 gives 2^ceil(3/2), 2^1, 2^1 = 4, 2, 2 */
    rs__ftree_init_area_universal(&ft, 3);
    assert_true(ft.cap[1] == 4 && ft.cap[2] == 2 && ft.cap[3] == 2 && ft.cap[0] == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figure1_vertices_and_caps),
        cmocka_unit_test(test_figure1_path),
        cmocka_unit_test(test_edge_sets),
        cmocka_unit_test(test_peak_and_crossing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
