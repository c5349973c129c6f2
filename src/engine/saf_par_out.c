/* The threaded step (threads=T) for output and switch queues, whose admissions into a queue
 * depend on the order of its feeders (docs/model-saf.md, "One step" 5 and "Threads") or,
 * with protocol=rank, on all of its candidates at once. A node's offers read only the
 * state at the start of the step; what depends on other nodes is whether a queue still has
 * room when a feeder's turn comes, turns taken in the serial order (increasing switch id,
 * then port; then the switch-queue injections by terminal). So the step is cut in four:
 *  1. decide: thread j decides its share of the active nodes (saf_par.c's ranges) without
 *     counting admissions: each offer whose next queue has room at the start of the step
 *     becomes a candidate; the others are dropped or wait as the serial step would (room
 *     only shrinks during a step). It groups its moves into queues by the thread owning
 *     the queue (a node's queues belong to its block of 64 nodes, blocks dealt round
 *     robin), each group in move order;
 *  2. admit: thread k walks the groups addressed to it in thread order, which is the serial
 *     order of every feeder of each of its queues, and grants room exactly as the serial
 *     step does (protocol=rank: by rank, ties to the earlier move of the joined list, as
 *     admit_by_rank); a refused candidate is dropped (on_full=drop) or waits, and a waiting
 *     switch-queue packet leaves its channel to the node's source;
 *  3. inject (switch queues): one thread runs the serial injection loop into the room left
 *     (protocol=rank: its candidates, then their admission by rank);
 *  4. commit: each thread departs its own moves (a queue loses at most one packet) and
 *     counts the channels they cross (congestion);
 *     barrier; thread k pushes the arrivals into its queues group by group (the serial
 *     order per queue), each thread counts its own deliveries and drops (sums and maxima,
 *     latency histograms, merged as saf_par.c does), the ends of Valiant's phase A enter
 *     their stores serially in move order, and emptied nodes leave the active set.
 * In open loop steps 1-2 are threaded, then the lists are joined (the serial list) and the
 * rest is serial, as in saf_par.c (protocol=rank in open loop takes saf_par.c's step). */
#include <omp.h>
#include <string.h>

#include "engine/saf.h"
#include "routesim/alloc.h"

/* Thread (of nt) that owns queue q: its node's block of 64 nodes, dealt round robin, so
 * each thread's queues are spread over the network (a butterfly's wave occupies a few
 * levels) and no two threads push into one cache line of queues or active bits. */
static inline uint32_t owner(const struct saf *s, uint32_t q, uint32_t nt)
{
    uint32_t b = saf_queue_node(s, q) >> 6;
    return nt & (nt - 1) ? b % nt : b & (nt - 1);
}

/* Group the moves into queues of mv[0, n) by owner into g->idx (positions in mv, in
 * order), thread k's group at idx[off[k], off[k+1]); off has room for 2 (nt + 1). */
static void group(const struct saf *s, struct saf_thr *g, const struct saf_move *mv,
                  uint64_t n, uint32_t nt)
{
    uint32_t *off = g->off, *cur = g->off + nt + 1;
    memset(off, 0, (nt + 1) * sizeof *off);
    for (uint64_t i = 0; i < n; i++)
        if (mv[i].to < SAF_VOID)
            off[owner(s, mv[i].to, nt) + 1]++;
    for (uint32_t k = 0; k < nt; k++)
        off[k + 1] += off[k];
    memcpy(cur, off, nt * sizeof *cur);
    for (uint64_t i = 0; i < n; i++)
        if (mv[i].to < SAF_VOID)
            g->idx[cur[owner(s, mv[i].to, nt)]++] = (uint32_t)i;
}

/* Prefetch distance of the admissions (candidates): the queues do not fit in cache. */
#define SAF_ADMIT_PF 16

/* Thread k's admissions (bounded queues, not queue_threshold): the candidates into its
 * queues, thread by thread, each group in move order: the serial order of the feeders. A
 * queue admits while its occupancy at the start of the step plus its admissions so far
 * is below capacity (has_room in saf.c); the rest are dropped or refused (SAF_VOID). */
static void admit(struct saf *s, uint32_t k, uint32_t nt)
{
    const int drop = s->on_full == SAF_DROP, sw = s->at == SAF_AT_SWITCH;
    for (uint32_t j = 0; j < nt; j++) {
        const struct saf_thr *g = &s->par[j];
        for (uint32_t i = g->off[k], e = g->off[k + 1]; i < e; i++) {
            struct saf_move *mv = &g->buf[g->idx[i]];
            if (i + SAF_ADMIT_PF < e) { /* its queue's lines, a few candidates ahead */
                uint32_t ahead = g->buf[g->idx[i + SAF_ADMIT_PF]].to;
                __builtin_prefetch(&s->q[ahead]);
                __builtin_prefetch(&s->granted[ahead], 1);
            }
            if (s->q[mv->to].count + s->granted[mv->to] < s->cap) {
                s->granted[mv->to]++;
                continue;
            }
            if (drop) { /* the channel is used by the packet dropped */
                mv->to = SAF_DROP_TO;
                continue;
            }
            mv->to = SAF_VOID; /* waits; a switch's one offer frees its channel */
            for (uint32_t t = sw && mv->node < s->n_node_src ? s->node_src[mv->node] : RS_NONE;
                 t != RS_NONE; t = s->src_next[t])
                s->src_used[t] &= ~(1u << s->pkt[mv->pkt].port);
        }
    }
}

/* The candidate at index gi of the joined list (the threads' lists in thread order). */
static struct saf_move *joined(struct saf *s, uint32_t nt, uint64_t gi)
{
    uint32_t j = nt - 1;
    while (s->par[j].base > gi)
        j--;
    return &s->par[j].buf[gi - s->par[j].base];
}

/* saf_rank_settle's refusal of the joined list's move i (ctx: the threads' count): dropped,
 * or waiting, when a switch-queue packet frees its channel for the node's source. */
static void refuse_joined(struct saf *s, uint64_t i, void *ctx)
{
    const int drop = s->on_full == SAF_DROP;
    struct saf_move *mv = joined(s, *(const uint32_t *)ctx, i);
    mv->to = drop ? SAF_DROP_TO : SAF_VOID;
    /* a waiting switch-queue packet frees its channel for the node's sources */
    for (uint32_t t = !drop && s->at == SAF_AT_SWITCH && mv->node < s->n_node_src
                          ? s->node_src[mv->node]
                          : RS_NONE;
         t != RS_NONE; t = s->src_next[t])
        s->src_used[t] &= ~(1u << s->pkt[mv->pkt].port);
}

/* protocol=rank: thread k's admissions by rank, admit_by_rank of saf.c on each of its
 * queues: a queue with room for fewer than its candidates admits those with the largest
 * key, equal keys to the earlier move of the joined list (its index there is the serial
 * one). The lists of candidates per queue (cand, cnext, ckey) are indexed by those
 * indices, and each queue's are written by its owner alone. */
static void admit_rank(struct saf *s, uint32_t k, uint32_t nt)
{
    for (uint32_t j = 0; j < nt; j++) {
        const struct saf_thr *g = &s->par[j];
        for (uint32_t i = g->off[k]; i < g->off[k + 1]; i++) {
            const struct saf_move *mv = &g->buf[g->idx[i]];
            uint64_t gi = g->base + g->idx[i];
            s->ckey[gi] = rs__saf_rank_key(s, mv);
            s->cnext[gi] = s->cand[mv->to];
            s->cand[mv->to] = (uint32_t)(gi + 1);
        }
    }
    for (uint32_t j = 0; j < nt; j++) {
        const struct saf_thr *g = &s->par[j];
        for (uint32_t i = g->off[k]; i < g->off[k + 1]; i++) {
            uint32_t to = g->buf[g->idx[i]].to;
            if (to >= SAF_VOID || !s->cand[to])
                continue; /* refused, or its queue is settled */
            saf_rank_settle(s, to, s->thr, refuse_joined, &nt);
        }
    }
}

/* The moves of mv[0, n) kept (refused candidates removed). */
static uint64_t kept(const struct saf_move *mv, uint64_t n)
{
    uint64_t c = 0;
    for (uint64_t i = 0; i < n; i++)
        c += mv[i].to != SAF_VOID;
    return c;
}

/* Room in every thread's lists for a share of n_act nodes (nt threads) and, with switch
 * queues, in the injections' groups. Returns 0 or RS_ENOMEM. */
static int room(struct saf *s, uint32_t n_act, uint32_t nt)
{
    struct saf_thr *inj = &s->par[s->threads];
    for (uint32_t k = 0; k <= nt; k++) {
        struct saf_thr *th = k < nt ? &s->par[k] : inj;
        uint64_t nk = (uint64_t)n_act * (k + 1) / nt - (uint64_t)n_act * k / nt;
        uint64_t need = k < nt ? nk * s->P : s->n_src; /* a move per queue; per source */
        need = need < s->moves_cap ? need : s->moves_cap;
        if ((k < nt && rs__saf_thr_room(th, need)) || (!th->off &&
            !(th->off = rs_malloc(2 * ((size_t)s->threads + 1) * sizeof *th->off))))
            return RS_ENOMEM;
        if (th->idx_cap < need) {
            uint32_t *x = rs_realloc(th->idx, (size_t)need * sizeof *x);
            if (!x)
                return RS_ENOMEM;
            th->idx = x;
            th->idx_cap = need;
        }
    }
    return 0;
}

int rs__saf_par_step_out(struct saf *s, uint32_t n_act)
{
    const int rank = s->cand != NULL, ol = s->ol != NULL, sw = s->at == SAF_AT_SWITCH;
    const int admitting = s->cap && (rank || !s->thr); /* else the start of the step decided */
    struct saf_thr *inj = &s->par[s->threads];
    uint32_t nt_used = 1;
    uint64_t n_inj = 0, n_store = 0;
    int fail = 0, rc = 0;
#pragma omp parallel num_threads(s->threads)
    {
        uint32_t j = (uint32_t)omp_get_thread_num(), nt = (uint32_t)omp_get_num_threads();
        struct saf_thr *th = &s->par[j];
        struct saf *tc = &th->tc;
#pragma omp single
        {
            nt_used = nt;
            fail = room(s, n_act, nt); /* the lists grow here, one thread (the alloc hook) */
        } /* implied barrier: fail is read by all */
        if (!fail) {
            *tc = *s;
            tc->moves = th->buf;
            tc->n_moves = 0;
            tc->grant = NULL; /* candidates: admitted below */
            rs__saf_decide_span(tc, (uint32_t)((uint64_t)n_act * j / nt),
                                (uint32_t)((uint64_t)n_act * (j + 1) / nt));
            if (admitting || !ol)
                group(s, th, th->buf, tc->n_moves, nt);
        }
        if (!fail && admitting) {
#pragma omp barrier
            if (rank) {
                th->base = 0; /* its moves' place in the joined list */
                for (uint32_t k = 0; k < j; k++)
                    th->base += s->par[k].tc.n_moves;
#pragma omp barrier
                admit_rank(s, j, nt);
            } else {
                admit(s, j, nt);
            }
        }
        if (!fail && !ol) {
#pragma omp barrier
            if (sw) {
#pragma omp single
                { /* the serial injections, into the room the network left */
                    s->n_moves = 0;
                    rs__saf_decide_rest(s);
                    n_inj = s->n_moves;
                    group(s, inj, s->moves, n_inj, nt);
                } /* implied barrier */
            }
            rs__saf_par_depart_load(s, th->buf, tc->n_moves);
            if (j == 0)
                rs__saf_par_depart_load(s, s->moves, n_inj);
            tc->hops = tc->delivered = tc->dropped = tc->remaining = tc->n_store = 0;
            tc->max_queue = tc->last_event = 0;
            tc->lat = th->lat;
#pragma omp barrier
            int r = rs__saf_par_arrive_out(tc, th->buf, tc->n_moves);
            if (!r && j == 0)
                r = rs__saf_par_arrive_out(tc, s->moves, n_inj);
            for (uint32_t k = 0; k < nt; k++) { /* thread order: each queue's serial order */
                const struct saf_thr *g = &s->par[k];
                rs__saf_par_arrive_in(tc, g->buf, g->idx + g->off[j],
                                      g->off[j + 1] - g->off[j]);
            }
            if (n_inj)
                rs__saf_par_arrive_in(tc, s->moves, inj->idx + inj->off[j],
                                      inj->off[j + 1] - inj->off[j]);
            th->lat = tc->lat;
            if (r) {
#pragma omp atomic write
                rc = r;
            }
#pragma omp atomic update
            n_store += tc->n_store;
#pragma omp barrier
            if (n_store) { /* read after the barrier: the same on every thread */
#pragma omp single
                { /* in move order */
                    for (uint32_t k = 0; k < nt; k++)
                        rs__saf_par_stores(s, s->par[k].buf, s->par[k].tc.n_moves);
                    rs__saf_par_stores(s, s->moves, n_inj);
                } /* implied barrier */
            }
            rs__saf_par_clear(s, th->buf, tc->n_moves);
            if (j == 0)
                rs__saf_par_clear(s, s->moves, n_inj);
            tc->n_moves = kept(th->buf, tc->n_moves); /* read after the region */
        }
    }
    if (fail)
        return 1;
    if (ol) { /* the kept moves joined in thread order (the serial list); the rest serial */
        s->n_moves = 0;
        for (uint32_t k = 0; k < nt_used; k++) {
            const struct saf_thr *g = &s->par[k];
            for (uint64_t i = 0; i < g->tc.n_moves; i++)
                if (g->buf[i].to != SAF_VOID)
                    s->moves[s->n_moves++] = g->buf[i];
        }
        rs__saf_decide_rest(s);
        return rs__saf_commit(s);
    }
    s->n_moves = n_inj;
    rs__saf_par_sum(s, nt_used);
    return rc;
}
