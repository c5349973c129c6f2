/* The [plot] section checked before anything runs (rs_plot_check): the metrics named by y
 * and theory_column must be declared in the metrics table (or be statistics columns of
 * one, or keys of the experiment); a typo is an error naming it with a suggestion. */
#include "rs_test.h"

#include "routesim/grid.h"
#include "routesim/plot.h"

/* rs_plot_check on the grid of kv (items separated by ';'); msg gets the error text. */
static int check(const char *kv, char *msg, size_t n)
{
    struct rs_params p;
    struct rs_err err;
    struct rs_grid g;
    char buf[1024], *save = NULL;
    rs_params_init(&p);
    rs_err_clear(&err);
    snprintf(buf, sizeof buf, "%s", kv);
    for (char *w = strtok_r(buf, ";", &save); w; w = strtok_r(NULL, ";", &save))
        assert_int_equal(rs_params_parse_arg(&p, w, &err), 0);
    assert_int_equal(rs_grid_build(&g, &p, &err), 0);
    int rc = rs_plot_check(&g, &err);
    rs_test_copy(msg, n, err.msg);
    rs_grid_free(&g);
    rs_params_free(&p);
    return rc;
}

static void test_plot_metrics(void **state)
{
    char msg[512];
    (void)state;
    assert_int_equal(check("N=8,16;plot.y=makespan,latency_p99", msg, sizeof msg), 0);
    assert_int_equal(check("N=8,16", msg, sizeof msg), 0); /* y defaults to makespan */
    /* a key of the experiment, a statistics column as a theory column */
    assert_int_equal(check("N=8,16;queue_size=2;plot.y=queue_size;plot.theory_column=bound_mean",
                           msg, sizeof msg),
                     0);
    assert_int_equal(check("N=8,16;plot.y=makespan,latncy_p99", msg, sizeof msg), RS_EUNKNOWN);
    assert_string_equal(msg, "command line: [plot] key 'y': unknown metric 'latncy_p99' (did "
                             "you mean 'latency_p99'?)");
    assert_int_equal(check("N=8,16;plot.theory_column=bound_maen", msg, sizeof msg), RS_EUNKNOWN);
    assert_string_equal(msg, "command line: [plot] key 'theory_column': unknown metric "
                             "'bound_maen' (did you mean 'bound_mean'?)");
    assert_int_equal(check("N=8,16;plot.y=zzzzzzzzzzzz", msg, sizeof msg), RS_EUNKNOWN);
    assert_string_equal(msg, "command line: [plot] key 'y': unknown metric 'zzzzzzzzzzzz' "
                             "(`routesim list metrics` lists them)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plot_metrics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
