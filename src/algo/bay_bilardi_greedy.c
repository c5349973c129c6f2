/* The greedy expansion and compression of 000 §3.1 on the pruned butterfly (Lemma 1,
 * Corollary 1): lockstep moves, a conflict makes the larger-indexed message inactive; and
 * the load factor of such a message set. */
#include "routesim/assert.h"
#include "routesim/bay_bilardi.h"

/* Slot of the edge of channel level l that m_h uses: channel (l, leaf >> (n-l)), edge index
 * h mod W(l-1) (the k of its upper end). Below 2^l W(l-1) <= 2N. */
static inline uint32_t edge_slot(uint32_t n, uint32_t l, uint32_t leaf, uint32_t h)
{
    uint32_t cap = rs__pb_cap(n, l);
    return (leaf >> (n - l)) * cap + (h & (cap - 1));
}

uint32_t rs__bb_greedy(const struct rs__pb *pb, uint32_t i, uint32_t J, int up,
                       const uint32_t *leaf, uint32_t s, uint32_t *slot, uint8_t *inactive_at,
                       int *full)
{
    uint32_t n = pb->ft.n, conflicts = 0;
    RS_ASSERT(i < n && s <= rs__pb_width(n, i) && slot != NULL && inactive_at != NULL);
    for (uint32_t h = 0; h < s; h++) {
        RS_ASSERT(leaf[h] < pb->ft.N && (leaf[h] >> (n - i)) == J);
        RS_ASSERT(h == 0 || leaf[h - 1] <= leaf[h]);
        inactive_at[h] = 0;
    }
    if (full)
        *full = 1;
    for (uint32_t step = 0; step < n - i; step++) {
        uint32_t l = up ? n - step : i + 1 + step; /* channel level crossed in this step */
        uint32_t cap = rs__pb_cap(n, l);
        /* the edges the active messages want, then owners in index order */
        for (uint32_t h = 0; h < s; h++)
            if (!inactive_at[h])
                slot[edge_slot(n, l, leaf[h], h)] = UINT32_MAX;
        uint32_t before = conflicts;
        for (uint32_t h = 0; h < s; h++) {
            if (inactive_at[h])
                continue;
            uint32_t e = edge_slot(n, l, leaf[h], h);
            if (slot[e] == UINT32_MAX) {
                slot[e] = h;
            } else { /* a lower-indexed active message holds the edge */
                inactive_at[h] = (uint8_t)l;
                conflicts++;
            }
        }
        if (!full || conflicts == before)
            continue;
        /* Lemma 1: a channel with a conflict has every edge taken by an active message. The
         * owners (slot[e] == h, h active) of a channel's edges are its distinct used edges. */
        for (uint32_t h = 0; h < s; h++) {
            if (inactive_at[h] != l)
                continue;
            uint32_t chan = leaf[h] >> (n - l), used = 0;
            for (uint32_t k = 0; k < s; k++)
                if (!inactive_at[k] && (leaf[k] >> (n - l)) == chan &&
                    slot[edge_slot(n, l, leaf[k], k)] == k)
                    used++;
            if (used < cap)
                *full = 0;
        }
    }
    return conflicts;
}

uint64_t rs__bb_greedy_load(const struct rs__pb *pb, uint32_t i, const uint32_t *leaf,
                            uint32_t s, uint32_t *cnt)
{
    uint32_t n = pb->ft.n;
    uint64_t best = 0;
    for (uint32_t l = i + 1; l <= n; l++) {
        uint32_t cap = rs__pb_cap(n, l);
        for (uint32_t h = 0; h < s; h++)
            cnt[leaf[h] >> (n - l)] = 0;
        for (uint32_t h = 0; h < s; h++) {
            uint32_t c = ++cnt[leaf[h] >> (n - l)];
            uint64_t v = ((uint64_t)c << n) / cap; /* cap is a power of two: exact */
            if (v > best)
                best = v;
        }
    }
    return best;
}
