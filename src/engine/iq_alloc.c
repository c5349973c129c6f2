/* The allocators of router=iq (docs/model-iq.md §Allocators): separable input-first and
 * output-first with round-robin arbiters, and iSLIP, over a list of requests, as BookSim 2
 * defines them (allocators/separable_*.cpp, islip.cpp, arbiters/roundrobin_arb). */
#include "engine/iq_alloc.h"

/* Does a request at position p1 with priority r1 win over one at p2 with r2, for a
 * round-robin arbiter of n positions whose pointer is at ptr? Higher priority first, then
 * the first position at or after the pointer. */
/* (p + n - ptr) mod n for p, ptr < n: how far p lies after the pointer, without a division */
static inline uint32_t rr_dist(uint32_t p, uint32_t ptr, uint32_t n)
{
    return p >= ptr ? p - ptr : p + n - ptr;
}

int rs__iq_supersedes(uint32_t p1, int32_t r1, uint32_t p2, int32_t r2, uint32_t ptr, uint32_t n)
{
    if (r1 != r2)
        return r1 > r2;
    return rr_dist(p1, ptr, n) < rr_dist(p2, ptr, n);
}

/* Separable allocation: first = the side that arbitrates first (its pointer ptr_a, its
 * port count n_a; the request's port on the other side is its candidate). */
static void separable(struct iq_allocator *a, const struct iq_req *q, uint32_t nq, int in_first)
{
    int32_t *best_a = in_first ? a->in_best : a->out_best;
    int32_t *best_b = in_first ? a->out_best : a->in_best;
    uint32_t *ptr_a = in_first ? a->in_ptr : a->out_ptr;
    uint32_t *ptr_b = in_first ? a->out_ptr : a->in_ptr;
    uint32_t n_a = in_first ? a->n_out : a->n_in; /* positions of side a's arbiters */
    uint32_t n_b = in_first ? a->n_in : a->n_out;
    for (uint32_t k = 0; k < nq; k++) { /* side a: each port picks one request */
        uint32_t pa = in_first ? q[k].in : q[k].out, pb = in_first ? q[k].out : q[k].in;
        int32_t pri = in_first ? q[k].in_pri : q[k].out_pri;
        int32_t c = best_a[pa];
        if (c < 0) {
            best_a[pa] = (int32_t)k;
            continue;
        }
        uint32_t cb = in_first ? q[c].out : q[c].in;
        int32_t cpri = in_first ? q[c].in_pri : q[c].out_pri;
        if (rs__iq_supersedes(pb, pri, cb, cpri, ptr_a[pa], n_a))
            best_a[pa] = (int32_t)k;
    }
    for (uint32_t k = 0; k < nq; k++) { /* side b: among the requests picked by side a */
        uint32_t pa = in_first ? q[k].in : q[k].out, pb = in_first ? q[k].out : q[k].in;
        if (best_a[pa] != (int32_t)k)
            continue;
        int32_t pri = in_first ? q[k].out_pri : q[k].in_pri;
        int32_t c = best_b[pb];
        if (c < 0) {
            best_b[pb] = (int32_t)k;
            continue;
        }
        uint32_t ca = in_first ? q[c].in : q[c].out;
        int32_t cpri = in_first ? q[c].out_pri : q[c].in_pri;
        if (rs__iq_supersedes(pa, pri, ca, cpri, ptr_b[pb], n_b))
            best_b[pb] = (int32_t)k;
    }
    for (uint32_t k = 0; k < nq; k++) { /* grants: both arbiters move past the winner */
        uint32_t pb = in_first ? q[k].out : q[k].in;
        if (best_b[pb] != (int32_t)k)
            continue;
        a->inmatch[q[k].in] = (int32_t)q[k].out;
        a->outmatch[q[k].out] = (int32_t)q[k].in;
        a->in_ptr[q[k].in] = (q[k].out + 1) % a->n_out;
        a->out_ptr[q[k].out] = (q[k].in + 1) % a->n_in;
    }
    for (uint32_t k = 0; k < nq; k++)
        a->in_best[q[k].in] = a->out_best[q[k].out] = -1;
}

/* iSLIP: each unmatched output grants the first unmatched requesting input at or after its
 * grant pointer; each input accepts the first granting output at or after its accept
 * pointer; pointers move past a match made in the first iteration only. */
static void islip(struct iq_allocator *a, const struct iq_req *q, uint32_t nq)
{
    for (uint32_t it = 0; it < a->iters; it++) {
        for (uint32_t k = 0; k < nq; k++) {
            uint32_t o = q[k].out, i = q[k].in;
            if (a->outmatch[o] >= 0 || a->inmatch[i] >= 0)
                continue;
            int32_t c = a->out_best[o];
            if (c < 0 || rr_dist(i, a->out_ptr[o], a->n_in) <
                             rr_dist(q[c].in, a->out_ptr[o], a->n_in))
                a->out_best[o] = (int32_t)k;
        }
        for (uint32_t k = 0; k < nq; k++) { /* accept among the grants */
            uint32_t o = q[k].out, i = q[k].in;
            if (a->out_best[o] != (int32_t)k)
                continue;
            int32_t c = a->in_best[i];
            if (c < 0 || rr_dist(o, a->in_ptr[i], a->n_out) <
                             rr_dist(q[c].out, a->in_ptr[i], a->n_out))
                a->in_best[i] = (int32_t)k;
        }
        for (uint32_t k = 0; k < nq; k++) {
            uint32_t o = q[k].out, i = q[k].in;
            if (a->in_best[i] != (int32_t)k)
                continue;
            a->inmatch[i] = (int32_t)o;
            a->outmatch[o] = (int32_t)i;
            if (it == 0) {
                a->out_ptr[o] = (i + 1) % a->n_in;
                a->in_ptr[i] = (o + 1) % a->n_out;
            }
        }
        for (uint32_t k = 0; k < nq; k++)
            a->in_best[q[k].in] = a->out_best[q[k].out] = -1;
    }
}

/* All requests from one input (a lone head bidding for the VCs of its output): the input's
 * arbiter alone decides, as each output has this one request. Separable (either order):
 * the highest priority, then the first output at or after the input's pointer; iSLIP:
 * every output grants, the input accepts the first at or after its pointer (priorities
 * unused), later iterations find the input matched. Both pointers move past the match. */
static void one_input(struct iq_allocator *a, const struct iq_req *q, uint32_t nq)
{
    uint32_t i = q[0].in, ptr = a->in_ptr[i], best = 0;
    for (uint32_t k = 1; k < nq; k++) {
        int wins = a->kind == IQ_ALLOC_ISLIP
                       ? rr_dist(q[k].out, ptr, a->n_out) < rr_dist(q[best].out, ptr, a->n_out)
                       : rs__iq_supersedes(q[k].out, q[k].in_pri, q[best].out, q[best].in_pri,
                                           ptr, a->n_out);
        if (wins)
            best = k;
    }
    uint32_t o = q[best].out;
    a->inmatch[i] = (int32_t)o;
    a->outmatch[o] = (int32_t)i;
    a->in_ptr[i] = o + 1 == a->n_out ? 0 : o + 1;
    a->out_ptr[o] = i + 1 == a->n_in ? 0 : i + 1;
}

void rs__iq_allocate(struct iq_allocator *a, const struct iq_req *q, uint32_t nq)
{
    uint32_t k = 1;
    while (k < nq && q[k].in == q[0].in)
        k++;
    if (k == nq && nq) {
        one_input(a, q, nq);
        return;
    }
    if (nq == 1) { /* one request: every allocator grants it and moves both pointers past it
                    * (separable: both arbiters; iSLIP: the first iteration's match) */
        a->inmatch[q->in] = (int32_t)q->out;
        a->outmatch[q->out] = (int32_t)q->in;
        a->in_ptr[q->in] = q->out + 1 == a->n_out ? 0 : q->out + 1;
        a->out_ptr[q->out] = q->in + 1 == a->n_in ? 0 : q->in + 1;
        return;
    }
    switch (a->kind) {
    case IQ_ALLOC_SEP_IN:
        separable(a, q, nq, 1);
        break;
    case IQ_ALLOC_SEP_OUT:
        separable(a, q, nq, 0);
        break;
    case IQ_ALLOC_ISLIP:
        islip(a, q, nq);
        break;
    }
}

void rs__iq_alloc_clear(struct iq_allocator *a, const struct iq_req *q, uint32_t nq)
{
    for (uint32_t k = 0; k < nq; k++)
        a->inmatch[q[k].in] = a->outmatch[q[k].out] = -1;
}
