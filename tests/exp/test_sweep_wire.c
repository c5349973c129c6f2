/* Bytes of a sweep's tasks and replies between processes (src/exp/sweep_wire.c): a task
 * read back gives the same parameters; a served task's record writes the same CSV bytes as
 * the run made here; a run's error travels with its message; damaged messages are refused. */
#include "rs_test.h"

#include "exp/sweep_wire.h"

static void task_round_trip(void **state)
{
    (void)state;
    struct rs_params p, q;
    struct rs_buf b;
    uint64_t t = 0;
    rs_test_params(&p, "topology=butterfly N=16 traffic=uniform seed=12345");
    assert_int_equal(rs_params_set(&p, "queue_size", "2", "grid.ini", 7, NULL), 0);
    rs_buf_init(&b);
    assert_int_equal(rs__wire_task(&b, 41, &p), 0);
    assert_int_equal(rs__wire_task_read(b.data, b.len, &t, &q), 0);
    assert_int_equal(t, 41);
    assert_int_equal(q.n, p.n);
    for (size_t i = 0; i < p.n; i++) {
        assert_string_equal(q.v[i].key, p.v[i].key);
        assert_string_equal(q.v[i].value, p.v[i].value);
        assert_int_equal(q.v[i].line, p.v[i].line);
        if (p.v[i].origin)
            assert_string_equal(q.v[i].origin, p.v[i].origin);
        else
            assert_null(q.v[i].origin);
    }
    rs_params_free(&q);
    /* every cut of the message is refused */
    for (size_t cut = 0; cut < b.len; cut++) {
        assert_int_equal(rs__wire_task_read(b.data, cut, &t, &q), RS_EINVAL);
        rs_params_free(&q);
    }
    rs_params_free(&p);
    rs_buf_free(&b);
}

/* A served task gives the record rs_run gives here, field for field and byte for byte. */
static void serve_same_bytes(void **state)
{
    (void)state;
    const char *kv[] = {"topology=butterfly N=32 traffic=uniform queue_size=2 seed=99",
                        "topology=mesh k=4 n=2 traffic=randperm switching=wormhole seed=7"};
    for (size_t c = 0; c < 2; c++) {
        struct rs_params p;
        struct rs_record here, there;
        struct rs_buf task, reply, a, b;
        struct rs_err err, run_err;
        uint64_t t = 0;
        int run_rc = -1;
        rs_test_params(&p, kv[c]);
        rs_record_init(&here);
        rs_record_init(&there);
        rs_buf_init(&task);
        rs_buf_init(&reply);
        rs_buf_init(&a);
        rs_buf_init(&b);
        assert_int_equal(rs_run(&p, &here, NULL, 0, &err), 0);
        assert_int_equal(rs__wire_task(&task, 5, &p), 0);
        assert_int_equal(rs__wire_serve(task.data, task.len, &reply), 0);
        assert_int_equal(rs__wire_reply_read(reply.data, reply.len, &t, &run_rc, &run_err, &there),
                         0);
        assert_int_equal(t, 5);
        assert_int_equal(run_rc, 0);
        assert_int_equal(there.n, here.n);
        assert_int_equal(there.n_params, here.n_params);
        assert_int_equal(rs_record_csv_header(&a, &here), 0);
        assert_int_equal(rs_record_csv_row(&a, &here), 0);
        assert_int_equal(rs_record_csv_header(&b, &there), 0);
        assert_int_equal(rs_record_csv_row(&b, &there), 0);
        assert_int_equal(a.len, b.len);
        assert_memory_equal(a.data, b.data, a.len);
        /* a damaged reply is refused */
        rs_record_free(&there);
        rs_record_init(&there);
        assert_int_equal(rs__wire_reply_read(reply.data, reply.len - 1, &t, &run_rc, &run_err,
                                             &there),
                         RS_EINVAL);
        rs_params_free(&p);
        rs_record_free(&here);
        rs_record_free(&there);
        rs_buf_free(&task);
        rs_buf_free(&reply);
        rs_buf_free(&a);
        rs_buf_free(&b);
    }
}

/* A run that fails on the worker sends its code and message, and no record. */
static void serve_error(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_record here, there;
    struct rs_buf task, reply;
    struct rs_err err, run_err;
    uint64_t t = 0;
    int run_rc = 0;
    rs_test_params(&p, "topology=butterfly N=12 traffic=uniform");
    rs_record_init(&here);
    rs_record_init(&there);
    rs_buf_init(&task);
    rs_buf_init(&reply);
    rs_err_clear(&err);
    int rc = rs_run(&p, &here, NULL, 0, &err);
    assert_true(rc < 0);
    assert_int_equal(rs__wire_task(&task, 3, &p), 0);
    assert_int_equal(rs__wire_serve(task.data, task.len, &reply), 0);
    assert_int_equal(rs__wire_reply_read(reply.data, reply.len, &t, &run_rc, &run_err, &there), 0);
    assert_int_equal(run_rc, rc);
    assert_int_equal(run_err.code, err.code);
    assert_string_equal(run_err.msg, err.msg);
    assert_int_equal(there.n, 0);
    rs_params_free(&p);
    rs_record_free(&here);
    rs_record_free(&there);
    rs_buf_free(&task);
    rs_buf_free(&reply);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(task_round_trip),
        cmocka_unit_test(serve_same_bytes),
        cmocka_unit_test(serve_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
