/* The live queues of the store-and-forward engine, sized by occupancy: a pool of per-node
 * records of queue slots and a two-level index from node id to record (a directory of
 * pages of SAF_PG record indices, a page present only while it indexes a record). See
 * saf.h, "Queue state sized by occupancy", and docs/model-saf.md. Nothing here changes what the engine decides: queue
 * ids, and so every random draw and every order, are those of the full per-port arrays it
 * replaces. */
#include <string.h>

#include "engine/saf.h"
#include "routesim/alloc.h"
#include "routesim/hugemem.h"

/* Bytes of the slot arrays of cap records. */
static size_t slot_bytes(const struct saf *s, uint64_t cap, size_t elem)
{
    return (size_t)(cap << s->qs_shift) * elem;
}

/* Room for cap records (cap > rec_cap): every slot array this configuration uses moves to
 * a new zeroed block. Returns 0 or RS_ENOMEM (then nothing changed). */
static int pool_grow(struct saf *s, uint64_t cap)
{
    enum { N_ARR = 5 };
    void **arr[N_ARR] = {(void **)&s->q, (void **)&s->qsel, (void **)&s->granted,
                         (void **)&s->waiter, (void **)&s->cand};
    const size_t elem[N_ARR] = {sizeof *s->q, sizeof *s->qsel, sizeof *s->granted,
                                sizeof *s->waiter, sizeof *s->cand};
    const int want[N_ARR] = {
        1, s->proto == SAF_RANDOM || s->proto == SAF_PRIORITY || s->proto == SAF_RANK,
        s->at != SAF_AT_INPUT, s->at == SAF_AT_INPUT && s->on_full == SAF_BLOCK,
        s->proto == SAF_RANK && s->at != SAF_AT_INPUT};
    void *nw[N_ARR] = {NULL};
    if ((cap << s->qs_shift) >= SAF_SRC_BIT) /* slots are move sources below SAF_SRC_BIT */
        return RS_ENOMEM;
    uint32_t *rn = rs_realloc(s->rnode, (size_t)cap * sizeof *rn);
    if (!rn)
        return RS_ENOMEM;
    s->rnode = rn;
    for (int i = 0; i < N_ARR; i++)
        if (want[i] && !(nw[i] = rs__huge_alloc(slot_bytes(s, cap, elem[i])))) {
            while (i-- > 0)
                rs__huge_free(nw[i], want[i] ? slot_bytes(s, cap, elem[i]) : 0);
            return RS_ENOMEM;
        }
    for (int i = 0; i < N_ARR; i++) {
        if (!want[i])
            continue;
        if (*arr[i]) {
            memcpy(nw[i], *arr[i], slot_bytes(s, s->rec_used, elem[i]));
            rs__huge_free(*arr[i], slot_bytes(s, s->rec_cap, elem[i]));
        }
        *arr[i] = nw[i];
    }
    s->grant = s->thr ? NULL : s->granted;
    s->rec_cap = (uint32_t)cap;
    return 0;
}

int rs__saf_store_init(struct saf *s, uint32_t n_nodes, uint32_t nq, uint64_t guess)
{
    uint32_t shift = 0;
    while ((1u << shift) < nq)
        shift++;
    s->qs_shift = shift;
    s->rec_free = RS_NONE;
    s->n_pages = ((uint64_t)n_nodes + SAF_PG - 1) >> SAF_PG_SHIFT;
    s->dir = rs_calloc(s->n_pages + 1, sizeof *s->dir);
    s->dir_live = rs_calloc(s->n_pages + 1, sizeof *s->dir_live);
    if (!s->dir || !s->dir_live)
        return RS_ENOMEM;
    s->rec_used = s->rec_cap = 0;
    return pool_grow(s, guess < 64 ? 64 : guess);
}

void rs__saf_store_free(struct saf *s)
{
    uint64_t cap = s->rec_cap;
    rs__huge_free(s->q, s->q ? slot_bytes(s, cap, sizeof *s->q) : 0);
    rs__huge_free(s->qsel, s->qsel ? slot_bytes(s, cap, sizeof *s->qsel) : 0);
    rs__huge_free(s->granted, s->granted ? slot_bytes(s, cap, sizeof *s->granted) : 0);
    rs__huge_free(s->waiter, s->waiter ? slot_bytes(s, cap, sizeof *s->waiter) : 0);
    rs__huge_free(s->cand, s->cand ? slot_bytes(s, cap, sizeof *s->cand) : 0);
    for (uint64_t p = 0; s->dir && p < s->n_pages; p++)
        rs_free(s->dir[p]);
    for (uint64_t i = 0; i < s->n_spare; i++)
        rs_free(s->spare[i]);
    rs_free(s->dir);
    rs_free(s->dir_live);
    rs_free(s->spare);
    rs_free(s->rnode);
    rs_free(s->fresh);
    s->q = NULL;
    s->qsel = s->granted = s->grant = s->waiter = s->cand = s->rnode = s->fresh = NULL;
    s->dir = s->spare = NULL;
    s->dir_live = NULL;
    s->n_spare = 0;
}

uint32_t rs__saf_rec_make(struct saf *s, uint32_t node)
{
    uint32_t rec;
    uint64_t p = node >> SAF_PG_SHIFT;
    uint32_t *pg = s->dir[p];
    if (!pg) { /* the page's first record: a spare page, or a new one */
        pg = s->n_spare ? s->spare[--s->n_spare] : rs_malloc(SAF_PG * sizeof *pg);
        if (!pg)
            return RS_NONE;
        memset(pg, 0xff, SAF_PG * sizeof *pg);
        s->dir[p] = pg;
    }
    if (s->rec_free != RS_NONE) {
        rec = s->rec_free;
        s->rec_free = s->q[rec << s->qs_shift].head;
    } else {
        if (s->rec_used == s->rec_cap && pool_grow(s, 2 * (uint64_t)s->rec_cap)) {
            if (!s->dir_live[p]) { /* leave no empty page behind */
                rs_free(pg);
                s->dir[p] = NULL;
            }
            return RS_NONE;
        }
        rec = s->rec_used++;
    }
    /* a record comes clean: from the pool's zeroed memory, or released with every slot
     * empty, unselected, unawaited and ungranted (rs__saf_check verifies free records) */
    s->rnode[rec] = node;
    pg[node & (SAF_PG - 1)] = rec;
    s->dir_live[p]++;
    s->n_live++;
    return rec;
}

void rs__saf_page_release(struct saf *s, uint64_t p)
{
    if (s->n_spare == s->spare_cap) {
        uint64_t cap = s->spare_cap ? 2 * s->spare_cap : 64;
        uint32_t **sp = rs_realloc(s->spare, cap * sizeof *sp);
        if (sp) {
            s->spare = sp;
            s->spare_cap = cap;
        }
    }
    if (s->n_spare < s->spare_cap) /* kept for reuse */
        s->spare[s->n_spare++] = s->dir[p];
    else
        rs_free(s->dir[p]);
    s->dir[p] = NULL;
}
