/* Statistics of one run: the nearest-rank percentile of a histogram, latency summaries and
 * the growable latency histogram every engine, open loop and the algorithms use. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/metrics.h"

double rs_hist_percentile(const uint64_t *hist, size_t len, uint64_t n, double frac)
{
    RS_ASSERT(frac > 0 && frac <= 1 && (hist != NULL || len == 0));
    if (n == 0)
        return NAN;
    uint64_t need = (uint64_t)ceil(frac * (double)n), cum = 0;
    if (need == 0)
        need = 1;
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
