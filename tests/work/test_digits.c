/* Tests of the digit-based traffics (identity, transpose, tornado, neighbor) on meshes,
 * rings and butterflies, with hand-checked examples, the permutation property and the
 * constraint errors. */
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



/* Build args and return dst[src] (q = 1). */
static uint32_t image(const char *args, uint32_t src)
{
    struct fx f;
    if (fx_build(&f, 1, args) != 0)
        fail_msg("%s: %s", args, f.err.msg);
    assert_true(src < f.pb.n_msgs);
    uint32_t d = f.pb.dst[src];
    fx_free(&f);
    return d;
}

static void expect_error(const char *args, int code, const char *msg)
{
    struct fx f;
    assert_int_equal(fx_build(&f, 1, args), code);
    assert_string_equal(f.err.msg, msg);
    assert_null(f.pb.dst);
    fx_free(&f);
}

/* Terminal s of a k x k mesh is (x0, x1) = (s mod k, s div k). Transpose on 4x4:
 * (1,2) = 1 + 2*4 = 9 -> (2,1) = 2 + 1*4 = 6; in general (x,y) -> (y,x). */
static void test_transpose_mesh(void **state)
{
    assert_int_equal(image("topology=mesh k=4 n=2 traffic=transpose", 9), 6);
    uint32_t want[16];
    for (uint32_t s = 0; s < 16; s++)
        want[s] = (s % 4) * 4 + s / 4;
    expect_map("topology=mesh k=4 n=2 traffic=transpose", want, 16);
}

/* Transpose on butterfly N=16 (4 bits, x3 x2 x1 x0) swaps the two halves: destination
 * digit i = source digit (i+2) mod 4, so 1 = 0001 -> 0100 = 4, 6 = 0110 -> 1001 = 9,
 * 13 = 1101 -> 0111 = 7. */
static void test_transpose_butterfly(void **state)
{
    uint32_t want[16];
    for (uint32_t s = 0; s < 16; s++)
        want[s] = ((s & 3u) << 2) | (s >> 2);
    assert_int_equal(want[1], 4);
    assert_int_equal(want[6], 9);
    assert_int_equal(want[13], 7);
    expect_map("topology=butterfly N=16 traffic=transpose", want, 16);
}

/* A 4-D 3-ary mesh (81 terminals): destination digit i = source digit (i+2) mod 4, so
 * (x0,x1,x2,x3) -> (x2,x3,x0,x1), e.g. 7 = 1 + 2*3 = (1,2,0,0) -> (0,0,1,2) = 1*9 + 2*27
 * = 63, and back. */
static void test_transpose_higher(void **state)
{
    assert_int_equal(image("topology=mesh k=3 n=4 traffic=transpose", 7), 63);
    assert_int_equal(image("topology=mesh k=3 n=4 traffic=transpose", 63), 7);
}

static void test_transpose_odd(void **state)
{
    expect_error("topology=butterfly N=8 traffic=transpose", RS_ECONSTRAINT,
                 "traffic=transpose needs an even number of address digits or of address bits "
                 "(got 3 digits of base 2, N=8)");
    expect_error("topology=ring k=8 traffic=transpose", RS_ECONSTRAINT,
                 "traffic=transpose needs an even number of address digits or of address bits "
                 "(got 1 digits of base 8, N=8)");
    expect_error("topology=mesh k=3 n=3 traffic=transpose", RS_ECONSTRAINT,
                 "traffic=transpose needs an even number of address digits or of address bits "
                 "(got 3 digits of base 3, N=27)");
}

/* An odd digit count with N = 2^b, b even: BookSim's bit transpose, the halves of the b
 * bits swapped. 4-ary 3-fly (N = 64, 6 bits): 1 = 000001 -> 001000 = 8, 5 = 000101 ->
 * 101000 = 40, 8 -> 1, 63 -> 63; a 4x4x4 mesh reads its 64 addresses the same way. */
static void test_transpose_bits(void **state)
{
    assert_int_equal(image("topology=kary_nfly k=4 n=3 traffic=transpose", 1), 8);
    assert_int_equal(image("topology=kary_nfly k=4 n=3 traffic=transpose", 5), 40);
    assert_int_equal(image("topology=kary_nfly k=4 n=3 traffic=transpose", 8), 1);
    assert_int_equal(image("topology=kary_nfly k=4 n=3 traffic=transpose", 63), 63);
    assert_int_equal(image("topology=mesh k=4 n=3 traffic=transpose", 1), 8);
    /* where digits and bits both apply they agree: 8x8 mesh (1,2) = 17 -> (2,1) = 10 */
    assert_int_equal(image("topology=mesh k=8 n=2 traffic=transpose", 17), 10);
}

/* Tornado on a ring k=8 adds ceil(8/2) - 1 = 3: x -> x+3 mod 8 (5 -> 0, 7 -> 2). */
static void test_tornado_ring(void **state)
{
    const uint32_t want[8] = {3, 4, 5, 6, 7, 0, 1, 2};
    expect_map("topology=ring k=8 traffic=tornado", want, 8);
    /* k = 5: ceil(5/2) - 1 = 2, so 4 -> 1 */
    const uint32_t five[5] = {2, 3, 4, 0, 1};
    expect_map("topology=ring k=5 traffic=tornado", five, 5);
}

/* Tornado on a 4x4 mesh adds ceil(4/2) - 1 = 1 to each coordinate:
 * (3,1) = 7 -> (0,2) = 8; (0,0) -> (1,1) = 5. */
static void test_tornado_mesh(void **state)
{
    assert_int_equal(image("topology=mesh k=4 n=2 traffic=tornado", 7), 8);
    assert_int_equal(image("topology=mesh k=4 n=2 traffic=tornado", 0), 5);
    assert_int_equal(image("topology=mesh k=4 n=2 traffic=tornado", 15), 0);
}

/* Neighbor on a 4x4 mesh adds 1 to each coordinate: (3,1) = 3 + 4 = 7 -> (0,2) = 8. */
static void test_neighbor(void **state)
{
    assert_int_equal(image("topology=mesh k=4 n=2 traffic=neighbor", 7), 8);
    const uint32_t ring[8] = {1, 2, 3, 4, 5, 6, 7, 0};
    expect_map("topology=ring k=8 traffic=neighbor", ring, 8);
    /* butterfly N=8: each bit flips (x -> x+1 mod 2), so d = s xor 7 */
    const uint32_t bfly[8] = {7, 6, 5, 4, 3, 2, 1, 0};
    expect_map("topology=butterfly N=8 traffic=neighbor", bfly, 8);
}

static void test_identity(void **state)
{
    const uint32_t want[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    expect_map("topology=ring k=12 traffic=identity", want, 12);
    expect_map("topology=butterfly N=8 traffic=identity", want, 8);
}

/* Every digit traffic is a permutation on each of these networks, and with q = 2 both
 * messages of a source go to the same place. */
static void test_permutation_property(void **state)
{
    const char *nets[] = {"topology=mesh k=4 n=2", "topology=mesh k=5 n=2",
                          "topology=mesh k=3 n=4", "topology=ring k=7",
                          "topology=ring k=8", "topology=butterfly N=16",
                          "topology=butterfly N=64"};
    const char *traffics[] = {"identity", "transpose", "tornado", "neighbor"};
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        for (size_t t = 0; t < 4; t++) {
            char args[256];
            snprintf(args, sizeof args, "%s traffic=%s per_input=2", nets[i], traffics[t]);
            struct fx f;
            int rc = fx_build(&f, 1, args);
            if (rc == RS_ECONSTRAINT && strcmp(traffics[t], "transpose") == 0) {
                fx_free(&f); /* odd digit count (ring) */
                continue;
            }
            if (rc != 0)
                fail_msg("%s: %s", args, f.err.msg);
            uint32_t n = f.pb.n_terminals;
            uint8_t *hit = calloc(n, 1);
            assert_non_null(hit);
            for (uint32_t s = 0; s < n; s++) {
                uint32_t d = f.pb.dst[2 * s];
                assert_int_equal(f.pb.dst[2 * s + 1], d);
                assert_true(d < n);
                assert_int_equal(hit[d], 0);
                hit[d] = 1;
            }
            free(hit);
            fx_free(&f);
        }
    }
}

/* A network whose shape does not describe its terminals is refused by the traffics
 * that need digits (identity does not need them). The net is made by hand: every
 * registered topology has a shape. */
static void test_no_shape(void **state)
{
    struct rs_net net;
    memset(&net, 0, sizeof net);
    net.n_terminals = 8;
    snprintf(net.name, sizeof net.name, "fake");
    struct rs_params p;
    rs_params_init(&p);
    uint32_t dst[8];
    struct rs_err err = {0};
    const char *names[] = {"transpose", "tornado", "neighbor"};
    for (int i = 0; i < 3; i++) {
        const struct rs_traffic_ops *ops = rs_traffic_find(names[i]);
        assert_non_null(ops);
        assert_int_equal(ops->generate(&net, &p, 1, 1, dst, &err), RS_EUNSUPPORTED);
        char want[256];
        snprintf(want, sizeof want,
                 "traffic=%s needs terminal addresses as digits, which topology 'fake' does "
                 "not give (shape k=0 n=0, N=8)",
                 names[i]);
        assert_string_equal(err.msg, want);
    }
    net.shape_k = 2;
    net.shape_n = 2; /* 2^2 = 4 != 8 */
    assert_int_equal(rs_traffic_find("tornado")->generate(&net, &p, 1, 1, dst, &err),
                     RS_EUNSUPPORTED);
    net.shape_n = 3;
    assert_int_equal(rs_traffic_find("tornado")->generate(&net, &p, 1, 1, dst, &err), 0);
    net.shape_k = 0;
    assert_int_equal(rs_traffic_find("identity")->generate(&net, &p, 1, 1, dst, &err), 0);
    for (uint32_t s = 0; s < 8; s++)
        assert_int_equal(dst[s], s);
    rs_params_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transpose_mesh),
        cmocka_unit_test(test_transpose_butterfly),
        cmocka_unit_test(test_transpose_higher),
        cmocka_unit_test(test_transpose_odd),
        cmocka_unit_test(test_transpose_bits),
        cmocka_unit_test(test_tornado_ring),
        cmocka_unit_test(test_tornado_mesh),
        cmocka_unit_test(test_neighbor),
        cmocka_unit_test(test_identity),
        cmocka_unit_test(test_permutation_property),
        cmocka_unit_test(test_no_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
