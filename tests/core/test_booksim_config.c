/* Tests of the BookSim config importer: syntax (comments, lists, quoted strings), the
 * detection rule, every mapped key with its routesim name and value, BookSim's defaults
 * for keys left out, and the exact errors of an unknown key, a key that cannot be
 * honoured and bad syntax (each naming the line). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "routesim/booksim_config.h"

/* Parse text; returns the error code, the message in err. */
static int parse(struct rs_params *p, const char *text, struct rs_err *err)
{
    rs_params_init(p);
    rs_err_clear(err);
    return rs_booksim_parse(p, text, strlen(text), "f.cfg", err);
}

static void expect(const struct rs_params *p, const char *key, const char *value, int line)
{
    const struct rs_param *q = rs_params_find(p, key);
    if (!q)
        fail_msg("missing key %s", key);
    if (strcmp(q->value, value))
        fail_msg("%s = '%s', expected '%s'", key, q->value, value);
    assert_int_equal(q->line, line);
}

/* Every mapped key given in one file with comments of both kinds, a one-item list and a
 * quoted string. */
static const char *every_key =
    "// an 8x8 mesh\n"                          /* 1 */
    "topology = mesh; /* block\n"               /* 2 */
    "   comment */ k = 4;\n"                    /* 3 */
    "n = 3;\n"                                  /* 4 */
    "c = 1;\n"                                  /* 5 */
    "routing_function = \"min_adapt\";\n"       /* 6 */
    "router = iq;\n"                            /* 7 */
    "vct = 1;\n"                                /* 8 */
    "num_vcs = {4};\n"                          /* 9 */
    "vc_buf_size = 5;\n"                        /* 10 */
    "packet_size = 6;\n"                        /* 11 */
    "routing_delay = 2; vc_alloc_delay = 3;\n"  /* 12 */
    "sw_alloc_delay = 4;\n"                     /* 13 */
    "st_prepare_delay = 1;\n"                   /* 14 */
    "st_final_delay = 2;\n"                     /* 15 */
    "credit_delay = 3;\n"                       /* 16 */
    "input_speedup = 2;\n"                      /* 17 */
    "output_speedup = 3;\n"                     /* 18 */
    "vc_busy_when_full = 1;\n"                  /* 19 */
    "vc_allocator = separable_input_first;\n"   /* 20 */
    "sw_allocator = separable_output_first;\n"  /* 21 */
    "alloc_iters = 2;\n"                        /* 22 */
    "speculative = 1;\n"                        /* 23 */
    "wait_for_tail_credit = 1;\n"               /* 24 */
    "hold_switch_for_packet = 1;\n"             /* 25 */
    "traffic = bitrev;\n"                       /* 26 */
    "injection_process = bernoulli;\n"          /* 27 */
    "injection_rate = 0.25;\n"                  /* 28 */
    "injection_rate_uses_flits = 1;\n"          /* 29 */
    "sim_type = throughput;\n"                  /* 30 */
    "warmup_periods = 0;\n"                     /* 31 */
    "sample_period = 500;\n"                    /* 32 */
    "max_samples = 20;\n"                       /* 33 */
    "latency_thres = 800.0;\n"                  /* 34 */
    "warmup_thres = 0.1;\n"                     /* 35 */
    "acc_warmup_thres = 0.2;\n"                 /* 36 */
    "stopping_thres = 0.03;\n"                  /* 37 */
    "acc_stopping_thres = 0.04;\n"              /* 38 */
    "seed = 7;\n"                               /* 39 */
    "use_noc_latency = 1;\n"                    /* 40 */
    "print_csv_results = 0; // BookSim's default: accepted\n";

static void test_every_key(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    assert_int_equal(parse(&p, every_key, &err), 0);
    expect(&p, "topology", "mesh", 2);
    expect(&p, "k", "4", 3);
    expect(&p, "n", "3", 4);
    expect(&p, "channel_latency", "1", 2);
    expect(&p, "routing", "min_adaptive", 6);
    expect(&p, "adaptive_set", "booksim", 6); /* BookSim's min_adapt route set */
    expect(&p, "router", "iq", 7);
    expect(&p, "switching", "virtual_cut_through", 8);
    expect(&p, "vcs", "4", 9);
    expect(&p, "vc_depth", "5", 10);
    expect(&p, "length", "6", 11);
    expect(&p, "routing_delay", "2", 12);
    expect(&p, "vc_alloc_delay", "3", 12);
    expect(&p, "sw_alloc_delay", "4", 13);
    expect(&p, "st_prepare_delay", "1", 14);
    expect(&p, "st_final_delay", "2", 15);
    expect(&p, "credit_delay", "3", 16);
    expect(&p, "input_speedup", "2", 17);
    expect(&p, "output_speedup", "3", 18);
    expect(&p, "vc_busy_when_full", "1", 19);
    expect(&p, "vc_allocator", "separable_input_first", 20);
    expect(&p, "sw_allocator", "separable_output_first", 21);
    expect(&p, "alloc_iters", "2", 22);
    expect(&p, "speculative", "1", 23);
    expect(&p, "wait_for_tail_credit", "1", 24);
    expect(&p, "hold_switch_for_packet", "1", 25);
    expect(&p, "traffic", "bitrev", 26);
    expect(&p, "injection_process", "bernoulli", 27);
    expect(&p, "injection_rate", "0.25", 28);
    expect(&p, "injection_rate_uses_flits", "1", 29);
    expect(&p, "sim_type", "throughput", 30);
    expect(&p, "warmup_periods", "0", 31);
    expect(&p, "sample_period", "500", 32);
    expect(&p, "max_samples", "20", 33);
    expect(&p, "latency_thres", "800.0", 34);
    expect(&p, "warmup_thres", "0.1", 35);
    expect(&p, "acc_warmup_thres", "0.2", 36);
    expect(&p, "stopping_thres", "0.03", 37);
    expect(&p, "acc_stopping_thres", "0.04", 38);
    expect(&p, "seed", "7", 39);
    assert_null(rs_params_find(&p, "vc_classes")); /* a mesh has no dateline */
    assert_int_equal(p.n, 40); /* every key above, nothing else */
    rs_params_free(&p);
}

/* BookSim's defaults fill what the file leaves out, with their own origin. */
static void test_defaults(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    assert_int_equal(parse(&p, "routing_function = dim_order;\n", &err), 0);
    expect(&p, "topology", "torus", -1); /* BookSim's default topology: 8-ary 2-cube */
    expect(&p, "k", "8", -1);
    expect(&p, "n", "2", -1);
    expect(&p, "channel_latency", "2", -1); /* torus channels with use_noc_latency=1 */
    expect(&p, "routing", "direct", 1);
    expect(&p, "vc_classes", "partition", 1); /* BookSim's dim_order_torus VC split */
    expect(&p, "router", "iq", -1);
    expect(&p, "switching", "wormhole", -1);
    expect(&p, "vcs", "16", -1);
    expect(&p, "vc_depth", "8", -1);
    expect(&p, "length", "1", -1);
    expect(&p, "routing_delay", "1", -1);
    expect(&p, "credit_delay", "0", -1);
    expect(&p, "vc_allocator", "islip", -1);
    expect(&p, "injection_rate", "0.1", -1);
    expect(&p, "sim_type", "latency", -1);
    expect(&p, "warmup_periods", "3", -1);
    expect(&p, "sample_period", "1000", -1);
    expect(&p, "latency_thres", "500.0", -1);
    expect(&p, "seed", "0", -1);
    assert_string_equal(rs_params_find(&p, "vcs")->origin, "f.cfg (BookSim's default)");
    rs_params_free(&p);
}

static void test_fly_and_overrides(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    assert_int_equal(parse(&p, "topology = fly; k = 2; n = 10; routing_function = dest_tag;\n"
                               "num_vcs = 2; num_vcs = 4;\n", &err), 0);
    expect(&p, "topology", "kary_nfly", 1);
    expect(&p, "k", "2", 1);
    expect(&p, "n", "10", 1);
    expect(&p, "channel_latency", "1", 1);
    expect(&p, "routing", "direct", 1);
    expect(&p, "vcs", "4", 2); /* the later statement wins, as in BookSim */
    rs_params_free(&p);
}

static void expect_error(const char *text, int code, const char *msg)
{
    struct rs_params p;
    struct rs_err err;
    assert_int_equal(parse(&p, text, &err), code);
    if (strcmp(err.msg, msg))
        fail_msg("message '%s', expected '%s'", err.msg, msg);
    rs_params_free(&p);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("routing_function = dor;\ntopology = mesh;\nnum_vc = 2;\n", RS_EUNKNOWN,
                 "f.cfg:3: unknown BookSim key 'num_vc' (did you mean 'num_vcs'?)");
    expect_error("routing_function = dor;\ntopology = mesh;\nc = 4;\n", RS_EUNSUPPORTED,
                 "f.cfg:3: BookSim key 'c = 4' cannot be honoured: BookSim's mesh, torus and fly "
                 "ignore c (only its cmesh and flatfly concentrate); set routesim's key c on "
                 "topology=mesh|torus instead");
    expect_error("topology = mesh;\nrouting_function = dor;\ntraffic = taper64;\n",
                 RS_EUNSUPPORTED,
                 "f.cfg:3: BookSim key 'traffic = taper64' cannot be honoured: routesim reads "
                 "BookSim's uniform, transpose, bitrev, tornado, neighbor, bitcomp, shuffle, "
                 "randperm, diagonal, asymmetric and hotspot");
    expect_error("topology = mesh;\nrouting_function = dor;\ntraffic = \"hotspot(3)\";\n",
                 RS_EUNSUPPORTED,
                 "f.cfg:3: BookSim key 'traffic = hotspot(3)' cannot be honoured: expected "
                 "hotspot({NODES}) or hotspot({NODES},{RATES}), quoted");
    expect_error("topology = mesh;\nrouting_function = dor;\ninjection_process = foo;\n",
                 RS_EUNSUPPORTED,
                 "f.cfg:3: BookSim key 'injection_process = foo' cannot be honoured: "
                 "routesim's open-loop injection is bernoulli or on_off");
    expect_error("topology = mesh;\nrouting_function = dor;\npacket_size_rate = {1,2};\n",
                 RS_EUNSUPPORTED,
                 "f.cfg:3: BookSim key 'packet_size_rate = 1,2' cannot be honoured: it needs a "
                 "list packet_size");
    expect_error("topology = mesh;\n", RS_EUNSUPPORTED,
                 "f.cfg (BookSim's default): BookSim key 'routing_function = none' cannot be "
                 "honoured: BookSim needs a routing_function (none is its default)");
    expect_error("topology = dragonflynew;\nrouting_function = min;\n", RS_EUNSUPPORTED,
                 "f.cfg:1: BookSim key 'topology = dragonflynew' cannot be honoured: routesim "
                 "reads BookSim's mesh, torus and fly topologies");
    expect_error("topology = mesh;\nrouting_function = dor;\ninjection_rate = {0.1, 0.2};\n",
                 RS_EUNSUPPORTED,
                 "f.cfg:3: BookSim key 'injection_rate = {0.1,0.2}' cannot be honoured: a list "
                 "gives one value per traffic class, and routesim has one traffic class and no "
                 "request/reply transactions");
    expect_error("topology = mesh;\nrouting_function = dor;\nseed = time;\n", RS_EUNSUPPORTED,
                 "f.cfg:3: BookSim key 'seed = time' cannot be honoured: routesim needs a fixed "
                 "non-negative integer seed (runs are reproducible; 'time' is not)");
    expect_error("topology = mesh;\nrouting_function = dor;\nvc_allocator = select;\n",
                 RS_EUNSUPPORTED,
                 "f.cfg:3: BookSim key 'vc_allocator = select' cannot be honoured: routesim has "
                 "separable_input_first, separable_output_first, islip");
    expect_error("topology = mesh;\nrouting_function = dor;\ninternal_speedup = 1.5;\n",
                 RS_EUNSUPPORTED,
                 "f.cfg:3: BookSim key 'internal_speedup = 1.5' cannot be honoured: routesim's "
                 "iq router has no internal speedup (its crossbar runs at the channel rate)");
    expect_error("topology = mesh\nk = 4;\n", RS_EPARSE,
                 "f.cfg:1: expected ';' after the value of 'topology'");
    expect_error("topology mesh;\n", RS_EPARSE, "f.cfg:1: expected '=' after 'topology'");
    expect_error("k = 4;\n/* open\n\n", RS_EPARSE, "f.cfg:2: unterminated /* comment");
    expect_error("k = \"4;\n", RS_EPARSE, "f.cfg:1: unterminated string in the value of 'k'");
    expect_error("k = {4, ;\n", RS_EPARSE, "f.cfg:1: unexpected ';' in the list of 'k'");
    expect_error("k = ;\n", RS_EPARSE, "f.cfg:1: expected a value after 'k ='");
    expect_error("= 4;\n", RS_EPARSE, "f.cfg:1: expected a key, got '='");
}

/* Issue 22 item 4: hotspot with its nodes and rates, diagonal, on/off injection with
 * BookSim's burst defaults (alpha = beta = 0.5, r1 derived), a size mix whose rates repeat
 * the last one. */
static void test_traffic_keys(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_err err;
    assert_int_equal(parse(&p, "topology = mesh; routing_function = dor;\n"
                               "traffic = \"hotspot({3,5},{3,1})\";\n"
                               "injection_process = on_off;\n"
                               "packet_size = {1,8,4}; packet_size_rate = {3,1};\n", &err), 0);
    expect(&p, "traffic", "hotspot", 2);
    expect(&p, "hotspot_nodes", "3,5", 2);
    expect(&p, "hotspot_rates", "3,1", 2);
    expect(&p, "injection_process", "bernoulli", 3);
    expect(&p, "arrivals", "on_off", -1);
    expect(&p, "burst_alpha", "0.5", -1);
    expect(&p, "burst_beta", "0.5", -1);
    assert_null(rs_params_find(&p, "burst_r1"));
    expect(&p, "packet_sizes", "1,8,4", 4);
    expect(&p, "packet_size_rates", "3,1,1", 4);
    assert_null(rs_params_find(&p, "length"));
    rs_params_free(&p);
    assert_int_equal(parse(&p, "topology = mesh; routing_function = dor;\n"
                               "traffic = diagonal; injection_process = on_off;\n"
                               "burst_beta = -1; burst_r1 = 0.5;\n", &err), 0);
    expect(&p, "traffic", "diagonal", 2);
    expect(&p, "burst_alpha", "0.5", -1);
    expect(&p, "burst_r1", "0.5", 3);
    assert_null(rs_params_find(&p, "burst_beta"));
    expect(&p, "length", "1", -1);
    rs_params_free(&p);
}

static void test_detect(void **state)
{
    (void)state;
    const char *bs = "// comment\ntopology = mesh;\n", *ini = "topology = mesh\n";
    assert_int_equal(rs_booksim_detect("a.cfg", bs, strlen(bs)), 1);
    assert_int_equal(rs_booksim_detect("a", "\n\n  k = 4;  \n", 10), 1);
    assert_int_equal(rs_booksim_detect("a", "/* x */\n", 8), 1);
    assert_int_equal(rs_booksim_detect("a.ini", bs, strlen(bs)), 0); /* .ini is always INI */
    assert_int_equal(rs_booksim_detect("a.cfg", ini, strlen(ini)), 0);
    assert_int_equal(rs_booksim_detect("a.cfg", "# c\nk = 4;\n", 10), 0);
    assert_int_equal(rs_booksim_detect("a.cfg", "", 0), 0);
    assert_string_equal(rs_booksim_alias("num_vcs"), "vcs");
    assert_string_equal(rs_booksim_alias("vc_buf_size"), "vc_depth");
    assert_string_equal(rs_booksim_alias("packet_size"), "length");
    assert_string_equal(rs_booksim_alias("routing_function"), "routing");
    assert_null(rs_booksim_alias("k"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_key),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_fly_and_overrides),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_traffic_keys),
        cmocka_unit_test(test_detect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
