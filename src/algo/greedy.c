/* algorithm=greedy: every message follows its route and the engine's own rules decide
 * every conflict (the queueing protocol, the circuit policy, the flit arbitration). */
#include "routesim/algo.h"

static int greedy_run(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                      struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                      struct rs_err *err)
{
    return rs_engine_run(engine, in, out, deadlock_msg, deadlock_len, err);
}

const struct rs_algo_ops rs_algo_greedy = {
    .name = "greedy",
    .summary = "every message follows its route; the engine's rules resolve conflicts",
    .options = NULL,
    .switching = NULL,
    .needs = 0,
    .run = greedy_run,
};
