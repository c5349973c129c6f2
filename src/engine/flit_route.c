/* Oblivious routes of the flit engine: the next channel of a worm's header, and the path
 * cache that expands the route of each (source, destination) pair once, so that a header
 * hop reads its next channel from an array instead of calling the topology's route and
 * neighbor through the ops table (issue 21). Same routes, same classes, same errors. */
#include <string.h>

#include "engine/flit.h"
#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/hugemem.h"

/* The pair index exists for at most this many pairs (256 terminals; 256 KiB). Expanding a
 * pair costs what routing one message of it hop by hop costs, so the cache pays only where
 * pairs recur: with 1,024 terminals (a 2-ary 10-fly, 1 M pairs) a 4,000-cycle run meets most
 * pairs about once, and a cache there cost 9% more instructions than none. */
#define FLIT_PAIRS_MAX (1u << 16)
/* Hops the cache holds at most: 16 per pair, at most 2^20 (12 bytes each, 12 MiB;
 * malloc'd, touched as filled). Pairs met once it is full are routed hop by hop, as without
 * the cache. */
#define FLIT_HOPS_PER_PAIR 16u
#define FLIT_HOPS_MAX (1u << 20)
_Static_assert(FLIT_HOPS_MAX < FLIT_PATH_EMPTY, "a pair entry's index leaves its flag bit");
/* The pair index and the hops share one zeroed block. From this size on it is rounded up to
 * whole 2 MiB pages for rs__huge_alloc (transparent huge pages): a run touches the hops as
 * it expands pairs, and on this project's VM a 4 KiB page's first touch costs about 20 us
 * of CPU against about 250 us for a 2 MiB page (the 8x8 mesh's cache touched 84 pages of
 * 4 KiB; the 16x16 mesh's about 2,250). */
#define FLIT_CACHE_HUGE_FROM ((size_t)512 << 10)
#define FLIT_HUGE_PAGE ((size_t)2 << 20)

/* The next hop of a header at node with route state st (an oblivious routing): *chan gets
 * the channel (RS_NONE at the destination, where nothing else is written), *head_out its
 * head node and [*lo, *hi) the VCs of its class.
 * Returns 0, or RS_EINVARIANT with err set for a missing channel or a route that does not
 * end; msg names the message in that error. */
static inline __attribute__((always_inline)) int
route_hop(const struct flit *f, uint32_t node, const struct rs_route_state *st,
          uint32_t msg, uint32_t *chan, uint32_t *head_out, uint32_t *lo, uint32_t *hi,
          struct rs_err *err)
{
    const struct rs_net *net = f->net;
    uint32_t port, slot, head;
    if (f->hop_next) {
        head = net->ops->next_hop(net, node, st, &port, &slot);
    } else if (f->route_plain) {
        port = net->ops->route(net, node, st);
        head = port == RS_ROUTE_DONE || port >= f->P ? RS_NONE
                                                      : net->ops->neighbor(net, node, port, NULL);
    } else {
        head = rs__route_next_hop(net, f->routing, node, st, &port, &slot);
    }
    if (port == RS_ROUTE_DONE) {
        *chan = RS_NONE;
        return 0;
    }
    if (head == RS_NONE || st->hops > 4 * net->n_nodes + 16)
        return rs_err_set(err, RS_EINVARIANT,
                          "route of message %u (%u -> %u) takes a missing channel or does not "
                          "end (at node %u after %u hops)",
                          msg, st->src, st->dst, node, st->hops);
    *chan = node * f->P + port;
    *head_out = head;
    if (f->classes == FLIT_CLASSES_PARTITION) { /* does the route wrap in this dimension? */
        uint32_t s = 1, k = net->k;
        for (uint32_t i = 0; i < port / 2; i++)
            s *= k;
        uint32_t x0 = net->ops->src_node(net, st->src) / s % k;
        uint32_t x1 = net->ops->dst_node(net, st->dst) / s % k;
        uint32_t cls = port % 2 == 0 ? x1 < x0 : x1 > x0, per = f->B / 2;
        *lo = cls * per;
        *hi = *lo + per;
    } else if (f->classes == FLIT_CLASSES_DATELINE) {
        uint32_t cls = (f->route_plain ? net->ops->vc_class(net, node, port, st)
                                       : rs_route_vc_class(net, f->routing, node, port, st)) &
                       (f->n_cls - 1);
        uint32_t per = f->B / f->n_cls;
        *lo = cls * per;
        *hi = *lo + per;
    } else {
        *lo = 0;
        *hi = f->B;
    }
    return 0;
}

int rs__flit_paths_init(struct flit *f)
{
    const struct rs_net *net = f->net;
    uint64_t pairs = (uint64_t)f->n_src * f->n_src;
    f->pair_path = NULL;
    f->hop = NULL;
    f->n_hop = f->cap_hop = 0;
    /* a route that is a function of (source, destination) alone: the topology's own (or a
     * routing without intermediates or a next_port of its own), routes not given per
     * message */
    if (f->adaptive || !f->route_plain || net->paths || (net->caps & RS_CAP_ROUTE_PER_MSG) ||
        pairs > FLIT_PAIRS_MAX || pairs == 0)
        return 0;
    uint32_t cap = rs__flit_path_hops(pairs);
    size_t index = ((size_t)pairs * sizeof *f->pair_path + 63) & ~(size_t)63; /* hops 64-aligned */
    size_t bytes = index + (size_t)cap * sizeof *f->hop;
    if (bytes >= FLIT_CACHE_HUGE_FROM)
        bytes = (bytes + FLIT_HUGE_PAGE - 1) & ~(FLIT_HUGE_PAGE - 1);
    char *blk = rs__huge_alloc(bytes);
    if (!blk)
        return RS_ENOMEM;
    f->pair_path = (uint32_t *)blk;
    f->hop = (struct flit_hop *)(blk + index);
    f->cache_bytes = bytes;
    f->cap_hop = cap;
    return 0;
}

uint32_t rs__flit_path_hops(uint64_t pairs)
{
    if (pairs > FLIT_PAIRS_MAX)
        return 0;
    return pairs * FLIT_HOPS_PER_PAIR < FLIT_HOPS_MAX ? (uint32_t)pairs * FLIT_HOPS_PER_PAIR
                                                       : FLIT_HOPS_MAX;
}

void rs__flit_paths_free(struct flit *f)
{
    rs__huge_free(f->pair_path, f->cache_bytes); /* (f->hop is in the same block) */
}

/* Expand the route from terminal src to terminal dst into the cache: the index of its first
 * hop, or RS_NONE when it cannot be cached (the cache is full, or the route fails: routed
 * hop by hop, it then reports its error where it meets it). */
static uint32_t expand_pair(struct flit *f, uint32_t src, uint32_t dst)
{
    struct rs_err scratch;
    struct rs_route_state st = {src, dst, RS_NONE, 0, 0};
    uint32_t node = f->src_node[src], start = f->n_hop;
    for (;;) {
        uint32_t chan, head = RS_NONE, lo = 0, hi = 0;
        if (f->n_hop >= f->cap_hop ||
            route_hop(f, node, &st, 0, &chan, &head, &lo, &hi, &scratch)) {
            f->n_hop = start;
            return RS_NONE;
        }
        f->hop[f->n_hop++] = (struct flit_hop){chan, head, (uint16_t)lo, (uint16_t)hi};
        if (chan == RS_NONE)
            return start;
        node = head;
        st.hops++;
    }
}

uint32_t rs__flit_path_of(struct flit *f, uint32_t src, uint32_t dst, uint32_t mid)
{
    if (!f->pair_path || mid != RS_NONE)
        return RS_NONE;
    uint32_t *p = &f->pair_path[(uint64_t)src * f->n_src + dst];
    if (*p == 0) {
        uint32_t at = expand_pair(f, src, dst);
        *p = at == RS_NONE                   ? RS_NONE
             : f->hop[at].chan == RS_NONE ? (at + 1) | FLIT_PATH_EMPTY
                                            : at + 1;
    }
    return *p;
}

int rs__flit_route_oblivious(struct flit *f, uint32_t m, uint32_t node, struct rs_err *err)
{
    struct flit_worm *w = &f->w[m];
    if (w->path == RS_NONE) { /* hop by hop */
        struct rs_route_state st = {w->src, w->dst, w->mid, w->hops, w->msg};
        return route_hop(f, node, &st, w->msg, &w->next_chan, &w->next_node, &w->vc_lo,
                         &w->vc_hi, err);
    }
    const struct flit_hop *h = &f->hop[w->path + w->hops]; /* hop w->hops of its pair's path */
    RS_DASSERT(node == (w->hops ? f->hop[w->path + w->hops - 1].node : f->src_node[w->src]));
    w->next_chan = h->chan;
    if (h->chan != RS_NONE) {
        w->next_node = h->node;
        w->vc_lo = h->vc_lo;
        w->vc_hi = h->vc_hi;
    }
    return 0;
}
