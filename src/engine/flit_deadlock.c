/* Deadlocks of the flit engine: in a deadlocked state every worm of the stuck part waits
 * for a channel held by another stuck worm (or for FIFO space another stuck worm's flits
 * fill). Following "waits for" from a stuck worm must revisit a worm; the worms from that
 * one on form the waiting cycle, described as one line. Also the search for a deadlocked
 * set of worms while the rest of the network still moves (open-loop runs). */
#include <stdio.h>
#include <stdlib.h>

#include "engine/flit.h"
#include "engine/iq.h"
#include "routesim/alloc.h"

/* Fill front[0..n_vc): the worm whose flits are at the front of FIFO x
 * (cut_through_partial), for every VC holding flits; RS_NONE elsewhere. */
static void fifo_fronts(const struct flit *f, uint32_t *front)
{
    for (uint64_t x = 0; x < f->n_vc; x++)
        front[x] = RS_NONE;
    for (uint32_t i = 0; i < f->n_act; i++) {
        uint32_t m = f->act[i], x = f->w[m].head;
        for (uint32_t k = 0; k < f->w[m].span; k++) {
            uint32_t lo = f->vc[x].owner == m ? f->fifo[x].lock_seq : f->w[m].tlo;
            if (lo == f->fifo[x].out_seq && rs__flit_count(f, m, x))
                front[x] = m;
            if (k + 1 < f->w[m].span)
                x = f->vc[x].up;
        }
    }
}

/* The worm m waits for and the channel (*chan, *vc) it waits on, or RS_NONE when m does
 * not wait for another worm: behind another message in its own FIFO (partial), else the
 * holder of the lowest VC of its class on its next channel, or (partial) the worm at the
 * front of that VC when it is free but full. */
static uint32_t waits_for(const struct flit *f, const uint32_t *front, uint32_t m,
                          uint32_t *chan, uint32_t *vc)
{
    const struct flit_worm *w = &f->w[m];
    if (w->next_chan == RS_NONE || w->head == RS_NONE)
        return RS_NONE;
    if (front && front[w->head] != RS_NONE && front[w->head] != m) {
        *chan = w->head / f->B;
        *vc = w->head % f->B;
        return front[w->head];
    }
    *chan = w->next_chan;
    *vc = w->vc_lo;
    uint32_t x = flit_vc_id(f, w->next_chan, w->vc_lo);
    if (f->vc[x].owner != RS_NONE)
        return f->vc[x].owner;
    return front ? front[x] : RS_NONE;
}

/* 1 when everything m waits for is held by worms marked in set: every VC of every choice
 * its header has (one channel for an oblivious routing, all of them for an adaptive one). */
static int waits_only_on(const struct flit *f, const uint32_t *front, uint32_t m,
                         const uint8_t *set)
{
    const struct flit_worm *w = &f->w[m];
    struct rs_route_choice ch[RS_ROUTE_MAX_CHOICES];
    if (w->next_chan == RS_NONE || w->head == RS_NONE)
        return 0;
    if (front && front[w->head] != RS_NONE && front[w->head] != m)
        return set[front[w->head]];
    uint32_t n = rs__flit_choices(f, m, ch), node = w->next_chan / f->P;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t v = ch[i].vc_lo; v < ch[i].vc_hi; v++) {
            uint64_t c = (uint64_t)node * f->P + ch[i].port;
            uint32_t x = flit_vc_id(f, c, v), o = f->vc[x].owner;
            if (o == RS_NONE) {
                if (!front || flit_cnt_start(f, x) < f->depth)
                    return 0; /* free (or freed this step): it may move */
                o = front[x];
                if (o == RS_NONE)
                    return 0;
            }
            if (!set[o])
                return 0;
        }
    return 1;
}

uint32_t rs__flit_stuck_set(struct flit *f)
{
    uint8_t *set = f->stuck; /* allocated at set-up: no allocation in the step loop */
    uint32_t *front = f->mode == FLIT_PARTIAL ? f->stuck_front : NULL;
    uint32_t found = RS_NONE, n = 0;
    rs__flit_compact(f);
    if (front)
        fifo_fronts(f, front);
    for (uint32_t i = 0; i < f->n_act; i++) {
        const struct flit_worm *w = &f->w[f->act[i]];
        set[f->act[i]] = w->t_block == f->step && w->t_move != f->step;
        n += set[f->act[i]];
    }
    /* the largest set closed under "waits for": drop members that wait for an outsider */
    for (int changed = n > 0; changed;) {
        changed = 0;
        for (uint32_t i = 0; i < f->n_act; i++) {
            uint32_t m = f->act[i];
            if (set[m] && !waits_only_on(f, front, m, set)) {
                set[m] = 0;
                changed = 1;
            }
        }
    }
    for (uint32_t i = 0; i < f->n_act && found == RS_NONE; i++)
        if (set[f->act[i]])
            found = f->act[i];
    return found;
}

static void name_msg(const struct flit *f, uint32_t m, char *buf, size_t n)
{
    const struct flit_worm *w = &f->w[m];
    if (m == RS_NONE)
        snprintf(buf, n, "nobody");
    else if (f->ol)
        snprintf(buf, n, "packet of terminal %u from step %u", w->src, w->gen);
    else
        snprintf(buf, n, "message %u", w->msg);
}

/* Follow "waits for" from worm m until a worm repeats: *first is a worm of the waiting
 * cycle and the return its length; 0 when the walk ends at a worm that waits for nobody,
 * RS_NONE when out of memory. front: the FIFO fronts (partial), or NULL. */
static uint32_t trace_cycle(const struct flit *f, const uint32_t *front, uint32_t m,
                            uint32_t *first)
{
    uint32_t *order = rs_calloc(f->n_slots, sizeof *order);
    uint32_t idx = 1, chan, vc, len = 0;
    *first = RS_NONE;
    if (!order)
        return RS_NONE;
    while (m != RS_NONE && !order[m]) {
        order[m] = idx++;
        m = waits_for(f, front, m, &chan, &vc);
    }
    if (m != RS_NONE) {
        *first = m;
        len = idx - order[m];
    }
    rs_free(order);
    return len;
}

/* The FIFO fronts of the partial model (allocated; *front NULL otherwise) and the worm a
 * trace starts from. Returns 0, or RS_ENOMEM. */
static int trace_start(struct flit *f, uint32_t start, uint32_t **front, uint32_t *m)
{
    rs__flit_compact(f);
    *front = NULL;
    if (f->mode == FLIT_PARTIAL) {
        if (!(*front = rs_malloc(f->n_vc * sizeof **front + 1)))
            return RS_ENOMEM;
        fifo_fronts(f, *front);
    }
    *m = start != RS_NONE ? start : (f->n_act ? f->act[0] : RS_NONE);
    return 0;
}

void rs__flit_describe_deadlock(struct flit *f, uint32_t start, char *buf, size_t n)
{
    uint32_t *front, m, first = RS_NONE, len = RS_NONE, chan, vc;
    if (!trace_start(f, start, &front, &m) && m != RS_NONE)
        len = trace_cycle(f, front, m, &first);
    if (len == RS_NONE) {
        snprintf(buf, n, "deadlock at step %u (no waiting cycle traced)", f->step);
        rs_free(front);
        return;
    }
    if (first == RS_NONE) {
        snprintf(buf, n, "deadlock at step %u: no waiting cycle found", f->step);
        rs_free(front);
        return;
    }
    m = first;
    size_t used = (size_t)snprintf(buf, n, "deadlock at step %u: waiting cycle of %u channels: ",
                                   f->step, len);
    do {
        char a[64], b[64], who[80], holder[80];
        uint32_t next = waits_for(f, front, m, &chan, &vc);
        uint32_t node = chan / f->P, head = f->net->ops->neighbor(f->net, node, chan % f->P, NULL);
        f->net->ops->label(f->net, node, a, sizeof a);
        f->net->ops->label(f->net, head, b, sizeof b);
        name_msg(f, m, who, sizeof who);
        name_msg(f, next, holder, sizeof holder);
        if (used < n)
            used += (size_t)snprintf(buf + used, n - used, "%s waits for %s->%s vc %u held by %s; ",
                                     who, a, b, vc, holder);
        m = next;
    } while (m != first && m != RS_NONE);
    if (used < n)
        snprintf(buf + used, n - used, "back to the first");
    rs_free(front);
}

int rs__flit_life_cycle(void *st, struct rs_deadlock *out)
{
    struct flit *f = st;
    if (f->iq)
        return rs__iq_deadlock_cycle(f, out);
    if (f->dist && rs__flit_dist_gather(f)) /* every rank's worms, on every rank */
        return RS_ENOMEM;
    uint32_t *front, m, first = RS_NONE, len = 0, chan, vc;
    int rc = trace_start(f, f->stuck_start, &front, &m);
    if (!rc && m != RS_NONE && (len = trace_cycle(f, front, m, &first)) == RS_NONE)
        rc = RS_ENOMEM;
    m = first;
    for (uint32_t i = 0; !rc && m != RS_NONE && i < len; i++) {
        uint32_t next = waits_for(f, front, m, &chan, &vc);
        rc = rs_deadlock_add(out, (uint32_t)(chan / f->P), (uint32_t)(chan % f->P), vc,
                             f->ol ? RS_NONE : f->w[m].msg);
        m = next;
    }
    rs_free(front);
    return rc;
}
