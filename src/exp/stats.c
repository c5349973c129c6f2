/* Summary statistics (mean, variance, extremes, Student-t confidence interval via GSL). */
#include <gsl/gsl_cdf.h>
#include <math.h>

#include "routesim/stats.h"

void rs_summarize(const double *x, uint32_t n, struct rs_summary *s)
{
    double sum = 0, ss = 0;
    s->n = n;
    s->min = s->max = x[0];
    for (uint32_t i = 0; i < n; i++) {
        sum += x[i];
        if (x[i] < s->min)
            s->min = x[i];
        if (x[i] > s->max)
            s->max = x[i];
    }
    s->mean = sum / n;
    for (uint32_t i = 0; i < n; i++)
        ss += (x[i] - s->mean) * (x[i] - s->mean);
    s->var = n > 1 ? ss / (n - 1) : 0.0;
    s->sd = sqrt(s->var);
    s->ci95 = n > 1 ? gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * s->sd / sqrt((double)n) : NAN;
}
