/* Deadlock report of the store-and-forward engine: when no packet can move, follow each
 * full queue to the queue its offered packet waits for until a queue repeats, and describe
 * that waiting cycle. */
#include <stdio.h>
#include <stdlib.h>

#include "engine/saf.h"
#include "routesim/alloc.h"

/* The queue that the packet offered by queue qi waits for (its next queue), or RS_NONE.
 * In a deadlock every offer is blocked on a full queue, so following offers from queue to
 * queue never ends and must revisit a queue: that is the waiting cycle. */
static uint32_t waits_for(struct saf *s, uint64_t qi)
{
    uint32_t m = rs__saf_offer(s, qi);
    return m == RS_NONE ? RS_NONE : s->pkt[m].tq;
}

static void describe_queue(const struct saf *s, uint64_t qi, char *buf, size_t n)
{
    char label[64];
    uint32_t v = saf_queue_node(s, qi);
    s->net->ops->label(s->net, v, label, sizeof label);
    if (s->at == SAF_AT_SWITCH)
        snprintf(buf, n, "switch queue of %s", label);
    else if (s->at == SAF_AT_INPUT)
        snprintf(buf, n, "input queue %u of %s", (unsigned)(qi % s->P), label);
    else
        snprintf(buf, n, "output queue %u of %s", (unsigned)(qi % s->P), label);
}

/* The first queue holding packets, or RS_NONE. */
static uint64_t first_busy(const struct saf *s)
{
    for (uint64_t qi = 0; qi < s->n_queues; qi++)
        if (s->q[qi].count)
            return qi;
    return RS_NONE;
}

/* Follow offers from queue start until a queue repeats: *first is a queue on the waiting
 * cycle and the return its length; 0 when the walk ends outside the network (*first
 * RS_NONE), RS_NONE when out of memory. At most n_queues steps reach a cycle (visit marks). */
static uint32_t trace_cycle(struct saf *s, uint64_t start, uint64_t *first)
{
    uint32_t *order = rs_calloc(s->n_queues, sizeof *order);
    *first = RS_NONE;
    if (!order)
        return RS_NONE;
    uint64_t qi = start;
    uint32_t idx = 1;
    while (qi != RS_NONE && qi < s->n_queues && !order[qi]) {
        order[qi] = idx++;
        uint32_t nx = waits_for(s, qi);
        qi = (nx == SAF_DELIVER) ? RS_NONE : nx;
    }
    uint32_t len = 0;
    if (qi != RS_NONE && qi < s->n_queues) {
        *first = qi;
        len = idx - order[qi];
    }
    rs_free(order);
    return len;
}

void rs__saf_describe_deadlock(struct saf *s, char *buf, size_t n)
{
    size_t len = 0;
    uint64_t start = first_busy(s), first;
    if (start == RS_NONE) {
        snprintf(buf, n, "deadlock at step %u: only sources hold packets, and they cannot inject",
                 s->step);
        return;
    }
    uint32_t cycle_len = trace_cycle(s, start, &first);
    if (cycle_len == RS_NONE) {
        snprintf(buf, n, "deadlock at step %u (no memory to trace the waiting cycle)", s->step);
        return;
    }
    if (first == RS_NONE) {
        snprintf(buf, n, "deadlock at step %u: no waiting cycle found from queue %llu", s->step,
                 (unsigned long long)start);
        return;
    }
    uint64_t qi = first;
    len += (size_t)snprintf(buf + len, n - len, "deadlock at step %u: waiting cycle of %u full queues: ",
                            s->step, cycle_len);
    do {
        char d[128];
        describe_queue(s, qi, d, sizeof d);
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s (%u/%u) -> ", d, s->q[qi].count,
                                    s->cap);
        qi = waits_for(s, qi);
    } while (qi != first);
    if (len < n)
        snprintf(buf + len, n - len, "back to the first");
}

int rs__saf_life_cycle(void *st, struct rs_deadlock *out)
{
    struct saf *s = st;
    uint64_t start = first_busy(s), first;
    if (start == RS_NONE)
        return 0;
    uint32_t len = trace_cycle(s, start, &first);
    if (len == RS_NONE)
        return RS_ENOMEM;
    if (first == RS_NONE)
        return 0;
    uint64_t qi = first;
    do { /* the channel the queue's offered packet crosses into the next full queue */
        uint32_t m = rs__saf_offer(s, qi);
        uint32_t port = s->at == SAF_AT_OUTPUT ? (uint32_t)(qi % s->P) : s->pkt[m].port;
        uint32_t msg = s->ol ? RS_NONE : saf_msg_of(s, m); /* over ranks: slot m's */
        if (rs_deadlock_add(out, saf_queue_node(s, qi), port, RS_NONE, msg))
            return RS_ENOMEM;
        qi = waits_for(s, qi);
    } while (qi != first);
    return 0;
}
