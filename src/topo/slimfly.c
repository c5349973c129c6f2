/* topology=slimfly (Besta and Hoefler, SC 2014): the McKay-Miller-Siran graph of a prime
 * power q = 4w + delta, 2q^2 routers of network radix k' = (3q - delta)/2, diameter 2, p
 * terminals per router. Minimal routing (one or two router hops, the middle router by the
 * lowest port), Valiant through the routing layer, VC classes by hop. Numbering and field
 * arithmetic: include/routesim/slimfly.h; docs/topologies.md. */
#include <stdio.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/slimfly.h"

#define SFLY_MAX_TERMINALS (1u << 26)

static const struct rs_optdef sfly_options[] = {
    {"q", RS_OPT_INT, "5", 3, RS_SFLY_MAX_Q, NULL,
     "prime power q = 4w + delta, delta in {-1,0,1} (every prime power from 3 up): 2q^2 "
     "routers of network radix (3q - delta)/2", "1"},
    {"p", RS_OPT_INT, NULL, 1, 1024, NULL,
     "terminals per router (default ceil(k'/2), the paper's full global bandwidth)", "terminals"},
    {"ugal_threshold", RS_OPT_DOUBLE, "0", -1e6, 1e6, NULL,
     "UGAL bias T in flits: minimal unless q_min*H_min > q_nm*H_nm + T (routing=ugal_l_sf)",
     "flits"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* q = prime^n with n >= 1: sets *prime and *n and returns 1; else 0. */
static int prime_power(uint32_t q, uint32_t *prime, uint32_t *n)
{
    uint32_t f = 2;
    while (f * f <= q && q % f)
        f++;
    if (q % f)
        f = q; /* q is prime */
    uint32_t r = q, e = 0;
    while (r % f == 0) {
        r /= f;
        e++;
    }
    *prime = f;
    *n = e;
    return r == 1;
}

/* Digit-wise sum of a and b in base pr (n digits): addition in GF(pr^n). */
static uint32_t poly_add(uint32_t a, uint32_t b, uint32_t pr, uint32_t n)
{
    uint32_t r = 0, w = 1;
    for (uint32_t i = 0; i < n; i++, w *= pr, a /= pr, b /= pr)
        r += (a % pr + b % pr) % pr * w;
    return r;
}

/* a * t modulo the monic f(t) = t^n + sum_{i<n} f_i t^i (f = sum f_i pr^i), in base pr. */
static uint32_t poly_times_t(uint32_t a, uint32_t f, uint32_t pr, uint32_t n)
{
    uint32_t d[16], w = 1, r = 0;
    for (uint32_t i = 0; i < n; i++, a /= pr)
        d[i] = a % pr;
    uint32_t top = d[n - 1];
    for (uint32_t i = n; i-- > 1;)
        d[i] = d[i - 1];
    d[0] = 0;
    for (uint32_t i = 0; i < n; i++, w *= pr, f /= pr) /* t^n = -sum f_i t^i */
        r += (d[i] + top * (pr - f % pr)) % pr * w;
    return r;
}

/* The powers exp[0..q-2] of a primitive element of GF(q), q = pr^n: for n = 1 the smallest
 * primitive root mod pr; for n > 1 the class of t modulo the first monic polynomial (in the
 * order of its lower coefficients read as a base-pr number) of which t is a primitive
 * element. Returns the primitive element. seen is scratch of q bytes. */
static uint32_t primitive_powers(uint32_t q, uint32_t pr, uint32_t n, uint16_t *exp,
                                 uint8_t *seen)
{
    for (uint32_t cand = n == 1 ? 2 : 1; cand < q; cand++) {
        memset(seen, 0, q);
        uint32_t cur = 1, i = 0;
        for (; i < q - 1 && !seen[cur]; i++) {
            seen[cur] = 1;
            exp[i] = (uint16_t)cur;
            cur = n == 1 ? cur * cand % pr : poly_times_t(cur, cand, pr, n);
            if (cur == 0)
                break;
        }
        if (i == q - 1 && cur == 1)
            return n == 1 ? cand : pr; /* t is the element written pr */
    }
    RS_ASSERT(!"every finite field has a primitive element");
    return 0;
}

/* Is the exponent e (0..q-2) of xi in X (set_prime 0) or X' (1) for q = 4w + delta? */
static int in_set(int32_t delta, uint32_t q, uint32_t e, int set_prime)
{
    if (set_prime) /* X' = xi X */
        e = (e + q - 2) % (q - 1);
    if (delta != -1)
        return e % 2 == 0; /* delta = 1: e = 0, 2, .., q-3; delta = 0: e = 0, 2, .., q-2 */
    uint32_t w = (q + 1) / 4; /* even exponents up to 2w-2, odd ones from 2w-1 */
    return e % 2 == 0 ? e <= 2 * w - 2 : e >= 2 * w - 1;
}

/* Fill one generator set (X or X') and its index and middle tables. */
static void fill_set(struct rs_sfly *s, const uint16_t *exp, int set_prime, uint16_t *set,
                     uint16_t *idx, uint16_t *mid)
{
    uint32_t q = s->q, n = 0;
    for (uint32_t a = 0; a < q; a++)
        idx[a] = RS_SFLY_NO;
    for (uint32_t e = 0; e + 1 < q; e++)
        if (in_set(s->delta, q, e, set_prime))
            idx[exp[e]] = 1;
    for (uint32_t a = 0; a < q; a++)
        if (idx[a] != RS_SFLY_NO) {
            idx[a] = (uint16_t)n;
            set[n++] = (uint16_t)a;
        }
    RS_ASSERT(n == s->half);
    for (uint32_t d = 0; d < q; d++) {
        mid[d] = RS_SFLY_NO;
        for (uint32_t j = 0; j < n && d && idx[d] == RS_SFLY_NO; j++)
            if (idx[rs_sfly_sub(s, d, set[j])] != RS_SFLY_NO) {
                mid[d] = (uint16_t)j;
                break;
            }
    }
}

/* Build the field tables and the generator sets into s (q, delta set). */
static int sfly_tables(struct rs_sfly *s, uint32_t pr, uint32_t n, struct rs_err *err)
{
    uint32_t q = s->q;
    size_t words = 2 * (size_t)q * q + 8 * (size_t)q;
    uint16_t *t = rs_calloc(words, sizeof *t), *exp = rs_calloc(q, sizeof *exp);
    uint16_t *log = rs_calloc(q, sizeof *log);
    uint8_t *seen = rs_calloc(q, 1);
    if (!t || !exp || !log || !seen) {
        rs_free(t), rs_free(exp), rs_free(log), rs_free(seen);
        return rs_err_set(err, RS_ENOMEM, "topology=slimfly: out of memory");
    }
    uint16_t *add = t, *mul = add + (size_t)q * q, *neg = mul + (size_t)q * q, *inv = neg + q;
    uint16_t *X = inv + q, *Xp = X + q, *xidx = Xp + q, *xpidx = xidx + q, *xmid = xpidx + q,
             *xpmid = xmid + q;
    s->xi = primitive_powers(q, pr, n, exp, seen);
    for (uint32_t i = 0; i + 1 < q; i++)
        log[exp[i]] = (uint16_t)i;
    for (uint32_t a = 0; a < q; a++) {
        for (uint32_t b = 0; b < q; b++) {
            add[a * q + b] = (uint16_t)poly_add(a, b, pr, n);
            mul[a * q + b] = a && b ? exp[(log[a] + log[b]) % (q - 1)] : 0;
            if (add[a * q + b] == 0)
                neg[a] = (uint16_t)b;
        }
        inv[a] = a ? exp[(q - 1 - log[a]) % (q - 1)] : 0;
    }
    s->block = t;
    s->add = add, s->mul = mul, s->neg = neg, s->inv = inv;
    s->X = X, s->Xp = Xp, s->xidx = xidx, s->xpidx = xpidx, s->xmid = xmid, s->xpmid = xpmid;
    fill_set(s, exp, 0, X, xidx, xmid);
    fill_set(s, exp, 1, Xp, xpidx, xpmid);
    rs_free(exp), rs_free(log), rs_free(seen);
    return 0;
}

static int sfly_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int64_t Q, P;
    double thr;
    int rc;
    if ((rc = rs_opt_int(p, sfly_options, "q", &Q, err)) ||
        (rc = rs_opt_double(p, sfly_options, "ugal_threshold", &thr, err)))
        return rc;
    uint32_t q = (uint32_t)Q, pr, n;
    if (!prime_power(q, &pr, &n))
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=slimfly needs q a prime power (3, 4, 5, 7, 8, 9, 11, 13, "
                          "16, ...: the MMS graph is built over the field GF(q); got q=%u)",
                          q);
    int32_t delta = q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0;
    uint32_t half = (uint32_t)(((int32_t)q - delta) / 2), kprime = half + q;
    P = (kprime + 1) / 2;
    if (rs_params_find(p, "p") && (rc = rs_opt_int(p, sfly_options, "p", &P, err)))
        return rc;
    uint64_t routers = 2ull * q * q, terms = routers * (uint64_t)P;
    if (terms > SFLY_MAX_TERMINALS)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=slimfly needs at most 2^26 terminals (got %llu routers x "
                          "p=%lld)",
                          (unsigned long long)routers, (long long)P);
    struct rs_sfly *s = rs_calloc(1, sizeof *s);
    if (!s)
        return rs_err_set(err, RS_ENOMEM, "topology=slimfly: out of memory");
    s->q = q;
    s->delta = delta;
    s->half = half;
    s->kprime = kprime;
    s->p = (uint32_t)P;
    s->routers = (uint32_t)routers;
    s->ugal_threshold = thr;
    if ((rc = sfly_tables(s, pr, n, err))) {
        rs_free(s);
        return rc;
    }
    net->priv = s;
    net->n_nodes = s->routers;
    net->max_ports = kprime;
    net->n_terminals = (uint32_t)terms;
    net->N = net->n_terminals;
    net->n_channels = routers * kprime;
    net->k = q;
    return 0;
}

static void sfly_destroy(struct rs_net *net)
{
    struct rs_sfly *s = net->priv;
    if (s)
        rs_free(s->block);
    rs_free(s);
    net->priv = NULL;
}

static uint32_t sfly_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                              uint32_t *in_slot)
{
    const struct rs_sfly *s = net->priv;
    uint32_t q = s->q, qq = q * q;
    if (node >= s->routers || port >= s->kprime)
        return RS_NONE;
    uint32_t side = node >= qq, a = node % qq / q, b = node % q, slot, head;
    if (port < s->half) { /* along the column: b + X[j] (side 0) or b + X'[j] (side 1) */
        uint32_t g = side ? s->Xp[port] : s->X[port];
        slot = side ? s->xpidx[s->neg[g]] : s->xidx[s->neg[g]];
        head = node - b + s->add[b * q + g];
    } else if (!side) { /* (0, x=a, y=b) to (1, m, y - m x) */
        uint32_t m = port - s->half;
        slot = s->half + a;
        head = qq + m * q + rs_sfly_sub(s, b, s->mul[m * q + a]);
    } else { /* (1, m=a, c=b) to (0, x, m x + c) */
        uint32_t x = port - s->half;
        slot = s->half + a;
        head = x * q + s->add[s->mul[a * q + x] * q + b];
    }
    if (in_slot)
        *in_slot = slot;
    return head;
}

static uint32_t sfly_src_node(const struct rs_net *net, uint32_t t)
{
    return t / ((const struct rs_sfly *)net->priv)->p;
}

static int sfly_level(const struct rs_net *net, uint32_t node)
{
    (void)net;
    (void)node;
    return -1;
}

/* "(s,a,b)": side, column, position, field elements as integers */
static void sfly_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    const struct rs_sfly *s = net->priv;
    uint32_t qq = s->q * s->q;
    snprintf(buf, n, "(%u,%u,%u)", node >= qq, node % qq / s->q, node % s->q);
}

/* The edge test of the MMS graph: one column and a difference in X (side 0) or X' (side 1);
 * or (0, x, y) and (1, m, c) with y = m x + c. */
static int adjacent(const struct rs_sfly *s, uint32_t u, uint32_t v)
{
    uint32_t q = s->q, qq = q * q;
    uint32_t su = u >= qq, sv = v >= qq, au = u % qq / q, bu = u % q, av = v % qq / q, bv = v % q;
    if (su == sv)
        return au == av && (su ? s->xpidx : s->xidx)[rs_sfly_sub(s, bv, bu)] != RS_SFLY_NO;
    uint32_t x = su ? av : au, y = su ? bv : bu, m = su ? au : av, c = su ? bu : bv;
    return y == s->add[s->mul[m * q + x] * q + c];
}

uint32_t rs_sfly_distance(const struct rs_sfly *s, uint32_t u, uint32_t v)
{
    return u == v ? 0 : adjacent(s, u, v) ? 1 : 2;
}

uint32_t rs_sfly_min_port(const struct rs_sfly *s, uint32_t u, uint32_t v)
{
    uint32_t q = s->q, qq = q * q;
    uint32_t su = u >= qq, sv = v >= qq, au = u % qq / q, bu = u % q, av = v % qq / q, bv = v % q;
    RS_DASSERT(u != v);
    const uint16_t *idx = su ? s->xpidx : s->xidx, *mid = su ? s->xpmid : s->xmid;
    if (su == sv) {
        if (au == av) { /* one column: a generator, or the lowest two-generator split */
            uint32_t d = rs_sfly_sub(s, bv, bu);
            uint32_t j = idx[d] != RS_SFLY_NO ? idx[d] : mid[d];
            RS_ASSERT(j != RS_SFLY_NO); /* diameter 2 */
            return j;
        }
        /* two columns of one side: the one router of the other side on both,
         * side 0: m = (y - y') / (x - x'); side 1: x = (c' - c) / (m - m') */
        uint32_t num = su ? rs_sfly_sub(s, bv, bu) : rs_sfly_sub(s, bu, bv);
        uint32_t r = s->mul[num * q + s->inv[rs_sfly_sub(s, au, av)]];
        return s->half + r;
    }
    /* u and v on different sides: y = m x + c says where the cross edges go */
    uint32_t x = su ? av : au, m = su ? au : av;
    uint32_t y = su ? bv : bu, c = su ? bu : bv;
    uint32_t mx = s->mul[m * q + x];
    if (y == s->add[mx * q + c])
        return s->half + (su ? x : m); /* adjacent */
    /* within u's column to the router adjacent to v, else across to v's column */
    uint32_t d = su ? rs_sfly_sub(s, rs_sfly_sub(s, y, mx), c) /* to (1, m, y - m x) */
                    : rs_sfly_sub(s, s->add[mx * q + c], y);   /* to (0, x, m x + c) */
    if (idx[d] != RS_SFLY_NO)
        return idx[d];
    return s->half + (su ? x : m);
}

/* Minimal: to the router of st->dst in one or two hops; RS_ROUTE_DONE there. */
static uint32_t sfly_route(const struct rs_net *net, uint32_t node, const struct rs_route_state *st)
{
    const struct rs_sfly *s = net->priv;
    uint32_t v = st->dst / s->p;
    return node == v ? RS_ROUTE_DONE : rs_sfly_min_port(s, node, v);
}

static uint32_t sfly_distance(const struct rs_net *net, uint32_t u, uint32_t v)
{
    return rs_sfly_distance(net->priv, u, v);
}

static uint32_t sfly_path_length(const struct rs_net *net, const struct rs_route_state *st)
{
    const struct rs_sfly *s = net->priv;
    return rs_sfly_distance(s, st->src / s->p, st->dst / s->p);
}

/* The hop of the leg: class 0 for its first router-to-router channel, 1 for its second. A
 * minimal route climbs 0 -> 1 and the layer adds bit 1 on Valiant's second leg (0, 1, 2,
 * 3), so the class rises along every route and no cycle of channel dependencies exists. */
static uint32_t sfly_vc_class(const struct rs_net *net, uint32_t node, uint32_t port,
                              const struct rs_route_state *st)
{
    (void)net;
    (void)node;
    (void)port;
    return st->hops ? 1 : 0;
}

const struct rs_topo_ops rs_topo_slimfly = {
    .name = "slimfly",
    .summary = "Slim Fly (Besta and Hoefler 2014): the MMS graph of a prime power q, 2q^2 "
               "routers of radix (3q - delta)/2, diameter 2, p terminals per router",
    .options = sfly_options,
    .caps = RS_CAP_SLIMFLY,
    .build = sfly_build,
    .destroy = sfly_destroy,
    .neighbor = sfly_neighbor,
    .src_node = sfly_src_node,
    .dst_node = sfly_src_node,
    .level = sfly_level,
    .label = sfly_label,
    .route = sfly_route,
    .valiant_via_terminal = 1,
    .path_length = sfly_path_length,
    .vc_class = sfly_vc_class,
    .distance = sfly_distance,
};
