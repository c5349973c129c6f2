/* routing=updown: up*-down* routing (Schroeder et al., Autonet 1991) on any topology whose
 * routes can be read from its neighbour structure (explicit graphs from a file first). The
 * nodes are ranked by a breadth-first search from the root (key updown_root): rank (level,
 * id). A channel u -> v goes up when v ranks below u (nearer the root; within a level the
 * lower id), down otherwise. A legal route takes up channels, then down channels, never up
 * after down; the route taken is a shortest legal one, ties by turning down as early as
 * possible, then by the lowest port. Tables per (destination, node) are built once per run
 * (prepare). Up channels strictly lower the rank and down channels strictly raise it, and no
 * route goes from a down channel to an up one, so channel dependencies are acyclic: deadlock
 * free with one VC class. docs/routing.md. */
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/route.h"

/* Largest table: destinations x nodes entries (8 bytes each: 32 MiB). */
#define UPDOWN_MAX_ENTRIES (1u << 22)
#define NO_PORT UINT16_MAX
#define INF UINT32_MAX

static const struct rs_optdef updown_options[] = {
    {"updown_root", RS_OPT_INT, "0", 0, 4294967294.0, NULL,
     "root node of routing=updown's breadth-first ranking (up = toward it)", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* Where a packet for one destination goes from one node: the up-port (NO_PORT where its
 * route turns down here or earlier), the down-port (NO_PORT at the destination or where no
 * down-only route exists) and the up channels a route starting here takes. */
struct updown_entry {
    uint16_t up, down;
    uint32_t ups;
};

/* The tables (net->route_priv): dst_index[node] (RS_NONE: no terminal is delivered there),
 * entry[dst_index * n_nodes + node]. */
struct updown {
    uint32_t n_nodes, n_dst;
    uint32_t *dst_index;
    struct updown_entry *entry;
    uint32_t root;
};

static void updown_release(void *priv)
{
    struct updown *t = priv;
    if (!t)
        return;
    rs_free(t->dst_index);
    rs_free(t->entry);
    rs_free(t);
}

static int updown_check(const struct rs_net *net, struct rs_err *err)
{
    if (net->paths)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "routing=updown needs a topology whose messages are not given by "
                          "explicit paths (got topology=%s)",
                          net->name);
    if (net->max_ports >= NO_PORT)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "routing=updown handles at most %u ports per node (got %u on "
                          "topology=%s)",
                          NO_PORT - 1, net->max_ports, net->name);
    return 0;
}

/* The work arrays of one prepare step. */
struct work {
    uint32_t n, P;
    uint32_t *level, *order;  /* BFS level (INF: unreached); nodes by rank */
    uint32_t *in_start, *in;  /* tails u of the channels into v: in[in_start[v] .. [v+1]) */
    uint32_t *dist_down, *len; /* per destination: down-only and legal route lengths */
    uint32_t *queue;
};

/* 1 when node a ranks below node b: nearer the root (lower level, then lower id). */
static int below(const struct work *w, uint32_t a, uint32_t b)
{
    return w->level[a] != w->level[b] ? w->level[a] < w->level[b] : a < b;
}

/* In-channel lists, then BFS levels from root over channels taken either way, then the
 * nodes in rank order (level by level, ids increasing; unreached last). */
static void rank_nodes(const struct rs_net *net, struct work *w, uint32_t root)
{
    uint32_t n = w->n, P = w->P;
    memset(w->in_start, 0, (size_t)(n + 1) * sizeof *w->in_start);
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t p = 0; p < P; p++) {
            uint32_t v = net->ops->neighbor(net, u, p, NULL);
            if (v != RS_NONE)
                w->in_start[v + 1]++;
        }
    for (uint32_t v = 0; v < n; v++)
        w->in_start[v + 1] += w->in_start[v];
    uint32_t *fill = w->queue; /* next free slot of each list, then the BFS queue */
    memcpy(fill, w->in_start, (size_t)n * sizeof *fill);
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t p = 0; p < P; p++) {
            uint32_t v = net->ops->neighbor(net, u, p, NULL);
            if (v != RS_NONE)
                w->in[fill[v]++] = u;
        }
    for (uint32_t v = 0; v < n; v++)
        w->level[v] = INF;
    uint32_t head = 0, tail = 0;
    w->level[root] = 0;
    w->queue[tail++] = root;
    while (head < tail) {
        uint32_t u = w->queue[head++];
        for (uint32_t p = 0; p < P; p++) {
            uint32_t v = net->ops->neighbor(net, u, p, NULL);
            if (v != RS_NONE && w->level[v] == INF) {
                w->level[v] = w->level[u] + 1;
                w->queue[tail++] = v;
            }
        }
        for (uint32_t i = w->in_start[u]; i < w->in_start[u + 1]; i++) {
            uint32_t v = w->in[i];
            if (w->level[v] == INF) {
                w->level[v] = w->level[u] + 1;
                w->queue[tail++] = v;
            }
        }
    }
    /* BFS order is by level; within a level sort ids (insertion into the level's run) */
    uint32_t m = 0;
    for (uint32_t i = 0; i < tail; i++) {
        uint32_t v = w->queue[i], j = m++;
        for (; j > 0 && w->level[w->order[j - 1]] == w->level[v] && w->order[j - 1] > v; j--)
            w->order[j] = w->order[j - 1];
        w->order[j] = v;
    }
    for (uint32_t v = 0; v < n; v++)
        if (w->level[v] == INF)
            w->order[m++] = v;
}

/* The entries toward destination node d into e[0..n). */
static void tables_for(const struct rs_net *net, struct work *w, uint32_t d,
                       struct updown_entry *e)
{
    uint32_t n = w->n, P = w->P, head = 0, tail = 0;
    /* shortest down-only routes to d: backward BFS over down channels */
    for (uint32_t v = 0; v < n; v++)
        w->dist_down[v] = INF;
    w->dist_down[d] = 0;
    w->queue[tail++] = d;
    while (head < tail) {
        uint32_t v = w->queue[head++];
        for (uint32_t i = w->in_start[v]; i < w->in_start[v + 1]; i++) {
            uint32_t u = w->in[i];
            if (below(w, u, v) && w->dist_down[u] == INF) { /* u -> v goes down */
                w->dist_down[u] = w->dist_down[v] + 1;
                w->queue[tail++] = u;
            }
        }
    }
    /* shortest legal routes, in rank order (an up channel leads to a node ranked below) */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = w->order[i], best = INF, best_p = NO_PORT, down_p = NO_PORT;
        for (uint32_t p = 0; p < P; p++) {
            uint32_t x = net->ops->neighbor(net, v, p, NULL);
            if (x == RS_NONE || x == v)
                continue;
            if (below(w, x, v)) { /* up */
                if (w->len[x] != INF && w->len[x] + 1 < best) {
                    best = w->len[x] + 1;
                    best_p = p;
                }
            } else if (down_p == NO_PORT && w->dist_down[v] != INF && v != d &&
                       w->dist_down[x] + 1 == w->dist_down[v]) {
                down_p = p;
            }
        }
        e[v].down = (uint16_t)down_p;
        if (w->dist_down[v] <= best) { /* turn down here (or arrived; or unreachable) */
            w->len[v] = w->dist_down[v];
            e[v].up = NO_PORT;
            e[v].ups = 0;
        } else {
            w->len[v] = best;
            e[v].up = (uint16_t)best_p;
            e[v].ups = e[net->ops->neighbor(net, v, best_p, NULL)].ups + 1;
        }
    }
}

static int updown_prepare(const struct rs_net *net, const struct rs_params *p, void **priv,
                          struct rs_err *err)
{
    int64_t root = 0;
    int rc;
    if (p && (rc = rs_opt_int(p, updown_options, "updown_root", &root, err)))
        return rc;
    if ((uint64_t)root >= net->n_nodes)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "updown_root=%lld is not a node of topology=%s (0..%u)",
                          (long long)root, net->name, net->n_nodes - 1);
    uint32_t n = net->n_nodes, n_dst = 0;
    struct updown *t = rs_calloc(1, sizeof *t);
    uint32_t *dst_index = rs_malloc((size_t)n * sizeof *dst_index);
    if (!t || !dst_index) {
        rs_free(t);
        rs_free(dst_index);
        return rs_err_set(err, RS_ENOMEM, "out of memory for routing=updown's tables");
    }
    t->dst_index = dst_index;
    t->n_nodes = n;
    t->root = (uint32_t)root;
    for (uint32_t v = 0; v < n; v++)
        dst_index[v] = RS_NONE;
    for (uint32_t x = 0; x < net->n_terminals; x++) {
        uint32_t d = net->ops->dst_node(net, x);
        if (dst_index[d] == RS_NONE)
            dst_index[d] = n_dst++;
    }
    t->n_dst = n_dst;
    if ((uint64_t)n_dst * n > UPDOWN_MAX_ENTRIES) {
        updown_release(t);
        return rs_err_set(err, RS_ERESOURCE,
                          "routing=updown's tables would hold %llu entries (%u destination "
                          "nodes x %u nodes; at most %u)",
                          (unsigned long long)n_dst * n, n_dst, n, UPDOWN_MAX_ENTRIES);
    }
    struct work w = {n, net->max_ports, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    uint64_t n_ch = 0; /* channels that exist, counted (the in-lists hold one entry each) */
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t q = 0; q < w.P; q++)
            n_ch += net->ops->neighbor(net, u, q, NULL) != RS_NONE;
    w.level = rs_malloc((size_t)n * sizeof *w.level);
    w.order = rs_malloc((size_t)n * sizeof *w.order);
    w.in_start = rs_malloc((size_t)(n + 1) * sizeof *w.in_start);
    w.in = rs_malloc((size_t)(n_ch ? n_ch : 1) * sizeof *w.in);
    w.dist_down = rs_malloc((size_t)n * sizeof *w.dist_down);
    w.len = rs_malloc((size_t)n * sizeof *w.len);
    w.queue = rs_malloc((size_t)n * sizeof *w.queue);
    t->entry = rs_malloc((size_t)n_dst * n * sizeof *t->entry);
    rc = 0;
    if (!w.level || !w.order || !w.in_start || !w.in || !w.dist_down || !w.len || !w.queue ||
        !t->entry)
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for routing=updown's tables");
    if (!rc) {
        rank_nodes(net, &w, t->root);
        for (uint32_t d = 0; d < n; d++)
            if (dst_index[d] != RS_NONE)
                tables_for(net, &w, d, t->entry + (size_t)dst_index[d] * n);
        /* every source node reaches every destination node by a legal route */
        for (uint32_t s = 0; s < net->n_terminals && !rc; s++) {
            uint32_t u = net->ops->src_node(net, s);
            for (uint32_t d = 0; d < n && !rc; d++) {
                if (dst_index[d] == RS_NONE)
                    continue;
                const struct updown_entry *e = t->entry + (size_t)dst_index[d] * n;
                uint32_t v = u, ups = e[u].ups;
                for (uint32_t i = 0; i < ups; i++)
                    v = net->ops->neighbor(net, v, e[v].up, NULL);
                if (v != d && e[v].down == NO_PORT)
                    rc = rs_err_set(err, RS_EUNSUPPORTED,
                                    "routing=updown finds no up*/down* route from node %u to "
                                    "node %u on topology=%s (root %u)",
                                    u, d, net->name, t->root);
            }
        }
    }
    rs_free(w.level);
    rs_free(w.order);
    rs_free(w.in_start);
    rs_free(w.in);
    rs_free(w.dist_down);
    rs_free(w.len);
    rs_free(w.queue);
    if (rc) {
        updown_release(t);
        return rc;
    }
    *priv = t;
    return 0;
}

/* The up-port while the packet has taken fewer up channels than its route from its source
 * does, then the down-port. */
static uint32_t updown_next_port(const struct rs_net *net, uint32_t node,
                                 const struct rs_route_state *st)
{
    const struct updown *t = net->route_priv;
    RS_DASSERT(t != NULL && st->mid == RS_NONE); /* rs_route_prepare ran */
    uint32_t d = net->ops->dst_node(net, st->dst);
    if (node == d)
        return RS_ROUTE_DONE;
    const struct updown_entry *e = t->entry + (size_t)t->dst_index[d] * t->n_nodes;
    uint32_t port = st->hops < e[net->ops->src_node(net, st->src)].ups ? e[node].up : e[node].down;
    /* NO_PORT (a route prepare did not check): a port without a channel, which the walk and
     * the engines report */
    return port == NO_PORT ? net->max_ports : port;
}

const struct rs_routing_ops rs_routing_updown = {
    .name = "updown",
    .summary = "up*/down* on any topology where every pair has a legal route: shortest legal "
               "route, ranks by BFS from updown_root, one VC class",
    .options = updown_options,
    .check = updown_check,
    .prepare = updown_prepare,
    .release = updown_release,
    .next_port = updown_next_port,
};
