/* algorithm=twice (scratch, how-to check): runs the engine twice, records the second run. */
#include "routesim/algo.h"

static int twice_run(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                     struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                     struct rs_err *err)
{
    struct rs_record first;
    rs_record_init(&first);
    int rc = rs_engine_run(engine, in, &first, deadlock_msg, deadlock_len, err);
    rs_record_free(&first);
    return rc ? rc : rs_engine_run(engine, in, out, deadlock_msg, deadlock_len, err);
}

const struct rs_algo_ops rs_algo_twice = {
    .name = "twice",
    .summary = "runs the engine twice (scratch)",
    .run = twice_run,
};
