/* The bounds of 001 (Cole, Maggs & Sitaraman) as functions of L, C, D, B, in flit steps.
 * Contracts in include/routesim/bounds.h. */
#include <math.h>

#include "routesim/assert.h"
#include "routesim/bounds.h"

/* log2 D with D <= 1 read as 2 (the theorems assume D >= 2). */
static double log_d(double D)
{
    return log2(D < 2 ? 2 : D);
}

double rs_bound_cms_lower(double L, double C, double D, double B)
{
    RS_ASSERT(B >= 1);
    return L * C * pow(D, 1.0 / B) / B;
}

double rs_bound_cms_lower_explicit(double L, double D, double M, double B)
{
    RS_ASSERT(B >= 1);
    return L > D ? (L - D) * M / B : 0.0;
}

double rs_bound_colour_refine(double L, double C, double D, double B)
{
    RS_ASSERT(B >= 1);
    return (L + D) * C * pow(D * log_d(D), 1.0 / B) / B;
}

double rs_bound_colour_refine_thm(double L, double C, double D, double B)
{
    if (C <= B)
        return L + D - 1;
    if (C <= log_d(D))
        return (L + D) * C * pow(D * C, 1.0 / B) / B;
    return rs_bound_colour_refine(L, C, D, B);
}

double rs_bound_cms_butterfly(double L, double q, double n, double B)
{
    RS_ASSERT(B >= 1);
    double logn = log2(n), loglog = log2(log2(q * n));
    if (!(loglog >= 1))
        loglog = 1;
    return L * (q + logn) * pow(logn, 1.0 / B) * loglog / B;
}
