/* Statistics of sweep results: the summary of a metric over the replications of one point,
 * and two-sample inference between two points from their summaries (Welch's t test, 95%
 * intervals of a difference and of a ratio of means) for claims. */
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

/* One sample as a sweep's statistics file gives it: mean, sample variance (divisor n-1)
 * and number of runs. */
struct rs_sample {
    double mean, var;
    uint32_t n;
};

/* Welch's unequal-variance t test of mean(a) - mean(b). */
struct rs_welch {
    double diff;   /* mean_a - mean_b */
    double se;     /* sqrt(var_a/n_a + var_b/n_b) */
    double df;     /* Welch-Satterthwaite degrees of freedom; INFINITY when se == 0 */
    double t;      /* diff / se; +-INFINITY when se == 0 < |diff|; 0 when both are 0 */
    double p;      /* two-sided p-value: 2 P(T_df > |t|) (0 when se == 0 < |diff|, 1 when
                      diff == se == 0) */
    double lo, hi; /* 95% confidence interval of diff: diff -+ t(0.975, df) se */
};

/* Welch's test of two independent samples. Returns 0, or -1 (w untouched) when a sample
 * has fewer than 2 runs (no variance) or a value is not finite. */
int rs_welch(const struct rs_sample *a, const struct rs_sample *b, struct rs_welch *w);

enum rs_ratio_method {
    RS_RATIO_FIELLER, /* Fieller's theorem: the set of R with |mean_a - R mean_b| <= t se(R) */
    RS_RATIO_DELTA    /* delta method: R -+ t sqrt(var_a/n_a + R^2 var_b/n_b) / |mean_b| */
};

/* The ratio of means R = mean_a / mean_b of two independent samples and its 95% interval.
 * Both methods use t(0.975, df) with the Welch-Satterthwaite df of mean_a - R mean_b
 * (normal quantile when both variances are 0). */
struct rs_ratio {
    double ratio;
    double lo, hi; /* the interval; -INFINITY, +INFINITY when unbounded */
    double df;
    int bounded;   /* 0: Fieller's set is unbounded because mean_b is not significantly
                      different from 0 (mean_b^2 <= t^2 var_b/n_b) */
};

/* Compute *r by method. Returns 0, or -1 when a sample has fewer than 2 runs, mean_b is 0
 * or a value is not finite. */
int rs_ratio_interval(const struct rs_sample *a, const struct rs_sample *b,
                      enum rs_ratio_method method, struct rs_ratio *r);

#endif
