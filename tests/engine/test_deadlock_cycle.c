/* The waiting cycle of a deadlock as data (rs_run_traced, include/routesim/deadlock.h):
 * the channels of the flit, input-queued and store-and-forward cycles on the tornado ring,
 * checked against the hand-worked cycle and against the deadlock line; nothing recorded
 * without a deadlock. */
#include "rs_test.h"
#include "routesim/deadlock.h"

/* Run kv with the cycle kept; the record freed, the line in msg. */
static void traced(const char *kv, struct rs_deadlock *cyc, char *msg, size_t n, int64_t *dl)
{
    struct rs_params p;
    struct rs_record r;
    struct rs_err err;
    rs_err_clear(&err);
    rs_test_params(&p, kv);
    rs_record_init(&r);
    int rc = rs_run_traced(&p, NULL, &r, msg, n, cyc, &err);
    if (rc)
        fail_msg("%s: %s", kv, err.msg);
    *dl = rs_test_int(&r, "deadlock");
    rs_record_free(&r);
    rs_params_free(&p);
}

/* Occurrences of needle in hay. */
static unsigned count(const char *hay, const char *needle)
{
    unsigned c = 0;
    for (const char *s = strstr(hay, needle); s; s = strstr(s + 1, needle))
        c++;
    return c;
}

/* Every entry's channel leads from its node to the next node of the ring (k nodes), the
 * nodes are all distinct, and there are k of them. */
static void ring_cycle(const struct rs_deadlock *cyc, const char *net_kv, uint32_t k)
{
    struct rs_net net;
    rs_test_net(&net, net_kv);
    assert_int_equal(cyc->n, k);
    uint32_t seen = 0;
    for (uint32_t i = 0; i < cyc->n; i++) {
        const struct rs_wait_chan *c = &cyc->chan[i];
        assert_true(c->node < k);
        assert_int_equal(net.ops->neighbor(&net, c->node, c->port, NULL), (c->node + 1) % k);
        assert_false(seen & (1u << c->node));
        seen |= 1u << c->node;
    }
    rs_net_free(&net);
}

/* Wormhole, ring k=8, tornado (x -> x+3), one VC: worm x's header is at x+1 and waits for
 * (x+1)->(x+2) vc 0, held by worm x+1 (test_flit_deadlock.c): 8 entries, entry i+1 is the
 * holder of entry i's channel, in the deadlock line's order and number. */
static void test_wormhole_ring(void **state)
{
    (void)state;
    struct rs_deadlock cyc;
    char msg[2048];
    int64_t dl;
    rs_deadlock_init(&cyc);
    traced("topology=ring k=8 traffic=tornado switching=wormhole", &cyc, msg, sizeof msg, &dl);
    assert_int_equal(dl, 1);
    assert_int_equal(cyc.step, 2);
    ring_cycle(&cyc, "topology=ring k=8", 8);
    assert_int_equal(count(msg, " waits for "), cyc.n);
    for (uint32_t i = 0; i < cyc.n; i++) {
        const struct rs_wait_chan *c = &cyc.chan[i], *next = &cyc.chan[(i + 1) % cyc.n];
        assert_int_equal(c->vc, 0);
        assert_int_equal(c->node, (c->msg + 1) % 8);
        assert_int_equal(next->msg, (c->msg + 1) % 8);
        char want[96];
        snprintf(want, sizeof want, "message %u waits for (%u)->(%u) vc 0 held by message %u",
                 c->msg, c->node, (c->node + 1) % 8, next->msg);
        assert_non_null(strstr(msg, want));
    }
    rs_deadlock_free(&cyc);
    assert_int_equal(cyc.n, 0);
}

/* Store-and-forward, ring k=7, tornado, input queues of 1 (test_saf.c): the 7 full queues,
 * each offering its packet across the channel to the next node; no virtual channels. */
static void test_saf_ring(void **state)
{
    (void)state;
    struct rs_deadlock cyc;
    char msg[2048];
    int64_t dl;
    rs_deadlock_init(&cyc);
    traced("topology=ring k=7 traffic=tornado queue_size=1", &cyc, msg, sizeof msg, &dl);
    assert_int_equal(dl, 1);
    assert_non_null(strstr(msg, "waiting cycle of 7 full queues"));
    ring_cycle(&cyc, "topology=ring k=7", 7);
    for (uint32_t i = 0; i < cyc.n; i++)
        assert_int_equal(cyc.chan[i].vc, RS_NONE);
    /* the same with output queues: the queue's own channel */
    traced("topology=ring k=7 traffic=tornado queue_size=1 queue_at=output", &cyc, msg,
           sizeof msg, &dl);
    assert_int_equal(dl, 1);
    ring_cycle(&cyc, "topology=ring k=7", 7);
    rs_deadlock_free(&cyc);
}

/* Without a deadlock nothing is recorded, and a cycle left from an earlier run is emptied. */
static void test_no_deadlock_empty(void **state)
{
    (void)state;
    struct rs_deadlock cyc;
    char msg[2048];
    int64_t dl;
    rs_deadlock_init(&cyc);
    traced("topology=ring k=8 traffic=tornado switching=wormhole", &cyc, msg, sizeof msg, &dl);
    assert_int_equal(cyc.n, 8);
    traced("topology=ring k=8 traffic=tornado switching=wormhole vcs=2 vc_classes=dateline",
           &cyc, msg, sizeof msg, &dl);
    assert_int_equal(dl, 0);
    assert_int_equal(cyc.n, 0);
    rs_deadlock_free(&cyc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wormhole_ring),
        cmocka_unit_test(test_saf_ring),
        cmocka_unit_test(test_no_deadlock_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
