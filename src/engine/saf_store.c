/* The live queues of the store-and-forward engine, sized by occupancy: a pool of per-node
 * records of queue slots and an open-addressing hash table (linear probing, deletion by
 * backward shift, at most half full) from node id to record. See saf.h, "Queue state sized
 * by occupancy", and docs/model-saf.md. Nothing here changes what the engine decides: queue
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

/* Put (node, rec) into the table, which has room. */
static void ht_put(struct saf *s, uint32_t node, uint32_t rec)
{
    uint64_t h = saf_ht_pos(s, node);
    while (s->ht[h].node != RS_NONE)
        h = (h + 1) & s->ht_mask;
    s->ht[h].node = node;
    s->ht[h].rec = rec;
}

/* A table of 2^bits entries, every live record entered again. */
static int ht_resize(struct saf *s, uint32_t bits)
{
    struct saf_ht *old = s->ht;
    uint64_t old_n = old ? s->ht_mask + 1 : 0, n = (uint64_t)1 << bits;
    struct saf_ht *ht = rs__huge_alloc(n * sizeof *ht);
    if (!ht)
        return RS_ENOMEM;
    memset(ht, 0xff, n * sizeof *ht);
    s->ht = ht;
    s->ht_mask = n - 1;
    s->ht_shift = 64 - bits;
    for (uint64_t i = 0; i < old_n; i++)
        if (old[i].node != RS_NONE)
            ht_put(s, old[i].node, old[i].rec);
    rs__huge_free(old, old_n * sizeof *old);
    return 0;
}

int rs__saf_store_init(struct saf *s, uint32_t nq, uint64_t guess)
{
    uint32_t shift = 0, bits = 10;
    while ((1u << shift) < nq)
        shift++;
    s->qs_shift = shift;
    s->rec_free = RS_NONE;
    if (guess < 64)
        guess = 64;
    while (((uint64_t)1 << bits) < 2 * guess && bits < 40)
        bits++;
    s->rec_used = s->rec_cap = 0;
    int rc = pool_grow(s, guess);
    if (rc)
        return rc;
    return ht_resize(s, bits);
}

void rs__saf_store_free(struct saf *s)
{
    uint64_t cap = s->rec_cap;
    rs__huge_free(s->q, s->q ? slot_bytes(s, cap, sizeof *s->q) : 0);
    rs__huge_free(s->qsel, s->qsel ? slot_bytes(s, cap, sizeof *s->qsel) : 0);
    rs__huge_free(s->granted, s->granted ? slot_bytes(s, cap, sizeof *s->granted) : 0);
    rs__huge_free(s->waiter, s->waiter ? slot_bytes(s, cap, sizeof *s->waiter) : 0);
    rs__huge_free(s->cand, s->cand ? slot_bytes(s, cap, sizeof *s->cand) : 0);
    rs__huge_free(s->ht, s->ht ? (s->ht_mask + 1) * sizeof *s->ht : 0);
    rs_free(s->rnode);
    rs_free(s->fresh);
    s->q = NULL;
    s->qsel = s->granted = s->grant = s->waiter = s->cand = s->rnode = s->fresh = NULL;
    s->ht = NULL;
}

/* Zero the slots of record rec (stores, not memset calls: records are made once per hop
 * in light load). */
static void rec_clear(struct saf *s, uint32_t rec)
{
    uint32_t n = 1u << s->qs_shift, b = rec << s->qs_shift;
    for (uint32_t i = b; i < b + n; i++) {
        s->q[i].count = 0;
        if (s->qsel)
            s->qsel[i] = 0;
        if (s->granted)
            s->granted[i] = 0;
        if (s->waiter)
            s->waiter[i] = 0;
        if (s->cand)
            s->cand[i] = 0;
    }
}

uint32_t rs__saf_rec_get(struct saf *s, uint32_t node)
{
    uint32_t rec = saf_rec_find(s, node);
    if (rec != RS_NONE)
        return rec;
    if (2 * (s->n_live + 1) > s->ht_mask + 1 && ht_resize(s, 65 - s->ht_shift))
        return RS_NONE;
    if (s->rec_free != RS_NONE) {
        rec = s->rec_free;
        s->rec_free = s->q[rec << s->qs_shift].head;
    } else {
        if (s->rec_used == s->rec_cap && pool_grow(s, 2 * (uint64_t)s->rec_cap))
            return RS_NONE;
        rec = s->rec_used++;
    }
    rec_clear(s, rec);
    s->rnode[rec] = node;
    ht_put(s, node, rec);
    s->n_live++;
    return rec;
}

uint32_t rs__saf_slot_get(struct saf *s, uint64_t qi)
{
    uint32_t node = saf_queue_node(s, qi), r = rs__saf_rec_get(s, node);
    return r == RS_NONE ? RS_NONE : (r << s->qs_shift) + saf_queue_index(s, qi, node);
}

/* Take node's entry out of the table (backward shift: the entries after it that may move
 * closer to their home position do, so no probe sequence is broken). */
static void ht_delete(struct saf *s, uint32_t node)
{
    uint64_t i = saf_ht_pos(s, node);
    while (s->ht[i].node != node)
        i = (i + 1) & s->ht_mask;
    for (uint64_t j = i;;) {
        j = (j + 1) & s->ht_mask;
        if (s->ht[j].node == RS_NONE)
            break;
        uint64_t k = saf_ht_pos(s, s->ht[j].node);
        /* j's entry stays when its home k lies cyclically in (i, j] */
        if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
            continue;
        s->ht[i] = s->ht[j];
        i = j;
    }
    s->ht[i].node = RS_NONE;
}

void rs__saf_rec_release(struct saf *s, uint32_t rec)
{
    ht_delete(s, s->rnode[rec]);
    s->rnode[rec] = RS_NONE;
    s->q[rec << s->qs_shift].head = s->rec_free;
    s->rec_free = rec;
    s->n_live--;
}
