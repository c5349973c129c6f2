/* traffic=reverse (scratch, how-to check): terminal s sends every message to N-1-s. */
#include "routesim/problem.h"

static const struct rs_optdef no_options[] = {{NULL, 0, NULL, 0, 0, NULL, NULL}};

static int reverse_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                            uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    uint32_t n = net->n_terminals;
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t j = 0; j < per_input; j++)
            dst[(uint64_t)s * per_input + j] = n - 1 - s;
    return 0;
}

const struct rs_traffic_ops rs__traffic_reverse = {
    .name = "reverse",
    .summary = "terminal s sends to N-1-s (scratch)",
    .options = no_options,
    .generate = reverse_generate,
};
