/* Memory estimate of switching=circuit (rs_engine_ops.estimate): the arrays circuit.c's
 * set-up allocates, from the sizes alone; a message's path is bounded by rs__est_path.
 * docs/resources.md. */
#include "engine/circuit.h"
#include "engine/estimate_util.h"

uint64_t rs__circuit_estimate(const struct rs_engine_ops *self, const struct rs_net *net,
                              uint64_t n_msgs, const struct rs_params *p, int ranks)
{
    (void)self;
    (void)ranks; /* over MPI ranks part of its state is replicated: the whole estimate */
    uint64_t M = n_msgs, T = net->n_terminals, L = rs__est_path(net, p);
    uint64_t n_ch = (uint64_t)net->n_nodes * net->max_ports;
    /* per message: state, finish, pending, active, failed, LCAN turn/pos/slot/order, rank,
     * path offset, requests (req, grp, run) and their counting buckets */
    uint64_t per_msg = 1 + 4 + 4 + 4 + 1 + 1 + 4 + 4 + 4 + 4 + 8 +
                       2 * sizeof(struct circ_req) + sizeof(struct circ_ranked) + 4;
    /* per hop of a path: the channel and the touched list (and the checker's copy) */
    uint64_t per_hop = 4 + 4;
    return M * (per_msg + L * per_hop) + n_ch * (2 + 2) + T * 4 + (1u << 18) * 4 + 4096;
}
