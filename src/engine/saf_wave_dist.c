/* The leveled butterfly kernel over MPI ranks (mpirun -np P routesim run
 * switching=store_forward ..., docs/distributed.md "Store-and-forward"). Rank k holds rows
 * [k N / P, (k + 1) N / P) of every level, and the sources of those rows. A packet at
 * level l leaves row r by port 1 to row r ^ 2^l, which may be another rank's: the queue it
 * enters (slot 1 of that node) has this node as its only feeder, so the feeder keeps that
 * queue's count (the shadow) and judges room on it. At the end of a step every rank sends
 * its records (arrivals, and credits for packets that left a slot-1 queue whose feeder is
 * another rank's) in one all-to-all, pushes the arrivals with the step as their entry step
 * and takes the credits off its shadows, and the step's moves, deliveries and each level's
 * packets are summed over the ranks (one all-reduce). Room is judged on the start of the
 * step (docs/model-saf.md), and the shadow is exactly that count: the arrivals it sent up
 * to the last step, less the departures credited at the end of the last step. So every
 * decision is the serial run's, and the output is its bytes for every P. The exchange is
 * the caller's (include/routesim/exchange.h): the library never calls MPI itself. */
#include <string.h>

#include "engine/saf_wave_impl.h"
#include "routesim/alloc.h"
#include "routesim/assert.h"

uint32_t rs__wave_owner(const struct saf_wave *w, uint32_t r)
{
    uint64_t P = (uint64_t)w->dist->xc->size, N = w->N;
    uint64_t k = (uint64_t)r * P / N; /* floor(k N / P) <= r: at or below the owner */
    while (k + 1 < P && (k + 1) * N / P <= r)
        k++;
    return (uint32_t)k;
}

void rs__wave_emit(struct saf_wave *w, uint32_t to, uint32_t kl, uint32_t row, uint32_t dst)
{
    struct wave_dist *x = w->dist;
    if (x->n_out == x->cap_out) {
        uint64_t cap = x->cap_out ? 2 * x->cap_out : 1024;
        struct wave_msg *o = rs_realloc(x->out, cap * sizeof *o);
        if (o)
            x->out = o;
        uint32_t *t = o ? rs_realloc(x->to, cap * sizeof *t) : NULL;
        if (t)
            x->to = t;
        if (!o || !t) {
            x->oom = 1;
            return;
        }
        x->cap_out = cap;
    }
    x->out[x->n_out] = (struct wave_msg){kl, row, dst};
    x->to[x->n_out++] = to;
}

int rs__wave_dist_init(struct saf_wave *w, const struct rs_exchange *xc)
{
    struct wave_dist *x = rs_calloc(1, sizeof *x);
    if (!x)
        return RS_ENOMEM;
    w->dist = x;
    x->xc = xc;
    size_t P = (size_t)xc->size;
    x->shadow = rs_calloc(w->n, sizeof *x->shadow);
    x->gpk = rs_calloc(w->n, sizeof *x->gpk);
    x->red = rs_calloc(w->n + 3, sizeof *x->red);
    x->cnt = rs_malloc(P * sizeof *x->cnt);
    x->send_bytes = rs_malloc(P * sizeof *x->send_bytes);
    x->recv_bytes = rs_malloc(P * sizeof *x->recv_bytes);
    x->send = rs_malloc(sizeof *x->send);
    x->send_cap = 1;
    if (!x->shadow || !x->gpk || !x->red || !x->cnt || !x->send_bytes || !x->recv_bytes ||
        !x->send)
        return RS_ENOMEM;
    /* a level's port 1 stays on this rank when the rows are whole blocks of 2^(l+1) rows
     * (pairs r, r ^ 2^l); level n-1's port 1 delivers */
    for (uint32_t l = 0; l + 1 < w->n; l++) {
        uint64_t b = 2ull << l;
        if (w->R0 % b == 0 && ((uint64_t)w->R0 + w->rows) % b == 0)
            continue;
        if (!(x->shadow[l] = rs_calloc(w->rows, 1)))
            return RS_ENOMEM;
    }
    return 0;
}

void rs__wave_dist_free(struct saf_wave *w)
{
    struct wave_dist *x = w->dist;
    if (!x)
        return;
    for (uint32_t l = 0; x->shadow && l < w->n; l++)
        rs_free(x->shadow[l]);
    rs_free(x->shadow);
    rs_free(x->gpk);
    rs_free(x->red);
    rs_free(x->out);
    rs_free(x->to);
    rs_free(x->send);
    rs_free(x->cnt);
    rs_free(x->send_bytes);
    rs_free(x->recv_bytes);
    rs_free(x->recv);
    rs_free(x);
    w->dist = NULL;
}

/* The kept records sorted by rank into x->send (blocks in rank order, each in the order
 * kept) with their sizes in x->send_bytes; the list emptied. Returns 0 or RS_ENOMEM (then
 * nothing is sent). */
static int sort_records(struct wave_dist *x)
{
    size_t P = (size_t)x->xc->size;
    uint64_t n = x->n_out;
    x->n_out = 0;
    memset(x->send_bytes, 0, P * sizeof *x->send_bytes);
    if (n > x->send_cap) {
        struct wave_msg *s = rs_realloc(x->send, n * sizeof *s);
        if (!s)
            return RS_ENOMEM;
        x->send = s;
        x->send_cap = n;
    }
    memset(x->cnt, 0, P * sizeof *x->cnt);
    for (uint64_t i = 0; i < n; i++)
        x->cnt[x->to[i]]++;
    uint64_t at = 0;
    for (size_t k = 0; k < P; k++) {
        uint64_t c = x->cnt[k];
        x->send_bytes[k] = c * sizeof *x->send;
        x->cnt[k] = at;
        at += c;
    }
    for (uint64_t i = 0; i < n; i++)
        x->send[x->cnt[x->to[i]]++] = x->out[i];
    return 0;
}

int rs__wave_dist_step(struct saf_wave *w, uint32_t s, uint64_t *moves, uint64_t *ndel)
{
    struct wave_dist *x = w->dist;
    const struct rs_exchange *xc = x->xc;
    uint64_t oom = x->oom || sort_records(x);
    x->oom = 0;
    if (xc->alltoallv(xc->ctx, x->send, x->send_bytes, &x->recv, &x->recv_cap, x->recv_bytes))
        return RS_EIO;
    uint64_t bytes = 0;
    for (int k = 0; k < xc->size; k++)
        bytes += x->recv_bytes[k];
    const struct wave_msg *in = x->recv;
    uint32_t maxq = w->max_queue;
    for (uint64_t i = 0, n = bytes / sizeof *in; i < n; i++) {
        struct wave_msg m = in[i];
        uint32_t l = m.kl & ~WAVE_CREDIT, rl = m.row - w->R0;
        RS_ASSERT(l < w->n && rl < w->rows);
        if (m.kl & WAVE_CREDIT) { /* a packet left the queue that own row rl feeds */
            RS_ASSERT(x->shadow[l] && x->shadow[l][rl] > 0);
            x->shadow[l][rl]--;
            continue;
        }
        uint32_t c = rs__wave_push_any(w, l, rl, 1, m.dst, s); /* port 1 leads away */
        if (!c) {
            oom = 1;
            continue;
        }
        maxq = c > maxq ? c : maxq;
    }
    w->max_queue = maxq;
    uint64_t *red = x->red;
    red[0] = *moves;
    red[1] = *ndel;
    for (uint32_t l = 0; l < w->n; l++)
        red[2 + l] = w->lv[l].pk;
    red[2 + w->n] = oom;
    if (xc->allreduce(xc->ctx, red, (int)w->n + 3, RS_EXCHANGE_SUM))
        return RS_EIO;
    if (red[2 + w->n]) /* a rank ran out of memory: every rank stops */
        return RS_ENOMEM;
    *moves = red[0];
    *ndel = red[1];
    memcpy(x->gpk, red + 2, w->n * sizeof *x->gpk);
    return 0;
}

/* Runs the statements (the last arguments) with SRC and DST set to each of this rank's messages' (sources in its rows), by
 * source and in id order. */
#define FOR_OWN_MESSAGES(w, SRC, DST, ...)                                                 \
    do {                                                                                   \
        if ((w)->order) {                                                                  \
            uint64_t n_own_ = (w)->rows ? (w)->send[(w)->rows - 1] : 0;                    \
            for (uint64_t i_ = 0; i_ < n_own_; i_++) {                                     \
                uint32_t m_ = (w)->order[i_], SRC = (w)->src[m_], DST = (w)->dst[m_];      \
                __VA_ARGS__;                                                               \
            }                                                                              \
        } else {                                                                           \
            for (uint32_t tl_ = 0; tl_ < (w)->rows; tl_++) {                               \
                uint32_t SRC = (w)->R0 + tl_;                                              \
                const uint32_t *d_ = (w)->dst + (uint64_t)SRC * (w)->per_input;            \
                for (uint64_t k_ = 0; k_ < (w)->per_input; k_++) {                         \
                    uint32_t DST = d_[k_];                                                 \
                    __VA_ARGS__;                                                           \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
    } while (0)

/* The most routes through one of this rank's channels out of level l: each own message's
 * channel (row (dst & low) | (src & ~low), low = 2^l - 1, port bit l of src ^ dst) counted
 * here or sent to the rank of its row (one all-to-all). cnt: [2 rows] zero, and zero on
 * return; NULL after a failed allocation (the rank still takes part, sending nothing and
 * setting *oom). Returns 0 or RS_EIO. */
static int level_load(struct saf_wave *w, uint32_t l, uint32_t *cnt, uint32_t *out, int *oom)
{
    struct wave_dist *x = w->dist;
    const struct rs_exchange *xc = x->xc;
    size_t P = (size_t)xc->size;
    const uint32_t low = (1u << l) - 1, R0 = w->R0, rows = w->rows;
    uint64_t away = 0;
    memset(x->cnt, 0, P * sizeof *x->cnt);
    if (cnt)
        FOR_OWN_MESSAGES(w, src, dst, {
            uint32_t cr = (dst & low) | (src & ~low), port = ((src ^ dst) >> l) & 1u;
            if (cr - R0 < rows)
                cnt[2 * (cr - R0) + port]++;
            else {
                x->cnt[rs__wave_owner(w, cr)]++;
                away++;
            }
        });
    /* the channel ids for other ranks, in x->send's space (3 ids per record) */
    uint64_t need = (away + 2) / 3;
    if (need > x->send_cap) {
        struct wave_msg *s = rs_realloc(x->send, need * sizeof *s);
        if (s) {
            x->send = s;
            x->send_cap = need;
        } else {
            *oom = 1;
            cnt = NULL;
            away = 0;
            memset(x->cnt, 0, P * sizeof *x->cnt);
        }
    }
    uint32_t *ids = (uint32_t *)(void *)x->send;
    uint64_t at = 0;
    for (size_t k = 0; k < P; k++) {
        uint64_t c = x->cnt[k];
        x->send_bytes[k] = c * sizeof *ids;
        x->cnt[k] = at;
        at += c;
    }
    if (cnt && away)
        FOR_OWN_MESSAGES(w, src, dst, {
            uint32_t cr = (dst & low) | (src & ~low), port = ((src ^ dst) >> l) & 1u;
            if (cr - R0 >= rows)
                ids[x->cnt[rs__wave_owner(w, cr)]++] = 2 * cr + port;
        });
    if (xc->alltoallv(xc->ctx, ids, x->send_bytes, &x->recv, &x->recv_cap, x->recv_bytes))
        return RS_EIO;
    uint32_t c = 0;
    if (cnt) {
        uint64_t bytes = 0;
        for (size_t k = 0; k < P; k++)
            bytes += x->recv_bytes[k];
        const uint32_t *in = x->recv;
        for (uint64_t i = 0; i < bytes / sizeof *in; i++) {
            RS_ASSERT(in[i] / 2 - R0 < rows);
            cnt[in[i] - 2 * R0]++;
        }
        for (uint64_t i = 0; i < 2ull * rows; i++) {
            c = cnt[i] > c ? cnt[i] : c;
            cnt[i] = 0;
        }
    }
    *out = c;
    return 0;
}

int rs__wave_dist_collect(struct saf_wave *w, uint32_t *congestion, uint32_t *maxq)
{
    const struct rs_exchange *xc = w->dist->xc;
    uint32_t *cnt = rs_calloc(2ull * w->rows, sizeof *cnt);
    int oom = !cnt;
    uint32_t c = 0;
    for (uint32_t l = 0; w->n_msgs && l < w->n; l++) {
        uint32_t k = 0;
        if (level_load(w, l, oom ? NULL : cnt, &k, &oom)) {
            rs_free(cnt);
            return RS_EIO;
        }
        c = k > c ? k : c;
    }
    rs_free(cnt);
    uint64_t v[3] = {c, *maxq, (uint64_t)oom};
    if (xc->allreduce(xc->ctx, v, 3, RS_EXCHANGE_MAX))
        return RS_EIO;
    if (v[2])
        return RS_ENOMEM;
    *congestion = (uint32_t)v[0];
    *maxq = (uint32_t)v[1];
    return 0;
}
