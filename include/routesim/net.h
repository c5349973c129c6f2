/* Networks: an immutable directed graph built by a topology generator and described by
 * arithmetic, not pointers. Every node has max_ports out-ports and max_ports in-slots;
 * channel (node, port) has id node*max_ports + port and may be absent (boundary of a mesh,
 * last level of a butterfly). Terminals 0..n_terminals-1 are where messages start and end. */
#ifndef ROUTESIM_NET_H
#define ROUTESIM_NET_H

#include <stddef.h>
#include <stdint.h>

#include "routesim/buf.h"
#include "routesim/error.h"
#include "routesim/options.h"
#include "routesim/params.h"

#define RS_NONE UINT32_MAX
/* Returned by a route function when the packet has arrived at its destination. */
#define RS_ROUTE_DONE UINT32_MAX

struct rs_topo_ops;
struct rs_msg_paths;

/* Capabilities of a network: what routings, engines and algorithms may rely on. A topology
 * declares the ones every instance has in rs_topo_ops.caps; its build adds the ones that
 * depend on parameters (butterfly wrap=1: RS_CAP_WRAP) to rs_net.caps. Code that needs a
 * kind of network tests these flags, never a topology's name or ops pointer. */
enum rs_topo_cap {
    /* n_levels > 0: every channel goes from level l to level l+1 (with wrap, the last level
     * to level 0); ops->level gives the level of a node */
    RS_CAP_LEVELED = 1u << 0,
    /* a Least Common Ancestor Network (002 §2): net->priv is its struct rs_lcan, whose label
     * arithmetic include/routesim/lcan.h gives */
    RS_CAP_LCA = 1u << 1,
    /* integer coordinates: node = sum x_i k^i over dims dimensions of k nodes (net->k,
     * net->dims), port 2i goes +1 in dimension i and port 2i+1 goes -1; ops->route is
     * dimension order (dimension 0 first), ops->distance and ops->productive are given */
    RS_CAP_COORDS = 1u << 2,
    /* wrap-around channels: net->wrap (torus and ring; butterfly with wrap=1) */
    RS_CAP_WRAP = 1u << 3,
    /* a butterfly (004 §1.1): log2 N levels of N rows, the two edges out of <l, row> go to
     * rows row and row ^ 2^l of level l+1, so the edge out of level l fixes row bit l */
    RS_CAP_BUTTERFLY = 1u << 4,
    /* a fat-tree (000 §2): net->priv starts with the struct rs__ftree that
     * include/routesim/pruned_butterfly.h describes (nodes, channels, capacities); terminals
     * are its leaves (fat_tree, pruned_butterfly) */
    RS_CAP_FAT_TREE = 1u << 5,
    /* the pruned butterfly of 000 §3.1: net->priv is its struct rs__pb, vertices <i,j,k>
     * (include/routesim/pruned_butterfly.h) */
    RS_CAP_PRUNED_BUTTERFLY = 1u << 6,
    /* the sorting fat-tree of 000 §4.2: net->priv is its struct rs__sft (meshes at the
     * leaves of a fat-tree; include/routesim/sorting_fat_tree.h) */
    RS_CAP_SORTING_FAT_TREE = 1u << 7,
    /* a Beneš network (src/topo/benes.c): 2n+1 levels of N = 2^n rows, node level N + row;
     * the edges out of <l, row> go to rows row and row ^ 2^b of level l+1, b = l for l < n
     * and 2n-1-l after; ops->route takes rs_route_state.mid as the row at level n */
    RS_CAP_BENES = 1u << 8,
    /* a tree whose minimal routes all go up, then down (k-ary n-tree): ops->productive gives
     * the minimal out-ports toward a terminal's node, and any choice among them is
     * deadlock-free (routing=nca_adaptive) */
    RS_CAP_UP_DOWN = 1u << 9,
    /* a dragonfly (Kim et al. 2008): net->priv is its struct rs_dfly, whose numbering of
     * groups, routers and global links include/routesim/dragonfly.h gives */
    RS_CAP_DRAGONFLY = 1u << 10,
    /* ops->route reads rs_route_state.msg: two messages with the same source and destination
     * may take different routes (k-ary n-tree's seeded up-ports). Without it (and without
     * net->paths) a route is a function of (src, dst, mid), which engines may cache per pair */
    RS_CAP_ROUTE_PER_MSG = 1u << 11,
    /* a Slim Fly (Besta and Hoefler 2014): net->priv is its struct rs_sfly, whose MMS-graph
     * numbering and field arithmetic include/routesim/slimfly.h gives */
    RS_CAP_SLIMFLY = 1u << 12,
    /* routing=min_adaptive's escape argument holds (Duato): ops->productive gives every
     * minimal out-port, ops->route is a minimal dimension order through them (after a hop
     * in dimension i under any minimal route, the route's next hop is in a dimension above
     * i or later in the same direction of i), and with RS_CAP_WRAP ops->vc_class gives its
     * dateline classes (meshes, tori, chains, rings, HyperX; docs/routing.md) */
    RS_CAP_MIN_ESCAPE = 1u << 13,
};

/* The most productive ports any topology reports (rs_topo_ops.productive): two per
 * dimension of the largest mesh or torus. */
#define RS_MAX_PRODUCTIVE 24

/* Where a message is on its oblivious route. src, dst and mid are terminals.
 * mid == RS_NONE for direct routing; otherwise the message first heads for terminal mid
 * (Valiant's intermediate destination), then for dst. hops counts every channel taken
 * since the message left its source. msg is the message id (rs_problem numbering), for
 * topologies whose routes are given per message (explicit paths); others ignore it. */
struct rs_route_state {
    uint32_t src, dst, mid;
    uint32_t hops;
    uint32_t msg;
};

struct rs_net {
    const struct rs_topo_ops *ops;
    uint32_t n_nodes;
    uint32_t max_ports;   /* out-ports (and in-slots) per node */
    uint32_t n_terminals; /* N: message sources and destinations */
    uint64_t n_channels;  /* channels that exist (<= n_nodes * max_ports) */
    uint32_t n_levels;    /* levels of a leveled network (butterfly: n+1); 0 if not leveled */
    /* Terminal addresses as shape_n digits in base shape_k (mesh: k, n; butterfly: 2,
     * log2 N; chain/ring: k, 1). Workloads such as transpose and tornado use it. */
    uint32_t shape_k, shape_n;
    /* Topology parameters (meaning per topology; see its file). */
    uint32_t N, log2n, k, dims;
    int wrap;
    /* Torus and ring (`torus_tie`): the direction at distance exactly k/2, RS_TIE_PLUS or
     * RS_TIE_SPLIT (rs_coord_step); 0 (plus) elsewhere. */
    uint32_t tie;
    uint32_t caps;        /* RS_CAP_... of this instance (ops->caps and what build adds) */
    char name[32];        /* registry name */
    void *priv;           /* topology-owned data; freed by ops->destroy */
    /* Explicit message paths the topology carries (msg_paths.h), or NULL; when set, routes
     * follow them by message id and only traffic=paths can be used. Owned via priv. */
    const struct rs_msg_paths *paths;
    /* Set when a run starts (rs_route_prepare, route.h; zero in a network built alone): the
     * run's seed, for routes that draw per packet (kary_ntree's up-ports); the routing's
     * per-network tables (rs_routing_ops.prepare; NULL when it has none), read by its
     * next_port through net, and what frees them (rs_net_free calls it). */
    uint64_t seed;
    void *route_priv;
    void (*route_free)(void *priv);
    /* With rs_topo_ops.part_pos: the sizes (UNITS: positions) of the units on which the
     * engines' split into parts cuts, coarsest first (dragonfly: a group, then a router with
     * its terminals); the split cuts on the coarsest of which there are at least as many as
     * parts, else anywhere. Each divides n_nodes; 0: no such unit. */
    uint32_t part_unit[2];
};

struct rs_topo_ops {
    const char *name;
    const char *summary;              /* one line for `routesim list` */
    const struct rs_optdef *options;  /* NULL-terminated */
    uint32_t caps;                    /* RS_CAP_... every instance has */
    /* Fill net from parameters (net is zeroed, ops/name/caps already set). Validate every
     * constraint (N a power of two, k >= 2, ...) naming it. Returns 0 or RS_E... */
    int (*build)(struct rs_net *net, const struct rs_params *p, struct rs_err *err);
    /* Free net->priv (may be NULL when build allocates nothing). */
    void (*destroy)(struct rs_net *net);
    /* Head node of channel (node, port), or RS_NONE if that channel does not exist. When
     * it exists and in_slot is not NULL, *in_slot gets the in-slot (0..max_ports-1) at
     * which the channel enters its head; distinct channels into one node have distinct
     * in-slots. */
    uint32_t (*neighbor)(const struct rs_net *net, uint32_t node, uint32_t port,
                         uint32_t *in_slot);
    /* Node at which terminal t injects its messages. */
    uint32_t (*src_node)(const struct rs_net *net, uint32_t t);
    /* Node at which messages for terminal t are delivered (under direct routing). */
    uint32_t (*dst_node)(const struct rs_net *net, uint32_t t);
    /* Level of node (0-based) for leveled networks; -1 otherwise. */
    int (*level)(const struct rs_net *net, uint32_t node);
    /* Human label of a node ("<2,101>", "(3,4)") written into buf. */
    void (*label)(const struct rs_net *net, uint32_t node, char *buf, size_t n);
    /* The topology's minimal oblivious route (dimension order, bit fixing, LCA, ...): the
     * out-port a packet at node takes next toward st->dst, or RS_ROUTE_DONE when node is
     * where it is delivered. Pure function of its arguments. Engines and the analysis call
     * it through the routing layer (rs_route_port, route.h), which handles Valiant's
     * intermediate: with valiant_via_terminal set the route is only ever asked for one leg
     * (st->mid == RS_NONE, src/dst the leg's ends, hops counted from the leg's start), so
     * a topology never reads st->mid; with it clear (Beneš) st arrives as it is and the
     * route must honour st->mid itself. Topologies that cannot take an intermediate reject
     * routing=valiant in valiant_ok. */
    uint32_t (*route)(const struct rs_net *net, uint32_t node, const struct rs_route_state *st);
    /* 0 when routing=valiant is possible on this instance; else RS_EUNSUPPORTED with a
     * message (e.g. butterfly without wrap). NULL = always possible. */
    int (*valiant_ok)(const struct rs_net *net, struct rs_err *err);
    /* 1 when a Valiant route is two direct routes joined at terminal mid (src -> mid on
     * src_node(mid), then mid -> dst), so that engines hold a packet at mid between the
     * phases (004 §2.2: "the packets are queued up at the end of Phase A"); 0 when the
     * intermediate is not a terminal (Beneš: a row of the middle level, one pass). */
    int valiant_via_terminal;
    /* Number of channels the route of st (hops == 0; one leg as for route) takes, in
     * closed form; NULL when the only way is to walk it (rs_route_expand). Must equal the
     * walk's length. rs_route_length adds Valiant's legs. */
    uint32_t (*path_length)(const struct rs_net *net, const struct rs_route_state *st);
    /* route followed by neighbor in one call (the engines' hot path, through
     * rs_route_next_hop; st as for route): the out-port into
     * *port and, when it is not RS_ROUTE_DONE, the head node (returned) and its in-slot
     * (*in_slot). Returns RS_NONE with *port = RS_ROUTE_DONE at the destination. NULL: the
     * engines call route and neighbor. Must agree with them exactly. */
    uint32_t (*next_hop)(const struct rs_net *net, uint32_t node, const struct rs_route_state *st,
                         uint32_t *port, uint32_t *in_slot);
    /* routing=ranade (004 §5, Ranade's random-but-not-independent intermediates): the
     * intermediate (route state mid, in the sense valiant_via_terminal gives it) of every
     * message of terminal src, a pure function of (seed, src). For one message per terminal
     * the intermediates must form a permutation reached by edge-disjoint paths. NULL: the
     * topology does not support routing=ranade (rs_route_check refuses it). */
    uint32_t (*ranade_mid)(const struct rs_net *net, uint64_t seed, uint32_t src);
    /* Virtual-channel class of a message with route state st (st->hops channels crossed)
     * crossing channel (node, port) next, for deadlock-free flit routing with
     * vc_classes=dateline: bit 0 is set on and after the wrap-around (dateline) channel of
     * the ring the channel belongs to, counted from the leg's source (st as for route).
     * rs_route_vc_class adds bit 1 in Valiant's second leg; engines using two classes read
     * bit 0 only. NULL: the topology defines no classes. */
    uint32_t (*vc_class)(const struct rs_net *net, uint32_t node, uint32_t port,
                         const struct rs_route_state *st);
    /* Hops of a shortest path from node u to node v (UNITS: channels); NULL when the
     * topology does not give distances (required with RS_CAP_COORDS). */
    uint32_t (*distance)(const struct rs_net *net, uint32_t u, uint32_t v);
    /* The productive out-ports at node toward node target: those whose channel exists and
     * starts a shortest path to target (distance drops by one), in increasing port order,
     * written to ports[0..RS_MAX_PRODUCTIVE). Returns how many (0 when node == target).
     * NULL when not given (required with RS_CAP_COORDS). */
    uint32_t (*productive)(const struct rs_net *net, uint32_t node, uint32_t target,
                           uint32_t *ports);
    /* Engine keys that stand for construction parameters of this topology, as a
     * NULL-terminated list of pairs {topology key, engine key, ...} (cms_lower_bound: B and
     * vcs, L and length). When the chosen engine declares the engine key and the user sets
     * only one of the pair, the other takes its value; when neither is set, the engine key
     * takes the topology key's default; when both are set, each keeps its own value (a
     * network built for one B run with another vcs). Applied by rs_run and rs_validate
     * before anything is built or recorded. NULL: none. */
    const char *const *linked_keys;
    /* The order in which the engines cut the nodes into parts, one per thread or MPI rank
     * (src/engine/node_split.h), where the node ids are a poor one: node's position, a
     * bijection of [0, n_nodes) onto itself such that ranges of positions are good parts
     * (dragonfly: each router followed by its terminals, group by group), and part_node its
     * inverse; rs_net.part_unit gives the units cuts fall on. NULL (both): the node ids, or
     * the rows of every level of a leveled network numbered level by level. */
    uint32_t (*part_pos)(const struct rs_net *net, uint32_t node);
    uint32_t (*part_node)(const struct rs_net *net, uint32_t pos);
};

/* The registry: all topologies, NULL-terminated, in `routesim list` order. */
extern const struct rs_topo_ops *const rs_topologies[];

/* Topology named name, or NULL. */
const struct rs_topo_ops *rs_topo_find(const char *name);

/* Write "a|b|c" into buf (n bytes, truncated): the names of the registered topologies whose
 * ops->caps include every flag of caps, in registry order ("" when none). */
void rs_topo_names_with(uint32_t caps, char *buf, size_t n);

/* Options common to every network: the `topology` key itself. */
extern const struct rs_optdef rs_net_options[];

/* Build the network named by the `topology` parameter (default butterfly). Unknown names
 * give RS_EUNKNOWN with the nearest registered name. On error net is left empty. */
int rs_net_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err);

/* Release what rs_net_build allocated. Safe on a zeroed net. */
void rs_net_free(struct rs_net *net);

/* Torus tie rules (rs_net.tie): at distance k/2 both ways round a ring are shortest. */
enum rs_torus_tie {
    RS_TIE_PLUS = 0,  /* always + (the papers' rule, and BookSim's dimension order) */
    RS_TIE_SPLIT = 1, /* + from an even coordinate, - from an odd one: half each way */
};

/* One dimension of a network with RS_CAP_COORDS: hops from coordinate a to coordinate b
 * (UNITS: channels) and the direction of the first (*dir = +1 or -1; 0 when a == b). On a
 * mesh toward b; with wrap-around the shorter way round, and at a tie (k even, distance k/2)
 * as net->tie says. A pure function of (net, a, b): the route it gives keeps one direction
 * (after the first hop the distance is below k/2). */
static inline uint32_t rs_coord_step(const struct rs_net *net, uint32_t a, uint32_t b, int *dir)
{
    if (a == b) {
        *dir = 0;
        return 0;
    }
    if (!net->wrap) {
        *dir = b > a ? 1 : -1;
        return b > a ? b - a : a - b;
    }
    uint32_t fwd = (b + net->k - a) % net->k, back = net->k - fwd;
    if (fwd == back)
        *dir = net->tie == RS_TIE_SPLIT && (a & 1u) ? -1 : 1;
    else
        *dir = fwd < back ? 1 : -1;
    return fwd <= back ? fwd : back;
}

/* Channel id of (node, port). */
static inline uint64_t rs_net_channel(const struct rs_net *net, uint32_t node, uint32_t port)
{
    return (uint64_t)node * net->max_ports + port;
}

/* Write the network as a Graphviz digraph (nodes labelled, channels as edges, levels as
 * ranks for leveled networks). Returns 0 or RS_ENOMEM. */
int rs_net_write_dot(const struct rs_net *net, struct rs_buf *out);

/* rs_net_write_dot for drawing: the same text, plus on a network with coordinates in one
 * or two dimensions (RS_CAP_COORDS: meshes, tori, rings, chains) a pinned position per
 * node, pos="X,Y!" with X = 72 x_0 and Y = 72 x_1 (UNITS: points), for Graphviz's
 * `neato -n` to draw the grid as a grid. *pinned is set to 1 when positions were written
 * (draw with neato -n), else 0 (draw with dot). Returns 0 or RS_ENOMEM. */
int rs_net_write_dot_drawing(const struct rs_net *net, struct rs_buf *out, int *pinned);

/* rs_net_write_dot_drawing with the channels marked[0..n_marked) (ids node * max_ports +
 * port) drawn red and 4 points thick (class "deadlock") and the nodes at their ends filled
 * red: the picture of a deadlock's waiting cycle. With n_marked > 0 the fat-tree, sorting
 * fat-tree and dragonfly views are replaced by the digraph of rs_net_write_dot (one edge
 * per channel, so that every channel can be marked). Returns 0 or RS_ENOMEM. */
int rs_net_write_dot_marked(const struct rs_net *net, struct rs_buf *out, int *pinned,
                            const uint64_t *marked, size_t n_marked);

/* Bytes rs_net_write_dot would write for net, estimated from its sizes without writing
 * (UNITS: bytes): node, edge and rank lines with the longest of three sampled labels (+2);
 * above the exact size for every topology tested (tests/topo/test_dot.c), within 2x.
 * `routesim topo --dot` refuses an output over dot_limit with it (docs/resources.md). */
uint64_t rs_net_dot_bytes(const struct rs_net *net);

#endif
