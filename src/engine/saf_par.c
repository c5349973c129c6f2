/* One store-and-forward step on `threads` OpenMP threads (the run key threads=T, issue 23
 * item 2), with the serial step's outcome for every T (docs/model-saf.md, "Threads").
 * The step's active nodes (increasing) are split into T equal index ranges; thread j decides
 * range j into its own move list with a private copy of the engine's scalars. This is the
 * serial order cut in T pieces, valid where one node's decisions never read another's
 * (input queues, whose only feeder is one channel; protocol=rank, whose room is judged on
 * the start of the step). Output and switch queues, whose admissions depend on the order
 * of the feeders (or, with protocol=rank, on every candidate of a queue), take
 * saf_par_out.c's step instead, but for open-loop runs with protocol=rank. With
 * input queues (par_commit) every queue loses and gains at most one packet a step, so each
 * thread then applies its own moves: departures, a barrier, arrivals (counters per thread:
 * hops, delivered, dropped, max_queue, last_event, a latency histogram; summed or maxed in
 * thread order), the Valiant phase-A stores (several may enter one store) serially in move
 * order, and the clearing of emptied nodes; active bits are set and cleared atomically, so
 * the set is the serial one. Otherwise (open loop with input queues, or with output or
 * switch queues and protocol=rank) the move lists are joined in thread order and the rest
 * of the step is serial.
 * Small steps (fewer than SAF_PAR_MIN active nodes per thread) run serially: the same
 * outcome, no barriers. */
#include <omp.h>
#include <string.h>

#include "engine/saf.h"
#include "routesim/alloc.h"

/* Fewest active nodes per thread for which a step is split. */
#define SAF_PAR_MIN 32

void rs__saf_par_free(struct saf *s)
{
    if (!s->par)
        return;
    for (uint32_t j = 0; j <= s->threads; j++) {
        rs_free(s->par[j].buf);
        rs_free(s->par[j].idx);
        rs_free(s->par[j].off);
        rs_lat_hist_free(&s->par[j].lat);
    }
    rs_free(s->par);
    s->par = NULL;
}

void rs__saf_par_sum(struct saf *s, uint32_t nt)
{
    for (uint32_t k = 0; k < nt; k++) { /* in thread order */
        const struct saf *tc = &s->par[k].tc;
        s->n_moves += tc->n_moves;
        s->hops += tc->hops;
        s->delivered += tc->delivered;
        s->dropped += tc->dropped;
        s->remaining += tc->remaining; /* a count of decrements, modulo 2^64 */
        if (tc->max_queue > s->max_queue)
            s->max_queue = tc->max_queue;
        if (tc->last_event > s->last_event)
            s->last_event = tc->last_event;
    }
}

int rs__saf_par_merge(struct saf *s)
{
    for (uint32_t j = 0; s->par && j < s->threads; j++) {
        struct rs_lat_hist *h = &s->par[j].lat;
        for (uint32_t v = 0; v < h->cap; v++) {
            uint64_t c = h->count[v];
            if (!c)
                continue;
            if (rs_lat_hist_add(&s->lat, v))
                return RS_ENOMEM;
            s->lat.count[v] += c - 1;
            s->lat.n += c - 1;
        }
        rs_lat_hist_free(h);
        rs_lat_hist_init(h);
    }
    return 0;
}

int rs__saf_thr_room(struct saf_thr *th, uint64_t n)
{
    if (th->cap >= n)
        return 0;
    struct saf_move *b = rs_realloc(th->buf, (size_t)n * sizeof *b);
    if (!b)
        return RS_ENOMEM;
    th->buf = b;
    th->cap = n;
    return 0;
}

/* The serial step once the active nodes are listed. */
static int serial_rest(struct saf *s, uint32_t n_act)
{
    rs__saf_decide_span(s, 0, n_act);
    rs__saf_decide_rest(s);
    return rs__saf_commit(s);
}

int rs__saf_par_step(struct saf *s)
{
    uint32_t n_act = rs__saf_collect_active(s);
    if (n_act < (uint64_t)SAF_PAR_MIN * s->threads)
        return serial_rest(s, n_act);
    if (!s->par) {
        if (!(s->par = rs_calloc(s->threads + 1, sizeof *s->par)))
            return serial_rest(s, n_act);
        for (uint32_t j = 0; j <= s->threads; j++)
            rs_lat_hist_init(&s->par[j].lat);
    }
    if (!s->par_commit && !(s->cand && s->ol)) { /* output or switch queues (rank: batch) */
        int r = rs__saf_par_step_out(s, n_act);
        return r == 1 ? serial_rest(s, n_act) : r;
    }
    const int par_commit = s->par_commit && !s->ol;
    uint32_t nt_used = 1;
    int fail = 0, rc = 0;
    uint64_t n_store = 0;
#pragma omp parallel num_threads(s->threads)
    {
        uint32_t j = (uint32_t)omp_get_thread_num(), nt = (uint32_t)omp_get_num_threads();
        uint32_t a = (uint32_t)((uint64_t)n_act * j / nt),
                 b = (uint32_t)((uint64_t)n_act * (j + 1) / nt);
        struct saf_thr *th = &s->par[j];
#pragma omp single
        {
            nt_used = nt; /* the lists grow here, one thread (the allocator hook) */
            for (uint32_t k = 0; k < nt && !fail; k++) {
                uint64_t nk = (uint64_t)n_act * (k + 1) / nt - (uint64_t)n_act * k / nt;
                uint64_t need = nk * (s->P + 1); /* a node: a move per port, its source's */
                fail = rs__saf_thr_room(&s->par[k], need < s->moves_cap ? need : s->moves_cap);
            }
        } /* implied barrier: fail is read by all */
        if (!fail) {
            th->tc = *s;
            th->tc.moves = th->buf;
            th->tc.n_moves = 0;
            rs__saf_decide_span(&th->tc, a, b);
        }
        if (!fail && par_commit) {
            struct saf *tc = &th->tc;
#pragma omp barrier
            rs__saf_par_depart(s, th->buf, tc->n_moves);
            tc->hops = tc->delivered = tc->dropped = tc->remaining = tc->n_store = 0;
            tc->max_queue = tc->last_event = 0;
            tc->lat = th->lat;
#pragma omp barrier
            int r = rs__saf_par_arrive(tc, th->buf, tc->n_moves);
            th->lat = tc->lat;
            if (r) {
#pragma omp atomic write
                rc = r;
            }
#pragma omp atomic update
            n_store += tc->n_store;
#pragma omp barrier
#pragma omp single
            for (uint32_t k = 0; n_store && k < nt; k++) /* in move order */
                rs__saf_par_stores(s, s->par[k].buf, s->par[k].tc.n_moves);
            if (!s->waiter)
                rs__saf_par_clear(s, th->buf, tc->n_moves);
        }
    }
    if (fail)
        return serial_rest(s, n_act);
    if (!par_commit) { /* the lists joined in thread order: the serial list */
        s->n_moves = 0;
        for (uint32_t k = 0; k < nt_used; k++) {
            memcpy(s->moves + s->n_moves, s->par[k].buf,
                   (size_t)s->par[k].tc.n_moves * sizeof *s->moves);
            s->n_moves += s->par[k].tc.n_moves;
        }
        rs__saf_decide_rest(s);
        return rs__saf_commit(s);
    }
    s->n_moves = 0;
    rs__saf_par_sum(s, nt_used);
    return rc;
}
