/* router=iq's router phase on `threads` OpenMP threads (the run key threads=T, issue 23
 * item 2), with the serial phase's outcome for every T (docs/model-iq.md, "Threads").
 * Within a cycle a router reads and writes only its own state: what it sends (flits,
 * credits) is read by another router or terminal in a later cycle, through lists and slots
 * of the channel rings that the phase only appends to. So the busy routers are cut into T
 * parts of whole 64-bit words of the busy set (each part owns its words of busy and wbusy),
 * contiguous and in increasing order, balanced by busy routers; part j runs its routers'
 * cycles and then their writes. Part 0 runs on the engine's own state; part j > 0 on a copy
 * of the engine's scalars (struct flit, struct iq) with its own allocator scratch, its own
 * counters and its own lists (flits written, credits written, ejections set); after the
 * phase those are appended (lists), ORed (ejections) or summed and maxed (counters) in part
 * order, which is the serial order of the routers, so every list is the serial one. Cycles
 * with fewer than IQ_PAR_MIN busy routers per part or with all of them in one part, and runs
 * with an event log (one log, written in the routers' order), run serially: the same
 * outcome. */
#include <omp.h>
#include <string.h>

#include "engine/iq_impl.h"
#include "routesim/alloc.h"

/* Fewest busy routers per part for which a cycle is split. */
#define IQ_PAR_MIN 16

/* One part of the router phase: the routers of words [w0, w1) of the busy set. Part j > 0
 * runs on f and q, copies of the engine's made for each split cycle, pointing at its own
 * scratch and lists below (part 0 uses the engine's). */
struct iq_part {
    struct flit f;
    struct iq q;
    uint32_t w0, w1;
    int rc;
    struct rs_err err;
    int32_t *scratch;    /* the allocators' match and best arrays (q->scratch's layout) */
    struct iq_req *vreq, *sreq;
    int32_t *sreq_at;
    /* its lists, grown to the most its routers can write in a cycle (room_for): at most one
     * flit per output channel, one credit per input channel and one per source terminal */
    struct iq_fev *evf;  /* [cap_chan] flits written */
    uint32_t *cy, *evc;  /* [cap_chan] credits written (cy0: output VCs; else channels) */
    uint32_t *evj;       /* [cap_src] terminals with a credit to their source */
    uint64_t cap_chan, cap_src;
    uint64_t *ejm;       /* [wT] terminals with a flit to eject, all 0 between cycles */
};

/* Words of the allocators' scratch (rs__iq_init's layout). */
static uint32_t scratch_words(const struct iq *q)
{
    return 2 * (q->NI * q->B + q->NO * q->B) + 2 * (q->NIe + q->NOe);
}

int rs__iq_par_init(struct flit *f, struct iq *q)
{
    if (f->threads <= 1)
        return 0;
    q->part = rs_calloc(f->threads, sizeof *q->part);
    if (!q->part)
        return RS_ENOMEM;
    q->n_part = f->threads;
    uint32_t ns = scratch_words(q), nx = q->NIe * q->NOe;
    for (uint32_t j = 1; j < q->n_part; j++) {
        struct iq_part *pt = &q->part[j];
        pt->scratch = rs_malloc((size_t)ns * sizeof *pt->scratch + 1);
        pt->vreq = rs_malloc((size_t)q->max_vreq * sizeof *pt->vreq + 1);
        pt->sreq = rs_malloc((size_t)nx * sizeof *pt->sreq + 1);
        pt->sreq_at = rs_malloc((size_t)nx * sizeof *pt->sreq_at + 1);
        pt->ejm = rs_calloc(q->wT + 1, sizeof *pt->ejm);
        pt->evf = rs_malloc(sizeof *pt->evf); /* (room_for grows them) */
        pt->cy = rs_malloc(sizeof *pt->cy);
        pt->evc = rs_malloc(sizeof *pt->evc);
        pt->evj = rs_malloc(sizeof *pt->evj);
        if (!pt->scratch || !pt->vreq || !pt->sreq || !pt->sreq_at || !pt->ejm || !pt->evf ||
            !pt->cy || !pt->evc || !pt->evj)
            return RS_ENOMEM;
        for (uint32_t i = 0; i < ns; i++)
            pt->scratch[i] = -1;
        for (uint32_t i = 0; i < nx; i++)
            pt->sreq_at[i] = -1;
    }
    return 0;
}

void rs__iq_par_free(struct iq *q)
{
    for (uint32_t j = 0; q->part && j < q->n_part; j++) {
        struct iq_part *pt = &q->part[j];
        void *arrs[] = {pt->scratch, pt->vreq, pt->sreq, pt->sreq_at, pt->evf,
                        pt->cy,      pt->evc,  pt->evj,  pt->ejm};
        for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++)
            rs_free(arrs[i]);
    }
    rs_free(q->part);
    q->part = NULL;
}

/* Cut words [0, wN) of the busy set into the n_part parts, contiguous and in increasing
 * order, part j starting at the first word with at least total * j / n_part busy routers
 * (total of them) before it. Returns the number of parts that have a busy router. */
static uint32_t cut_parts(struct iq *q, uint64_t total)
{
    const uint32_t T = q->n_part;
    uint32_t j = 1, used = 0;
    uint64_t cum = 0, at_w0 = 0;
    q->part[0].w0 = 0;
    for (uint32_t w = 0; w < q->wN; w++) {
        for (; j < T && cum >= total * j / T; j++) {
            q->part[j].w0 = w;
            used += cum > at_w0; /* part j - 1 has busy routers */
            at_w0 = cum;
        }
        cum += (uint64_t)__builtin_popcountll(q->busy[w]);
    }
    for (; j < T; j++) {
        q->part[j].w0 = q->wN;
        used += cum > at_w0;
        at_w0 = cum;
    }
    used += cum > at_w0; /* the last part */
    for (j = 0; j < T; j++)
        q->part[j].w1 = j + 1 < T ? q->part[j + 1].w0 : q->wN;
    return used;
}

/* Grow the array ptr to n elements (ptr is set only on success). Evaluates to 0, or
 * RS_ENOMEM with the array kept. */
#define GROW(ptr, n, b)                                                                        \
    (((b) = rs_realloc((ptr), (size_t)(n) * sizeof *(ptr) + 1)) ? ((ptr) = (b), 0) : RS_ENOMEM)

/* Room in part j's lists (j > 0) for what the routers of its words can write in a cycle:
 * a flit per output channel and a credit per input channel of a network port (P per
 * router), a credit per source terminal. Returns 0 or RS_ENOMEM. */
static int room_for(struct iq *q, uint32_t j)
{
    struct iq_part *pt = &q->part[j];
    uint64_t n0 = (uint64_t)pt->w0 * 64u, n1 = (uint64_t)pt->w1 * 64u;
    if (n1 > q->n_nodes)
        n1 = q->n_nodes;
    if (n0 >= n1)
        return 0;
    uint64_t chan = (n1 - n0) * q->P, src = q->src_of[n1] - q->src_of[n0];
    void *b;
    if (chan > pt->cap_chan) {
        if (GROW(pt->evf, chan, b) || GROW(pt->cy, chan, b) || GROW(pt->evc, chan, b))
            return RS_ENOMEM;
        pt->cap_chan = chan;
    }
    if (src > pt->cap_src) {
        if (GROW(pt->evj, src, b))
            return RS_ENOMEM;
        pt->cap_src = src;
    }
    return 0;
}

/* Make part j's copies of the engine's scalars for this cycle (j > 0). */
static void part_copy(struct flit *f, struct iq *q, uint32_t j)
{
    struct iq_part *pt = &q->part[j];
    pt->f = *f;
    pt->f.step_moves = pt->f.flit_hops = pt->f.blocked = 0;
    struct iq *c = &pt->q;
    *c = *q;
    c->part = NULL;
    c->carry = 0;
    c->n_vreq = c->n_sreq = 0;
    /* the allocators' scratch: the same layout in the part's array */
    c->scratch = pt->scratch;
    c->vaa.inmatch = pt->scratch + (q->vaa.inmatch - q->scratch);
    c->vaa.outmatch = pt->scratch + (q->vaa.outmatch - q->scratch);
    c->vaa.in_best = pt->scratch + (q->vaa.in_best - q->scratch);
    c->vaa.out_best = pt->scratch + (q->vaa.out_best - q->scratch);
    c->saa.inmatch = pt->scratch + (q->saa.inmatch - q->scratch);
    c->saa.outmatch = pt->scratch + (q->saa.outmatch - q->scratch);
    c->saa.in_best = pt->scratch + (q->saa.in_best - q->scratch);
    c->saa.out_best = pt->scratch + (q->saa.out_best - q->scratch);
    c->vreq = pt->vreq;
    c->sreq = pt->sreq;
    c->sreq_at = pt->sreq_at;
    c->evf_w = pt->evf;
    c->cy_w = pt->cy;
    c->evc_w = pt->evc;
    c->evj_w = pt->evj;
    c->ejm_w = pt->ejm;
}

/* Part j's routers: their cycles, then their writes (part 0 on the engine's f and q). */
static void part_run(struct flit *f, struct iq *q, uint32_t j, struct rs_err *err)
{
    struct iq_part *pt = &q->part[j];
    struct flit *pf = j ? &pt->f : f;
    struct iq *pq = j ? &pt->q : q;
    pt->rc = rs__iq_routers(pf, pq, pt->w0, pt->w1, j ? &pt->err : err);
    if (!pt->rc)
        rs__iq_writes(pf, pq, pt->w0, pt->w1);
}

/* Append the entries [buf, end) of a part's list to the engine's list written at w. */
#define APPEND(w, buf, end)                                                                    \
    do {                                                                                       \
        size_t n_ = (size_t)((end) - (buf));                                                   \
        memcpy((w), (buf), n_ * sizeof *(buf));                                                \
        (w) += n_;                                                                             \
    } while (0)

int rs__iq_par_routers(struct flit *f, struct iq *q, struct rs_err *err)
{
    const uint32_t T = q->n_part;
    uint64_t total = 0;
    for (uint32_t w = 0; w < q->wN; w++)
        total += (uint64_t)__builtin_popcountll(q->busy[w]);
    int serial = f->ev || total < (uint64_t)IQ_PAR_MIN * T || cut_parts(q, total) < 2;
    for (uint32_t j = 1; j < T && !serial; j++) /* no room: serially, the same outcome */
        serial = room_for(q, j) != 0;
    if (serial) {
        int rc = rs__iq_routers(f, q, 0, q->wN, err);
        if (!rc)
            rs__iq_writes(f, q, 0, q->wN);
        return rc;
    }
    for (uint32_t j = 1; j < T; j++)
        part_copy(f, q, j);
#pragma omp parallel num_threads(T)
    {
        /* any thread may run any part (fewer threads than asked: several parts each) */
        uint32_t j0 = (uint32_t)omp_get_thread_num(), nt = (uint32_t)omp_get_num_threads();
        for (uint32_t j = j0; j < T; j += nt)
            part_run(f, q, j, err);
    }
    for (uint32_t j = 0; j < T; j++) /* the first failing router in the serial order */
        if (q->part[j].rc) {
            if (j)
                *err = q->part[j].err;
            return q->part[j].rc;
        }
    for (uint32_t j = 1; j < T; j++) { /* the parts' counters and lists, in part order */
        struct iq_part *pt = &q->part[j];
        const struct iq *c = &pt->q;
        f->step_moves += pt->f.step_moves;
        f->flit_hops += pt->f.flit_hops;
        f->blocked += pt->f.blocked;
        if (pt->f.max_buffer > f->max_buffer)
            f->max_buffer = pt->f.max_buffer;
        q->carry += c->carry;
        APPEND(q->evf_w, pt->evf, c->evf_w);
        APPEND(q->cy_w, pt->cy, c->cy_w);
        APPEND(q->evc_w, pt->evc, c->evc_w);
        APPEND(q->evj_w, pt->evj, c->evj_w);
        for (uint32_t w = 0; w < q->wT; w++) {
            q->ejm_w[w] |= pt->ejm[w];
            pt->ejm[w] = 0;
        }
    }
    return 0;
}
