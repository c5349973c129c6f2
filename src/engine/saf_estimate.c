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
    uint64_t nq = rs__est_is(self, p, "queue_at", "switch") ? 1 : net->max_ports, slots = 1;
    while (slots < nq)
        slots *= 2;
    /* packets: record, where, rank; moves: one per packet, with candidate lists (rank) */
    uint64_t per_msg = sizeof(struct saf_pkt) + 1 + sizeof(struct saf_move) +
                       (rank ? 2 + (input ? 0 : 4 + 8) : 0);
    /* queues, per slot of a record: head/tail/count, waiters (input, block), grants
     * (output, switch), sticky selection, candidates (rank); a record per node holding a
     * packet (saf_store.c): at most min(V, M), and the node back-pointer */
    uint64_t per_slot = sizeof(struct saf_queue) +
                        (input && rs__est_is(self, p, "on_full", "block") ? 4 : 0) +
                        (input ? 0 : 4) + (sticky ? 4 : 0) + (rank && !input ? 4 : 0);
    uint64_t recs = M < V ? M : V;
    /* the node index: a directory entry per 1024 nodes, a 4 KiB page per 1024 nodes at most
     * (and per record) */
    uint64_t index = (V / SAF_PG + 1) * 12 + 4 * (V < (uint64_t)SAF_PG * recs ? V : SAF_PG * recs);
    /* sources: store, selection, node, pending list, used ports, the driver's scratch, the
     * terminal of each source node */
    uint64_t per_term = sizeof(struct saf_queue) + 6 * 4;
    /* active nodes (bitmap, and the list: at most one per record or source), and the
     * channel counters (a byte per channel slot) */
    uint64_t act = 8 * (recs + T < V ? recs + T : V) + V / 8 + V * net->max_ports;
    return M * per_msg + recs * (slots * per_slot + 4) + index + T * per_term + act + 4096;
}
