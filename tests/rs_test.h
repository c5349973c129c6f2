/* Shared helpers for the cmocka unit tests: build parameters from a "K=V K=V" string and
 * run or analyze them, failing the test with the library's message on error. */
#ifndef RS_TEST_H
#define RS_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "routesim/net.h"
#include "routesim/params.h"
#include "routesim/problem.h"
#include "routesim/record.h"
#include "routesim/run.h"

/* kv with every "@/" replaced by $RS_TEST_DATA/ (the test data folder), into buf of n
 * bytes; returns buf. */
static inline const char *rs_test_with_data(const char *kv, char *buf, size_t n)
{
    const char *data = getenv("RS_TEST_DATA"), *at;
    size_t used = 0;
    assert_non_null(data);
    while ((at = strstr(kv, "@/")) != NULL) {
        used += (size_t)snprintf(buf + used, n - used, "%.*s%s/", (int)(at - kv), kv, data);
        assert_true(used < n);
        kv = at + 2;
    }
    snprintf(buf + used, n - used, "%s", kv);
    return buf;
}

/* Fill p (initialised here) from space-separated KEY=VALUE words. */
static inline void rs_test_params(struct rs_params *p, const char *kv)
{
    char buf[1024], *save = NULL;
    struct rs_err err;
    rs_params_init(p);
    snprintf(buf, sizeof buf, "%s", kv);
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (rs_params_parse_arg(p, w, &err)) {
            print_error("bad test parameter '%s': %s\n", w, err.msg);
            fail();
        }
    }
}

/* Copy src into dst[0..n) (n >= 1), cut if it is longer. */
static inline void rs_test_copy(char *dst, size_t n, const char *src)
{
    size_t len = strlen(src);
    if (len >= n)
        len = n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* Build the network of kv into net (must succeed; fails the test with the message). */
static inline void rs_test_net(struct rs_net *net, const char *kv)
{
    struct rs_params p;
    struct rs_err err;
    rs_test_params(&p, kv);
    int rc = rs_net_build(net, &p, &err);
    rs_params_free(&p);
    if (rc) {
        print_error("%s: %s\n", kv, err.msg);
        fail();
    }
}

/* Run kv (simulation when simulate, else analysis) into rec (initialised here). Returns
 * the library's return code; on a nonzero code msg holds the error text. */
static inline int rs_test_try(const char *kv, int simulate, struct rs_record *rec, char *msg,
                              size_t n)
{
    struct rs_params p;
    struct rs_err err;
    char dl[1024] = "";
    rs_err_clear(&err);
    rs_test_params(&p, kv);
    rs_record_init(rec);
    int rc = simulate ? rs_run(&p, rec, dl, sizeof dl, &err) : rs_analyze(&p, rec, &err);
    if (msg && n)
        rs_test_copy(msg, n, rc ? err.msg : (simulate ? dl : ""));
    rs_params_free(&p);
    return rc;
}

/* Run kv and fail the test if it errors. */
static inline void rs_test_run(const char *kv, struct rs_record *rec)
{
    char msg[1024];
    int rc = rs_test_try(kv, 1, rec, msg, sizeof msg);
    if (rc) {
        print_error("run '%s' failed: %s\n", kv, msg);
        fail();
    }
}

/* Run kv (simulated) and fail the test unless it returns code with exactly the message msg. */
static inline void rs_test_expect_error(const char *kv, int code, const char *msg)
{
    struct rs_record r;
    char got[1024];
    int rc = rs_test_try(kv, 1, &r, got, sizeof got);
    if (rc != code || strcmp(got, msg))
        fail_msg("%s: got %d '%s', want %d '%s'", kv, rc, got, code, msg);
    rs_record_free(&r);
}

/* Integer field of rec; fails the test when absent. */
static inline int64_t rs_test_int(const struct rs_record *rec, const char *name)
{
    const struct rs_field *f = rs_record_get(rec, name);
    if (!f || f->type != RS_VAL_INT) {
        print_error("record has no integer field '%s'\n", name);
        fail();
    }
    return f->i;
}

static inline double rs_test_double(const struct rs_record *rec, const char *name)
{
    const struct rs_field *f = rs_record_get(rec, name);
    if (!f || f->type != RS_VAL_DOUBLE) {
        print_error("record has no double field '%s'\n", name);
        fail();
    }
    return f->d;
}

/* Deadlock freedom under saturation: run "RUN COMMON" for every RUN of runs (NULL-ended),
 * COMMON the open-loop load shared by the topology tests (uniform, 4-flit packets, offered
 * 0.9 flits/terminal/step, 500 + 2,000 steps, no drain, the per-step checker on); each must
 * end without deadlock having delivered more than 100 packets. */
static inline void rs_test_no_deadlock_saturated(const char *const *runs)
{
    for (int i = 0; runs[i]; i++) {
        char kv[512];
        struct rs_record r;
        snprintf(kv, sizeof kv, "%s traffic=uniform length=4 injection_process=bernoulli "
                 "injection_rate=0.9 injection_rate_uses_flits=1 warmup_steps=500 "
                 "measure_steps=2000 drain_steps=0 check=1", runs[i]);
        rs_test_run(kv, &r);
        assert_int_equal(rs_test_int(&r, "deadlock"), 0);
        assert_true(rs_test_int(&r, "delivered") > 100);
        rs_record_free(&r);
    }
}

/* Run kv and write its record as CSV (header and row) into out (initialised here; the
 * caller frees it): the bytes that determinism tests compare. */
static inline void rs_test_csv(const char *kv, struct rs_buf *out)
{
    struct rs_record r;
    struct rs_err err;
    rs_test_run(kv, &r);
    rs_buf_init(out);
    assert_int_equal(rs_records_write(out, RS_FMT_CSV, &r, 1, &err), 0);
    rs_record_free(&r);
}

/* Parameters, network and message set built from kv (workload seed seed), for tests that
 * drive an engine or an algorithm through the library's internals. */
struct rs_test_fixture {
    struct rs_params p;
    struct rs_net net;
    struct rs_problem pb;
};

static inline void rs_test_fx_open(struct rs_test_fixture *f, const char *kv, uint64_t seed)
{
    struct rs_err err;
    rs_test_params(&f->p, kv);
    rs_test_net(&f->net, kv);
    if (rs_problem_build(&f->pb, &f->net, &f->p, seed, &err)) {
        print_error("%s: %s\n", kv, err.msg);
        fail();
    }
}

static inline void rs_test_fx_close(struct rs_test_fixture *f)
{
    rs_problem_free(&f->pb);
    rs_net_free(&f->net);
    rs_params_free(&f->p);
}

/* Next permutation of a[0..n) in lexicographic order, in place: 1, or 0 (a left as it was)
 * when a was the last one. Start from a sorted array to visit all n! of them. */
static inline int rs_test_next_perm(uint32_t *a, uint32_t n)
{
    if (n < 2)
        return 0;
    uint32_t i = n - 1;
    while (i > 0 && a[i - 1] >= a[i])
        i--;
    if (i == 0)
        return 0;
    uint32_t j = n - 1;
    while (a[j] <= a[i - 1])
        j--;
    uint32_t t = a[i - 1];
    a[i - 1] = a[j], a[j] = t;
    for (uint32_t l = i, r = n - 1; l < r; l++, r--)
        t = a[l], a[l] = a[r], a[r] = t;
    return 1;
}

#endif
