/* Recursive-descent evaluation of arithmetic expressions over named values (see expr.h). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/expr.h"

#define EXPR_MAX_DEPTH 64 /* nesting of parentheses, calls and unary signs */
#define EXPR_MAX_ARGS 16
#define EXPR_MAX_NAME 128

struct parser {
    const char *s;
    rs__expr_lookup lookup;
    void *ctx;
    char *why;
    size_t n;
    int failed;
    int depth;
};

static double expr(struct parser *x);
static double unary(struct parser *x);

static void fail_at(struct parser *x, const char *what)
{
    if (!x->failed)
        snprintf(x->why, x->n, "%s at '%s'", what, *x->s ? x->s : "end");
    x->failed = 1;
}

static void skip(struct parser *x)
{
    while (isspace((unsigned char)*x->s))
        x->s++;
}

/* n! for integers up to 170 by multiplication (exact up to 22!), Γ(x+1) otherwise; NaN
 * for negative x. */
static double factorial(double v)
{
    if (v < 0)
        return NAN;
    if (v == floor(v) && v <= 170) {
        double f = 1;
        for (int i = 2; i <= (int)v; i++)
            f *= i;
        return f;
    }
    return tgamma(v + 1);
}

static double fn_min(const double *a, int n)
{
    double v = a[0];
    for (int i = 1; i < n; i++)
        v = a[i] < v ? a[i] : v;
    return v;
}

static double fn_max(const double *a, int n)
{
    double v = a[0];
    for (int i = 1; i < n; i++)
        v = a[i] > v ? a[i] : v;
    return v;
}

enum fn_id { F_SQRT, F_LOG, F_LOG2, F_LOG10, F_EXP, F_ABS, F_CEIL, F_FLOOR, F_POW, F_MIN, F_MAX,
             F_FACT, F_GAMMA };

static const struct {
    const char *name;
    enum fn_id id;
    int min_args, max_args;
} functions[] = {
    {"sqrt", F_SQRT, 1, 1},        {"log", F_LOG, 1, 1},
    {"log2", F_LOG2, 1, 1},        {"log10", F_LOG10, 1, 1},
    {"exp", F_EXP, 1, 1},          {"abs", F_ABS, 1, 1},
    {"ceil", F_CEIL, 1, 1},        {"floor", F_FLOOR, 1, 1},
    {"pow", F_POW, 2, 2},          {"min", F_MIN, 1, EXPR_MAX_ARGS},
    {"max", F_MAX, 1, EXPR_MAX_ARGS}, {"factorial", F_FACT, 1, 1},
    {"tgamma", F_GAMMA, 1, 1},
};

static double apply(enum fn_id id, const double *a, int n)
{
    switch (id) {
    case F_SQRT: return sqrt(a[0]);
    case F_LOG: return log(a[0]);
    case F_LOG2: return log2(a[0]);
    case F_LOG10: return log10(a[0]);
    case F_EXP: return exp(a[0]);
    case F_ABS: return fabs(a[0]);
    case F_CEIL: return ceil(a[0]);
    case F_FLOOR: return floor(a[0]);
    case F_POW: return pow(a[0], a[1]);
    case F_MIN: return fn_min(a, n);
    case F_MAX: return fn_max(a, n);
    case F_FACT: return factorial(a[0]);
    case F_GAMMA: return tgamma(a[0]);
    }
    return NAN;
}

/* name(arg, ...) with x->s at '(' */
static double call(struct parser *x, const char *name)
{
    int f = -1;
    for (size_t i = 0; i < sizeof functions / sizeof functions[0] && f < 0; i++)
        if (!strcmp(functions[i].name, name))
            f = (int)i;
    if (f < 0) {
        if (!x->failed)
            snprintf(x->why, x->n,
                     "unknown function '%s' (sqrt, log, log2, log10, exp, abs, ceil, floor, pow, "
                     "min, max, factorial, tgamma)",
                     name);
        x->failed = 1;
        return NAN;
    }
    double a[EXPR_MAX_ARGS];
    int n = 0;
    x->s++; /* '(' */
    for (;;) {
        double v = expr(x);
        if (x->failed)
            return NAN;
        if (n == EXPR_MAX_ARGS) {
            fail_at(x, "too many arguments");
            return NAN;
        }
        a[n++] = v;
        skip(x);
        if (*x->s == ',') {
            x->s++;
            continue;
        }
        if (*x->s != ')') {
            fail_at(x, "expected ',' or ')'");
            return NAN;
        }
        x->s++;
        break;
    }
    if (n < functions[f].min_args || n > functions[f].max_args) {
        snprintf(x->why, x->n, "%s() takes %s%d argument%s, got %d", name,
                 functions[f].max_args > functions[f].min_args ? "at least " : "",
                 functions[f].min_args, functions[f].min_args == 1 ? "" : "s", n);
        x->failed = 1;
        return NAN;
    }
    return apply(functions[f].id, a, n);
}

static double primary(struct parser *x)
{
    skip(x);
    if (*x->s == '(') {
        x->s++;
        double v = expr(x);
        skip(x);
        if (*x->s != ')')
            fail_at(x, "expected ')'");
        else
            x->s++;
        return v;
    }
    if (isdigit((unsigned char)*x->s) || *x->s == '.') {
        char *end;
        double v = strtod(x->s, &end);
        if (end == x->s)
            fail_at(x, "expected a number");
        else
            x->s = end;
        return v;
    }
    if (isalpha((unsigned char)*x->s) || *x->s == '_') {
        char name[EXPR_MAX_NAME];
        size_t len = 0;
        while (isalnum((unsigned char)*x->s) || *x->s == '_') {
            if (len == sizeof name - 1) {
                fail_at(x, "name too long");
                return NAN;
            }
            name[len++] = *x->s++;
        }
        name[len] = '\0';
        skip(x);
        if (*x->s == '(')
            return call(x, name);
        double v = NAN;
        if (!x->failed && x->lookup(x->ctx, name, &v, x->why, x->n))
            x->failed = 1;
        return v;
    }
    fail_at(x, "expected a number, a name or '('");
    return NAN;
}

static double power(struct parser *x)
{
    double base = primary(x);
    skip(x);
    if (*x->s != '^')
        return base;
    x->s++;
    return pow(base, unary(x));
}

static double unary(struct parser *x)
{
    skip(x);
    if (++x->depth > EXPR_MAX_DEPTH) {
        fail_at(x, "expression nested too deeply");
        x->depth--;
        return NAN;
    }
    double v;
    if (*x->s == '-') {
        x->s++;
        v = -unary(x);
    } else if (*x->s == '+') {
        x->s++;
        v = unary(x);
    } else {
        v = power(x);
    }
    x->depth--;
    return v;
}

static double term(struct parser *x)
{
    double v = unary(x);
    for (;;) {
        skip(x);
        if (x->failed)
            return NAN;
        if (*x->s == '*') {
            x->s++;
            v *= unary(x);
        } else if (*x->s == '/') {
            x->s++;
            v /= unary(x);
        } else {
            return v;
        }
    }
}

static double expr(struct parser *x)
{
    double v = term(x);
    for (;;) {
        skip(x);
        if (x->failed)
            return NAN;
        if (*x->s == '+') {
            x->s++;
            v += term(x);
        } else if (*x->s == '-') {
            x->s++;
            v -= term(x);
        } else {
            return v;
        }
    }
}

int rs__expr_eval_with(const char *text, rs__expr_lookup lookup, void *ctx, double *out,
                       char *why, size_t n)
{
    struct parser x = {text, lookup, ctx, why, n, 0, 0};
    double v = expr(&x);
    skip(&x);
    if (!x.failed && *x.s)
        fail_at(&x, "unexpected text");
    if (x.failed)
        return -1;
    *out = v;
    return 0;
}

int rs__expr_number(const char *text, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text)
        return -1;
    if (*end == '^') { /* base^exponent */
        const char *e = end + 1;
        double p = strtod(e, &end);
        if (end == e)
            return -1;
        v = pow(v, p);
    }
    while (isspace((unsigned char)*end))
        end++;
    if (*end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int param_lookup(void *ctx, const char *name, double *out, char *why, size_t n)
{
    const struct rs_param *q = rs_params_find(ctx, name);
    if (!q) {
        snprintf(why, n, "unknown key '%s'", name);
        return -1;
    }
    if (rs__expr_number(q->value, out)) {
        snprintf(why, n, "key '%s' is not a number ('%s')", name, q->value);
        return -1;
    }
    return 0;
}

int rs__expr_eval(const char *text, const struct rs_params *p, double *out, char *why,
                  size_t n)
{
    double v;
    if (rs__expr_eval_with(text, param_lookup, (void *)p, &v, why, n))
        return -1;
    if (!isfinite(v)) {
        snprintf(why, n, "the value is not finite");
        return -1;
    }
    *out = v;
    return 0;
}
