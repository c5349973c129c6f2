/* Memory estimate of a workload before it is built (rs_problem_estimate): the message set
 * N x per_input and a generator's scratch, from the sizes alone. docs/resources.md. */
#include "routesim/problem.h"

uint64_t rs_problem_estimate(const struct rs_net *net, const struct rs_params *p,
                             uint64_t *n_msgs)
{
    int idx = 0;
    int64_t q = 1;
    *n_msgs = 0;
    if (rs_opt_choice(p, rs_problem_options, "traffic", &idx, NULL) ||
        rs_opt_int(p, rs_problem_options, "per_input", &q, NULL) || rs_traffics[idx]->build)
        return 0; /* sized by its input file: known once built */
    *n_msgs = (uint64_t)net->n_terminals * (uint64_t)q;
    /* dst[] of every message; a generator's per-terminal scratch (a permutation) */
    return *n_msgs * sizeof(uint32_t) + (uint64_t)net->n_terminals * 8;
}
