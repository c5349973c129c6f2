/* The flit engine's set-up, sources, lifecycle ops and record: switching=wormhole,
 * virtual_cut_through, cut_through_partial and store_forward_flits share this code (the
 * ops structs are in flit_ops.c, one step in flit_step.c; the loop is the driver's,
 * driver.c). The model: docs/model-flit.md. */
#include "engine/flit.h"
#include "engine/iq.h"
#include "core/events_hook.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/hugemem.h"
#include "routesim/exchange.h"
#include "routesim/run.h"

/* ---- routes --------------------------------------------------------------------------- */

/* Start-of-step free slots of VC vc of (node, port): the view of adaptive routings, in
 * [0, depth]. The head VC of a worm whose header was delivered passes the worm's flits to
 * the terminal in the step they arrive: stamped as arrived but never counted, so once one
 * has passed in the step flit_cnt_start reads it as -1 (2^32 - 1); its true count, 0 (the
 * VC was free before the header took it, and holds only that worm's flits), is read
 * instead. (Stamping only counted arrivals would make flit_cnt_start exact everywhere, but
 * costs the oblivious step 1.2% more instructions.) Over MPI ranks the home's copy of a VC
 * held by another rank's worm is its start-of-step record: count records brought it home
 * at the end of the last step. */
static uint32_t free_slots(const void *ctx, uint32_t node, uint32_t port, uint32_t vc)
{
    const struct flit *f = ctx;
    uint32_t x = flit_vc_id(f, (uint64_t)node * f->P + port, vc), c = flit_cnt_start(f, x);
    return c > f->depth ? f->depth : f->depth - c; /* c = 2^32 - 1: a delivering head VC */
}

int rs__flit_route_adaptive(struct flit *f, uint32_t m, uint32_t node, struct rs_err *err)
{
    struct flit_worm *w = &f->w[m];
    const struct rs_net *net = f->net;
    struct rs_route_state st = {w->src, w->dst, w->mid, w->hops, w->msg};
    struct rs_route_choice ch[RS_ROUTE_MAX_CHOICES];
    struct rs_route_view fixed = f->view;
    fixed.free_slots = NULL;
    uint32_t n = f->routing->choose(net, node, &st, &fixed, ch);
    if (!n) {
        w->next_chan = RS_NONE;
        return 0;
    }
    uint32_t port = ch[n - 1].port, head = net->ops->neighbor(net, node, port, NULL);
    if (head == RS_NONE || w->hops > 4 * net->n_nodes + 16)
        return rs_err_set(err, RS_EINVARIANT,
                          "adaptive route of message %u (%u -> %u) takes a missing channel or "
                          "does not end (at node %u after %u hops)",
                          w->msg, w->src, w->dst, node, w->hops);
    w->next_chan = node * f->P + port;
    w->next_node = head;
    w->vc_lo = ch[n - 1].vc_lo;
    w->vc_hi = ch[n - 1].vc_hi;
    return 0;
}

int rs__flit_route(struct flit *f, uint32_t m, uint32_t node, struct rs_err *err)
{
    return f->adaptive ? rs__flit_route_adaptive(f, m, node, err)
                       : rs__flit_route_oblivious(f, m, node, err);
}

uint32_t rs__flit_choices(const struct flit *f, uint32_t m, struct rs_route_choice *out)
{
    const struct flit_worm *w = &f->w[m];
    uint32_t node = w->next_chan / f->P;
    if (!f->adaptive) {
        out[0] = (struct rs_route_choice){w->next_chan % f->P, w->vc_lo, w->vc_hi};
        return 1;
    }
    struct rs_route_state st = {w->src, w->dst, w->mid, w->hops, w->msg};
    struct rs_route_view fixed = f->view;
    fixed.free_slots = NULL;
    return f->routing->choose(f->net, node, &st, &fixed, out);
}

uint32_t rs__flit_adaptive_pick(struct flit *f, uint32_t m, int shared)
{
    struct flit_worm *w = &f->w[m];
    uint32_t node = w->next_chan / f->P, t = f->step;
    struct rs_route_state st = {w->src, w->dst, w->mid, w->hops, w->msg};
    struct rs_route_choice ch[RS_ROUTE_MAX_CHOICES];
    uint32_t n = f->routing->choose(f->net, node, &st, &f->view, ch);
    RS_DASSERT(n >= 1 && n <= RS_ROUTE_MAX_CHOICES);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t c = (uint64_t)node * f->P + ch[i].port;
        if (shared && f->chan_used[c] == t)
            continue;
        for (uint32_t v = ch[i].vc_lo; v < ch[i].vc_hi; v++) {
            uint32_t y = flit_vc_id(f, c, v);
            if (f->vc[y].owner != RS_NONE || f->vc[y].t_free == t)
                continue;
            w->next_chan = (uint32_t)c;
            w->next_node = f->net->ops->neighbor(f->net, node, ch[i].port, NULL);
            return y;
        }
    }
    return RS_NONE;
}

uint32_t rs__flit_adaptive_order(const struct flit *f, uint32_t m, struct flit_ach *out)
{
    const struct flit_worm *w = &f->w[m];
    struct rs_route_state st = {w->src, w->dst, w->mid, w->hops, w->msg};
    struct rs_route_choice ch[RS_ROUTE_MAX_CHOICES];
    uint32_t n = f->routing->choose(f->net, w->next_chan / f->P, &st, &f->view, ch);
    RS_DASSERT(n >= 1 && n <= RS_ROUTE_MAX_CHOICES);
    for (uint32_t i = 0; i < n; i++) /* (par_init: ports < 2^16, VCs <= 64) */
        out[i] = (struct flit_ach){(uint16_t)ch[i].port, (uint8_t)ch[i].vc_lo,
                                   (uint8_t)ch[i].vc_hi};
    return n;
}

uint32_t rs__flit_adaptive_take(struct flit *f, uint32_t m, const struct flit_ach *ch,
                                uint32_t n)
{
    struct flit_worm *w = &f->w[m];
    uint32_t node = w->next_chan / f->P, t = f->step;
    for (uint32_t i = 0; i < n; i++) { /* as rs__flit_adaptive_pick (link=per_vc) */
        uint64_t c = (uint64_t)node * f->P + ch[i].port;
        for (uint32_t v = ch[i].lo; v < ch[i].hi; v++) {
            uint32_t y = flit_vc_id(f, c, v);
            if (f->vc[y].owner != RS_NONE || f->vc[y].t_free == t)
                continue;
            w->next_chan = (uint32_t)c;
            w->next_node = f->net->ops->neighbor(f->net, node, ch[i].port, NULL);
            return y;
        }
    }
    return RS_NONE;
}

/* ---- the event log (docs/events.md) ------------------------------------------------------ */

void rs__flit_event_hop(const struct flit *f, uint32_t m)
{
    const struct flit_worm *w = &f->w[m];
    uint32_t chan = w->head / f->B; /* VC id = channel * B + v, channel = node * P + port */
    rs__events_put(f->ev, w->hops == 1 ? RS_EV_INJECTED : RS_EV_HOP, f->step, FLIT_EV_ID(f, m),
                   chan / f->P, chan % f->P, w->head % f->B);
}

void rs__flit_event_blocked(const struct flit *f, uint32_t m)
{
    const struct flit_worm *w = &f->w[m];
    rs__events_put(f->ev, RS_EV_BLOCKED, f->step, FLIT_EV_ID(f, m), w->next_chan / f->P,
                   w->next_chan % f->P, RS_EV_NONE);
}

/* ---- worm slots and sources ------------------------------------------------------------ */

/* Keep VC x's count until the end of the step (rs__flit_zero_stale). Returns 0, or 1 when
 * out of memory (f->rc set). */
static int keep_stale(struct flit *f, uint32_t x)
{
    if (f->n_stale == f->cap_stale) {
        uint64_t cap = f->cap_stale ? 2 * f->cap_stale : 256;
        uint32_t *v = rs_realloc(f->stale, cap * sizeof *v);
        if (!v) {
            if (!f->rc)
                f->rc = rs_err_set(f->err, RS_ENOMEM, "out of memory for discarded buffers");
            return 1;
        }
        f->stale = v;
        f->cap_stale = cap;
    }
    f->stale[f->n_stale++] = x;
    return 0;
}

void rs__flit_zero_stale(struct flit *f)
{
    for (uint64_t i = 0; i < f->n_stale; i++)
        f->vc[f->stale[i]].cnt = 0;
    f->n_stale = 0;
}

/* Discard worm m (on_delay=discard): its flits removed, its VCs released (allocatable from
 * the next step), counted as dropped. With an adaptive routing the released VCs keep their
 * counts until the end of the step, so that the view of the headers that look after the
 * discard in the step is the start of the step's, as the routing's contract says (and as
 * over MPI ranks, where the step's discards come after its worms' moves); the count sent
 * home with a VC released away from it is its end-of-step 0. Out of line: the delivered
 * path stays short. */
static __attribute__((noinline, cold)) void discard_worm(struct flit *f, struct flit_worm *w)
{
    uint32_t x = w->head;
    for (uint32_t k = 0; k < w->span; k++) {
        struct flit_vc *v = &f->vc[x];
        uint32_t up = v->up, c = v->cnt;
        f->in_net -= c;
        v->cnt = 0;
        v->owner = RS_NONE;
        v->t_free = f->step;
        if (f->dist) /* over MPI ranks: home at the end of the step, as any release */
            rs__flit_dist_released(f, x);
        if (f->adaptive && c && !keep_stale(f, x))
            v->cnt = c;
        x = up;
    }
    w->span = 0;
    f->dropped++;
    f->step_moves++;
}

void rs__flit_finish(struct flit *f, uint32_t m, int delivered)
{
    struct flit_worm *w = &f->w[m];
    if (!delivered) {
        discard_worm(f, w);
    } else {
        f->delivered++;
    }
    f->last_event = f->step;
    RS_EVENT(f->ev, delivered ? RS_EV_DELIVERED : RS_EV_DROPPED, f->step, FLIT_EV_ID(f, m),
             w->next_chan == RS_NONE ? w->next_node : (uint32_t)(w->next_chan / f->P),
             RS_EV_NONE, RS_EV_NONE); /* its node: where the header is */
    if (f->ol && f->dist) { /* recorded at the end of the step, every rank's on every rank */
        rs__flit_dist_finished(f, w->gen, w->len, delivered);
    } else if (f->ol) {
        rs_openloop_finish(f->ol, w->gen, w->len, f->step, delivered);
    } else {
        f->finish[w->msg] = f->step;
        f->fate[w->msg] = delivered ? RS_FATE_DELIVERED : RS_FATE_DROPPED;
        f->remaining--;
    }
    f->free_slot[f->n_free++] = m;
}

/* Take a slot for a message and route it from its source node. Returns the slot, or
 * RS_NONE when its path is empty (it is then delivered at once, at the current step) or on
 * a routing error (f->rc set). The pool is sized so that a slot is always there: every
 * worm in the network holds a VC (a buffered flit with partial cuts), plus one front per
 * terminal. */
static uint32_t new_worm(struct flit *f, uint32_t src, uint32_t dst, uint32_t mid, uint32_t len,
                         uint32_t msg, uint32_t gen, uint64_t key, uint32_t seq)
{
    uint32_t m = f->free_slot[--f->n_free];
    struct flit_worm *w = &f->w[m];
    memset(w, 0, sizeof *w);
    w->key = key;
    w->seq = seq;
    w->msg = msg;
    w->src = src;
    w->dst = dst;
    w->mid = mid;
    w->len = len;
    w->gen = gen;
    w->src_left = len;
    w->head = RS_NONE;
    w->next_node = f->src_node[src];
    uint32_t pe = f->adaptive ? RS_NONE : flit_path_of(f, src, dst, mid);
    w->path = pe == RS_NONE ? RS_NONE : (pe & ~FLIT_PATH_EMPTY) - 1;
    if (__builtin_expect(f->ev != NULL, 0) && f->ol) /* the event log: slot m's packet id */
        rs__events_ol_bind(f->ev, m, src, f->ol->term[src].started);
    if (pe == RS_NONE) { /* routed hop by hop */
        if ((f->rc = rs__flit_route(f, m, f->src_node[src], f->err))) {
            f->free_slot[f->n_free++] = m;
            return RS_NONE;
        }
    } else if (pe & FLIT_PATH_EMPTY) { /* the cached route has no hop */
        w->next_chan = RS_NONE;
    } else if (!f->iq_router) {
        /* the cached route's first hop, read when the header first tries to move (the step's
         * source loop, flit_first_hop): a cold line here; fetched now, it is in the cache
         * then, with the next hops */
        const char *h = (const char *)&f->hop[w->path];
        __builtin_prefetch(h);
        __builtin_prefetch(h + 64);
        w->next_chan = FLIT_CHAN_UNREAD;
    } else { /* router=iq reads its fronts' next channel (rs__flit_route_oblivious) */
        flit_first_hop(f, w);
    }
    if (w->next_chan == RS_NONE && !f->iq_router) { /* source = destination: delivered
                                                      without a move (router=iq: through its
                                                      router) */
        w->done = len;
        w->src_left = 0;
        f->step_accepted += len;
        rs__flit_finish(f, m, 1);
        return RS_NONE;
    }
    return m;
}

void rs__flit_make_front(struct flit *f, uint32_t t)
{
    if (f->front[t] != RS_NONE || f->rc)
        return;
    if (f->ol) { /* packets generated before the current step */
        while (f->ol->term[t].pending) {
            struct rs_ol_packet pk;
            rs_openloop_front(f->ol, t, &pk);
            uint32_t m = new_worm(f, t, pk.dst, pk.mid, pk.length, pk.msg, pk.gen,
                                  ((uint64_t)pk.gen << 32) | t, f->ol->term[t].started);
            if (f->rc)
                return;
            if (m != RS_NONE) {
                f->front[t] = m;
                return;
            }
            rs_openloop_start(f->ol, t); /* delivered at once: on to the next */
        }
        return;
    }
    const struct rs_engine_plan *pl = f->plan;
    while (f->src_pos[t] < f->src_end[t]) {
        uint32_t msg = f->by_src[f->src_pos[t]++];
        uint32_t rel = rs_driver_release_of(f->drv, msg);
        uint32_t mid = rs_driver_mid_of(f->drv, msg);
        uint32_t len = pl && pl->length ? pl->length[msg] : f->L;
        uint32_t m = new_worm(f, t, f->pb->dst[msg], mid, len, msg, rel,
                              ((uint64_t)rel << 32) | msg, 0);
        if (f->rc)
            return;
        if (m != RS_NONE) {
            f->front[t] = m;
            return;
        }
    }
}

void rs__flit_front_left(struct flit *f, uint32_t t)
{
    if (f->ol)
        rs_openloop_start(f->ol, t);
}

/* Has terminal t anything left to start (a front, or messages to come)? */
static inline __attribute__((always_inline)) int source_busy(const struct flit *f, uint32_t t)
{
    if (f->front[t] != RS_NONE)
        return 1;
    if (f->ol)
        return f->ol->term[t].pending != 0;
    return f->src_pos[t] < f->src_first[t + 1];
}

/* End of step: new fronts for the terminals that lack one, the terminals that became
 * pending (open loop, new[0..n_new), increasing) merged in, idle terminals dropped. */
static void refresh_sources(struct flit *f, const uint32_t *newly, uint32_t n_new)
{
    uint32_t i = 0, j = 0, n = 0;
    if (f->dist && n_new) /* over MPI ranks: this rank's sources only */
        n_new = rs__flit_dist_own_terminals(f, newly, n_new, &newly);
    while (i < f->n_pend || j < n_new) {
        uint32_t t;
        if (j >= n_new || (i < f->n_pend && f->pend[i] < newly[j]))
            t = f->pend[i++];
        else if (i < f->n_pend && f->pend[i] == newly[j]) /* emptied this step, refilled */
            t = (i++, newly[j++]);
        else
            t = newly[j++];
        if (rs__flit_front_due(f, t))
            rs__flit_make_front(f, t);
        if (source_busy(f, t))
            f->pend2[n++] = t;
    }
    uint32_t *tmp = f->pend;
    f->pend = f->pend2;
    f->pend2 = tmp;
    f->n_pend = n;
}

/* ---- set-up ------------------------------------------------------------------------------ */

void rs__flit_free(void *st)
{
    struct flit *f = st;
    rs__iq_free(f);
    rs__flit_paths_free(f);
    rs__flit_par_free(f);
    rs__flit_dist_free(f);
    rs__huge_free(f->vc, f->n_vc * sizeof *f->vc);
    rs__huge_free(f->fifo, f->fifo ? f->n_vc * sizeof *f->fifo : 0);
    rs_free(f->chan_used);
    if (f->w_small)
        rs_free(f->w);
    else
        rs__huge_free(f->w, (size_t)f->n_slots * sizeof *f->w);
    rs_free(f->free_slot);
    rs_free(f->act);
    rs_free(f->born);
    rs_free(f->born_key);
    rs_free(f->src_node);
    rs_free(f->front);
    rs_free(f->pend);
    rs_free(f->pend2);
    rs_free(f->src_first);
    rs_free(f->stale);
    rs_free(f->by_src);
    rs_free(f->src_pos);
    rs_free(f->src_end);
    rs_free(f->finish);
    rs_free(f->fate);
    rs_free(f->stuck);
    rs_free(f->stuck_front);
}

/* Static messages grouped by source: the bounds of each source's part of by_src, empty
 * until the driver releases its messages (take_released). */
static int group_sources(struct flit *f, struct rs_err *err)
{
    const struct rs_problem *pb = f->pb;
    uint32_t n = f->n_src;
    f->src_first = rs_calloc((size_t)n + 1, sizeof *f->src_first);
    f->src_pos = rs_calloc((size_t)n + 1, sizeof *f->src_pos);
    f->src_end = rs_calloc((size_t)n + 1, sizeof *f->src_end);
    f->by_src = rs_malloc((size_t)pb->n_msgs * sizeof *f->by_src + 1);
    if (!f->src_first || !f->src_pos || !f->src_end || !f->by_src)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu messages",
                          (unsigned long long)pb->n_msgs);
    for (uint64_t m = 0; m < pb->n_msgs; m++)
        f->src_first[rs_problem_src(pb, m) + 1]++;
    for (uint32_t t = 0; t < n; t++)
        f->src_first[t + 1] += f->src_first[t];
    for (uint32_t t = 0; t < n; t++)
        f->src_pos[t] = f->src_end[t] = f->src_first[t];
    return 0;
}

/* The static messages the driver releases at step (once per step; at set-up, step 0) join
 * their sources' queues, behind the ones released earlier. */
static void take_released(struct flit *f, uint32_t step)
{
    struct rs_released r;
    uint32_t n = rs_driver_released(f->drv, step, &r);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t m = rs_released_id(&r, i), t = rs_problem_src(f->pb, m);
        RS_EVENT(f->ev, RS_EV_GENERATED, step, m, f->src_node[t], RS_EV_NONE, RS_EV_NONE);
        f->by_src[f->src_end[t]++] = m;
    }
}

static const char *const mode_names[] = {"wormhole", "virtual_cut_through",
                                         "cut_through_partial", "store_forward_flits"};

static int read_options(struct flit *f, const struct rs_params *p, const struct rs_optdef *opt,
                        int64_t *depth_opt, struct rs_err *err)
{
    int64_t L, B;
    int link, cls, on_delay, rc;
    if ((rc = rs_opt_int(p, opt, "length", &L, err)) || (rc = rs_opt_int(p, opt, "vcs", &B, err)) ||
        (rc = rs_opt_choice(p, opt, "link", &link, err)) ||
        (rc = rs_opt_choice(p, opt, "vc_classes", &cls, err)) ||
        (rc = rs_opt_choice(p, opt, "on_delay", &on_delay, err)))
        return rc;
    *depth_opt = 0;
    if (rs_optdef_find(opt, "vc_depth") && (rc = rs_opt_int(p, opt, "vc_depth", depth_opt, err)))
        return rc;
    if (rs_optdef_find(opt, "collapse") && (rc = rs_opt_bool(p, opt, "collapse", &f->collapse, err)))
        return rc;
    f->L = (uint32_t)L;
    f->B = (uint32_t)B;
    f->link = (enum flit_link)link;
    f->classes = (enum flit_classes)cls;
    f->discard = on_delay == FLIT_DISCARD;
    if (rs_optdef_find(opt, "router") && (rc = rs_opt_choice(p, opt, "router", &f->iq_router, err)))
        return rc;
    int64_t threads;
    if ((rc = rs_opt_int(p, rs_run_options, "threads", &threads, err)))
        return rc;
    f->threads = (uint32_t)threads;
    if (!f->iq_router && (rc = rs__iq_refuse_keys(p, err)))
        return rc;
    return 0;
}

/* Adaptive routing (routing->choose): wormhole and virtual cut-through only, enough VCs for
 * its classes, no intermediates from a plan, vc_classes left alone (the routing places its
 * own escape classes). Sets f->adaptive and the view it observes. */
static int flit_adaptive_init(struct flit *f, const struct rs_engine_plan *pl,
                              struct rs_err *err)
{
    int rc;
    if (!rs_route_is_adaptive(f->routing))
        return 0;
    if ((rc = rs_route_check(f->net, f->routing, err)))
        return rc;
    if (f->mode != FLIT_WORMHOLE && f->mode != FLIT_VCT) {
        char who[48];
        snprintf(who, sizeof who, "switching=%s", mode_names[f->mode]);
        return rs_route_need_fixed(f->routing, who, err);
    }
    if (f->routing->check_vcs && (rc = f->routing->check_vcs(f->net, f->B, err)))
        return rc;
    if (f->classes != FLIT_CLASSES_NONE)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "vc_classes=dateline has no effect with routing=%s: it places its own "
                          "escape classes (leave vc_classes=none)",
                          f->routing->name);
    if (pl && pl->mid)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "a plan with intermediates needs an oblivious routing (got "
                          "routing=%s)",
                          f->routing->name);
    f->adaptive = 1;
    f->view = (struct rs_route_view){f, f->B, f->depth, free_slots};
    return 0;
}

static int flit_init(struct flit *f, struct rs_driver *d, enum flit_mode mode,
                     const struct rs_optdef *opt, struct rs_err *err)
{
    const struct rs_engine_input *in = d->in;
    const struct rs_openloop_cfg *cfg = &d->cfg;
    const struct rs_net *net = in->net;
    const struct rs_problem *pb = in->pb;
    const struct rs_engine_plan *pl = in->plan;
    int64_t depth_opt;
    int rc;
    memset(f, 0, sizeof *f);
    f->net = net;
    f->pb = pb;
    f->plan = pl;
    f->drv = d;
    f->seed = in->seed;
    f->routing = in->routing;
    f->route_plain = rs_route_plain(in->routing, d->mid != NULL);
    f->hop_next = f->route_plain && net->ops->next_hop;
    f->mode = mode;
    f->err = err;
    if ((rc = read_options(f, in->params, opt, &depth_opt, err)))
        return rc;
    f->discard |= pl && pl->discard_on_delay;
    f->P = net->max_ports;
    f->n_chan = (uint64_t)net->n_nodes * f->P;
    f->n_vc = f->n_chan * f->B;
    if (f->n_vc >= UINT32_MAX / 2)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "network too large for switching=%s: %llu virtual channels (at most "
                          "2^31)",
                          mode_names[mode], (unsigned long long)f->n_vc);

    uint32_t max_len = f->L;
    if (pl && pl->length)
        for (uint64_t m = 0; m < pb->n_msgs; m++) {
            if (pl->length[m] == 0)
                return rs_err_set(err, RS_EINVAL, "plan: message %llu has length 0",
                                  (unsigned long long)m);
            if (pl->length[m] > max_len)
                max_len = pl->length[m];
        }
    if (d->ol && cfg->len_max > max_len) /* a plan is refused in open loop (driver.c) */
        max_len = cfg->len_max;
    switch (mode) {
    case FLIT_WORMHOLE:
        f->depth = (uint32_t)depth_opt;
        break;
    case FLIT_PARTIAL:
        f->depth = depth_opt ? (uint32_t)depth_opt : max_len;
        break;
    case FLIT_VCT:
    case FLIT_SAF:
        f->depth = max_len; /* a buffer holds a whole message */
        break;
    }
    if (f->discard && mode == FLIT_PARTIAL)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "on_delay=discard is not defined for switching=cut_through_partial "
                          "(use wormhole, virtual_cut_through or store_forward_flits)");
    f->n_cls = 1;
    if ((rc = flit_adaptive_init(f, pl, err)))
        return rc;
    if (f->classes == FLIT_CLASSES_PARTITION) {
        if ((net->caps & (RS_CAP_COORDS | RS_CAP_WRAP)) != (RS_CAP_COORDS | RS_CAP_WRAP))
            return rs_err_set(err, RS_EUNSUPPORTED,
                              "vc_classes=partition needs a torus or ring (got topology=%s)",
                              net->name);
        if (f->routing->mid || (pl && pl->mid))
            return rs_err_set(err, RS_EUNSUPPORTED,
                              "vc_classes=partition is for dimension-order routes without "
                              "intermediates (use vc_classes=dateline)");
        if (f->B % 2)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "vc_classes=partition needs an even number of vcs (got vcs=%u)",
                              f->B);
        f->n_cls = 2;
    }
    if (f->classes == FLIT_CLASSES_DATELINE && !f->adaptive) {
        if (!net->ops->vc_class)
            return rs_err_set(err, RS_EUNSUPPORTED,
                              "vc_classes=dateline: topology=%s defines no virtual-channel "
                              "classes (torus, ring, mesh and butterfly do)",
                              net->name);
        f->n_cls = (f->routing->mid || (pl && pl->mid)) ? 4 : 2;
        if (f->B % f->n_cls)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "vc_classes=dateline%s needs vcs a multiple of %u (got vcs=%u)",
                              f->n_cls == 4 ? " with Valiant routing" : "", f->n_cls, f->B);
    }

    f->n_src = pb->n_terminals;
    uint64_t bound = mode == FLIT_PARTIAL ? f->n_vc * f->depth : f->n_vc;
    if (f->iq_router) /* packets in flight: at most the flits every buffer can hold */
        bound = (uint64_t)net->n_nodes * (f->P + 2) * f->B * f->depth;
    /* (router=iq over MPI ranks: a packet whose route leaves a rank and comes back holds a
     * slot there per visit: room for two per message, iq_dist.c) */
    uint64_t visits = f->iq_router && in->exchange && in->exchange->size > 1 ? 2 : 1;
    if (!d->ol && bound > visits * pb->n_msgs)
        bound = visits * pb->n_msgs;
    if (bound + f->n_src >= UINT32_MAX / 2)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "switching=%s: %llu virtual channels of %u flits can hold too many "
                          "messages for one run (lower vcs or vc_depth)",
                          mode_names[mode], (unsigned long long)f->n_vc, f->depth);
    f->n_slots = (uint32_t)bound + f->n_src;
    if (in->exchange && in->exchange->size > 1) { /* over MPI ranks: one thread each */
        f->threads = 1;
        if ((rc = rs__flit_dist_init(f, in->exchange, err)))
            return rc;
    }

    f->vc = rs__huge_alloc(f->n_vc * sizeof *f->vc);
    if (mode == FLIT_PARTIAL)
        f->fifo = rs__huge_alloc(f->n_vc * sizeof *f->fifo);
    if (f->link == FLIT_SHARED)
        f->chan_used = rs_calloc(f->n_chan + 1, sizeof *f->chan_used);
    /* new_worm writes a slot whole before any read: below 2 MiB the slots are malloc'd, not
     * zeroed, so that only the pages of the slots in use are touched (a page's first touch
     * costs about 20 us of CPU on this project's VM; the 8x8 mesh uses about 1 of its 14) */
    f->w_small = (size_t)f->n_slots * sizeof *f->w < FLIT_W_HUGE_FROM;
    f->w = f->w_small ? rs_malloc((size_t)f->n_slots * sizeof *f->w)
                      : rs__huge_alloc((size_t)f->n_slots * sizeof *f->w);
    f->free_slot = rs_malloc((size_t)f->n_slots * sizeof *f->free_slot);
    f->act = rs_malloc((size_t)f->n_slots * sizeof *f->act);
    f->born = rs_malloc((size_t)f->n_slots * sizeof *f->born);
    f->born_key = rs_malloc((size_t)f->n_slots * sizeof *f->born_key);
    f->src_node = rs_malloc((size_t)f->n_src * sizeof *f->src_node + 1);
    f->front = rs_malloc((size_t)f->n_src * sizeof *f->front + 1);
    f->pend = rs_malloc((size_t)f->n_src * sizeof *f->pend + 1);
    f->pend2 = rs_malloc((size_t)f->n_src * sizeof *f->pend2 + 1);
    if (!f->vc || (mode == FLIT_PARTIAL && !f->fifo) || (f->link == FLIT_SHARED && !f->chan_used) ||
        !f->w || !f->free_slot || !f->act || !f->born || !f->born_key ||
        !f->src_node || !f->front || !f->pend || !f->pend2)
        return rs_err_set(err, RS_ENOMEM,
                          "out of memory for %llu virtual channels and %u message slots",
                          (unsigned long long)f->n_vc, f->n_slots);
    /* over ranks, only the home VCs: a rank reads another's VC only after a record has
     * written it (flit_dist.c) */
    if (f->dist)
        rs__flit_dist_clear_home(f);
    else
        for (uint64_t x = 0; x < f->n_vc; x++)
            f->vc[x].owner = f->vc[x].up = RS_NONE;
    for (uint32_t i = 0; i < f->n_slots; i++)
        f->free_slot[i] = f->n_slots - 1 - i;
    f->n_free = f->n_slots;
    for (uint32_t t = 0; t < f->n_src; t++) {
        f->src_node[t] = net->ops->src_node(net, t);
        f->front[t] = RS_NONE;
    }
    if (rs__flit_paths_init(f))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the route cache");
    if (rs__flit_par_init(f))
        return rs_err_set(err, RS_ENOMEM, "out of memory for %u threads", f->threads);

    if (d->ol) { /* the injection process is the driver's */
        f->stuck = rs_calloc(f->n_slots, 1);
        if (mode == FLIT_PARTIAL)
            f->stuck_front = rs_malloc(f->n_vc * sizeof *f->stuck_front + 1);
        if (!f->stuck || (mode == FLIT_PARTIAL && !f->stuck_front))
            return rs_err_set(err, RS_ENOMEM, "out of memory for the deadlock search");
        f->ol = d->ol;
        f->ev = d->in->events; /* packets named by slot (FLIT_EV_ID, docs/events.md) */
        return f->dist ? rs__flit_dist_split_arrivals(f, err) : 0;
    }
    f->finish = rs_malloc((size_t)pb->n_msgs * sizeof *f->finish + 1);
    f->fate = rs_calloc((size_t)pb->n_msgs + 1, 1);
    if (!f->finish || !f->fate)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu messages",
                          (unsigned long long)pb->n_msgs);
    memset(f->finish, 0xff, (size_t)pb->n_msgs * sizeof *f->finish);
    f->remaining = pb->n_msgs;
    if ((rc = group_sources(f, err)))
        return rc;
    f->ev = d->in->events; /* refused by rs__flit_init where not covered */
    take_released(f, 0);
    for (uint32_t t = 0; t < f->n_src; t++) { /* fronts of the messages released at 0 */
        if (f->dist && !rs__flit_dist_own_node(f, f->src_node[t]))
            continue; /* another rank's source */
        rs__flit_make_front(f, t);
        if (f->rc)
            return f->rc;
        if (source_busy(f, t))
            f->pend[f->n_pend++] = t;
    }
    if (f->dist) /* the fronts and the messages delivered at once, over the ranks */
        return rs__flit_dist_exchange(f, 0, err);
    return 0;
}

/* ---- the record -------------------------------------------------------------------------- */

/* Latency (finish - release) statistics of the delivered static messages into r. */
static int static_latency(const struct flit *f, struct rs_result *r)
{
    struct rs_lat_source ls = {.n = f->pb->n_msgs, .finish = f->finish,
                               .release = f->drv->release, .state = f->fate,
                               .delivered = RS_FATE_DELIVERED};
    return rs_result_latency(r, &ls);
}

/* Fill the typed result r (initialised). A deadlocked run's latencies are NaN (the
 * undelivered messages have none). */
static int flit_result(const struct flit *f, struct rs_result *r, int deadlock)
{
    if (f->ol) {
        rs_openloop_result(f->ol, r);
    } else {
        r->makespan = f->last_event;
        r->messages = (int64_t)f->pb->n_msgs;
        r->delivered = (int64_t)f->delivered;
        r->dropped = (int64_t)f->dropped;
        if (!deadlock && static_latency(f, r))
            return RS_ENOMEM;
    }
    r->flit_hops = (int64_t)f->flit_hops;
    r->blocked_header_steps = (int64_t)f->blocked;
    r->max_buffer = f->max_buffer;
    r->steps = f->step;
    r->deadlock = deadlock;
    return 0;
}

/* ---- the run ----------------------------------------------------------------------------- */

/* Steps between two searches for a deadlocked set of worms in open-loop runs. */
#define FLIT_STUCK_PERIOD 64

/* Has a source of this process a front? */
static int any_front(const struct flit *f)
{
    for (uint32_t i = 0; i < f->n_pend; i++)
        if (f->front[f->pend[i]] != RS_NONE)
            return 1;
    return 0;
}

/* Worms in the network (over every rank in a run over MPI ranks). */
static uint64_t live_worms(const struct flit *f)
{
    return f->dist ? f->dist_live : flit_live(f);
}

/* Static runs with nothing in the network and nothing to start: jump to the step before
 * the next release. Messages released there whose path is empty are delivered at once,
 * without a move; while that leaves no message to start, jump again. Returns 0 (possibly
 * with every message finished), or RS_EINVARIANT if nothing is left to release. */
static int fast_forward(struct flit *f, struct rs_err *err)
{
    while (f->remaining) {
        if (f->dist ? f->dist_fronts > 0 : any_front(f))
            return 0;
        uint32_t next = rs_driver_next_release(f->drv);
        if (next == UINT32_MAX || next <= f->step) /* its front would have been made */
            return rs_err_set(err, RS_EINVARIANT, "%llu messages neither delivered nor pending",
                              (unsigned long long)f->remaining);
        f->step = next;
        take_released(f, next);
        refresh_sources(f, NULL, 0);
        int rc = f->rc;
        if (f->dist && (rc = rs__flit_dist_exchange(f, rc, err))) /* over the ranks */
            return rc;
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- the lifecycle (the loop is the driver's, src/engine/driver.c) -------------------- */

int rs__flit_init(void *st, struct rs_driver *d, enum flit_mode mode,
                  const struct rs_optdef *options, struct rs_err *err)
{
    struct flit *f = st;
    int rc = flit_init(f, d, mode, options, err);
    if (!rc && d->in->events && f->threads > 1 && !f->iq_router)
        return rs_err_set(err, RS_EUNSUPPORTED, "--events: threads > 1 is not covered (runs "
                          "with threads=1 or router=iq are)");
    if (!rc && f->iq_router)
        rc = rs__iq_init(f, d->in->params, options, err);
    if (rc)
        return rc;
    d->remaining = f->remaining;
    return 0;
}

int rs__flit_life_step(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct flit *f = st;
    int rc;
    if (!f->ol && live_worms(f) == 0 && f->remaining && !f->iq) {
        if ((rc = fast_forward(f, err)))
            return rc;
        if (f->remaining == 0) { /* the rest had empty paths: no step to run */
            d->step = f->step;
            d->remaining = 0;
            return 0;
        }
    }
    f->step++;
    rc = f->iq ? rs__iq_step(f, err) : rs__flit_step(f, err);
    if (!rc && !f->ol) /* the messages released at this step join their sources */
        take_released(f, f->step);
    if (!rc) {
        const uint32_t *newly;
        uint32_t n_new = rs_driver_arrivals(d, f->step, &newly);
        refresh_sources(f, newly, n_new);
        rc = f->rc;
    }
    if (f->dist) /* worms and VCs to their ranks, the step's sums (an error on any rank) */
        rc = rs__flit_dist_exchange(f, rc, err);
    if (rc)
        return rc;
    d->step = f->step;
    d->accepted = f->step_accepted;
    d->remaining = f->remaining;
    f->stuck_start = RS_NONE;
    if (f->step_moves == 0 && live_worms(f) > 0) {
        /* nothing moved: the network is at a fixed point (no VC was released, no buffer
         * changed), and arrivals at the sources cannot free anything */
        d->deadlock = 1;
    } else if (f->ol && f->link == FLIT_PER_VC && !f->iq && f->step % FLIT_STUCK_PERIOD == 0) {
        /* open loop: new packets may keep some of the network moving forever around a
         * deadlocked part; look for it now and then */
        if (!f->dist)
            f->stuck_start = rs__flit_stuck_set(f);
        else if ((rc = rs__flit_dist_stuck(f, &f->stuck_start))) /* every rank's worms */
            return rs_err_set(err, rc, rc == RS_EIO ? "the exchange between MPI ranks failed in "
                                                      "step %u"
                                                    : "out of memory for the deadlock search in "
                                                      "step %u",
                              f->step);
        d->deadlock = f->stuck_start != RS_NONE;
    }
    if (!d->deadlock && f->step_moves == 0 && live_worms(f) == 0 && !f->ol && !f->iq)
        /* static sources that cannot start into an empty network: impossible (every VC is
         * free), but never loop on it */
        return rs_err_set(err, RS_EINVARIANT,
                          "step %u: no message can start into an empty network", f->step);
    return 0;
}

int rs__flit_life_check(void *st, struct rs_err *err)
{
    struct flit *f = st;
    if (f->iq)
        return rs__iq_check(f, err);
    return rs__flit_check(st, err);
}

void rs__flit_life_describe(void *st, char *buf, size_t n)
{
    struct flit *f = st;
    if (f->iq) {
        rs__iq_describe_deadlock(f, buf, n);
        return;
    }
    int rc = f->dist ? rs__flit_dist_gather(f) : 0; /* every rank's worms, on every rank */
    if (rc) {
        snprintf(buf, n, "deadlock at step %u (%s while the ranks' worms were gathered)",
                 f->step, rs_strerror(rc));
        return;
    }
    rs__flit_describe_deadlock(f, f->stuck_start, buf, n);
}

int rs__flit_collect(void *st, struct rs_driver *d, struct rs_result *res, int deadlock)
{
    struct flit *f = st;
    const struct rs_engine_plan *pl = d->in->plan;
    int rc;
    if (f->dist && (rc = rs__flit_dist_collect(f))) /* the sums and finish steps of every rank */
        return rc;
    struct rs_engine_paths *paths = d->in->paths;
    if (f->dist && paths && !f->ol && !f->adaptive) { /* counted here, so that no rank walks
                                                         every route again (adaptive: none) */
        rs__huge_free(f->vc, f->n_vc * sizeof *f->vc); /* not read from here on (the waiting
                                                          cycle was traced before): room for
                                                          the channels' counts */
        f->vc = NULL;
        rc = rs__flit_dist_paths(f, &paths->congestion, &paths->dilation);
        if (rc == RS_EIO)
            return rc;
        paths->filled = !rc;
    }
    if (pl && !f->ol) { /* the plan's outputs */
        if (pl->finish)
            memcpy(pl->finish, f->finish, f->pb->n_msgs * sizeof *f->finish);
        if (pl->fate)
            memcpy(pl->fate, f->fate, f->pb->n_msgs);
    }
    return flit_result(f, res, deadlock);
}
