/* Allocators of router=iq: a bipartite match of requests (input port -> output port) with
 * persistent round-robin pointers, as BookSim 2's separable input-first / output-first
 * allocators with round-robin arbiters and its iSLIP (docs/model-iq.md). */
#ifndef RS_ENGINE_IQ_ALLOC_H
#define RS_ENGINE_IQ_ALLOC_H

#include <stdint.h>

enum iq_alloc_kind { IQ_ALLOC_SEP_IN, IQ_ALLOC_SEP_OUT, IQ_ALLOC_ISLIP };

struct iq_req {
    uint32_t in, out;
    int32_t label;   /* what the caller reads back (the input VC of a switch request) */
    int32_t in_pri;  /* priority at the input's arbiter */
    int32_t out_pri; /* priority at the output's arbiter */
};

/* One allocator: n_in x n_out ports. in_ptr/out_ptr are the arbiters' round-robin pointers
 * (iSLIP: accept and grant pointers), kept between cycles; inmatch/outmatch the result of
 * the last rs__iq_allocate (-1: unmatched); in_best/out_best scratch, all -1 between calls.
 * The caller owns the arrays. */
struct iq_allocator {
    enum iq_alloc_kind kind;
    uint32_t n_in, n_out, iters;
    uint32_t *in_ptr, *out_ptr;
    int32_t *inmatch, *outmatch;
    int32_t *in_best, *out_best;
};

/* Does position p1 (priority r1) beat p2 (r2) at a round-robin arbiter of n positions with
 * pointer ptr? Higher priority wins; equal: the first at or after the pointer. */
int rs__iq_supersedes(uint32_t p1, int32_t r1, uint32_t p2, int32_t r2, uint32_t ptr, uint32_t n);

/* Match the requests q[0..nq) (at most one per (in, out) pair; inmatch/outmatch all -1 on
 * entry): fills inmatch/outmatch and moves the pointers of the arbiters that granted. */
void rs__iq_allocate(struct iq_allocator *a, const struct iq_req *q, uint32_t nq);

/* Reset inmatch/outmatch of the ports of q[0..nq) to -1 (after the caller read them). */
void rs__iq_alloc_clear(struct iq_allocator *a, const struct iq_req *q, uint32_t nq);

/* rs__iq_allocate with its two common cases inline (the same outcome): no request does
 * nothing; one request is granted by every allocator, both its arbiters' pointers moving
 * past it (separable: both arbiters; iSLIP: the first iteration's match). */
static inline void iq_allocate(struct iq_allocator *a, const struct iq_req *q, uint32_t nq)
{
    if (nq == 1) {
        a->inmatch[q->in] = (int32_t)q->out;
        a->outmatch[q->out] = (int32_t)q->in;
        a->in_ptr[q->in] = q->out + 1 == a->n_out ? 0 : q->out + 1;
        a->out_ptr[q->out] = q->in + 1 == a->n_in ? 0 : q->in + 1;
    } else if (nq) {
        rs__iq_allocate(a, q, nq);
    }
}

#endif
