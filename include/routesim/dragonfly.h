/* The dragonfly (Kim, Dally, Scott, Abts 2008) as topology=dragonfly builds it: the numbering
 * of its terminals, routers, ports and global links, shared by the topology
 * (src/topo/dragonfly.c), the UGAL routings (src/route/ugal.c) and traffic=group_shift.
 * net->priv of a network with RS_CAP_DRAGONFLY is a struct rs_dfly. docs/topologies.md. */
#ifndef ROUTESIM_DRAGONFLY_H
#define ROUTESIM_DRAGONFLY_H

#include <stdint.h>

#include "routesim/buf.h"
#include "routesim/net.h"

/* Global-link arrangements (the `arrangement` key). Group G numbers its a*h global links
 * k = r*h + j (router r, global port j); link k leads to group rs_dfly_peer(G, k). */
enum rs_dfly_arrangement {
    RS_DFLY_ABSOLUTE = 0, /* d = k mod (g-1): the d-th other group in increasing order */
    RS_DFLY_RELATIVE = 1, /* d = k mod (g-1): group (G + d + 1) mod g */
    RS_DFLY_CIRCULANT = 2 /* g = a*h + 1: k = 2m goes to G + m + 1, k = 2m + 1 to G - m - 1 */
};

/* Layout: terminals are nodes 0 .. N-1 (N = p*a*g), router r of group G is node
 * N + G*a + r. A terminal has one port (0, to its router). A router's ports are
 * 0 .. p-1 to its terminals, p .. p+a-2 local (index i to router i, or i+1 when i >= r),
 * p+a-1 .. p+a-1+h-1 global. */
struct rs_dfly {
    uint32_t p, a, h, g;     /* terminals per router, routers per group, global per router, groups */
    uint32_t arrangement;    /* enum rs_dfly_arrangement */
    uint32_t par;            /* global links between two groups: a*h / (g-1) */
    uint32_t N;              /* terminals: p*a*g */
    double ugal_threshold;   /* UGAL's bias T in flits (routing=ugal_l, ugal_g) */
};

/* The dragonfly of net, or NULL when net is not one. */
static inline const struct rs_dfly *rs_dfly_of(const struct rs_net *net)
{
    return (net->caps & RS_CAP_DRAGONFLY) ? (const struct rs_dfly *)net->priv : NULL;
}

/* Group of terminal t. */
static inline uint32_t rs_dfly_term_group(const struct rs_dfly *d, uint32_t t)
{
    return t / (d->p * d->a);
}

/* Router node of terminal t. */
static inline uint32_t rs_dfly_term_router(const struct rs_dfly *d, uint32_t t)
{
    return d->N + t / d->p;
}

/* Group of router node v (v >= N). */
static inline uint32_t rs_dfly_group(const struct rs_dfly *d, uint32_t v)
{
    return (v - d->N) / d->a;
}

/* Index (0 .. a-1) of router node v within its group. */
static inline uint32_t rs_dfly_index(const struct rs_dfly *d, uint32_t v)
{
    return (v - d->N) % d->a;
}

/* First global port of a router. */
static inline uint32_t rs_dfly_gport0(const struct rs_dfly *d)
{
    return d->p + d->a - 1;
}

/* The local port of router index r toward router index r2 of its group (r2 != r). */
static inline uint32_t rs_dfly_local_port(const struct rs_dfly *d, uint32_t r, uint32_t r2)
{
    return d->p + (r2 < r ? r2 : r2 - 1);
}

/* Group that global link k (0 .. a*h-1) of group G leads to. */
uint32_t rs_dfly_peer(const struct rs_dfly *d, uint32_t G, uint32_t k);

/* Global link (k, 0 .. a*h-1) of group G that is the lane-th (0 .. par-1) link to group D
 * (D != G). */
uint32_t rs_dfly_link_to(const struct rs_dfly *d, uint32_t G, uint32_t D, uint32_t lane);

/* Lane (0 .. par-1) of global link k, i.e. rs_dfly_link_to(G, peer, lane) == k. */
uint32_t rs_dfly_lane(const struct rs_dfly *d, uint32_t k);

/* The out-port of router node v (group G != D) that starts its shortest path to group D on
 * lane lane: the global port when v holds that link, else the local port to the router that
 * does. */
uint32_t rs_dfly_port_to_group(const struct rs_dfly *d, uint32_t v, uint32_t D, uint32_t lane);

/* The out-port of router node v toward terminal t in v's own group: the terminal port when
 * t hangs off v, else the local port to t's router. */
uint32_t rs_dfly_port_to_term(const struct rs_dfly *d, uint32_t v, uint32_t t);

/* Write net (a dragonfly) as Graphviz with one cluster per group (src/topo/dragonfly_dot.c;
 * rs_net_write_dot calls it). Returns 0 or RS_ENOMEM. */
int rs__dfly_write_dot(const struct rs_net *net, struct rs_buf *out);

#endif
