/* traffic=hotspot, diagonal, asymmetric and mix (src/work/pattern.c, pattern_ops.c): the
 * destinations each rule allows, their proportions within 5 standard deviations, the same
 * set for the same seed, the per-packet draw of open loop, and every refused key value. */
#include <math.h>
#include <string.h>

#include "fixture.h"
#include "routesim/openloop.h"

/* Build args with per_input q on a 4x4 mesh (N = 16), seed; fails the test on an error. */
static void build(struct fx *f, uint64_t seed, const char *args)
{
    char buf[512];
    snprintf(buf, sizeof buf, "topology=mesh k=4 n=2 %s", args);
    if (fx_build(f, seed, buf) != 0)
        fail_msg("%s: %s", buf, f->err.msg);
}

/* |x - n p| within 5 sd of Binomial(n, p). */
static void near_binomial(uint64_t x, uint64_t n, double p)
{
    double sd = sqrt((double)n * p * (1 - p));
    if (fabs((double)x - (double)n * p) > 5 * sd)
        fail_msg("%llu of %llu, expected %.1f +- %.1f", (unsigned long long)x,
                 (unsigned long long)n, (double)n * p, 5 * sd);
}

/* diagonal (BookSim): s -> s+1 mod N with probability 1/3, else s; asymmetric: s mod 8 or
 * s mod 8 + 8 with probability 1/2 each. 16 x 3000 messages. */
static void test_diagonal_asymmetric(void **state)
{
    struct fx f;
    uint64_t next = 0, upper = 0;
    build(&f, 3, "traffic=diagonal per_input=3000");
    for (uint64_t m = 0; m < f.pb.n_msgs; m++) {
        uint32_t s = (uint32_t)(m / 3000), d = f.pb.dst[m];
        assert_true(d == s || d == (s + 1) % 16);
        next += d != s;
    }
    near_binomial(next, 48000, 1.0 / 3);
    fx_free(&f);
    build(&f, 3, "traffic=asymmetric per_input=3000");
    for (uint64_t m = 0; m < f.pb.n_msgs; m++) {
        uint32_t s = (uint32_t)(m / 3000), d = f.pb.dst[m];
        assert_int_equal(d % 8, s % 8);
        upper += d >= 8;
    }
    near_binomial(upper, 48000, 0.5);
    fx_free(&f);
}

/* hotspot: only hot terminals, by their rates (3:1 -> 3/4 to terminal 3); with
 * hotspot_fraction=0.5 and one hot terminal 0, terminal 0 receives 1/2 + 1/2 x 1/16; one
 * hot terminal and no rates sends everything there; the same seed gives the same set and
 * another seed another. */
static void test_hotspot(void **state)
{
    struct fx f, g;
    uint64_t three = 0, zero = 0;
    build(&f, 5, "traffic=hotspot hotspot_nodes=3,5 hotspot_rates=3,1 per_input=1000");
    for (uint64_t m = 0; m < f.pb.n_msgs; m++) {
        assert_true(f.pb.dst[m] == 3 || f.pb.dst[m] == 5);
        three += f.pb.dst[m] == 3;
    }
    near_binomial(three, 16000, 0.75);
    build(&g, 5, "traffic=hotspot hotspot_nodes=3,5 hotspot_rates=3,1 per_input=1000");
    assert_memory_equal(f.pb.dst, g.pb.dst, 16000 * sizeof *f.pb.dst);
    fx_free(&g);
    build(&g, 6, "traffic=hotspot hotspot_nodes=3,5 hotspot_rates=3,1 per_input=1000");
    assert_true(memcmp(f.pb.dst, g.pb.dst, 16000 * sizeof *f.pb.dst) != 0);
    fx_free(&g);
    fx_free(&f);
    build(&f, 5, "traffic=hotspot hotspot_fraction=0.5 per_input=1000");
    for (uint64_t m = 0; m < f.pb.n_msgs; m++)
        zero += f.pb.dst[m] == 0;
    near_binomial(zero, 16000, 0.5 + 0.5 / 16);
    fx_free(&f);
    build(&f, 5, "traffic=hotspot hotspot_nodes=9");
    for (uint64_t m = 0; m < f.pb.n_msgs; m++)
        assert_int_equal(f.pb.dst[m], 9);
    fx_free(&f);
}

/* mix=identity@1,neighbor@3: every message goes to s (identity) or to neighbor(s) (every
 * digit + 1 mod 4, never s), identity with probability 1/4; a permutation part keeps its
 * fixed destination per source. */
static void test_mix(void **state)
{
    struct fx f;
    uint64_t self = 0;
    build(&f, 8, "traffic=mix mix=identity@1,neighbor@3 per_input=1000");
    for (uint64_t m = 0; m < f.pb.n_msgs; m++) {
        uint32_t s = (uint32_t)(m / 1000), d = f.pb.dst[m];
        uint32_t nb = (s % 4 + 1) % 4 + 4 * ((s / 4 + 1) % 4);
        assert_true(d == s || d == nb);
        self += d == s;
    }
    near_binomial(self, 16000, 0.25);
    fx_free(&f);
}

/* Open loop draws a destination per packet: mix=uniform@1,hotspot@1 with hot terminal 7
 * sends 1/2 + 1/2 x 1/16 of 32000 packets to 7; diagonal's packets of terminal 4 go to 4 or
 * 5, a third to 5. */
static void test_openloop_per_packet(void **state)
{
    struct fx f;
    struct rs_openloop_cfg cfg;
    struct rs_openloop ol;
    struct rs_ol_packet pk;
    uint64_t seven = 0, five = 0;
    build(&f, 7, "traffic=mix mix=uniform@1,hotspot@1 hotspot_nodes=7 "
                 "injection_process=bernoulli");
    assert_int_equal(rs_openloop_config(&cfg, &f.p, 1, &f.err), 0);
    assert_int_equal(rs_openloop_init(&ol, &cfg, &f.net, &f.pb, &f.p, RS_ROUTING_DIRECT, 7,
                                      &f.err), 0);
    assert_int_equal(ol.pat.n_parts, 2);
    for (uint32_t t = 0; t < 16; t++)
        for (uint32_t s = 1; s <= 2000; s++) {
            ol.term[t].front = s;
            ol.term[t].pending = 1;
            rs_openloop_front(&ol, t, &pk);
            seven += pk.dst == 7;
        }
    near_binomial(seven, 32000, 0.5 + 0.5 / 16);
    rs_openloop_free(&ol);
    fx_free(&f);
    build(&f, 7, "traffic=diagonal injection_process=bernoulli");
    assert_int_equal(rs_openloop_config(&cfg, &f.p, 1, &f.err), 0);
    assert_int_equal(rs_openloop_init(&ol, &cfg, &f.net, &f.pb, &f.p, RS_ROUTING_DIRECT, 7,
                                      &f.err), 0);
    for (uint32_t s = 1; s <= 30000; s++) {
        ol.term[4].front = s;
        ol.term[4].pending = 1;
        rs_openloop_front(&ol, 4, &pk);
        assert_true(pk.dst == 4 || pk.dst == 5);
        five += pk.dst == 5;
    }
    near_binomial(five, 30000, 1.0 / 3);
    rs_openloop_free(&ol);
    fx_free(&f);
}

/* Every refused value, with its code and the key in the message. */
static void test_refused(void **state)
{
    static const struct {
        const char *args;
        int code;
        const char *word;
    } bad[] = {
        {"traffic=mix", RS_EPARSE, "mix="},
        {"traffic=mix mix=uniform", RS_EPARSE, "NAME@WEIGHT"},
        {"traffic=mix mix=foo@1", RS_EPARSE, "unknown traffic 'foo'"},
        {"traffic=mix mix=uniform@0", RS_ECONSTRAINT, "positive"},
        {"traffic=mix mix=uniform@1x", RS_ECONSTRAINT, "positive"},
        {"traffic=mix mix=mix@1", RS_EUNSUPPORTED, "cannot be a part"},
        {"traffic=mix mix=paths@1", RS_EUNSUPPORTED, "cannot be a part"},
        {"traffic=mix mix=uniform@1,", RS_EPARSE, "part 2"},
        {"traffic=mix mix=uniform@1,group_shift@1", RS_EUNSUPPORTED, "group_shift"},
        {"traffic=hotspot hotspot_nodes=16", RS_ECONSTRAINT, "hotspot_nodes"},
        {"traffic=hotspot hotspot_nodes=1,x", RS_EPARSE, "hotspot_nodes"},
        {"traffic=hotspot hotspot_nodes=1,2 hotspot_rates=1,2,3", RS_ECONSTRAINT,
         "hotspot_rates"},
        {"traffic=hotspot hotspot_rates=0", RS_ECONSTRAINT, "hotspot_rates"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct fx f;
        char buf[512];
        snprintf(buf, sizeof buf, "topology=mesh k=4 n=2 %s", bad[i].args);
        int rc = fx_build(&f, 1, buf);
        if (rc != bad[i].code || !strstr(f.err.msg, bad[i].word))
            fail_msg("%s: code %d '%s'", buf, rc, f.err.msg);
        fx_free(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diagonal_asymmetric),
        cmocka_unit_test(test_hotspot),
        cmocka_unit_test(test_mix),
        cmocka_unit_test(test_openloop_per_packet),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
