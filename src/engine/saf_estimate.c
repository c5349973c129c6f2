/* Memory estimate of switching=store_forward (rs_engine_ops.estimate): the arrays saf.c's
 * set-up allocates for the chosen queue_at, protocol and on_full, from the sizes alone.
 * docs/resources.md. */
#include "engine/estimate_util.h"
#include "engine/saf.h"

uint64_t rs__saf_estimate(const struct rs_engine_ops *self, const struct rs_net *net,
                          uint64_t n_msgs, const struct rs_params *p)
{
    uint64_t V = net->n_nodes, T = net->n_terminals, M = n_msgs;
    int input = rs__est_is(self, p, "queue_at", "input");
    int rank = rs__est_is(self, p, "protocol", "rank");
    int sticky = rank || rs__est_is(self, p, "protocol", "random") ||
                 rs__est_is(self, p, "protocol", "priority");
    uint64_t Q = rs__est_is(self, p, "queue_at", "switch") ? V : V * net->max_ports;
    /* packets: record, where, rank; moves: one per packet, with candidate lists (rank) */
    uint64_t per_msg = sizeof(struct saf_pkt) + 1 + sizeof(struct saf_move) +
                       (rank ? 2 + (input ? 0 : 4 + 8) : 0);
    /* queues: head/tail/count, waiters (input, block), grants (output, switch), sticky
     * selection, candidates (rank) */
    uint64_t per_queue = sizeof(struct saf_queue) +
                         (input && rs__est_is(self, p, "on_full", "block") ? 4 : 0) +
                         (input ? 0 : 4) + (sticky ? 4 : 0) + (rank && !input ? 4 : 0);
    /* sources: store, selection, node, pending list, used ports, the driver's scratch */
    uint64_t per_term = sizeof(struct saf_queue) + 5 * 4;
    return M * per_msg + Q * per_queue + T * per_term + V * (4 + 4) + V / 8 + 4096;
}
