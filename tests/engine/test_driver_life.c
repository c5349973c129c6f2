/* The driver's loop for the algorithms' own step simulations (rs__driver_run_life): a fake
 * countdown simulation (its typed argument, the check after set-up and every step, the stop
 * at remaining 0, out NULL), the stall rule (deadlock recorded, defect refused with the
 * description), progress; the hard permutation's adversary on it (makespan = the
 * store-and-forward engine's on the permutation it built); and the one latency path,
 * rs_result_latency and rs_lat_summary_sparse, against values worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "routesim/driver.h"
#include "routesim/hard_perm.h"
#include "routesim/metrics.h"
#include "rs_test.h"

/* The fake's typed argument: items to count down, the step at which it stops moving (0:
 * never), and what it saw. */
struct sim_args {
    uint32_t items, stall_at;
    uint32_t checks, steps_seen, collected_deadlock;
};

struct sim {
    struct sim_args *a; /* the test's (extra is const: the test owns the block) */
    uint32_t left, step;
};

static int sim_init(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct sim *s = st;
    (void)err;
    s->a = (struct sim_args *)(uintptr_t)d->extra;
    s->left = s->a->items;
    d->remaining = s->left;
    return 0;
}

static int sim_step(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct sim *s = st;
    (void)err;
    s->step++;
    s->a->steps_seen++;
    int moves = !(s->a->stall_at && s->step >= s->a->stall_at);
    if (moves)
        s->left--;
    d->step = s->step;
    d->moved = (uint64_t)moves;
    d->live = s->left;
    d->remaining = s->left;
    return 0;
}

static int sim_check(void *st, struct rs_err *err)
{
    struct sim *s = st;
    (void)err;
    s->a->checks++;
    return 0;
}

static void sim_describe(void *st, char *buf, size_t n)
{
    const struct sim *s = st;
    snprintf(buf, n, "%u items stuck at step %u", s->left, s->step);
}

static int sim_collect(void *st, struct rs_driver *d, struct rs_result *res, int deadlock)
{
    struct sim *s = st;
    (void)d;
    s->a->collected_deadlock = (uint32_t)deadlock;
    res->steps = s->step;
    res->deadlock = deadlock;
    return 0;
}

static void sim_free(void *st)
{
    (void)st;
}

static const enum rs_metric sim_columns[] = {RS_M_STEPS, RS_M_DEADLOCK};

static struct rs_engine_life sim_life(enum rs_stall stall)
{
    struct rs_engine_life l = {.size = sizeof(struct sim), .init = sim_init, .step = sim_step,
                               .check = sim_check, .stall = stall,
                               .describe_deadlock = sim_describe, .collect = sim_collect,
                               .columns = sim_columns, .n_columns = 2, .free = sim_free};
    return l;
}

static void test_countdown(void **state)
{
    (void)state;
    struct sim_args a = {.items = 5};
    struct rs_engine_life life = sim_life(RS_STALL_DEFECT);
    struct rs_engine_input in = {.check = 1};
    struct rs_result res;
    struct rs_err err = {0};
    in.result = &res;
    assert_int_equal(rs__driver_run_life("fake", &life, &in, &a, NULL, NULL, 0, &err), 0);
    assert_int_equal(a.steps_seen, 5);
    assert_int_equal(a.checks, 6); /* after set-up and after each of the 5 steps */
    assert_int_equal(res.steps, 5);
    assert_int_equal(res.deadlock, 0);
    /* no check asked: the checker never runs (no network: no auto-check either) */
    struct sim_args b = {.items = 3};
    in.check = 0;
    assert_int_equal(rs__driver_run_life("fake", &life, &in, &b, NULL, NULL, 0, &err), 0);
    assert_int_equal(b.steps_seen, 3);
    assert_int_equal(b.checks, 0);
}

static void test_record(void **state)
{
    (void)state;
    struct sim_args a = {.items = 2};
    struct rs_engine_life life = sim_life(RS_STALL_DEFECT);
    struct rs_engine_input in = {0};
    struct rs_record out;
    struct rs_err err = {0};
    rs_record_init(&out);
    assert_int_equal(rs__driver_run_life("fake", &life, &in, &a, &out, NULL, 0, &err), 0);
    assert_int_equal(rs_test_int(&out, "steps"), 2);
    assert_int_equal(rs_test_int(&out, "deadlock"), 0);
    rs_record_free(&out);
}

static void test_stall_deadlock(void **state)
{
    (void)state;
    struct sim_args a = {.items = 5, .stall_at = 3};
    struct rs_engine_life life = sim_life(RS_STALL_DEADLOCK);
    struct rs_engine_input in = {0};
    struct rs_result res;
    struct rs_err err = {0};
    char msg[128];
    in.result = &res;
    assert_int_equal(rs__driver_run_life("fake", &life, &in, &a, NULL, msg, sizeof msg, &err),
                     0);
    assert_int_equal(a.steps_seen, 3); /* step 3 moved nothing: stopped there */
    assert_int_equal(a.collected_deadlock, 1);
    assert_int_equal(res.deadlock, 1);
    assert_string_equal(msg, "3 items stuck at step 3");
}

static void test_stall_defect(void **state)
{
    (void)state;
    struct sim_args a = {.items = 5, .stall_at = 2};
    struct rs_engine_life life = sim_life(RS_STALL_DEFECT);
    struct rs_engine_input in = {0};
    struct rs_err err = {0};
    assert_int_equal(rs__driver_run_life("algorithm=fake", &life, &in, &a, NULL, NULL, 0, &err),
                     RS_EINVARIANT);
    assert_string_equal(err.msg, "algorithm=fake made no progress at step 2 (it cannot "
                                 "deadlock: this is a defect): 4 items stuck at step 2");
    assert_int_equal(a.collected_deadlock, 0); /* an error: nothing collected */
}

static int stop_at_10(void *user, uint32_t step, uint64_t remaining)
{
    (void)remaining;
    *(uint32_t *)user = step;
    return step >= 10;
}

/* RS_STALL_OWN: the driver leaves stalls to the simulation, which here never ends on its
 * own; the progress callback stops it. */
static void test_stall_own(void **state)
{
    (void)state;
    struct sim_args a = {.items = 5, .stall_at = 2};
    struct rs_engine_life life = sim_life(RS_STALL_OWN);
    uint32_t last = 0;
    struct rs_engine_input in = {.progress = stop_at_10, .progress_user = &last,
                                 .progress_every = 1};
    struct rs_err err = {0};
    assert_int_equal(rs__driver_run_life("fake", &life, &in, &a, NULL, NULL, 0, &err),
                     RS_EINTERRUPTED);
    assert_int_equal(last, 10);
    assert_int_equal(a.steps_seen, 10);
}

/* The adversary on the driver: the permutation it builds, routed by the store-and-forward
 * engine with the same protocol, takes the makespan the adversary's simulation reported
 * (rs_hard_build's contract), and is a permutation. */
static void test_hard_adversary(void **state)
{
    (void)state;
    struct rs_hard_params hp;
    struct rs_err err = {0};
    assert_int_equal(rs_hard_choose(8, 1, &hp, &err), 0);
    uint32_t N = 1u << hp.n, *dst = malloc(N * sizeof *dst), makespan = 0;
    uint8_t *seen = calloc(N, 1);
    assert_non_null(dst);
    assert_non_null(seen);
    assert_int_equal(rs_hard_build(&hp, RS_HARD_FIFO, dst, &makespan, &err), 0);
    for (uint32_t t = 0; t < N; t++) {
        assert_true(dst[t] < N);
        assert_int_equal(seen[dst[t]]++, 0);
    }
    struct rs_record r;
    char kv[256];
    snprintf(kv, sizeof kv,
             "topology=butterfly N=%u traffic=hard_permutation switching=store_forward "
             "queue_at=switch queue_threshold=%u protocol=fifo",
             N, hp.q);
    rs_test_run(kv, &r);
    assert_int_equal(rs_test_int(&r, "makespan"), makespan);
    rs_record_free(&r);
    free(dst);
    free(seen);
}

static void test_result_latency(void **state)
{
    (void)state;
    struct rs_result r;
    struct rs_err err = {0};
    (void)err;
    /* finish 0 = not delivered: latencies 3, 5, 5, 9 -> mean 5.5, p99 9, max 9 */
    uint32_t fin[] = {3, 0, 5, 5, 9, 0};
    struct rs_lat_source a = {.n = 6, .finish = fin, .none = 0};
    rs_result_init(&r);
    assert_int_equal(rs_result_latency(&r, &a), 0);
    assert_true(r.latency_mean == 5.5 && r.latency_p99 == 9 && r.latency_max == 9);
    /* release steps and a state array: delivered are 0, 2, 3 -> 3-1, 5-2, 5-0 = 2, 3, 5 */
    uint32_t rel[] = {1, 0, 2, 0, 0, 0};
    uint8_t stv[] = {7, 1, 7, 7, 1, 1};
    struct rs_lat_source b = {.n = 6, .finish = fin, .release = rel, .state = stv,
                              .delivered = 7};
    assert_int_equal(rs_result_latency(&r, &b), 0);
    assert_true(r.latency_mean == 10.0 / 3 && r.latency_p99 == 5 && r.latency_max == 5);
    /* 64-bit finish times, every message counts; nearest rank: 100 values 1..100 -> p99 99 */
    uint64_t f64[100];
    for (int i = 0; i < 100; i++)
        f64[i] = (uint64_t)i + 1;
    struct rs_lat_source c = {.n = 100, .finish64 = f64, .none = RS_LAT_EVERY};
    assert_int_equal(rs_result_latency(&r, &c), 0);
    assert_true(r.latency_mean == 50.5 && r.latency_p99 == 99 && r.latency_max == 100);
    /* nothing delivered: NaN; a latency of 2^32 or more: refused, r unchanged */
    struct rs_lat_source d = {.n = 2, .finish = fin + 5, .none = 0};
    d.n = 1;
    assert_int_equal(rs_result_latency(&r, &d), 0);
    assert_true(isnan(r.latency_mean) && isnan(r.latency_p99) && isnan(r.latency_max));
    uint64_t big = (uint64_t)1 << 32;
    struct rs_lat_source e = {.n = 1, .finish64 = &big, .none = RS_LAT_EVERY};
    assert_int_equal(rs_result_latency(&r, &e), RS_ERESOURCE);
    assert_true(isnan(r.latency_mean));
    /* the sparse form: the same statistics as the dense one on the same values */
    uint64_t val[] = {0, 4, 1000000}, cnt[] = {2, 97, 1};
    rs_lat_summary_sparse(val, cnt, 3, &r);
    assert_true(r.latency_mean == (4.0 * 97 + 1000000) / 100 && r.latency_p99 == 4 &&
                r.latency_max == 1000000);
    uint64_t cnt2[] = {2, 97, 2};
    rs_lat_summary_sparse(val, cnt2, 3, &r);
    assert_true(r.latency_p99 == 1000000); /* rank ceil(0.99 * 101) = 100 > 99 */
    rs_lat_summary_sparse(NULL, NULL, 0, &r);
    assert_true(isnan(r.latency_mean) && isnan(r.latency_p99) && isnan(r.latency_max));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_countdown),      cmocka_unit_test(test_record),
        cmocka_unit_test(test_stall_deadlock), cmocka_unit_test(test_stall_defect),
        cmocka_unit_test(test_stall_own),      cmocka_unit_test(test_hard_adversary),
        cmocka_unit_test(test_result_latency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
