/* Summary statistics of a metric over the replications of one sweep point. */
#ifndef ROUTESIM_STATS_H
#define ROUTESIM_STATS_H

#include <stdint.h>

struct rs_summary {
    uint32_t n;
    double mean;
    double var;  /* sample variance (divisor n-1); 0 when n == 1 */
    double sd;   /* sqrt(var) */
    double min, max;
    double ci95; /* half-width of the 95% confidence interval of the mean:
                    t(0.975, n-1) * sd / sqrt(n) (Student t, GSL); NaN when n == 1 */
};

/* Summarise x[0..n) (n >= 1) into *s. Uses a two-pass mean/variance. */
void rs_summarize(const double *x, uint32_t n, struct rs_summary *s);

#endif
