/* Statistics of one run: the nearest-rank percentile of a histogram, latency summaries, the
 * growable latency histogram and rs_result_latency, the one path from per-message finish
 * times to the result's latency statistics that every engine and algorithm uses. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/metrics.h"

/* The rank of the nearest-rank percentile frac of n values: ceil(frac n), at least 1. */
static uint64_t nearest_rank(uint64_t n, double frac)
{
    uint64_t need = (uint64_t)ceil(frac * (double)n);
    return need ? need : 1;
}

double rs_hist_percentile(const uint64_t *hist, size_t len, uint64_t n, double frac)
{
    RS_ASSERT(frac > 0 && frac <= 1 && (hist != NULL || len == 0));
    if (n == 0)
        return NAN;
    uint64_t need = nearest_rank(n, frac), cum = 0;
    for (size_t v = 0; v < len; v++) {
        cum += hist[v];
        if (cum >= need)
            return (double)v;
    }
    RS_ASSERT(!"the histogram holds fewer than n values");
    return NAN;
}

void rs_hist_summary(const uint64_t *hist, size_t len, struct rs_result *r)
{
    RS_ASSERT(r != NULL && (hist != NULL || len == 0));
    uint64_t n = 0;
    double sum = 0;
    size_t last = 0;
    for (size_t v = 0; v < len; v++)
        if (hist[v]) {
            n += hist[v];
            sum += (double)v * (double)hist[v];
            last = v;
        }
    if (n == 0) {
        r->latency_mean = r->latency_p99 = r->latency_max = NAN;
        return;
    }
    r->latency_mean = sum / (double)n;
    r->latency_p99 = rs_hist_percentile(hist, len, n, 0.99);
    r->latency_max = (double)last;
}

void rs_lat_hist_init(struct rs_lat_hist *h)
{
    memset(h, 0, sizeof *h);
}

void rs_lat_hist_free(struct rs_lat_hist *h)
{
    rs_free(h->count);
    rs_lat_hist_init(h);
}

int rs_lat_hist_add(struct rs_lat_hist *h, uint32_t v)
{
    if (v >= h->cap) {
        uint64_t ncap = h->cap ? h->cap : 64;
        while (ncap <= v)
            ncap *= 2;
        uint64_t *c = rs_realloc(h->count, (size_t)ncap * sizeof *c);
        if (!c)
            return RS_ENOMEM;
        memset(c + h->cap, 0, (size_t)(ncap - h->cap) * sizeof *c);
        h->count = c;
        h->cap = ncap > UINT32_MAX ? UINT32_MAX : (uint32_t)ncap;
    }
    h->count[v]++;
    h->n++;
    return 0;
}

/* The loop of rs_result_latency for one shape of source, its tests hoisted out of the loop
 * (FIN: the finish array; DELIVERED(m): whether m counts; REL(m): its release step). */
#define RS__LAT_LOOP(FIN, DELIVERED, REL)                                                      \
    for (size_t m = 0; m < src->n && !rc; m++) {                                               \
        if (!(DELIVERED))                                                                      \
            continue;                                                                          \
        uint64_t lat = (uint64_t)(FIN)[m] - (REL);                                             \
        rc = lat > UINT32_MAX ? RS_ERESOURCE : rs_lat_hist_add(&h, (uint32_t)lat);             \
    }

int rs_result_latency(struct rs_result *r, const struct rs_lat_source *src)
{
    RS_ASSERT(r && src && (src->finish || src->finish64 || src->n == 0));
    struct rs_lat_hist h;
    int rc = 0;
    rs_lat_hist_init(&h);
    const uint32_t *f32 = src->finish, *rel = src->release;
    const uint64_t *f64 = src->finish64;
    const uint8_t *stv = src->state;
    const uint8_t want = src->delivered;
    const uint64_t none = src->none;
    if (f32 && !stv && !rel) { /* wave, cms_butterfly: a sentinel, all released at 0 */
        RS__LAT_LOOP(f32, f32[m] != none, 0)
    } else if (f32 && stv) { /* circuit, flit: a fate per message, release steps */
        RS__LAT_LOOP(f32, stv[m] == want, rel ? rel[m] : 0)
    } else if (f64 && !stv && !rel) { /* the line simulator's 64-bit finish steps */
        RS__LAT_LOOP(f64, f64[m] != none, 0)
    } else { /* any other shape */
        for (size_t m = 0; m < src->n && !rc; m++) {
            uint64_t f = f32 ? f32[m] : f64[m];
            if (stv ? stv[m] != want : f == none)
                continue;
            uint64_t lat = f - (rel ? rel[m] : 0);
            rc = lat > UINT32_MAX ? RS_ERESOURCE : rs_lat_hist_add(&h, (uint32_t)lat);
        }
    }
    if (!rc)
        rs_hist_summary(h.count, h.cap, r);
    rs_lat_hist_free(&h);
    return rc;
}
#undef RS__LAT_LOOP

void rs_lat_summary_sparse(const uint64_t *value, const uint64_t *count, size_t len,
                           struct rs_result *r)
{
    RS_ASSERT(r != NULL && ((value && count) || len == 0));
    uint64_t n = 0, cum = 0;
    double sum = 0;
    for (size_t i = 0; i < len; i++)
        n += count[i];
    r->latency_mean = r->latency_p99 = r->latency_max = NAN;
    if (n == 0)
        return;
    uint64_t need = nearest_rank(n, 0.99);
    for (size_t i = 0; i < len; i++) {
        RS_ASSERT(i == 0 || value[i] >= value[i - 1]);
        sum += (double)value[i] * (double)count[i];
        cum += count[i];
        if (isnan(r->latency_p99) && cum >= need)
            r->latency_p99 = (double)value[i];
        if (count[i])
            r->latency_max = (double)value[i];
    }
    r->latency_mean = sum / (double)n;
}
