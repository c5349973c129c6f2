/* Tests of the event log's sink (src/core/events.c): blocked episodes kept at their first
 * step, an injected record with a port followed by its hop, the filters' lists (merged,
 * malformed), the size guard's marker, and the binary form read back as the CSV. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/events_hook.h"
#include "routesim/events.h"

#define NONE RS_EV_NONE

static struct rs_events *new_log(uint64_t max, uint64_t packets)
{
    struct rs_events *ev;
    struct rs_err err;
    assert_int_equal(rs_events_new(&ev, max, &err), 0);
    assert_int_equal(rs__events_start(ev, packets, &err), 0);
    return ev;
}

/* Record i's kind, step and packet. */
static void expect(const struct rs_events *ev, uint64_t i, enum rs_event_kind kind,
                   uint32_t step, uint32_t packet)
{
    struct rs_event e;
    rs_events_get(ev, i, &e);
    assert_int_equal(e.kind, kind);
    assert_int_equal(e.step, step);
    assert_int_equal(e.packet, packet);
}

static void test_blocked_episodes(void **state)
{
    (void)state;
    struct rs_events *ev = new_log(0, 3);
    rs__events_put(ev, RS_EV_GENERATED, 0, 1, 5, NONE, NONE);
    rs__events_put(ev, RS_EV_BLOCKED, 1, 1, 5, 2, NONE); /* kept: its first step */
    rs__events_put(ev, RS_EV_BLOCKED, 2, 1, 5, 2, NONE); /* the same episode */
    rs__events_put(ev, RS_EV_BLOCKED, 2, 2, 6, 0, NONE); /* another packet */
    rs__events_put(ev, RS_EV_INJECTED, 3, 1, 5, 2, 1);   /* injected, then its hop */
    rs__events_put(ev, RS_EV_BLOCKED, 4, 1, 7, 0, NONE); /* a new episode */
    rs__events_put(ev, RS_EV_BLOCKED, 5, 1, 7, 0, NONE);
    rs__events_put(ev, RS_EV_DELIVERED, 6, 1, 8, NONE, NONE);
    assert_int_equal(rs_events_count(ev), 7);
    expect(ev, 0, RS_EV_GENERATED, 0, 1);
    expect(ev, 1, RS_EV_BLOCKED, 1, 1);
    expect(ev, 2, RS_EV_BLOCKED, 2, 2);
    expect(ev, 3, RS_EV_INJECTED, 3, 1);
    expect(ev, 4, RS_EV_HOP, 3, 1);
    expect(ev, 5, RS_EV_BLOCKED, 4, 1);
    expect(ev, 6, RS_EV_DELIVERED, 6, 1);
    struct rs_event e;
    rs_events_get(ev, 4, &e); /* the hop carries the injection's channel */
    assert_int_equal(e.node, 5);
    assert_int_equal(e.port, 2);
    assert_int_equal(e.vc, 1);
    rs_events_get(ev, 6, &e);
    assert_int_equal(e.port, NONE);
    assert_int_equal(e.vc, NONE);
    assert_int_equal(rs_events_truncated(ev), 0);
    rs_events_free(ev);
}

static void test_filters(void **state)
{
    (void)state;
    struct rs_err err;
    struct rs_events *ev = new_log(0, 100);
    /* unsorted, overlapping and adjacent ranges merge; 9 and 13 stay out */
    assert_int_equal(rs_events_filter(ev, RS_EVF_PACKETS, "20-30,3,10-12,4-8,25-40,12", &err), 0);
    assert_int_equal(rs_events_filter(ev, RS_EVF_STEPS, "0-5", &err), 0);
    for (uint32_t p = 0; p < 50; p++)
        rs__events_put(ev, RS_EV_HOP, 2, p, 0, 0, NONE);
    rs__events_put(ev, RS_EV_HOP, 6, 3, 0, 0, NONE); /* step out of the list */
    uint64_t n = rs_events_count(ev);
    assert_int_equal(n, 1 + 5 + 3 + 21); /* 3, 4-8, 10-12, 20-40 */
    uint32_t want = 3;
    for (uint64_t i = 0; i < n; i++, want++) {
        if (want == 9)
            want = 10;
        if (want == 13)
            want = 20;
        struct rs_event e;
        rs_events_get(ev, i, &e);
        assert_int_equal(e.step, 2);
        assert_int_equal(e.packet, want);
    }
    /* a blocked record filtered out still opens its episode */
    assert_int_equal(rs_events_filter(ev, RS_EVF_STEPS, "7", &err), 0);
    rs__events_put(ev, RS_EV_BLOCKED, 6, 3, 0, 0, NONE);
    rs__events_put(ev, RS_EV_BLOCKED, 7, 3, 0, 0, NONE);
    assert_int_equal(rs_events_count(ev), n);
    const char *bad[] = {"", "5-2", "1,,2", "x", "1-", "-3", "4294967295", "3 ", "1,2,"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(rs_events_filter(ev, RS_EVF_NODES, bad[i], &err), RS_EINVAL);
        assert_non_null(strstr(err.msg, "--events-nodes: expected numbers and ranges"));
    }
    rs_events_free(ev);
}

static void test_size_guard(void **state)
{
    (void)state;
    struct rs_err err;
    struct rs_events *ev;
    assert_int_equal(rs_events_new(&ev, RS_EVENTS_MAX_LIMIT + 1, &err), RS_EINVAL);
    ev = new_log(3, 10);
    assert_int_equal(rs_events_filter(ev, RS_EVF_NODES, "1", &err), 0);
    for (uint32_t i = 0; i < 10; i++)
        rs__events_put(ev, RS_EV_HOP, i, i, i % 2, 0, NONE); /* odd steps pass */
    assert_int_equal(rs_events_count(ev), 4);
    assert_int_equal(rs_events_truncated(ev), 1);
    expect(ev, 2, RS_EV_HOP, 5, 5);
    struct rs_event e;
    rs_events_get(ev, 3, &e); /* the marker: the step of the first record refused */
    assert_int_equal(e.kind, RS_EV_TRUNCATED);
    assert_int_equal(e.step, 7);
    assert_int_equal(e.packet, NONE);
    assert_int_equal(e.node, NONE);
    rs_events_free(ev);
}

static void test_binary_round_trip(void **state)
{
    (void)state;
    struct rs_err err;
    struct rs_events *ev = new_log(2, 4);
    rs__events_put(ev, RS_EV_GENERATED, 0, 0, 3, NONE, NONE);
    rs__events_put(ev, RS_EV_INJECTED, 1, 0, 3, 1, 63);
    rs__events_put(ev, RS_EV_DROPPED, 2, 0, 4, NONE, NONE);
    char dir[] = "/tmp/rs_events_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char bin[64], csv[64];
    snprintf(bin, sizeof bin, "%s/a.bin", dir);
    snprintf(csv, sizeof csv, "%s/a.csv", dir);
    assert_int_equal(rs_events_write(ev, bin, 1, &err), 0);
    assert_int_equal(rs_events_write(ev, csv, 0, &err), 0);
    const char *want = RS_EVENTS_CSV_HEADER "\n0,generated,0,3,,\n1,injected,0,3,1,63\n"
                                            "1,truncated,,,,\n";
    char data[256];
    FILE *fp = fopen(csv, "rb");
    size_t n = fread(data, 1, sizeof data - 1, fp);
    fclose(fp);
    data[n] = '\0';
    assert_string_equal(data, want);
    fp = fopen(bin, "rb");
    n = fread(data, 1, sizeof data, fp);
    fclose(fp);
    assert_int_equal(n, 16 + 3 * 16);
    assert_memory_equal(data, "RSEVENT1\x10\0\0\0\0\0\0\0", 16);
    /* record 2 (injected): step 1, packet 0, node 3, port 1, vc 63, kind 1 */
    assert_memory_equal(data + 32, "\x01\0\0\0\0\0\0\0\x03\0\0\0\x01\0\x3f\x01", 16);
    struct rs_buf out;
    rs_buf_init(&out);
    assert_int_equal(rs_events_bin_to_csv(data, n, "a.bin", &out, &err), 0);
    assert_string_equal(out.data, want);
    rs_buf_free(&out);
    rs_buf_init(&out);
    assert_int_equal(rs_events_bin_to_csv(data, n - 1, "a.bin", &out, &err), RS_EPARSE);
    assert_string_equal(err.msg, "a.bin: truncated record at byte 48");
    data[63] = 9; /* an unknown kind */
    assert_int_equal(rs_events_bin_to_csv(data, n, "a.bin", &out, &err), RS_EPARSE);
    assert_string_equal(err.msg, "a.bin: unknown event kind 9 at byte 48");
    assert_int_equal(rs_events_bin_to_csv("RSEVENT2", 8, "x", &out, &err), RS_EPARSE);
    assert_non_null(strstr(err.msg, "x: not a routesim event log"));
    rs_buf_free(&out);
    unlink(bin);
    unlink(csv);
    rmdir(dir);
    rs_events_free(ev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocked_episodes),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_size_guard),
        cmocka_unit_test(test_binary_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
