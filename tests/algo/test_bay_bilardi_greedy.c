/* The greedy expansion and compression of 000 §3.1 on the pruned butterfly: Corollary 1
 * (load factor <= 1: no conflict, both directions) and Lemma 1 (a conflict in an expansion
 * happens only at a channel full of active messages) exhaustively for N = 16 from every
 * node, randomly for N = 64 ... 4096; conflicts exactly when the load factor exceeds 1. */
#include "rs_test.h"

#include "routesim/alloc.h"
#include "routesim/bay_bilardi.h"
#include "routesim/rng.h"

struct scratch {
    uint32_t *slot, *cnt;
    uint8_t *inact;
};

static void scratch_open(struct scratch *s, uint32_t N)
{
    s->slot = rs_malloc(2 * (size_t)N * 4);
    s->cnt = rs_malloc(2 * (size_t)N * 4);
    s->inact = rs_malloc(N);
    assert_true(s->slot && s->cnt && s->inact);
}

static void scratch_close(struct scratch *s)
{
    rs_free(s->slot);
    rs_free(s->cnt);
    rs_free(s->inact);
}

/* Route leaf[0..s) from node (i, J) both ways; returns the expansion's conflicts and checks
 * Corollary 1 and Lemma 1. *over gets 1 when the load factor exceeds 1. */
static uint32_t check_set(const struct rs__pb *pb, struct scratch *sc, uint32_t i, uint32_t J,
                          const uint32_t *leaf, uint32_t s, int *over)
{
    int full = 0;
    uint64_t load = rs__bb_greedy_load(pb, i, leaf, s, sc->cnt);
    *over = load > ((uint64_t)1 << pb->ft.n);
    uint32_t ce = rs__bb_greedy(pb, i, J, 0, leaf, s, sc->slot, sc->inact, &full);
    uint32_t cc = rs__bb_greedy(pb, i, J, 1, leaf, s, sc->slot, sc->inact, NULL);
    if (!*over) { /* Corollary 1, and its symmetric form */
        assert_int_equal(ce, 0);
        assert_int_equal(cc, 0);
    } else { /* an overloaded channel forces a conflict in either direction */
        assert_true(ce > 0);
        assert_true(cc > 0);
    }
    assert_true(full); /* Lemma 1 */
    return ce;
}

/* Every sorted multiset of size s <= W(i) of the leaves below every node of N = 16. */
static uint64_t conflicts_over, sets_over, sets_under;

static void enumerate(const struct rs__pb *pb, struct scratch *sc, uint32_t i, uint32_t J,
                      uint32_t *leaf, uint32_t s, uint32_t want)
{
    uint32_t n = pb->ft.n, lo = J << (n - i), hi = (J + 1) << (n - i);
    if (s == want) {
        int over;
        uint32_t c = check_set(pb, sc, i, J, leaf, s, &over);
        if (over) {
            sets_over++;
            conflicts_over += c;
        } else {
            sets_under++;
        }
        return;
    }
    for (uint32_t l = s ? leaf[s - 1] : lo; l < hi; l++) {
        leaf[s] = l;
        enumerate(pb, sc, i, J, leaf, s + 1, want);
    }
}

static void test_exhaustive_16(void **state)
{
    (void)state;
    struct rs__pb pb;
    struct scratch sc;
    uint32_t leaf[8];
    rs__pb_init(&pb, 4);
    scratch_open(&sc, 16);
    conflicts_over = sets_over = sets_under = 0;
    for (uint32_t i = 0; i < 4; i++)
        for (uint32_t J = 0; J < (1u << i); J++)
            for (uint32_t s = 0; s <= rs__pb_width(4, i); s++)
                enumerate(&pb, &sc, i, J, leaf, 0, s);
    /* sum over s <= W(i) of C(leaves + s - 1, s) per node: 4845 at the root, 495 at level 1 */
    assert_int_equal(sets_over + sets_under, 4845 + 2 * 495 + 4 * 15 + 8 * 6);
    assert_true(sets_under > 0 && sets_over > 0);
    print_message("N=16: %llu sets with lambda <= 1 (no conflict), %llu with lambda > 1 "
                  "(%llu conflicts)\n",
                  (unsigned long long)sets_under, (unsigned long long)sets_over,
                  (unsigned long long)conflicts_over);
    scratch_close(&sc);
}

/* Random sets from the root: free ones (mostly lambda > 1 when large) and ones grown leaf by
 * leaf while every channel stays within its capacity (lambda <= 1 by construction). */
static void test_random(void **state)
{
    (void)state;
    for (uint32_t n = 6; n <= 12; n += 2) {
        struct rs__pb pb;
        struct scratch sc;
        uint32_t N = 1u << n, W = rs__pb_width(n, 0), leaf[64], under = 0, over_sets = 0;
        rs__pb_init(&pb, n);
        scratch_open(&sc, N);
        for (uint32_t trial = 0; trial < 300; trial++) {
            struct rs_rng r;
            rs_rng_init(&r, 7, RS_STREAM_TRAFFIC, trial, n);
            uint32_t s = 1 + rs_rng_below(&r, W), k = 0;
            int capped = trial % 2;
            uint32_t tries = 0;
            while (k < s && tries++ < 50 * s) {
                uint32_t l = rs_rng_below(&r, N), a = 0;
                while (a < k && leaf[a] <= l) /* insertion keeps leaf[] sorted */
                    a++;
                memmove(leaf + a + 1, leaf + a, (k - a) * sizeof *leaf);
                leaf[a] = l;
                k++;
                if (capped && rs__bb_greedy_load(&pb, 0, leaf, k, sc.cnt) > ((uint64_t)1 << n)) {
                    memmove(leaf + a, leaf + a + 1, (k - a - 1) * sizeof *leaf);
                    k--;
                }
            }
            int over;
            check_set(&pb, &sc, 0, 0, leaf, k, &over);
            if (over)
                over_sets++;
            else
                under++;
        }
        assert_true(under >= 150); /* every capped set, at least */
        scratch_close(&sc);
        (void)over_sets;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exhaustive_16),
        cmocka_unit_test(test_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
