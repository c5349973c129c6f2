/* Static path analysis: congestion, dilation and per-level loads on worked examples. */
#include "rs_test.h"

/* Bit-reversal on a 2^10-input butterfly. A packet from a = a0..a9 to d = reverse(a)
 * (d_i = a_{9-i}) is at level l on row d0..d_{l-1} a_l..a_9. For l < 5 every bit of that
 * row is a bit a_j with j >= l, so the 2^l sources that agree on a_l..a_9 share the node,
 * and their next bit d_l = a_{9-l} is one of the shared bits too: all 2^l leave on one edge.
 * At l = 5 the node holds 2^5 packets and d_5 = a_4 is free: 16 take each edge. For l > 5
 * the node holds 2^(10-l) packets split evenly: 2^(9-l) per edge. So the per-level maxima
 * are 1 2 4 8 16 16 8 4 2 1, congestion 16 (= sqrt(N)/2), dilation 10. */
static void test_bitrev_1024(void **state)
{
    struct rs_record r;
    char msg[512];
    static const int want[10] = {1, 2, 4, 8, 16, 16, 8, 4, 2, 1};
    assert_int_equal(rs_test_try("topology=butterfly N=1024 traffic=bitrev", 0, &r, msg,
                                 sizeof msg),
                     0);
    assert_int_equal(rs_test_int(&r, "congestion"), 16);
    assert_int_equal(rs_test_int(&r, "dilation"), 10);
    assert_int_equal(rs_test_int(&r, "total_hops"), 10 * 1024);
    for (int l = 0; l < 10; l++) {
        char name[32];
        snprintf(name, sizeof name, "level%d_max", l);
        assert_int_equal(rs_test_int(&r, name), want[l]);
        snprintf(name, sizeof name, "level%d_msgs", l);
        assert_int_equal(rs_test_int(&r, name), 1024); /* every packet crosses every level */
    }
    rs_record_free(&r);
}

/* Identity: every packet goes straight through its own row: congestion 1. A 4x4 mesh
 * transpose (x,y) -> (y,x) under XY routing: the packets from row y = 0 to column x = 0
 * ... the longest path is from (3,0) to (0,3) or (0,3) to (3,0): 6 hops. */
static void test_identity_and_mesh(void **state)
{
    struct rs_record r;
    char msg[512];
    assert_int_equal(rs_test_try("topology=butterfly N=64 traffic=identity", 0, &r, msg,
                                 sizeof msg),
                     0);
    assert_int_equal(rs_test_int(&r, "congestion"), 1);
    assert_int_equal(rs_test_int(&r, "dilation"), 6);
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=mesh k=4 n=2 traffic=transpose", 0, &r, msg,
                                 sizeof msg),
                     0);
    assert_int_equal(rs_test_int(&r, "dilation"), 6);
    /* Hops: sum over (x,y) of 2|x-y| = 2 * (2*(3*1 + 2*2 + 1*3)) = 40 */
    assert_int_equal(rs_test_int(&r, "total_hops"), 40);
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bitrev_1024),
        cmocka_unit_test(test_identity_and_mesh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
