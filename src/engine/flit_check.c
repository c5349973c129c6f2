/* Per-step invariant checker of the flit engine (check=1, and Debug builds on small runs):
 * every worm's flits conserved, in order and contiguous along its route, every buffer
 * within capacity and held by one message (FIFOs: segments in arrival order), the snake
 * shapes of 003 §1, and delivered + dropped + in flight = messages. */
#include <stdlib.h>

#include "engine/flit.h"
#include "routesim/alloc.h"

/* Tail node of the channel of VC x, and its head node (RS_NONE if the channel is absent). */
static uint32_t vc_tail(const struct flit *f, uint32_t x)
{
    return (uint32_t)((x / f->B) / f->P);
}

static uint32_t vc_head(const struct flit *f, uint32_t x)
{
    uint32_t c = x / f->B;
    return f->net->ops->neighbor(f->net, c / f->P, c % f->P, NULL);
}

/* Check one worm (slot m) and add its buffered flits to seg[] (per VC); mark owned VCs. */
static int check_worm(const struct flit *f, uint32_t m, uint32_t *seg, uint8_t *held,
                      struct rs_err *err)
{
    const struct flit_worm *w = &f->w[m];
    uint32_t t = f->step, x = w->head, prev = RS_NONE, sum = 0, positions = 0;
    if (x == RS_NONE) {
        if (w->span || w->src_left != w->len || w->done)
            return rs_err_set(err, RS_EINVARIANT,
                              "step %u: message %u at its source has %u VCs, %u of %u flits "
                              "left, %u delivered",
                              t, w->msg, w->span, w->src_left, w->len, w->done);
        return 0;
    }
    if (w->span == 0)
        return rs_err_set(err, RS_EINVARIANT, "step %u: message %u in the network holds no VC", t,
                          w->msg);
    int delivering = w->next_chan == RS_NONE;
    if (!delivering && w->next_chan / f->P != vc_head(f, x))
        return rs_err_set(err, RS_EINVARIANT,
                          "step %u: message %u's next channel does not leave the node its "
                          "header is at",
                          t, w->msg);
    for (uint32_t k = 0; k < w->span; k++) {
        if (x >= f->n_vc)
            return rs_err_set(err, RS_EINVARIANT, "step %u: message %u's chain leaves the VCs",
                              t, w->msg);
        const struct flit_vc *v = &f->vc[x];
        int last = k + 1 == w->span;
        if (v->owner != m && !(f->mode == FLIT_PARTIAL && last))
            return rs_err_set(err, RS_EINVARIANT,
                              "step %u: VC %u in message %u's chain is held by slot %d", t, x,
                              w->msg, v->owner == RS_NONE ? -1 : (int)v->owner);
        if (v->owner == m) {
            if (held[x])
                return rs_err_set(err, RS_EINVARIANT, "step %u: VC %u is in two chains", t, x);
            held[x] = 1;
        }
        uint32_t c = rs__flit_count(f, m, x);
        if (c > f->depth)
            return rs_err_set(err, RS_EINVARIANT, "step %u: message %u has %u flits in VC %u",
                              t, w->msg, c, x);
        if (k == 0 && delivering && c)
            return rs_err_set(err, RS_EINVARIANT,
                              "step %u: message %u holds flits in its delivery channel", t,
                              w->msg);
        /* flits contiguous: with a link per VC a worm never leaves an empty buffer behind
         * its header (003: the snake is never broken); a shared link may stretch it */
        if (!c && !(k == 0 && delivering) && f->link == FLIT_PER_VC)
            return rs_err_set(err, RS_EINVARIANT,
                              "step %u: message %u is broken: empty VC %u inside its chain", t,
                              w->msg, x);
        if (c > 1 && f->collapse && f->link == FLIT_PER_VC && k > 0 && !last)
            return rs_err_set(err, RS_EINVARIANT,
                              "step %u: message %u collides in the middle of its snake (VC %u)",
                              t, w->msg, x);
        seg[x] += c;
        sum += c;
        positions += c > 0;
        if (prev != RS_NONE && vc_tail(f, prev) != vc_head(f, x))
            return rs_err_set(err, RS_EINVARIANT,
                              "step %u: message %u's VCs %u and %u are not consecutive channels",
                              t, w->msg, x, prev);
        prev = x;
        if (!last)
            x = v->up;
    }
    if (w->src_left && f->vc[prev].up != RS_NONE && f->vc[prev].owner == m)
        return rs_err_set(err, RS_EINVARIANT,
                          "step %u: message %u has flits at its source but its chain does not "
                          "start there",
                          t, w->msg);
    if (sum + w->src_left + w->done != w->len)
        return rs_err_set(err, RS_EINVARIANT,
                          "step %u: message %u: %u buffered + %u at source + %u delivered != %u "
                          "flits",
                          t, w->msg, sum, w->src_left, w->done, w->len);
    positions += (w->src_left > 0) + (w->done > 0);
    if (f->mode == FLIT_SAF && f->link == FLIT_PER_VC && positions > 2)
        return rs_err_set(err, RS_EINVARIANT,
                          "step %u: store-and-forward message %u is spread over %u places", t,
                          w->msg, positions);
    return 0;
}

int rs__flit_check(struct flit *f, struct rs_err *err)
{
    uint32_t *seg = rs_calloc(f->n_vc + 1, sizeof *seg);
    uint8_t *held = rs_calloc(f->n_vc + 1, 1);
    int rc = 0;
    uint32_t t = f->step, fronts = 0;
    uint64_t buffered = 0;
    if (!seg || !held) {
        rs_free(seg);
        rs_free(held);
        return rs_err_set(err, RS_ENOMEM, "out of memory in the invariant checker");
    }
    uint32_t prev = RS_NONE, holes = 0;
    for (uint32_t i = 0; i < f->n_act && !rc; i++) {
        if (f->act[i] == RS_NONE) { /* a finished worm's entry */
            holes++;
            continue;
        }
        if (prev != RS_NONE && !flit_younger(&f->w[f->act[i]], &f->w[prev]))
            rc = rs_err_set(err, RS_EINVARIANT, "step %u: worms not in age order", t);
        else if (f->w[f->act[i]].head == RS_NONE)
            rc = rs_err_set(err, RS_EINVARIANT, "step %u: an active worm has not started", t);
        else
            rc = check_worm(f, f->act[i], seg, held, err);
        prev = f->act[i];
    }
    if (!rc && holes != f->n_holes)
        rc = rs_err_set(err, RS_EINVARIANT, "step %u: %u finished entries in the active list, %u "
                        "counted", t, holes, f->n_holes);
    for (uint32_t s = 0; s < f->n_src && !rc; s++)
        if (f->front[s] != RS_NONE) {
            fronts++;
            rc = check_worm(f, f->front[s], seg, held, err);
        }
    for (uint64_t x = 0; x < f->n_vc && !rc; x++) {
        const struct flit_vc *v = &f->vc[x];
        buffered += v->cnt;
        if (v->cnt > f->depth)
            rc = rs_err_set(err, RS_EINVARIANT, "step %u: VC %llu holds %u > %u flits", t,
                            (unsigned long long)x, v->cnt, f->depth);
        else if (v->cnt != seg[x])
            rc = rs_err_set(err, RS_EINVARIANT,
                            "step %u: VC %llu holds %u flits, its messages account for %u", t,
                            (unsigned long long)x, v->cnt, seg[x]);
        else if (v->owner != RS_NONE && !held[x])
            rc = rs_err_set(err, RS_EINVARIANT, "step %u: VC %llu is held by a finished message",
                            t, (unsigned long long)x);
        else if (f->mode == FLIT_PARTIAL && f->fifo[x].in_seq - f->fifo[x].out_seq != v->cnt)
            rc = rs_err_set(err, RS_EINVARIANT, "step %u: FIFO %llu counts disagree", t,
                            (unsigned long long)x);
    }
    if (!rc && buffered != f->in_net)
        rc = rs_err_set(err, RS_EINVARIANT, "step %u: %llu flits buffered, %llu counted", t,
                        (unsigned long long)buffered, (unsigned long long)f->in_net);
    if (!rc && f->n_free + flit_live(f) + fronts != f->n_slots)
        rc = rs_err_set(err, RS_EINVARIANT, "step %u: message slots lost (%u free + %u + %u of %u)",
                        t, f->n_free, flit_live(f), fronts, f->n_slots);
    if (!rc && !f->ol) {
        uint64_t delivered = 0, dropped = 0, waiting = 0;
        for (uint64_t m = 0; m < f->pb->n_msgs; m++) {
            delivered += f->fate[m] == RS_FATE_DELIVERED;
            dropped += f->fate[m] == RS_FATE_DROPPED;
        }
        for (uint32_t s = 0; s < f->n_src; s++)
            waiting += f->src_first[s + 1] - f->src_pos[s];
        if (delivered != f->delivered || dropped != f->dropped ||
            delivered + dropped + flit_live(f) + fronts + waiting != f->pb->n_msgs ||
            f->remaining != f->pb->n_msgs - delivered - dropped)
            rc = rs_err_set(err, RS_EINVARIANT,
                            "step %u: delivered %llu + dropped %llu + in flight %llu != %llu "
                            "messages",
                            t, (unsigned long long)delivered, (unsigned long long)dropped,
                            (unsigned long long)(flit_live(f) + fronts + waiting),
                            (unsigned long long)f->pb->n_msgs);
    }
    rs_free(seg);
    rs_free(held);
    return rc;
}
