/* Route sets of router=iq under an adaptive routing: the (output port, VC range)
 * candidates the routing function gives a head at an input VC, in the routing's order (its
 * last the escape), read by VC allocation; the router's credit view the routing observes;
 * and BookSim's escape rule: a packet that entered the escape VCs stays on them
 * (docs/model-iq.md, Adaptive routing). */
#ifndef RS_ENGINE_IQ_ROUTE_H
#define RS_ENGINE_IQ_ROUTE_H

#include <stdint.h>

#include "engine/flit.h"

enum { IQ_RS_ESCAPE = 1, IQ_RS_ATOMIC = 2 };

struct iq_rsets {
    uint32_t NO, B, depth; /* router outputs, VCs per channel, flits per VC buffer */
    uint32_t n_nodes;      /* routers */
    const uint32_t *occ;   /* the routers' live credit counts: flits sent and not yet
                              credited, [(node * NO + out) * B + vc] (owned by the router) */
    uint32_t *occ0;        /* the counts as they were when the cycle's router phase began */
    uint8_t *n;            /* [input VC] candidates of its head (0: none, oblivious or ejection) */
    uint8_t *kind;         /* [input VC] IQ_RS_ESCAPE: its list ends in an escape candidate;
                              IQ_RS_ATOMIC: the others' VCs are allocated only when empty */
    struct rs_route_choice *ch; /* [input VC * RS_ROUTE_MAX_CHOICES] */
    uint8_t *esc;          /* [worm slot] 1: the packet entered its routing's escape VCs */
    int booksim;           /* adaptive_set=booksim: of a list with an escape, keep the escape
                              and the candidate on its port (BookSim's OutputSet keeps one
                              candidate per priority), VCs reallocated as BookSim does */
};

/* Allocate the route sets of n_ivc input VCs and n_slots worm slots for routers of NO
 * outputs (n_nodes of them) with B VCs of depth flits, reading the credit counts occ.
 * Returns 0 or RS_ENOMEM (nothing to free on failure but what rs__iq_rsets_free frees). */
int rs__iq_rsets_init(struct iq_rsets *s, uint64_t n_ivc, uint32_t n_slots, uint32_t n_nodes,
                      uint32_t NO, uint32_t B, uint32_t depth, const uint32_t *occ);

void rs__iq_rsets_free(struct iq_rsets *s);

/* The cycle's router phase begins: keep every router's credit counts as they are, so that
 * a routing that looks at another router's counts sees them as they were at the start of
 * the cycle (no router changes another's counts in its cycle), whatever the order of the
 * routers and however many threads run them. */
void rs__iq_rsets_begin(struct iq_rsets *s);

/* A new packet enters the network in worm slot m: not on the escape VCs. */
static inline void rs__iq_rsets_new(struct iq_rsets *s, uint32_t m)
{
    s->esc[m] = 0;
}

/* Route the head (worm slot m) at the front of input VC x of node with f's adaptive
 * routing: the candidates of routing->choose under the credit view, only its escape (last)
 * choice once the packet entered the escape VCs, kept as x's route set; the escape choice
 * goes to the worm's next_chan / next_node / vc_lo / vc_hi (what the packet is said to wait
 * for); next_chan RS_NONE and no candidates at its destination. Returns 0, or
 * RS_EINVARIANT (err set) for a missing channel or a route that does not end. */
int rs__iq_rsets_route(struct iq_rsets *s, struct flit *f, uint32_t node, uint32_t x,
                       uint32_t m, struct rs_err *err);

/* The route set of input VC x: its count (0: none, the router's single route applies) and
 * the candidates in *ch, in the routing's order. */
static inline uint32_t rs__iq_rsets_get(const struct iq_rsets *s, uint32_t x,
                                        const struct rs_route_choice **ch)
{
    *ch = s->ch + (size_t)x * RS_ROUTE_MAX_CHOICES;
    return s->n[x];
}

/* 1 when candidate k of input VC x's route set may only be allocated empty (all its credits
 * back): an adaptive candidate of a routing with escape VCs (min_adaptive). */
static inline int rs__iq_rsets_atomic(const struct iq_rsets *s, uint32_t x, uint32_t k)
{
    return (s->kind[x] & IQ_RS_ATOMIC) && k + 1 < s->n[x];
}

/* VC allocation gave the head (worm slot m) of input VC x VC vc of output port: when that
 * VC is its escape choice's (the last candidate, whose VCs no other candidate offers), the
 * packet stays on the escape VCs from here on. */
void rs__iq_rsets_granted(struct iq_rsets *s, uint32_t x, uint32_t m, uint32_t port,
                          uint32_t vc);

#endif
