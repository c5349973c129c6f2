/* Channel crossing counters of the store-and-forward engine (congestion counted during a
 * batch run, docs/model-saf.md "Metrics"): one byte per channel, and past 255 crossings an
 * overflow table (open addressing, linear probing, at most half full) with the crossings
 * beyond 255. Congestion is exact whatever the loads; the common case costs a byte. */
#include <string.h>

#include "engine/saf.h"
#include "routesim/alloc.h"

/* Table position of channel ch (Fibonacci hashing). */
static uint64_t over_pos(const struct saf *s, uint64_t ch)
{
    return ch * 0x9E3779B97F4A7C15ull >> (64 - s->over_bits);
}

/* Put (key, n) into a table with room. */
static void over_put(struct saf *s, uint64_t key, uint32_t n)
{
    uint64_t mask = ((uint64_t)1 << s->over_bits) - 1;
    for (uint64_t h = over_pos(s, key - 1);; h = (h + 1) & mask)
        if (!s->over[h].key) {
            s->over[h].key = key;
            s->over[h].n = n;
            return;
        }
}

int rs__saf_load_over(struct saf *s, uint64_t ch)
{
    uint64_t mask = s->over ? ((uint64_t)1 << s->over_bits) - 1 : 0;
    for (uint64_t h = s->over ? over_pos(s, ch) : 0; s->over; h = (h + 1) & mask) {
        if (s->over[h].key == ch + 1) {
            s->over[h].n++;
            return 0;
        }
        if (!s->over[h].key)
            break;
    }
    if (!s->over || 2 * (s->n_over + 1) > mask + 1) { /* grow (or make) the table */
        struct saf_load_over *old = s->over;
        uint64_t old_n = old ? mask + 1 : 0;
        uint32_t bits = old ? s->over_bits + 1 : 6;
        struct saf_load_over *t = rs_calloc((size_t)1 << bits, sizeof *t);
        if (!t)
            return RS_ENOMEM;
        s->over = t;
        s->over_bits = bits;
        for (uint64_t i = 0; i < old_n; i++)
            if (old[i].key)
                over_put(s, old[i].key, old[i].n);
        rs_free(old);
    }
    over_put(s, ch + 1, 1);
    s->n_over++;
    return 0;
}

uint32_t rs__saf_load_max(const struct saf *s)
{
    uint32_t c = 0;
    uint64_t n = (uint64_t)s->net->n_nodes * s->P;
    for (uint64_t i = 0; i < n; i++)
        c = s->load[i] > c ? s->load[i] : c;
    for (uint64_t h = 0; s->over && h < ((uint64_t)1 << s->over_bits); h++)
        if (s->over[h].key && UINT8_MAX + s->over[h].n > c) /* its byte is 255 */
            c = UINT8_MAX + s->over[h].n;
    return c;
}
