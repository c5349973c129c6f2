/* Summary statistics (mean, variance, extremes, Student-t confidence interval) and
 * two-sample inference (Welch's t test, Fieller and delta-method ratio intervals), with
 * t quantiles and tails from GSL. */
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

static int usable(const struct rs_sample *s)
{
    return s->n >= 2 && isfinite(s->mean) && isfinite(s->var) && s->var >= 0;
}

/* Welch-Satterthwaite degrees of freedom of a sum of two independent variance terms
 * va (from na runs) and vb (from nb runs); INFINITY when both are 0. */
static double satterthwaite(double va, uint32_t na, double vb, uint32_t nb)
{
    double den = va * va / (na - 1) + vb * vb / (nb - 1);
    return den > 0 ? (va + vb) * (va + vb) / den : INFINITY;
}

/* t(0.975, df), the normal quantile for infinite df. */
static double t975(double df)
{
    return isfinite(df) ? gsl_cdf_tdist_Pinv(0.975, df) : gsl_cdf_ugaussian_Pinv(0.975);
}

int rs_welch(const struct rs_sample *a, const struct rs_sample *b, struct rs_welch *w)
{
    if (!usable(a) || !usable(b))
        return -1;
    double va = a->var / a->n, vb = b->var / b->n;
    w->diff = a->mean - b->mean;
    w->se = sqrt(va + vb);
    w->df = satterthwaite(va, a->n, vb, b->n);
    if (w->se > 0) {
        w->t = w->diff / w->se;
        w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
    } else {
        w->t = w->diff > 0 ? INFINITY : w->diff < 0 ? -INFINITY : 0;
        w->p = w->diff != 0 ? 0 : 1;
    }
    double h = t975(w->df) * w->se;
    w->lo = w->diff - h;
    w->hi = w->diff + h;
    return 0;
}

int rs_ratio_interval(const struct rs_sample *a, const struct rs_sample *b,
                      enum rs_ratio_method method, struct rs_ratio *r)
{
    if (!usable(a) || !usable(b) || b->mean == 0)
        return -1;
    double va = a->var / a->n, vb = b->var / b->n, ya = a->mean, yb = b->mean;
    double R = ya / yb;
    r->ratio = R;
    r->df = satterthwaite(va, a->n, R * R * vb, b->n);
    double t = t975(r->df);
    r->bounded = 1;
    if (method == RS_RATIO_DELTA) {
        double h = t * sqrt(va + R * R * vb) / fabs(yb);
        r->lo = R - h;
        r->hi = R + h;
        return 0;
    }
    /* Fieller: (ya - R yb)^2 <= t^2 (va + R^2 vb), a quadratic in R with leading
     * coefficient yb^2 - t^2 vb; bounded when that is positive. */
    double lead = yb * yb - t * t * vb;
    if (lead <= 0) {
        r->bounded = 0;
        r->lo = -INFINITY;
        r->hi = INFINITY;
        return 0;
    }
    double root = t * sqrt(ya * ya * vb + yb * yb * va - t * t * va * vb);
    r->lo = (ya * yb - root) / lead;
    r->hi = (ya * yb + root) / lead;
    return 0;
}
