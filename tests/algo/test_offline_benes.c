/* algorithm=offline on topology=benes (the looping algorithm, src/algo/benes_loop.c and
 * offline_benes.c) through the circuit engine, checker on: every permutation of N = 2, 4
 * and 8 and random permutations of N = 2^1 .. 2^16 route in one network cycle without a
 * conflict, and every message reaches its destination by the switch settings alone; a
 * hand-worked N = 8 example pins the settings under the documented tie rule; the settings
 * file; the refusals. */
#include <stdio.h>
#include <unistd.h>

#include "rs_test.h"

#include "algo/lcan_plan.h"
#include "routesim/algo.h"
#include "routesim/engine.h"
#include "routesim/problem.h"
#include "routesim/rng.h"

static int fx_run(struct rs_test_fixture *f, struct rs_record *rec, struct rs_err *err)
{
    struct rs_engine_input in = {.net = &f->net, .pb = &f->pb, .params = &f->p,
                                 .routing = RS_ROUTING_DIRECT, .seed = 1, .check = 1};
    rs_record_init(rec);
    rs_err_clear(err);
    return rs_algo_find("offline")->run(&in, rs_engine_find("circuit"), rec, NULL, 0, err);
}

/* The settings of the looping algorithm for the fixture's permutation (traffic=identity
 * rewritten: message s is sent by PE s), checked by following them from every source:
 * PE s must arrive at row dst[s] of the last level. Returns the crossed switches. */
static int64_t settings_reach(const struct rs_test_fixture *f, uint8_t *set)
{
    uint32_t n = f->net.log2n, N = f->net.N, *mid = malloc(N * sizeof *mid);
    struct rs_err err;
    assert_non_null(mid);
    if (rs__benes_loop(n, f->pb.dst, mid, &err) || rs__benes_settings(n, f->pb.dst, mid, set, &err))
        fail_msg("N=%u: %s", N, err.msg);
    int64_t crossed = 0;
    for (uint32_t s = 0; s < N; s++)
        if (rs__benes_follow(n, set, s) != f->pb.dst[s])
            fail_msg("N=%u: PE %u reaches %u, not %u", N, s, rs__benes_follow(n, set, s),
                     f->pb.dst[s]);
    for (size_t i = 0; i < (size_t)n * N; i++) {
        assert_true(set[i] <= 1);
        crossed += set[i];
    }
    free(mid);
    return crossed;
}

/* Through the engine: one cycle, every circuit locked (2n channels each, the PE links
 * included), no conflict, all delivered; and the settings reach every destination with the
 * crossed_switches the record reports. */
static void expect_one_cycle(struct rs_test_fixture *f, uint8_t *set)
{
    struct rs_record r;
    struct rs_err err;
    uint32_t N = f->net.N;
    if (fx_run(f, &r, &err))
        fail_msg("N=%u: %s", N, err.msg);
    if (rs_test_int(&r, "cycles") != 1 || rs_test_int(&r, "conflicts") != 0 ||
        rs_test_int(&r, "delivered") != (int64_t)N || rs_test_int(&r, "bound_cycles") != 1 ||
        rs_test_int(&r, "locks") != (int64_t)N * 2 * f->net.log2n)
        fail_msg("N=%u: cycles %lld conflicts %lld delivered %lld locks %lld", N,
                 (long long)rs_test_int(&r, "cycles"), (long long)rs_test_int(&r, "conflicts"),
                 (long long)rs_test_int(&r, "delivered"), (long long)rs_test_int(&r, "locks"));
    assert_int_equal(rs_test_int(&r, "crossed_switches"), settings_reach(f, set));
    rs_record_free(&r);
}

/* Every permutation of N = 2, 4, 8 (2 + 24 + 40320). */
static void test_every_permutation(void **state)
{
    for (uint32_t N = 2; N <= 8; N *= 2) {
        char kv[128];
        struct rs_test_fixture f;
        snprintf(kv, sizeof kv, "topology=benes N=%u traffic=identity switching=circuit", N);
        rs_test_fx_open(&f, kv, 1);
        uint8_t set[3 * 8];
        uint32_t count = 0;
        do {
            expect_one_cycle(&f, set);
            count++;
        } while (rs_test_next_perm(f.pb.dst, N));
        assert_int_equal(count, N == 2 ? 2 : N == 4 ? 24 : 40320);
        rs_test_fx_close(&f);
    }
}

/* Random permutations (RS_STREAM_TEST, seed 3) of N = 2^1 .. 2^16: 20 of each size up to
 * 2^10, 3 of each size above. */
static void test_random_permutations(void **state)
{
    for (uint32_t n = 1; n <= 16; n++) {
        char kv[128];
        struct rs_test_fixture f;
        uint32_t N = 1u << n;
        snprintf(kv, sizeof kv, "topology=benes N=%u traffic=identity switching=circuit", N);
        rs_test_fx_open(&f, kv, 1);
        uint8_t *set = malloc((size_t)n * N);
        assert_non_null(set);
        for (uint32_t r = 0; r < (n <= 10 ? 20u : 3u); r++) {
            rs_random_permutation(f.pb.dst, N, 3, RS_STREAM_TEST, r);
            expect_one_cycle(&f, set);
        }
        free(set);
        rs_test_fx_close(&f);
    }
}

/* The hand-worked example of docs/lcan-realization.md ("A worked example"): N = 8,
 * dst = 3 7 4 0 2 6 1 5. Depth 0: the loop from PE 0 (sub-network 0) gives 4 -> 1,
 * 5 -> 0, 1 -> 1; the loop from PE 2 gives 7 -> 1, 6 -> 0, 3 -> 1. Depth 1: the loop from
 * PE 0 gives 6 -> 1, 5 -> 0, 2 -> 1; from PE 1: 7 -> 1, 4 -> 0, 3 -> 1. Middle rows
 * 0 1 2 3 5 4 6 7; settings by stage (bits 0 1 2 2 1 0) as below, 9 crossed. */
static void test_worked_example(void **state)
{
    static const uint32_t dst[8] = {3, 7, 4, 0, 2, 6, 1, 5}, want_mid[8] = {0, 1, 2, 3,
                                                                             5, 4, 6, 7};
    static const char *const want[6] = {"0010", "0000", "0000", "0110", "1111", "1100"};
    struct rs_test_fixture f;
    char path[] = "/tmp/rs_benes_settings_XXXXXX", line[512];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char kv[160];
    snprintf(kv, sizeof kv, "topology=benes N=8 traffic=identity switching=circuit "
                            "save_settings=%s", path);
    rs_test_fx_open(&f, kv, 1);
    memcpy(f.pb.dst, dst, sizeof dst);
    uint32_t mid[8];
    struct rs_err err;
    assert_int_equal(rs__benes_loop(3, dst, mid, &err), 0);
    for (int s = 0; s < 8; s++)
        assert_int_equal(mid[s], want_mid[s]);
    uint8_t set[24];
    expect_one_cycle(&f, set);
    for (int l = 0; l < 6; l++)
        for (int i = 0; i < 4; i++)
            assert_int_equal(set[l * 4 + i], want[l][i] - '0');
    /* the file: two comment lines, then one line per stage */
    FILE *in = fopen(path, "r");
    assert_non_null(in);
    int l = 0;
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '#')
            continue;
        assert_true(l < 6);
        line[strcspn(line, "\n")] = '\0';
        assert_string_equal(line, want[l]);
        l++;
    }
    fclose(in);
    assert_int_equal(l, 6);
    unlink(path);
    rs_test_fx_close(&f);
}

static void test_refusals_and_record(void **state)
{
    rs_test_expect_error("topology=benes N=16 traffic=uniform switching=circuit algorithm=offline",
                 RS_ECONSTRAINT,
                 "algorithm=offline routes a permutation: PE 12 receives two messages (the "
                 "second is message 4 from PE 4)");
    rs_test_expect_error("topology=benes N=16 traffic=randperm switching=circuit algorithm=offline "
                 "turn=top",
                 RS_EUNSUPPORTED,
                 "command line: key 'turn' has no effect with algorithm=offline: every circuit "
                 "of a Beneš network crosses the middle level");
    rs_test_expect_error("topology=benes N=16 traffic=randperm switching=circuit algorithm=offline "
                 "routing=valiant",
                 RS_EUNSUPPORTED,
                 "routing=valiant has no effect with algorithm=offline on topology=benes: the "
                 "plan fixes every circuit's middle row");
    rs_test_expect_error("topology=benes N=16 traffic=randperm switching=circuit algorithm=offline "
                 "save_settings=-",
                 RS_EINVAL,
                 "save_settings needs a file name (standard output carries the result), got "
                 "'-'");
    rs_test_expect_error("topology=lcan N=16 d=2 u=2 traffic=randperm switching=circuit "
                 "algorithm=offline save_settings=x.txt",
                 RS_EUNSUPPORTED,
                 "command line: key 'save_settings' has no effect with algorithm=offline: "
                 "switch settings are reported on topology=benes only");
    rs_test_expect_error("topology=butterfly N=16 traffic=randperm switching=circuit algorithm=offline",
                 RS_EUNSUPPORTED,
                 "algorithm=offline needs topology=lcan|baseline|swbanyan|trac|cm5|benes (got "
                 "butterfly)");
    /* through rs_run: deterministic, one cycle */
    struct rs_record a, b;
    const char *kv = "topology=benes N=1024 traffic=randperm switching=circuit "
                     "algorithm=offline seed=5";
    rs_test_run(kv, &a);
    rs_test_run(kv, &b);
    assert_int_equal(a.n, b.n);
    for (size_t i = 0; i < a.n; i++)
        assert_string_equal(a.f[i].name, b.f[i].name);
    assert_int_equal(rs_test_int(&a, "crossed_switches"), rs_test_int(&b, "crossed_switches"));
    assert_int_equal(rs_test_int(&a, "cycles"), 1);
    assert_int_equal(rs_test_int(&a, "conflicts"), 0);
    assert_int_equal(rs_test_int(&a, "delivered"), 1024);
    rs_record_free(&a);
    rs_record_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_permutation),
        cmocka_unit_test(test_random_permutations),
        cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_refusals_and_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
