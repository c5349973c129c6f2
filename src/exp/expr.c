/* Recursive-descent evaluation of derived grid values (see expr.h). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp/expr.h"

struct parser {
    const char *s;
    const struct rs_params *p;
    char *why;
    size_t n;
    int failed;
};

static double expr(struct parser *x);

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

static double key_value(struct parser *x, const char *name)
{
    const struct rs_param *q = rs_params_find(x->p, name);
    if (!q) {
        snprintf(x->why, x->n, "unknown key '%s'", name);
        x->failed = 1;
        return NAN;
    }
    char *end;
    double v = strtod(q->value, &end);
    if (*end == '^') { /* 2^k */
        double e = strtod(end + 1, &end);
        v = pow(v, e);
    }
    if (*end || end == q->value) {
        snprintf(x->why, x->n, "key '%s' is not a number ('%s')", name, q->value);
        x->failed = 1;
    }
    return v;
}

static double factor(struct parser *x)
{
    skip(x);
    if (*x->s == '-') {
        x->s++;
        return -factor(x);
    }
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
        x->s = end;
        return v;
    }
    if (isalpha((unsigned char)*x->s) || *x->s == '_') {
        char name[64];
        size_t len = 0;
        while ((isalnum((unsigned char)*x->s) || *x->s == '_') && len < sizeof name - 1)
            name[len++] = *x->s++;
        name[len] = '\0';
        skip(x);
        if (*x->s == '(') {
            double a = factor(x);
            if (!strcmp(name, "log2"))
                return log2(a);
            if (!strcmp(name, "sqrt"))
                return sqrt(a);
            if (!strcmp(name, "ceil"))
                return ceil(a);
            if (!strcmp(name, "floor"))
                return floor(a);
            snprintf(x->why, x->n, "unknown function '%s' (log2, sqrt, ceil, floor)", name);
            x->failed = 1;
            return NAN;
        }
        return key_value(x, name);
    }
    fail_at(x, "expected a number, a key or '('");
    return NAN;
}

static double term(struct parser *x)
{
    double v = factor(x);
    for (;;) {
        skip(x);
        if (*x->s == '*') {
            x->s++;
            v *= factor(x);
        } else if (*x->s == '/') {
            x->s++;
            v /= factor(x);
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

int rs__expr_eval(const char *text, const struct rs_params *p, double *out, char *why,
                  size_t n)
{
    struct parser x = {text, p, why, n, 0};
    double v = expr(&x);
    skip(&x);
    if (!x.failed && *x.s)
        fail_at(&x, "unexpected text");
    if (!x.failed && !isfinite(v)) {
        snprintf(why, n, "the value is not finite");
        x.failed = 1;
    }
    if (x.failed)
        return -1;
    *out = v;
    return 0;
}
