/* The flexible sorter of 000 §4.1 (src/algo/flexible_sort*.c): Columnsort's phases on a 4 x 2
 * array worked by hand, the recursion of Lemma 8 against an oracle of its virtual columns,
 * every 0-1 input of small shapes, real keys through rs_run, and the bit-step formula. */
#include <math.h>

#include "rs_test.h"

#include "routesim/flexsort.h"
#include "routesim/metrics.h"
#include "routesim/rng.h"

/* ---- traces ------------------------------------------------------------------------------ */

#define MAXEV 64
struct trace {
    int n_ev;
    enum rs_fsort_event ev[MAXEV];
    uint32_t phase[MAXEV];
    uint64_t keys[MAXEV][64];
};

static void record(void *ctx, enum rs_fsort_event ev, uint32_t phase,
                   const struct rs_fsort_word *a, uint32_t n)
{
    struct trace *t = ctx;
    assert_true(t->n_ev < MAXEV && n <= 64);
    t->ev[t->n_ev] = ev;
    t->phase[t->n_ev] = phase;
    for (uint32_t p = 0; p < n; p++)
        t->keys[t->n_ev][p] = a[p].key;
    t->n_ev++;
}

static void load(struct rs_fsort_word *a, const uint64_t *k, uint32_t n)
{
    for (uint32_t p = 0; p < n; p++) {
        a[p].key = k[p];
        a[p].id = p;
    }
}

static void expect_keys(const struct trace *t, int i, enum rs_fsort_event ev, uint32_t phase,
                        const uint64_t *want, uint32_t n)
{
    assert_int_equal(t->ev[i], ev);
    assert_int_equal(t->phase[i], phase);
    for (uint32_t p = 0; p < n; p++)
        assert_int_equal(t->keys[i][p], want[p]);
}

/* s = 4, w = 2 (Leighton: 4 >= 2 (2-1)^2), column-major arrays, by hand:
 * transpose p -> (p mod 2) 4 + p div 2, untranspose p -> (p mod 4) 2 + p div 4, shift
 * p -> (p + 2) mod 8 with column 0 (the wrap-around column) left out of the next sort. */
static void test_hand_worked(void **state)
{
    (void)state;
    struct rs_fsort_word a[8];
    struct rs_fsort_shape done;
    struct rs_err err;
    struct trace *t = calloc(1, sizeof *t);
    static const uint64_t in1[8] = {7, 3, 5, 1, 6, 0, 4, 2};
    static const uint64_t ev1[8][8] = {
        {1, 3, 5, 7, 0, 2, 4, 6}, /* phase 0: columns sorted */
        {1, 5, 0, 4, 3, 7, 2, 6}, /* transposed: rows (1,3) (5,7) (0,2) (4,6) */
        {0, 1, 4, 5, 2, 3, 6, 7}, /* phase 1 sorted */
        {0, 2, 1, 3, 4, 6, 5, 7}, /* untransposed: read rows (0,2) (1,3) (4,6) (5,7) */
        {0, 1, 2, 3, 4, 5, 6, 7}, /* phase 2 sorted */
        {6, 7, 0, 1, 2, 3, 4, 5}, /* shifted by 2 */
        {6, 7, 0, 1, 2, 3, 4, 5}, /* phase 3: column 1 sorted, column 0 left */
        {0, 1, 2, 3, 4, 5, 6, 7}, /* unshifted */
    };
    load(a, in1, 8);
    assert_int_equal(rs_fsort_columnsort(a, 4, 2, record, t, &done, &err), 0);
    assert_int_equal(t->n_ev, 8);
    for (int i = 0; i < 8; i++)
        expect_keys(t, i, i % 2 ? RS_FSORT_PERMUTED : RS_FSORT_SORTED, (uint32_t)i / 2, ev1[i], 8);
    assert_int_equal(done.phases, 4);
    assert_int_equal(done.perm_steps, 4);
    assert_int_equal(done.depth, 1);

    /* a 0-1 input the first three phases leave unsorted: phase 3 finishes it, and sorting
     * the wrap-around column [1,1,0,0] would have broken it */
    static const uint64_t in2[8] = {0, 0, 0, 1, 0, 1, 1, 1};
    static const uint64_t ev2[8][8] = {
        {0, 0, 0, 1, 0, 1, 1, 1}, {0, 0, 0, 1, 0, 1, 1, 1}, /* rows (0,0) (0,1) (0,1) (1,1) */
        {0, 0, 0, 1, 0, 1, 1, 1}, {0, 0, 0, 1, 0, 1, 1, 1},
        {0, 0, 0, 1, 0, 1, 1, 1}, {1, 1, 0, 0, 0, 1, 0, 1}, /* shifted */
        {1, 1, 0, 0, 0, 0, 1, 1}, {0, 0, 0, 0, 1, 1, 1, 1}, /* column 1 sorted; unshifted */
    };
    memset(t, 0, sizeof *t);
    load(a, in2, 8);
    assert_int_equal(rs_fsort_columnsort(a, 4, 2, record, t, NULL, &err), 0);
    assert_int_equal(t->n_ev, 8);
    for (int i = 0; i < 8; i++)
        expect_keys(t, i, i % 2 ? RS_FSORT_PERMUTED : RS_FSORT_SORTED, (uint32_t)i / 2, ev2[i], 8);
    free(t);
}

/* The virtual-column sizes and shapes of Lemma 8's recursion, by hand from Leighton's
 * condition S >= 2 (n/S - 1)^2 over powers of two. */
static void test_shapes(void **state)
{
    (void)state;
    struct rs_fsort_shape sh;
    struct rs_err err;
    assert_int_equal(rs_fsort_block(4, 8), 4);      /* 4 >= 2 */
    assert_int_equal(rs_fsort_block(4, 16), 8);     /* 4 < 18; 8 >= 2 */
    assert_int_equal(rs_fsort_block(16, 32), 16);   /* 16 >= 2 */
    assert_int_equal(rs_fsort_block(16, 64), 32);   /* 16 < 18; 32 >= 2 */
    assert_int_equal(rs_fsort_block(32, 128), 32);  /* 32 >= 18 */
    assert_int_equal(rs_fsort_block(16, 1024), 128); /* 64 < 450; 128 >= 98 */
    assert_int_equal(rs_fsort_block(512, 8192), 512); /* 512 >= 450 */
    static const uint32_t cases[][5] = {/* s, w, depth, phases, perm_steps */
                                        {4, 1, 0, 1, 0},   {4, 2, 1, 4, 4},
                                        {4, 4, 2, 16, 16}, {16, 2, 1, 4, 4},
                                        {16, 4, 2, 16, 16}, {16, 64, 3, 64, 64},
                                        {512, 16, 1, 4, 4}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(rs_fsort_shape(cases[i][0], cases[i][1], &sh, &err), 0);
        assert_int_equal(sh.depth, cases[i][2]);
        assert_int_equal(sh.phases, cases[i][3]);
        assert_int_equal(sh.perm_steps, cases[i][4]);
    }
    assert_int_equal(rs_fsort_shape(6, 2, &sh, &err), RS_EINVAL);
    assert_int_equal(rs_fsort_shape(2, 2, &sh, &err), RS_EINVAL);
    assert_int_equal(rs_fsort_shape(4, 3, &sh, &err), RS_EINVAL);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Columnsort on 8 rows x 2 columns where "sort a column" is the library's sort of 8 words. */
static void oracle_sort_cols(uint64_t *k, uint32_t rows, uint32_t n)
{
    for (uint32_t c = 0; c < n; c += rows)
        qsort(k + c, rows, sizeof *k, cmp_u64);
}

/* s = 4, w = 4: Leighton fails for s = 4 (4 < 2 * 3^2), so 16 words are a Columnsort of 2
 * virtual columns of 8, each sorted by a Columnsort of 2 real columns of 4: 16 phases, and
 * after phases 3, 7, 11 and 15 the array is exactly the outer Columnsort's after its step
 * 2, 4, 6 and 8 with the virtual columns sorted by an oracle. */
static void test_recursion_matches_oracle(void **state)
{
    (void)state;
    struct rs_fsort_word a[16];
    struct rs_fsort_shape done;
    struct rs_err err;
    struct trace *t = calloc(1, sizeof *t);
    uint64_t in[16], want[16], tmp[16];
    struct rs_rng g;
    rs_rng_init(&g, 7, RS_STREAM_TEST, 16, 0);
    for (int i = 0; i < 16; i++)
        in[i] = rs_rng_below(&g, 10);
    load(a, in, 16);
    assert_int_equal(rs_fsort_columnsort(a, 4, 4, record, t, &done, &err), 0);
    assert_int_equal(done.depth, 2);
    assert_int_equal(done.phases, 16);
    assert_int_equal(t->n_ev, 32);
    memcpy(want, in, sizeof want);
    for (int step = 0; step < 4; step++) {
        oracle_sort_cols(want, 8, 16);
        for (uint32_t p = 0; p < 16; p++) {
            uint32_t to = step == 0   ? (p % 2) * 8 + p / 2   /* transpose */
                          : step == 1 ? (p % 8) * 2 + p / 8   /* untranspose */
                          : step == 2 ? (p + 4) % 16          /* shift by 4 */
                                      : (p + 12) % 16;        /* unshift */
            tmp[to] = want[p];
        }
        if (step == 2) { /* the wrap-around virtual column is left out of step 7 */
            expect_keys(t, 23, RS_FSORT_PERMUTED, 11, tmp, 16);
            qsort(tmp + 8, 8, sizeof *tmp, cmp_u64);
            for (uint32_t p = 0; p < 16; p++)
                want[(p + 12) % 16] = tmp[p];
            expect_keys(t, 31, RS_FSORT_PERMUTED, 15, want, 16);
            break;
        }
        memcpy(want, tmp, sizeof want);
        expect_keys(t, 8 * step + 7, RS_FSORT_PERMUTED, 4 * (uint32_t)step + 3, want, 16);
    }
    for (int i = 1; i < 16; i++)
        assert_true(t->keys[31][i - 1] <= t->keys[31][i]);
    free(t);
}

/* The 0-1 principle: an oblivious sorter sorts everything iff it sorts every 0-1 input.
 * Every 0-1 input of s x w = 4 x 2, 4 x 4 (recursive) and 8 x 2. */
static void test_every_01_input(void **state)
{
    (void)state;
    static const uint32_t shapes[][2] = {{4, 2}, {4, 4}, {8, 2}};
    struct rs_fsort_word a[16];
    struct rs_err err;
    for (size_t k = 0; k < 3; k++) {
        uint32_t s = shapes[k][0], w = shapes[k][1], n = s * w;
        for (uint32_t bits = 0; bits < (1u << n); bits++) {
            uint32_t ones = 0;
            for (uint32_t p = 0; p < n; p++) {
                a[p].key = bits >> p & 1;
                a[p].id = p;
                ones += bits >> p & 1;
            }
            assert_int_equal(rs_fsort_columnsort(a, s, w, NULL, NULL, NULL, &err), 0);
            for (uint32_t p = 0; p < n; p++)
                if (a[p].key != (p >= n - ones))
                    fail_msg("s=%u w=%u input %#x: position %u", s, w, bits, p);
        }
    }
}

/* Real keys through rs_fsort_sort (which checks sorted + permutation itself): random keys
 * with many and with few duplicates for several (s, r), the recursive cases included. */
static void test_sort_real_keys(void **state)
{
    (void)state;
    static const uint32_t cases[][2] = {{16, 5}, {4, 4},    {4, 37},   {8, 64},   {16, 256},
                                        {16, 1000}, {64, 4096}, {32, 5000}, {256, 65536}};
    struct rs_err err;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t s = cases[i][0], r = cases[i][1];
        uint64_t *k = malloc(r * sizeof *k), *out = malloc(r * sizeof *out);
        for (int bits = 2; bits <= 32; bits += 30) {
            struct rs_rng g;
            struct rs_fsort_shape sh;
            rs_rng_init(&g, 3, RS_STREAM_TEST, r, (uint32_t)bits);
            for (uint32_t j = 0; j < r; j++)
                k[j] = rs_rng_u64(&g) & ((1ull << bits) - 1);
            assert_int_equal(rs_fsort_sort(k, r, s, out, &sh, &err), 0);
            qsort(k, r, sizeof *k, cmp_u64);
            assert_memory_equal(k, out, r * sizeof *k);
        }
        free(k);
        free(out);
    }
}

static int64_t int_of(const struct rs_record *r, const char *name)
{
    const struct rs_field *f = rs_record_get(r, name);
    assert_non_null(f);
    return f->i;
}

static double dbl_of(const struct rs_record *r, const char *name)
{
    const struct rs_field *f = rs_record_get(r, name);
    assert_non_null(f);
    return f->d;
}

static void run_ok(const char *kv, struct rs_record *rec)
{
    struct rs_params p;
    struct rs_err err;
    rs_test_params(&p, kv);
    rs_record_init(rec);
    if (rs_run(&p, rec, NULL, 0, &err))
        fail_msg("%s: %s", kv, err.msg);
    rs_params_free(&p);
}

/* The bit-step formula of docs/flexible-sorter.md, by hand:
 * b=8 s=4 r=8: w=2, 4 phases and 4 permuting steps, beta=4;
 * load = unload = 8*2 = 16, select = max(2*4*(2-1), 4*1*0) = 8,
 * sort = 4 * 2 * (2*8 + 4*2) = 192, permute = 4 * 2 * (2*8 + 2) = 144: 376.
 * With l=32 beta is the 64 permuting steps of w=8 (depth 3): select = 2*64 = 128: 496. */
static void test_bit_steps_formula(void **state)
{
    (void)state;
    struct rs_record rec;
    run_ok("algorithm=flexible_sort b=8 s=4 r=8", &rec);
    assert_int_equal(int_of(&rec, "bit_steps"), 376);
    assert_int_equal(int_of(&rec, "sort_bit_steps"), 192);
    assert_int_equal(int_of(&rec, "permute_bit_steps"), 144);
    assert_int_equal(int_of(&rec, "phases"), 4);
    assert_int_equal(int_of(&rec, "column_sorts"), 8);
    assert_int_equal(int_of(&rec, "columns"), 2);
    assert_true(dbl_of(&rec, "bound_bit_steps") == 20.0); /* (8 + 2) * 2 */
    assert_true(dbl_of(&rec, "bit_steps_over_bound") == 376.0 / 20.0);
    assert_true(fabs(dbl_of(&rec, "bound_phases") - pow(3.0, 2 / log2(1.5))) < 1e-9);
    rs_record_free(&rec);
    run_ok("algorithm=flexible_sort b=8 s=4 r=8 l=32", &rec);
    assert_int_equal(int_of(&rec, "bit_steps"), 496);
    rs_record_free(&rec);
    /* fewer words than s (the library, not the CLI, allows it): one column, one sort,
     * b + (2b + 4 log s) + b = 8 + (16 + 16) + 8 */
    struct rs_fsort_time ft;
    struct rs_err e2;
    assert_int_equal(rs_fsort_time(8, 16, 5, 16, &ft, &e2), 0);
    assert_int_equal(ft.total, 48);
    assert_int_equal(ft.permute + ft.select, 0);

    /* the same formula over every keys= and a range of shapes; time is oblivious: it does
     * not depend on the keys */
    static const char *kinds[] = {"random", "sorted", "reversed", "adversarial"};
    static const uint32_t shapes[][3] = {{16, 16, 1000}, {7, 64, 4096}, {32, 32, 32}};
    for (size_t i = 0; i < 3; i++) {
        uint32_t b = shapes[i][0], s = shapes[i][1], r = shapes[i][2];
        struct rs_fsort_shape sh;
        struct rs_err err;
        uint32_t w = 1, cols = (r + s - 1) / s, ls = 0, lw = 0;
        while (w < cols)
            w *= 2;
        for (uint32_t x = s; x > 1; x /= 2)
            ls++;
        for (uint32_t x = w; x > 1; x /= 2)
            lw++;
        assert_int_equal(rs_fsort_shape(s, w, &sh, &err), 0);
        uint64_t beta = sh.perm_steps, omega = 2 * beta * (w - 1),
                 cells = beta * lw * (lw ? lw - 1 : 0);
        uint64_t want = 2ull * b * cols + (omega > cells ? omega : cells) +
                        (uint64_t)sh.phases * w * (2 * b + 4 * ls) +
                        (uint64_t)sh.perm_steps * 2 * ((uint64_t)w * b + ls);
        for (int k = 0; k < 4; k++) {
            char kv[160];
            snprintf(kv, sizeof kv, "algorithm=flexible_sort b=%u s=%u r=%u keys=%s seed=%d",
                     b, s, r, kinds[k], k + 1);
            run_ok(kv, &rec);
            assert_int_equal(int_of(&rec, "bit_steps"), (int64_t)want);
            assert_int_equal(int_of(&rec, "phases"), sh.phases);
            rs_record_free(&rec);
        }
    }
}

static void expect_error(const char *kv, int code, const char *msg)
{
    struct rs_params p;
    struct rs_record rec;
    struct rs_err err;
    rs_test_params(&p, kv);
    rs_record_init(&rec);
    assert_int_equal(rs_run(&p, &rec, NULL, 0, &err), code);
    assert_string_equal(err.msg, msg);
    rs_record_free(&rec);
    assert_int_equal(rs_validate(&p, NULL, &err), code);
    assert_int_equal(rs_check(&p, &err), code);
    rs_params_free(&p);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("algorithm=flexible_sort s=12", RS_EINVAL,
                 "key 's': expected a power of two, got 12");
    expect_error("algorithm=flexible_sort s=16 r=8", RS_EINVAL,
                 "key 'r': expected r >= s=16 (Theorem 2 sorts s <= r <= l words), got 8");
    expect_error("algorithm=flexible_sort s=16 r=100 l=96", RS_EINVAL,
                 "key 'l': expected s=16 times a power of two, >= r=100 and <= 4194304, got 96");
    expect_error("algorithm=flexible_sort topology=mesh", RS_EUNKNOWN,
                 "command line: unknown key 'topology' (see `routesim list`) (algorithm="
                 "flexible_sort is a self-contained model: no topology, traffic or engine)");
    struct rs_params p;
    struct rs_record rec;
    struct rs_err err;
    rs_test_params(&p, "algorithm=flexible_sort");
    rs_record_init(&rec);
    assert_int_equal(rs_analyze(&p, &rec, &err), RS_EUNSUPPORTED);
    rs_record_free(&rec);
    rs_params_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_recursion_matches_oracle),
        cmocka_unit_test(test_every_01_input),
        cmocka_unit_test(test_sort_real_keys),
        cmocka_unit_test(test_bit_steps_formula),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
