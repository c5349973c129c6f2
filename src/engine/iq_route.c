/* Route sets of router=iq under adaptive routing (min_adaptive, nca_adaptive, ugal_l,
 * ugal_g): routing->choose at the head of an input VC, seen through the router's credit
 * counts; the candidates kept for VC allocation; BookSim's rule that a packet on the escape
 * VCs stays there (its min_adapt routing functions). docs/model-iq.md. */
#include "engine/iq_route.h"

#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"

int rs__iq_rsets_init(struct iq_rsets *s, uint64_t n_ivc, uint32_t n_slots, uint32_t n_nodes,
                      uint32_t NO, uint32_t B, uint32_t depth, const uint32_t *occ)
{
    memset(s, 0, sizeof *s);
    s->NO = NO;
    s->B = B;
    s->depth = depth;
    s->occ = occ;
    s->n_nodes = n_nodes;
    s->n = rs_calloc(n_ivc + 1, sizeof *s->n);
    s->kind = rs_calloc(n_ivc + 1, sizeof *s->kind);
    s->ch = rs_calloc(n_ivc * RS_ROUTE_MAX_CHOICES + 1, sizeof *s->ch);
    s->esc = rs_calloc((size_t)n_slots + 1, sizeof *s->esc);
    s->occ0 = rs_calloc((size_t)n_nodes * NO * B + 1, sizeof *s->occ0);
    return s->n && s->kind && s->ch && s->esc && s->occ0 ? 0 : RS_ENOMEM;
}

void rs__iq_rsets_free(struct iq_rsets *s)
{
    rs_free(s->n);
    rs_free(s->kind);
    rs_free(s->ch);
    rs_free(s->esc);
    rs_free(s->occ0);
    memset(s, 0, sizeof *s);
}

void rs__iq_rsets_begin(struct iq_rsets *s)
{
    memcpy(s->occ0, s->occ, (size_t)s->n_nodes * s->NO * s->B * sizeof *s->occ);
}

/* What the view of the router cur observes (its free_slots' context). */
struct rsets_view {
    const struct iq_rsets *s;
    uint32_t cur;
};

/* The view's free slots of VC vc of (node, port): the router's own credit counts as they are
 * now; another router's as they were when the cycle began (rs__iq_rsets_begin). */
static uint32_t rsets_free_slots(const void *ctx, uint32_t node, uint32_t port, uint32_t vc)
{
    const struct rsets_view *v = ctx;
    const struct iq_rsets *s = v->s;
    size_t y = ((size_t)node * s->NO + port) * s->B + vc;
    uint32_t occ = node != v->cur ? s->occ0[y] : s->occ[y];
    return occ < s->depth ? s->depth - occ : 0;
}

/* Does the set ch[0..n) end in an escape candidate: at least two candidates, and the last
 * one's VCs offered by no other? */
static int escape_set(const struct rs_route_choice *ch, uint32_t n)
{
    if (n < 2)
        return 0;
    const struct rs_route_choice *e = &ch[n - 1];
    for (uint32_t i = 0; i + 1 < n; i++)
        if (ch[i].vc_lo < e->vc_hi && e->vc_lo < ch[i].vc_hi)
            return 0;
    return 1;
}

int rs__iq_rsets_route(struct iq_rsets *s, struct flit *f, uint32_t node, uint32_t x,
                       uint32_t m, struct rs_err *err)
{
    struct flit_worm *w = &f->w[m];
    const struct rs_net *net = f->net;
    struct rs_route_state st = {w->src, w->dst, w->mid, w->hops, w->msg};
    struct rsets_view ctx = {s, node};
    struct rs_route_view view = {&ctx, s->B, s->depth, rsets_free_slots};
    struct rs_route_choice *ch = s->ch + (size_t)x * RS_ROUTE_MAX_CHOICES;
    uint32_t n = f->routing->choose(net, node, &st, &view, ch);
    RS_ASSERT(n <= RS_ROUTE_MAX_CHOICES);
    if (!n) {
        s->n[x] = 0;
        w->next_chan = RS_NONE;
        return 0;
    }
    int esc_set = escape_set(ch, n);
    if (esc_set && s->booksim) { /* the escape and the candidate on its port */
        uint32_t k = 0;
        for (uint32_t i = 0; i + 1 < n; i++)
            if (ch[i].port == ch[n - 1].port) {
                ch[k++] = ch[i];
                break;
            }
        ch[k++] = ch[n - 1];
        n = k;
        esc_set = n > 1;
    }
    if (s->esc[m] && n > 1) { /* on the escape VCs: the escape choice only */
        ch[0] = ch[n - 1];
        n = 1;
    }
    for (uint32_t i = 0; i < n; i++)
        if (ch[i].port >= f->P || net->ops->neighbor(net, node, ch[i].port, NULL) == RS_NONE ||
            ch[i].vc_lo >= ch[i].vc_hi || ch[i].vc_hi > s->B || w->hops > 4 * net->n_nodes + 16)
            return rs_err_set(err, RS_EINVARIANT,
                              "router=iq: adaptive route of message %u (%u -> %u) takes a "
                              "missing channel or does not end (at node %u after %u hops)",
                              w->msg, w->src, w->dst, node, w->hops);
    s->n[x] = (uint8_t)n;
    s->kind[x] = (uint8_t)(esc_set && n > 1 ? IQ_RS_ESCAPE | (s->booksim ? 0 : IQ_RS_ATOMIC) : 0);
    uint32_t port = ch[n - 1].port;
    w->next_chan = node * f->P + port;
    w->next_node = net->ops->neighbor(net, node, port, NULL);
    w->vc_lo = ch[n - 1].vc_lo;
    w->vc_hi = ch[n - 1].vc_hi;
    return 0;
}

void rs__iq_rsets_granted(struct iq_rsets *s, uint32_t x, uint32_t m, uint32_t port,
                          uint32_t vc)
{
    uint32_t n = s->n[x];
    if (!(s->kind[x] & IQ_RS_ESCAPE) || s->esc[m])
        return;
    const struct rs_route_choice *e = s->ch + (size_t)x * RS_ROUTE_MAX_CHOICES + n - 1;
    if (port == e->port && vc >= e->vc_lo && vc < e->vc_hi)
        s->esc[m] = 1;
}
