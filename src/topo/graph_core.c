/* Adjacency, edge map, explicit paths and shortest-path tables of the explicit-graph
 * topologies, and their shared topology operations. Contracts in graph_core.h. */
#include "topo/graph_core.h"

#include "routesim/alloc.h"
#include "routesim/assert.h"

#include <stdlib.h>
#include <string.h>

/* ---- pair map ---------------------------------------------------------------------- */

static uint64_t pair_key(uint32_t u, uint32_t v)
{
    return ((uint64_t)u << 32 | v) + 1;
}

static uint64_t pair_hash(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    key *= 0xc4ceb9fe1a85ec53ull;
    return key ^ (key >> 33);
}

static int pairmap_grow(struct rs__pairmap *pm)
{
    uint64_t cap = pm->cap ? 2 * pm->cap : 64;
    uint64_t *key = rs_calloc(cap, sizeof *key), *val = rs_malloc(cap * sizeof *val);
    if (!key || !val) {
        rs_free(key);
        rs_free(val);
        return RS_ENOMEM;
    }
    for (uint64_t i = 0; i < pm->cap; i++) {
        if (!pm->key[i])
            continue;
        uint64_t j = pair_hash(pm->key[i]) & (cap - 1);
        while (key[j])
            j = (j + 1) & (cap - 1);
        key[j] = pm->key[i];
        val[j] = pm->val[i];
    }
    rs_free(pm->key);
    rs_free(pm->val);
    pm->key = key;
    pm->val = val;
    pm->cap = cap;
    return 0;
}

int rs__pairmap_put(struct rs__pairmap *pm, uint32_t u, uint32_t v, uint64_t val,
                    uint64_t *old)
{
    if (2 * (pm->used + 1) > pm->cap && pairmap_grow(pm))
        return RS_ENOMEM;
    uint64_t k = pair_key(u, v), j = pair_hash(k) & (pm->cap - 1);
    while (pm->key[j]) {
        if (pm->key[j] == k) {
            if (old)
                *old = pm->val[j];
            return 1;
        }
        j = (j + 1) & (pm->cap - 1);
    }
    pm->key[j] = k;
    pm->val[j] = val;
    pm->used++;
    return 0;
}

int rs__pairmap_get(const struct rs__pairmap *pm, uint32_t u, uint32_t v, uint64_t *val)
{
    if (!pm->cap)
        return 0;
    uint64_t k = pair_key(u, v), j = pair_hash(k) & (pm->cap - 1);
    while (pm->key[j]) {
        if (pm->key[j] == k) {
            *val = pm->val[j];
            return 1;
        }
        j = (j + 1) & (pm->cap - 1);
    }
    return 0;
}

void rs__pairmap_free(struct rs__pairmap *pm)
{
    rs_free(pm->key);
    rs_free(pm->val);
    memset(pm, 0, sizeof *pm);
}

/* ---- adjacency ---------------------------------------------------------------------- */

int rs__graph_init(struct rs__graph *g, uint32_t n, const uint32_t *eu, const uint32_t *ev,
                   uint64_t m, struct rs_err *err)
{
    RS_ASSERT(g != NULL && (m == 0 || (eu != NULL && ev != NULL)));
    RS_ASSERT(n <= RS__GRAPH_MAX_NODES && m <= RS__GRAPH_MAX_EDGES);
    /* the callers refuse self-loops and nodes out of range, naming their source */
    for (uint64_t i = 0; i < m; i++)
        RS_ASSERT(eu[i] < n && ev[i] < n && eu[i] != ev[i]);
    memset(g, 0, sizeof *g);
    g->n = n;
    g->m = m;
    g->out_off = rs_calloc((size_t)n + 1, sizeof *g->out_off);
    g->out_head = rs_malloc((size_t)(m ? m : 1) * sizeof *g->out_head);
    g->out_slot = rs_malloc((size_t)(m ? m : 1) * sizeof *g->out_slot);
    uint32_t *indeg = rs_calloc((size_t)n + 1, sizeof *indeg);
    uint64_t *fill = rs_malloc(((size_t)n + 1) * sizeof *fill);
    if (!g->out_off || !g->out_head || !g->out_slot || !indeg || !fill) {
        rs_free(indeg);
        rs_free(fill);
        rs__graph_free(g);
        return rs_err_set(err, RS_ENOMEM, "out of memory for a graph of %u nodes and %llu "
                          "edges", n, (unsigned long long)m);
    }
    for (uint64_t i = 0; i < m; i++)
        g->out_off[eu[i] + 1]++;
    uint32_t maxdeg = 1;
    for (uint32_t u = 0; u < n; u++) {
        if (g->out_off[u + 1] > maxdeg)
            maxdeg = (uint32_t)g->out_off[u + 1];
        g->out_off[u + 1] += g->out_off[u];
    }
    memcpy(fill, g->out_off, ((size_t)n + 1) * sizeof *fill);
    int rc = 0;
    for (uint64_t i = 0; i < m && !rc; i++) {
        uint64_t at = fill[eu[i]]++;
        g->out_head[at] = ev[i];
        g->out_slot[at] = indeg[ev[i]]++;
        if (indeg[ev[i]] > maxdeg)
            maxdeg = indeg[ev[i]];
        int put = rs__pairmap_put(&g->port_of, eu[i], ev[i], at - g->out_off[eu[i]], NULL);
        if (put < 0)
            rc = rs_err_set(err, RS_ENOMEM, "out of memory for the edge map");
        else if (put > 0)
            rc = rs_err_set(err, RS_EINVARIANT, "edge %u -> %u given twice", eu[i], ev[i]);
    }
    rs_free(indeg);
    rs_free(fill);
    if (rc) {
        rs__graph_free(g);
        return rc;
    }
    g->max_ports = maxdeg;
    return 0;
}

uint32_t rs__graph_port(const struct rs__graph *g, uint32_t u, uint32_t v)
{
    uint64_t port;
    return rs__pairmap_get(&g->port_of, u, v, &port) ? (uint32_t)port : RS_NONE;
}

/* ---- explicit paths ----------------------------------------------------------------- */

/* Records of two words (channel, hop), ordered by channel, then hop. */
static int cmp_rec(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

static int reserve_paths(struct rs__graph *g, uint64_t hops)
{
    struct rs_msg_paths *mp = &g->paths;
    if (mp->n_msgs + 2 > g->paths_cap) {
        uint64_t cap = g->paths_cap ? 2 * g->paths_cap : 64;
        uint64_t *off = rs_realloc(mp->off, cap * sizeof *off);
        if (!off)
            return RS_ENOMEM;
        mp->off = off;
        uint32_t *start = rs_realloc(mp->start, cap * sizeof *start);
        if (!start)
            return RS_ENOMEM;
        mp->start = start;
        g->paths_cap = cap;
        if (mp->n_msgs == 0)
            mp->off[0] = 0;
    }
    uint64_t need = mp->off[mp->n_msgs] + hops;
    if (need > g->hops_cap) {
        uint64_t cap = g->hops_cap ? g->hops_cap : 256;
        while (cap < need)
            cap *= 2;
        uint32_t *head = rs_realloc(mp->head, cap * sizeof *head);
        if (!head)
            return RS_ENOMEM;
        mp->head = head;
        uint32_t *port = rs_realloc(mp->port, cap * sizeof *port);
        if (!port)
            return RS_ENOMEM;
        mp->port = port;
        g->hops_cap = cap;
    }
    return 0;
}

int rs__graph_add_path(struct rs__graph *g, const uint32_t *nodes, uint64_t k, uint64_t *hop,
                       uint64_t *first)
{
    RS_ASSERT(g != NULL && nodes != NULL && k >= 2 && hop != NULL && first != NULL);
    uint64_t hops = k - 1;
    /* (channel, hop) records, sorted: a channel taken twice shows as two neighbours */
    uint64_t *rec = rs_malloc((size_t)hops * 2 * sizeof *rec);
    if (!rec)
        return RS_ENOMEM;
    for (uint64_t i = 0; i < hops; i++) {
        uint32_t port = rs__graph_port(g, nodes[i], nodes[i + 1]);
        if (port == RS_NONE) {
            rs_free(rec);
            *hop = i;
            return RS__PATH_NO_EDGE;
        }
        rec[2 * i] = (uint64_t)nodes[i] * g->max_ports + port;
        rec[2 * i + 1] = i;
    }
    qsort(rec, (size_t)hops, 2 * sizeof *rec, cmp_rec);
    int fault = 0;
    uint64_t bad = 0, early = 0;
    for (uint64_t i = 1; i < hops; i++)
        if (rec[2 * i] == rec[2 * (i - 1)] && (!fault || rec[2 * i + 1] < bad)) {
            /* reported: the earliest second use of any channel, and its first use */
            uint64_t j = i;
            while (j > 0 && rec[2 * (j - 1)] == rec[2 * i])
                j--;
            bad = rec[2 * i + 1];
            early = rec[2 * j + 1];
            fault = 1;
        }
    rs_free(rec);
    if (fault) {
        *hop = bad;
        *first = early;
        return RS__PATH_REPEAT;
    }
    if (reserve_paths(g, hops))
        return RS_ENOMEM;
    struct rs_msg_paths *mp = &g->paths;
    uint64_t at = mp->off[mp->n_msgs];
    mp->start[mp->n_msgs] = nodes[0];
    for (uint64_t i = 0; i < hops; i++) {
        mp->head[at + i] = nodes[i + 1];
        mp->port[at + i] = rs__graph_port(g, nodes[i], nodes[i + 1]);
    }
    mp->off[++mp->n_msgs] = at + hops;
    return RS__PATH_OK;
}

/* ---- shortest paths ----------------------------------------------------------------- */

int rs__graph_shortest_paths(struct rs__graph *g, uint32_t *from, uint32_t *to,
                             struct rs_err *err)
{
    uint32_t n = g->n;
    RS_ASSERT(n <= RS__GRAPH_MAX_SP_NODES && g->dist == NULL);
    uint64_t *in_off = rs_calloc((size_t)n + 1, sizeof *in_off);
    uint32_t *in_tail = rs_malloc((size_t)(g->m ? g->m : 1) * sizeof *in_tail);
    uint32_t *queue = rs_malloc((size_t)n * sizeof *queue);
    g->dist = rs_malloc((size_t)n * n * sizeof *g->dist);
    if (!in_off || !in_tail || !queue || !g->dist) {
        rs_free(in_off);
        rs_free(in_tail);
        rs_free(queue);
        rs_free(g->dist);
        g->dist = NULL;
        return rs_err_set(err, RS_ENOMEM, "out of memory for the distances of %u nodes", n);
    }
    for (uint64_t i = 0; i < g->m; i++)
        in_off[g->out_head[i] + 1]++;
    for (uint32_t v = 0; v < n; v++)
        in_off[v + 1] += in_off[v];
    for (uint32_t u = 0; u < n; u++)
        for (uint64_t i = g->out_off[u]; i < g->out_off[u + 1]; i++)
            in_tail[in_off[g->out_head[i]] + g->out_slot[i]] = u;
    int unreachable = 0;
    for (uint32_t t = 0; t < n; t++) {
        uint16_t *d = g->dist + (size_t)t * n;
        memset(d, 0xff, (size_t)n * sizeof *d);
        d[t] = 0;
        uint32_t qh = 0, qt = 0;
        queue[qt++] = t;
        while (qh < qt) {
            uint32_t v = queue[qh++];
            for (uint64_t i = in_off[v]; i < in_off[v + 1]; i++)
                if (d[in_tail[i]] == UINT16_MAX) {
                    d[in_tail[i]] = (uint16_t)(d[v] + 1);
                    queue[qt++] = in_tail[i];
                }
        }
        for (uint32_t v = 0; v < n && !unreachable; v++)
            if (d[v] == UINT16_MAX) {
                *from = v;
                *to = t;
                unreachable = 1;
            }
    }
    rs_free(in_off);
    rs_free(in_tail);
    rs_free(queue);
    return unreachable;
}

void rs__graph_free(struct rs__graph *g)
{
    rs_free(g->out_off);
    rs_free(g->out_head);
    rs_free(g->out_slot);
    rs__pairmap_free(&g->port_of);
    rs_free(g->dist);
    rs_free(g->paths.off);
    rs_free(g->paths.start);
    rs_free(g->paths.head);
    rs_free(g->paths.port);
    memset(g, 0, sizeof *g);
}

void rs__graph_attach(struct rs_net *net, struct rs__graph *g)
{
    RS_ASSERT(net->priv == (void *)g);
    net->n_nodes = g->n;
    net->max_ports = g->max_ports;
    net->n_terminals = g->n;
    net->N = g->n;
    net->n_channels = g->m;
    net->n_levels = 0;
    net->shape_k = net->shape_n = 0;
    net->paths = g->paths.n_msgs ? &g->paths : NULL;
}

/* ---- topology operations ------------------------------------------------------------ */

static const struct rs__graph *graph_of(const struct rs_net *net)
{
    return (const struct rs__graph *)net->priv;
}

uint32_t rs__graph_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                            uint32_t *in_slot)
{
    const struct rs__graph *g = graph_of(net);
    if (node >= g->n || port >= g->out_off[node + 1] - g->out_off[node])
        return RS_NONE;
    uint64_t i = g->out_off[node] + port;
    if (in_slot)
        *in_slot = g->out_slot[i];
    return g->out_head[i];
}

uint32_t rs__graph_terminal(const struct rs_net *net, uint32_t t)
{
    return t;
}

int rs__graph_level(const struct rs_net *net, uint32_t node)
{
    return -1;
}

static uint32_t dist(const struct rs__graph *g, uint32_t from, uint32_t to)
{
    return g->dist[(size_t)to * g->n + from];
}

uint32_t rs__graph_route(const struct rs_net *net, uint32_t node,
                         const struct rs_route_state *st)
{
    const struct rs__graph *g = graph_of(net);
    if (net->paths) {
        const struct rs_msg_paths *mp = net->paths;
        if (st->msg >= mp->n_msgs)
            return net->max_ports; /* no such message: a port without a channel */
        uint64_t i = mp->off[st->msg] + st->hops;
        return i >= mp->off[st->msg + 1] ? RS_ROUTE_DONE : mp->port[i];
    }
    RS_DASSERT(node < g->n && g->dist != NULL);
    uint32_t target = st->dst, d = dist(g, node, target);
    if (d == 0)
        return RS_ROUTE_DONE;
    for (uint64_t i = g->out_off[node]; i < g->out_off[node + 1]; i++)
        if (dist(g, g->out_head[i], target) + 1 == d)
            return (uint32_t)(i - g->out_off[node]);
    return net->max_ports; /* unreachable (the build refuses such graphs) */
}

uint32_t rs__graph_path_length(const struct rs_net *net, const struct rs_route_state *st)
{
    const struct rs__graph *g = graph_of(net);
    if (net->paths)
        return st->msg < net->paths->n_msgs ? (uint32_t)rs_msg_paths_len(net->paths, st->msg)
                                            : 0;
    return dist(g, st->src, st->dst);
}

int rs__graph_valiant_ok(const struct rs_net *net, struct rs_err *err)
{
    if (net->paths)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "routing=valiant is not possible on topology=%s with explicit "
                          "paths: every message follows its own path",
                          net->name);
    return 0;
}
