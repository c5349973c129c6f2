/* The wave/token algorithm's simulator (004 §4; §6's greedy waves): queues as ring buffers,
 * one step = every switch decides from the state at the start of the step, levels visited
 * from the outputs back to the inputs (docs/wave.md states every rule). */
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/wave.h"

static inline uint32_t wave_of(const struct rs_wave *w, uint32_t it)
{
    return (it & RS_WAVE_TOKEN) ? (it & ~RS_WAVE_TOKEN) : 2 * (it % w->k);
}

static inline uint32_t qid_of(const struct rs_wave *w, uint32_t l, uint32_t row, uint32_t b)
{
    return 2 * ((l - 1) * w->N + row) + b;
}

static inline uint32_t front(const struct rs_wave *w, uint32_t qid)
{
    return w->item[(size_t)qid * w->q + w->head[qid]];
}

/* Room in the b-queue of <l1, row1> judged on its occupancy at the start of step t (the
 * outputs, level n, absorb everything). Levels are visited downwards, so a queue of level
 * l1 has already given up this step's item, if any: it is counted back. */
static inline int room(const struct rs_wave *w, uint32_t l1, uint32_t row1, uint32_t b,
                       uint32_t t)
{
    if (l1 == w->n)
        return 1;
    uint32_t id = qid_of(w, l1, row1, b);
    return (uint32_t)w->count[id] + (w->pop_step[id] == t) < w->q;
}

static inline void pop(struct rs_wave *w, uint32_t qid, uint32_t t)
{
    uint32_t h = w->head[qid] + 1u;
    w->head[qid] = (uint16_t)(h == w->q ? 0 : h);
    w->count[qid]--;
    w->pop_step[qid] = t;
}

/* Send item it from <l, row> over port p (straight 0, cross 1) at step t into the queue of
 * the next level that this edge feeds (its b-queue, b = bit l of row), or to the output. */
static inline void send(struct rs_wave *w, uint32_t l, uint32_t row, uint32_t p, uint32_t it,
                        uint32_t t)
{
    uint32_t row1 = row ^ (p << l), b = (row >> l) & 1;
    if (w->check)
        rs__wave_check_send(w, l, row, p, it);
    if (it & RS_WAVE_TOKEN)
        w->tokens_sent++;
    else
        w->hops++;
    if (l + 1 == w->n) {
        w->in_net--;
        if (!(it & RS_WAVE_TOKEN)) {
            w->finish[it] = t;
            w->delivered++;
            w->makespan = t;
        }
        return;
    }
    uint32_t id = qid_of(w, l + 1, row1, b), c = w->count[id];
    uint32_t slot = w->head[id] + c;
    if (slot >= w->q)
        slot -= w->q;
    w->item[(size_t)id * w->q + slot] = it;
    if (w->arr)
        w->arr[(size_t)id * w->q + slot] = t;
    w->count[id] = (uint16_t)(c + 1);
    if (c + 1 > w->max_q[b])
        w->max_q[b] = c + 1;
}

static inline uint32_t port_of(const struct rs_wave *w, uint32_t l, uint32_t row, uint32_t m)
{
    return ((row ^ w->dst[m]) >> l) & 1;
}

/* A packet at the head of queue qid of <l, row>: forward it if its next queue has room. */
static inline uint32_t forward(struct rs_wave *w, uint32_t l, uint32_t row, uint32_t qid,
                               uint32_t m, uint32_t t)
{
    uint32_t p = port_of(w, l, row, m);
    if (!room(w, l + 1, row ^ (p << l), (row >> l) & 1, t))
        return 0;
    pop(w, qid, t);
    send(w, l, row, p, m, t);
    return 1;
}

/* Both heads are tokens of one wave: send one token to each output when both have room. */
static inline uint32_t tokens(struct rs_wave *w, uint32_t l, uint32_t row, uint32_t q0,
                              uint32_t tok, uint32_t t)
{
    uint32_t b = (row >> l) & 1;
    if (!room(w, l + 1, row, b, t) || !room(w, l + 1, row ^ (1u << l), b, t))
        return 0;
    pop(w, q0, t);
    pop(w, q0 + 1, t);
    send(w, l, row, 0, tok, t);
    send(w, l, row, 1, tok, t);
    return 2;
}

/* 004 §4: "In 0-mode, a switch forwards packets in the 0-queue in FIFO fashion, until a
 * token is at the head of the 0-queue. It then changes to 1-mode. In 1-mode, a switch
 * forwards packets in the 1-queue in FIFO fashion, until a token is at the head of the
 * 1-queue as well. Now the switch waits until both the queues at its outgoing edges have
 * room to receive a token and then simultaneously sends one token to each of them. After
 * doing this, the switch changes back to 0-mode." A mode change takes no time. */
static uint32_t switch_modes(struct rs_wave *w, uint32_t l, uint32_t row, uint32_t t)
{
    uint32_t s = (l - 1) * w->N + row, q0 = 2 * s, it;
    if (w->mode[s] == 0) {
        if (!w->count[q0])
            return 0;
        it = front(w, q0);
        if (!(it & RS_WAVE_TOKEN))
            return forward(w, l, row, q0, it, t);
        w->mode[s] = 1;
    }
    if (!w->count[q0 + 1])
        return 0;
    it = front(w, q0 + 1);
    if (!(it & RS_WAVE_TOKEN))
        return forward(w, l, row, q0 + 1, it, t);
    if (w->check && front(w, q0) != it && !w->violated) {
        w->violated = rs_err_set(w->cerr, RS_EINVARIANT,
                                 "wave: switch <%u,%u> holds tokens of waves %u and %u at its "
                                 "heads",
                                 l, row, front(w, q0) & ~RS_WAVE_TOKEN, it & ~RS_WAVE_TOKEN);
    }
    uint32_t sent = tokens(w, l, row, q0, it, t);
    if (sent)
        w->mode[s] = 0;
    return sent;
}

/* 004 §6's variant: the tokens still separate the waves (a queue whose head is a token
 * waits for the token of the other queue, and the two leave together as in §4), but the
 * packets of a wave are routed greedily: every out-edge takes a head packet that wants it
 * and can move, the earlier arrival first (then the straight edge's queue), so a switch may
 * send two packets in a step, from either queue. Without tokens (RS_WAVE_FIFO) this is
 * greedy FIFO with input queues, store_forward's rules. */
static uint32_t switch_greedy(struct rs_wave *w, uint32_t l, uint32_t row, uint32_t t)
{
    uint32_t s = (l - 1) * w->N + row, q0 = 2 * s;
    uint32_t c0 = w->count[q0], c1 = w->count[q0 + 1];
    if (!c0 && !c1)
        return 0;
    uint32_t h0 = c0 ? front(w, q0) : 0, h1 = c1 ? front(w, q0 + 1) : 0;
    int p0 = c0 && !(h0 & RS_WAVE_TOKEN), p1 = c1 && !(h1 & RS_WAVE_TOKEN);
    if (c0 && c1 && !p0 && !p1) {
        if (w->check && h0 != h1 && !w->violated)
            w->violated = rs_err_set(w->cerr, RS_EINVARIANT,
                                     "wave: switch <%u,%u> holds tokens of waves %u and %u",
                                     l, row, h0 & ~RS_WAVE_TOKEN, h1 & ~RS_WAVE_TOKEN);
        return tokens(w, l, row, q0, h0, t);
    }
    if (p0 && p1 && port_of(w, l, row, h0) == port_of(w, l, row, h1)) {
        uint32_t a0 = w->arr[(size_t)q0 * w->q + w->head[q0]];
        uint32_t a1 = w->arr[(size_t)(q0 + 1) * w->q + w->head[q0 + 1]];
        /* the earlier arrival first, then the straight edge's queue (b = bit l-1 of row),
         * as store_forward's FIFO; forward() fails only on a full queue, the same for both */
        uint32_t first = a0 < a1 ? 0 : a1 < a0 ? 1 : (row >> (l - 1)) & 1;
        return first ? forward(w, l, row, q0 + 1, h1, t) : forward(w, l, row, q0, h0, t);
    }
    uint32_t sent = 0;
    if (p0)
        sent += forward(w, l, row, q0, h0, t);
    if (p1)
        sent += forward(w, l, row, q0 + 1, h1, t);
    return sent;
}

/* An input switch holds P_0, T_1, P_2, ..., P_{2k-2}, T_{2k-1} (004 §4: "a token is placed
 * between each pair of successive packets and after the last packet") and sends them in
 * that order: a packet when its next queue has room, a token to both outputs at once. */
static uint32_t switch_input(struct rs_wave *w, uint32_t row, uint32_t t)
{
    uint32_t pos = w->pos[row];
    if (pos == 2 * w->k)
        return 0;
    if (!(pos & 1)) {
        uint32_t m = row * w->k + pos / 2, p = port_of(w, 0, row, m);
        if (!room(w, 1, row ^ p, row & 1, t))
            return 0;
        send(w, 0, row, p, m, t);
        w->pos[row] = pos + (w->proto == RS_WAVE_FIFO ? 2 : 1); /* FIFO: no tokens */
        return 1;
    }
    if (!room(w, 1, row, row & 1, t) || !room(w, 1, row ^ 1u, row & 1, t))
        return 0;
    send(w, 0, row, 0, RS_WAVE_TOKEN | pos, t);
    send(w, 0, row, 1, RS_WAVE_TOKEN | pos, t);
    w->in_net++; /* one token of the sequence became two */
    w->pos[row] = pos + 1;
    return 2;
}

uint64_t rs_wave_step(struct rs_wave *w, struct rs_err *err)
{
    uint32_t t = ++w->step, N = w->N;
    uint64_t moved = 0;
    w->cerr = err;
    for (uint32_t l = w->n - 1; l >= 1; l--) {
        if (w->proto != RS_WAVE_MODES)
            for (uint32_t row = 0; row < N; row++)
                moved += switch_greedy(w, l, row, t);
        else
            for (uint32_t row = 0; row < N; row++)
                moved += switch_modes(w, l, row, t);
    }
    for (uint32_t row = 0; row < N; row++)
        moved += switch_input(w, row, t);
    return moved;
}

int rs_wave_done(const struct rs_wave *w)
{
    return w->in_net == 0;
}

uint32_t rs_wave_queue(const struct rs_wave *w, uint32_t l, uint32_t row, uint32_t b,
                       uint32_t *out)
{
    RS_ASSERT(l >= 1 && l < w->n && row < w->N && b < 2);
    uint32_t id = qid_of(w, l, row, b), c = w->count[id];
    for (uint32_t i = 0; i < c; i++)
        out[i] = w->item[(size_t)id * w->q + (w->head[id] + i) % w->q];
    return c;
}

int rs_wave_init(struct rs_wave *w, uint32_t n, uint32_t k, uint32_t q,
                 enum rs_wave_protocol proto, const uint32_t *dst, int check)
{
    RS_ASSERT(n >= 1 && n < 31 && k >= 1 && q >= 1 && q <= 65535 && dst != NULL);
    memset(w, 0, sizeof *w);
    w->N = 1u << n;
    w->n = n;
    w->k = k;
    w->q = q;
    w->proto = proto;
    w->dst = dst;
    w->check = check;
    w->nq = 2 * (uint64_t)(n - 1) * w->N;
    RS_ASSERT(w->nq < UINT32_MAX && (uint64_t)w->N * k < RS_WAVE_TOKEN);
    size_t nq = (size_t)w->nq, sw = (size_t)n * w->N;
    w->item = rs_malloc(nq * q * sizeof *w->item + 1);
    w->head = rs_calloc(nq + 1, sizeof *w->head);
    w->count = rs_calloc(nq + 1, sizeof *w->count);
    w->pop_step = rs_calloc(nq + 1, sizeof *w->pop_step);
    w->mode = rs_calloc(nq / 2 + 1, 1);
    w->pos = rs_calloc(w->N, sizeof *w->pos);
    w->finish = rs_calloc((size_t)w->N * k, sizeof *w->finish);
    int bad = !w->item || !w->head || !w->count || !w->pop_step || !w->mode || !w->pos ||
              !w->finish;
    if (proto != RS_WAVE_MODES)
        bad |= !(w->arr = rs_malloc(nq * q * sizeof *w->arr + 1));
    if (check) {
        w->edge_wave = rs_calloc(2 * sw, sizeof *w->edge_wave);
        w->edge_token = rs_calloc(2 * sw, sizeof *w->edge_token);
        w->edge_rank = rs_calloc(2 * sw, sizeof *w->edge_rank);
        w->sw_rank = rs_calloc(sw, sizeof *w->sw_rank);
        w->sw_wave = rs_calloc(sw, sizeof *w->sw_wave);
        bad |= !w->edge_wave || !w->edge_token || !w->edge_rank || !w->sw_rank || !w->sw_wave;
    }
    if (bad) {
        rs_wave_free(w);
        return RS_ENOMEM;
    }
    w->in_net = (uint64_t)w->N * (proto == RS_WAVE_FIFO ? 1 : 2) * k;
    return 0;
}

void rs_wave_free(struct rs_wave *w)
{
    rs_free(w->item);
    rs_free(w->arr);
    rs_free(w->head);
    rs_free(w->count);
    rs_free(w->pop_step);
    rs_free(w->mode);
    rs_free(w->pos);
    rs_free(w->finish);
    rs_free(w->edge_wave);
    rs_free(w->edge_token);
    rs_free(w->edge_rank);
    rs_free(w->sw_rank);
    rs_free(w->sw_wave);
    memset(w, 0, sizeof *w);
}
