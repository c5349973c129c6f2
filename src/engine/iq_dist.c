/* router=iq over MPI ranks (mpirun -np P routesim run ... router=iq; docs/distributed.md
 * "router=iq over ranks"). The ranks own the nodes of flit_dist.c's split (node_split.h:
 * rows of a leveled network, a dragonfly's groups, else ranges of node ids): a rank runs
 * the cycles of its own routers and the
 * sources and sinks of the terminals at them. Within a cycle a router reads and writes only
 * its own state (iq_par.c's argument): what it sends, a flit on a channel or a credit back
 * on one, is read by the router at the channel's other end at least one cycle later
 * (channel_latency >= 1), through the ring slot of the cycle it is read in. So at the end of
 * cycle t every rank hands the entries it wrote in this cycle's slots for another rank's
 * router (flits to a channel's head, credits to its tail) to the step's all-to-all, and the
 * receiver appends them to the same slots of its lists: they are read in the cycle the
 * serial run reads them. The readers of those lists are order-free (a flit goes to its own
 * input, one per input and cycle: its receive slot, or its VC's buffer and a bit of its
 * router's stage sets; a credit decrements its output VC's count, or joins its router's
 * received-credit queue, whose entries of one cycle count together), so appending gives the
 * serial state. A packet's record (struct flit_worm: its route, hops and, at its destination, the
 * flits delivered) is read only by its head's routing and at its delivery: it goes with its
 * head flit, and the receiver gives it a slot of its own (the packet's slot on the sender,
 * per sending rank, maps to it for the body flits); the sender's slot is freed when the
 * tail leaves, the receiver's mapping then too. Body flits read no record. Under an adaptive
 * routing the head also carries whether the packet entered its escape VCs; a router's route
 * set reads its own credit counts live and, under routing=ugal_g, the class-0 VCs' counts of
 * the global channels of the other routers of its group as they stood when the cycle's
 * router phase began (rs__iq_rsets_begin's copy). Under an adaptive routing a credit counts
 * only in its router's own cycle (no cd0), so those counts change only in the router phase:
 * the counts at the start of cycle t + 1's phase are those at the end of cycle t's. So at the
 * end of every cycle each rank sends the counts of its routers' global channels that changed
 * to the other ranks holding routers of the same group (share_send), which write them into
 * their copies of those routers' counts (never otherwise written there: another rank's
 * router never runs here) before the next cycle's copy: every read is the serial run's.
 * The counters are summed and the idle count of the cycle (rs__iq_settle)
 * taken on the sums in the exchange (flit_dist.c); a deadlock's waiting cycle reads every
 * rank's input VCs, gathered. */
#include <string.h>

#include "engine/iq.h"
#include "engine/iq_impl.h"
#include "routesim/alloc.h"
#include "routesim/dragonfly.h"
#include "routesim/route.h"

/* The kinds of record after their tag (FLIT_DIST_REC_IQ + kind): a flit (its channel and
 * flit; a head's packet record follows), a credit mask for a channel's tail, a credit for
 * an output VC (cy0), an output VC's count (ugal_g: struct iq_srec). */
enum { IQ_REC_FLIT = 0, IQ_REC_CRED = 1, IQ_REC_CY = 2, IQ_REC_SHARE = 3 };

/* A count record (routing=ugal_g): output VC y of another rank's router has count occ. */
struct iq_srec {
    uint32_t y, occ;
};

/* A head flit's packet record: the packet's record and, under an adaptive routing, whether
 * it entered its routing's escape VCs (iq_route.c: it stays on them). */
struct iq_head {
    struct flit_worm w;
    uint32_t esc;
};

/* A credit record: channel c and the mask of its VCs. */
struct iq_crec {
    uint32_t c, pad;
    uint64_t mask;
};

/* routing=ugal_g: the output VCs of this rank's routers that other ranks read (path_cost in
 * ugal.c reads, at a router v of the source group, the class-0 VCs, [0, B/3), of the global
 * channel of another router of v's group): those of the global ports of its routers in a
 * group whose routers are not all on this rank, with the range of ranks that hold the
 * group's routers (contiguous: the split, node_split.h, keeps a group's routers in order
 * and cuts on routers; one rank when there are at least P groups, so none are shared).
 * Every count starts at 0 on every rank, as sh_val does. Returns 0 or RS_ENOMEM. */
static int share_init(struct flit *f, struct iq *q)
{
    const struct rs_dfly *d = rs_dfly_of(f->net);
    if (!d)
        return 0;
    uint32_t per = q->B / 3, g0 = rs_dfly_gport0(d), n = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t g = 0; g < d->g; g++) {
            uint32_t first = d->N + g * d->a;
            uint32_t lo = rs__flit_rank_of_node(f, first);
            uint32_t hi = rs__flit_rank_of_node(f, first + d->a - 1);
            if (lo == hi)
                continue; /* the group's routers all on one rank: read there only */
            for (uint32_t v = first; v < first + d->a; v++) {
                if (!rs__flit_dist_own_node(f, v))
                    continue;
                q->sh_rank = rs__flit_rank_of_node(f, v);
                for (uint32_t o = g0; o < q->P; o++) {
                    if (q->ch_head[(size_t)v * q->P + o] == RS_NONE)
                        continue;
                    for (uint32_t vc = 0; vc < per; vc++, n++) {
                        if (!pass)
                            continue;
                        q->sh_y[n] = (v * q->NO + o) * q->B + vc;
                        q->sh_lo[n] = lo;
                        q->sh_hi[n] = hi;
                    }
                }
            }
        }
        if (pass)
            break;
        q->n_sh = n;
        q->sh_y = rs_malloc((size_t)n * sizeof *q->sh_y + 1);
        q->sh_val = rs_calloc((size_t)n + 1, sizeof *q->sh_val);
        q->sh_lo = rs_malloc((size_t)n * sizeof *q->sh_lo + 1);
        q->sh_hi = rs_malloc((size_t)n * sizeof *q->sh_hi + 1);
        if (!q->sh_y || !q->sh_val || !q->sh_lo || !q->sh_hi)
            return RS_ENOMEM;
        n = 0;
    }
    return 0;
}

int rs__iq_dist_init(struct flit *f)
{
    struct iq *q = f->iq;
    uint64_t n = (uint64_t)rs__flit_dist_ranks(f) * f->n_slots;
    /* not cleared: an entry is read only for a body flit, after its head wrote it (the pages
     * of the slots never used are never touched) */
    q->dist_map = rs_malloc(n * sizeof *q->dist_map + 1);
    if (!q->dist_map)
        return RS_ENOMEM;
    if (f->adaptive && !strcmp(f->routing->name, "ugal_g"))
        return share_init(f, q);
    return 0;
}

/* Append a record of kind k (len bytes at rec, then extra bytes at more) for rank r. */
static void put(struct flit *f, uint32_t r, uint32_t k, const void *rec, size_t len,
                const void *more, size_t extra)
{
    uint32_t tag = FLIT_DIST_REC_IQ + k;
    uint8_t *p = rs__flit_dist_reserve(f, r, sizeof tag + len + extra);
    if (!p)
        return;
    memcpy(p, &tag, sizeof tag);
    memcpy(p + sizeof tag, rec, len);
    if (extra)
        memcpy(p + sizeof tag + len, more, extra);
}

/* The flits of this cycle's slot (evf's slot r) whose channel's head is another rank's:
 * to it, with a head's packet record; a tail's packet leaves this rank (its slot freed). */
static void send_flits(struct flit *f, struct iq *q, uint32_t r)
{
    struct iq_fev *e = q->evf + (size_t)r * q->n_chan;
    uint32_t n = q->n_evf[r], kept = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t to = rs__flit_rank_of_node(f, q->ch_head[e[i].c]);
        if (rs__flit_dist_own_node(f, q->ch_head[e[i].c])) {
            e[kept++] = e[i];
            continue;
        }
        uint32_t m = e[i].fl.m;
        struct iq_head h = {.esc = 0};
        if (!e[i].fl.k) {
            h.w = f->w[m];
            h.esc = f->adaptive ? q->rs.esc[m] : 0;
        }
        put(f, to, IQ_REC_FLIT, &e[i], sizeof e[i], &h, e[i].fl.k ? 0 : sizeof h);
        if (e[i].fl.tail)
            f->free_slot[f->n_free++] = m;
    }
    q->n_evf[r] = kept;
}

/* The credits of this cycle's slot r (channels in evc with their masks in chc; output VCs in
 * cy) whose channel's tail is another rank's: to it. */
static void send_credits(struct flit *f, struct iq *q, uint32_t r)
{
    uint32_t *c = q->evc + (size_t)r * q->n_chan, n = q->n_evc[r], kept = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (rs__flit_dist_own_node(f, c[i] / q->P)) {
            c[kept++] = c[i];
            continue;
        }
        uint64_t *cr = &q->chc[(size_t)c[i] * q->R + r];
        struct iq_crec rec = {c[i], 0, *cr};
        put(f, rs__flit_rank_of_node(f, c[i] / q->P), IQ_REC_CRED, &rec, sizeof rec, NULL, 0);
        *cr = 0;
    }
    q->n_evc[r] = kept;
    uint32_t *y = q->cy + (size_t)r * q->n_chan, per_node = q->NO * q->B;
    n = q->n_cy[r];
    kept = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (rs__flit_dist_own_node(f, y[i] / per_node))
            y[kept++] = y[i];
        else
            put(f, rs__flit_rank_of_node(f, y[i] / per_node), IQ_REC_CY, &y[i], sizeof y[i],
                NULL, 0);
    }
    q->n_cy[r] = kept;
}

/* routing=ugal_g: the counts of share_init's output VCs that changed in this cycle (in its
 * router phase: under an adaptive routing a credit counts only there) to the other ranks
 * that hold routers of their group; there they are the counts the next cycle's copy
 * (rs__iq_rsets_begin) takes, as in the serial run. */
static void share_send(struct flit *f, struct iq *q)
{
    for (uint32_t i = 0; i < q->n_sh; i++) {
        uint32_t c = q->occ[q->sh_y[i]];
        if (c == q->sh_val[i])
            continue;
        q->sh_val[i] = c;
        struct iq_srec rec = {q->sh_y[i], c};
        for (uint32_t r = q->sh_lo[i]; r <= q->sh_hi[i]; r++)
            if (r != q->sh_rank)
                put(f, r, IQ_REC_SHARE, &rec, sizeof rec, NULL, 0);
    }
}

void rs__iq_dist_send(struct flit *f)
{
    struct iq *q = f->iq;
    if (!q)
        return;
    send_flits(f, q, q->direct ? q->r_now : q->r_wr);
    send_credits(f, q, q->r_wr);
    if (q->n_sh)
        share_send(f, q);
}

/* The slot here of a flit of packet m of rank `from`: a head's record (at p) takes a new
 * one (its sender's slot maps to it until the tail has come). RS_NONE when no slot is left but
 * those kept for the sources' fronts (one per terminal: rs__flit_make_front takes them
 * unchecked). */
static uint32_t take_slot(struct flit *f, struct iq *q, const struct iq_fl *fl, uint32_t from,
                          const uint8_t *p)
{
    uint32_t *map = &q->dist_map[(size_t)from * f->n_slots + fl->m];
    if (fl->k) /* a body flit: its head came before */
        return *map;
    if (f->n_free <= f->n_src)
        return RS_NONE;
    uint32_t m = f->free_slot[--f->n_free];
    struct iq_head h;
    memcpy(&h, p, sizeof h);
    struct flit_worm *w = &f->w[m];
    *w = h.w;
    if (f->adaptive)
        q->rs.esc[m] = (uint8_t)h.esc;
    if (w->path != RS_NONE) { /* the same route, from this rank's cache (flit_dist.c) */
        uint32_t pe = rs__flit_path_of(f, w->src, w->dst, w->mid);
        w->path = pe == RS_NONE ? RS_NONE : (pe & ~FLIT_PATH_EMPTY) - 1;
    }
    *map = m;
    return m;
}

const uint8_t *rs__iq_dist_take(struct flit *f, uint32_t kind, const uint8_t *p, uint32_t from)
{
    struct iq *q = f->iq;
    if (kind == IQ_REC_FLIT) { /* into evf's slot of this cycle, as if written here */
        uint32_t r = q->direct ? q->r_now : q->r_wr;
        struct iq_fev e;
        memcpy(&e, p, sizeof e);
        p += sizeof e;
        e.fl.m = take_slot(f, q, &e.fl, from, p);
        if (e.fl.k == 0)
            p += sizeof(struct iq_head);
        if (e.fl.m == RS_NONE) {
            q->dist_fail = 1;
            return p;
        }
        q->evf[(size_t)r * q->n_chan + q->n_evf[r]++] = e;
    } else if (kind == IQ_REC_CRED) {
        struct iq_crec rec;
        memcpy(&rec, p, sizeof rec);
        p += sizeof rec;
        q->chc[(size_t)rec.c * q->R + q->r_wr] = rec.mask;
        q->evc[(size_t)q->r_wr * q->n_chan + q->n_evc[q->r_wr]++] = rec.c;
    } else if (kind == IQ_REC_CY) {
        uint32_t y;
        memcpy(&y, p, sizeof y);
        p += sizeof y;
        q->cy[(size_t)q->r_wr * q->n_chan + q->n_cy[q->r_wr]++] = y;
    } else { /* IQ_REC_SHARE: the count of another rank's output VC, read from the next cycle */
        struct iq_srec rec;
        memcpy(&rec, p, sizeof rec);
        p += sizeof rec;
        q->occ[rec.y] = rec.occ;
    }
    return p;
}

int rs__iq_dist_failed(const struct flit *f)
{
    return f->iq && f->iq->dist_fail;
}

/* One input VC's record for the waiting cycle: its id, state, route and grant, and the
 * message at its front (RS_NONE: empty). */
struct iq_vrec {
    uint32_t x, msg;
    uint16_t r_port, r_lo, out_port, out_vc;
    uint8_t state, pad[7];
};

int rs__iq_dist_gather(struct flit *f)
{
    struct iq *q = f->iq;
    if (q->dl_msg)
        return 0;
    uint64_t n_x = (uint64_t)q->n_nodes * q->NI * q->B, n = 0;
    struct iq_vrec *v = rs_malloc(n_x * sizeof *v + 1);
    uint32_t *dl = rs_malloc(n_x * sizeof *dl + 1);
    int rc = v && dl ? 0 : RS_ENOMEM;
    for (uint64_t x = 0; !rc && x < n_x; x++) {
        if (!rs__flit_dist_own_node(f, x / ((uint64_t)q->NI * q->B)))
            continue;
        uint32_t msg = q->iq[x].cnt ? f->w[q->ibuf[x * q->Dc + q->iq[x].head].m].msg : RS_NONE;
        if (q->state[x] == 0 && msg == RS_NONE) /* 0: idle (iq.c) */
            continue; /* idle and empty: as on every rank */
        v[n++] = (struct iq_vrec){(uint32_t)x,     msg,           q->r_port[x], q->r_lo[x],
                                  q->out_port[x], q->out_vc[x], q->state[x], {0}};
    }
    /* (a rank out of memory sends nothing: the line then misses its VCs, the run ends) */
    const uint8_t *all;
    uint64_t total = 0;
    if (rs__flit_dist_allgather(f, v, rc ? 0 : n * sizeof *v, &all, &total)) {
        rs_free(v);
        rs_free(dl);
        return RS_EIO;
    }
    rs_free(v);
    if (rc)
        return rc;
    memset(dl, 0xff, n_x * sizeof *dl);
    for (uint64_t i = 0; i < total / sizeof(struct iq_vrec); i++) {
        struct iq_vrec r;
        memcpy(&r, all + i * sizeof r, sizeof r);
        q->state[r.x] = r.state;
        q->r_port[r.x] = r.r_port;
        q->r_lo[r.x] = r.r_lo;
        q->out_port[r.x] = r.out_port;
        q->out_vc[r.x] = r.out_vc;
        dl[r.x] = r.msg;
    }
    q->dl_msg = dl;
    return 0;
}
