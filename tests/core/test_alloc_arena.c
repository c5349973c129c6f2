/* The allocator hook honoured both ways (DESIGN.md §3.12, issue 20 item 3): under a hook
 * that is not malloc -- a bump arena that poisons every freed block and aborts on a pointer
 * it did not hand out (libc's, or one already freed) -- every engine (store-and-forward,
 * the four flit engines, circuit; batch and open loop), a threaded sweep, a reproduction's
 * dry-run check and a whole reproduction with its claims give the same bytes as under the
 * C library, and release every block they took. A block released with libc free would
 * crash glibc (the arena's blocks are not malloc's); a libc block released with rs_free
 * aborts here with the pointer named. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, MAP_NORESERVE, MADV_DONTNEED */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rs_test.h"

#include "routesim/alloc.h"
#include "routesim/buf.h"
#include "routesim/claims.h"
#include "routesim/grid.h"
#include "routesim/reproduce.h"
#include "routesim/run.h"
#include "routesim/sweep.h"

#define ARENA_BYTES ((size_t)2 << 30) /* reserved, not committed (MAP_NORESERVE) */
#define HDR 32                        /* header before each block; keeps 16-byte alignment */
#define LIVE 0x4c49564542304c4bULL
#define DEAD 0x4445414442304c4bULL
#define POISON 0xdb

struct hdr {
    uint64_t magic; /* LIVE or DEAD */
    uint64_t size;  /* the block's size in bytes */
    uint64_t pad[2];
};

/* The arena: [base, base + used) handed out front to back, never reused until reset. */
struct arena {
    unsigned char *base;
    atomic_size_t used;  /* bytes handed out (headers included) */
    atomic_long live;    /* blocks handed out and not yet released */
    atomic_ulong allocs; /* blocks handed out since the last reset */
};

/* 0 when p is a live block of a; otherwise why not (a foreign or released pointer). */
static const char *arena_check(struct arena *a, const void *p)
{
    const unsigned char *q = p;
    size_t used = atomic_load(&a->used);
    if (q < a->base + HDR || q >= a->base + used || (size_t)(q - a->base) % 16 != 0)
        return "a foreign pointer (not from the arena)";
    const struct hdr *h = (const struct hdr *)(const void *)(q - HDR);
    if (h->magic == DEAD)
        return "a block already released";
    if (h->magic != LIVE)
        return "a foreign pointer (inside the arena, not a block)";
    return NULL;
}

/* Abort with a message naming p: the test cannot go on after a wrong release. */
static void arena_die(const char *op, const void *p, const char *why)
{
    fprintf(stderr, "arena: %s given %p, %s\n", op, p, why);
    abort();
}

static void *arena_take(struct arena *a, size_t size)
{
    size_t need = HDR + ((size + 15) & ~(size_t)15);
    size_t at = atomic_fetch_add(&a->used, need);
    if (at + need > ARENA_BYTES)
        return NULL;
    struct hdr *h = (struct hdr *)(void *)(a->base + at);
    h->size = size;
    h->magic = LIVE;
    atomic_fetch_add(&a->live, 1);
    atomic_fetch_add(&a->allocs, 1);
    unsigned char *p = a->base + at + HDR;
    memset(p, 0xa5, size); /* not zeroed: a reader of unset bytes sees garbage */
    return p;
}

static void arena_release(struct arena *a, void *p)
{
    struct hdr *h = (struct hdr *)(void *)((unsigned char *)p - HDR);
    h->magic = DEAD;
    memset(p, POISON, h->size); /* a use after release reads poison */
    atomic_fetch_sub(&a->live, 1);
}

/* The hook (alloc.h's contract). Thread-safe: the bump pointer and counters are atomic. */
static void *arena_hook(void *ud, void *ptr, size_t size)
{
    struct arena *a = ud;
    const char *why;
    if (size == 0) {
        if (ptr) {
            if ((why = arena_check(a, ptr)))
                arena_die("free", ptr, why);
            arena_release(a, ptr);
        }
        return NULL;
    }
    if (!ptr)
        return arena_take(a, size);
    if ((why = arena_check(a, ptr)))
        arena_die("realloc", ptr, why);
    void *n = arena_take(a, size);
    if (!n)
        return NULL;
    size_t old = ((struct hdr *)(void *)((unsigned char *)ptr - HDR))->size;
    memcpy(n, ptr, old < size ? old : size);
    arena_release(a, ptr);
    return n;
}

static struct arena arena;

/* Forget every block (all released: checked by the caller) and give the pages back. */
static void arena_reset(void)
{
    size_t used = atomic_load(&arena.used);
    if (used)
        assert_int_equal(madvise(arena.base, (used + 4095) & ~(size_t)4095, MADV_DONTNEED), 0);
    atomic_store(&arena.used, 0);
    atomic_store(&arena.allocs, 0);
}

static int setup(void **state)
{
    (void)state;
    void *m = mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    arena.base = m;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rs_alloc_set(NULL, NULL);
    munmap(arena.base, ARENA_BYTES);
    return 0;
}

/* Install the arena (empty) for the job that follows. */
static void arena_on(void)
{
    arena_reset();
    atomic_store(&arena.live, 0);
    rs_alloc_set(arena_hook, &arena);
}

/* Back to the C library; every block the job took was released, and it took some. */
static void arena_off(const char *what)
{
    rs_alloc_set(NULL, NULL);
    long live = atomic_load(&arena.live);
    unsigned long n = atomic_load(&arena.allocs);
    if (live != 0)
        print_error("%s: %ld of %lu blocks not released\n", what, live, n);
    assert_int_equal(live, 0);
    assert_true(n > 0);
}

/* The checker itself: a libc block, a released block and an interior pointer are refused,
 * a live block passes; a released block is poisoned. */
static void test_arena_detects(void **state)
{
    (void)state;
    arena_on();
    unsigned char *p = rs_malloc(40), *q = rs_calloc(3, 8);
    assert_non_null(p);
    assert_non_null(q);
    assert_int_equal(q[0] | q[23], 0);
    assert_null(arena_check(&arena, p));
    void *libc = malloc(16);
    assert_non_null(libc);
    assert_string_equal(arena_check(&arena, libc), "a foreign pointer (not from the arena)");
    free(libc);
    assert_non_null(arena_check(&arena, p + 16));
    rs_free(p);
    assert_string_equal(arena_check(&arena, p), "a block already released");
    assert_int_equal(p[0], POISON);
    assert_int_equal(p[39], POISON);
    unsigned char *r = rs_realloc(q, 4096); /* moves: the old block is released */
    assert_non_null(r);
    assert_int_equal(r[0] | r[23], 0);
    assert_non_null(arena_check(&arena, q));
    rs_free(r);
    arena_off("arena");
}

/* The record of kv as a CSV row (header and row), run under the arena when arena_too;
 * the text is a C-library block (the caller frees it with free). */
static char *run_to_csv(const char *kv, int arena_too)
{
    struct rs_params p;
    struct rs_record rec;
    struct rs_buf csv;
    struct rs_err err;
    char dl[512] = "";
    if (arena_too)
        arena_on();
    rs_test_params(&p, kv);
    rs_record_init(&rec);
    rs_buf_init(&csv);
    rs_err_clear(&err);
    int rc = rs_run(&p, &rec, dl, sizeof dl, &err);
    if (rc)
        print_error("%s: %s\n", kv, err.msg);
    assert_int_equal(rc, 0);
    assert_int_equal(rs_record_csv_row(&csv, &rec), 0);
    char *out = strdup(csv.data);
    assert_non_null(out);
    rs_buf_free(&csv);
    rs_record_free(&rec);
    rs_params_free(&p);
    if (arena_too)
        arena_off(kv);
    return out;
}

#define OPEN "injection_process=bernoulli injection_rate=0.3 warmup_steps=10 " \
             "measure_steps=40 drain_steps=200 "

/* Every engine, batch and open loop, with its checker on where it has one. */
static const char *const engine_jobs[] = {
    "topology=butterfly N=16 traffic=uniform switching=store_forward check=1",
    "topology=butterfly N=16 traffic=uniform switching=store_forward " OPEN,
    "topology=butterfly N=16 traffic=randperm switching=wormhole length=4 check=1",
    "topology=butterfly N=16 traffic=uniform switching=wormhole length=4 " OPEN,
    "topology=butterfly N=16 traffic=randperm switching=virtual_cut_through length=4 check=1",
    "topology=butterfly N=16 traffic=uniform switching=virtual_cut_through length=4 " OPEN,
    "topology=butterfly N=16 traffic=randperm switching=cut_through_partial length=4 check=1",
    "topology=butterfly N=16 traffic=uniform switching=cut_through_partial length=4 " OPEN,
    "topology=butterfly N=16 traffic=randperm switching=store_forward_flits length=4 check=1",
    "topology=butterfly N=16 traffic=uniform switching=store_forward_flits length=4 " OPEN,
    "topology=butterfly N=16 traffic=randperm switching=circuit check=1",
    "topology=butterfly N=16 traffic=uniform switching=circuit " OPEN,
};

/* Each engine job gives the same row under the arena as under the C library. */
static void test_engines(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof engine_jobs / sizeof *engine_jobs; i++) {
        char *ref = run_to_csv(engine_jobs[i], 0), *got = run_to_csv(engine_jobs[i], 1);
        assert_string_equal(got, ref);
        free(got);
        free(ref);
    }
}

/* The whole file at path (a C-library block; "" when it cannot be read). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *s = calloc(1, 1 << 20);
    assert_non_null(s);
    size_t n = fread(s, 1, (1 << 20) - 1, f);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* sweep kv (two threads, per-run rows too) into the files out and runs. */
static void sweep_to(const char *kv, const char *out, const char *runs)
{
    struct rs_params p;
    struct rs_grid g;
    struct rs_err err;
    rs_err_clear(&err);
    rs_test_params(&p, kv);
    assert_int_equal(rs_grid_build(&g, &p, &err), 0);
    struct rs_sweep_opts o = {.out_path = out, .per_run_path = runs, .jobs = 2};
    struct rs_sweep_result res;
    int rc = rs_sweep_run(&g, &o, &res, &err);
    if (rc)
        print_error("sweep: %s\n", err.msg);
    assert_int_equal(rc, 0);
    rs_grid_free(&g);
    rs_params_free(&p);
}

/* A threaded sweep under the arena writes the same statistics and per-run rows. */
static void test_sweep(void **state)
{
    (void)state;
    const char *kv = "topology=butterfly N=8,16 traffic=uniform,randperm switching=wormhole,"
                     "virtual_cut_through length=2 runs=3 seed=5";
    char out[] = "/tmp/rs_alloc_arena_XXXXXX", runs[] = "/tmp/rs_alloc_arena_XXXXXX";
    int fd = mkstemp(out), fd2 = mkstemp(runs);
    assert_true(fd >= 0 && fd2 >= 0);
    close(fd);
    close(fd2);
    sweep_to(kv, out, runs);
    char *ref = slurp(out), *ref_runs = slurp(runs);
    unlink(out);
    unlink(runs);
    arena_on();
    sweep_to(kv, out, runs);
    arena_off("sweep");
    char *got = slurp(out), *got_runs = slurp(runs);
    assert_true(strlen(ref) > 100);
    assert_string_equal(got, ref);
    assert_string_equal(got_runs, ref_runs);
    free(ref);
    free(ref_runs);
    free(got);
    free(got_runs);
    unlink(out);
    unlink(runs);
}

/* The dry run of tests/data/repro/fixture (INI files, grids, plots and claims checked). */
static void test_reproduce_check(void **state)
{
    (void)state;
    char root[1024];
    rs_test_with_data("@/repro", root, sizeof root);
    struct rs_reproduce_opts o = {.root = root, .name = "fixture", .quick = 1};
    struct rs_reproduce_size size;
    struct rs_err err;
    rs_err_clear(&err);
    arena_on();
    int rc = rs_reproduce_check(&o, &size, &err);
    arena_off("reproduce check");
    if (rc)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, 0);
}

/* Reproduce the fixture into a new folder; *res gets its verdicts; the folder is returned
 * (a C-library block). PATH is emptied so that no gnuplot is started. */
static char *reproduce_into(struct rs_claim_outcome *res)
{
    char root[1024];
    rs_test_with_data("@/repro", root, sizeof root);
    char *out = strdup("/tmp/rs_alloc_arena_XXXXXX");
    assert_non_null(out);
    assert_non_null(mkdtemp(out));
    struct rs_reproduce_opts o = {.root = root, .name = "fixture", .quick = 1, .out = out,
                                  .jobs = 2};
    struct rs_err err;
    rs_err_clear(&err);
    int rc = rs_reproduce(&o, res, &err);
    if (rc)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, 0);
    return out;
}

/* A whole reproduction (sweeps, plot scripts, every claim kind judged, REPORT.md) under
 * the arena gives the same verdicts and CSVs; then a "report" claim (the one kind the
 * fixture does not use) is checked on its statistics under the arena too. */
static void test_reproduce(void **state)
{
    (void)state;
    char *path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin"), cmd[512];
    assert_non_null(path);
    setenv("PATH", "/nonexistent", 1);
    struct rs_claim_outcome ref, got;
    char *dref = reproduce_into(&ref);
    arena_on();
    char *dgot = reproduce_into(&got);
    arena_off("reproduce");
    setenv("PATH", path, 1);
    free(path);
    assert_true(ref.holds > 0 && ref.fails > 0 && ref.inconclusive > 0 && ref.vacuous > 0);
    assert_int_equal(got.holds, ref.holds);
    assert_int_equal(got.fails, ref.fails);
    assert_int_equal(got.inconclusive, ref.inconclusive);
    assert_int_equal(got.vacuous, ref.vacuous);
    const char *csvs[] = {"exact.csv", "bitrev.csv", "random.csv", "random-runs.csv"};
    for (size_t i = 0; i < sizeof csvs / sizeof *csvs; i++) {
        char a[1200], b[1200];
        snprintf(a, sizeof a, "%s/%s", dref, csvs[i]);
        snprintf(b, sizeof b, "%s/%s", dgot, csvs[i]);
        char *x = slurp(a), *y = slurp(b);
        assert_string_equal(y, x);
        free(x);
        free(y);
    }

    struct rs_params c;
    struct rs_buf md;
    struct rs_claim_outcome o = {0, 0, 0, 0};
    struct rs_err err;
    rs_err_clear(&err);
    rs_buf_init(&md);
    arena_on();
    rs_test_params(&c, "kind=report statement=tabulated experiment=random metric=makespan x=N "
                       "f=log2 filter=traffic=uniform");
    int rc = rs_claim_check("tabulated", &c, dgot, &md, &o, &err);
    if (rc)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(md.data, "reported, not judged"));
    rs_buf_free(&md);
    rs_params_free(&c);
    arena_off("report claim");

    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", dref, dgot);
    assert_int_equal(system(cmd), 0);
    free(dref);
    free(dgot);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena_detects), cmocka_unit_test(test_engines),
        cmocka_unit_test(test_sweep),         cmocka_unit_test(test_reproduce_check),
        cmocka_unit_test(test_reproduce),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
