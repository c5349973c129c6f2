/* Arithmetic expressions over named values: derived grid values (`per_input = =log2(N)`),
 * claim bounds and predictions over a row of statistics, theory curves of plots. Numbers,
 * names, + - * / ^ ( ), and the functions listed in expr.c (log2, sqrt, pow, min, ...). */
#ifndef RS_EXP_EXPR_H
#define RS_EXP_EXPR_H

#include <stddef.h>

#include "routesim/params.h"

/* The value of a name for an expression: 0 and *out, or -1 with a one-line reason in
 * why[0..n) (e.g. "unknown column 'conge' (did you mean 'congestion_mean'?)"). */
typedef int (*rs__expr_lookup)(void *ctx, const char *name, double *out, char *why, size_t n);

/* Evaluate text, looking names up through lookup(ctx, ...). Grammar (usual precedence;
 * ^ binds tighter than unary minus and associates to the right: -2^2 = -4, 2^3^2 = 512):
 *   expr := term {(+|-) term};  term := unary {(*|/) unary};  unary := (-|+) unary | power
 *   power := primary [^ unary];  primary := number | name | name(expr{,expr}) | (expr)
 * Functions: sqrt log (natural) log2 log10 exp abs ceil floor pow(x,y) min(x,...)
 * max(x,...) factorial(x) (x! for integers, Γ(x+1) otherwise) tgamma(x).
 * Returns 0 and *out, which may be infinite or NaN (the caller decides whether that is an
 * error), or -1 with a one-line reason in why[0..n) for bad syntax, an unknown function,
 * a wrong number of arguments or a failed lookup. */
int rs__expr_eval_with(const char *text, rs__expr_lookup lookup, void *ctx, double *out,
                       char *why, size_t n);

/* Evaluate text with names looked up as keys of p (their values must be numbers, 2^k
 * allowed). Returns 0 and a finite *out, or -1 with a one-line reason in why (n bytes). */
int rs__expr_eval(const char *text, const struct rs_params *p, double *out, char *why,
                  size_t n);

/* Parse the whole of text (surrounding blanks allowed) as a number, also in the form
 * base^exponent ("2^10"). Returns 0 and *out, or -1. */
int rs__expr_number(const char *text, double *out);

#endif
