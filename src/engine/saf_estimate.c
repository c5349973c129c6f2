/* Memory estimate of switching=store_forward (rs_engine_ops.estimate): the arrays saf.c's
 * set-up allocates for the chosen queue_at, protocol and on_full, from the sizes alone, or
 * the leveled butterfly kernel's (saf_wave.c) for the runs it takes; and counts_paths, the
 * kernel's runs (it counts the routes' congestion itself). docs/resources.md. */
#include "engine/estimate_util.h"
#include "engine/saf.h"
#include "engine/saf_wave.h"
#include "routesim/net.h"

/* 1 when p (validated) is certainly a run that saf_kernel=auto gives the leveled kernel
 * (rs__saf_wave_fits and saf.c's choice, read from the parameters: no plan, direct routes,
 * batch); 0 when it may not be. *cap: its queue_size. */
static int kernel_run(const struct rs_engine_ops *self, const struct rs_net *net,
                      const struct rs_params *p, uint64_t *cap)
{
    const struct rs_param *k = rs_params_find(p, "saf_kernel"), *x;
    if (k && !strcmp(k->value, "general"))
        return 0;
    if (!rs__est_is(self, p, "queue_at", "input") || !rs__est_is(self, p, "protocol", "fifo") ||
        !rs__est_is(self, p, "on_full", "block") || rs_params_find(p, "queue_threshold"))
        return 0;
    int64_t q = rs__est_int(self, p, "queue_size", 0);
    if (q < 1 || q > SAF_WAVE_MAX_CAP)
        return 0;
    *cap = (uint64_t)q;
    if (((x = rs_params_find(p, "routing")) && strcmp(x->value, "direct")) ||
        ((x = rs_params_find(p, "algorithm")) && strcmp(x->value, "greedy")) ||
        ((x = rs_params_find(p, "check")) && strcmp(x->value, "0")) ||
        rs_params_find(p, "injection_process"))
        return 0;
    return (net->caps & RS_CAP_BUTTERFLY) && !net->wrap && net->max_ports == 2 &&
           net->log2n >= 1 && net->log2n <= 26 && net->N == (1u << net->log2n) &&
           net->n_levels == net->log2n + 1 && net->n_terminals == net->N;
}

int rs__saf_counts_paths(const struct rs_engine_ops *self, const struct rs_net *net,
                         const struct rs_params *p, int ranks)
{
    (void)ranks; /* the kernel counts them serially and over ranks */
    uint64_t cap;
    return kernel_run(self, net, p, &cap);
}

/* The kernel's peak, a model fitted to measured peaks (docs/resources.md): the sources'
 * positions (16 N), the message order of explicit sources (4 M) and K dense level sets of
 * 2N (1 + 8 cap) + N/4 bytes, K = 6 at one packet per input (measured: at most 4 dense
 * sets live or pooled and sparse tables worth up to 2 more) plus 8 per further packet per
 * input, at most n - 1. */
static uint64_t kernel_estimate(const struct rs_net *net, uint64_t M, uint64_t cap)
{
    uint64_t N = net->N, n = net->log2n;
    uint64_t per_input = (M + N - 1) / N;
    uint64_t K = 6 + 8 * (per_input ? per_input - 1 : 0);
    K = K < n - 1 ? K : n - 1;
    return 16 * N + 4 * M + K * (2 * N * (1 + 8 * cap) + N / 4 + 8) + 4096;
}

uint64_t rs__saf_estimate(const struct rs_engine_ops *self, const struct rs_net *net,
                          uint64_t n_msgs, const struct rs_params *p, int ranks)
{
    uint64_t V = net->n_nodes, T = net->n_terminals, M = n_msgs, cap;
    if (kernel_run(self, net, p, &cap)) /* over P ranks, 1/P of it on each (its rows) */
        return kernel_estimate(net, M, cap) / (uint64_t)(ranks > 1 ? ranks : 1);
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
    /* over P ranks (saf_dist.c, input queues): a rank holds about 1/P of the packets (each
     * slot with its source and message id) and touches 1/P of the queues (with its feeder
     * mark); the per-terminal and per-node arrays are whole */
    uint64_t P = ranks > 1 ? (uint64_t)ranks : 1, split = ranks > 1;
    return (M * (per_msg + 8 * split) + Q * (per_queue + 2 * split)) / P + T * per_term +
           V * (4 + 4) + V / 8 + 4096;
}
