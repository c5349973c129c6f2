/* Theorems' bounds as functions, so that runs can print measured/bound. UNITS: flit steps
 * (the time to move one flit across every virtual channel of a link, 001 §1.1). log is
 * log2; D <= 1 is read as D = 2 wherever log D appears (the theorems assume D >= 2). */
#ifndef ROUTESIM_BOUNDS_H
#define ROUTESIM_BOUNDS_H

#include <stdint.h>

/* Cole-Maggs-Sitaraman lower bound (001 Thm 2.2.1), without its constant: L*C*D^(1/B)/B.
 * B >= 1. */
double rs_bound_cms_lower(double L, double C, double D, double B);

/* The explicit count the proof of 001 Thm 2.2.1 establishes for its network: (L-D)*M/B
 * flit steps (at most B of the M messages make progress in a step, each needs L-D
 * progress steps). 0 when L <= D. B >= 1. */
double rs_bound_cms_lower_explicit(double L, double D, double M, double B);

/* Colour-refinement upper bound as the abstract of 001 states it, without its constant:
 * (L+D)*C*(D log D)^(1/B)/B. B >= 1. */
double rs_bound_colour_refine(double L, double C, double D, double B);

/* The same bound by the cases of 001 Thm 2.1.6: L+D-1 when C <= B (one class, nothing
 * blocks); (L+D)*C*(D*C)^(1/B)/B when B < C <= log D (case 1); otherwise
 * (L+D)*C*(D log D)^(1/B)/B (cases 2a and 2). B >= 1. */
double rs_bound_colour_refine_thm(double L, double C, double D, double B);

/* The randomized butterfly algorithm's upper bound (001 Thm 3.1.1 and the abstract), without
 * its constant: L*(q + log n)*log^(1/B) n*log log(q*n)/B flit steps for a q-relation (or a
 * random problem with q messages per input) of L-flit messages on an n-input butterfly with
 * B virtual channels. n >= 2, q >= 1, B >= 1; log log(q*n) below 1 (q*n < 4) is read as 1,
 * as the theorem's w_1(n, q) is a factor that never shrinks the bound. */
double rs_bound_cms_butterfly(double L, double q, double n, double B);

#endif
