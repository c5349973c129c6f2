/* Deadlock report of the flit engine: in a state where no flit can move, every worm in the
 * network waits for a channel held by another worm (or for the FIFO space another worm's
 * flits fill). Following "waits for" from the oldest worm must revisit a worm; the worms
 * from that one on form the waiting cycle, described as one line of channels. */
#include <stdio.h>
#include <stdlib.h>

#include "engine/flit.h"

/* The worm whose segment of FIFO x is at its front (cut_through_partial), or RS_NONE. */
static uint32_t fifo_front(const struct flit *f, uint32_t x)
{
    uint32_t out = f->fifo[x].out_seq;
    for (uint32_t i = 0; i < f->n_act; i++) {
        uint32_t m = f->act[i];
        const struct flit_worm *w = &f->w[m];
        uint32_t lo = f->vc[x].owner == m ? f->fifo[x].lock_seq : w->tlo;
        uint32_t y = w->head;
        for (uint32_t k = 0; k < w->span; k++) { /* is x in m's chain? */
            if (y == x)
                break;
            y = k + 1 < w->span ? f->vc[y].up : RS_NONE;
        }
        if (y == x && lo == out && rs__flit_count(f, m, x))
            return m;
    }
    return RS_NONE;
}

/* What worm m waits for: the channel (*chan, *vc) and the worm holding it (returned), or
 * RS_NONE when m is not blocked by another worm. */
static uint32_t waits_for(const struct flit *f, uint32_t m, uint32_t *chan, uint32_t *vc)
{
    const struct flit_worm *w = &f->w[m];
    if (w->next_chan == RS_NONE || w->head == RS_NONE)
        return RS_NONE;
    if (f->mode == FLIT_PARTIAL) {
        uint32_t h = w->head, a = fifo_front(f, h);
        if (a != RS_NONE && a != m) { /* behind another message's flits in its own FIFO */
            *chan = h / f->B;
            *vc = h % f->B;
            return a;
        }
    }
    *chan = w->next_chan;
    *vc = w->vc_lo;
    uint32_t x = flit_vc_id(f, w->next_chan, w->vc_lo);
    if (f->vc[x].owner != RS_NONE)
        return f->vc[x].owner;
    return f->mode == FLIT_PARTIAL ? fifo_front(f, x) : RS_NONE; /* free but full */
}

static void name_msg(const struct flit *f, uint32_t m, char *buf, size_t n)
{
    const struct flit_worm *w = &f->w[m];
    if (f->ol)
        snprintf(buf, n, "packet of terminal %u from step %u", w->src, w->gen);
    else
        snprintf(buf, n, "message %u", w->msg);
}

void rs__flit_describe_deadlock(struct flit *f, char *buf, size_t n)
{
    uint32_t *order = calloc(f->n_slots, sizeof *order);
    if (!order || f->n_act == 0) {
        snprintf(buf, n, "deadlock at step %u (no waiting cycle traced)", f->step);
        free(order);
        return;
    }
    uint32_t m = f->act[0], idx = 1, chan, vc;
    while (m != RS_NONE && !order[m]) {
        order[m] = idx++;
        m = waits_for(f, m, &chan, &vc);
    }
    if (m == RS_NONE) {
        snprintf(buf, n, "deadlock at step %u: no waiting cycle found from the oldest message",
                 f->step);
        free(order);
        return;
    }
    uint32_t first = m, len = idx - order[first];
    size_t used = (size_t)snprintf(buf, n, "deadlock at step %u: waiting cycle of %u channels: ",
                                   f->step, len);
    do {
        char a[64], b[64], who[64], holder[64];
        uint32_t next = waits_for(f, m, &chan, &vc);
        uint32_t node = chan / f->P, head = f->net->ops->neighbor(f->net, node, chan % f->P, NULL);
        f->net->ops->label(f->net, node, a, sizeof a);
        f->net->ops->label(f->net, head, b, sizeof b);
        name_msg(f, m, who, sizeof who);
        name_msg(f, next, holder, sizeof holder);
        if (used < n)
            used += (size_t)snprintf(buf + used, n - used, "%s waits for %s->%s vc %u held by %s; ",
                                     who, a, b, vc, holder);
        m = next;
    } while (m != first);
    if (used < n)
        snprintf(buf + used, n - used, "back to the first");
    free(order);
}
