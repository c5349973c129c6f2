/* Reading the graph file of topology=graph: a `nodes N` line, then one directed edge
 * `u v` per line; comments (#) and blank lines skipped; errors name file:line. */
#include <stdlib.h>
#include <string.h>

#include "topo/graph_files.h"
#include "routesim/alloc.h"
#include "routesim/line_reader.h"

/* Growable edge list with the line each edge came from. */
struct edges {
    uint32_t *u, *v;
    uint64_t n, cap;
};

static int edges_push(struct edges *e, uint32_t u, uint32_t v)
{
    if (e->n == e->cap) {
        uint64_t cap = e->cap ? 2 * e->cap : 256;
        uint32_t *nu = rs_realloc(e->u, cap * sizeof *nu);
        if (!nu)
            return RS_ENOMEM;
        e->u = nu;
        uint32_t *nv = rs_realloc(e->v, cap * sizeof *nv);
        if (!nv)
            return RS_ENOMEM;
        e->v = nv;
        e->cap = cap;
    }
    e->u[e->n] = u;
    e->v[e->n] = v;
    e->n++;
    return 0;
}

/* The header line `nodes N`. */
static int read_header(struct rs__lines *r, uint32_t *n, struct rs_err *err)
{
    char *text;
    int got = rs__lines_next(r, &text, err);
    if (got < 0)
        return got;
    if (got == 0)
        return rs_err_set(err, RS_EPARSE, "%s: no 'nodes N' line (the file has no content)",
                          r->path);
    unsigned long long ln = (unsigned long long)r->line;
    char *s = text;
    const char *tok;
    int len;
    uint64_t v = 0;
    int word = strncmp(s, "nodes", 5) == 0 && rs__is_sep(s[5]);
    int ok = word ? (s += 5, rs__parse_uint(&s, RS__GRAPH_MAX_NODES, &v, &tok, &len)) : 0;
    if (ok == 1) {
        while (rs__is_sep(*s))
            s++;
        if (*s || v == 0)
            ok = 0;
    }
    if (ok != 1) {
        int w = (int)(strlen(text) > 40 ? 40 : strlen(text));
        return rs_err_set(err, ok < 0 ? RS_ECONSTRAINT : RS_EPARSE,
                          "%s:%llu: expected 'nodes N' with N in 1..%u before the edges, got "
                          "'%.*s'",
                          r->path, ln, RS__GRAPH_MAX_NODES, w, text);
    }
    *n = (uint32_t)v;
    return 0;
}

/* One edge line `u v` into *u, *v. */
static int read_edge(struct rs__lines *r, char *text, uint32_t n, uint32_t *u, uint32_t *v,
                     struct rs_err *err)
{
    unsigned long long ln = (unsigned long long)r->line;
    char *s = text;
    uint64_t x[2];
    for (int i = 0; i < 2; i++) {
        const char *tok;
        int len;
        int ok = rs__parse_uint(&s, UINT32_MAX, &x[i], &tok, &len);
        if (ok == 1 && x[i] >= n)
            ok = -1;
        if (ok < 0)
            return rs_err_set(err, RS_ECONSTRAINT, "%s:%llu: node %.*s out of range 0..%u",
                              r->path, ln, len, tok, n - 1);
        if (ok == 0)
            goto bad;
    }
    while (rs__is_sep(*s))
        s++;
    if (*s)
        goto bad;
    *u = (uint32_t)x[0];
    *v = (uint32_t)x[1];
    if (*u == *v)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "%s:%llu: self-loop %u -> %u (an edge joins two different nodes)",
                          r->path, ln, *u, *v);
    return 0;
bad:;
    int w = (int)(strlen(text) > 40 ? 40 : strlen(text));
    return rs_err_set(err, RS_EPARSE, "%s:%llu: expected an edge 'u v' with u, v in 0..%u, "
                      "got '%.*s'",
                      r->path, ln, n - 1, w, text);
}

int rs__graph_read_file(struct rs__graph *g, const char *path, struct rs_err *err)
{
    struct rs__lines r;
    struct edges e = {0};
    struct rs__pairmap seen = {0}; /* (u, v) -> line of its first appearance */
    uint32_t n = 0;
    memset(g, 0, sizeof *g);
    int rc = rs__lines_open(&r, path, err);
    if (!rc)
        rc = read_header(&r, &n, err);
    char *text;
    int got;
    while (!rc && (got = rs__lines_next(&r, &text, err)) != 0) {
        uint32_t u = 0, v = 0;
        uint64_t first = 0;
        if (got < 0) {
            rc = got;
            break;
        }
        if (e.n == RS__GRAPH_MAX_EDGES) {
            rc = rs_err_set(err, RS_ECONSTRAINT, "%s:%llu: more than %llu edges", path,
                            (unsigned long long)r.line, (unsigned long long)RS__GRAPH_MAX_EDGES);
            break;
        }
        if ((rc = read_edge(&r, text, n, &u, &v, err)))
            break;
        int put = rs__pairmap_put(&seen, u, v, r.line, &first);
        if (put > 0)
            rc = rs_err_set(err, RS_ECONSTRAINT, "%s:%llu: edge %u -> %u repeated (first at "
                            "line %llu)",
                            path, (unsigned long long)r.line, u, v, (unsigned long long)first);
        else if (put < 0 || edges_push(&e, u, v))
            rc = rs_err_set(err, RS_ENOMEM, "%s: out of memory for %llu edges", path,
                            (unsigned long long)e.n + 1);
    }
    rs__lines_close(&r);
    rs__pairmap_free(&seen);
    if (!rc)
        rc = rs__graph_init(g, n, e.u, e.v, e.n, err);
    rs_free(e.u);
    rs_free(e.v);
    return rc;
}
