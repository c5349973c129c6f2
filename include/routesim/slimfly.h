/* The Slim Fly (Besta and Hoefler, SC 2014) as topology=slimfly builds it: the McKay-Miller-
 * Siran (MMS) graph of a prime power q = 4w + delta (delta in {-1, 0, 1}) over the field
 * GF(q), its numbering of routers and ports, and the field arithmetic; shared by the
 * topology (src/topo/slimfly.c), its Graphviz export (slimfly_dot.c) and routing=ugal_l_sf
 * (src/route/ugal_sf.c). net->priv of a network with RS_CAP_SLIMFLY is a struct rs_sfly.
 * docs/topologies.md. */
#ifndef ROUTESIM_SLIMFLY_H
#define ROUTESIM_SLIMFLY_H

#include <stdint.h>

#include "routesim/buf.h"
#include "routesim/net.h"

#define RS_SFLY_MAX_Q 256
#define RS_SFLY_NO 0xFFFFu /* "not in the set" in the index tables */

/* Layout: router (0, x, y) is node x*q + y, router (1, m, c) is node q^2 + m*q + c, for field
 * elements x, y, m, c in 0..q-1 (prime q: integers mod q; q = p^n: the polynomial
 * sum c_i t^i written as the base-p number sum c_i p^i). Terminal t sits at router t / p.
 * Ports of (0, x, y): j < half to (0, x, y + X[j]); half + m to (1, m, y - m*x).
 * Ports of (1, m, c): j < half to (1, m, c + X'[j]); half + x to (0, x, m*x + c).
 * X and X' (half = (q - delta)/2 elements each) are listed in increasing element order. */
struct rs_sfly {
    uint32_t q;          /* field size */
    int32_t delta;       /* q = 4w + delta */
    uint32_t xi;         /* the primitive element the generator sets are built from */
    uint32_t half;       /* |X| = |X'| = (q - delta)/2: intra-column ports */
    uint32_t kprime;     /* network radix k' = half + q = (3q - delta)/2 */
    uint32_t p;          /* terminals per router */
    uint32_t routers;    /* 2 q^2 */
    double ugal_threshold; /* UGAL's bias T in flits (routing=ugal_l_sf) */
    /* field tables (q*q entries for add and mul, q for the rest) and the sets */
    const uint16_t *add, *mul, *neg, *inv;
    const uint16_t *X, *Xp;       /* half elements each, increasing */
    const uint16_t *xidx, *xpidx; /* per element: its index in X (X'), or RS_SFLY_NO */
    /* per element d != 0 not in X (X'): the lowest j with d - X[j] in X (X'), else NO */
    const uint16_t *xmid, *xpmid;
    void *block; /* the one allocation that holds every table (owned) */
};

/* The Slim Fly of net, or NULL when net is not one. */
static inline const struct rs_sfly *rs_sfly_of(const struct rs_net *net)
{
    return (net->caps & RS_CAP_SLIMFLY) ? (const struct rs_sfly *)net->priv : NULL;
}

/* a - b in GF(q). */
static inline uint32_t rs_sfly_sub(const struct rs_sfly *s, uint32_t a, uint32_t b)
{
    return s->add[a * s->q + s->neg[b]];
}

/* Hops between routers u and v (0, 1 or 2: the diameter is 2). */
uint32_t rs_sfly_distance(const struct rs_sfly *s, uint32_t u, uint32_t v);

/* The minimal out-port of router u toward router v != u: the port to v when they are
 * adjacent, else the lowest-numbered port whose router is adjacent to v (the middle router
 * of the 2-hop path; when there are several, the lowest port decides). */
uint32_t rs_sfly_min_port(const struct rs_sfly *s, uint32_t u, uint32_t v);

/* Write net (a Slim Fly) as Graphviz with one cluster per column (0, x) and (1, m) of q
 * routers (src/topo/slimfly_dot.c; rs_net_write_dot calls it). Returns 0 or RS_ENOMEM. */
int rs__sfly_write_dot(const struct rs_net *net, struct rs_buf *out);

#endif
