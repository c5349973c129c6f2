/* One flit step of the flit engine (docs/model-flit.md, "One flit step"): the worms in the
 * network in age order, then every source's oldest unstarted message; each worm moves its
 * header, then each of its buffers passes its front flit on, from the head to the tail.
 * State another worm may change this step is read through step stamps as it was at the
 * start of the step. */
#include <stdlib.h>
#include <string.h>

#include "engine/flit.h"

#include <omp.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"

/* The step's hot functions take part (cut_through_partial), shared (link=shared), adapt
 * (an adaptive routing) and ev (the event log is open) as arguments and are always inlined,
 * so that rs__flit_step can instantiate them for the combinations it uses with those tests
 * folded away (same decisions either way; with the log, one copy tests the others at run
 * time, and the copies without it carry no hook). */
#define FLIT_HOT static inline __attribute__((always_inline))

FLIT_HOT uint32_t count_p(const struct flit *f, uint32_t m, uint32_t x, int part)
{
    if (!part)
        return f->vc[x].cnt;
    const struct flit_fifo *q = &f->fifo[x];
    uint32_t lo, hi;
    if (f->vc[x].owner == m) { /* it still enters: its flits are the newest */
        lo = q->lock_seq;
        hi = q->in_seq;
    } else { /* its tail VC after its tail entered: flits [tlo, thi) */
        lo = f->w[m].tlo;
        hi = f->w[m].thi;
    }
    uint32_t first = (int32_t)(q->out_seq - lo) > 0 ? q->out_seq : lo;
    return hi - first;
}

uint32_t rs__flit_count(const struct flit *f, uint32_t m, uint32_t x)
{
    return count_p(f, m, x, f->mode == FLIT_PARTIAL);
}

/* Release VC x at this step: it can be allocated again from the next step. par (the
 * parallel step): record it in the thread's list instead, applied after the phase (no header
 * can take x this step either way, and x has left its owner's chain). */
FLIT_HOT void release_vc(struct flit *f, struct flit_thr *th, uint32_t x, int par)
{
    if (par) {
        th->rel[th->n_rel++] = x;
        return;
    }
    f->vc[x].owner = RS_NONE;
    f->vc[x].t_free = f->step;
}

/* The tail of worm m (its last flit) moved from y (a VC, or RS_NONE for its source) across
 * the channel of z into z's buffer, or was delivered (delivered = 1). */
FLIT_HOT void tail_moved(struct flit *f, struct flit_thr *th, uint32_t m, uint32_t y,
                         uint32_t z, int delivered, int part, int par)
{
    struct flit_worm *w = &f->w[m];
    if (y != RS_NONE) { /* y leaves the chain (partial: it was released when the tail entered) */
        if (!part)
            release_vc(f, th, y, par);
        w->span--;
    }
    if (delivered) { /* the tail crossed the last channel: its VC is done with */
        release_vc(f, th, z, par);
        w->span--;
    } else if (part) { /* the channel is free for the next message */
        w->tlo = f->fifo[z].lock_seq;
        w->thi = f->fifo[z].in_seq;
        release_vc(f, th, z, par);
    }
}

/* Move worm m's header if it wants to and can: returns 1 when it moved, 0 when it does not
 * want to (delivered, or a store-and-forward message not yet entirely stored), -1 when it
 * wanted to and could not (a blocked header step). */
FLIT_HOT int move_header_p(struct flit *f, struct flit_thr *th, uint32_t m, struct rs_err *err,
                           int *rc, int part, int shared, int adapt, int par, int ev)
{
    struct flit_acc *a = par ? &th->acc : &f->sacc;
    struct flit_worm *w = &f->w[m];
    uint32_t t = f->step, h = w->head;
    if (w->next_chan == RS_NONE)
        return 0;
    if (h != RS_NONE) {
        const struct flit_vc *hv = &f->vc[h];
        if ((f->mode == FLIT_SAF || w->held) && (w->src_left || w->span != 1))
            return 0; /* forwarded only once the whole message is in this buffer */
        if (hv->t_dep == t)
            return -1; /* partial: another message's flit left the FIFO this step */
        if (part &&
            f->fifo[h].out_seq != (hv->owner == m ? f->fifo[h].lock_seq : w->tlo))
            return -1; /* behind the tail of another message in the FIFO */
    }
    uint64_t c;
    uint32_t x = RS_NONE;
    if (adapt) { /* the routing orders its choices from start-of-step credits */
        x = par && f->ach /* threads: ordered in the step's route phase (par_prepare) */
                ? rs__flit_adaptive_take(f, m, &f->ach[(size_t)m * RS_ROUTE_MAX_CHOICES],
                                         f->n_ach[m])
                : rs__flit_adaptive_pick(f, m, shared);
        c = w->next_chan;
    } else {
        c = w->next_chan;
        if (shared && f->chan_used[c] == t)
            return -1;
        for (uint32_t v = w->vc_lo; v < w->vc_hi; v++) { /* the lowest free VC of its class */
            uint32_t y = flit_vc_id(f, c, v);
            const struct flit_vc *yv = &f->vc[y];
            if (yv->owner != RS_NONE || yv->t_free == t)
                continue;
            if (part && flit_cnt_start(f, y) >= f->depth)
                continue; /* free, but still full of the previous message's flits */
            x = y;
            break;
        }
    }
    if (x == RS_NONE)
        return -1;
    struct flit_vc *xv = &f->vc[x];
    xv->owner = m;
    xv->up = h;
    if (part)
        f->fifo[x].lock_seq = f->fifo[x].in_seq;
    if (h != RS_NONE) {
        struct flit_vc *hv = &f->vc[h];
        hv->cnt--;
        hv->t_dep = t;
        if (part)
            f->fifo[h].out_seq++;
    } else {
        w->src_left--;
    }
    if (shared)
        f->chan_used[c] = t;
    a->flit_hops++;
    w->hops++;
    w->head = x;
    w->span++;
    w->held = 0;
    w->t_move = t;
    xv->t_arr = t;
    if (ev) /* the event log: its injected and hop records */
        rs__flit_event_hop(f, m);
    if (!adapt && w->path != RS_NONE) { /* the cached route (flit_route.c), inline */
        const struct flit_hop *hp = &f->hop[w->path + w->hops];
        /* the route's line after the next (new_worm fetched its first two): on the 16x16
         * mesh the cache's routes (about 9 MB) outgrow the L2 cache */
        __builtin_prefetch((const char *)hp + 128);
        w->next_chan = hp->chan;
        if (hp->chan != RS_NONE) {
            w->next_node = hp->node;
            w->vc_lo = hp->vc_lo;
            w->vc_hi = hp->vc_hi;
        }
    } else if ((*rc = adapt ? rs__flit_route_adaptive(f, m, w->next_node, err)
                            : rs__flit_route_oblivious(f, m, w->next_node, err))) {
        if (h != RS_NONE) /* the flit left h and entered no buffer */
            a->in_net--;
        return 0;
    }
    /* a->in_net counts only what changes the flits in network buffers: a flit from the
     * source that stays in the network, one from a VC that is delivered */
    int delivered = w->next_chan == RS_NONE;
    if (delivered) {
        w->done++;
        a->step_accepted++;
        if (h != RS_NONE)
            a->in_net--;
    } else {
        xv->cnt++;
        if (part)
            f->fifo[x].in_seq++;
        if (h == RS_NONE)
            a->in_net++;
        if (xv->cnt > a->max_buffer)
            a->max_buffer = xv->cnt;
    }
    if (w->len == 1) /* the header is also the tail */
        tail_moved(f, th, m, h, x, delivered, part, par);
    return 1;
}

/* Move the front flit of worm m in y (a VC of its chain, or RS_NONE: its source) on into z,
 * the next VC of its chain toward the head (or the delivery buffer when z is the head and
 * the header has been delivered). zh: z is m's head VC (z == w->head; a constant where the
 * caller knows it). y_last: y is the last element of the chain (its tail VC, or the
 * source). header_moved: the header moved this step. */
FLIT_HOT void move_flit(struct flit *f, struct flit_thr *th, uint32_t m, uint32_t y, uint32_t z,
                        int zh, int y_last, int header_moved, int part, int shared, int par)
{
    RS_DASSERT(zh == (z == f->w[m].head));
    struct flit_acc *a = par ? &th->acc : &f->sacc;
    struct flit_worm *w = &f->w[m];
    uint32_t t = f->step;
    struct flit_vc *zv = &f->vc[z];
    /* Without shared FIFOs or links, only m's own moves reach its VCs, and move_body never
     * calls a move into a head VC its header entered this step: so z took no flit and y sent
     * none yet this step, and the two step-stamp tests are needed only with part or shared. */
    RS_DASSERT(part || shared || (zv->t_arr != t && (y == RS_NONE || f->vc[y].t_dep != t)));
    if ((part || shared) && zv->t_arr == t)
        return; /* one flit per virtual channel per step */
    if (y != RS_NONE) { /* (RS_NONE is a constant at the source's call) */
        const struct flit_vc *yv = &f->vc[y];
        if (((part || shared) && yv->t_dep == t) || count_p(f, m, y, part) == 0)
            return; /* it sent a flit already, or holds none of m's (a gap, link=shared) */
    }
    int deliver = zh && w->next_chan == RS_NONE;
    if (!deliver) {
        /* room after m's own departure from z this step; another message's departure
         * (the FIFO ahead of m's header) frees its slot only at the next step */
        uint32_t occ = zv->cnt + (zh && !header_moved && zv->t_dep == t);
        if (occ >= f->depth)
            return;
    }
    if (shared) {
        uint32_t c = z / f->B;
        if (f->chan_used[c] == t)
            return;
        f->chan_used[c] = t;
    }
    if (y != RS_NONE) {
        struct flit_vc *yv = &f->vc[y];
        yv->cnt--;
        yv->t_dep = t;
        if (part)
            f->fifo[y].out_seq++;
    } else {
        w->src_left--;
    }
    zv->t_arr = t;
    w->t_move = t;
    a->flit_hops++;
    if (deliver) { /* a->in_net as in move_header_p (the tests of y fold away) */
        w->done++;
        a->step_accepted++;
        if (y != RS_NONE)
            a->in_net--;
    } else {
        zv->cnt++;
        if (part)
            f->fifo[z].in_seq++;
        if (y == RS_NONE)
            a->in_net++;
        if (zv->cnt > a->max_buffer)
            a->max_buffer = zv->cnt;
    }
    if (y_last && w->src_left == 0 && (y == RS_NONE || count_p(f, m, y, part) == 0))
        tail_moved(f, th, m, y, z, deliver, part, par);
}

/* y, read from a chain of n VCs before its n-th, is a VC (not RS_NONE, the source): said
 * to the compiler so that move_flit's tests of the source fold away. */
#define FLIT_IS_VC(y)                                                                          \
    do {                                                                                       \
        RS_DASSERT((y) != RS_NONE);                                                            \
        if ((y) == RS_NONE)                                                                    \
            __builtin_unreachable();                                                           \
    } while (0)

/* The body of worm m: every buffer of its chain passes its front flit on, head to tail,
 * then its source injects one flit. */
FLIT_HOT void move_body(struct flit *f, struct flit_thr *th, uint32_t m, int header_moved,
                        int part, int shared, int par)
{
    struct flit_worm *w = &f->w[m];
    uint32_t z = w->head, n = w->span, y;
    /* the chain's first, middle and last moves apart, so that the tests of the head VC and
     * of the tail fold away where they cannot apply (the same moves in the same order); a
     * header that moved this step filled its head VC's one arrival of the step, so the move
     * into the head VC is skipped then (move_flit would refuse it) */
    if (n >= 2) {
        y = f->vc[z].up;
        FLIT_IS_VC(y);
        if (!header_moved)
            move_flit(f, th, m, y, z, 1, n == 2 && !w->src_left, 0, part, shared, par);
        z = y;
        for (uint32_t k = 2; k + 1 < n; k++) {
            y = f->vc[z].up;
            FLIT_IS_VC(y);
            move_flit(f, th, m, y, z, 0, 0, header_moved, part, shared, par);
            z = y;
        }
        if (n >= 3) {
            y = f->vc[z].up;
            FLIT_IS_VC(y);
            move_flit(f, th, m, y, z, 0, !w->src_left, header_moved, part, shared, par);
            z = y;
        }
    }
    if (w->src_left && n && (n >= 2 || !header_moved))
        move_flit(f, th, m, RS_NONE, z, n == 1, 1, header_moved, part, shared, par);
}

void rs__flit_compact(struct flit *f)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < f->n_act; i++)
        if (f->act[i] != RS_NONE)
            f->act[n++] = f->act[i];
    f->n_act = n;
    f->n_holes = 0;
}

static int cmp_keyed(const void *a, const void *b)
{
    const struct flit_keyed *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->seq > y->seq) - (x->seq < y->seq);
}

void rs__flit_merge_born(struct flit *f)
{
    struct flit_keyed *born = f->born_key;
    uint32_t nb = f->n_born;
    if (nb == 1 && f->n_act + 1 <= f->n_slots && 2 * f->n_holes <= f->n_act) {
        /* one (the common case): insertion from the end, as the merge below would do */
        uint32_t *act = f->act, m = f->born[0], k = f->n_act, seq = f->w[m].seq;
        uint64_t key = f->w[m].key; /* (locals: the stores to act[] may alias the record) */
        for (; k > 0 && (act[k - 1] == RS_NONE ||
                         flit_age_after(f->w[act[k - 1]].key, f->w[act[k - 1]].seq, key, seq));
             k--)
            act[k] = act[k - 1];
        act[k] = m;
        f->n_act++;
        f->n_born = 0;
        return;
    }
    int sorted = 1;
    for (uint32_t k = 0; k < nb; k++) {
        born[k].slot = f->born[k];
        born[k].key = f->w[f->born[k]].key;
        born[k].seq = f->w[f->born[k]].seq;
        if (k && flit_age_after(born[k - 1].key, born[k - 1].seq, born[k].key, born[k].seq))
            sorted = 0;
    }
    if (!sorted && nb > 96) {
        qsort(born, nb, sizeof *born, cmp_keyed);
    } else if (!sorted) { /* a few, nearly in order (by terminal): insertion (ages distinct) */
        for (uint32_t k = 1; k < nb; k++) {
            struct flit_keyed x = born[k];
            uint32_t q = k;
            for (; q > 0 && flit_age_after(born[q - 1].key, born[q - 1].seq, x.key, x.seq); q--)
                born[q] = born[q - 1];
            born[q] = x;
        }
    }
    uint32_t *act = f->act;
    if (f->n_act + nb > f->n_slots || 2 * f->n_holes > f->n_act)
        rs__flit_compact(f);
    /* in place, from the end: the newborn are mostly the youngest, so few entries move (a
     * finished entry, RS_NONE, moves with them) */
    uint32_t i = f->n_act, j = nb, k = f->n_act + nb;
    while (j > 0) {
        uint32_t m = i > 0 ? act[i - 1] : 0;
        if (i > 0 &&
            (m == RS_NONE || flit_age_after(f->w[m].key, f->w[m].seq, born[j - 1].key, born[j - 1].seq)))
            act[--k] = act[--i];
        else
            act[--k] = born[--j].slot;
    }
    f->n_act += nb;
    f->n_born = 0;
}

/* The worms in the network, oldest first: header, then body. Sets *any_done when one
 * finished or was discarded. The active list is compacted in the same pass: a worm that
 * goes on keeps its place in order, one that finished leaves no RS_NONE entry behind (the
 * entries of an earlier parallel step's finished worms are dropped too). */
FLIT_HOT int step_worms_p(struct flit *f, struct flit_thr *th, struct rs_err *err, int *any_done,
                          int part, int shared, int adapt, int ev)
{
    int rc = 0;
    uint32_t *act = f->act, n_act = f->n_act, n = 0, i;
    for (i = 0; i < n_act; i++) {
        uint32_t m = act[i];
        if (__builtin_expect(m == RS_NONE, 0)) /* finished in an earlier (parallel) step */
            continue;
        int r = move_header_p(f, th, m, err, &rc, part, shared, adapt, 0, ev);
        if (rc)
            break;
        if (r < 0) {
            f->sacc.blocked++;
            if (ev)
                rs__flit_event_blocked(f, m);
            f->w[m].held = f->collapse;
            f->w[m].t_block = f->step;
            if (f->discard) {
                rs__flit_finish(f, m, 0);
                *any_done = 1;
                continue;
            }
        }
        move_body(f, th, m, r > 0, part, shared, 0);
        if (f->w[m].done == f->w[m].len) {
            rs__flit_finish(f, m, 1);
            *any_done = 1;
            continue;
        }
        act[n++] = m;
    }
    if (rc) /* a routing error: the rest as they were (worm i included) */
        for (; i < n_act; i++)
            if (act[i] != RS_NONE)
                act[n++] = act[i];
    f->n_act = n;
    f->n_holes = 0;
    return rc;
}

/* ---- the parallel step (threads > 1) ----------------------------------------------------
 * Worms interact within a step only where headers at one node compete for the VCs of a
 * channel out of it (the older wins): body flits move between VCs their worm holds, and a VC
 * released this step cannot be taken before the next one. So thread j takes the worms whose
 * header is at a node of its part (node_split.h: rows of a leveled network, a dragonfly's
 * groups, else node ids [j n / T, (j+1) n / T)), in age order, and meets
 * every contest the serial step would, in the same order; the rest is deferred to serial
 * code after the phase, in the serial order: releases (applied before the sources move, which
 * see them as the serial step does: taken this step, so not free), then deliveries and
 * discards in active-list order (their counters, the open-loop record, the free-slot
 * stack). Counters are per thread, summed. Adaptive routings: a header orders its choices
 * from the start-of-step counts of the VCs out of its node (and, UGAL-G, of its group's
 * global channels), which other threads' worms change in the phase (their body flits move
 * anywhere along their chains); so before the phase's barrier, while no VC changes, a route
 * phase orders the choices of every header in the network (par_prepare, each thread a slice
 * of the active list) and the phase takes the lowest free VC of the stored order
 * (rs__flit_adaptive_take): what the serial step computes at each header's move, since its
 * view undoes the step's moves through the stamps, keeps discarded counts (keep_stale) and
 * reads nothing else that changes; whether a VC is free is read live, as in the serial
 * step (only headers at the node take it, releases are deferred). Over MPI ranks (one
 * thread) the order is computed at the move as in the serial step. Not with link=shared (a
 * channel's flits compete across worms) or cut_through_partial (a FIFO holds two worms'
 * flits). */

int rs__flit_par_init(struct flit *f)
{
    /* over MPI ranks (f->dist, one thread) the same deferral: a rank's worms are one part
     * (adaptive routings too: one thread reads no count another changes in the phase); on
     * threads, adaptive routings need the route phase's stored choices, packed (ports <
     * 2^16: else the step stays serial) */
    f->par = (f->threads > 1 || f->dist) && f->link == FLIT_PER_VC && f->mode != FLIT_PARTIAL &&
             !f->iq_router && !(f->threads > 1 && f->adaptive && f->P > 65536);
    if (!f->par)
        return 0;
    rs__node_split_init(&f->tsplit, f->net, f->threads);
    f->own = rs_malloc((size_t)f->n_slots * sizeof *f->own);
    f->thr = rs_calloc(f->threads, sizeof *f->thr);
    if (!f->own || !f->thr)
        return RS_ENOMEM;
    if (f->threads > 1 && f->adaptive) {
        f->ach = rs_malloc((size_t)f->n_slots * RS_ROUTE_MAX_CHOICES * sizeof *f->ach);
        f->n_ach = rs_calloc(f->n_slots, sizeof *f->n_ach);
        if (!f->ach || !f->n_ach)
            return RS_ENOMEM;
    }
    for (uint32_t j = 0; j < f->threads; j++) {
        /* a worm releases at most two VCs in a step (its tail's and, delivered, its head's) */
        f->thr[j].rel = rs_malloc((size_t)f->n_slots * 2 * sizeof *f->thr[j].rel);
        f->thr[j].fin = rs_malloc((size_t)f->n_slots * sizeof *f->thr[j].fin);
        if (!f->thr[j].rel || !f->thr[j].fin)
            return RS_ENOMEM;
    }
    return 0;
}

void rs__flit_par_free(struct flit *f)
{
    if (f->thr)
        for (uint32_t j = 0; j < f->threads; j++) {
            rs_free(f->thr[j].rel);
            rs_free(f->thr[j].fin);
        }
    rs_free(f->thr);
    rs_free(f->own);
    rs_free(f->ach);
    rs_free(f->n_ach);
}

/* The thread of the worm in slot m: the one of the node its header is at. */
static inline uint16_t owner_of(const struct flit *f, uint32_t m)
{
    const struct flit_worm *w = &f->w[m];
    uint32_t node = w->next_chan != RS_NONE ? w->next_chan / f->P : w->next_node;
    return (uint16_t)rs__node_split_part(&f->tsplit, node);
}

/* Entry i of the active list before the phase: its thread in own[i] and, with an adaptive
 * routing on threads (the route phase), its header's choices ordered from the view. Reads
 * the VCs and writes only entry i's own[] and its worm's stored choices: run on threads
 * before the phase's barrier, while no VC changes. */
static inline void par_prepare(struct flit *f, uint32_t i)
{
    uint32_t m = f->act[i];
    if (m == RS_NONE) {
        f->own[i] = UINT16_MAX;
        return;
    }
    f->own[i] = owner_of(f, m);
    if (f->ach && f->w[m].next_chan != RS_NONE) /* a header that may move this step */
        f->n_ach[m] = (uint8_t)rs__flit_adaptive_order(
            f, m, &f->ach[(size_t)m * RS_ROUTE_MAX_CHOICES]);
}

/* Thread j's part of the phase: its worms, in active-list order. */
static void par_worms(struct flit *f, uint32_t j)
{
    struct flit_thr *th = &f->thr[j];
    th->n_rel = th->n_fin = 0;
    th->err_at = RS_NONE;
    th->rc = 0;
    memset(&th->acc, 0, sizeof th->acc);
    th->acc.max_buffer = f->max_buffer;
    for (uint32_t i = 0; i < f->n_act; i++) {
        if (f->own[i] != j)
            continue;
        uint32_t m = f->act[i];
        int rc = 0;
        int r = f->adaptive /* (threads: the route phase ordered the choices) */
                    ? move_header_p(f, th, m, &th->err, &rc, 0, 0, 1, 1, 0)
                    : move_header_p(f, th, m, &th->err, &rc, 0, 0, 0, 1, 0); /* no log: threads=1 */
        if (rc) {
            th->rc = rc;
            th->err_at = i;
            return;
        }
        if (r < 0) {
            th->acc.blocked++;
            f->w[m].held = f->collapse;
            f->w[m].t_block = f->step;
            if (f->discard) {
                th->fin[th->n_fin++] = i << 1 | 1;
                continue;
            }
        }
        move_body(f, th, m, r > 0, 0, 0, 1);
        if (f->w[m].done == f->w[m].len)
            th->fin[th->n_fin++] = i << 1;
    }
}

/* The network's worms on f->threads threads, then the deferred work in serial order. */
static int step_worms_par(struct flit *f, struct flit_acc *acc, struct rs_err *err,
                          int *any_done)
{
    uint32_t T = f->threads, n = f->n_act;
    int team_ok = 1;
    if (T == 1) { /* over MPI ranks: every worm of the list is this rank's */
        for (uint32_t i = 0; i < n; i++)
            f->own[i] = f->act[i] == RS_NONE ? UINT16_MAX : 0;
        par_worms(f, 0);
    } else {
#pragma omp parallel num_threads(T)
        {
            uint32_t j = (uint32_t)omp_get_thread_num();
            if (omp_get_num_threads() != (int)T) { /* never split the nodes differently */
#pragma omp atomic write
                team_ok = 0;
            } else {
                for (uint32_t i = (uint32_t)((uint64_t)n * j / T); i < (uint64_t)n * (j + 1) / T;
                     i++)
                    par_prepare(f, i);
#pragma omp barrier
                par_worms(f, j);
            }
        }
    }
    if (!team_ok) { /* fewer threads than asked: each of the T parts in turn, here */
        for (uint32_t i = 0; i < n; i++) /* (all before any part moves) */
            par_prepare(f, i);
        for (uint32_t j = 0; j < T; j++)
            par_worms(f, j);
    }
    uint32_t err_at = RS_NONE, err_j = 0;
    for (uint32_t j = 0; j < T; j++) { /* the counters; the first error in serial order */
        struct flit_thr *th = &f->thr[j];
        acc->flit_hops += th->acc.flit_hops;
        acc->blocked += th->acc.blocked;
        acc->step_accepted += th->acc.step_accepted;
        acc->in_net += th->acc.in_net;
        if (th->acc.max_buffer > acc->max_buffer)
            acc->max_buffer = th->acc.max_buffer;
        if (th->rc && th->err_at < err_at) {
            err_at = th->err_at;
            err_j = j;
        }
        th->pos = 0;
    }
    if (err_at != RS_NONE) {
        *err = f->thr[err_j].err;
        return f->thr[err_j].rc;
    }
    for (uint32_t j = 0; j < T; j++) /* the releases */
        for (uint32_t k = 0; k < f->thr[j].n_rel; k++) {
            uint32_t x = f->thr[j].rel[k];
            f->vc[x].owner = RS_NONE;
            f->vc[x].t_free = f->step;
            if (f->dist)
                rs__flit_dist_released(f, x);
        }
    for (;;) { /* deliveries and discards, merged into active-list order */
        uint32_t best = UINT32_MAX, bj = 0;
        for (uint32_t j = 0; j < T; j++) {
            const struct flit_thr *th = &f->thr[j];
            if (th->pos < th->n_fin && th->fin[th->pos] < best) {
                best = th->fin[th->pos];
                bj = j;
            }
        }
        if (best == UINT32_MAX)
            break;
        f->thr[bj].pos++;
        uint32_t i = best >> 1;
        rs__flit_finish(f, f->act[i], !(best & 1));
        f->act[i] = RS_NONE;
        f->n_holes++;
        *any_done = 1;
    }
    return 0;
}

static int move_header(struct flit *f, struct flit_thr *th, uint32_t m, struct rs_err *err,
                       int *rc)
{
    if (f->mode != FLIT_PARTIAL && f->link != FLIT_SHARED && !f->adaptive && !f->ev)
        return move_header_p(f, th, m, err, rc, 0, 0, 0, 0, 0); /* the common case, folded */
    return move_header_p(f, th, m, err, rc, f->mode == FLIT_PARTIAL, f->link == FLIT_SHARED,
                         f->adaptive, 0, f->ev != NULL);
}

int rs__flit_step(struct flit *f, struct rs_err *err)
{
    int rc = 0, any_done = 0;
    memset(&f->sacc, 0, sizeof f->sacc); /* the step's counters */
    f->sacc.max_buffer = f->max_buffer;
    f->step_moves = 0;
    f->step_accepted = 0;
    f->n_born = 0;
    if (f->par && f->n_act)
        rc = step_worms_par(f, &f->sacc, err, &any_done);
    else if (f->ev) /* the event log: one copy with its hooks, the others without */
        rc = step_worms_p(f, NULL, err, &any_done, f->mode == FLIT_PARTIAL, f->link == FLIT_SHARED,
                          f->adaptive, 1);
    else if (f->adaptive) /* never with cut_through_partial (flit.c refuses it) */
        rc = f->link == FLIT_SHARED ? step_worms_p(f, NULL, err, &any_done, 0, 1, 1, 0)
                                    : step_worms_p(f, NULL, err, &any_done, 0, 0, 1, 0);
    else if (f->mode == FLIT_PARTIAL)
        rc = f->link == FLIT_SHARED ? step_worms_p(f, NULL, err, &any_done, 1, 1, 0, 0)
                                    : step_worms_p(f, NULL, err, &any_done, 1, 0, 0, 0);
    else
        rc = f->link == FLIT_SHARED ? step_worms_p(f, NULL, err, &any_done, 0, 1, 0, 0)
                                    : step_worms_p(f, NULL, err, &any_done, 0, 0, 0, 0);
    if (!rc) {
        for (uint32_t i = 0; i < f->n_pend; i++) { /* then the sources, by terminal */
            uint32_t t = f->pend[i], m;
            while ((m = f->front[t]) != RS_NONE) {
                if (f->w[m].next_chan == FLIT_CHAN_UNREAD) /* (prefetched by new_worm) */
                    flit_first_hop(f, &f->w[m]);
                int r = move_header(f, NULL, m, err, &rc);
                if (rc)
                    break;
                if (r > 0) {
                    f->front[t] = RS_NONE;
                    rs__flit_front_left(f, t);
                    if (f->w[m].done == f->w[m].len) /* one flit over one channel */
                        rs__flit_finish(f, m, 1);
                    else
                        f->born[f->n_born++] = m;
                    if (rs__flit_front_due(f, t)) /* the next may start as well */
                        rs__flit_make_front(f, t);
                    if ((rc = f->rc))
                        break;
                    continue;
                }
                if (r < 0) {
                    f->sacc.blocked++;
                    if (__builtin_expect(f->ev != NULL, 0))
                        rs__flit_event_blocked(f, m);
                    if (f->discard) {
                        f->front[t] = RS_NONE;
                        rs__flit_front_left(f, t);
                        rs__flit_finish(f, m, 0);
                    }
                }
                break;
            }
            if (rc)
                break;
        }
    }
    f->flit_hops += f->sacc.flit_hops; /* the step's counters */
    f->blocked += f->sacc.blocked;
    f->step_moves += f->sacc.flit_hops; /* every move of a flit, and only those */
    f->step_accepted += f->sacc.step_accepted;
    f->in_net += (uint64_t)f->sacc.in_net;
    f->max_buffer = f->sacc.max_buffer;
    if (f->n_stale) /* discards kept their counts for the adaptive view until now */
        rs__flit_zero_stale(f);
    if (rc)
        return rc;
    if (f->n_born || (any_done && 2 * f->n_holes > f->n_act))
        rs__flit_merge_born(f);
    return 0;
}
