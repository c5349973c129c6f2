/* The stages of Bay & Bilardi's pruned butterfly algorithm (000 §3.3): per stage i the
 * subtrees T at level i+1 split their messages of peak i into lambda_T batches (Lemma 4);
 * each batch is compressed to the level-i node P (checked conflict-free, Corollary 1),
 * sorted by destination and expanded into the sibling T' by the greedy variant with
 * sidetracking (rules (a)-(d), per-vertex direction bits). Model: docs/bay-bilardi.md. */
#include <math.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/bay_bilardi.h"
#include "routesim/metrics.h"

#define NONE UINT32_MAX

struct bb {
    struct rs__bb_run *r;
    const struct rs__pb *pb;
    uint32_t n, N;
    uint32_t *pos;    /* [m] current leaf */
    uint8_t *side;    /* [m] 1: stored at a leaf as a sidetracked message */
    uint32_t *live;   /* [m] undelivered messages in insertion order (seq) */
    uint32_t *next;   /* [m] scratch for the next live list */
    uint32_t *sel;    /* [m] the stage's messages, seq order, then (leaf, seq) order */
    uint32_t *sorted; /* [m] */
    uint32_t *arr;    /* [m] messages sidetracked in this stage, in arrival order */
    uint32_t *lcnt;   /* [N + 1] counting sort by leaf */
    uint32_t *st;     /* [N] sidetracked messages stored per leaf */
    uint8_t *dir;     /* [vertices] direction bit (0 = left) */
    uint32_t *vstamp, *vfirst; /* [N] per-vertex grouping within one level */
    uint32_t stamp;
    uint32_t *slot;   /* [2N] scratch of the compression check */
    /* per subtree of the current stage (at most the non-empty ones) */
    uint32_t *tid, *toff, *tlam; /* [N] subtree index, block offset, lambda_T */
    /* one batch, at most W(0) = sqrt(N) messages */
    uint32_t *bm, *bleaf, *bj, *bk, *ba, *bc, *bpart, *bland, *ord;
    uint8_t *bact, *binact;
    uint64_t *key, *key2;
    /* latency: (time, count) per delivery instant */
    uint64_t *lat_t, *lat_c;
    uint32_t lat_n, lat_cap;
    uint32_t n_live;
};

static int lat_add(struct bb *s, uint64_t t, uint64_t c)
{
    if (!c)
        return 0;
    if (s->lat_n == s->lat_cap) {
        uint32_t cap = s->lat_cap ? 2 * s->lat_cap : 64;
        uint64_t *a = rs_realloc(s->lat_t, cap * sizeof *a);
        if (!a)
            return RS_ENOMEM;
        s->lat_t = a;
        uint64_t *b = rs_realloc(s->lat_c, cap * sizeof *b);
        if (!b)
            return RS_ENOMEM;
        s->lat_c = b;
        s->lat_cap = cap;
    }
    s->lat_t[s->lat_n] = t;
    s->lat_c[s->lat_n++] = c;
    return 0;
}

static void bb_free(struct bb *s)
{
    void *all[] = {s->pos, s->side, s->live, s->next, s->sel, s->sorted, s->arr, s->lcnt,
                   s->st, s->dir, s->vstamp, s->vfirst, s->slot, s->tid, s->toff, s->tlam,
                   s->bm, s->bleaf, s->bj, s->bk, s->ba, s->bc, s->bpart, s->bland, s->ord,
                   s->bact, s->binact, s->key, s->key2, s->lat_t, s->lat_c};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        rs_free(all[i]);
}

static int bb_alloc(struct bb *s, uint64_t m)
{
    size_t M = m ? (size_t)m : 1, N = s->N, V = s->pb->first[s->n + 1];
    size_t B = rs__pb_width(s->n, 0);
    s->pos = rs_malloc(M * 4);
    s->side = rs_calloc(M, 1);
    s->live = rs_malloc(M * 4);
    s->next = rs_malloc(M * 4);
    s->sel = rs_malloc(M * 4);
    s->sorted = rs_malloc(M * 4);
    s->arr = rs_malloc(M * 4);
    s->lcnt = rs_calloc(N + 1, 4);
    s->st = rs_calloc(N, 4);
    s->dir = rs_calloc(V, 1);
    s->vstamp = rs_calloc(N, 4);
    s->vfirst = rs_malloc(N * 4);
    s->slot = rs_malloc(2 * N * 4);
    s->tid = rs_malloc(N * 4);
    s->toff = rs_malloc((N + 1) * 4);
    s->tlam = rs_malloc(N * 4);
    s->bm = rs_malloc(B * 4);
    s->bleaf = rs_malloc(B * 4);
    s->bj = rs_malloc(B * 4);
    s->bk = rs_malloc(B * 4);
    s->ba = rs_malloc(B * 4);
    s->bc = rs_malloc(B * 4);
    s->bpart = rs_malloc(B * 4);
    s->bland = rs_malloc(B * 4);
    s->ord = rs_malloc(B * 4);
    s->bact = rs_malloc(B);
    s->binact = rs_malloc(B);
    s->key = rs_malloc(B * 8);
    s->key2 = rs_malloc(B * 8);
    return s->pos && s->side && s->live && s->next && s->sel && s->sorted && s->arr &&
                   s->lcnt && s->st && s->dir && s->vstamp && s->vfirst && s->slot &&
                   s->tid && s->toff && s->tlam && s->bm && s->bleaf && s->bj && s->bk &&
                   s->ba && s->bc && s->bpart && s->bland && s->ord && s->bact && s->binact &&
                   s->key && s->key2
               ? 0
               : RS_ENOMEM;
}

/* The batch sorted at P by destination, ties by the compression position h (the sort of
 * Lemma 3 is by destination; this tie rule makes it stable): ord[0..cnt) gets the positions
 * in sorted order. A bottom-up merge sort of (destination << 32 | h) keys. */
static void sort_batch(struct bb *s, uint32_t cnt)
{
    uint64_t *a = s->key, *b = s->key2;
    for (uint32_t h = 0; h < cnt; h++)
        a[h] = (uint64_t)s->r->dst[s->bm[h]] << 32 | h;
    for (uint32_t w = 1; w < cnt; w *= 2) {
        for (uint32_t lo = 0; lo < cnt; lo += 2 * w) {
            uint32_t mid = lo + w < cnt ? lo + w : cnt, hi = lo + 2 * w < cnt ? lo + 2 * w : cnt;
            uint32_t x = lo, y = mid, o = lo;
            while (x < mid && y < hi)
                b[o++] = a[x] <= a[y] ? a[x++] : a[y++];
            while (x < mid)
                b[o++] = a[x++];
            while (y < hi)
                b[o++] = a[y++];
        }
        uint64_t *t = a;
        a = b;
        b = t;
    }
    for (uint32_t h = 0; h < cnt; h++)
        s->ord[h] = (uint32_t)a[h];
}

/* Decide the down edge of the messages x (and y, or NONE) at vertex <l-1, j, k> (global id
 * v): rules (a)-(d) of §3.3. Positions x, y index the batch arrays (P order). */
static void decide(struct bb *s, uint32_t l, uint32_t v, uint32_t x, uint32_t y)
{
    const uint32_t *dst = s->r->dst;
    uint32_t sh = s->n - l;
    if (y == NONE) {
        if (s->bact[x]) { /* (a) */
            s->bc[x] = (dst[s->bm[x]] >> sh) & 1u;
        } else {          /* (d): a single sidetracked message follows the direction bit */
            s->bc[x] = s->dir[v];
            s->dir[v] ^= 1u;
        }
        return;
    }
    if (s->bact[x] && s->bact[y]) {
        uint32_t cx = (dst[s->bm[x]] >> sh) & 1u, cy = (dst[s->bm[y]] >> sh) & 1u;
        s->bc[x] = cx;
        s->bc[y] = cy;
        if (cx == cy) { /* (b): the larger destination (then the later position) yields */
            uint32_t lose = (dst[s->bm[x]] > dst[s->bm[y]] ||
                             (dst[s->bm[x]] == dst[s->bm[y]] && x > y))
                                ? x
                                : y;
            s->bact[lose] = 0;
            s->bc[lose] = 1u - cx;
            s->r->sidetracks++;
        }
    } else if (s->bact[x] || s->bact[y]) { /* (c): the active one first */
        uint32_t a = s->bact[x] ? x : y, o = a == x ? y : x;
        s->bc[a] = (dst[s->bm[a]] >> sh) & 1u;
        s->bc[o] = 1u - s->bc[a];
    } else { /* two sidetracked: the one from the parent edge with the smaller k goes left */
        s->bc[x] = s->ba[x] < s->ba[y] ? 0u : 1u;
        s->bc[y] = 1u - s->bc[x];
    }
}

/* Expand the sorted batch (positions 0..cnt-1 at <i, P, h>) into the leaves below P;
 * bland[h] gets the leaf each one reaches. */
static void expand(struct bb *s, uint32_t i, uint32_t P, uint32_t cnt)
{
    uint32_t n = s->n;
    for (uint32_t h = 0; h < cnt; h++) {
        s->bj[h] = P;
        s->bk[h] = h;
        s->ba[h] = 0;
        s->bact[h] = 1;
    }
    for (uint32_t l = i + 1; l <= n; l++) {
        uint32_t wu = rs__pb_width(n, l - 1), wl = rs__pb_width(n, l);
        uint32_t lw = (uint32_t)__builtin_ctz(wl);
        s->stamp++;
        if (s->stamp == 0) { /* wrapped: clear */
            memset(s->vstamp, 0, (size_t)s->N * 4);
            s->stamp = 1;
        }
        for (uint32_t h = 0; h < cnt; h++) { /* group the messages by vertex of level l-1 */
            uint32_t v = s->bj[h] * wu + s->bk[h];
            RS_DASSERT(v < s->N);
            if (s->vstamp[v] != s->stamp) {
                s->vstamp[v] = s->stamp;
                s->vfirst[v] = h;
                s->bpart[h] = NONE;
            } else {
                uint32_t f = s->vfirst[v];
                RS_ASSERT(s->bpart[f] == NONE); /* a vertex has at most two in-edges */
                s->bpart[f] = h;
                s->bpart[h] = f;
            }
        }
        for (uint32_t h = 0; h < cnt; h++) {
            uint32_t v = s->bj[h] * wu + s->bk[h];
            if (s->vfirst[v] != h)
                continue;
            RS_DASSERT(!s->bact[h] || (s->r->dst[s->bm[h]] >> (n - l + 1)) == s->bj[h]);
            decide(s, l, rs__pb_vertex(s->pb, l - 1, s->bj[h], s->bk[h]), h, s->bpart[h]);
        }
        for (uint32_t h = 0; h < cnt; h++) { /* move down the chosen edge */
            s->bj[h] = 2 * s->bj[h] + s->bc[h];
            s->ba[h] = s->bk[h] >> lw;
            s->bk[h] &= wl - 1;
        }
    }
    for (uint32_t h = 0; h < cnt; h++)
        s->bland[h] = s->bj[h];
}

/* Stage i. */
static int stage(struct bb *s, uint32_t i, uint64_t *clock)
{
    struct rs__bb_run *r = s->r;
    uint32_t n = s->n, N = s->N, nsel = 0, nlive = 0, narr = 0;
    uint64_t t0 = *clock;
    struct rs__bb_stage_cost c;
    struct rs__bb_cost cm;
    rs__bb_cost_init(&cm, n, r->bits, r->m);
    rs__bb_stage_cost(&cm, i, &c);
    /* M_i in insertion order, the rest kept */
    for (uint32_t q = 0; q < s->n_live; q++) {
        uint32_t m = s->live[q];
        if (rs__ft_peak(&s->pb->ft, s->pos[m], r->dst[m]) == i)
            s->sel[nsel++] = m;
        else
            s->next[nlive++] = m;
    }
    r->stage_msgs[i] = nsel;
    /* stable counting sort by leaf: (leaf, seq) order */
    memset(s->lcnt, 0, ((size_t)N + 1) * 4);
    for (uint32_t q = 0; q < nsel; q++)
        s->lcnt[s->pos[s->sel[q]] + 1]++;
    for (uint32_t l = 0; l < N; l++)
        s->lcnt[l + 1] += s->lcnt[l];
    for (uint32_t q = 0; q < nsel; q++)
        s->sorted[s->lcnt[s->pos[s->sel[q]]]++] = s->sel[q];
    /* the non-empty subtrees T (level i+1) and lambda_T = max over the channels of T of
     * ceil(ascending load / cap), the channel from T up to P included (Lemma 4) */
    uint32_t nt = 0, lam_max = 0, shT = n - i - 1;
    for (uint32_t q = 0; q < nsel;) {
        uint32_t T = s->pos[s->sorted[q]] >> shT, e = q;
        while (e < nsel && (s->pos[s->sorted[e]] >> shT) == T)
            e++;
        uint32_t lam = 0;
        for (uint32_t l = i + 1; l <= n; l++) {
            uint32_t cap = rs__pb_cap(n, l), sh = n - l;
            for (uint32_t a = q; a < e;) {
                uint32_t node = s->pos[s->sorted[a]] >> sh, b = a;
                while (b < e && (s->pos[s->sorted[b]] >> sh) == node)
                    b++;
                uint32_t v = (b - a + cap - 1) / cap;
                if (v > lam)
                    lam = v;
                a = b;
            }
        }
        s->tid[nt] = T;
        s->toff[nt] = q;
        s->tlam[nt++] = lam;
        if (lam > r->lambda_t_max) {
            r->lambda_t_max = lam;
            r->lt_stage = i;
            r->lt_subtree = T;
        }
        if (lam > lam_max)
            lam_max = lam;
        q = e;
    }
    s->toff[nt] = nsel;
    r->stage_lambda[i] = lam_max;
    r->batch_rounds += lam_max;
    /* the batch rounds: all subtrees route their batch b at once */
    for (uint32_t b = 0; b < lam_max; b++) {
        uint64_t at = t0 + c.partition + (uint64_t)b * c.batch + c.arrive, delivered = 0;
        for (uint32_t t = 0; t < nt; t++) /* the batch leaves its leaves first */
            for (uint32_t g = s->toff[t] + b; b < s->tlam[t] && g < s->toff[t + 1];
                 g += s->tlam[t]) {
                uint32_t m = s->sorted[g];
                if (s->side[m]) {
                    s->side[m] = 0;
                    s->st[s->pos[m]]--;
                }
            }
        for (uint32_t t = 0; t < nt; t++) {
            uint32_t lam = s->tlam[t], cnt = 0, T = s->tid[t], P = T >> 1;
            if (b >= lam)
                continue;
            for (uint32_t g = s->toff[t] + b; g < s->toff[t + 1]; g += lam) {
                s->bm[cnt] = s->sorted[g];
                s->bleaf[cnt++] = s->pos[s->sorted[g]];
            }
            RS_ASSERT(cnt <= rs__pb_width(n, i)); /* lambda_a(B) <= 1 on c_T */
            /* compression to <i, P, h> (Corollary 1: no conflict) */
            r->compression_conflicts +=
                rs__bb_greedy(s->pb, i, P, 1, s->bleaf, cnt, s->slot, s->binact, NULL);
            /* sort by destination at P, then expand into T' */
            sort_batch(s, cnt);
            for (uint32_t h = 0; h < cnt; h++)
                s->bleaf[h] = s->bm[s->ord[h]];
            memcpy(s->bm, s->bleaf, cnt * sizeof *s->bm);
            /* Corollary 1 in the algorithm: an expansion of load factor <= 1 (the sorted
             * destinations over the channels below P) sidetracks nothing */
            for (uint32_t h = 0; h < cnt; h++)
                s->bleaf[h] = r->dst[s->bm[h]];
            int le1 = rs__bb_greedy_load(s->pb, i, s->bleaf, cnt, s->slot) <= ((uint64_t)1 << n);
            uint64_t before = r->sidetracks;
            expand(s, i, P, cnt);
            if (le1) {
                r->le1_batches++;
                r->le1_conflicts += r->sidetracks - before;
            }
            for (uint32_t h = 0; h < cnt; h++) {
                uint32_t m = s->bm[h], leaf = s->bland[h];
                RS_ASSERT((leaf >> shT) == (T ^ 1u)); /* every message lands in T' */
                s->pos[m] = leaf;
                if (leaf == r->dst[m]) {
                    delivered++;
                    if (r->finish)
                        r->finish[m] = at;
                    if (at > r->makespan)
                        r->makespan = at;
                } else {
                    s->side[m] = 1;
                    s->arr[narr++] = m;
                    if (++s->st[leaf] > r->sidetrack_max) {
                        r->sidetrack_max = s->st[leaf];
                        r->st_leaf = leaf;
                        r->st_stage = i;
                        r->st_round = b;
                    }
                }
            }
            if (r->trace)
                r->trace(r->trace_user, i, T, b, s->bm, s->bland, s->bact, cnt);
        }
        r->delivered += delivered;
        int rc = lat_add(s, at, delivered);
        if (rc)
            return rc;
    }
    memcpy(s->next + nlive, s->arr, (size_t)narr * sizeof *s->arr);
    uint32_t *tmp = s->live;
    s->live = s->next;
    s->next = tmp;
    s->n_live = nlive + narr;
    r->stage_steps[i] = c.partition + (uint64_t)lam_max * c.batch;
    *clock = t0 + r->stage_steps[i];
    return 0;
}

int rs__bb_route(struct rs__bb_run *r, struct rs_err *err)
{
    struct bb s;
    RS_ASSERT(r != NULL && r->pb != NULL && r->bits >= 1);
    RS_ASSERT(r->m == 0 || (r->src != NULL && r->dst != NULL));
    memset(&s, 0, sizeof s);
    s.r = r;
    s.pb = r->pb;
    s.n = r->pb->ft.n;
    s.N = r->pb->ft.N;
    if (r->m >= UINT32_MAX)
        return rs_err_set(err, RS_EINVAL, "algorithm=bay_bilardi: at most 2^32 - 2 messages");
    r->bit_steps = r->setup = r->batch_rounds = r->sidetracks = r->sidetrack_max = 0;
    r->compression_conflicts = r->delivered = r->makespan = 0;
    r->le1_batches = r->le1_conflicts = 0;
    r->lambda_t_max = r->lt_stage = r->lt_subtree = r->st_leaf = r->st_stage = r->st_round = 0;
    memset(r->stage_steps, 0, sizeof r->stage_steps);
    memset(r->stage_lambda, 0, sizeof r->stage_lambda);
    memset(r->stage_msgs, 0, sizeof r->stage_msgs);
    if (bb_alloc(&s, r->m)) {
        bb_free(&s);
        return rs_err_set(err, RS_ENOMEM, "out of memory for the bay_bilardi state");
    }
    /* set-up: every message at its source; src == dst is delivered at once */
    uint64_t at_src = 0, here = 0;
    for (uint64_t m = 0; m < r->m; m++) {
        RS_ASSERT(r->src[m] < s.N && r->dst[m] < s.N);
        s.pos[m] = r->src[m];
        s.lcnt[r->src[m]]++;
        if (s.lcnt[r->src[m]] > at_src)
            at_src = s.lcnt[r->src[m]];
        if (r->src[m] == r->dst[m]) {
            here++;
            if (r->finish)
                r->finish[m] = 0;
        } else {
            s.live[s.n_live++] = (uint32_t)m;
        }
    }
    r->delivered = here;
    int rc = lat_add(&s, 0, here);
    struct rs__bb_cost cm;
    rs__bb_cost_init(&cm, s.n, r->bits, r->m);
    r->setup = rs__bb_setup_cost(&cm, at_src);
    uint64_t clock = r->setup;
    for (uint32_t i = 0; i < s.n && !rc; i++)
        rc = stage(&s, i, &clock);
    r->bit_steps = clock;
    if (!rc) { /* latencies from the (time, count) list, in time order */
        struct rs_result lat;
        rs_result_init(&lat);
        rs_lat_summary_sparse(s.lat_t, s.lat_c, s.lat_n, &lat);
        r->latency_p99 = lat.latency_p99;
        r->latency_mean = lat.latency_mean;
    }
    uint64_t left = s.n_live;
    bb_free(&s);
    if (rc)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the bay_bilardi latencies");
    if (left || r->delivered != r->m)
        return rs_err_set(err, RS_EUNFINISHED,
                          "algorithm=bay_bilardi: %llu messages undelivered after %u stages",
                          (unsigned long long)(r->m - r->delivered), s.n);
    return 0;
}
