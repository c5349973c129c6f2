/* The invariants of the wave/token algorithm (004 §4.1, proof of Lemma 4.1), checked on
 * every item a switch sends when the run checks (check=1, the tests), and the description
 * of a run that stopped making progress; rs__wave_check_state, the lifecycle's check between
 * steps (docs/wave.md). */
#include <stdio.h>

#include "routesim/wave.h"

/* Rank (004 §4.1) + 1: (wave, origin row) for a packet; a token of wave w ranks above every
 * packet of wave w-1 and below every packet of wave w+1. */
static uint64_t rank1(const struct rs_wave *w, uint32_t it, uint32_t *wave)
{
    if (it & RS_WAVE_TOKEN) {
        *wave = it & ~RS_WAVE_TOKEN;
        return ((uint64_t)*wave << 32) + 1;
    }
    *wave = 2 * (it % w->k);
    return ((uint64_t)*wave << 32 | (it / w->k)) + 1;
}

static void violate(struct rs_wave *w, uint32_t l, uint32_t row, uint32_t p, const char *what,
                    uint32_t it)
{
    if (w->violated)
        return;
    w->violated = rs_err_set(w->cerr, RS_EINVARIANT,
                             "wave: step %u, switch <%u,%u> port %u sent %s %u: %s", w->step, l,
                             row, p, (it & RS_WAVE_TOKEN) ? "token of wave" : "packet",
                             it & ~RS_WAVE_TOKEN, what);
}

void rs__wave_check_send(struct rs_wave *w, uint32_t l, uint32_t row, uint32_t p, uint32_t it)
{
    uint32_t wave, s = l * w->N + row, e = 2 * s + p;
    uint64_t r = rank1(w, it, &wave);
    if (w->proto == RS_WAVE_FIFO) /* no waves: packets overtake each other */
        return;
    if (wave + 1 < w->sw_wave[s])
        violate(w, l, row, p, "wave numbers out of the switch decreased", it);
    if (wave + 1 < w->edge_wave[e])
        violate(w, l, row, p, "wave numbers over the edge decreased", it);
    w->sw_wave[s] = w->edge_wave[e] = wave + 1;
    if (it & RS_WAVE_TOKEN) {
        /* one token of each odd wave per edge, in order: this is its (wave+1)/2-th */
        if (!(wave & 1) || wave != 2 * w->edge_token[e] + 1)
            violate(w, l, row, p, "not the edge's next odd-wave token", it);
        w->edge_token[e]++;
    } else if (w->edge_token[e] != wave / 2) {
        violate(w, l, row, p, "the edge has not carried exactly one token of each earlier odd "
                              "wave",
                it);
    }
    if (w->proto == RS_WAVE_MODES) {
        /* strictly increasing rank out of the switch (the two tokens of one wave leave
         * together and rank equal) and over each edge */
        int tok = (it & RS_WAVE_TOKEN) != 0;
        if (tok ? r < w->sw_rank[s] : r <= w->sw_rank[s])
            violate(w, l, row, p, "rank did not increase out of the switch", it);
        if (r <= w->edge_rank[e])
            violate(w, l, row, p, "rank did not increase over the edge", it);
        w->sw_rank[s] = w->edge_rank[e] = r;
    }
}

int rs_wave_check_end(const struct rs_wave *w, struct rs_err *err)
{
    uint64_t edges = 2 * (uint64_t)w->n * w->N;
    if (!w->check || w->proto == RS_WAVE_FIFO)
        return 0;
    for (uint64_t e = 0; e < edges; e++)
        if (w->edge_token[e] != w->k)
            return rs_err_set(err, RS_EINVARIANT,
                              "wave: the edge from <%u,%u> port %u carried %u tokens, not %u",
                              (uint32_t)(e / 2 / w->N), (uint32_t)(e / 2 % w->N),
                              (uint32_t)(e & 1), w->edge_token[e], w->k);
    return 0;
}

int rs__wave_check_state(const struct rs_wave *w, struct rs_err *err)
{
    uint64_t held = 0;
    if (w->violated)
        return rs_err_set(err, RS_EINVARIANT, "wave: a check failed at step %u", w->step);
    for (uint64_t id = 0; id < w->nq; id++) {
        if (w->count[id] > w->q)
            return rs_err_set(err, RS_EINVARIANT,
                              "wave: step %u: queue %llu holds %u items, more than q = %u",
                              w->step, (unsigned long long)id, w->count[id], w->q);
        held += w->count[id];
    }
    if (held > w->in_net)
        return rs_err_set(err, RS_EINVARIANT,
                          "wave: step %u: the queues hold %llu items, more than the %llu in "
                          "the network",
                          w->step, (unsigned long long)held, (unsigned long long)w->in_net);
    return 0;
}

static size_t put_items(const struct rs_wave *w, uint32_t l, uint32_t row, uint32_t b, char *buf,
                        size_t len)
{
    uint32_t items[64], c = w->q <= 64 ? rs_wave_queue(w, l, row, b, items) : 0;
    size_t used = 0;
    for (uint32_t i = 0; i < c && used < len; i++) {
        int n = (items[i] & RS_WAVE_TOKEN)
                    ? snprintf(buf + used, len - used, "%sT%u", i ? " " : "",
                               items[i] & ~RS_WAVE_TOKEN)
                    : snprintf(buf + used, len - used, "%sp%u", i ? " " : "", items[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return used;
}

void rs_wave_describe_stuck(const struct rs_wave *w, char *buf, size_t len)
{
    char q0[256] = "", q1[256] = "";
    for (uint32_t l = 1; l < w->n; l++)
        for (uint32_t row = 0; row < w->N; row++) {
            uint32_t id = 2 * ((l - 1) * w->N + row);
            if (!w->count[id] && !w->count[id + 1])
                continue;
            put_items(w, l, row, 0, q0, sizeof q0);
            put_items(w, l, row, 1, q1, sizeof q1);
            snprintf(buf, len,
                     "step %u, %llu items left; switch <%u,%u> in %u-mode, 0-queue [%s], "
                     "1-queue [%s]",
                     w->step, (unsigned long long)w->in_net, l, row, w->mode[id / 2], q0, q1);
            return;
        }
    for (uint32_t row = 0; row < w->N; row++)
        if (w->pos[row] < 2 * w->k) {
            snprintf(buf, len, "step %u, %llu items left; input %u at position %u of %u",
                     w->step, (unsigned long long)w->in_net, row, w->pos[row], 2 * w->k);
            return;
        }
    snprintf(buf, len, "step %u, nothing left", w->step);
}
