/* Arithmetic expressions over the other keys of a grid point, for derived values such as
 * `per_input = =log2(N)`: numbers, key names, + - * / ( ), log2 sqrt ceil floor. */
#ifndef RS_EXP_EXPR_H
#define RS_EXP_EXPR_H

#include "routesim/params.h"

/* Evaluate text with key names looked up in p (their values must be numbers, 2^k allowed).
 * Returns 0 and *out, or -1 with a one-line reason in why (n bytes). */
int rs__expr_eval(const char *text, const struct rs_params *p, double *out, char *why,
                  size_t n);

#endif
