/* Allocation fault injection (issue 12, defect 12): through the allocator hook (alloc.h),
 * fail the n-th allocation of a small job for every n from 1 to the number the job makes;
 * each attempt must end with RS_ENOMEM and a message, or succeed with the fault-free
 * result; never crash, and (under `make sanitize`) never leak. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_test.h"

#include "routesim/alloc.h"
#include "routesim/buf.h"
#include "routesim/grid.h"
#include "routesim/hugemem.h"
#include "routesim/reproduce.h"
#include "routesim/run.h"
#include "routesim/sweep.h"

static atomic_ulong n_allocs; /* allocations (and resizes) made since the last reset */
static atomic_ulong fail_at;  /* the allocation to fail (1-based); 0: none */

/* The C library, except that allocation number fail_at returns NULL. Thread-safe. */
static void *faulty(void *ud, void *ptr, size_t size)
{
    (void)ud;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    unsigned long k = atomic_fetch_add(&n_allocs, 1) + 1;
    if (k == atomic_load(&fail_at))
        return NULL;
    return ptr ? realloc(ptr, size) : malloc(size);
}

/* Start counting from 0 and fail allocation n (0: none). */
static void arm(unsigned long n)
{
    atomic_store(&n_allocs, 0);
    atomic_store(&fail_at, n);
}

/* Allocations made by the job since arm(), with no further fault armed. */
static unsigned long disarm(void)
{
    atomic_store(&fail_at, 0);
    return atomic_load(&n_allocs);
}

static int setup(void **state)
{
    (void)state;
    arm(0);
    rs_alloc_set(faulty, NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rs_alloc_set(NULL, NULL);
    return 0;
}

/* Run kv with allocation n failing (0: none); the CSV row of the record goes to csv and
 * the job's allocation count to *count. */
static int run_once(const char *kv, unsigned long n, struct rs_buf *csv, char *msg, size_t len,
                    unsigned long *count)
{
    struct rs_params p;
    struct rs_record rec;
    struct rs_err err;
    char dl[512] = "";
    rs_test_params(&p, kv);
    rs_record_init(&rec);
    rs_err_clear(&err);
    arm(n);
    int rc = rs_run(&p, &rec, dl, sizeof dl, &err);
    *count = disarm();
    if (!rc)
        assert_int_equal(rs_record_csv_row(csv, &rec), 0);
    rs_test_copy(msg, len, err.msg);
    rs_record_free(&rec);
    rs_params_free(&p);
    return rc;
}

/* What failing allocation n of total (of the job called what) may do: succeed, or fail with
 * RS_ENOMEM and a message; anything else is printed and fails the test. */
static void expect_clean_failure(const char *what, unsigned long n, unsigned long total, int rc,
                                 const char *msg)
{
    if (rc != 0 && rc != RS_ENOMEM)
        print_error("%s: allocation %lu of %lu failed: rc %d: %s\n", what, n, total, rc, msg);
    assert_true(rc == 0 || rc == RS_ENOMEM);
    if (rc)
        assert_true(msg[0] != '\0');
}

static void every_fault_of_run(const char *kv)
{
    struct rs_buf ref, got;
    char msg[512];
    unsigned long total, count;
    rs_buf_init(&ref);
    assert_int_equal(run_once(kv, 0, &ref, msg, sizeof msg, &total), 0);
    assert_true(total > 0);
    print_message("%s: %lu allocations\n", kv, total);
    for (unsigned long n = 1; n <= total; n++) {
        rs_buf_init(&got);
        int rc = run_once(kv, n, &got, msg, sizeof msg, &count);
        expect_clean_failure(kv, n, total, rc, msg);
        if (!rc)
            assert_string_equal(got.data, ref.data);
        rs_buf_free(&got);
    }
    rs_buf_free(&ref);
}

/* The runs: every engine (store-and-forward, wormhole, circuit), open loop, deadlocks,
 * algorithms, adaptive routing, the checkers, an explicit graph from a file, the LCAN
 * prediction. @/ is the test data folder. */
static const char *const run_jobs[] = {
    "topology=butterfly N=8 traffic=uniform",
    "topology=butterfly N=8 traffic=uniform check=1 queue_size=1",
    "topology=butterfly N=16 traffic=bitrev switching=wormhole length=4",
    "topology=butterfly N=16 traffic=randperm switching=circuit check=1",
    "topology=butterfly N=8 traffic=uniform injection_process=bernoulli injection_rate=0.5 "
    "warmup_steps=5 measure_steps=20 drain_steps=50",
    "topology=butterfly N=8 traffic=uniform switching=wormhole injection_process=bernoulli "
    "injection_rate=0.5 warmup_steps=5 measure_steps=20 drain_steps=50",
    "topology=lcan N=16 d=4 u=2 traffic=randperm switching=circuit algorithm=offline",
    "topology=lcan N=16 d=4 u=4 traffic=root switching=circuit predict=lcan",
    "topology=ring k=8 traffic=tornado switching=wormhole",
    "topology=ring k=7 traffic=tornado queue_size=1",
    "topology=butterfly wrap=1 N=8 switching=wormhole algorithm=cms_butterfly",
    "topology=mesh k=4 algorithm=colour_refine switching=wormhole",
    "topology=mesh k=4 traffic=uniform switching=wormhole routing=min_adaptive vcs=2",
    "graph_file=@/graph_small.txt topology=graph",
    "topology=butterfly N=8 per_input=2 queue_size=1 algorithm=wave check=1",
    "topology=pruned_butterfly N=16 traffic=uniform per_input=2 switching=circuit "
    "algorithm=bay_bilardi butterfly=1",
};

static void test_run(void **state)
{
    char kv[1024];
    every_fault_of_run(rs_test_with_data(*(const char *const *)*state, kv, sizeof kv));
}

/* Sweep kv to out (and per-run rows to runs when not NULL) on jobs threads with
 * allocation n failing (0: none); *count gets the sweep's allocations. */
static int sweep_once(const char *kv, const char *out, const char *runs, int jobs,
                      unsigned long n, char *msg, size_t len, unsigned long *count)
{
    struct rs_params p;
    struct rs_grid g;
    struct rs_err err;
    rs_err_clear(&err);
    rs_test_params(&p, kv);
    assert_int_equal(rs_grid_build(&g, &p, &err), 0);
    struct rs_sweep_opts o = {.out_path = out, .per_run_path = runs, .jobs = jobs};
    struct rs_sweep_result res;
    unlink(out);
    if (runs)
        unlink(runs);
    arm(n);
    int rc = rs_sweep_run(&g, &o, &res, &err);
    *count = disarm();
    rs_test_copy(msg, len, err.msg);
    rs_grid_free(&g);
    rs_params_free(&p);
    return rc;
}

/* Every fault of a sweep through the library API, to temporary files. With several threads
 * the order of allocations varies, not their number's bound. */
static void every_fault_of_sweep(const char *kv, int jobs, int per_run)
{
    char out[] = "/tmp/rs_alloc_faults_XXXXXX", runs[] = "/tmp/rs_alloc_faults_XXXXXX";
    int fd = mkstemp(out), fd2 = mkstemp(runs);
    assert_true(fd >= 0 && fd2 >= 0);
    close(fd);
    close(fd2);
    char msg[512];
    unsigned long total, count;
    assert_int_equal(sweep_once(kv, out, per_run ? runs : NULL, jobs, 0, msg, sizeof msg, &total),
                     0);
    assert_true(total > 0);
    print_message("sweep %s (%d jobs): %lu allocations\n", kv, jobs, total);
    for (unsigned long n = 1; n <= total; n++) {
        int rc = sweep_once(kv, out, per_run ? runs : NULL, jobs, n, msg, sizeof msg, &count);
        expect_clean_failure("sweep", n, total, rc, msg);
    }
    unlink(out);
    unlink(runs);
}

static void test_sweep(void **state)
{
    (void)state;
    every_fault_of_sweep("topology=butterfly N=4,8 traffic=uniform runs=2 seed=1", 1, 0);
}

static void test_sweep_threads(void **state)
{
    (void)state;
    every_fault_of_sweep("topology=butterfly N=4,8 traffic=uniform switching=wormhole "
                         "length=2 runs=2 seed=2",
                         2, 1);
}

/* rs_analyze (path statistics and the LCAN prediction) under every fault. */
static void test_analyze(void **state)
{
    (void)state;
    const char *kv = "topology=lcan N=16 d=4 u=2 traffic=randperm switching=circuit predict=lcan";
    struct rs_params p;
    struct rs_err err;
    rs_test_params(&p, kv);
    unsigned long total = 0;
    for (unsigned long n = 0; n == 0 || n <= total; n++) {
        struct rs_record rec;
        rs_record_init(&rec);
        rs_err_clear(&err);
        arm(n);
        int rc = rs_analyze(&p, &rec, &err);
        unsigned long count = disarm();
        if (n == 0) {
            assert_int_equal(rc, 0);
            total = count;
            print_message("analyze %s: %lu allocations\n", kv, total);
        } else {
            expect_clean_failure("analyze", n, total, rc, err.msg);
        }
        rs_record_free(&rec);
    }
    rs_params_free(&p);
}

/* A reproduction's dry run (INI files through libinih, grids, every point validated,
 * plots and claims checked) under every fault: tests/data/repro/fixture. */
static void test_reproduce_check(void **state)
{
    (void)state;
    char root[1024];
    rs_test_with_data("@/repro", root, sizeof root);
    struct rs_reproduce_opts o = {.root = root, .name = "fixture", .quick = 1};
    struct rs_reproduce_size size;
    struct rs_err err;
    unsigned long total = 0;
    for (unsigned long n = 0; n == 0 || n <= total; n++) {
        rs_err_clear(&err);
        arm(n);
        int rc = rs_reproduce_check(&o, &size, &err);
        unsigned long count = disarm();
        if (n == 0) {
            if (rc)
                print_error("%s\n", err.msg);
            assert_int_equal(rc, 0);
            total = count;
            print_message("reproduce check: %lu allocations\n", total);
        } else {
            expect_clean_failure("reproduce", n, total, rc, err.msg);
        }
    }
}

/* A whole reproduction of the fixture (sweeps, plot scripts, claims, REPORT.md) into a
 * temporary folder under faults (bounded, below); PATH is emptied so that no gnuplot is
 * started. */
static void test_reproduce(void **state)
{
    (void)state;
    char root[1024], out[] = "/tmp/rs_alloc_faults_XXXXXX", cmd[1200];
    rs_test_with_data("@/repro", root, sizeof root);
    assert_non_null(mkdtemp(out));
    struct rs_reproduce_opts o = {.root = root, .name = "fixture", .quick = 1, .out = out,
                                  .jobs = 1};
    struct rs_claim_outcome res;
    struct rs_err err;
    unsigned long total = 0;
    char *path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    assert_non_null(path);
    setenv("PATH", "/nonexistent", 1);
    /* every n up to 200, then every 997th: a reproduction makes about 61,000 allocations */
    for (unsigned long n = 0; n == 0 || n <= total; n += n < 200 ? 1 : 997) {
        rs_err_clear(&err);
        arm(n);
        int rc = rs_reproduce(&o, &res, &err);
        unsigned long count = disarm();
        if (n == 0) {
            if (rc)
                print_error("%s\n", err.msg);
            assert_int_equal(rc, 0);
            total = count;
            print_message("reproduce: %lu allocations\n", total);
        } else {
            expect_clean_failure("reproduce", n, total, rc, err.msg);
        }
    }
    setenv("PATH", path, 1);
    free(path);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", out);
    assert_int_equal(system(cmd), 0);
}

/* A buffer whose append failed is marked and never written: the appends that ignore their
 * return code (report texts) cannot leave a file with a piece missing. */
static void test_buf_failed_is_not_written(void **state)
{
    (void)state;
    char path[] = "/tmp/rs_alloc_faults_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "old\n", 4), 4);
    close(fd);
    struct rs_buf b;
    struct rs_err err;
    rs_buf_init(&b);
    assert_int_equal(rs_buf_puts(&b, "first\n"), 0);
    arm(1);
    assert_int_equal(rs_buf_printf(&b, "%0300d\n", 1), RS_ENOMEM); /* needs a larger block */
    disarm();
    assert_int_equal(b.failed, 1);
    assert_int_equal(rs_buf_puts(&b, "last\n"), 0);
    assert_int_equal(rs_buf_write_file(&b, path, &err), RS_ENOMEM);
    char want[128];
    snprintf(want, sizeof want, "cannot write '%s': out of memory", path);
    assert_string_equal(err.msg, want);
    char got[16] = "";
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(got, sizeof got, f));
    fclose(f);
    assert_string_equal(got, "old\n");
    rs_buf_free(&b);
    assert_int_equal(b.failed, 0);
    unlink(path);
}

/* While a hook is set, the large blocks that would be mapped go through it too, zeroed,
 * so they can be counted and failed. */
static void test_hugemem_through_hook(void **state)
{
    (void)state;
    size_t bytes = (size_t)4 << 20; /* above hugemem's 2 MiB mapping threshold */
    arm(0);
    unsigned char *p = rs__huge_alloc(bytes);
    assert_int_equal(disarm(), 1);
    assert_non_null(p);
    assert_int_equal(p[0] | p[bytes / 2] | p[bytes - 1], 0);
    rs__huge_free(p, bytes);
    arm(1);
    assert_null(rs__huge_alloc(bytes));
    disarm();
}

#define RUN(i) {"run " #i, test_run, NULL, NULL, (void *)&run_jobs[i]}

int main(void)
{
    const struct CMUnitTest tests[] = {
        RUN(0),  RUN(1),  RUN(2),  RUN(3),  RUN(4),  RUN(5),  RUN(6),
        RUN(7),  RUN(8),  RUN(9),  RUN(10), RUN(11), RUN(12), RUN(13), RUN(14),
        cmocka_unit_test(test_sweep),   cmocka_unit_test(test_sweep_threads),
        cmocka_unit_test(test_analyze), cmocka_unit_test(test_reproduce_check),
        cmocka_unit_test(test_buf_failed_is_not_written),
        cmocka_unit_test(test_hugemem_through_hook),
        cmocka_unit_test(test_reproduce),
    };
    _Static_assert(sizeof run_jobs / sizeof *run_jobs == 16, "one RUN per job");
    if (getenv("RS_TEST_FILTER")) /* e.g. RS_TEST_FILTER='test_sweep*' */
        cmocka_set_test_filter(getenv("RS_TEST_FILTER"));
    return cmocka_run_group_tests(tests, setup, teardown);
}
