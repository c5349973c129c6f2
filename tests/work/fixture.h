/* Shared fixture of the workload tests: parameters from a "K=V K=V" list, the network
 * they name and the workload built on it, and a check of a whole destination table. */
#ifndef RS_TESTS_WORK_FIXTURE_H
#define RS_TESTS_WORK_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/net.h"
#include "routesim/params.h"
#include "routesim/problem.h"

struct fx {
    struct rs_params p;
    struct rs_net net;
    struct rs_problem pb;
    struct rs_err err;
};

/* Parse the blank-separated KEY=VALUE list args, build the network (which must
 * succeed) and then the workload; returns rs_problem_build's code. */
static inline int fx_build(struct fx *f, uint64_t seed, const char *args)
{
    memset(f, 0, sizeof *f);
    rs_params_init(&f->p);
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", args);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
        assert_int_equal(rs_params_parse_arg(&f->p, tok, &f->err), 0);
    if (rs_net_build(&f->net, &f->p, &f->err) != 0)
        fail_msg("network of '%s': %s", args, f->err.msg);
    return rs_problem_build(&f->pb, &f->net, &f->p, seed, &f->err);
}

static inline void fx_free(struct fx *f)
{
    rs_problem_free(&f->pb);
    rs_net_free(&f->net);
    rs_params_free(&f->p);
}

/* Build args (q = 1) and compare dst with want[0..n). */
static inline void expect_map(const char *args, const uint32_t *want, uint32_t n)
{
    struct fx f;
    if (fx_build(&f, 1, args) != 0)
        fail_msg("%s: %s", args, f.err.msg);
    assert_int_equal(f.pb.n_msgs, n);
    for (uint32_t s = 0; s < n; s++)
        if (f.pb.dst[s] != want[s])
            fail_msg("%s: source %u goes to %u, expected %u", args, s, f.pb.dst[s], want[s]);
    fx_free(&f);
}

#endif
