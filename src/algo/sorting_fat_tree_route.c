/* The 8 steps of Bay & Bilardi's routing on the sorting fat-tree (000 §4.3) as a timed
 * model: batches by rank mod log N, up-stages by level parity, peak sorts, down-stages;
 * every message's node tracked and checked. Model: docs/papers/bay-bilardi.md §4.2–4.3. */
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/flexsort.h"
#include "routesim/sorting_fat_tree.h"

static uint32_t clog2(uint64_t x)
{
    uint32_t b = 0;
    while ((1ull << b) < x)
        b++;
    return b;
}

static uint32_t lvl(uint32_t id)
{
    return 31u - (uint32_t)__builtin_clz(id);
}

struct ctx {
    struct rs__sft_run *r;
    const struct rs__sft *s;
    uint32_t *at;     /* [m] heap id of the node (or mesh 2^H + q) holding the message */
    uint8_t *peak;    /* [m] */
    uint8_t *bu, *bd; /* [m] up and down batch */
    uint32_t *grp;    /* [m] scratch: message ids grouped by node */
    uint32_t *cnt;    /* [2^H + 2] */
    uint64_t *keys;   /* [m] */
    uint64_t *sorted; /* [m] */
    uint32_t *list;   /* [m] scratch */
};

/* Flexible sorter of a level-k node: s = 2 cap(k+1), l = 2^(n-k). Sorts keys[0..r) for
 * real (checked by rs_fsort_sort) into sorted, adds its time to *t. */
static int node_sort(struct ctx *c, uint32_t k, uint32_t r, uint64_t *t, struct rs_err *err)
{
    struct rs_fsort_time ft;
    uint32_t sz = 2 * c->s->cap[k + 1], l = 1u << (c->s->n - k);
    int rc = rs_fsort_time(c->r->L, sz, r, l, &ft, err);
    if (!rc)
        rc = rs_fsort_sort(c->keys, r, sz, c->sorted, NULL, err);
    *t = rc ? 0 : ft.total;
    return rc;
}

/* Group the n_in messages of in[] by node index at[] - 2^k (level k) into c->grp; cnt[x]
 * gets the start of node x's group (cnt[2^k] = n_in). */
static void group(struct ctx *c, const uint32_t *in, uint32_t n_in, uint32_t k)
{
    uint32_t W = 1u << k;
    memset(c->cnt, 0, (W + 2) * sizeof *c->cnt);
    for (uint32_t x = 0; x < n_in; x++)
        c->cnt[c->at[in[x]] - W + 1]++;
    for (uint32_t x = 1; x <= W; x++)
        c->cnt[x] += c->cnt[x - 1];
    for (uint32_t x = 0; x < n_in; x++)
        c->grp[c->cnt[c->at[in[x]] - W]++] = in[x];
    for (uint32_t x = W; x > 0; x--)
        c->cnt[x] = c->cnt[x - 1];
    c->cnt[0] = 0;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/* Step 4 for batch j: job[k] gets the longest job of a level-k node (k = 0..H), ell[] the
 * upward loads of the batch on every channel (heap id). */
static int up_batch(struct ctx *c, const uint32_t *bat, uint32_t nb, uint64_t *job,
                    uint32_t *ell, struct rs_err *err)
{
    const struct rs__sft *s = c->s;
    uint32_t H = s->H, L = c->r->L;
    for (uint32_t k = H + 1; k-- > 0;) {
        uint32_t n_in = 0;
        for (uint32_t x = 0; x < nb; x++)
            if (lvl(c->at[bat[x]]) == k && c->peak[bat[x]] <= k)
                c->list[n_in++] = bat[x];
        job[k] = 0;
        if (!n_in)
            continue;
        group(c, c->list, n_in, k);
        for (uint32_t v = 0; v < (1u << k); v++) {
            uint32_t a = c->cnt[v], r = c->cnt[v + 1] - a, u = 0;
            uint64_t t = 0;
            if (!r)
                continue;
            if (k < H) {
                for (uint32_t x = 0; x < r; x++)
                    c->keys[x] = ((uint64_t)c->peak[c->grp[a + x]] << 32) | c->grp[a + x];
                int rc = node_sort(c, k, r, &t, err);
                if (rc)
                    return rc;
            } else {
                for (uint32_t x = 0; x < r; x++)
                    c->sorted[x] = c->grp[a + x];
            }
            for (uint32_t x = 0; x < r; x++) {
                uint32_t msg = (uint32_t)c->sorted[x];
                if (c->peak[msg] < k) {
                    if (k == 0)
                        return rs_err_set(err, RS_EINVARIANT,
                                          "sorting_fat_tree: message %u would leave the root",
                                          msg);
                    c->at[msg] >>= 1;
                    u++;
                } else if ((rs__sft_mesh(s, c->r->dst[msg]) >> (H - k)) != v) {
                    return rs_err_set(err, RS_EINVARIANT,
                                      "sorting_fat_tree: message %u stopped at node (%u,%u), "
                                      "not above its destination",
                                      msg, k, v);
                } else {
                    c->bd[msg] = 1; /* stored at its peak by the node's sorter */
                }
            }
            if (k >= 1) {
                t += ceil_div(u, s->cap[k]) * L;
                ell[(1u << k) + v] = u;
            }
            if (t > job[k])
                job[k] = t;
        }
    }
    return 0;
}

/* Step 7 for down-batch j: job[k] the longest job of a level-k node (k = 0..H-1). */
static int down_batch(struct ctx *c, const uint32_t *bat, uint32_t nb, uint64_t *job,
                      struct rs_err *err)
{
    const struct rs__sft *s = c->s;
    uint32_t H = s->H, L = c->r->L;
    for (uint32_t k = 0; k < H; k++) {
        uint32_t n_in = 0;
        for (uint32_t x = 0; x < nb; x++)
            if (lvl(c->at[bat[x]]) == k)
                c->list[n_in++] = bat[x];
        job[k] = 0;
        if (!n_in)
            continue;
        group(c, c->list, n_in, k);
        for (uint32_t v = 0; v < (1u << k); v++) {
            uint32_t a = c->cnt[v], r = c->cnt[v + 1] - a, d[2] = {0, 0};
            uint64_t t = 0;
            if (!r)
                continue;
            for (uint32_t x = 0; x < r; x++)
                c->keys[x] = ((uint64_t)c->r->dst[c->grp[a + x]] << 32) | c->grp[a + x];
            int rc = node_sort(c, k, r, &t, err);
            if (rc)
                return rc;
            for (uint32_t x = 0; x < r; x++) {
                uint32_t msg = (uint32_t)c->sorted[x], q = rs__sft_mesh(s, c->r->dst[msg]);
                if ((q >> (H - k)) != v)
                    return rs_err_set(err, RS_EINVARIANT,
                                      "sorting_fat_tree: message %u at node (%u,%u), not above "
                                      "its destination",
                                      msg, k, v);
                uint32_t ch = (q >> (H - k - 1)) & 1;
                d[ch]++;
                c->at[msg] = 2 * c->at[msg] + ch;
            }
            t += (d[0] > d[1] ? ceil_div(d[0], s->cap[k + 1]) : ceil_div(d[1], s->cap[k + 1])) * L;
            if (t > job[k])
                job[k] = t;
        }
    }
    return 0;
}

/* Ids of the messages of M-bar with batch b[] == j, for each j, into out (grouped), with
 * start[j]. */
static void by_batch(const uint8_t *b, const uint32_t *ids, uint32_t n_ids, uint32_t nb,
                     uint32_t *out, uint32_t *start)
{
    memset(start, 0, (nb + 1) * sizeof *start);
    for (uint32_t x = 0; x < n_ids; x++)
        start[b[ids[x]] + 1]++;
    for (uint32_t j = 1; j <= nb; j++)
        start[j] += start[j - 1];
    uint32_t pos[33];
    memcpy(pos, start, (nb + 1) * sizeof *start);
    for (uint32_t x = 0; x < n_ids; x++)
        out[pos[b[ids[x]]]++] = ids[x];
}

static int route(struct ctx *c, uint32_t *bar, uint32_t nbar, uint32_t *ell, uint32_t *li,
                 struct rs_err *err)
{
    struct rs__sft_run *r = c->r;
    const struct rs__sft *s = c->s;
    uint32_t n = s->n, H = s->H, L = r->L, W = clog2(r->m + 1) + 1, nb = n;
    uint64_t mesh = RS_SFT_MESH_C * s->m + L, sync = 2ull * H, job[RS_SFT_MAX_LOG2N + 2];
    uint32_t start[33], *bat = c->list + r->m; /* list holds 2m */
    int rc;
    /* step 1: the local messages, a mesh sort */
    r->step[0] = mesh;
    /* step 2: peaks (n bits compared), a prefix per level (2 passes of W bits over the
     * n-level terminal tree), batch = rank mod log N (W bits) */
    r->step[1] = H ? n + H * 2ull * (n + W - 1) + W : 0;
    {
        uint32_t rank[RS_SFT_MAX_LOG2N + 1] = {0};
        for (uint32_t x = 0; x < nbar; x++) /* bar[] is in increasing source order */
            c->bu[bar[x]] = (uint8_t)(rank[c->peak[bar[x]]]++ % nb);
    }
    /* step 3: row-major by batch in each mesh */
    r->step[2] = H ? mesh : 0;
    /* step 4: up-stages; batch j at level k in stage 2j + H - k + (H mod 2) */
    uint64_t *jobs = rs_calloc((size_t)nb * (H + 1), sizeof *jobs);
    if (!jobs)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the stages");
    by_batch(c->bu, bar, nbar, nb, bat, start);
    memset(c->bd, 0, r->m ? r->m : 1);
    for (uint32_t j = 0; j < nb && H; j++) {
        memset(ell, 0, (2u << H) * sizeof *ell);
        if ((rc = up_batch(c, bat + start[j], start[j + 1] - start[j], job, ell, err))) {
            rs_free(jobs);
            return rc;
        }
        memcpy(jobs + (size_t)j * (H + 1), job, (H + 1) * sizeof *job);
        double mx = 0;
        for (uint32_t id = 2; id < (2u << H); id++) {
            uint32_t k = lvl(id), bound = 0;
            if ((double)ell[id] / s->cap[k] > mx)
                mx = (double)ell[id] / s->cap[k];
            for (uint32_t i = 0; i < k; i++)
                bound += (li[(size_t)i * (2u << H) + id] + n - 1) / n;
            r->lemma10_excess += ell[id] > bound;
        }
        r->batch_lambda_a[j] = mx;
    }
    r->stages_up = H ? 2 * (nb - 1) + H + (H & 1) + 1 : 0;
    for (uint32_t t = 0; t < r->stages_up; t++) {
        uint64_t mx = 0;
        for (uint32_t k = 0; k <= H; k++) {
            uint32_t off = H - k + (H & 1);
            if (t < off || (t - off) % 2 || (t - off) / 2 >= nb)
                continue;
            uint64_t v = jobs[(size_t)((t - off) / 2) * (H + 1) + k];
            mx = v > mx ? v : mx;
        }
        r->step[3] += sync + mx;
    }
    for (uint32_t x = 0; x < nbar; x++)
        if (lvl(c->at[bar[x]]) != c->peak[bar[x]] || c->bd[bar[x]] != 1) {
            rs_free(jobs);
            return rs_err_set(err, RS_EINVARIANT,
                              "sorting_fat_tree: message %u did not reach its peak", bar[x]);
        }
    /* steps 5 and 6: each node sorts its peak set by destination, numbers it mod log N,
     * and sorts it by that batch number */
    uint64_t t5 = 0, t6 = 0;
    for (uint32_t k = 0; k < H; k++) {
        uint32_t n_in = 0;
        for (uint32_t x = 0; x < nbar; x++)
            if (c->peak[bar[x]] == k)
                c->list[n_in++] = bar[x];
        if (!n_in)
            continue;
        group(c, c->list, n_in, k);
        for (uint32_t v = 0; v < (1u << k); v++) {
            uint32_t a = c->cnt[v], cnt = c->cnt[v + 1] - a;
            uint64_t t;
            if (!cnt)
                continue;
            for (uint32_t x = 0; x < cnt; x++)
                c->keys[x] = ((uint64_t)r->dst[c->grp[a + x]] << 32) | c->grp[a + x];
            if ((rc = node_sort(c, k, cnt, &t, err))) {
                rs_free(jobs);
                return rc;
            }
            t5 = t > t5 ? t : t5;
            for (uint32_t x = 0; x < cnt; x++) {
                uint32_t msg = (uint32_t)c->sorted[x];
                c->bd[msg] = (uint8_t)(x % nb);
                c->keys[x] = ((uint64_t)(x % nb) << 32) | msg;
            }
            if ((rc = node_sort(c, k, cnt, &t, err))) {
                rs_free(jobs);
                return rc;
            }
            t6 = t > t6 ? t : t6;
        }
    }
    r->step[4] = H ? sync + t5 : 0;
    r->step[5] = H ? sync + clog2(nb) + t6 : 0;
    /* step 7: down-stages; down-batch j at level k in stage 2j + k */
    by_batch(c->bd, bar, nbar, nb, bat, start);
    for (uint32_t j = 0; j < nb && H; j++) {
        if ((rc = down_batch(c, bat + start[j], start[j + 1] - start[j], job, err))) {
            rs_free(jobs);
            return rc;
        }
        memcpy(jobs + (size_t)j * (H + 1), job, H * sizeof *job);
    }
    r->stages_down = H ? 2 * (nb - 1) + H : 0;
    for (uint32_t t = 0; t < r->stages_down; t++) {
        uint64_t mx = 0;
        for (uint32_t k = 0; k < H; k++) {
            if (t < k || (t - k) % 2 || (t - k) / 2 >= nb)
                continue;
            uint64_t v = jobs[(size_t)((t - k) / 2) * (H + 1) + k];
            mx = v > mx ? v : mx;
        }
        r->step[6] += sync + mx;
    }
    rs_free(jobs);
    /* step 8: every message in its destination's mesh, a mesh sort */
    r->step[7] = H ? mesh : 0;
    for (uint32_t x = 0; x < nbar; x++)
        if (c->at[bar[x]] != (1u << H) + rs__sft_mesh(s, r->dst[bar[x]]))
            return rs_err_set(err, RS_EINVARIANT,
                              "sorting_fat_tree: message %u landed in mesh %u, not its "
                              "destination's",
                              bar[x], c->at[bar[x]] - (1u << H));
    return 0;
}

int rs__sft_route(struct rs__sft_run *r, struct rs_err *err)
{
    const struct rs__sft *s = r->s;
    RS_ASSERT(s != NULL && r->m < (1ull << 31));
    uint32_t m = (uint32_t)r->m, H = s->H, n = s->n;
    memset(r->step, 0, sizeof r->step);
    memset(r->batch_lambda_a, 0, sizeof r->batch_lambda_a);
    r->L = r->bits + 2 * n + clog2(H + 1) + clog2(n);
    r->local = r->delivered = r->lemma10_excess = 0;
    r->lambda = r->lambda_a = r->lambda_d = 0;
    struct ctx c = {.r = r, .s = s};
    size_t M = m ? m : 1, C = 2u << H;
    c.at = rs_malloc(M * sizeof *c.at);
    c.peak = rs_malloc(M);
    c.bu = rs_malloc(M);
    c.bd = rs_malloc(M);
    c.grp = rs_malloc(M * sizeof *c.grp);
    c.cnt = rs_malloc((C + 2) * sizeof *c.cnt);
    c.keys = rs_malloc(M * sizeof *c.keys);
    c.sorted = rs_malloc(M * sizeof *c.sorted);
    c.list = rs_malloc(2 * M * sizeof *c.list);
    uint32_t *bar = rs_malloc(M * sizeof *bar), *ell = rs_calloc(C, sizeof *ell);
    uint32_t *li = rs_calloc((size_t)(H ? H : 1) * C, sizeof *li);
    uint32_t *ld = rs_calloc(C, sizeof *ld), *la = rs_calloc(C, sizeof *la);
    int rc = 0;
    if (!c.at || !c.peak || !c.bu || !c.bd || !c.grp || !c.cnt || !c.keys || !c.sorted ||
        !c.list || !bar || !ell || !li || !ld || !la) {
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for algorithm=sorting_fat_tree");
        goto out;
    }
    /* M-bar in increasing source order (a counting sort by source) */
    uint32_t nbar = 0;
    {
        uint32_t *by_src = rs_malloc((size_t)s->N * sizeof *by_src);
        if (!by_src) {
            rc = rs_err_set(err, RS_ENOMEM, "out of memory for algorithm=sorting_fat_tree");
            goto out;
        }
        for (uint32_t t = 0; t < s->N; t++)
            by_src[t] = UINT32_MAX;
        for (uint32_t x = 0; x < m; x++)
            by_src[r->src[x]] = x;
        for (uint32_t t = 0; t < s->N; t++) {
            uint32_t x = by_src[t];
            if (x == UINT32_MAX)
                continue;
            uint32_t qs = rs__sft_mesh(s, r->src[x]), qt = rs__sft_mesh(s, r->dst[x]);
            c.peak[x] = (uint8_t)rs__sft_peak(s, qs, qt);
            c.at[x] = (1u << H) + qs;
            if (qs == qt) {
                r->local++;
                continue;
            }
            bar[nbar++] = x;
            for (uint32_t k = c.peak[x] + 1; k <= H; k++) {
                uint32_t ida = (1u << k) + (qs >> (H - k)), idd = (1u << k) + (qt >> (H - k));
                la[ida]++;
                ld[idd]++;
                li[(size_t)c.peak[x] * C + ida]++;
            }
        }
        rs_free(by_src);
    }
    for (uint32_t id = 2; id < C; id++) {
        double cap = s->cap[lvl(id)];
        r->lambda_a = la[id] / cap > r->lambda_a ? la[id] / cap : r->lambda_a;
        r->lambda_d = ld[id] / cap > r->lambda_d ? ld[id] / cap : r->lambda_d;
        r->lambda = (la[id] + ld[id]) / cap > r->lambda ? (la[id] + ld[id]) / cap : r->lambda;
    }
    if ((rc = route(&c, bar, nbar, ell, li, err)))
        goto out;
    r->bit_steps = 0;
    for (int i = 0; i < 8; i++)
        r->bit_steps += r->step[i];
    r->delivered = r->local + nbar;
    if (r->finish)
        for (uint32_t x = 0; x < m; x++)
            r->finish[x] = c.peak[x] == H ? r->step[0] : r->bit_steps;
out:
    rs_free(c.at);
    rs_free(c.peak);
    rs_free(c.bu);
    rs_free(c.bd);
    rs_free(c.grp);
    rs_free(c.cnt);
    rs_free(c.keys);
    rs_free(c.sorted);
    rs_free(c.list);
    rs_free(bar);
    rs_free(ell);
    rs_free(li);
    rs_free(ld);
    rs_free(la);
    return rc;
}
