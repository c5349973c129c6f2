/* What the explicit-graph topologies (graph.c: from files; cms_lower_bound.c: generated)
 * share: the adjacency as flat arrays, a map from (tail, head) to the out-port, the
 * explicit message paths, the all-pairs hop distances of shortest-path routing, and the
 * topology operations on top of them. net->priv points to a struct rs__graph (or to a
 * struct whose first member is one). */
#ifndef RS_TOPO_GRAPH_CORE_H
#define RS_TOPO_GRAPH_CORE_H

#include <stdint.h>

#include "routesim/msg_paths.h"
#include "routesim/net.h"

/* Open-addressing map from a pair (u, v) of node ids to a 64-bit value. */
struct rs__pairmap {
    uint64_t cap;  /* a power of two, or 0 */
    uint64_t used;
    uint64_t *key; /* u * 2^32 + v + 1; 0 = empty */
    uint64_t *val;
};

/* Insert (u, v) -> val. Returns 0, 1 when (u, v) is already present (*old gets its value,
 * nothing changes), or RS_ENOMEM. */
int rs__pairmap_put(struct rs__pairmap *pm, uint32_t u, uint32_t v, uint64_t val,
                    uint64_t *old);

/* Value of (u, v) into *val: 1 when present, 0 when not. */
int rs__pairmap_get(const struct rs__pairmap *pm, uint32_t u, uint32_t v, uint64_t *val);

void rs__pairmap_free(struct rs__pairmap *pm);

/* Largest node count of a graph (the engines number queues node * max_ports + slot in 32
 * bits) and of shortest-path routing (a table of n^2 16-bit distances: 32 MiB at 4096). */
#define RS__GRAPH_MAX_NODES (1u << 24)
#define RS__GRAPH_MAX_EDGES (1ull << 28)
#define RS__GRAPH_MAX_SP_NODES 4096u

struct rs__graph {
    uint32_t n;          /* nodes 0..n-1, every one a terminal */
    uint32_t max_ports;  /* max(1, largest out-degree, largest in-degree) */
    uint64_t m;          /* directed edges (channels) */
    uint64_t *out_off;   /* [n+1]: the out-edges of u are out_off[u] .. out_off[u+1]-1, in
                            port order */
    uint32_t *out_head;  /* [m] head of each out-edge */
    uint32_t *out_slot;  /* [m] in-slot at which it enters its head */
    struct rs__pairmap port_of; /* (u, v) -> out-port of the edge u -> v */
    uint16_t *dist;      /* [n*n] or NULL: dist[t*n + v] = hops from v to t on a shortest
                            path; set by rs__graph_shortest_paths */
    struct rs_msg_paths paths;  /* explicit message paths (n_msgs = 0: none) */
    uint64_t paths_cap, hops_cap;
};

/* Build g from the m directed edges eu[i] -> ev[i] (no self-loops, no duplicates: the
 * callers check them, naming their source). The out-ports of a node are numbered in the
 * order its out-edges appear in the list, and the in-slots of a node in the order its
 * in-edges appear. Returns 0, RS_ENOMEM, or RS_EINVARIANT for a duplicate edge. */
int rs__graph_init(struct rs__graph *g, uint32_t n, const uint32_t *eu, const uint32_t *ev,
                   uint64_t m, struct rs_err *err);

/* Out-port of the edge u -> v, or RS_NONE. */
uint32_t rs__graph_port(const struct rs__graph *g, uint32_t u, uint32_t v);

/* Why a path was refused by rs__graph_add_path. */
enum rs__path_fault { RS__PATH_OK = 0, RS__PATH_NO_EDGE = 1, RS__PATH_REPEAT = 2 };

/* Append the path nodes[0..k) (k >= 2) as message g->paths.n_msgs. On a fault nothing is
 * added and *hop (0-based) is the hop at fault: with RS__PATH_NO_EDGE there is no edge
 * nodes[*hop] -> nodes[*hop+1]; with RS__PATH_REPEAT that edge was already taken at hop
 * *first. Returns RS__PATH_OK, a fault (> 0), or RS_ENOMEM (< 0). */
int rs__graph_add_path(struct rs__graph *g, const uint32_t *nodes, uint64_t k, uint64_t *hop,
                       uint64_t *first);

/* Fill g->dist by one breadth-first search per target over the in-edges. Returns 0 or
 * RS_ENOMEM. When some node cannot reach another, *from and *to get the first such pair
 * (smallest target, then smallest source) and the return is 1. */
int rs__graph_shortest_paths(struct rs__graph *g, uint32_t *from, uint32_t *to,
                             struct rs_err *err);

/* Free everything g owns; safe on a zeroed g. */
void rs__graph_free(struct rs__graph *g);

/* Set the net fields from g (nodes, ports, channels, terminals = nodes, not leveled, no
 * digit shape) and net->paths when g carries paths. net->priv must already point to g. */
void rs__graph_attach(struct rs_net *net, struct rs__graph *g);

/* Topology operations shared by graph and cms_lower_bound (contracts in net.h). Routes:
 * with explicit paths, message st->msg takes port[off[msg] + st->hops] and is done after
 * its last hop; without, the shortest path to the target (mid while st->hops <
 * dist(src, mid) under Valiant, then dst), ties to the lowest out-port. */
uint32_t rs__graph_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                            uint32_t *in_slot);
uint32_t rs__graph_terminal(const struct rs_net *net, uint32_t t);
int rs__graph_level(const struct rs_net *net, uint32_t node);
uint32_t rs__graph_route(const struct rs_net *net, uint32_t node,
                         const struct rs_route_state *st);
uint32_t rs__graph_path_length(const struct rs_net *net, const struct rs_route_state *st);
int rs__graph_valiant_ok(const struct rs_net *net, struct rs_err *err);

#endif
