/* Reading the paths file of topology=graph: one message per line, the node ids along its
 * path separated by blanks; every hop must be an edge of the graph and no edge may be
 * taken twice in one path. Errors name file:line. */
#include <stdlib.h>
#include <string.h>

#include "topo/graph_files.h"
#include "routesim/alloc.h"
#include "routesim/line_reader.h"

/* Parse the node ids of one line into *nodes (grown as needed), their count into *k. */
static int read_nodes(const struct rs__lines *r, char *text, uint32_t n, uint32_t **nodes,
                      uint64_t *cap, uint64_t *k, struct rs_err *err)
{
    unsigned long long ln = (unsigned long long)r->line;
    char *s = text;
    *k = 0;
    for (;;) {
        const char *tok;
        int len;
        uint64_t v = 0;
        int ok = rs__parse_uint(&s, UINT32_MAX, &v, &tok, &len);
        if (ok == 0 && len == 0)
            break; /* end of the line */
        if (ok == 1 && v >= n)
            ok = -1;
        if (ok < 0)
            return rs_err_set(err, RS_ECONSTRAINT, "%s:%llu: node %.*s out of range 0..%u",
                              r->path, ln, len, tok, n - 1);
        if (ok == 0)
            return rs_err_set(err, RS_EPARSE, "%s:%llu: expected node ids 0..%u separated by "
                              "blanks, got '%.*s'",
                              r->path, ln, n - 1, len, tok);
        if (*k == *cap) {
            uint64_t c = *cap ? 2 * *cap : 64;
            uint32_t *p = rs_realloc(*nodes, c * sizeof *p);
            if (!p)
                return rs_err_set(err, RS_ENOMEM, "%s:%llu: out of memory for a path", r->path,
                                  ln);
            *nodes = p;
            *cap = c;
        }
        (*nodes)[(*k)++] = (uint32_t)v;
    }
    if (*k < 2)
        return rs_err_set(err, RS_ECONSTRAINT, "%s:%llu: a path needs at least two nodes (one "
                          "hop), got 1",
                          r->path, ln);
    return 0;
}

int rs__paths_read_file(struct rs__graph *g, const char *path, struct rs_err *err)
{
    struct rs__lines r;
    uint32_t *nodes = NULL;
    uint64_t cap = 0, k = 0;
    int rc = rs__lines_open(&r, path, err);
    char *text;
    int got;
    while (!rc && (got = rs__lines_next(&r, &text, err)) != 0) {
        unsigned long long ln = (unsigned long long)r.line;
        uint64_t hop = 0, first = 0;
        if (got < 0) {
            rc = got;
            break;
        }
        if (g->paths.n_msgs == (1ull << 31)) {
            rc = rs_err_set(err, RS_ECONSTRAINT, "%s:%llu: more than 2^31 paths", path, ln);
            break;
        }
        if ((rc = read_nodes(&r, text, g->n, &nodes, &cap, &k, err)))
            break;
        int f = rs__graph_add_path(g, nodes, k, &hop, &first);
        if (f == RS__PATH_NO_EDGE)
            rc = rs_err_set(err, RS_ECONSTRAINT, "%s:%llu: no edge %u -> %u in the graph "
                            "(hop %llu of the path)",
                            path, ln, nodes[hop], nodes[hop + 1], (unsigned long long)hop + 1);
        else if (f == RS__PATH_REPEAT)
            rc = rs_err_set(err, RS_ECONSTRAINT, "%s:%llu: edge %u -> %u used twice in one path "
                            "(hops %llu and %llu)",
                            path, ln, nodes[hop], nodes[hop + 1], (unsigned long long)first + 1,
                            (unsigned long long)hop + 1);
        else if (f < 0)
            rc = rs_err_set(err, RS_ENOMEM, "%s:%llu: out of memory for the paths", path, ln);
    }
    if (!rc && g->paths.n_msgs == 0)
        rc = rs_err_set(err, RS_ECONSTRAINT, "%s: no paths (expected one message per line: "
                        "the node ids along its path)",
                        path);
    rs__lines_close(&r);
    rs_free(nodes);
    return rc;
}
