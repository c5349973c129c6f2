/* topology=cms_lower_bound: the network and message set of Cole, Maggs & Sitaraman's lower
 * bound (001 Thm 2.2.1). M' base messages; one primary edge per set of B+1 of them, which
 * all of those messages cross; secondary edges lead from the head of a message's primary
 * edge to the tail of its next one; every base message is replicated C/(B+1) times and
 * its path padded to exactly D hops. Paths: traffic=paths. (docs/topologies.md) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/graph_core.h"
#include "routesim/alloc.h"

static const char *const secondary_names[] = {"used", "all", NULL};
enum { SECONDARY_USED, SECONDARY_ALL };

static const struct rs_optdef cms_options[] = {
    {"B", RS_OPT_INT, "1", 1, 64, NULL,
     "virtual channels per link the bound is built for (a flit engine's vcs follows it unless "
     "set)", "VCs"},
    {"C", RS_OPT_INT, "2", 2, 1048576, NULL,
     "congestion of the message set (a multiple of B+1, >= B+1)", "messages"},
    {"D", RS_OPT_INT, "5", 2, 1048576, NULL, "dilation of the message set (>= B+1)", "channels"},
    {"L", RS_OPT_INT, "10", 2, 1073741824, NULL,
     "message length in flits (> D; a flit engine's length follows it unless set)", "flits"},
    {"secondary", RS_OPT_CHOICE, "used", 0, 0, secondary_names,
     "secondary edges: only those a message takes (used) or every head-to-tail pair (all)", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* The flit engines' vcs and length are the B and L the network is built for, unless the
 * user sets both of a pair (net.h, linked_keys; applied by rs_run). */
static const char *const cms_linked_keys[] = {"B", "vcs", "L", "length", NULL};

/* Limits: primary edges (2 nodes each), all edges, and hops of all paths together. */
#define CMS_MAX_PRIMARY (1u << 22)
#define CMS_MAX_HOPS (1ull << 30)

struct cms {
    struct rs__graph g; /* first member: the shared graph operations read net->priv */
    uint32_t mp;        /* M', base messages */
    uint32_t set;       /* B+1, members of a primary edge's set */
    uint32_t primary;   /* P = binom(M', B+1) primary edges */
    uint32_t ext;       /* padding hops per base message */
    uint32_t *subset;   /* [primary * set] members of primary edge p, increasing */
};

/* binom(n, k), saturated at 2^53. */
static double binom(uint32_t n, uint32_t k)
{
    if (k > n)
        return 0;
    double r = 1;
    for (uint32_t i = 1; i <= k && r < 9007199254740992.0; i++)
        r = r * (double)(n - k + i) / (double)i;
    return r < 9007199254740992.0 ? floor(r + 0.5) : 9007199254740992.0;
}

static void cms_destroy(struct rs_net *net)
{
    struct cms *c = net->priv;
    if (c) {
        rs__graph_free(&c->g);
        rs_free(c->subset);
    }
    rs_free(c);
    net->priv = NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The primary edges in lexicographic order of their sets, and each base message's list of
 * primary edges (increasing: the order in which it crosses them). */
static int make_sets(struct cms *c, uint32_t per_msg, uint32_t **lists)
{
    uint32_t k = c->set, *a = rs_malloc(k * sizeof *a), *fill = rs_calloc(c->mp, sizeof *fill);
    c->subset = rs_malloc((size_t)c->primary * k * sizeof *c->subset);
    *lists = rs_malloc((size_t)c->mp * per_msg * sizeof **lists);
    if (!a || !fill || !c->subset || !*lists) {
        rs_free(a);
        rs_free(fill);
        return RS_ENOMEM;
    }
    for (uint32_t i = 0; i < k; i++)
        a[i] = i;
    for (uint32_t p = 0; p < c->primary; p++) {
        memcpy(c->subset + (size_t)p * k, a, k * sizeof *a);
        for (uint32_t i = 0; i < k; i++)
            (*lists)[(size_t)a[i] * per_msg + fill[a[i]]++] = p;
        int i = (int)k - 1; /* next set: raise the last member that can still rise */
        while (i >= 0 && a[i] == c->mp - k + (uint32_t)i)
            i--;
        if (i < 0)
            break;
        a[i]++;
        for (uint32_t j = (uint32_t)i + 1; j < k; j++)
            a[j] = a[j - 1] + 1;
    }
    rs_free(a);
    rs_free(fill);
    return 0;
}

/* Node ids: primary edge p runs from 2p (its tail) to 2p+1 (its head); padding node
 * k = 1..ext of base message i is 2P + i*ext + k-1. */
static uint32_t tail_of(uint32_t p)
{
    return 2 * p;
}

static uint32_t head_of(uint32_t p)
{
    return 2 * p + 1;
}

/* Every edge as tail << 32 | head, sorted (so out-ports ascend with the head's id and
 * in-slots with the tail's id). */
static int make_edges(const struct cms *c, const uint32_t *lists, uint32_t per_msg,
                      int all, uint64_t **edges, uint64_t *n_edges)
{
    uint64_t cap = c->primary + (uint64_t)c->mp * (per_msg + c->ext) +
                   (all ? (uint64_t)c->primary * (c->primary - 1) : 0);
    uint64_t *e = rs_malloc((size_t)cap * sizeof *e), n = 0;
    if (!e)
        return RS_ENOMEM;
    uint32_t pad0 = 2 * c->primary;
    for (uint32_t p = 0; p < c->primary; p++)
        e[n++] = (uint64_t)tail_of(p) << 32 | head_of(p);
    for (uint32_t i = 0; i < c->mp; i++) {
        const uint32_t *l = lists + (size_t)i * per_msg;
        for (uint32_t j = 0; !all && j + 1 < per_msg; j++)
            e[n++] = (uint64_t)head_of(l[j]) << 32 | tail_of(l[j + 1]);
        uint32_t at = head_of(l[per_msg - 1]);
        for (uint32_t k = 0; k < c->ext; k++) {
            uint32_t next = pad0 + i * c->ext + k;
            e[n++] = (uint64_t)at << 32 | next;
            at = next;
        }
    }
    for (uint32_t p = 0; all && p < c->primary; p++)
        for (uint32_t q = 0; q < c->primary; q++)
            if (q != p)
                e[n++] = (uint64_t)head_of(p) << 32 | tail_of(q);
    qsort(e, (size_t)n, sizeof *e, cmp_u64);
    uint64_t w = 0; /* a secondary edge taken by several messages is one edge */
    for (uint64_t i = 0; i < n; i++)
        if (w == 0 || e[i] != e[w - 1])
            e[w++] = e[i];
    *edges = e;
    *n_edges = w;
    return 0;
}

/* Read and check the parameters; choose M'. */
static int cms_params(const struct rs_params *p, int64_t v[4], int *all, uint32_t *mp,
                      struct rs_err *err)
{
    static const char *const keys[4] = {"B", "C", "D", "L"};
    int rc;
    for (int i = 0; i < 4; i++)
        if ((rc = rs_opt_int(p, cms_options, keys[i], &v[i], err)))
            return rc;
    if ((rc = rs_opt_choice(p, cms_options, "secondary", all, err)))
        return rc;
    int64_t B = v[0], C = v[1], D = v[2], L = v[3];
    if (C < B + 1 || D < B + 1)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=cms_lower_bound needs C >= B+1 and D >= B+1 (001 Thm "
                          "2.2.1; got B=%lld C=%lld D=%lld)",
                          (long long)B, (long long)C, (long long)D);
    if (C % (B + 1))
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=cms_lower_bound needs C a multiple of B+1 (every base "
                          "message is replicated C/(B+1) times; got C=%lld B=%lld)",
                          (long long)C, (long long)B);
    if (L <= D)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=cms_lower_bound needs L > D (L = (1+Omega(1))D: the bound "
                          "(L-D)M/B needs L-D > 0; got L=%lld D=%lld)",
                          (long long)L, (long long)D);
    /* M': 2 binom(M'-1, B) - 1 <= D < 2 binom(M', B) - 1; M' = B+1 gives dilation 1 */
    uint32_t m = (uint32_t)B + 1;
    while (2 * binom(m, (uint32_t)B) - 1 <= (double)D)
        m++;
    *mp = m;
    double P = binom(m, (uint32_t)B + 1);
    double hops = (double)C / (double)(B + 1) * m * (double)D;
    double nodes = 2 * P + m * ((double)D - (2 * binom(m - 1, (uint32_t)B) - 1));
    if (P > CMS_MAX_PRIMARY || hops > (double)CMS_MAX_HOPS || nodes > RS__GRAPH_MAX_NODES ||
        (*all == SECONDARY_ALL && P * (P - 1) > (double)RS__GRAPH_MAX_EDGES))
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=cms_lower_bound with B=%lld C=%lld D=%lld is too large: "
                          "M'=%u base messages, %.0f primary edges, %.0f nodes, %.0f hops (at "
                          "most %u primary edges, 2^24 nodes, 2^30 hops, 2^28 edges)",
                          (long long)B, (long long)C, (long long)D, m, P, nodes, hops,
                          CMS_MAX_PRIMARY);
    return 0;
}

static int cms_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int64_t v[4];
    int all = 0, rc;
    uint32_t mp = 0;
    if ((rc = cms_params(p, v, &all, &mp, err)))
        return rc;
    uint32_t B = (uint32_t)v[0], R = (uint32_t)(v[1] / (v[0] + 1)), D = (uint32_t)v[2];
    struct cms *c = rs_calloc(1, sizeof *c);
    if (!c)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    net->priv = c;
    c->mp = mp;
    c->set = B + 1;
    c->primary = (uint32_t)binom(mp, B + 1);
    uint32_t per_msg = (uint32_t)binom(mp - 1, B); /* primary edges of one message */
    c->ext = D - (2 * per_msg - 1);
    uint32_t *lists = NULL, *nodes = NULL, *eu = NULL, *ev = NULL;
    uint64_t *edges = NULL, n_edges = 0;
    if ((rc = make_sets(c, per_msg, &lists)) ||
        (rc = make_edges(c, lists, per_msg, all == SECONDARY_ALL, &edges, &n_edges)))
        goto oom;
    uint64_t n_nodes = 2ull * c->primary + (uint64_t)mp * c->ext;
    eu = rs_malloc((size_t)n_edges * sizeof *eu);
    ev = rs_malloc((size_t)n_edges * sizeof *ev);
    nodes = rs_malloc(((size_t)D + 1) * sizeof *nodes);
    if (!eu || !ev || !nodes)
        goto oom;
    for (uint64_t i = 0; i < n_edges; i++) {
        eu[i] = (uint32_t)(edges[i] >> 32);
        ev[i] = (uint32_t)edges[i];
    }
    if ((rc = rs__graph_init(&c->g, (uint32_t)n_nodes, eu, ev, n_edges, err)))
        goto out;
    for (uint32_t i = 0; i < mp && !rc; i++) {
        uint64_t k = 0, hop, first;
        for (uint32_t j = 0; j < per_msg; j++) {
            nodes[k++] = tail_of(lists[(size_t)i * per_msg + j]);
            nodes[k++] = head_of(lists[(size_t)i * per_msg + j]);
        }
        for (uint32_t j = 0; j < c->ext; j++)
            nodes[k++] = 2 * c->primary + i * c->ext + j;
        for (uint32_t r = 0; r < R && !rc; r++) { /* message i*R + r */
            int f = rs__graph_add_path(&c->g, nodes, k, &hop, &first);
            if (f < 0)
                goto oom;
            if (f > 0)
                rc = rs_err_set(err, RS_EINVARIANT,
                                "cms_lower_bound: path of base message %u is not a path", i);
        }
    }
    if (!rc)
        rs__graph_attach(net, &c->g);
    goto out;
oom:
    rc = rs_err_set(err, RS_ENOMEM, "out of memory for topology=cms_lower_bound");
out:
    rs_free(lists);
    rs_free(nodes);
    rs_free(eu);
    rs_free(ev);
    rs_free(edges);
    return rc;
}

/* Primary-edge nodes "t{a,b,...}" / "h{a,b,...}" (the set of base messages crossing it);
 * padding nodes "x<i>.<k>" (k-th padding node of base message i, k from 1). */
static void cms_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    const struct cms *c = net->priv;
    if (node >= 2 * c->primary) {
        uint32_t e = node - 2 * c->primary;
        snprintf(buf, n, "x%u.%u", e / c->ext, e % c->ext + 1);
        return;
    }
    const uint32_t *s = c->subset + (size_t)(node / 2) * c->set;
    int len = snprintf(buf, n, "%c{", node % 2 ? 'h' : 't');
    for (uint32_t i = 0; i < c->set && len > 0 && (size_t)len < n; i++)
        len += snprintf(buf + len, n - (size_t)len, "%s%u", i ? "," : "", s[i]);
    if (len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, "}");
}

const struct rs_topo_ops rs_topo_cms_lower_bound = {
    .name = "cms_lower_bound",
    .summary = "lower-bound network and messages of Cole-Maggs-Sitaraman (001 Thm 2.2.1)",
    .options = cms_options,
    .build = cms_build,
    .destroy = cms_destroy,
    .neighbor = rs__graph_neighbor,
    .src_node = rs__graph_terminal,
    .dst_node = rs__graph_terminal,
    .level = rs__graph_level,
    .label = cms_label,
    .route = rs__graph_route,
    .valiant_ok = rs__graph_valiant_ok,
    .valiant_via_terminal = 1, /* never used: valiant_ok refuses explicit paths */
    .path_length = rs__graph_path_length,
    .linked_keys = cms_linked_keys,
};
