/* Per-step invariant checker of the store-and-forward engine (tests and debug builds):
 * proves no packet is lost or duplicated and no queue exceeds its capacity; in open loop
 * also that the pool's free slots and each terminal's generated packet are consistent. */
#include <stdlib.h>

#include "engine/saf.h"
#include "routesim/alloc.h"

/* Walk one linked queue, marking its packets, and check that its sticky selection sel
 * (packet+1, 0 = none) is one of them; returns 0 or RS_EINVARIANT. */
static int check_list(const struct saf *s, const struct saf_queue *q, uint8_t *seen,
                      uint8_t want_where, const char *what, uint64_t id, uint32_t sel,
                      struct rs_err *err)
{
    int sel_found = sel == 0;
    uint32_t n = 0, last = RS_NONE;
    uint32_t m = q->count ? q->head : RS_NONE;
    while (m != RS_NONE) {
        if (m >= s->n_pkt)
            return rs_err_set(err, RS_EINVARIANT, "step %u: %s %llu links to packet %u",
                              s->step, what, (unsigned long long)id, m);
        if (seen[m])
            return rs_err_set(err, RS_EINVARIANT,
                              "step %u: packet %u is in two places (again in %s %llu)", s->step,
                              m, what, (unsigned long long)id);
        if (s->where[m] != want_where)
            return rs_err_set(err, RS_EINVARIANT, "step %u: packet %u in %s %llu marked %d",
                              s->step, m, what, (unsigned long long)id, s->where[m]);
        seen[m] = 1;
        sel_found |= m + 1 == sel;
        last = m;
        if (++n > q->count)
            break;
        m = s->pkt[m].next;
    }
    if (n != q->count || (n && q->tail != last))
        return rs_err_set(err, RS_EINVARIANT, "step %u: %s %llu holds %u packets, count says %u",
                          s->step, what, (unsigned long long)id, n, q->count);
    if (!sel_found)
        return rs_err_set(err, RS_EINVARIANT, "step %u: %s %llu selects packet %u, not in it",
                          s->step, what, (unsigned long long)id, sel - 1);
    return 0;
}

/* Open loop: every slot is free (then on the free stack exactly once, and in no list) or
 * holds a packet seen in one list; the packets in use are the ones in flight. */
static int check_pool(const struct saf *s, uint8_t *seen, uint64_t in_flight, struct rs_err *err)
{
    uint64_t used = 0, n_free = 0;
    for (uint64_t i = 0; i < s->n_free; i++) {
        uint32_t m = s->free_slot[i];
        if (m >= s->n_pkt || s->where[m] != SAF_FREE || seen[m])
            return rs_err_set(err, RS_EINVARIANT,
                              "step %u: free slot %u is in use or on the free stack twice",
                              s->step, m);
        seen[m] = 2;
    }
    for (uint64_t m = 0; m < s->n_pkt; m++) {
        if (s->where[m] == SAF_FREE) {
            n_free++;
            if (seen[m] != 2)
                return rs_err_set(err, RS_EINVARIANT, "step %u: slot %llu is lost", s->step,
                                  (unsigned long long)m);
            continue;
        }
        used++;
        if (!seen[m])
            return rs_err_set(err, RS_EINVARIANT, "step %u: packet %llu is lost", s->step,
                              (unsigned long long)m);
        if (s->rank && (s->rank[m] < 1 || s->rank[m] > s->ranks))
            return rs_err_set(err, RS_EINVARIANT, "step %u: packet %llu has rank %u outside 1..%u",
                              s->step, (unsigned long long)m, s->rank[m], s->ranks);
    }
    if (n_free != s->n_free || used != in_flight || in_flight != s->remaining)
        return rs_err_set(err, RS_EINVARIANT,
                          "step %u: %llu slots in use, %llu free (stack %llu), %llu in flight, "
                          "%llu counted",
                          s->step, (unsigned long long)used, (unsigned long long)n_free,
                          (unsigned long long)s->n_free, (unsigned long long)in_flight,
                          (unsigned long long)s->remaining);
    return 0;
}

int rs__saf_check(struct saf *s, struct rs_err *err)
{
    uint8_t *seen = rs_calloc(s->n_pkt + 1, 1);
    int rc = 0;
    uint64_t in_flight = 0;
    if (!seen)
        return rs_err_set(err, RS_ENOMEM, "out of memory in the invariant checker");
    for (uint64_t qi = 0; qi < s->n_queues && !rc; qi++) {
        const struct saf_queue *q = &s->q[qi];
        if (!q->count)
            continue;
        /* with queue_threshold=q (cap = q + 1) every channel into the queue may add one
         * packet to q: q + 1 for an input queue, q + max_ports for the others */
        uint32_t most = !s->thr ? s->cap
                        : s->cap - 1 + (s->at == SAF_AT_INPUT ? 1 : s->P);
        if (s->cap && q->count > most)
            rc = rs_err_set(err, RS_EINVARIANT, "step %u: queue %llu holds %u > capacity %u",
                            s->step, (unsigned long long)qi, q->count, most);
        else
            rc = check_list(s, q, seen, SAF_IN_QUEUE, "queue", qi, s->qsel ? s->qsel[qi] : 0,
                            err);
        uint32_t v = saf_queue_node(s, qi);
        if (!rc && !(s->active[v / 64] >> (v % 64) & 1) && !(s->waiter && rs__saf_waiting_ok(s, v)))
            rc = rs_err_set(err, RS_EINVARIANT,
                            "step %u: node %u holds packets that could move but is not scheduled",
                            s->step, v);
        in_flight += q->count;
    }
    for (uint32_t t = 0; t < s->n_src && !rc; t++) {
        rc = check_list(s, &s->src[t], seen, SAF_IN_SOURCE, "source", t,
                        s->srcsel ? s->srcsel[t] : 0, err);
        uint32_t v = s->src_node[t];
        if (!rc && s->src[t].count && !(s->active[v / 64] >> (v % 64) & 1) &&
            !(s->waiter && rs__saf_waiting_ok(s, v)))
            rc = rs_err_set(err, RS_EINVARIANT, "step %u: source node %u holds packets but is idle",
                            s->step, v);
        in_flight += s->src[t].count;
        if (!rc && s->own && s->own[t] != RS_NONE) { /* open loop: its packet, in its store */
            uint32_t m = s->src[t].count ? s->src[t].head : RS_NONE;
            while (m != RS_NONE && m != s->own[t])
                m = s->pkt[m].next;
            if (m == RS_NONE || s->osrc[m] != t)
                rc = rs_err_set(err, RS_EINVARIANT,
                                "step %u: the generated packet %u of terminal %u is not in its "
                                "store",
                                s->step, s->own[t], t);
        }
    }
    if (s->ol && !rc)
        rc = check_pool(s, seen, in_flight, err);
    if (s->ol) {
        rs_free(seen);
        return rc;
    }
    uint64_t delivered = 0, dropped = 0, unreleased = 0;
    for (uint64_t m = 0; m < s->pb->n_msgs && !rc; m++) {
        if (s->rank && (s->rank[m] < 1 || s->rank[m] > s->ranks))
            rc = rs_err_set(err, RS_EINVARIANT, "step %u: packet %llu has rank %u outside 1..%u",
                            s->step, (unsigned long long)m, s->rank[m], s->ranks);
        else if (s->where[m] == SAF_DELIVERED)
            delivered++;
        else if (s->where[m] == SAF_DROPPED)
            dropped++;
        else if (s->where[m] == SAF_UNRELEASED && !seen[m])
            unreleased++;
        else if (!seen[m])
            rc = rs_err_set(err, RS_EINVARIANT, "step %u: packet %llu is lost", s->step,
                            (unsigned long long)m);
    }
    if (!rc && (delivered != s->delivered || dropped != s->dropped ||
                unreleased != s->unreleased ||
                delivered + dropped + in_flight + unreleased != s->pb->n_msgs ||
                in_flight + unreleased != s->remaining))
        rc = rs_err_set(err, RS_EINVARIANT,
                        "step %u: delivered %llu + dropped %llu + in flight %llu + unreleased "
                        "%llu != %llu messages",
                        s->step, (unsigned long long)delivered, (unsigned long long)dropped,
                        (unsigned long long)in_flight, (unsigned long long)unreleased,
                        (unsigned long long)s->pb->n_msgs);
    rs_free(seen);
    return rc;
}
