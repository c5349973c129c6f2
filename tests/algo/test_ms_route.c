/* algorithm=ms_mesh / ms_torus (003 §3-§4) end to end on small meshes and tori: every
 * colouring and split, every packet delivered with ms_line's per-step checker on (snakes
 * unbroken, one flit per channel, no overtaking), the step accounting, Lemma 3, the exact
 * colourings' (u, v, w, x), Lemma 4's queue bound, Lemma 7's schedule, determinism and the
 * refused configurations. */
#include "rs_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BASE "traffic=randperm switching=cut_through_partial check=1 "

/* The checks every run must pass; returns the record (caller frees). */
static void run_checked(const char *kv, struct rs_record *r)
{
    rs_test_run(kv, r);
    int64_t n = rs_test_int(r, "k"), len = rs_test_int(r, "length");
    assert_int_equal(rs_test_int(r, "delivered"), n * n);
    assert_int_equal(rs_test_int(r, "messages"), n * n);
    int64_t s2 = rs_test_int(r, "steps_sort"), s3 = rs_test_int(r, "steps_phase3"),
            s4 = rs_test_int(r, "steps_phase4"), mk = rs_test_int(r, "makespan");
    int64_t snakes = 1;
    sscanf(rs_record_get(r, "snakes")->s, "%lld", (long long *)&snakes);
    /* one exchange step moves a sorted snake (k, or k/2 when split) one processor */
    assert_int_equal(s2, rs_test_int(r, "ms_sort_exchanges") * (len / (snakes == 1 ? 1 : 2)));
    /* step 4 starts when step 3 is over; its last tail is the makespan */
    if (s4 > 0)
        assert_int_equal(mk, s2 + s3 + s4);
    else
        assert_true(mk <= s2 + s3);
    /* Lemma 3: the sort adds at most f(n) to u and v */
    int64_t f = rs_test_int(r, "ms_f");
    assert_true(rs_test_int(r, "ms_u_sorted") <= rs_test_int(r, "ms_u") + f);
    assert_true(rs_test_int(r, "ms_v_sorted") <= rs_test_int(r, "ms_v") + f);
    /* Lemma 4 counts the snakes step 3 leaves at a processor; the queue measured also holds
     * the snake passing through (ms_line.h's QUEUE): at most one more. On 5 x 5 (f = 1,
     * Lemma 4 gives 1.8) seeds 2 and 3 measure 2: docs/papers/makedon-symvonis.md. */
    assert_true(rs_test_int(r, "ms_max_queue") <= rs_test_double(r, "bound_ms_lemma4") + 1.0);
    assert_int_equal(rs_test_int(r, "ms_max_queue"),
                     rs_test_int(r, "ms_queue_phase3") > rs_test_int(r, "ms_queue_phase4")
                         ? rs_test_int(r, "ms_queue_phase3")
                         : rs_test_int(r, "ms_queue_phase4"));
}

/* Every colouring and both f on meshes of sides 4, 5 (odd) and 8, three seeds. */
static void test_mesh_all_colourings(void **state)
{
    (void)state;
    static const char *const cols[] = {"A", "B", "C", "random"};
    static const int ns[] = {4, 5, 8};
    char kv[256];
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 3; i++)
            for (int s = 1; s <= 3; s++) {
                struct rs_record r;
                snprintf(kv, sizeof kv,
                         BASE "topology=mesh k=%d algorithm=ms_mesh colouring=%s length=%d "
                              "f=%s seed=%d",
                         ns[i], cols[c], 1 + s, s == 2 ? "sqrt" : "log", s);
                run_checked(kv, &r);
                int64_t n = ns[i];
                if (c == 0) { /* A: chessboard by source */
                    assert_int_equal(rs_test_int(&r, "ms_u"), (n + 1) / 2);
                    assert_int_equal(rs_test_int(&r, "ms_v"), (n + 1) / 2);
                }
                if (c == 1) { /* B: chessboard by destination */
                    assert_int_equal(rs_test_int(&r, "ms_w"), (n + 1) / 2);
                    assert_int_equal(rs_test_int(&r, "ms_x"), (n + 1) / 2);
                }
                if (c == 0 && n == 8) /* Corollary 1: side 4, whites per submesh a multiple */
                    assert_int_equal(rs_test_int(&r, "ms_u_sorted"), 4);
                rs_record_free(&r);
            }
}

/* Two snakes: the (n, n, n, n)-colouring of §3.3; k must be even. */
static void test_mesh_two_snakes(void **state)
{
    (void)state;
    struct rs_record r;
    run_checked(BASE "topology=mesh k=8 algorithm=ms_mesh snakes=2 length=4 seed=3", &r);
    assert_int_equal(rs_test_int(&r, "ms_u"), 8);
    assert_int_equal(rs_test_int(&r, "ms_v"), 8);
    assert_int_equal(rs_test_int(&r, "ms_w"), 8);
    assert_int_equal(rs_test_int(&r, "ms_x"), 8);
    assert_true(rs_test_double(&r, "bound_ms_main") == 32.0);
    rs_record_free(&r);
}

/* Torus: colouring A and random with Lemma 7's schedule (step 4 takes exactly (n/2)k
 * steps, no snake ever waits), four snakes. */
static void test_torus(void **state)
{
    (void)state;
    char kv[256];
    static const char *const cols[] = {"A", "random"};
    for (int c = 0; c < 2; c++)
        for (int n = 4; n <= 8; n += 4) {
            struct rs_record r;
            snprintf(kv, sizeof kv,
                     BASE "topology=torus k=%d algorithm=ms_torus colouring=%s length=3 seed=%d",
                     n, cols[c], n);
            run_checked(kv, &r);
            assert_int_equal(rs_test_int(&r, "steps_phase4"), n / 2 * 3);
            assert_int_equal(rs_test_int(&r, "ms_blocked_starts"), 0);
            assert_null(rs_record_get(&r, "bound_ms_thm4"));
            rs_record_free(&r);
        }
    struct rs_record r;
    /* farthest first in step 4 instead of Lemma 7: within (n/2)k here (5 of 8 steps) */
    run_checked(BASE "topology=torus k=8 algorithm=ms_torus ring_step4=farthest colouring=random "
                     "length=2 seed=4",
                &r);
    assert_true(rs_test_int(&r, "steps_phase4") <= 8);
    rs_record_free(&r);
    run_checked(BASE "topology=torus k=8 algorithm=ms_torus snakes=4 length=8 seed=2", &r);
    assert_true(rs_test_double(&r, "bound_ms_main") == 32.0);
    assert_true(rs_test_double(&r, "bound_ms_queue") == 4.0); /* f/2 packets of 4 snakes */
    rs_record_free(&r);
}

/* A hand-built hard instance for colouring A on the n x n mesh (n = 16): the white packet of
 * row r (the one in column (r+1) mod 2) goes to (n-1-r, 0), so all n whites share column 0
 * in reverse order (w = n); the first n-1 other black packets in node order go to row 0,
 * columns 1..n-1 (x = n-1); the rest in node order to the free nodes in node order. Step 4's
 * column 0 is a reversal. Measured within Theorem 4's expression and the queue bounds. */
static void test_hard_instance_A(void **state)
{
    (void)state;
    enum { M = 16 };
    uint32_t dst[M * M];
    uint8_t used[M * M] = {0};
    for (uint32_t s = 0; s < M * M; s++)
        dst[s] = UINT32_MAX;
    for (uint32_t r = 0; r < M; r++) {
        dst[r * M + (r + 1) % 2] = (M - 1 - r) * M;
        used[(M - 1 - r) * M] = 1;
    }
    for (uint32_t s = 0, c = 1; s < M * M && c < M; s++)
        if ((s / M + s % M) % 2 == 0 && dst[s] == UINT32_MAX) {
            dst[s] = c;
            used[c++] = 1;
        }
    for (uint32_t s = 0, d = 0; s < M * M; s++)
        if (dst[s] == UINT32_MAX) {
            while (used[d])
                d++;
            dst[s] = d;
            used[d] = 1;
        }
    char path[] = "/tmp/rs_ms_hard_XXXXXX", kv[256];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    for (uint32_t s = 0; s < M * M; s++)
        fprintf(f, "%u\n", dst[s]);
    fclose(f);
    snprintf(kv, sizeof kv,
             "topology=mesh k=16 traffic=file traffic_file=%s switching=cut_through_partial "
             "algorithm=ms_mesh colouring=A length=8 check=1",
             path);
    struct rs_record r;
    run_checked(kv, &r);
    unlink(path);
    assert_int_equal(rs_test_int(&r, "ms_u"), 8);
    assert_int_equal(rs_test_int(&r, "ms_v"), 8);
    assert_int_equal(rs_test_int(&r, "ms_w"), 16);
    assert_int_equal(rs_test_int(&r, "ms_x"), 15);
    assert_true(rs_test_double(&r, "ms_routing_over_thm4") <= 1.0);
    assert_true(rs_test_double(&r, "ms_queue_over_bound") <= 1.0);
    /* the reversal of 16 snakes of 8 flits in column 0: at least 8 of them cross the middle
     * channel one way, 64 flit steps */
    assert_true(rs_test_int(&r, "steps_phase4") >= 64);
    rs_record_free(&r);
}

/* Same keys, same bytes; the permutation is the seed's, whatever the algorithm. */
static void test_deterministic(void **state)
{
    (void)state;
    struct rs_buf a, b;
    const char *kv = BASE "topology=mesh k=8 algorithm=ms_mesh colouring=random seed=9";
    rs_test_csv(kv, &a);
    rs_test_csv(kv, &b);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    rs_buf_free(&a);
    rs_buf_free(&b);
}

/* The baseline sees the same permutation as ms_mesh under the same seed: the run's static
 * congestion and dilation of the message set (XY routes) agree, for every algorithm. */
static void test_same_instance(void **state)
{
    (void)state;
    struct rs_record a, b, c;
    rs_test_run("topology=mesh k=16 traffic=randperm seed=5 switching=cut_through_partial "
                "algorithm=ms_mesh colouring=B length=4",
                &a);
    rs_test_run("topology=mesh k=16 traffic=randperm seed=5 switching=cut_through_partial "
                "length=4",
                &b);
    rs_test_run("topology=mesh k=16 traffic=randperm seed=5 switching=store_forward "
                "protocol=furthest_first",
                &c);
    assert_int_equal(rs_test_int(&a, "congestion"), rs_test_int(&b, "congestion"));
    assert_int_equal(rs_test_int(&a, "dilation"), rs_test_int(&b, "dilation"));
    assert_int_equal(rs_test_int(&a, "congestion"), rs_test_int(&c, "congestion"));
    assert_int_equal(rs_test_int(&a, "dilation"), rs_test_int(&c, "dilation"));
    rs_record_free(&a);
    rs_record_free(&b);
    rs_record_free(&c);
}

static void refused(const char *kv, int code, const char *msg)
{
    struct rs_record r;
    char got[512];
    assert_int_equal(rs_test_try(kv, 1, &r, got, sizeof got), code);
    assert_string_equal(got, msg);
    rs_record_free(&r);
}

static void test_refused(void **state)
{
    (void)state;
    refused(BASE "topology=mesh k=4 algorithm=ms_mesh snakes=2 length=5", RS_ECONSTRAINT,
            "snakes=2 needs length divisible by 2 (got length=5): the snakes of a packet "
            "have equal length");
    refused(BASE "topology=torus k=4 algorithm=ms_torus snakes=4 length=6", RS_ECONSTRAINT,
            "snakes=4 needs length divisible by 4 (got length=6): the snakes of a packet "
            "have equal length");
    refused(BASE "topology=mesh k=4 algorithm=ms_mesh snakes=4 length=8", RS_EUNSUPPORTED,
            "algorithm=ms_mesh needs snakes=1 or 2 (003 §3.3 splits into two)");
    refused(BASE "topology=mesh k=4 algorithm=ms_mesh ring_step4=farthest", RS_EUNSUPPORTED,
            "ring_step4=farthest needs algorithm=ms_torus with snakes=1 (the mesh and four "
            "snakes always use farthest first)");
    refused(BASE "topology=torus k=4 algorithm=ms_torus colouring=B", RS_EUNSUPPORTED,
            "algorithm=ms_torus needs colouring=A|C|random (003 §4.2 uses A and the random "
            "colouring)");
    refused(BASE "topology=torus k=4 algorithm=ms_mesh", RS_EUNSUPPORTED,
            "algorithm=ms_mesh needs topology=mesh with n=2 (got torus)");
    refused("topology=mesh k=4 traffic=randperm switching=wormhole algorithm=ms_mesh",
            RS_EUNSUPPORTED, "algorithm=ms_mesh needs switching=cut_through_partial (got wormhole)");
    refused("topology=mesh k=4 traffic=identity switching=cut_through_partial algorithm=ms_mesh "
            "per_input=2",
            RS_ECONSTRAINT,
            "algorithm=ms_mesh needs a permutation: one message per node (got 32 messages on "
            "16 nodes)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mesh_all_colourings), cmocka_unit_test(test_mesh_two_snakes),
        cmocka_unit_test(test_torus),               cmocka_unit_test(test_hard_instance_A),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_same_instance),       cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
