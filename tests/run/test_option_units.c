/* Every option of every table the library registers (topologies, workloads, engines,
 * algorithms, routing functions, the run's, the predictors', saturate's, the open-loop and
 * router=iq groups, the claim kinds') declares a unit of the vocabulary rs_opt_units: a
 * choice or a flag has none ("-"), and every unit of the vocabulary is used. The CLI's own
 * table (topo's) is checked through `routesim help` by tests/cli/help_walk.sh. */
#include <stdio.h>
#include <string.h>

#include "rs_test.h"

#include "report/claim.h"
#include "routesim/algo.h"
#include "routesim/engine.h"
#include "routesim/net.h"
#include "routesim/openloop.h"
#include "routesim/problem.h"
#include "routesim/route.h"
#include "routesim/run.h"
#include "routesim/saturate.h"

#define MAX_UNITS 64

struct tally {
    int options;          /* options checked */
    int used[MAX_UNITS];  /* per entry of rs_opt_units: options with that unit */
};

/* Check every option of table (NULL-terminated; NULL is an empty table), named by where. */
static void check_table(struct tally *t, const struct rs_optdef *table, const char *where)
{
    for (const struct rs_optdef *d = table; d && d->name; d++) {
        const struct rs_opt_unit *u = rs_opt_unit_find(d->unit);
        if (!u)
            fail_msg("%s: option %s has unit '%s', not one of rs_opt_units", where, d->name,
                     d->unit ? d->unit : "(NULL)");
        if ((d->type == RS_OPT_CHOICE || d->type == RS_OPT_BOOL) && strcmp(d->unit, "-"))
            fail_msg("%s: option %s is a choice or a flag with unit '%s' (expected '-')", where,
                     d->name, d->unit);
        t->used[u - rs_opt_units]++;
        t->options++;
    }
}

static void test_every_table_has_units(void **state)
{
    (void)state;
    struct tally t = {0};
    char where[128];
    int n_units = 0;
    while (rs_opt_units[n_units].name)
        n_units++;
    assert_true(n_units < MAX_UNITS);
    check_table(&t, rs_net_options, "network");
    for (int i = 0; rs_topologies[i]; i++) {
        snprintf(where, sizeof where, "topology=%s", rs_topologies[i]->name);
        check_table(&t, rs_topologies[i]->options, where);
    }
    check_table(&t, rs_problem_options, "workload");
    for (int i = 0; rs_traffics[i]; i++) {
        snprintf(where, sizeof where, "traffic=%s", rs_traffics[i]->name);
        check_table(&t, rs_traffics[i]->options, where);
    }
    check_table(&t, rs_run_options, "run");
    check_table(&t, rs_predict_options, "predict");
    for (int i = 0; rs_engines[i]; i++) {
        snprintf(where, sizeof where, "switching=%s", rs_engines[i]->name);
        check_table(&t, rs_engines[i]->options, where);
    }
    for (int i = 0; rs_algos[i]; i++) {
        snprintf(where, sizeof where, "algorithm=%s", rs_algos[i]->name);
        check_table(&t, rs_algos[i]->options, where);
    }
    for (int i = 0; rs_routings[i]; i++) {
        snprintf(where, sizeof where, "routing=%s", rs_routings[i]->name);
        check_table(&t, rs_routings[i]->options, where);
    }
    check_table(&t, rs_saturate_options, "saturate");
    check_table(&t, rs_openloop_options, "open loop");
    check_table(&t, rs_openloop_runctl_options, "open loop run control");
    check_table(&t, rs_openloop_fixed_options, "open loop fixed phases");
    check_table(&t, rs_iq_options, "router=iq");
    check_table(&t, rs__claim_common_options, "every claim");
    for (int i = 0; rs__claim_kinds[i]; i++) {
        snprintf(where, sizeof where, "claim kind %s", rs__claim_kinds[i]->name);
        check_table(&t, rs__claim_kinds[i]->options, where);
    }
    assert_true(t.options > 200);
    /* no unit of the vocabulary is unused, but bytes: the CLI's dot_limit also has it */
    for (int i = 0; rs_opt_units[i].name; i++)
        if (!t.used[i] && strcmp(rs_opt_units[i].name, "bytes"))
            fail_msg("unit '%s' of rs_opt_units is used by no option", rs_opt_units[i].name);
    assert_true(t.used[rs_opt_unit_find("bytes") - rs_opt_units] >= 1); /* max_memory */
}

/* Spot checks of declarations whose unit the brief names. */
static void test_spot_checks(void **state)
{
    (void)state;
    const struct rs_engine_ops *wh = rs_engine_find("wormhole");
    assert_non_null(wh);
    assert_string_equal(rs_optdef_find(wh->options, "vc_depth")->unit, "flits");
    assert_string_equal(rs_optdef_find(wh->options, "routing_delay")->unit, "cycles");
    assert_string_equal(rs_optdef_find(wh->options, "length")->unit, "flits");
    assert_string_equal(rs_optdef_find(rs_openloop_options, "injection_rate")->unit,
                        "packets/terminal/step");
    assert_string_equal(rs_optdef_find(rs_openloop_options, "warmup_steps")->unit, "steps");
    assert_string_equal(rs_optdef_find(rs_run_options, "seed")->unit, "-");
    assert_string_equal(rs_optdef_find(rs_topo_find("butterfly")->options, "N")->unit,
                        "terminals");
    assert_string_equal(rs_optdef_find(rs_topo_find("mesh")->options, "k")->unit, "nodes");
    assert_string_equal(rs_optdef_find(rs_problem_options, "per_input")->unit, "messages");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_table_has_units),
        cmocka_unit_test(test_spot_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
