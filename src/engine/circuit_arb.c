/* Conflict resolution of the circuit engine: grouping one stage's requests by resource
 * (counting or radix sort, linear time) and ordering one resource's requests by the down
 * policy's keys. Nothing here depends on the order of the requests. */
#include <string.h>

#include "engine/circuit.h"
#include "routesim/rng.h"

/* Tests only: a Fisher-Yates shuffle of the requests from (shuffle, stream TEST). */
static void shuffle_requests(struct circ *c, uint32_t n, uint32_t stage)
{
    struct rs_rng r;
    rs_rng_init(&r, c->shuffle, RS_STREAM_TEST, stage, c->cycle);
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = rs_rng_below(&r, i);
        struct circ_req t = c->req[i - 1];
        c->req[i - 1] = c->req[j];
        c->req[j] = t;
    }
}

struct circ_req *rs__circ_group(struct circ *c, uint32_t n, uint32_t stage)
{
    if (c->shuffle)
        shuffle_requests(c, n, stage);
    if (n < 2) {
        if (n)
            c->grp[0] = c->req[0];
        return c->grp;
    }
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = c->req[i].res;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    uint64_t range = (uint64_t)hi - lo + 1;
    if (range <= c->cnt_cap && range <= 4 * (uint64_t)n + 4096) { /* counting sort */
        uint32_t *cnt = c->cnt;
        memset(cnt, 0, range * sizeof *cnt);
        for (uint32_t i = 0; i < n; i++)
            cnt[c->req[i].res - lo]++;
        uint32_t sum = 0;
        for (uint64_t b = 0; b < range; b++) {
            uint32_t k = cnt[b];
            cnt[b] = sum;
            sum += k;
        }
        for (uint32_t i = 0; i < n; i++)
            c->grp[cnt[c->req[i].res - lo]++] = c->req[i];
        return c->grp;
    }
    /* LSD radix sort on res - lo, 11 bits per pass, ping-ponging between req and grp */
    struct circ_req *from = c->req, *to = c->grp;
    uint32_t span = hi - lo;
    for (uint32_t shift = 0; shift < 32 && (shift == 0 || (span >> shift)); shift += 11) {
        uint32_t cnt[2048] = {0};
        for (uint32_t i = 0; i < n; i++)
            cnt[((from[i].res - lo) >> shift) & 2047]++;
        uint32_t sum = 0;
        for (uint32_t b = 0; b < 2048; b++) {
            uint32_t k = cnt[b];
            cnt[b] = sum;
            sum += k;
        }
        for (uint32_t i = 0; i < n; i++)
            to[cnt[((from[i].res - lo) >> shift) & 2047]++] = from[i];
        struct circ_req *t = from;
        from = to;
        to = t;
    }
    if (from != c->grp)
        memcpy(c->grp, from, (size_t)n * sizeof *from);
    return c->grp;
}

uint64_t rs__circ_key(const struct circ *c, uint32_t m, uint32_t stage)
{
    uint64_t cls = 0;
    switch (c->down) {
    case CIRC_DOWN_RANDOM:
        break;
    case CIRC_DOWN_LOWER_LCA_FIRST:
        cls = c->turn[m];
        break;
    case CIRC_DOWN_HIGHER_LCA_FIRST:
        cls = 255u - c->turn[m];
        break;
    case CIRC_DOWN_RANK:
        cls = c->ranks - c->rank[m];
        break;
    }
    struct rs_rng r;
    rs_rng_init(&r, c->seed, RS_STREAM_CIRCUIT_TIE, ((uint64_t)m << 16) | stage, c->cycle);
    return cls << 32 | rs_rng_u32(&r);
}

static int ranked_less(const struct circ_ranked *a, const struct circ_ranked *b)
{
    return a->key < b->key || (a->key == b->key && a->m < b->m);
}

/* Sift-down of a max-heap on ranked_less, for long runs. */
static void sift(struct circ_ranked *r, uint32_t i, uint32_t n)
{
    for (;;) {
        uint32_t big = i, a = 2 * i + 1, b = a + 1;
        if (a < n && ranked_less(&r[big], &r[a]))
            big = a;
        if (b < n && ranked_less(&r[big], &r[b]))
            big = b;
        if (big == i)
            return;
        struct circ_ranked t = r[i];
        r[i] = r[big];
        r[big] = t;
        i = big;
    }
}

void rs__circ_sort_run(struct circ_ranked *r, uint32_t len)
{
    if (len <= 32) { /* insertion sort: runs are short */
        for (uint32_t i = 1; i < len; i++) {
            struct circ_ranked x = r[i];
            uint32_t j = i;
            for (; j > 0 && ranked_less(&x, &r[j - 1]); j--)
                r[j] = r[j - 1];
            r[j] = x;
        }
        return;
    }
    for (uint32_t i = len / 2; i-- > 0;) /* heapsort */
        sift(r, i, len);
    for (uint32_t end = len; end-- > 1;) {
        struct circ_ranked t = r[0];
        r[0] = r[end];
        r[end] = t;
        sift(r, 0, end);
    }
}

void rs__circ_order(struct circ *c, const struct circ_req *g, uint32_t len, uint32_t stage)
{
    for (uint32_t i = 0; i < len; i++) {
        uint32_t m = c->act[g[i].p];
        c->run[i].key = rs__circ_key(c, m, stage);
        c->run[i].m = m;
        c->run[i].p = g[i].p;
    }
    rs__circ_sort_run(c->run, len);
}
