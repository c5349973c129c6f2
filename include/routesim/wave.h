/* The wave/token algorithm of Maggs & Sitaraman (004 §4) on the N-input butterfly: its own
 * tight simulator (src/algo/wave_sim.c), shared by algorithm=wave (src/algo/wave.c), its
 * invariant checks (src/algo/wave_check.c) and the tests, which step it and read its queues. */
#ifndef ROUTESIM_WAVE_H
#define ROUTESIM_WAVE_H

#include <stddef.h>
#include <stdint.h>

#include "routesim/error.h"

/* An item in a queue: a packet (its message id, below RS_WAVE_TOKEN) or a token of odd
 * wave w (RS_WAVE_TOKEN | w). */
#define RS_WAVE_TOKEN 0x80000000u

/* How a switch routes the packets of one wave (docs/wave.md). */
enum rs_wave_protocol {
    RS_WAVE_MODES = 0,  /* 004 §4: 0-mode / 1-mode, one packet per step, FIFO per queue */
    RS_WAVE_GREEDY = 1, /* 004 §6: waves still separated by tokens, each wave greedy (FIFO) */
    RS_WAVE_FIFO = 2    /* no tokens: greedy FIFO, the store-and-forward engine's rules */
};

/* The state of one run. Switch <l, row> (level l in 1..n-1) owns the 0-queue and the
 * 1-queue at the heads of its two in-edges, queue ids 2 ((l-1) N + row) + b; level-0
 * switches hold their sequence P, T, P, T, ... implicitly (pos), level-n switches absorb
 * whatever arrives. Owned by rs_wave_init / rs_wave_free. */
struct rs_wave {
    uint32_t N, n, k, q;          /* inputs, log2 N, packets per input, queue capacity */
    enum rs_wave_protocol proto;
    const uint32_t *dst;          /* borrowed: dst[m] output row of message m = s k + i */
    uint32_t *item;               /* [nq q] ring buffers */
    uint32_t *arr;                /* [nq q] arrival step of each item (greedy only) */
    uint16_t *head, *count;       /* [nq] */
    uint32_t *pop_step;           /* [nq] last step a queue gave up an item (start-of-step room) */
    uint8_t *mode;                /* [(n-1) N] 0 or 1 (modes protocol) */
    uint32_t *pos;                /* [N] next position 0..2k of each input's sequence */
    uint32_t *finish;             /* [N k] delivery step of each message, 0 = not yet */
    uint64_t nq;                  /* queues: 2 (n-1) N */
    uint32_t step;                /* steps run */
    uint64_t delivered, hops, tokens_sent;
    uint32_t makespan;            /* step of the last packet delivery */
    uint32_t max_q[2];            /* largest occupancy of any 0-queue / 1-queue */
    uint64_t in_net;              /* packets and tokens in queues or inputs not yet sent */
    /* checks (check != 0): per out-edge (2 per switch of levels 0..n-1) the last wave and
     * rank sent and the tokens sent; per switch the last rank sent */
    int check;
    uint32_t *edge_wave;          /* [2 n N] wave + 1 of the last item sent, 0 = none */
    uint32_t *edge_token;         /* [2 n N] wave of the last token sent + 1, 0 = none */
    uint64_t *edge_rank;          /* [2 n N] rank + 1 of the last item sent */
    uint64_t *sw_rank;            /* [n N] rank + 1 of the last item sent by the switch */
    uint32_t *sw_wave;            /* [n N] wave + 1 of the last item sent by the switch */
    struct rs_err *cerr;          /* where a violation is written */
    int violated;                 /* RS_EINVARIANT once a check failed */
};

/* Set up w for N = 2^n inputs (n >= 1), k >= 1 packets per input whose destinations are
 * dst[0 .. N k) (output rows, message m = s k + i is input s's i-th packet, wave 2i; dst
 * stays the caller's), queues of q >= 1 items (q <= 65535), protocol proto, with the
 * invariant checks when check. Returns 0 or RS_ENOMEM (w freed). */
int rs_wave_init(struct rs_wave *w, uint32_t n, uint32_t k, uint32_t q,
                 enum rs_wave_protocol proto, const uint32_t *dst, int check);

/* Run one step (UNITS: the butterfly's steps; an edge carries one item per step). Returns
 * the number of items (packets and tokens) that crossed an edge; 0 while items remain is a
 * deadlock. When check is on, a broken invariant of docs/wave.md sets w->violated and
 * writes its message to err (the step still completes). */
uint64_t rs_wave_step(struct rs_wave *w, struct rs_err *err);

/* 1 when every packet was delivered and every token absorbed. */
int rs_wave_done(const struct rs_wave *w);

/* The items of the b-queue (b = 0, 1) of switch <l, row>, 1 <= l < n, head first, into
 * out[0 .. q); returns how many. */
uint32_t rs_wave_queue(const struct rs_wave *w, uint32_t l, uint32_t row, uint32_t b,
                       uint32_t *out);

/* After the run (rs_wave_done): every edge carried exactly one token of each odd wave
 * 1 .. 2k-1. Returns 0 or RS_EINVARIANT with err set. Only with check. */
int rs_wave_check_end(const struct rs_wave *w, struct rs_err *err);

/* Between steps (check op of algorithm=wave's lifecycle): a check inside a step failed
 * (w->violated), a queue holds more than q items, or the queues hold more items than are in
 * the network. Returns 0 or RS_EINVARIANT with err set. */
int rs__wave_check_state(const struct rs_wave *w, struct rs_err *err);

/* One line describing the state of a run that made no progress: the step, the items left,
 * and the first switch holding items (its mode and both queues). */
void rs_wave_describe_stuck(const struct rs_wave *w, char *buf, size_t len);

void rs_wave_free(struct rs_wave *w);

/* Internal to src/algo/wave*.c: record one item sent by switch <l, row> on port p (check
 * mode only). */
void rs__wave_check_send(struct rs_wave *w, uint32_t l, uint32_t row, uint32_t p, uint32_t it);

#endif
