/* One stage of a circuit cycle over the ranks of a partitioned run (mpirun -np P routesim
 * run switching=circuit, docs/distributed.md). The decomposition is the threads' one
 * (circuit_par.c) with messages between processes instead of shared memory. Fixed paths:
 * rank r owns messages [r n / P, (r + 1) n / P) (their paths only are expanded here) and
 * the channel ids of blocks b with b mod P = r (so every level is spread over the ranks);
 * it builds its messages' requests, sends each to the owner of its channel (all-to-all),
 * decides its channels from the requests it received (numbered by local id), and sends
 * each request's outcome back to its sender (all-to-all); at the end of a cycle the fail
 * flags of every rank's positions are gathered by every rank. LCANs: rank r builds items
 * [r n / P, (r + 1) n / P), a request for resource x goes to rank x P / n_res, and every
 * rank's decisions (fail, switch, slot) are gathered by every rank. Each decision is a
 * function of one resource's requests only, so the outcome is the serial run's bytes for
 * every P. The exchange is the caller's (include/routesim/exchange.h): the library never
 * calls MPI itself. */
#include <string.h>

#include "engine/circuit.h"
#include "routesim/alloc.h"
#include "routesim/exchange.h"

/* A position's state after a stage's decisions. */
struct circ_decision {
    uint32_t p, fail, pos, slot;
};

struct circ_dist {
    uint64_t *cnt, *send_bytes, *recv_bytes; /* [P] */
    void *recv;                              /* received requests */
    uint64_t recv_cap;
    struct circ_decision *mine; /* the decisions of this rank's resources */
    uint64_t mine_cap;
    void *all; /* every rank's decisions (LCANs); every rank's fail flags (fixed paths) */
    uint64_t all_cap;
    /* fixed paths: this rank's requests in send order, the fail flags sent back for the
     * requests received, and those received back for the requests sent */
    struct circ_req *sent;
    uint64_t sent_cap;
    uint8_t *reply;
    uint64_t reply_cap;
    void *back;
    uint64_t back_cap;
    uint64_t touch_cap;                 /* room in c->touched */
    uint64_t req_cap, grp_cap, run_cap; /* room in c->req, c->grp, c->run */
};

void rs__circ_dist_free(struct circ *c)
{
    struct circ_dist *d = c->dist;
    if (!d)
        return;
    rs_free(d->cnt);
    rs_free(d->send_bytes);
    rs_free(d->recv_bytes);
    rs_free(d->recv);
    rs_free(d->mine);
    rs_free(d->all);
    rs_free(d->sent);
    rs_free(d->reply);
    rs_free(d->back);
    rs_free(d);
    c->dist = NULL;
}

static struct circ_dist *dist_get(struct circ *c)
{
    if (c->dist)
        return c->dist;
    size_t P = (size_t)c->xc->size;
    struct circ_dist *d = rs_calloc(1, sizeof *d);
    if (!d)
        return NULL;
    c->dist = d;
    d->cnt = rs_malloc(P * sizeof *d->cnt);
    d->send_bytes = rs_malloc(P * sizeof *d->send_bytes);
    d->recv_bytes = rs_malloc(P * sizeof *d->recv_bytes);
    return d->cnt && d->send_bytes && d->recv_bytes ? d : NULL;
}

/* Fixed paths: the channel ids are dealt to the ranks in blocks of DIST_BLOCK (block b to
 * rank b mod P), so that every level of a leveled network (a stage's channels) is spread
 * over every rank; a rank numbers its channels 0, 1, ... in id order (local ids), which is
 * how its decisions index c->used. */
#define DIST_BLOCK 64u

static inline uint32_t owner_ch(const struct circ *c, uint32_t ch)
{
    return (ch / DIST_BLOCK) % (uint32_t)c->xc->size;
}

static inline uint32_t local_ch(const struct circ *c, uint32_t ch)
{
    uint32_t round = DIST_BLOCK * (uint32_t)c->xc->size;
    return ch / round * DIST_BLOCK + ch % DIST_BLOCK;
}

/* LCANs: the rank that owns resource id res (P equal ranges of the ids). */
static inline uint32_t owner(const struct circ *c, uint32_t res)
{
    uint64_t o = (uint64_t)res * (uint64_t)c->xc->size / c->n_res;
    return o < (uint64_t)c->xc->size ? (uint32_t)o : (uint32_t)c->xc->size - 1;
}

/* Stable scatter of this rank's n requests c->req[0..n) into out, grouped by the rank that
 * owns each (by_channel: owner_ch of a fixed-path channel id; else owner of an LCAN
 * resource id), in build order within a group; sets d->send_bytes for the all-to-all. */
static void scatter_to_owners(struct circ *c, struct circ_dist *d, uint32_t n,
                              struct circ_req *out, int by_channel)
{
    uint32_t P = (uint32_t)c->xc->size;
    memset(d->cnt, 0, P * sizeof *d->cnt);
    for (uint32_t i = 0; i < n; i++)
        d->cnt[by_channel ? owner_ch(c, c->req[i].res) : owner(c, c->req[i].res)]++;
    uint64_t at = 0;
    for (uint32_t k = 0; k < P; k++) {
        d->send_bytes[k] = d->cnt[k] * sizeof *c->req;
        uint64_t here = d->cnt[k];
        d->cnt[k] = at;
        at += here;
    }
    for (uint32_t i = 0; i < n; i++)
        out[d->cnt[by_channel ? owner_ch(c, c->req[i].res) : owner(c, c->req[i].res)]++] =
            c->req[i];
}

/* Grow *p (of *cap elements of size sz) to hold n + 1. Returns 0 or 1 (out of memory). */
static int grow(void *p, uint64_t *cap, uint64_t n, size_t sz)
{
    if (*cap > n)
        return 0;
    void *q = rs_realloc(*(void **)p, (size_t)(n + 1) * sz);
    if (!q)
        return 1;
    *(void **)p = q;
    *cap = n + 1;
    return 0;
}

int rs__circ_dist_reserve(struct circ *c, uint64_t n)
{
    struct circ_dist *d = dist_get(c);
    if (!d)
        return 1;
    if (!d->grp_cap) /* as set up: n_req + 1 each (rs__circ_alloc_requests) */
        d->grp_cap = d->run_cap = d->req_cap = c->req_cap + 1;
    return grow(&c->req, &d->req_cap, n, sizeof *c->req) ||
           grow(&c->grp, &d->grp_cap, n, sizeof *c->grp) ||
           grow(&c->run, &d->run_cap, n, sizeof *c->run);
}

int rs__circ_dist_alloc_used(struct circ *c, struct rs_err *err)
{
    uint64_t P = (uint64_t)c->xc->size, r = (uint64_t)c->xc->rank, round = DIST_BLOCK * P;
    uint64_t rem = c->n_res % round, extra = rem > r * DIST_BLOCK ? rem - r * DIST_BLOCK : 0;
    uint64_t n = c->n_res / round * DIST_BLOCK + (extra < DIST_BLOCK ? extra : DIST_BLOCK);
    uint16_t *u = rs_calloc(n + 1, sizeof *u); /* indexed by local id */
    if (!u)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu channels",
                          (unsigned long long)n);
    c->n_own_ch = (uint32_t)n;
    c->used = u;
    return 0;
}

void rs__circ_dist_own(const struct circ *c, uint32_t *k0, uint32_t *k1)
{
    uint32_t b[2], m[2] = {c->m0, c->m1};
    for (int i = 0; i < 2; i++) { /* the first position whose message is >= m[i] */
        uint32_t lo = 0, hi = c->n_act;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (c->act[mid] < m[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        b[i] = lo;
    }
    *k0 = b[0];
    *k1 = b[1];
}

uint32_t rs__circ_dist_agree(struct circ *c, uint32_t v, int max)
{
    uint64_t w = max ? v : (uint64_t)UINT32_MAX - v;
    if (c->xfail || c->xc->allreduce(c->xc->ctx, &w, 1, RS_EXCHANGE_MAX)) {
        c->xfail = 1;
        return max ? v : c->n;
    }
    return (uint32_t)(max ? w : UINT32_MAX - w);
}

/* A stage on fixed paths: this rank builds the requests of its own messages' positions,
 * sends each to the owner of its channel, decides its channels, and sends every request's
 * outcome (the fail flag of its position after the decision) back to the rank that sent
 * it; a position fails when any of its requests lost. The other ranks' fail flags are not
 * known here until rs__circ_dist_cycle_end. Every rank runs every stage up to the largest
 * path length (the caller's loop stops at 0 only, so 1 is returned). */
static uint32_t paths_stage(struct circ *c, struct circ_dist *d, const struct circ_stage *s)
{
    const struct rs_exchange *x = c->xc;
    uint32_t P = (uint32_t)x->size, k0, k1;
    rs__circ_dist_own(c, &k0, &k1);
    uint32_t n_own = s->build(c, s, k0, k1, c->req);
    if (grow(&d->sent, &d->sent_cap, n_own, sizeof *d->sent)) {
        c->xfail = 1;
        return 1;
    }
    scatter_to_owners(c, d, n_own, d->sent, 1);
    if (x->alltoallv(x->ctx, d->sent, d->send_bytes, &d->recv, &d->recv_cap, d->recv_bytes)) {
        c->xfail = 1;
        return 1;
    }
    uint64_t n = 0;
    for (uint32_t k = 0; k < P; k++)
        n += d->recv_bytes[k] / sizeof *c->req;
    if (!d->grp_cap) /* as set up: n_req + 1 each (rs__circ_alloc_requests) */
        d->grp_cap = d->run_cap = d->req_cap = c->req_cap + 1;
    if (n >= UINT32_MAX || grow(&c->req, &d->req_cap, n, sizeof *c->req) ||
        grow(&c->grp, &d->grp_cap, n, sizeof *c->grp) ||
        grow(&c->run, &d->run_cap, n, sizeof *c->run) ||
        grow(&c->touched, &d->touch_cap, c->n_touched + n, sizeof *c->touched)) {
        c->xfail = 1;
        return 1;
    }
    const struct circ_req *got = d->recv;
    for (uint64_t k = 0; k < n; k++) { /* the fail flags of other ranks' positions are stale */
        c->fail[got[k].p] = 0;
        c->req[k] = (struct circ_req){local_ch(c, got[k].res), got[k].p};
    }
    if (n)
        s->decide(c, s, rs__circ_group(c, (uint32_t)n, s->stage), (uint32_t)n);
    if (c->mode == CIRC_MODE_STAGED) {
        /* hop h of a path leaves a node of level h (rs__circ_mode): no later stage of this
         * cycle requests the channels this one did, so their counts are cleared now and the
         * channel list holds one stage's channels only */
        for (uint64_t t = 0; t < c->n_touched; t++)
            c->used[c->touched[t]] = 0;
        c->n_touched = 0;
    }
    if (grow(&d->reply, &d->reply_cap, n, 1)) {
        c->xfail = 1;
        return 1;
    }
    for (uint64_t k = 0; k < n; k++)
        d->reply[k] = c->fail[got[k].p];
    for (uint32_t k = 0; k < P; k++)
        d->send_bytes[k] = d->recv_bytes[k] / sizeof *c->req;
    if (x->alltoallv(x->ctx, d->reply, d->send_bytes, &d->back, &d->back_cap, d->cnt)) {
        c->xfail = 1;
        return 1;
    }
    uint64_t nb = 0;
    for (uint32_t k = 0; k < P; k++)
        nb += d->cnt[k];
    if (nb != n_own) { /* a broken exchange */
        c->xfail = 1;
        return 1;
    }
    const uint8_t *back = d->back;
    for (uint32_t i = 0; i < n_own; i++)
        if (back[i])
            c->fail[d->sent[i].p] = 1;
    return 1;
}

void rs__circ_dist_cycle_end(struct circ *c)
{
    const struct rs_exchange *x = c->xc;
    struct circ_dist *d = c->xfail ? NULL : dist_get(c);
    uint32_t k0, k1;
    uint64_t total = 0;
    if (!d) {
        c->xfail = 1;
        return;
    }
    rs__circ_dist_own(c, &k0, &k1);
    if (x->allgatherv(x->ctx, c->fail + k0, k1 - k0, &d->all, &d->all_cap, &total) ||
        total != c->n_act) {
        c->xfail = 1;
        return;
    }
    if (total)
        memcpy(c->fail, d->all, total);
}

uint32_t rs__circ_dist_stage(struct circ *c, const struct circ_stage *s)
{
    const struct rs_exchange *x = c->xc;
    struct circ_dist *d = c->xfail ? NULL : dist_get(c);
    if (!d) {
        c->xfail = 1;
        return 0;
    }
    if (!c->lc)
        return paths_stage(c, d, s);
    uint32_t P = (uint32_t)x->size, r = (uint32_t)x->rank;
    uint32_t k0 = (uint32_t)((uint64_t)s->n_items * r / P);
    uint32_t k1 = (uint32_t)((uint64_t)s->n_items * (r + 1) / P);
    uint32_t n_own = s->build(c, s, k0, k1, c->req);
    /* to the owners, in build order within each owner (a stable scatter into grp) */
    scatter_to_owners(c, d, n_own, c->grp, 0);
    if (x->alltoallv(x->ctx, c->grp, d->send_bytes, &d->recv, &d->recv_cap, d->recv_bytes)) {
        c->xfail = 1;
        return 0;
    }
    uint64_t bytes = 0;
    for (uint32_t k = 0; k < P; k++)
        bytes += d->recv_bytes[k];
    uint64_t n = bytes / sizeof *c->req;
    if (n > c->req_cap) { /* more than the whole stage's requests: a broken exchange */
        c->xfail = 1;
        return 0;
    }
    if (n)
        memcpy(c->req, d->recv, n * sizeof *c->req);
    if (n)
        s->decide(c, s, rs__circ_group(c, (uint32_t)n, s->stage), (uint32_t)n);
    /* the decisions of the positions that requested this rank's resources */
    if (d->mine_cap < n) {
        struct circ_decision *m = rs_realloc(d->mine, (size_t)(n + 1) * sizeof *m);
        if (!m) {
            c->xfail = 1;
            return 0;
        }
        d->mine = m;
        d->mine_cap = n;
    }
    const struct circ_req *got = d->recv;
    for (uint64_t k = 0; k < n; k++) {
        uint32_t p = got[k].p;
        d->mine[k] = (struct circ_decision){p, c->fail[p], c->pos ? c->pos[p] : 0,
                                            c->slot ? c->slot[p] : 0};
    }
    uint64_t total = 0;
    if (x->allgatherv(x->ctx, d->mine, n * sizeof *d->mine, &d->all, &d->all_cap, &total)) {
        c->xfail = 1;
        return 0;
    }
    /* every rank's decisions: a lost channel anywhere fails the position (all at once:
     * several ranks decide one position); a position's switch and slot are decided by the
     * one rank that owns the resource it requested (one request per position in the
     * stages that set them) */
    const struct circ_decision *all = d->all;
    uint64_t n_all = total / sizeof *all;
    for (uint64_t k = 0; k < n_all; k++) {
        uint32_t p = all[k].p;
        if (all[k].fail)
            c->fail[p] = 1;
        if (c->pos)
            c->pos[p] = all[k].pos;
        if (c->slot)
            c->slot[p] = all[k].slot;
    }
    return (uint32_t)n_all;
}

int rs__circ_dist_reduce(struct circ *c)
{
    const struct rs_exchange *x = c->xc;
    uint64_t sum = c->locks, max = c->max_circ;
    if (x->allreduce(x->ctx, &sum, 1, RS_EXCHANGE_SUM) ||
        x->allreduce(x->ctx, &max, 1, RS_EXCHANGE_MAX)) {
        c->xfail = 1;
        return 1;
    }
    c->locks = sum;
    c->max_circ = (uint32_t)max;
    return 0;
}

/* The loads of this rank's channels in l16 (saturating at UINT16_MAX: *sat set) or l32,
 * both zero and indexed by local id; their maximum into *cong. Returns 0 or 1 (an
 * exchange or an allocation failed). */
static int count_loads(struct circ *c, uint16_t *l16, uint32_t *l32, uint64_t *cong,
                       uint64_t *sat)
{
    const struct rs_exchange *x = c->xc;
    struct circ_dist *d = dist_get(c);
    uint32_t P = (uint32_t)x->size, chunk = 1u << 12;
    uint64_t rounds = ((c->n + (uint64_t)P - 1) / P + chunk - 1) / chunk; /* the same for all */
    uint32_t *send = NULL;
    uint64_t send_cap = 0;
    int bad = !d;
    for (uint64_t k = 0; k < rounds && !bad; k++) {
        uint64_t a = c->m0 + k * chunk, b = a + chunk;
        a = a < c->m1 ? a : c->m1;
        b = b < c->m1 ? b : c->m1;
        uint64_t h0 = c->off[a], h1 = c->off[b];
        if (grow(&send, &send_cap, h1 - h0, sizeof *send)) {
            bad = 1;
            break;
        }
        memset(d->cnt, 0, P * sizeof *d->cnt);
        for (uint64_t h = h0; h < h1; h++)
            d->cnt[owner_ch(c, c->hop[h])]++;
        uint64_t at = 0;
        for (uint32_t r = 0; r < P; r++) {
            d->send_bytes[r] = d->cnt[r] * sizeof *send;
            uint64_t here = d->cnt[r];
            d->cnt[r] = at;
            at += here;
        }
        for (uint64_t h = h0; h < h1; h++)
            send[d->cnt[owner_ch(c, c->hop[h])]++] = c->hop[h];
        if (x->alltoallv(x->ctx, send, d->send_bytes, &d->recv, &d->recv_cap, d->recv_bytes)) {
            bad = 1;
            break;
        }
        uint64_t n = 0;
        for (uint32_t r = 0; r < P; r++)
            n += d->recv_bytes[r] / sizeof *send;
        const uint32_t *got = d->recv;
        for (uint64_t i = 0; i < n; i++) {
            uint32_t j = local_ch(c, got[i]), v;
            if (l32)
                v = ++l32[j];
            else if ((v = l16[j]) < UINT16_MAX)
                l16[j] = (uint16_t)++v;
            else
                *sat = 1;
            *cong = v > *cong ? v : *cong;
        }
    }
    rs_free(send);
    return bad;
}

int rs__circ_dist_congestion(struct circ *c)
{
    /* counted in c->used (zero until the first cycle, 2 bytes per channel) unless a channel
     * carries 2^16 - 1 paths on some rank: then again with 4-byte counts */
    uint64_t v[2] = {0, 0}; /* the congestion, a count saturated */
    int bad = c->xfail || count_loads(c, c->used, NULL, &v[0], &v[1]) ||
              c->xc->allreduce(c->xc->ctx, v, 2, RS_EXCHANGE_MAX);
    memset(c->used, 0, ((size_t)c->n_own_ch + 1) * sizeof *c->used);
    if (!bad && v[1]) {
        uint32_t *l32 = rs_calloc((size_t)c->n_own_ch + 1, sizeof *l32);
        v[0] = 0;
        bad = !l32 || count_loads(c, NULL, l32, &v[0], &v[1]) ||
              c->xc->allreduce(c->xc->ctx, v, 1, RS_EXCHANGE_MAX);
        rs_free(l32);
    }
    if (bad) {
        c->xfail = 1;
        return 1;
    }
    c->cong = (uint32_t)v[0];
    return 0;
}
