/* router=iq: BookSim 2's input-queued virtual-channel router on the flit engine's network
 * (set-up, one cycle, deadlock description). Every router runs, in each cycle: input
 * queuing and credit processing, route / VC-allocation / switch-allocation / switch
 * evaluation, then their updates, then output queuing; flits and credits cross channels of
 * channel_latency cycles (one more cycle between the sender's write and the receiver's
 * read, as in BookSim). The exact model: docs/model-iq.md. */
#include "engine/iq.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/events_hook.h"
#include "engine/iq_alloc.h"
#include "engine/iq_bits.h"
#include "engine/iq_impl.h"
#include "engine/iq_route.h"
#include "routesim/alloc.h"
#include "routesim/assert.h"

const char *const rs__iq_router_names[] = {"simple", "iq", NULL};
const char *const rs__iq_alloc_names[] = {"separable_input_first", "separable_output_first",
                                          "islip", NULL};
const char *const rs__iq_adaptive_set_names[] = {"all", "booksim", NULL};

const struct rs_optdef rs_iq_options[] = {IQ_OPTIONS, {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

int rs_router_is_iq(const struct rs_params *p)
{
    const struct rs_param *r = rs_params_find(p, "router");
    return r && strcmp(r->value, "iq") == 0;
}

enum { VC_IDLE, VC_ROUTING, VC_VA, VC_ACTIVE };
#define STALL (-2) /* a stage's result: no grant this time (BookSim's STALL_* codes) */
#define NO_FLIT UINT32_MAX
/* A key's value in one instance of the router cycle: in the fast instance (fs = 1, chosen
 * when q->fast) the constant val the fast configuration fixes, else the field. */
#define KQ(fs, field, val) ((fs) ? (val) : (field))
/* The event log in an instance: none in the set instance (fs = 2: q->sets, no log). */
#define EVQ(fs, ev) ((fs) == 2 ? NULL : (ev))
/* A function of the cycle inlined into each instance (its fs a constant there). */
#define IQ_INLINE static inline __attribute__((always_inline))

/* ---- small helpers --------------------------------------------------------------------- */

static inline uint32_t ivc(const struct iq *q, uint32_t node, uint32_t in, uint32_t vc)
{
    return (node * q->NI + in) * q->B + vc;
}
static inline uint32_t ovc(const struct iq *q, uint32_t node, uint32_t out, uint32_t vc)
{
    return (node * q->NO + out) * q->B + vc;
}
static inline void ring_push(struct iq_ring *r, uint32_t cap)
{
    RS_DASSERT(r->cnt < cap);
    (void)cap;
    r->cnt++;
}
/* (head + i) mod cap: every ring's capacity is a power of two (pow2_at_least) */
static inline uint32_t ring_wrap(uint32_t j, uint32_t cap)
{
    return j & (cap - 1);
}
#define RING_AT(arr, base, r, cap, i) (arr)[(base) * (cap) + ring_wrap((r)->head + (i), (cap))]
#define RING_BACK(arr, base, r, cap) (arr)[(base) * (cap) + ring_wrap((r)->head + (r)->cnt, (cap))]
/* a mod s and a / s for the speedups (s = 1, the default, without a division) */
static inline uint32_t mod_s(uint32_t a, uint32_t s)
{
    return s == 1 ? 0 : a % s;
}
static inline uint32_t div_s(uint32_t a, uint32_t s)
{
    return s == 1 ? a : a / s;
}
/* Clear a set of nw words (nw = 1: a router with at most 64 ports). */
static inline void bits_zero(uint64_t *s, uint32_t nw)
{
    s[0] = 0;
    for (uint32_t w = 1; w < nw; w++)
        s[w] = 0;
}
static inline void ring_pop(struct iq_ring *r, uint32_t cap)
{
    r->head = (r->head + 1) & (cap - 1);
    r->cnt--;
}

static inline void push_ent(struct iq *q, struct iq_ent *arr, struct iq_ring *r, uint32_t node,
                            uint32_t in, uint32_t vc)
{
    RS_ASSERT(r->cnt < q->QS);
    RING_BACK(arr, node, r, q->QS) = (struct iq_ent){-1, (uint16_t)in, (uint16_t)vc, -1};
    r->cnt++;
}

static inline int full_for(const struct iq *q, uint32_t x)
{
    return q->occ[x] >= q->depth;
}

/* The route of the packet at the front of input VC x of node: its output port and VCs. */
IQ_INLINE int route_vc(struct flit *f, struct iq *q, uint32_t node, uint32_t x, struct rs_err *err)
{
    uint32_t m = q->ibuf[(size_t)x * q->Dc + q->iq[x].head].m;
    int rc = f->adaptive ? rs__iq_rsets_route(&q->rs, f, node, x, m, err)
                         : rs__flit_route(f, m, node, err);
    if (rc)
        return rc;
    struct flit_worm *w = &f->w[m];
    if (w->next_chan == RS_NONE) {
        uint32_t j = q->dst_j[w->dst];
        if (q->dst_of[node] + j >= q->dst_of[node + 1] || q->dst_t[q->dst_of[node] + j] != w->dst)
            return rs_err_set(err, RS_EINVARIANT,
                              "router=iq: message %u ends at node %u, which is not the node of "
                              "its destination terminal %u",
                              w->msg, node, w->dst);
        q->r_port[x] = (uint16_t)(q->P + j);
        q->r_lo[x] = 0;
        q->r_hi[x] = (uint16_t)q->B;
    } else {
        RS_DASSERT(w->next_chan / q->P == node);
        q->r_port[x] = (uint16_t)(w->next_chan - node * q->P); /* channel node * P + port */
        q->r_lo[x] = (uint16_t)w->vc_lo;
        q->r_hi[x] = (uint16_t)w->vc_hi;
        if (q->vsplit) { /* Valiant's phase classes: [0, B/2) in phase A, [B/2, B) in B */
            int b = 1;
            if (w->mid != RS_NONE) {
                struct rs_route_state st = {w->src, w->dst, w->mid, w->hops, w->msg};
                (void)rs_route_leg(f->net, f->routing, &st, &b);
            }
            q->r_lo[x] = (uint16_t)(b ? q->B / 2 : 0);
            q->r_hi[x] = (uint16_t)(b ? q->B : q->B / 2);
        }
    }
    return 0;
}

/* A head is at the front of input VC (in, vc): start routing it (or, routing_delay=0, route
 * at once and bid for a VC). */
IQ_INLINE int start_head(struct flit *f, struct iq *q, uint32_t node, uint32_t in, uint32_t vc,
                         struct rs_err *err, const int fs)
{
    uint32_t x = ivc(q, node, in, vc);
    if (KQ(fs, q->rd, 1u)) {
        q->state[x] = VC_ROUTING;
        push_ent(q, q->rq, &q->nr[node].rq, node, in, vc);
        return 0;
    }
    int rc = route_vc(f, q, node, x, err);
    if (rc)
        return rc;
    q->state[x] = VC_VA;
    if (KQ(fs, q->spec, 0))
        push_ent(q, q->sq, &q->nr[node].sq, node, in, vc);
    push_ent(q, q->vq, &q->nr[node].vq, node, in, vc);
    return 0;
}

/* ---- one router's cycle ---------------------------------------------------------------- */

IQ_INLINE int input_queuing(struct flit *f, struct iq *q, uint32_t node, struct rs_err *err,
                            const int fs)
{
    int rc;
    uint64_t *rxm = &q->rxm[(size_t)node * KQ(fs, q->wI, 1u)];
    const uint32_t nw = KQ(fs, q->wI, 1u);
    for (uint32_t w = 0; w < nw; w++) {
        uint64_t bits = rxm[w]; /* the inputs with a flit, in increasing order */
        rxm[w] = 0;
        for (; bits; bits &= bits - 1) {
            uint32_t in = w * 64u + (uint32_t)__builtin_ctzll(bits);
            struct iq_fl *fl = &q->rx[node * q->NI + in];
            RS_DASSERT(fl->m != NO_FLIT);
            uint32_t x = ivc(q, node, in, fl->vc);
            struct iq_ring *r = &q->iq[x];
            RS_ASSERT(r->cnt < q->depth);
            q->ibuf[(size_t)x * q->Dc + ring_wrap(r->head + r->cnt, q->Dc)] = *fl;
            r->cnt++;
            if (r->cnt > f->max_buffer)
                f->max_buffer = r->cnt;
            if (q->state[x] == VC_IDLE) {
                RS_ASSERT(r->cnt == 1 && fl->k == 0);
                if ((rc = start_head(f, q, node, in, fl->vc, err, fs)))
                    return rc;
            } else if (q->state[x] == VC_ACTIVE && r->cnt == 1) {
                uint32_t ein = in * KQ(fs, q->s_in, 1u) + mod_s(fl->vc, KQ(fs, q->s_in, 1u));
                if (KQ(fs, q->hold, 0) && q->hold_vc[node * q->NIe + ein] == (int32_t)fl->vc)
                    push_ent(q, q->hq, &q->nr[node].hq, node, in, fl->vc);
                else
                    push_ent(q, q->sq, &q->nr[node].sq, node, in, fl->vc);
            }
            fl->m = NO_FLIT;
        }
    }
    struct iq_ring *pr = &q->nr[node].pc;
    while (!KQ(fs, q->cd0, 1) && pr->cnt) { /* cd0: credits count when read, never queued */
        struct iq_cred *c = &RING_AT(q->pc, node, pr, q->QP, 0);
        if ((int32_t)q->now < c->time)
            break;
        for (uint32_t v = 0; v < q->B; v++) {
            if (!(c->mask >> v & 1))
                continue;
            uint32_t y = ovc(q, node, c->out, v);
            RS_ASSERT(q->occ[y] > 0);
            q->occ[y]--;
            if (q->wftc && q->occ[y] == 0 && q->tail_sent[y])
                q->use[y] = -1;
        }
        ring_pop(pr, q->QP);
    }
    return 0;
}

/* The candidates of the head of input VC x: its route set under an adaptive routing, else
 * its one route (r_port, r_lo, r_hi) in *one. Returns how many. */
static inline uint32_t candidates(const struct flit *f, const struct iq *q, uint32_t x,
                                  struct rs_route_choice *one, const struct rs_route_choice **c)
{
    uint32_t n = f->adaptive ? rs__iq_rsets_get(&q->rs, x, c) : 0;
    if (n)
        return n;
    *one = (struct rs_route_choice){q->r_port[x], q->r_lo[x], q->r_hi[x]};
    *c = one;
    return 1;
}

/* VC allocation of a lone head (lone_va: vc_alloc_delay = 1, not speculative, an oblivious
 * routing): the front VC of the VC-allocation queue, alone in it, bids for each free VC of
 * its route (with vc_busy_when_full=1: each with a credit); no such VC: it stalls. Its
 * bids come from one input VC with one priority, so every allocator grants the first at or
 * after that input's pointer and moves both pointers past it (the outcome of
 * vc_alloc_evaluate's passes for one entry, without the request list). */
IQ_INLINE void vc_alloc_lone(struct iq *q, uint32_t node, const int fs)
{
    struct iq_ent *e = &RING_AT(q->vq, node, &q->nr[node].vq, q->QS, 0);
    if (e->time >= 0)
        return;
    e->time = (int32_t)q->now;
    uint32_t x = ivc(q, node, e->in, e->vc), o = q->r_port[x], nvo = q->NO * q->B;
    uint32_t vin = e->in * q->B + e->vc, ptr = q->va_in_ptr[(size_t)node * q->NI * q->B + vin];
    uint32_t best = RS_NONE, bd = 0;
    for (uint32_t v = q->r_lo[x]; v < q->r_hi[x]; v++) {
        uint32_t y = ovc(q, node, o, v), vout = o * q->B + v;
        if (q->use[y] >= 0 || (q->busy_full && full_for(q, y)))
            continue;
        uint32_t d = vout >= ptr ? vout - ptr : vout + nvo - ptr;
        if (best == RS_NONE || d < bd) {
            best = vout;
            bd = d;
        }
    }
    if (best == RS_NONE) {
        e->res = STALL;
        return;
    }
    q->va_in_ptr[(size_t)node * q->NI * q->B + vin] = best + 1 == nvo ? 0 : best + 1;
    q->va_out_ptr[(size_t)node * nvo + best] = vin + 1 == q->NI * q->B ? 0 : vin + 1;
    e->res = (int32_t)best;
}

static void vc_alloc_evaluate(const struct flit *f, struct iq *q, uint32_t node)
{
    struct iq_ring *r = &q->nr[node].vq;
    q->n_vreq = 0;
    for (uint32_t i = 0; i < r->cnt; i++) {
        struct iq_ent *e = &RING_AT(q->vq, node, r, q->QS, i);
        if (e->time >= 0)
            break;
        uint32_t x = ivc(q, node, e->in, e->vc);
        struct rs_route_choice one;
        const struct rs_route_choice *c;
        uint32_t nc = candidates(f, q, x, &one, &c);
        int elig = 0, cred = 0;
        for (uint32_t k = 0; k < nc; k++) {
            /* the routing's order as the priority at the input VC's arbiter: the escape
             * (last) candidate lowest, 0 (one route: 0) */
            int32_t pri = (int32_t)(nc - 1 - k);
            uint32_t o = c[k].port;
            int atomic = f->adaptive && rs__iq_rsets_atomic(&q->rs, x, k);
            for (uint32_t v = c[k].vc_lo; v < c[k].vc_hi; v++) {
                uint32_t y = ovc(q, node, o, v);
                if (q->use[y] >= 0 || (atomic && q->occ[y]))
                    continue; /* taken; an adaptive VC next to an escape: not empty */
                elig = 1;
                if (q->busy_full && full_for(q, y))
                    continue;
                cred = 1;
                RS_ASSERT(q->n_vreq < q->max_vreq);
                q->vreq[q->n_vreq++] =
                    (struct iq_req){e->in * q->B + e->vc, o * q->B + v, 0, pri, 0};
            }
        }
        if (!elig || (q->busy_full && !cred))
            e->res = STALL;
    }
    q->vaa.in_ptr = q->va_in_ptr + (size_t)node * q->NI * q->B;
    q->vaa.out_ptr = q->va_out_ptr + (size_t)node * q->NO * q->B;
    iq_allocate(&q->vaa, q->vreq, q->n_vreq);
    for (uint32_t i = 0; i < r->cnt; i++) {
        struct iq_ent *e = &RING_AT(q->vq, node, r, q->QS, i);
        if (e->time >= 0)
            break;
        e->time = (int32_t)(q->now + q->va - 1);
        if (e->res < -1)
            continue;
        int32_t g = q->vaa.inmatch[e->in * q->B + e->vc];
        e->res = g >= 0 ? g : STALL;
    }
    if (q->va <= 1)
        return;
    for (uint32_t i = 0; i < r->cnt; i++) {
        struct iq_ent *e = &RING_AT(q->vq, node, r, q->QS, i);
        if ((int32_t)q->now < e->time)
            break;
        if (e->res < 0)
            continue;
        uint32_t y = ovc(q, node, (uint32_t)e->res / q->B, (uint32_t)e->res % q->B);
        if (q->use[y] >= 0 || (q->busy_full && full_for(q, y)))
            e->res = STALL;
    }
}

/* Add input VC (in, vc)'s bid for output out to the switch allocator: one bid per
 * (crossbar input, crossbar output), the VC first at or after the input's round-robin
 * offset winning (BookSim's _SWAllocAddReq). */
static void sw_add_req(struct iq *q, uint32_t node, uint32_t in, uint32_t vc, uint32_t out,
                       int32_t prio)
{
    uint32_t ein = in * q->s_in + mod_s(vc, q->s_in), eout = out * q->s_out + mod_s(in, q->s_out);
    if (q->hold && (q->hold_in[node * q->NIe + ein] >= 0 || q->hold_out[node * q->NOe + eout] >= 0))
        return; /* a held connection uses that crossbar input or output */
    int32_t *at = &q->sreq_at[ein * q->NOe + eout];
    if (*at >= 0) {
        struct iq_req *o = &q->sreq[*at];
        if (rs__iq_supersedes(vc, prio, (uint32_t)o->label, o->in_pri,
                              q->sw_rr[node * q->NIe + ein], q->B)) {
            o->label = (int32_t)vc;
            o->in_pri = o->out_pri = prio;
        }
        return;
    }
    *at = (int32_t)q->n_sreq;
    q->sreq[q->n_sreq++] = (struct iq_req){ein, eout, (int32_t)vc, prio, prio};
}

/* Switch allocation of a lone bid (lone_sa: sw_alloc_delay = 1, not speculative, no held
 * connections): the front VC of the switch-allocation queue, alone in it, bids for its
 * output unless the output VC has no credit; a lone request is granted by every allocator,
 * both its arbiters' pointers moving past it, and the input's VC offset moving past the VC
 * (the outcome of sw_alloc_evaluate's passes for one entry, without the bid table). */
IQ_INLINE void sw_alloc_lone(struct iq *q, uint32_t node, const int fs)
{
    struct iq_ent *e = &RING_AT(q->sq, node, &q->nr[node].sq, q->QS, 0);
    if (e->time >= 0)
        return;
    e->time = (int32_t)q->now;
    uint32_t x = ivc(q, node, e->in, e->vc), out = q->out_port[x];
    if (full_for(q, ovc(q, node, out, q->out_vc[x]))) {
        e->res = STALL;
        return;
    }
    uint32_t ein = e->in * KQ(fs, q->s_in, 1u) + mod_s(e->vc, KQ(fs, q->s_in, 1u));
    uint32_t eout = out * KQ(fs, q->s_out, 1u) + mod_s(e->in, KQ(fs, q->s_out, 1u));
    q->sa_in_ptr[node * q->NIe + ein] = eout + 1 == q->NOe ? 0 : eout + 1;
    q->sa_out_ptr[node * q->NOe + eout] = ein + 1 == q->NIe ? 0 : ein + 1;
    uint32_t nx = e->vc + KQ(fs, q->s_in, 1u);
    q->sw_rr[node * q->NIe + ein] = nx < q->B ? nx : nx % q->B;
    e->res = (int32_t)eout;
}

/* Switch allocation without conflicts (lone_sa: sw_alloc_delay = 1, not speculative, no
 * held connections): when the VCs of the switch-allocation queue (at most IQ_FREE_SA of
 * them, none evaluated yet) that bid (their output VC has a credit) use distinct crossbar
 * inputs and distinct crossbar outputs, every allocator grants every bid, both arbiters'
 * pointers moving past it, and each input's VC offset moves past its VC: the outcome of
 * sw_alloc_evaluate's passes, without the bid table. Returns 0 (nothing changed) when the
 * queue does not qualify. */
#define IQ_FREE_SA 8
IQ_INLINE int sw_alloc_free(struct iq *q, uint32_t node, const int fs)
{
    struct iq_ring *r = &q->nr[node].sq;
    uint32_t n = r->cnt, ein[IQ_FREE_SA], eout[IQ_FREE_SA];
    if (n > IQ_FREE_SA)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        struct iq_ent *e = &RING_AT(q->sq, node, r, q->QS, i);
        if (e->time >= 0)
            return 0;
        uint32_t x = ivc(q, node, e->in, e->vc), out = q->out_port[x];
        ein[i] = RS_NONE;
        if (full_for(q, ovc(q, node, out, q->out_vc[x])))
            continue;
        ein[i] = e->in * KQ(fs, q->s_in, 1u) + mod_s(e->vc, KQ(fs, q->s_in, 1u));
        eout[i] = out * KQ(fs, q->s_out, 1u) + mod_s(e->in, KQ(fs, q->s_out, 1u));
        for (uint32_t j = 0; j < i; j++)
            if (ein[j] != RS_NONE && (ein[j] == ein[i] || eout[j] == eout[i]))
                return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        struct iq_ent *e = &RING_AT(q->sq, node, r, q->QS, i);
        e->time = (int32_t)q->now;
        if (ein[i] == RS_NONE) {
            e->res = STALL;
            continue;
        }
        q->sa_in_ptr[node * q->NIe + ein[i]] = eout[i] + 1 == q->NOe ? 0 : eout[i] + 1;
        q->sa_out_ptr[node * q->NOe + eout[i]] = ein[i] + 1 == q->NIe ? 0 : ein[i] + 1;
        uint32_t nx = e->vc + KQ(fs, q->s_in, 1u);
        q->sw_rr[node * q->NIe + ein[i]] = nx < q->B ? nx : nx % q->B;
        e->res = (int32_t)eout[i];
    }
    return 1;
}

static void sw_alloc_evaluate(const struct flit *f, struct iq *q, uint32_t node)
{
    struct iq_ring *r = &q->nr[node].sq;
    q->n_sreq = 0;
    for (uint32_t i = 0; i < r->cnt; i++) {
        struct iq_ent *e = &RING_AT(q->sq, node, r, q->QS, i);
        if (e->time >= 0)
            break;
        uint32_t x = ivc(q, node, e->in, e->vc);
        if (q->state[x] == VC_ACTIVE) {
            if (full_for(q, ovc(q, node, q->out_port[x], q->out_vc[x]))) {
                e->res = STALL;
                continue;
            }
            sw_add_req(q, node, e->in, e->vc, q->out_port[x], 0);
            continue;
        }
        /* speculative bid of a head still bidding for a VC, for the output of each
         * candidate: only if every candidate has a free VC with a credit (BookSim's
         * spec_check_elig, spec_check_cred: one that has none stalls the head's bid) */
        struct rs_route_choice one;
        const struct rs_route_choice *c;
        uint32_t nc = candidates(f, q, x, &one, &c);
        int ok = 1;
        for (uint32_t k = 0; k < nc && ok; k++) {
            int elig = 0, cred = 0;
            for (uint32_t v = c[k].vc_lo; v < c[k].vc_hi; v++) {
                uint32_t y = ovc(q, node, c[k].port, v);
                if (q->use[y] < 0) {
                    elig = 1;
                    if (!full_for(q, y)) {
                        cred = 1;
                        break;
                    }
                }
            }
            ok = elig && cred;
        }
        if (!ok)
            e->res = STALL;
        else
            for (uint32_t k = 0; k < nc; k++)
                sw_add_req(q, node, e->in, e->vc, c[k].port, INT32_MIN);
    }
    q->saa.in_ptr = q->sa_in_ptr + (size_t)node * q->NIe;
    q->saa.out_ptr = q->sa_out_ptr + (size_t)node * q->NOe;
    iq_allocate(&q->saa, q->sreq, q->n_sreq);
    for (uint32_t i = 0; i < r->cnt; i++) {
        struct iq_ent *e = &RING_AT(q->sq, node, r, q->QS, i);
        if (e->time >= 0)
            break;
        e->time = (int32_t)(q->now + q->sa - 1);
        if (e->res < -1)
            continue;
        uint32_t ein = e->in * q->s_in + mod_s(e->vc, q->s_in);
        int32_t eout = q->saa.inmatch[ein];
        e->res = STALL;
        if (eout >= 0 && q->sreq[q->sreq_at[ein * q->NOe + (uint32_t)eout]].label == e->vc) {
            uint32_t nx = e->vc + q->s_in;
            q->sw_rr[node * q->NIe + ein] = nx < q->B ? nx : nx % q->B;
            e->res = eout;
        }
    }
    if (q->spec || q->sa > 1)
        for (uint32_t i = 0; i < r->cnt; i++) {
            struct iq_ent *e = &RING_AT(q->sq, node, r, q->QS, i);
            if ((int32_t)q->now < e->time)
                break;
            if (e->res < 0)
                continue;
            uint32_t o = div_s((uint32_t)e->res, q->s_out), x = ivc(q, node, e->in, e->vc);
            uint32_t ein = e->in * q->s_in + mod_s(e->vc, q->s_in);
            if (q->hold && (q->hold_in[node * q->NIe + ein] >= 0 ||
                            q->hold_out[node * q->NOe + (uint32_t)e->res] >= 0)) {
                e->res = STALL;
            } else if (q->state[x] == VC_VA) { /* speculative: its VC bid must win, same output */
                int32_t g = q->vaa.inmatch[e->in * q->B + e->vc];
                if (g < 0)
                    e->res = -1;
                else if ((uint32_t)g / q->B != o)
                    e->res = STALL;
                else if (full_for(q, ovc(q, node, o, (uint32_t)g % q->B)))
                    e->res = STALL;
            } else if (full_for(q, ovc(q, node, o, q->out_vc[x]))) {
                e->res = STALL;
            }
        }
}

/* The first member at or after ptr of the set mask (non-empty) of positions below 32. */
static inline uint32_t rr_first(uint32_t mask, uint32_t ptr)
{
    uint32_t hi = mask & (~0u << ptr);
    return (uint32_t)__builtin_ctz(hi ? hi : mask);
}

/* iSLIP's iterations on bit sets (sw_alloc_bits, set_sw_alloc): the outputs in outs, the
 * inputs requesting output o in req[o]; in each of at most iters iterations every output
 * with a request from an unmatched input grants the first at or after its pointer op[o],
 * every granted input accepts the first granting output at or after its pointer ip[i], and
 * the pointers move past the first iteration's matches. The matched inputs are added to
 * *inm, each with its output in mi[input]. */
IQ_INLINE void islip_bits(uint32_t iters, uint32_t outs, const uint32_t *req, uint32_t *op,
                          uint32_t *ip, uint32_t NIe, uint32_t NOe, uint32_t *inm_io,
                          uint8_t *mi)
{
    uint32_t gr[32], inm = *inm_io, outm = 0;
    for (uint32_t it = 0; it < iters; it++) {
        uint32_t gin = 0;
        for (uint32_t ob = outs & ~outm; ob; ob &= ob - 1) {
            uint32_t o = (uint32_t)__builtin_ctz(ob), m = req[o] & ~inm;
            if (!m)
                continue;
            uint32_t g = rr_first(m, op[o]);
            if (!(gin >> g & 1)) {
                gin |= 1u << g;
                gr[g] = 0;
            }
            gr[g] |= 1u << o;
        }
        if (!gin)
            break; /* no grant: later iterations would find the same */
        for (; gin; gin &= gin - 1) {
            uint32_t i = (uint32_t)__builtin_ctz(gin), o = rr_first(gr[i], ip[i]);
            mi[i] = (uint8_t)o;
            inm |= 1u << i;
            outm |= 1u << o;
            if (it == 0) {
                op[o] = i + 1 == NIe ? 0 : i + 1;
                ip[i] = o + 1 == NOe ? 0 : o + 1;
            }
        }
    }
    *inm_io = inm;
}

/* Switch allocation by iSLIP in the fast configuration with sa_bits (sw_allocator=islip,
 * at most 32 crossbar inputs and outputs, at most 256 VCs): sw_alloc_evaluate's outcome
 * with the bids held as bit sets. Each bidding entry (its output VC has a credit) bids for
 * its output, one bid per (input, output), the VC first at or after the input's VC offset
 * winning; in each iteration every output with a bid from an unmatched input grants the
 * first at or after its pointer, every granted input accepts the first granting output at
 * or after its pointer, pointers moving past the first iteration's matches; an entry whose
 * input was matched to its output with its VC as the bid is granted, its input's VC offset
 * moving past it (rs__iq_allocate's iSLIP and one-input cases give these grants). */
IQ_INLINE void sw_alloc_bits(struct iq *q, uint32_t node)
{
    struct iq_ring *r = &q->nr[node].sq;
    const uint32_t n = r->cnt, NIe = q->NIe, NOe = q->NOe, B = q->B;
    uint32_t *rr = q->sw_rr + (size_t)node * NIe;
    uint32_t *ip = q->sa_in_ptr + (size_t)node * NIe, *op = q->sa_out_ptr + (size_t)node * NOe;
    uint32_t req[32], outs = 0, inm = 0;
    uint8_t lab[32][32], mi[32];
    /* the queue's entries and the router's VC state in locals (stores through e would
     * otherwise reload them) */
    struct iq_ent *sq = q->sq + (size_t)node * q->QS;
    const uint32_t h = r->head, mk = q->QS - 1, xb = node * q->NI, yb = node * q->NO;
    const uint16_t *out_port = q->out_port, *out_vc = q->out_vc;
    const uint32_t *occ = q->occ, depth = q->depth;
    for (uint32_t i = 0; i < n; i++) {
        struct iq_ent *e = &sq[(h + i) & mk];
        RS_DASSERT(e->time < 0 && e->res == -1);
        uint32_t x = (xb + e->in) * B + e->vc, o = out_port[x];
        RS_DASSERT(q->state[x] == VC_ACTIVE);
        if (occ[(yb + o) * B + out_vc[x]] >= depth) {
            e->res = STALL;
            continue;
        }
        uint32_t in = e->in, ib = 1u << in;
        if (!(outs >> o & 1)) {
            outs |= 1u << o;
            req[o] = 0;
        }
        if (!(req[o] & ib)) {
            req[o] |= ib;
            lab[in][o] = (uint8_t)e->vc;
        } else {
            uint32_t p = rr[in], a = e->vc, b = lab[in][o];
            uint32_t da = a >= p ? a - p : a + B - p, db = b >= p ? b - p : b + B - p;
            if (da < db)
                lab[in][o] = (uint8_t)a;
        }
    }
    islip_bits(q->iters, outs, req, op, ip, NIe, NOe, &inm, mi);
    const int32_t now = (int32_t)q->now;
    for (uint32_t i = 0; i < n; i++) {
        struct iq_ent *e = &sq[(h + i) & mk];
        e->time = now;
        if (e->res < -1)
            continue;
        uint32_t in = e->in;
        if ((inm >> in & 1) && lab[in][mi[in]] == e->vc) {
            uint32_t nx = e->vc + 1u;
            rr[in] = nx < B ? nx : 0; /* vc < B */
            e->res = (int32_t)mi[in];
        } else {
            e->res = STALL;
        }
    }
}

IQ_INLINE int route_update(struct flit *f, struct iq *q, uint32_t node, struct rs_err *err,
                           const int fs)
{
    struct iq_ring *r = &q->nr[node].rq;
    int rc;
    while (r->cnt) {
        struct iq_ent e = RING_AT(q->rq, node, r, q->QS, 0);
        if (KQ(fs, q->rd, 1u) != 1 && (e.time < 0 || (int32_t)q->now < e.time))
            break; /* routing_delay=1: every entry was added since the last update, due now */
        ring_pop(r, q->QS);
        uint32_t x = ivc(q, node, e.in, e.vc);
        if ((rc = route_vc(f, q, node, x, err)))
            return rc;
        q->state[x] = VC_VA;
        if (KQ(fs, q->spec, 0))
            push_ent(q, q->sq, &q->nr[node].sq, node, e.in, e.vc);
        push_ent(q, q->vq, &q->nr[node].vq, node, e.in, e.vc);
    }
    return 0;
}

IQ_INLINE void vc_alloc_update(struct flit *f, struct iq *q, uint32_t node, const int fs)
{
    struct iq_ring *r = &q->nr[node].vq;
    while (r->cnt) {
        struct iq_ent e = RING_AT(q->vq, node, r, q->QS, 0);
        if (e.time < 0 || (int32_t)q->now < e.time)
            break;
        ring_pop(r, q->QS);
        uint32_t x = ivc(q, node, e.in, e.vc);
        if (e.res >= 0) {
            uint32_t o = (uint32_t)e.res / q->B, v = (uint32_t)e.res % q->B;
            uint32_t y = ovc(q, node, o, v);
            RS_ASSERT(q->use[y] < 0);
            q->use[y] = (int32_t)(e.in * q->B + e.vc);
            q->tail_sent[y] = 0;
            q->out_port[x] = (uint16_t)o;
            q->out_vc[x] = (uint16_t)v;
            q->state[x] = VC_ACTIVE;
            if (KQ(fs, f->adaptive, 0))
                rs__iq_rsets_granted(&q->rs, x, q->ibuf[(size_t)x * q->Dc + q->iq[x].head].m,
                                     o, v);
            if (!KQ(fs, q->spec, 0))
                push_ent(q, q->sq, &q->nr[node].sq, node, e.in, e.vc);
        } else {
            f->blocked++;
            RS_EVENT(f->ev, RS_EV_BLOCKED, q->now,
                     FLIT_EV_ID(f, q->ibuf[(size_t)x * q->Dc + q->iq[x].head].m), node,
                     q->r_port[x] < q->P ? q->r_port[x] : RS_EV_NONE, RS_EV_NONE);
            push_ent(q, q->vq, &q->nr[node].vq, node, e.in, e.vc);
        }
    }
}

/* The credit of a flit that left input VC (in, vc) of node in this cycle: onto the input's
 * channel back to its sender (a terminal's injection credit channel for in >= P), in the
 * ring slot written now. The credits of one input in one cycle share a mask and a slot
 * (BookSim sends one credit per input per cycle); the first lists the slot as an event. */
IQ_INLINE void send_credit(struct flit *f, struct iq *q, uint32_t node, uint32_t in, uint32_t vc,
                           const int fs)
{
    uint64_t bit = (uint64_t)1 << vc;
    if (KQ(fs, q->cy0, 1) && in < q->P) {
        uint32_t y = q->up_y[node * q->NI + in] + vc;
        *q->cy_w++ = y;
        f->step_moves++;
    } else if (in < q->P) {
        uint32_t c = q->in_chan[node * q->P + in];
        uint64_t *cr = &q->chc[(size_t)c * q->R + q->r_wr];
        if (!*cr) {
            *q->evc_w++ = c;
            f->step_moves++;
        }
        *cr |= bit;
    } else {
        uint32_t t = q->src_t[q->src_of[node] + in - q->P];
        uint64_t *cr = &q->injc[(size_t)t * q->Rt + q->rt_wr];
        if (!*cr) {
            *q->evj_w++ = t;
            f->step_moves++;
        }
        *cr |= bit;
    }
}

/* direct: flit fl, switched to output o of node in cycle now, is written to o's channel
 * (or ejection channel) as the switch and output queue would write it in cycle now + 1:
 * that cycle's write slot, (now + 1 + lat + 1) mod R = now mod R (and (now + 3) mod 3 for
 * a terminal's), is the slot read at the start of this cycle, free again. */
static inline void write_flit(struct iq *q, uint32_t node, uint32_t o, struct iq_fl fl)
{
    if (o < q->P) {
        uint32_t c = node * q->P + o;
        *q->evf_w++ = (struct iq_fev){c, fl};
    } else {
        uint32_t t = q->dst_t[q->dst_of[node] + o - q->P];
        q->ejf[(size_t)t * q->Rt + q->rt_now] = fl;
        iq_bit_set(q->ejm_w, t);
    }
    q->carry++;
}

/* Move the front flit of input VC (in, vc) through crossbar output eout (a won switch or
 * a held connection): out of its buffer, onto the output VC's count, into the crossbar
 * queue, a credit made for its buffer. Returns 1 if it was its packet's tail. */
IQ_INLINE int move_flit(struct flit *f, struct iq *q, uint32_t node, uint32_t in, uint32_t vc,
                        uint32_t eout, const int fs)
{
    uint32_t x = ivc(q, node, in, vc), o = div_s(eout, KQ(fs, q->s_out, 1u));
    RS_ASSERT(q->state[x] == VC_ACTIVE);
    struct iq_ring *br = &q->iq[x];
    struct iq_fl fl = q->ibuf[(size_t)x * q->Dc + br->head];
    ring_pop(br, q->Dc);
    int tail = fl.tail;
    fl.vc = (uint8_t)q->out_vc[x];
    if (o < q->P) {
        f->flit_hops++;
        if (fl.k == 0)
            f->w[fl.m].hops++;
        RS_EVENT_IF(EVQ(fs, f->ev), fl.k == 0, RS_EV_HOP, q->now, FLIT_EV_ID(f, fl.m), node, o,
                    fl.vc);
    }
    uint32_t y = ovc(q, node, o, fl.vc);
    q->occ[y]++;
    RS_ASSERT(q->occ[y] <= q->depth);
    if (tail) {
        q->tail_sent[y] = 1;
        if (!q->wftc)
            q->use[y] = -1;
    }
    if (KQ(fs, q->direct, 1)) {
        write_flit(q, node, o, fl);
    } else {
        struct iq_ring *xr = &q->nr[node].xq;
        RS_ASSERT(xr->cnt < q->QX);
        RING_BACK(q->xq, node, xr, q->QX) = (struct iq_xent){
            -1, fl, (uint16_t)(in * KQ(fs, q->s_in, 1u) + mod_s(vc, KQ(fs, q->s_in, 1u))),
            (uint16_t)eout};
        xr->cnt++;
    }
    send_credit(f, q, node, in, vc, fs);
    f->step_moves++;
    return tail;
}

static void hold_release(struct iq *q, uint32_t node, uint32_t ein)
{
    uint32_t eout = (uint32_t)q->hold_in[node * q->NIe + ein];
    q->hold_vc[node * q->NIe + ein] = -1;
    q->hold_in[node * q->NIe + ein] = -1;
    q->hold_out[node * q->NOe + eout] = -1;
}

/* hold_switch_for_packet=1: the VCs holding a crossbar connection send their next flit
 * through it when the output VC has a credit (evaluated in the cycle, applied in it);
 * without a credit, the connection is released and the VC bids again. */
static void sw_hold_evaluate(struct iq *q, uint32_t node)
{
    struct iq_ring *r = &q->nr[node].hq;
    for (uint32_t i = 0; i < r->cnt; i++) {
        struct iq_ent *e = &RING_AT(q->hq, node, r, q->QS, i);
        if (e->time >= 0)
            break;
        e->time = (int32_t)q->now;
        uint32_t x = ivc(q, node, e->in, e->vc);
        uint32_t eout = q->out_port[x] * q->s_out + mod_s(e->in, q->s_out);
        e->res = full_for(q, ovc(q, node, q->out_port[x], q->out_vc[x])) ? STALL : (int32_t)eout;
    }
}

static int sw_hold_update(struct flit *f, struct iq *q, uint32_t node, struct rs_err *err)
{
    struct iq_ring *r = &q->nr[node].hq;
    int rc;
    while (r->cnt) {
        struct iq_ent e = RING_AT(q->hq, node, r, q->QS, 0);
        if (e.time < 0)
            break;
        ring_pop(r, q->QS);
        uint32_t ein = e.in * q->s_in + mod_s(e.vc, q->s_in);
        if (e.res < 0) {
            hold_release(q, node, ein);
            push_ent(q, q->sq, &q->nr[node].sq, node, e.in, e.vc);
            continue;
        }
        int tail = move_flit(f, q, node, e.in, e.vc, (uint32_t)e.res, 0);
        uint32_t x = ivc(q, node, e.in, e.vc);
        if (q->iq[x].cnt == 0) {
            hold_release(q, node, ein);
            if (tail)
                q->state[x] = VC_IDLE;
        } else if (tail) {
            hold_release(q, node, ein);
            if ((rc = start_head(f, q, node, e.in, e.vc, err, 0)))
                return rc;
        } else {
            push_ent(q, q->hq, &q->nr[node].hq, node, e.in, e.vc);
        }
    }
    return 0;
}

/* sw_alloc_update when lone_sa and every entry of the queue was evaluated this cycle: each
 * entry is popped and, if its VC bids again, pushed back, in order, so the queue keeps the
 * bidding entries in their order, reset: compacted in place. With lone_sa nothing else
 * pushes to this queue meanwhile (start_head pushes to the routing or VC-allocation queue
 * when not speculative). */
IQ_INLINE int sw_alloc_update_all(struct flit *f, struct iq *q, uint32_t node, struct rs_err *err,
                                  const int fs)
{
    struct iq_ring *r = &q->nr[node].sq;
    uint32_t n = r->cnt, j = 0;
    int rc;
    for (uint32_t i = 0; i < n; i++) {
        struct iq_ent e = RING_AT(q->sq, node, r, q->QS, i);
        int keep = e.res < 0;
        if (!keep) {
            uint32_t x = ivc(q, node, e.in, e.vc);
            int tail = move_flit(f, q, node, e.in, e.vc, (uint32_t)e.res, fs);
            if (q->iq[x].cnt == 0) {
                if (tail)
                    q->state[x] = VC_IDLE;
            } else if (tail) {
                if ((rc = start_head(f, q, node, e.in, e.vc, err, fs)))
                    return rc;
            } else {
                keep = 1;
            }
        }
        if (keep)
            RING_AT(q->sq, node, r, q->QS, j++) = (struct iq_ent){-1, e.in, e.vc, -1};
    }
    r->cnt = j;
    return 0;
}

IQ_INLINE int sw_alloc_update(struct flit *f, struct iq *q, uint32_t node, struct rs_err *err,
                              const int fs)
{
    struct iq_ring *r = &q->nr[node].sq;
    int rc;
    while (r->cnt) {
        struct iq_ent e = RING_AT(q->sq, node, r, q->QS, 0);
        if (e.time < 0 || (int32_t)q->now < e.time)
            break;
        ring_pop(r, q->QS);
        if (e.res < 0) {
            push_ent(q, q->sq, &q->nr[node].sq, node, e.in, e.vc);
            continue;
        }
        uint32_t x = ivc(q, node, e.in, e.vc);
        int tail = move_flit(f, q, node, e.in, e.vc, (uint32_t)e.res, fs);
        if (q->iq[x].cnt == 0) {
            if (tail)
                q->state[x] = VC_IDLE;
        } else if (tail) {
            if ((rc = start_head(f, q, node, e.in, e.vc, err, fs)))
                return rc;
        } else if (KQ(fs, q->hold, 0)) {
            uint32_t ein = e.in * KQ(fs, q->s_in, 1u) + mod_s(e.vc, KQ(fs, q->s_in, 1u));
            q->hold_vc[node * q->NIe + ein] = e.vc;
            q->hold_in[node * q->NIe + ein] = e.res;
            q->hold_out[node * q->NOe + (uint32_t)e.res] = (int32_t)ein;
            push_ent(q, q->hq, &q->nr[node].hq, node, e.in, e.vc);
        } else {
            push_ent(q, q->sq, &q->nr[node].sq, node, e.in, e.vc);
        }
    }
    return 0;
}

IQ_INLINE int router_cycle(struct flit *f, struct iq *q, uint32_t node, struct rs_err *err,
                           const int fs)
{
    int rc;
    if ((rc = input_queuing(f, q, node, err, fs)))
        return rc;
    struct iq_ring *r = &q->nr[node].rq;
    /* routing_delay = 1: route_update takes the whole queue */
    for (uint32_t i = 0; KQ(fs, q->rd, 1u) != 1 && i < r->cnt; i++) {
        struct iq_ent *e = &RING_AT(q->rq, node, r, q->QS, i);
        if (e->time >= 0)
            break;
        e->time = (int32_t)(q->now + KQ(fs, q->rd, 1u) - 1);
    }
    if (q->nr[node].vq.cnt == 1 && KQ(fs, q->lone_va, 1))
        vc_alloc_lone(q, node, fs);
    else if (q->nr[node].vq.cnt)
        vc_alloc_evaluate(f, q, node);
    if (KQ(fs, q->hold, 0) && q->nr[node].hq.cnt)
        sw_hold_evaluate(q, node);
    if (q->nr[node].sq.cnt == 1 && KQ(fs, q->lone_sa, 1))
        sw_alloc_lone(q, node, fs);
    else if (fs && q->sa_bits && q->nr[node].sq.cnt)
        sw_alloc_bits(q, node);
    else if (q->nr[node].sq.cnt && !(KQ(fs, q->lone_sa, 1) && sw_alloc_free(q, node, fs)))
        sw_alloc_evaluate(f, q, node);
    struct iq_ring *xr = &q->nr[node].xq;
    for (uint32_t i = 0; !fs && i < xr->cnt; i++) { /* fs: direct, the crossbar unused */
        struct iq_xent *e = &RING_AT(q->xq, node, xr, q->QX, i);
        if (e->time >= 0)
            break;
        e->time = (int32_t)(q->now + KQ(fs, q->xd, 1u) - 1);
    }
    if ((rc = route_update(f, q, node, err, fs)))
        return rc;
    uint32_t n_sq = q->nr[node].sq.cnt;
    vc_alloc_update(f, q, node, fs);
    if (KQ(fs, q->hold, 0) && (rc = sw_hold_update(f, q, node, err)))
        return rc;
    /* lone_sa: the switch-allocation queue's entries were all evaluated this cycle unless VC
     * allocation just added some (nothing else adds to it after its evaluation) */
    if (KQ(fs, q->lone_sa, 1) && q->nr[node].sq.cnt == n_sq)
        rc = sw_alloc_update_all(f, q, node, err, fs);
    else
        rc = sw_alloc_update(f, q, node, err, fs);
    if (rc)
        return rc;
    if (q->n_vreq | q->n_sreq) { /* an allocator ran: reset its result for the next */
        for (uint32_t k = 0; k < q->n_vreq; k++)
            q->vaa.inmatch[q->vreq[k].in] = q->vaa.outmatch[q->vreq[k].out] = -1;
        for (uint32_t k = 0; k < q->n_sreq; k++) {
            const struct iq_req *rq = &q->sreq[k];
            q->saa.inmatch[rq->in] = q->saa.outmatch[rq->out] = -1;
            q->sreq_at[rq->in * q->NOe + rq->out] = -1;
        }
        q->n_vreq = q->n_sreq = 0;
    }
    while (!fs && xr->cnt) { /* switch update: into the output queue */
        struct iq_xent e = RING_AT(q->xq, node, xr, q->QX, 0);
        if (e.time < 0 || (int32_t)q->now < e.time)
            break;
        ring_pop(xr, q->QX);
        uint32_t o = div_s(e.eout, KQ(fs, q->s_out, 1u));
        struct iq_ring *orr = &q->oqr[node * q->NO + o];
        RS_ASSERT(orr->cnt < q->QO);
        RING_BACK(q->oq, node * q->NO + o, orr, q->QO) = e.fl;
        orr->cnt++;
        iq_bit_set(&q->oqm[(size_t)node * q->wO], o);
        iq_bit_set(q->wbusy, node);
    }
    /* still busy next cycle: a stage, the crossbar or a received credit has entries (fs:
     * no held connections, crossbar or received-credit queue) */
    const struct iq_rings *nr = &q->nr[node];
    if (fs ? !(nr->rq.cnt | nr->vq.cnt | nr->sq.cnt)
           : !(nr->rq.cnt | nr->vq.cnt | nr->sq.cnt | nr->hq.cnt | xr->cnt | nr->pc.cnt))
        iq_bit_clear(q->busy, node);
    return 0;
}

/* One router's cycle in any configuration (the keys read from q), and in the fast one
 * (q->fast: the keys it fixes as constants; inlined into the step's loop). */
static __attribute__((noinline)) int router_cycle_any(struct flit *f, struct iq *q, uint32_t node,
                                                      struct rs_err *err)
{
    return router_cycle(f, q, node, err, 0);
}

IQ_INLINE int router_cycle_fast(struct flit *f, struct iq *q, uint32_t node, struct rs_err *err)
{
    return router_cycle(f, q, node, err, 1);
}

/* ---- the fast cycle on sets (q->sets) ------------------------------------------------------ */

/* In the fast configuration every entry of a stage queue is evaluated in the cycle after
 * (VC allocation) or in the cycle (switch allocation, routing) it joined, and the queues'
 * order decides nothing but the order of moves, VC grants and event records: the
 * allocators' grants do not depend on the order of their requests (round-robin arbiters
 * and iSLIP over distinct ports), a switch bid's VC is the first at or after the input's
 * offset whatever the order, and the moves and credits of one cycle touch distinct buffers
 * and are read back only in later cycles, by steps whose outcome is order-free (a receive
 * slot per input, credit counts). So without an event log (q->sets) a node's routing,
 * VC-allocation and switch-allocation queues are sets of input VCs (iv = in * B + vc, at
 * most 64), visited in increasing order, and one cycle runs: input queuing (done as the
 * flits are read, set_arrive); VC allocation of the heads that waited since the last
 * cycle, granted heads bidding for the switch from the next cycle; switch allocation of
 * the VCs bidding now and their moves; routing of the heads that arrived (or reached the
 * front) before this cycle's moves. This is the
 * outcome of router_cycle's stages in their order: VC allocation reads no state that
 * switch allocation, routing or the moves write in the same cycle except the output VCs'
 * holders, and a VC granted in this cycle was free, so it is none that a move frees. */

/* Input queuing of flit fl read at input in of node (q->sets: done as the flit is read;
 * nothing else reads the router's buffers before its cycle): into its VC buffer; a head at
 * an idle VC is to be routed, a flit at the front of an active VC bids for the switch. */
IQ_INLINE void set_arrive(struct flit *f, struct iq *q, uint32_t node, uint32_t in,
                          struct iq_fl fl)
{
    uint32_t iv = in * q->B + fl.vc, x = (node * q->NI + in) * q->B + fl.vc;
    struct iq_ring *r = &q->iq[x];
    RS_ASSERT(r->cnt < q->depth);
    q->ibuf[(size_t)x * q->Dc + ring_wrap(r->head + r->cnt, q->Dc)] = fl;
    r->cnt++;
    if (r->cnt > f->max_buffer)
        f->max_buffer = r->cnt;
    if (q->state[x] == VC_IDLE) {
        RS_ASSERT(r->cnt == 1 && fl.k == 0);
        q->state[x] = VC_ROUTING;
        q->qs[(size_t)node * 3] |= (uint64_t)1 << iv;
    } else if (q->state[x] == VC_ACTIVE && r->cnt == 1) {
        q->qs[(size_t)node * 3 + 2] |= (uint64_t)1 << iv;
    }
    iq_bit_set(q->busy, node);
}

/* Grant output VC (o, v) to the head of input VC iv (x = its network-wide index) of node:
 * it holds the VC and bids for the switch from the next cycle (into *sqs). */
IQ_INLINE void set_grant(struct iq *q, uint32_t node, uint32_t iv, uint32_t x, uint32_t o,
                         uint32_t v)
{
    uint32_t y = ovc(q, node, o, v);
    RS_ASSERT(q->use[y] < 0);
    q->use[y] = (int32_t)iv;
    q->tail_sent[y] = 0;
    q->out_port[x] = (uint16_t)o;
    q->out_vc[x] = (uint16_t)v;
    q->state[x] = VC_ACTIVE;
}

/* VC allocation of two or more heads (the set vqs of node): their bids as requests, in
 * increasing order, to the VC allocator; the granted leave *vqs for *sqs, the others stay
 * blocked (vc_alloc_evaluate and vc_alloc_update with one route per head). */
static void set_vc_alloc_many(struct flit *f, struct iq *q, uint32_t node, uint64_t *vqs,
                              uint64_t *sqs)
{
    const uint32_t B = q->B, xb = node * q->NI * B;
    q->n_vreq = 0;
    for (uint64_t b = *vqs; b; b &= b - 1) {
        uint32_t iv = (uint32_t)__builtin_ctzll(b), x = xb + iv, o = q->r_port[x];
        for (uint32_t v = q->r_lo[x]; v < q->r_hi[x]; v++) {
            uint32_t y = ovc(q, node, o, v);
            if (q->use[y] >= 0 || (q->busy_full && full_for(q, y)))
                continue;
            RS_ASSERT(q->n_vreq < q->max_vreq);
            q->vreq[q->n_vreq++] = (struct iq_req){iv, o * B + v, 0, 0, 0};
        }
    }
    q->vaa.in_ptr = q->va_in_ptr + (size_t)node * q->NI * B;
    q->vaa.out_ptr = q->va_out_ptr + (size_t)node * q->NO * B;
    iq_allocate(&q->vaa, q->vreq, q->n_vreq);
    for (uint64_t b = *vqs; b; b &= b - 1) {
        uint32_t iv = (uint32_t)__builtin_ctzll(b);
        int32_t g = q->vaa.inmatch[iv];
        if (g < 0) {
            f->blocked++;
            continue;
        }
        set_grant(q, node, iv, xb + iv, (uint32_t)g / B, (uint32_t)g % B);
        *vqs &= ~((uint64_t)1 << iv);
        *sqs |= (uint64_t)1 << iv;
    }
    for (uint32_t k = 0; k < q->n_vreq; k++)
        q->vaa.inmatch[q->vreq[k].in] = q->vaa.outmatch[q->vreq[k].out] = -1;
    q->n_vreq = 0;
}

/* Switch allocation of the set sq (two or more input VCs) of node by iSLIP on bit sets
 * (sw_alloc_bits on a set): returns the granted VCs, each one's crossbar output in eo[iv]. */
IQ_INLINE uint64_t set_sw_alloc_many(struct iq *q, uint32_t node, uint64_t sq, uint8_t *eo)
{
    const uint32_t NIe = q->NIe, NOe = q->NOe, B = q->B;
    uint32_t *rr = q->sw_rr + (size_t)node * NIe;
    uint32_t *ip = q->sa_in_ptr + (size_t)node * NIe, *op = q->sa_out_ptr + (size_t)node * NOe;
    uint32_t req[32], outs = 0, inm = 0;
    uint8_t lab[32][32], mi[32];
    const uint32_t xb = node * q->NI * B, yb = node * q->NO;
    const uint16_t *out_port = q->out_port, *out_vc = q->out_vc;
    const uint32_t *occ = q->occ, depth = q->depth;
    const uint8_t *ivin = q->ivin, *ivvc = q->ivvc;
    uint64_t bid = 0;
    uint32_t ins = 0, clash = 0;
    for (uint64_t b = sq; b; b &= b - 1) {
        uint32_t iv = (uint32_t)__builtin_ctzll(b), x = xb + iv, o = out_port[x];
        RS_DASSERT(q->state[x] == VC_ACTIVE);
        if (occ[(yb + o) * B + out_vc[x]] >= depth)
            continue; /* no credit: no bid */
        bid |= (uint64_t)1 << iv;
        uint32_t in = ivin[iv], vc = ivvc[iv], ib = 1u << in;
        clash |= (ins & ib) | (outs & (1u << o));
        ins |= ib;
        eo[iv] = (uint8_t)o;
        if (!(outs >> o & 1)) {
            outs |= 1u << o;
            req[o] = 0;
        }
        if (!(req[o] & ib)) {
            req[o] |= ib;
            lab[in][o] = (uint8_t)vc;
        } else {
            uint32_t p = rr[in], a = vc, c = lab[in][o];
            uint32_t da = a >= p ? a - p : a + B - p, dc = c >= p ? c - p : c + B - p;
            if (da < dc)
                lab[in][o] = (uint8_t)a;
        }
    }
    if (!clash) { /* distinct inputs and outputs: every bid is granted in the first iteration */
        for (uint64_t b = bid; b; b &= b - 1) {
            uint32_t iv = (uint32_t)__builtin_ctzll(b), in = ivin[iv], o = eo[iv];
            op[o] = in + 1 == NIe ? 0 : in + 1;
            ip[in] = o + 1 == NOe ? 0 : o + 1;
            rr[in] = ivvc[iv] + 1u < B ? ivvc[iv] + 1u : 0; /* vc < B */
        }
        return bid;
    }
    if (!(ins & (ins - 1)) || !(outs & (outs - 1))) {
        /* one input: every output grants it, it accepts the first at or after its pointer;
         * one output: it grants the first input at or after its pointer, which accepts it;
         * later iterations find nothing to match */
        uint32_t i, o;
        if (!(ins & (ins - 1))) {
            i = (uint32_t)__builtin_ctz(ins);
            o = rr_first(outs, ip[i]);
        } else {
            o = (uint32_t)__builtin_ctz(outs);
            i = rr_first(req[o], op[o]);
        }
        uint32_t vc = lab[i][o], iv = i * B + vc;
        op[o] = i + 1 == NIe ? 0 : i + 1;
        ip[i] = o + 1 == NOe ? 0 : o + 1;
        rr[i] = vc + 1 < B ? vc + 1 : 0; /* vc < B */
        eo[iv] = (uint8_t)o;
        return (uint64_t)1 << iv;
    }
    islip_bits(q->iters, outs, req, op, ip, NIe, NOe, &inm, mi);
    uint64_t granted = 0;
    for (uint64_t b = bid; b; b &= b - 1) {
        uint32_t iv = (uint32_t)__builtin_ctzll(b), in = ivin[iv], vc = ivvc[iv];
        if ((inm >> in & 1) && lab[in][mi[in]] == vc) {
            uint32_t nx = vc + 1u;
            rr[in] = nx < B ? nx : 0; /* vc < B */
            eo[iv] = mi[in];
            granted |= (uint64_t)1 << iv;
        }
    }
    return granted;
}

/* One router's cycle on sets (q->sets; the order of its stages: above). */
IQ_INLINE int router_cycle_set(struct flit *f, struct iq *q, uint32_t node, struct rs_err *err)
{
    int rc;
    const uint32_t B = q->B, xb = node * q->NI * B;
    uint64_t *qs = &q->qs[(size_t)node * 3];
    uint64_t rqs = qs[0], vqs = qs[1], sqs = qs[2]; /* input queuing done: set_arrive */
    const uint64_t rq_now = rqs, sq_now = sqs;
    /* VC allocation of the heads routed before this cycle */
    if (vqs && !(vqs & (vqs - 1))) { /* one head: vc_alloc_lone */
        uint32_t iv = (uint32_t)__builtin_ctzll(vqs), x = xb + iv, o = q->r_port[x];
        uint32_t nvo = q->NO * B, *vip = &q->va_in_ptr[(size_t)node * q->NI * B + iv];
        uint32_t ptr = *vip, best = RS_NONE, bv = 0, bd = 0;
        for (uint32_t v = q->r_lo[x]; v < q->r_hi[x]; v++) {
            uint32_t y = ovc(q, node, o, v), vout = o * B + v;
            if (q->use[y] >= 0 || (q->busy_full && full_for(q, y)))
                continue;
            uint32_t d = vout >= ptr ? vout - ptr : vout + nvo - ptr;
            if (best == RS_NONE || d < bd) {
                best = vout;
                bv = v;
                bd = d;
            }
        }
        if (best == RS_NONE) {
            f->blocked++;
        } else {
            *vip = best + 1 == nvo ? 0 : best + 1;
            q->va_out_ptr[(size_t)node * nvo + best] = iv + 1 == q->NI * B ? 0 : iv + 1;
            set_grant(q, node, iv, x, o, bv);
            vqs = 0;
            sqs |= (uint64_t)1 << iv;
        }
    } else if (vqs) {
        set_vc_alloc_many(f, q, node, &vqs, &sqs);
    }
    /* switch allocation of the VCs bidding now, and their moves */
    uint8_t eo[64];
    uint64_t granted = 0;
    if (sq_now && !(sq_now & (sq_now - 1))) { /* one bid: sw_alloc_lone */
        uint32_t iv = (uint32_t)__builtin_ctzll(sq_now), x = xb + iv, out = q->out_port[x];
        if (!full_for(q, ovc(q, node, out, q->out_vc[x]))) {
            uint32_t in = q->ivin[iv], vc = q->ivvc[iv];
            q->sa_in_ptr[node * q->NIe + in] = out + 1 == q->NOe ? 0 : out + 1;
            q->sa_out_ptr[node * q->NOe + out] = in + 1 == q->NIe ? 0 : in + 1;
            q->sw_rr[node * q->NIe + in] = vc + 1 < B ? vc + 1 : 0; /* vc < B */
            eo[iv] = (uint8_t)out;
            granted = sq_now;
        }
    } else if (sq_now) {
        granted = set_sw_alloc_many(q, node, sq_now, eo);
    }
    for (uint64_t b = granted; b; b &= b - 1) {
        uint32_t iv = (uint32_t)__builtin_ctzll(b), x = xb + iv;
        int tail = move_flit(f, q, node, q->ivin[iv], q->ivvc[iv], eo[iv], 2);
        if (q->iq[x].cnt == 0) {
            if (tail)
                q->state[x] = VC_IDLE;
            sqs &= ~((uint64_t)1 << iv);
        } else if (tail) { /* the next packet's head: routed in the next cycle */
            q->state[x] = VC_ROUTING;
            rqs |= (uint64_t)1 << iv;
            sqs &= ~((uint64_t)1 << iv);
        }
    }
    /* routing of the heads that arrived or reached the front before this cycle's moves */
    for (uint64_t b = rq_now; b; b &= b - 1) {
        uint32_t iv = (uint32_t)__builtin_ctzll(b);
        if ((rc = route_vc(f, q, node, xb + iv, err)))
            return rc;
        q->state[xb + iv] = VC_VA;
        vqs |= (uint64_t)1 << iv;
    }
    rqs &= ~rq_now;
    qs[0] = rqs;
    qs[1] = vqs;
    qs[2] = sqs;
    if (!(rqs | vqs | sqs))
        iq_bit_clear(q->busy, node);
    return 0;
}

/* The router's writes (not direct): one flit per non-empty output queue, also listed as
 * an event of the ring slot written. Credits were written as they were made
 * (send_credit). */
static inline void router_write(struct flit *f, struct iq *q, uint32_t node)
{
    uint32_t P = q->P;
    uint64_t *oqm = &q->oqm[(size_t)node * q->wO];
    IQ_FOR_BITS(oqm, q->wO, o) {
        struct iq_ring *orr = &q->oqr[node * q->NO + o];
        struct iq_fl fl = RING_AT(q->oq, node * q->NO + o, orr, q->QO, 0);
        ring_pop(orr, q->QO);
        if (!orr->cnt)
            iq_bit_clear(oqm, o);
        if (o < P) {
            uint32_t c = node * P + o;
            *q->evf_w++ = (struct iq_fev){c, fl};
        } else {
            uint32_t t = q->dst_t[q->dst_of[node] + o - P];
            q->ejf[(size_t)t * q->Rt + q->rt_wr] = fl;
            iq_bit_set(q->ejm_w, t);
        }
        f->step_moves++;
    }
    int more = 0;
    for (uint32_t w = 0; w < q->wO; w++)
        more |= oqm[w] != 0;
    if (!more)
        iq_bit_clear(q->wbusy, node);
}

/* Deliver flit fl at its destination terminal in this cycle. */
static void iq_deliver(struct flit *f, struct iq *q, struct iq_fl fl)
{
    struct flit_worm *w = &f->w[fl.m];
    w->done++;
    f->step_accepted++;
    f->step_moves++;
    if (w->done < w->len)
        return;
    q->packets--;
    f->delivered++;
    f->last_event = q->now;
    RS_EVENT(f->ev, RS_EV_DELIVERED, q->now, FLIT_EV_ID(f, fl.m),
             f->net->ops->dst_node(f->net, w->dst), RS_EV_NONE, RS_EV_NONE);
    if (f->ol && f->dist) { /* over MPI ranks: recorded at the end of the step, on every rank */
        rs__flit_dist_finished(f, w->gen, w->len, 1);
    } else if (f->ol) {
        rs_openloop_finish(f->ol, w->gen, w->len, q->now, 1);
    } else {
        f->finish[w->msg] = q->now;
        f->fate[w->msg] = RS_FATE_DELIVERED;
        f->remaining--;
    }
    f->free_slot[f->n_free++] = fl.m;
}

/* Terminal t's source: one flit into its injection channel if its VC has a credit; a head
 * takes the first free VC with a credit after the last one it took (BookSim's
 * TrafficManager). */
static void source_cycle(struct flit *f, struct iq *q, uint32_t t)
{
    uint32_t B = q->B, m = q->t_cur[t], vc;
    if (m == RS_NONE) {
        m = f->front[t];
        if (m == RS_NONE)
            return;
        int32_t last = q->t_last[t];
        vc = RS_NONE;
        for (uint32_t i = 1; i <= B; i++) {
            uint32_t v = last < 0 ? 0 : ((uint32_t)last + i) % B;
            if (q->t_use[t * B + v] < 0 && q->t_occ[t * B + v] < q->depth) {
                vc = v;
                break;
            }
        }
        if (vc == RS_NONE) {
            f->blocked++;
            RS_EVENT(f->ev, RS_EV_BLOCKED, q->now, FLIT_EV_ID(f, m), f->src_node[t], RS_EV_NONE,
                     RS_EV_NONE);
            return;
        }
        q->t_use[t * B + vc] = 0;
        q->t_tail[t * B + vc] = 0;
        q->t_last[t] = (int32_t)vc;
        q->t_cur[t] = m;
        iq_bit_set(q->tcm, t);
        q->t_k[t] = 0;
        q->t_vc[t] = vc;
        RS_EVENT(f->ev, RS_EV_INJECTED, q->now, FLIT_EV_ID(f, m), f->src_node[t], RS_EV_NONE, vc);
        q->packets++;
        if (f->adaptive)
            rs__iq_rsets_new(&q->rs, m);
        f->front[t] = RS_NONE;
        rs__flit_front_left(f, t);
    } else {
        vc = q->t_vc[t];
        if (q->t_occ[t * B + vc] >= q->depth)
            return;
    }
    struct flit_worm *w = &f->w[m];
    uint32_t k = q->t_k[t]++;
    q->t_occ[t * B + vc]++;
    w->src_left--;
    if (k + 1 == w->len) {
        q->t_tail[t * B + vc] = 1;
        if (!q->wftc)
            q->t_use[t * B + vc] = -1;
        q->t_cur[t] = RS_NONE;
        iq_bit_clear(q->tcm, t);
    }
    q->injf[(size_t)t * q->Rt + q->rt_wr] =
        (struct iq_fl){m, (uint16_t)k, (uint8_t)vc, (uint8_t)(k + 1 == w->len)};
    q->evi[(size_t)q->rt_wr * q->n_src + q->n_evi[q->rt_wr]++] = t;
    f->step_moves++;
}

/* A credit (VC mask mk) arrives at output o of node: it counts after credit_delay cycles
 * (cd0: now; nothing reads the count between here and the router's own cycle). */
static inline void push_credit(struct iq *q, uint32_t node, uint32_t o, uint64_t mk)
{
    if (q->cd0) {
        for (; mk; mk &= mk - 1) {
            uint32_t y = ovc(q, node, o, (uint32_t)__builtin_ctzll(mk));
            RS_ASSERT(q->occ[y] > 0);
            q->occ[y]--;
            if (q->wftc && q->occ[y] == 0 && q->tail_sent[y])
                q->use[y] = -1;
        }
        return;
    }
    struct iq_ring *pr = &q->nr[node].pc;
    RS_ASSERT(pr->cnt < q->QP);
    RING_BACK(q->pc, node, pr, q->QP) = (struct iq_cred){(int32_t)(q->now + q->cd), o, mk};
    pr->cnt++;
    iq_bit_set(q->busy, node);
}

int rs__iq_routers(struct flit *f, struct iq *q, uint32_t w0, uint32_t w1, struct rs_err *err)
{
    int rc;
    uint64_t *busy = q->busy + w0;
    const uint32_t nw = w1 - w0, base = w0 * 64u;
    if (q->sets) {
        IQ_FOR_BITS(busy, nw, i) {
            if ((rc = router_cycle_set(f, q, base + i, err)))
                return rc;
        }
    } else if (q->fast) {
        IQ_FOR_BITS(busy, nw, i) {
            if ((rc = router_cycle_fast(f, q, base + i, err)))
                return rc;
        }
    } else {
        IQ_FOR_BITS(busy, nw, i) {
            if ((rc = router_cycle_any(f, q, base + i, err)))
                return rc;
        }
    }
    return 0;
}

void rs__iq_writes(struct flit *f, struct iq *q, uint32_t w0, uint32_t w1)
{
    const uint32_t base = w0 * 64u;
    IQ_FOR_BITS(q->wbusy + w0, w1 - w0, i)
        router_write(f, q, base + i);
}

/* rs__iq_settle (iq.h), inline in the cycle. */
static inline void iq_settle(struct flit *f, struct iq *q, uint64_t packets)
{
    /* no flit or credit moved: the pipelines may still be counting down; report a fixed
     * point (step_moves = 0) only after more idle cycles than any pipeline can take */
    if (f->step_moves == 0 && packets) {
        q->idle++;
        uint32_t limit = 2 * (q->rd + q->va + q->sa + q->xd + q->cd + 2 * q->lat + 8);
        if (q->idle <= limit)
            f->step_moves = 1;
    } else {
        q->idle = 0;
    }
}

int rs__iq_step(struct flit *f, struct rs_err *err)
{
    struct iq *q = f->iq;
    int rc;
    q->now = f->step - 1;
    f->step_moves = q->carry;
    q->carry = 0;
    f->step_accepted = 0;
    uint32_t now = q->now, P = q->P, B = q->B;
    q->r_now = now % q->R;
    q->rt_now = now % q->Rt;
    q->r_wr = (now + q->lat + 1) % q->R;
    q->rt_wr = (now + 2) % q->Rt;
    uint32_t r_ev = q->direct ? q->r_now : q->r_wr, rt_ej = q->direct ? q->rt_now : q->rt_wr;
    q->cy_w = q->cy + (size_t)q->r_wr * q->n_chan;
    q->evf_w = q->evf + (size_t)r_ev * q->n_chan;
    q->evc_w = q->evc + (size_t)q->r_wr * q->n_chan;
    q->evj_w = q->evj + (size_t)q->rt_wr * q->n_src;
    q->ejm_w = q->ejm + (size_t)rt_ej * q->wT;
    uint32_t r_now = q->r_now, rt_now = q->rt_now;
    /* terminals read their ejection channels (in increasing order: deliveries are ordered)
     * and the credits of their injection buffers */
    uint64_t *ejm = &q->ejm[(size_t)rt_now * q->wT];
    IQ_FOR_BITS(ejm, q->wT, t) {
        struct iq_fl *e = &q->ejf[(size_t)t * q->Rt + rt_now];
        struct iq_fl fl = *e;
        e->m = NO_FLIT;
        uint64_t *ec = &q->ejc[(size_t)t * q->Rt + q->rt_wr];
        RS_DASSERT(*ec == 0);
        *ec = (uint64_t)1 << fl.vc;
        q->evk[(size_t)q->rt_wr * q->n_src + q->n_evk[q->rt_wr]++] = t;
        iq_deliver(f, q, fl);
    }
    bits_zero(ejm, q->wT);
    for (uint32_t i = 0, n = q->n_evj[rt_now]; i < n; i++) {
        uint32_t t = q->evj[(size_t)rt_now * q->n_src + i];
        uint64_t *c = &q->injc[(size_t)t * q->Rt + rt_now];
        for (uint64_t b = *c; b; b &= b - 1) {
            uint32_t v = (uint32_t)__builtin_ctzll(b);
            q->t_occ[t * B + v]--;
            if (q->wftc && q->t_occ[t * B + v] == 0 && q->t_tail[t * B + v])
                q->t_use[t * B + v] = -1;
        }
        *c = 0;
    }
    q->n_evj[rt_now] = 0;
    /* routers read their inputs: flits, and credits (counted after credit_delay); only the
     * channels written for this cycle */
    if (q->sets) { /* sets: input queuing as the flits are read (set_arrive) */
        for (uint32_t i = 0, n = q->n_evf[r_now]; i < n; i++) {
            const struct iq_fev *e = &q->evf[(size_t)r_now * q->n_chan + i];
            set_arrive(f, q, q->ch_head[e->c], q->ch_slot[e->c], e->fl);
        }
        for (uint32_t i = 0, n = q->n_evi[rt_now]; i < n; i++) {
            uint32_t t = q->evi[(size_t)rt_now * q->n_src + i];
            struct iq_fl *slot = &q->injf[(size_t)t * q->Rt + rt_now];
            set_arrive(f, q, q->src_n[t], P + q->src_j[t], *slot);
            slot->m = NO_FLIT;
        }
    } else {
        for (uint32_t i = 0, n = q->n_evf[r_now]; i < n; i++) {
            const struct iq_fev *e = &q->evf[(size_t)r_now * q->n_chan + i];
            uint32_t node = q->ch_head[e->c], in = q->ch_slot[e->c];
            q->rx[node * q->NI + in] = e->fl;
            iq_bit_set(&q->rxm[(size_t)node * q->wI], in);
            iq_bit_set(q->busy, node);
        }
        for (uint32_t i = 0, n = q->n_evi[rt_now]; i < n; i++) {
            uint32_t t = q->evi[(size_t)rt_now * q->n_src + i];
            struct iq_fl *slot = &q->injf[(size_t)t * q->Rt + rt_now];
            uint32_t node = q->src_n[t], in = P + q->src_j[t];
            q->rx[node * q->NI + in] = *slot;
            slot->m = NO_FLIT;
            iq_bit_set(&q->rxm[(size_t)node * q->wI], in);
            iq_bit_set(q->busy, node);
        }
    }
    q->n_evf[r_now] = 0;
    q->n_evi[rt_now] = 0;
    for (uint32_t i = 0, n = q->n_cy[r_now]; i < n; i++) { /* cy0: credits count now */
        uint32_t y = q->cy[(size_t)r_now * q->n_chan + i];
        RS_ASSERT(q->occ[y] > 0);
        q->occ[y]--;
        if (q->wftc && q->occ[y] == 0 && q->tail_sent[y])
            q->use[y] = -1;
    }
    q->n_cy[r_now] = 0;
    for (uint32_t i = 0, n = q->n_evc[r_now]; i < n; i++) {
        uint32_t c = q->evc[(size_t)r_now * q->n_chan + i];
        uint64_t *cr = &q->chc[(size_t)c * q->R + r_now];
        push_credit(q, c / P, c % P, *cr);
        *cr = 0;
    }
    q->n_evc[r_now] = 0;
    for (uint32_t i = 0, n = q->n_evk[rt_now]; i < n; i++) {
        uint32_t t = q->evk[(size_t)rt_now * q->n_src + i];
        uint64_t *cr = &q->ejc[(size_t)t * q->Rt + rt_now];
        push_credit(q, q->dst_n[t], P + q->dst_j[t], *cr);
        *cr = 0;
    }
    q->n_evk[rt_now] = 0;
    /* the sources, in increasing order: those sending a packet (tcm) and those that may
     * start one (a terminal with a front is in the flit engine's pending list) */
    for (uint32_t w = 0; w < q->wT; w++)
        q->srcm[w] = q->tcm[w];
    for (uint32_t i = 0; i < f->n_pend; i++)
        iq_bit_set(q->srcm, f->pend[i]);
    IQ_FOR_BITS(q->srcm, q->wT, t) {
        if (q->t_cur[t] != RS_NONE || f->front[t] != RS_NONE) /* else: nothing to send */
            source_cycle(f, q, t);
    }
    if (f->adaptive) /* the credit view of other routers: as at the start of the cycle */
        rs__iq_rsets_begin(&q->rs);
    if (q->part) {
        if ((rc = rs__iq_par_routers(f, q, err)))
            return rc;
    } else {
        if ((rc = rs__iq_routers(f, q, 0, q->wN, err)))
            return rc;
        rs__iq_writes(f, q, 0, q->wN);
    }
    /* the lists written this cycle: no slot but these had entries added (direct's flits in
     * slot r_now, router_write's in r_wr, credits in r_wr and rt_wr) */
    q->n_cy[q->r_wr] = (uint32_t)(q->cy_w - (q->cy + (size_t)q->r_wr * q->n_chan));
    q->n_evf[r_ev] = (uint32_t)(q->evf_w - (q->evf + (size_t)r_ev * q->n_chan));
    q->n_evc[q->r_wr] = (uint32_t)(q->evc_w - (q->evc + (size_t)q->r_wr * q->n_chan));
    q->n_evj[q->rt_wr] = (uint32_t)(q->evj_w - (q->evj + (size_t)q->rt_wr * q->n_src));
    f->n_act = (uint32_t)q->packets;
    if (!f->dist) /* (over MPI ranks: on every rank's sums, after the exchange) */
        iq_settle(f, q, q->packets);
    return 0;
}

void rs__iq_settle(struct flit *f, uint64_t packets)
{
    iq_settle(f, f->iq, packets);
}

uint64_t rs__iq_in_flight(const struct flit *f)
{
    return f->iq->packets;
}

/* ---- deadlock ------------------------------------------------------------------------------ */

/* The first head waiting for a VC (an input VC id), or RS_NONE. */
static uint32_t first_waiting(const struct iq *q)
{
    for (uint32_t node = 0; node < q->n_nodes; node++)
        for (uint32_t in = 0; in < q->NI; in++)
            for (uint32_t v = 0; v < q->B; v++)
                if (q->state[ivc(q, node, in, v)] == VC_VA &&
                    q->r_port[ivc(q, node, in, v)] < q->P)
                    return ivc(q, node, in, v);
    return RS_NONE;
}

/* The message at the front of input VC x, RS_NONE when it is empty (over MPI ranks, once
 * gathered: any rank's, from dl_msg). */
static uint32_t front_msg(const struct flit *f, const struct iq *q, uint32_t x)
{
    if (q->dl_msg)
        return q->dl_msg[x];
    return q->iq[x].cnt ? f->w[q->ibuf[(size_t)x * q->Dc + q->iq[x].head].m].msg : RS_NONE;
}

/* One step of "waits for" from input VC x: the channel c (node * P + port) and VC *v it
 * needs, the messages at the front of x (*m) and of the downstream input VC (*m2, RS_NONE
 * when empty); returns that downstream input VC, or RS_NONE when x needs no channel. */
static uint32_t iq_waits(const struct flit *f, const struct iq *q, uint32_t x, uint32_t *c,
                         uint32_t *v, uint32_t *m, uint32_t *m2)
{
    uint32_t node = x / (q->NI * q->B);
    uint32_t o = q->state[x] == VC_ACTIVE ? q->out_port[x] : q->r_port[x];
    if (o >= q->P)
        return RS_NONE;
    *c = node * q->P + o;
    *v = q->state[x] == VC_ACTIVE ? q->out_vc[x] : q->r_lo[x];
    *m = front_msg(f, q, x);
    uint32_t y = ivc(q, q->ch_head[*c], q->ch_slot[*c], *v);
    *m2 = front_msg(f, q, y);
    return y;
}

void rs__iq_describe_deadlock(struct flit *f, char *buf, size_t n)
{
    struct iq *q = f->iq;
    if (f->dist && rs__iq_dist_gather(f)) { /* every rank's input VCs, on every rank */
        snprintf(buf, n, "deadlock at step %u (the ranks' input VCs could not be gathered)",
                 f->step);
        return;
    }
    /* start at a head waiting for a VC; follow: waits for the downstream input VC held by
     * the packet that owns the output VC (the VC it needs) */
    uint32_t start = first_waiting(q);
    if (start == RS_NONE) {
        snprintf(buf, n, "no head waits for a virtual channel");
        return;
    }
    size_t len = 0;
    uint32_t x = start, hops = 0;
    uint32_t limit = q->n_nodes * q->NI * q->B + 1;
    len += (size_t)snprintf(buf + len, n - len, "waiting cycle of input virtual channels:");
    while (hops < limit && len < n) {
        uint32_t node = x / (q->NI * q->B), in = x / q->B % q->NI, c, v, m, m2;
        uint32_t y = iq_waits(f, q, x, &c, &v, &m, &m2);
        if (y == RS_NONE)
            break;
        len += (size_t)snprintf(buf + len, n - len,
                                " message %u at (%u) input %u vc %u waits for (%u)->(%u) vc %u "
                                "held by message %u;",
                                m == RS_NONE ? 0 : m, node, in, x % q->B, node,
                                q->ch_head[c], v, m2 == RS_NONE ? 0 : m2);
        if (y == start || m2 == RS_NONE)
            break;
        x = y;
        hops++;
    }
}

int rs__iq_deadlock_cycle(struct flit *f, struct rs_deadlock *out)
{
    struct iq *q = f->iq;
    if (f->dist && rs__iq_dist_gather(f)) /* every rank's input VCs, on every rank */
        return RS_ENOMEM;
    uint32_t x = first_waiting(q), idx = 1, c, v, m, m2;
    if (x == RS_NONE)
        return 0;
    uint32_t *order = rs_calloc((size_t)q->n_nodes * q->NI * q->B, sizeof *order);
    if (!order)
        return RS_ENOMEM;
    /* walk until an input VC repeats (a cycle) or the walk leaves the waiting heads */
    while (x != RS_NONE && !order[x]) {
        order[x] = idx++;
        uint32_t y = iq_waits(f, q, x, &c, &v, &m, &m2);
        x = m2 == RS_NONE ? RS_NONE : y;
    }
    int rc = 0;
    for (uint32_t first = x; first != RS_NONE && !rc;) {
        uint32_t y = iq_waits(f, q, x, &c, &v, &m, &m2);
        rc = rs_deadlock_add(out, c / q->P, c % q->P, v, f->ol ? RS_NONE : m);
        if ((x = y) == first)
            break;
    }
    rs_free(order);
    return rc;
}

/* ---- check ------------------------------------------------------------------------------ */

int rs__iq_check(struct flit *f, struct rs_err *err)
{
    struct iq *q = f->iq;
    for (uint32_t node = 0; node < q->n_nodes; node++)
        for (uint32_t o = 0; o < q->P; o++) {
            uint32_t c = node * q->P + o;
            if (q->ch_head[c] == RS_NONE)
                continue;
            for (uint32_t v = 0; v < q->B; v++) {
                uint32_t y = ivc(q, q->ch_head[c], q->ch_slot[c], v);
                if (q->iq[y].cnt > q->occ[ovc(q, node, o, v)])
                    return rs_err_set(err, RS_EINVARIANT,
                                      "router=iq: step %u: input vc %u of node %u holds %u flits "
                                      "but its upstream counts %u",
                                      f->step, v, q->ch_head[c], q->iq[y].cnt,
                                      q->occ[ovc(q, node, o, v)]);
            }
        }
    return 0;
}

/* ---- set-up ------------------------------------------------------------------------------ */

static const char *const iq_keys[] = {
    "routing_delay", "vc_alloc_delay", "sw_alloc_delay", "st_prepare_delay", "st_final_delay",
    "credit_delay", "channel_latency", "input_speedup", "output_speedup", "vc_allocator",
    "sw_allocator", "alloc_iters", "speculative", "wait_for_tail_credit", "vc_busy_when_full",
    "hold_switch_for_packet", "adaptive_set", NULL};

int rs__iq_refuse_keys(const struct rs_params *p, struct rs_err *err)
{
    for (const char *const *k = iq_keys; *k; k++)
        if (rs_params_find(p, *k))
            return rs_err_set(err, RS_EUNSUPPORTED,
                              "%s= is a key of router=iq: it has no effect with router=simple",
                              *k);
    return 0;
}

void rs__iq_free(struct flit *f)
{
    struct iq *q = f->iq;
    if (!q)
        return;
    void *arrs[] = {q->ibuf, q->iq, q->state, q->out_port, q->out_vc, q->r_port, q->r_lo, q->r_hi,
                    q->use, q->tail_sent, q->occ, q->oq, q->oqr, q->pc, q->rq, q->vq, q->sq, q->xq,
                    q->hq, q->hold_vc, q->hold_in, q->hold_out, q->va_in_ptr, q->va_out_ptr,
                    q->sa_in_ptr, q->sa_out_ptr, q->sw_rr, q->scratch, q->vreq, q->sreq, q->sreq_at,
                    q->rx, q->ch_head, q->ch_slot, q->in_chan, q->chc, q->src_of, q->dst_of,
                    q->src_t, q->dst_t, q->dst_j, q->injf, q->ejf, q->injc, q->ejc, q->t_use,
                    q->t_tail, q->t_occ, q->t_last, q->t_cur, q->t_k, q->t_vc, q->busy, q->wbusy,
                    q->rxm, q->oqm, q->evf, q->evc, q->n_evf, q->n_evc, q->evi, q->evj, q->evk,
                    q->n_evi, q->n_evj, q->n_evk, q->ejm, q->up_y, q->cy, q->n_cy, q->src_n,
                    q->src_j, q->dst_n, q->tcm, q->srcm, q->nr, q->qs, q->dist_map,
                    q->dl_msg, q->sh_y, q->sh_val, q->sh_lo, q->sh_hi};
    for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++)
        rs_free(arrs[i]);
    rs__iq_rsets_free(&q->rs);
    rs__iq_par_free(q);
    rs_free(q);
    f->iq = NULL;
}

static int read_keys(struct iq *q, const struct rs_params *p, const struct rs_optdef *opt,
                     struct rs_err *err)
{
    int64_t v[12];
    static const char *const ints[] = {"routing_delay", "vc_alloc_delay", "sw_alloc_delay",
                                       "st_prepare_delay", "st_final_delay", "credit_delay",
                                       "channel_latency", "input_speedup", "output_speedup",
                                       "alloc_iters"};
    int rc, va_kind, sa_kind;
    for (int i = 0; i < 10; i++)
        if ((rc = rs_opt_int(p, opt, ints[i], &v[i], err)))
            return rc;
    if ((rc = rs_opt_choice(p, opt, "vc_allocator", &va_kind, err)) ||
        (rc = rs_opt_choice(p, opt, "sw_allocator", &sa_kind, err)) ||
        (rc = rs_opt_bool(p, opt, "speculative", &q->spec, err)) ||
        (rc = rs_opt_bool(p, opt, "wait_for_tail_credit", &q->wftc, err)) ||
        (rc = rs_opt_bool(p, opt, "vc_busy_when_full", &q->busy_full, err)) ||
        (rc = rs_opt_bool(p, opt, "hold_switch_for_packet", &q->hold, err)))
        return rc;
    q->rd = (uint32_t)v[0];
    q->va = (uint32_t)v[1];
    q->sa = (uint32_t)v[2];
    q->xd = (uint32_t)(v[3] + v[4]);
    q->cd = (uint32_t)v[5];
    q->lat = (uint32_t)v[6];
    q->s_in = (uint32_t)v[7];
    q->s_out = (uint32_t)v[8];
    q->iters = (uint32_t)v[9];
    q->va_kind = (enum iq_alloc_kind)va_kind;
    q->sa_kind = (enum iq_alloc_kind)sa_kind;
    if (q->xd == 0)
        return rs_err_set(err, RS_EINVAL,
                          "router=iq: st_prepare_delay + st_final_delay must be at least 1");
    if (q->spec && q->va > 1) /* docs/model-iq.md: the grant would move a head without a VC */
        return rs_err_set(err, RS_EINVAL,
                          "router=iq: speculative=1 needs vc_alloc_delay=1 (got %u): a "
                          "speculative switch grant is checked against the VC allocation of "
                          "its own cycle, which a longer VC allocation has not finished "
                          "(BookSim 2 stops on an assertion there too)",
                          q->va);
    return 0;
}

/* The least power of two >= n (n <= 2^31): a ring's capacity, so that its index wraps
 * with a mask. */
static uint32_t pow2_at_least(uint32_t n)
{
    uint32_t c = 1;
    while (c < n)
        c <<= 1;
    return c;
}

#define IQ_ALLOC(ptr, n)                                                                       \
    do {                                                                                       \
        (ptr) = rs_calloc((size_t)(n) + 1, sizeof *(ptr));                                     \
        if (!(ptr))                                                                            \
            return rs_err_set(err, RS_ENOMEM, "router=iq: out of memory");                     \
    } while (0)

int rs__iq_init(struct flit *f, const struct rs_params *p, const struct rs_optdef *opt,
                struct rs_err *err)
{
    const struct rs_net *net = f->net;
    int rc;
    if (f->link != FLIT_PER_VC)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "router=iq: link=shared has no meaning (a channel carries one flit per "
                          "cycle in the router model)");
    if (f->discard || f->collapse)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "router=iq: on_delay=discard and collapse=1 are models of "
                          "router=simple");
    if (f->B > 64)
        return rs_err_set(err, RS_ECONSTRAINT, "router=iq: at most 64 vcs (got %u)", f->B);
    f->iq = rs_calloc(1, sizeof *f->iq);
    if (!f->iq)
        return rs_err_set(err, RS_ENOMEM, "router=iq: out of memory");
    struct iq *q = f->iq;
    if ((rc = read_keys(q, p, opt, err)))
        return rc;
    /* Valiant's two legs through a terminal without VC classes of the topology's: each leg
     * on its own half of the VCs, as BookSim's valiant routing functions do */
    if (!f->adaptive && f->classes == FLIT_CLASSES_NONE && net->ops->valiant_via_terminal &&
        ((f->routing && f->routing->mid) || f->drv->mid)) {
        if (f->B < 2)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "router=iq: Valiant routes need vcs >= 2 (one VC class per "
                              "phase; got vcs=%u)",
                              f->B);
        q->vsplit = 1;
    }
    q->B = f->B;
    q->depth = f->depth;
    q->P = f->P;
    q->n_nodes = net->n_nodes;
    q->n_src = f->n_src;
    /* the terminals of each node (concentration: several per router, k-ary n-fly) */
    IQ_ALLOC(q->src_of, q->n_nodes + 1);
    IQ_ALLOC(q->dst_of, q->n_nodes + 1);
    IQ_ALLOC(q->src_t, q->n_src);
    IQ_ALLOC(q->dst_t, q->n_src);
    IQ_ALLOC(q->dst_j, q->n_src);
    uint32_t most_in = 1, most_out = 1;
    for (uint32_t t = 0; t < q->n_src; t++) {
        q->src_of[net->ops->src_node(net, t) + 1]++;
        q->dst_of[net->ops->dst_node(net, t) + 1]++;
    }
    for (uint32_t node = 0; node < q->n_nodes; node++) {
        if (q->src_of[node + 1] > most_in)
            most_in = q->src_of[node + 1];
        if (q->dst_of[node + 1] > most_out)
            most_out = q->dst_of[node + 1];
        q->src_of[node + 1] += q->src_of[node];
        q->dst_of[node + 1] += q->dst_of[node];
    }
    /* in increasing terminal order: a cursor per node (t_cur, allocated again below) */
    IQ_ALLOC(q->t_cur, q->n_nodes + 1);
    for (uint32_t t = 0; t < q->n_src; t++) {
        uint32_t a = net->ops->src_node(net, t);
        q->src_t[q->src_of[a] + q->t_cur[a]++] = t;
    }
    memset(q->t_cur, 0, ((size_t)q->n_nodes + 1) * sizeof *q->t_cur);
    for (uint32_t t = 0; t < q->n_src; t++) {
        uint32_t b = net->ops->dst_node(net, t);
        q->dst_j[t] = q->t_cur[b]++;
        q->dst_t[q->dst_of[b] + q->dst_j[t]] = t;
    }
    rs_free(q->t_cur);
    q->t_cur = NULL;
    q->NI = q->P + most_in;
    q->NO = q->P + most_out;
    q->R = q->lat + 2;
    q->Rt = 3;
    q->NIe = q->NI * q->s_in;
    q->NOe = q->NO * q->s_out;
    uint64_t n_ivc = (uint64_t)q->n_nodes * q->NI * q->B;
    if (n_ivc * pow2_at_least(q->depth) >= UINT32_MAX / 2 || q->NIe > 65535 || q->NOe > 65535)
        return rs_err_set(err, RS_ECONSTRAINT, "router=iq: network too large");
    q->Dc = pow2_at_least(q->depth);
    IQ_ALLOC(q->ibuf, n_ivc * q->Dc);
    IQ_ALLOC(q->iq, n_ivc);
    IQ_ALLOC(q->state, n_ivc);
    IQ_ALLOC(q->out_port, n_ivc);
    IQ_ALLOC(q->out_vc, n_ivc);
    IQ_ALLOC(q->r_port, n_ivc);
    IQ_ALLOC(q->r_lo, n_ivc);
    IQ_ALLOC(q->r_hi, n_ivc);
    IQ_ALLOC(q->use, n_ivc);
    IQ_ALLOC(q->tail_sent, n_ivc);
    IQ_ALLOC(q->occ, n_ivc);
    for (uint64_t i = 0; i < n_ivc; i++)
        q->use[i] = -1;
    if (f->adaptive && rs__iq_rsets_init(&q->rs, n_ivc, f->n_slots, q->n_nodes, q->NO, q->B,
                                         q->depth, q->occ))
        return rs_err_set(err, RS_ENOMEM, "router=iq: out of memory");
    if (rs_params_find(p, "adaptive_set")) { /* unset: all (and no column) */
        int set;
        if ((rc = rs_opt_choice(p, opt, "adaptive_set", &set, err)))
            return rc;
        if (!f->adaptive)
            return rs_err_set(err, RS_EUNSUPPORTED,
                              "adaptive_set= has no effect with routing=%s (it is oblivious)",
                              f->routing ? f->routing->name : "direct");
        q->rs.booksim = set == 1;
    }
    uint32_t nio = q->n_nodes * q->NO;
    q->QO = pow2_at_least(q->B * q->depth + q->s_out + 2);
    IQ_ALLOC(q->oq, (uint64_t)nio * q->QO);
    IQ_ALLOC(q->oqr, nio);
    q->direct = q->xd == 1 && q->s_out == 1;
    q->lone_sa = q->sa == 1 && !q->spec && !q->hold;
    q->lone_va = q->va == 1 && !q->spec && !f->adaptive;
    q->cd0 = q->cd == 0 && !f->adaptive;
    q->QP = pow2_at_least(q->NO * (q->cd + 2));
    IQ_ALLOC(q->pc, (uint64_t)q->n_nodes * q->QP);
    q->QS = pow2_at_least(q->NI * q->B);
    IQ_ALLOC(q->rq, (uint64_t)q->n_nodes * q->QS);
    IQ_ALLOC(q->vq, (uint64_t)q->n_nodes * q->QS);
    IQ_ALLOC(q->sq, (uint64_t)q->n_nodes * q->QS);
    IQ_ALLOC(q->hq, (uint64_t)q->n_nodes * q->QS);
    IQ_ALLOC(q->hold_vc, (uint64_t)q->n_nodes * q->NIe);
    IQ_ALLOC(q->hold_in, (uint64_t)q->n_nodes * q->NIe);
    IQ_ALLOC(q->hold_out, (uint64_t)q->n_nodes * q->NOe);
    for (uint64_t i = 0; i < (uint64_t)q->n_nodes * q->NIe; i++)
        q->hold_vc[i] = q->hold_in[i] = -1;
    for (uint64_t i = 0; i < (uint64_t)q->n_nodes * q->NOe; i++)
        q->hold_out[i] = -1;
    IQ_ALLOC(q->nr, q->n_nodes);
    /* the crossbar queue: entries are evaluated in batches (none behind one in progress),
     * so two batches of up to xd cycles' moves and one cycle's more can wait at once */
    q->QX = pow2_at_least(q->NIe * (2 * q->xd + 1) + 1);
    IQ_ALLOC(q->xq, (uint64_t)q->n_nodes * q->QX);
    IQ_ALLOC(q->va_in_ptr, n_ivc);
    IQ_ALLOC(q->va_out_ptr, n_ivc);
    IQ_ALLOC(q->sa_in_ptr, (uint64_t)q->n_nodes * q->NIe);
    IQ_ALLOC(q->sa_out_ptr, (uint64_t)q->n_nodes * q->NOe);
    IQ_ALLOC(q->sw_rr, (uint64_t)q->n_nodes * q->NIe);
    for (uint64_t i = 0; i < (uint64_t)q->n_nodes * q->NIe; i++)
        q->sw_rr[i] = (uint32_t)(i % q->NIe % q->s_in);
    uint32_t nvin = q->NI * q->B, nvout = q->NO * q->B;
    q->max_vreq = nvin * q->B * 2 * (f->adaptive ? RS_ROUTE_MAX_CHOICES : 1) + 1;
    IQ_ALLOC(q->vreq, q->max_vreq);
    IQ_ALLOC(q->sreq, (uint64_t)q->NIe * q->NOe);
    IQ_ALLOC(q->sreq_at, (uint64_t)q->NIe * q->NOe);
    for (uint32_t i = 0; i < q->NIe * q->NOe; i++)
        q->sreq_at[i] = -1;
    uint32_t ns = 2 * (nvin + nvout) + 2 * (q->NIe + q->NOe);
    IQ_ALLOC(q->scratch, ns);
    for (uint32_t i = 0; i < ns; i++)
        q->scratch[i] = -1;
    int32_t *s = q->scratch;
    q->vaa = (struct iq_allocator){q->va_kind, nvin, nvout, q->iters, NULL, NULL,
                                   s, s + nvin, s + nvin + nvout, s + 2 * nvin + nvout};
    s += 2 * (nvin + nvout);
    q->saa = (struct iq_allocator){q->sa_kind, q->NIe, q->NOe, q->iters, NULL, NULL,
                                   s, s + q->NIe, s + q->NIe + q->NOe,
                                   s + 2 * q->NIe + q->NOe};
    IQ_ALLOC(q->rx, (uint64_t)q->n_nodes * q->NI);
    for (uint32_t i = 0; i < q->n_nodes * q->NI; i++)
        q->rx[i].m = NO_FLIT;
    uint64_t n_chan = f->n_chan;
    IQ_ALLOC(q->ch_head, n_chan);
    IQ_ALLOC(q->ch_slot, n_chan);
    IQ_ALLOC(q->in_chan, n_chan);
    for (uint64_t c = 0; c < n_chan; c++)
        q->in_chan[c] = RS_NONE;
    for (uint32_t node = 0; node < q->n_nodes; node++)
        for (uint32_t o = 0; o < q->P; o++) {
            uint32_t slot = RS_NONE, c = node * q->P + o;
            uint32_t h = net->ops->neighbor(net, node, o, &slot);
            q->ch_head[c] = h;
            q->ch_slot[c] = slot;
            if (h != RS_NONE) {
                if (slot >= q->P || q->in_chan[h * q->P + slot] != RS_NONE)
                    return rs_err_set(err, RS_EUNSUPPORTED,
                                      "router=iq: topology=%s has no distinct in-slots",
                                      net->name);
                q->in_chan[h * q->P + slot] = c;
            }
        }
    q->cy0 = q->cd0 && q->s_in == 1;
    q->fast = q->rd == 1 && q->va == 1 && q->sa == 1 && q->direct && q->s_in == 1 &&
              q->s_out == 1 && !q->hold && !q->spec && !f->adaptive && q->lone_sa &&
              q->lone_va && q->cd0 && q->cy0 && q->NI <= 64;
    q->sa_bits = q->fast && q->sa_kind == IQ_ALLOC_ISLIP && q->NIe <= 32 && q->NOe <= 32 &&
                 q->B <= 256;
    q->sets = q->sa_bits && q->NI * q->B <= 64 && !f->ev;
    IQ_ALLOC(q->qs, (uint64_t)q->n_nodes * 3);
    for (uint32_t iv = 0; iv < q->NI * q->B && iv < 64; iv++) {
        q->ivin[iv] = (uint8_t)(iv / q->B);
        q->ivvc[iv] = (uint8_t)(iv % q->B);
    }
    IQ_ALLOC(q->up_y, (uint64_t)q->n_nodes * q->NI);
    for (uint32_t node = 0; node < q->n_nodes; node++)
        for (uint32_t o = 0; o < q->P; o++)
            if (q->ch_head[node * q->P + o] != RS_NONE)
                q->up_y[q->ch_head[node * q->P + o] * q->NI + q->ch_slot[node * q->P + o]] =
                    ovc(q, node, o, 0);
    IQ_ALLOC(q->cy, n_chan * q->R);
    IQ_ALLOC(q->n_cy, q->R);
    IQ_ALLOC(q->chc, n_chan * q->R);
    uint64_t nt = (uint64_t)q->n_src * q->Rt;
    IQ_ALLOC(q->injf, nt);
    IQ_ALLOC(q->ejf, nt);
    IQ_ALLOC(q->injc, nt);
    IQ_ALLOC(q->ejc, nt);
    for (uint64_t i = 0; i < nt; i++)
        q->injf[i].m = q->ejf[i].m = NO_FLIT;
    IQ_ALLOC(q->t_use, (uint64_t)q->n_src * q->B);
    IQ_ALLOC(q->t_tail, (uint64_t)q->n_src * q->B);
    IQ_ALLOC(q->t_occ, (uint64_t)q->n_src * q->B);
    for (uint64_t i = 0; i < (uint64_t)q->n_src * q->B; i++)
        q->t_use[i] = -1;
    /* the event-driven cycle's sets and lists */
    q->n_chan = (uint32_t)n_chan;
    q->wN = IQ_WORDS(q->n_nodes);
    q->wI = IQ_WORDS(q->NI);
    q->wO = IQ_WORDS(q->NO);
    q->wT = IQ_WORDS(q->n_src);
    IQ_ALLOC(q->busy, q->wN);
    IQ_ALLOC(q->wbusy, q->wN);
    IQ_ALLOC(q->rxm, (uint64_t)q->n_nodes * q->wI);
    IQ_ALLOC(q->oqm, (uint64_t)q->n_nodes * q->wO);
    IQ_ALLOC(q->evf, n_chan * q->R);
    IQ_ALLOC(q->evc, n_chan * q->R);
    IQ_ALLOC(q->n_evf, q->R);
    IQ_ALLOC(q->n_evc, q->R);
    IQ_ALLOC(q->evi, nt);
    IQ_ALLOC(q->evj, nt);
    IQ_ALLOC(q->evk, nt);
    IQ_ALLOC(q->n_evi, q->Rt);
    IQ_ALLOC(q->n_evj, q->Rt);
    IQ_ALLOC(q->n_evk, q->Rt);
    IQ_ALLOC(q->ejm, (uint64_t)q->Rt * q->wT);
    IQ_ALLOC(q->tcm, q->wT);
    IQ_ALLOC(q->srcm, q->wT);
    IQ_ALLOC(q->src_n, q->n_src);
    IQ_ALLOC(q->src_j, q->n_src);
    IQ_ALLOC(q->dst_n, q->n_src);
    for (uint32_t node = 0; node < q->n_nodes; node++) {
        for (uint32_t i = q->src_of[node]; i < q->src_of[node + 1]; i++) {
            q->src_n[q->src_t[i]] = node;
            q->src_j[q->src_t[i]] = i - q->src_of[node];
        }
        for (uint32_t i = q->dst_of[node]; i < q->dst_of[node + 1]; i++)
            q->dst_n[q->dst_t[i]] = node;
    }
    IQ_ALLOC(q->t_last, q->n_src);
    IQ_ALLOC(q->t_cur, q->n_src);
    IQ_ALLOC(q->t_k, q->n_src);
    IQ_ALLOC(q->t_vc, q->n_src);
    for (uint32_t t = 0; t < q->n_src; t++) {
        q->t_last[t] = -1;
        q->t_cur[t] = RS_NONE;
    }
    if (rs__iq_par_init(f, q))
        return rs_err_set(err, RS_ENOMEM, "router=iq: out of memory for %u threads", f->threads);
    if (f->dist && rs__iq_dist_init(f))
        return rs_err_set(err, RS_ENOMEM, "router=iq: out of memory for the MPI exchange");
    return 0;
}
