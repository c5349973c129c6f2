/* Experiment grids: list and range expansion, point order, per-point seeds. */
#include "rs_test.h"

#include "routesim/grid.h"

static void build(struct rs_grid *g, const char *kv)
{
    struct rs_params p;
    struct rs_err err;
    /* values with spaces cannot go through rs_test_params; use ';' as the separator */
    char buf[1024], *save = NULL;
    rs_params_init(&p);
    snprintf(buf, sizeof buf, "%s", kv);
    for (char *w = strtok_r(buf, ";", &save); w; w = strtok_r(NULL, ";", &save))
        assert_int_equal(rs_params_parse_arg(&p, w, &err), 0);
    int rc = rs_grid_build(g, &p, &err);
    if (rc) {
        print_error("%s: %s\n", kv, err.msg);
        fail();
    }
    rs_params_free(&p);
}

static int build_fails(const char *kv, char *msg, size_t n)
{
    struct rs_params p;
    struct rs_err err;
    struct rs_grid g;
    char buf[1024], *save = NULL;
    rs_params_init(&p);
    snprintf(buf, sizeof buf, "%s", kv);
    for (char *w = strtok_r(buf, ";", &save); w; w = strtok_r(NULL, ";", &save))
        rs_params_parse_arg(&p, w, &err);
    int rc = rs_grid_build(&g, &p, &err);
    if (!rc)
        rs_grid_free(&g);
    rs_test_copy(msg, n, err.msg);
    rs_params_free(&p);
    return rc;
}

static void assert_values(const struct rs_axis *a, const char *const *want, size_t n)
{
    assert_int_equal(a->n, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(a->values[i], want[i]);
}

static void test_expansions(void **state)
{
    struct rs_grid g;
    build(&g, "N=2^4..2^7;queue_size=1, 2 ,4;injection_rate=0.05:0.05:0.6;k=3..5;bpc=~0,2,1;"
              "runs=7;seed=9;plot.x=N");
    static const char *const n[] = {"16", "32", "64", "128"};
    static const char *const q[] = {"1", "2", "4"};
    static const char *const r[] = {"0.05", "0.1", "0.15", "0.2", "0.25", "0.3",
                                    "0.35", "0.4", "0.45", "0.5", "0.55", "0.6"};
    static const char *const k[] = {"3", "4", "5"};
    static const char *const b[] = {"~0,2,1"}; /* a text key is never split */
    assert_int_equal(g.n_axes, 5);
    assert_values(&g.axes[0], n, 4);
    assert_values(&g.axes[1], q, 3);
    assert_values(&g.axes[2], r, 12);
    assert_values(&g.axes[3], k, 3);
    assert_values(&g.axes[4], b, 1);
    assert_int_equal(g.n_points, 4 * 3 * 12 * 3);
    assert_int_equal(g.runs, 7);
    assert_int_equal(g.seed, 9);
    assert_non_null(rs_params_find(&g.extra, "plot.x"));
    rs_grid_free(&g);
}

/* The first key varies slowest: point index = ((i_N * 3) + i_q). */
static void test_point_order(void **state)
{
    struct rs_grid g;
    struct rs_params p;
    struct rs_err err;
    build(&g, "topology=butterfly;N=16,32;queue_size=1,2,4");
    assert_int_equal(g.n_points, 6);
    assert_int_equal(rs_grid_point(&g, 4, &p, &err), 0); /* N index 1, queue_size index 1 */
    assert_string_equal(rs_params_find(&p, "N")->value, "32");
    assert_string_equal(rs_params_find(&p, "queue_size")->value, "2");
    assert_string_equal(rs_params_find(&p, "topology")->value, "butterfly");
    rs_params_free(&p);
    rs_grid_free(&g);
}

/* Seeds depend on the experiment seed, the point's values and the replication only: the
 * same point in a smaller grid gets the same seeds. */
static void test_seeds(void **state)
{
    struct rs_grid big, small, other;
    build(&big, "N=16,32;queue_size=1,2;seed=5");
    build(&small, "N=32;queue_size=2;seed=5");
    build(&other, "N=32;queue_size=2;seed=6");
    assert_int_equal(rs_grid_seed(&big, 3, 0), rs_grid_seed(&small, 0, 0));
    assert_int_equal(rs_grid_seed(&big, 3, 4), rs_grid_seed(&small, 0, 4));
    assert_true(rs_grid_seed(&big, 3, 0) != rs_grid_seed(&big, 3, 1));
    assert_true(rs_grid_seed(&big, 2, 0) != rs_grid_seed(&big, 3, 0));
    assert_true(rs_grid_seed(&small, 0, 0) != rs_grid_seed(&other, 0, 0));
    assert_true(rs_grid_seed(&big, 0, 0) < (1ull << 53));
    rs_grid_free(&big);
    rs_grid_free(&small);
    rs_grid_free(&other);
}

/* Derived values: evaluated per point after the plain keys, whatever their order. */
static void test_derived(void **state)
{
    struct rs_grid g;
    struct rs_params p;
    struct rs_err err;
    build(&g, "per_input==log2(N);N=2^4..2^6;half==N/2+0.5");
    assert_int_equal(g.n_points, 3);
    assert_int_equal(rs_grid_point(&g, 2, &p, &err), 0);
    assert_string_equal(rs_params_find(&p, "N")->value, "64");
    assert_string_equal(rs_params_find(&p, "per_input")->value, "6");
    assert_string_equal(rs_params_find(&p, "half")->value, "32.5");
    rs_params_free(&p);
    rs_grid_free(&g);
    build(&g, "x==log2(M)");
    assert_int_equal(rs_grid_point(&g, 0, &p, &err), RS_EPARSE);
    assert_string_equal(err.msg,
                        "command line: key 'x': cannot evaluate '=log2(M)': unknown key 'M'");
    rs_grid_free(&g);
}

static void test_errors(void **state)
{
    char msg[512];
    assert_int_equal(build_fails("N=2^4..3^6", msg, sizeof msg), RS_EPARSE);
    assert_string_equal(msg, "command line: key 'N': expected a range a..b or B^i..B^j, got "
                             "'2^4..3^6'");
    assert_int_equal(build_fails("N=8..4", msg, sizeof msg), RS_ECONSTRAINT);
    assert_int_equal(build_fails("q=1,,2", msg, sizeof msg), RS_EPARSE);
    assert_string_equal(msg, "command line: key 'q': empty item in list '1,,2'");
    assert_int_equal(build_fails("r=0.1:0:1", msg, sizeof msg), RS_EPARSE);
    assert_int_equal(build_fails("r=1:0.1:0", msg, sizeof msg), RS_ECONSTRAINT);
    assert_int_equal(build_fails("runs=0", msg, sizeof msg), RS_ECONSTRAINT);
    assert_int_equal(build_fails("a=1..1000;b=1..1000;c=1..1000", msg, sizeof msg),
                     RS_ECONSTRAINT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expansions),
        cmocka_unit_test(test_point_order),
        cmocka_unit_test(test_seeds),
        cmocka_unit_test(test_derived),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
