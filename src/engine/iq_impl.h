/* router=iq's state (struct iq and its entry types), private to the router's files: iq.c
 * (the router, its terminals, one cycle), iq_par.c (a cycle's routers on threads) and
 * iq_dist.c (the routers over MPI ranks). The
 * model: docs/model-iq.md; the layout of the event-driven cycle: docs/ARCHITECTURE.md. */
#ifndef RS_ENGINE_IQ_IMPL_H
#define RS_ENGINE_IQ_IMPL_H

#include <stdint.h>

#include "engine/flit.h"
#include "engine/iq_alloc.h"
#include "engine/iq_route.h"

/* A flit: packet (worm slot) m, its k-th flit, carried on VC vc (at most 64 VCs); tail = 1
 * for its packet's last flit (a body flit's move reads no worm). */
struct iq_fl {
    uint32_t m;
    uint16_t k;
    uint8_t vc, tail;
};

/* An entry of a stage queue (route, VC allocation, switch allocation): input VC (in, vc),
 * time = -1 until evaluated, then the cycle its result is applied; res = the grant. */
struct iq_ent {
    int32_t time;
    uint16_t in, vc;
    int32_t res;
};

struct iq_xent { /* a flit crossing the switch */
    int32_t time;
    struct iq_fl fl;
    uint16_t ein, eout;
};

struct iq_fev { /* a flit in flight on network channel c */
    uint32_t c;
    struct iq_fl fl;
};

struct iq_cred { /* a received credit waiting credit_delay cycles */
    int32_t time;
    uint32_t out;
    uint64_t mask;
};

/* A ring-buffer queue's indices (entries live in a caller array of capacity cap). */
struct iq_ring {
    uint32_t head, cnt;
};

/* A node's stage queues (routing, VC allocation, switch allocation, held connections), its
 * crossbar queue and its received-credit queue: their indices side by side (48 bytes), so
 * a router's visit reads one or two cache lines for all of them. */
struct iq_rings {
    struct iq_ring rq, vq, sq, hq, xq, pc;
};

struct iq {
    /* keys */
    uint32_t rd, va, sa, xd, cd, lat, s_in, s_out, iters;
    int spec, wftc, busy_full;
    int vsplit; /* Valiant without vc_classes: one half of the VCs per phase (BookSim) */
    enum iq_alloc_kind va_kind, sa_kind;
    /* shape */
    uint32_t B, depth, P, NI, NO, n_nodes, n_src, R, Rt;
    uint32_t NIe, NOe; /* crossbar ports: NI * s_in, NO * s_out */
    /* input VCs [(node * NI + in) * B + vc] */
    struct iq_fl *ibuf; /* [.. * Dc] ring per VC */
    uint32_t Dc;        /* its capacity: the power of two at or above depth */
    struct iq_ring *iq;
    uint8_t *state;
    uint16_t *out_port, *out_vc, *r_port, *r_lo, *r_hi;
    struct iq_rsets rs; /* adaptive routing: the candidates of each input VC's head */
    /* output VCs [(node * NO + out) * B + vc]: BookSim's BufferState of the next buffer */
    int32_t *use;
    uint8_t *tail_sent;
    uint32_t *occ;
    /* output queues [node * NO + out], capacity QO */
    struct iq_fl *oq;
    struct iq_ring *oqr;
    uint32_t QO;
    /* the switch's pass-through path (docs/ARCHITECTURE.md, router=iq): direct = 1 when
     * st_prepare_delay + st_final_delay = 1 and output_speedup = 1, where a flit leaving an
     * input buffer in cycle c is written to its channel in cycle c + 1 without waiting in
     * the crossbar and output queues; carry = such flits written this cycle, counted as
     * moves of the next (the cycle BookSim writes them in) */
    int direct;
    uint32_t carry;
    /* lone_sa = 1 when sw_alloc_delay = 1, speculative = 0 and hold_switch_for_packet = 0:
     * switch bids without conflicts are granted without the allocator (sw_alloc_lone for
     * one bid, sw_alloc_free for more) */
    int lone_sa;
    /* lone_va = 1 when vc_alloc_delay = 1, speculative = 0 and the routing is oblivious: a
     * lone head's VC bids are decided without the allocator (vc_alloc_lone) */
    int lone_va;
    /* fast = 1 in the configuration every KQ(fs, ...) of the router cycle fixes (delays of
     * one cycle with the direct switch, speedups 1, no speculation or held connections, an
     * oblivious routing, credit_delay = 0, at most 64 inputs): the cycle's fast instance,
     * compiled with those keys as constants, runs it */
    int fast;
    /* sa_bits = 1 when fast, sw_allocator=islip, NIe and NOe at most 32 and B at most 256:
     * the fast instance's switch allocation of two or more bids is sw_alloc_bits */
    int sa_bits;
    /* sets = 1 when sa_bits, at most 64 input VCs per router and no event log: the fast
     * cycle runs on sets (router_cycle_set), its stage queues qs[node * 3 + 0, 1, 2]
     * (routing, VC allocation, switch allocation) sets of input VCs iv = in * B + vc, whose
     * input and VC are ivin[iv], ivvc[iv] */
    int sets;
    uint64_t *qs;
    uint8_t ivin[64], ivvc[64];
    /* cd0 = 1 when credit_delay = 0 and the routing is oblivious: a credit counts when it
     * is read (no received-credit queue) */
    int cd0;
    /* cy0 = 1 when cd0 and input_speedup = 1 (one credit per input per cycle): a network
     * input's credit travels as the index of the output VC it frees at the sender,
     * up_y[node * NI + in] + vc, in the list cy of its ring slot (no mask, no channel
     * slot) */
    int cy0;
    uint32_t *up_y;            /* [node * NI + in], in < P */
    uint32_t *cy, *n_cy;       /* [r * n_chan], [R] */
    /* received credits per node, capacity QP */
    struct iq_cred *pc;
    uint32_t QP;
    /* stage queues per node: route, VC allocation, switch allocation (capacity QS), and the
     * crossbar (capacity QX) */
    struct iq_ent *rq, *vq, *sq, *hq; /* hq: VCs holding a switch connection */
    struct iq_rings *nr; /* [node]: the indices of the node's rings, in one place */
    int hold;                        /* hold_switch_for_packet */
    int32_t *hold_vc, *hold_in;      /* [node * NIe + crossbar input] */
    int32_t *hold_out;               /* [node * NOe + crossbar output] */
    uint32_t QS;
    struct iq_xent *xq;
    uint32_t QX;
    /* allocators' persistent pointers per node */
    uint32_t *va_in_ptr, *va_out_ptr, *sa_in_ptr, *sa_out_ptr, *sw_rr;
    /* allocator scratch (one node at a time) */
    struct iq_allocator vaa, saa;
    int32_t *scratch;
    struct iq_req *vreq, *sreq;
    uint32_t n_vreq, n_sreq, max_vreq;
    int32_t *sreq_at; /* [NIe * NOe] index into sreq, -1 */
    /* flits received this cycle [node * NI + in] */
    struct iq_fl *rx;
    /* channels: network channel c = node * P + port; head node and in-slot */
    uint32_t *ch_head, *ch_slot, *in_chan; /* in_chan[node * P + slot] = channel */
    uint64_t *chc;      /* [c * R] credits in flight back to c's tail */
    /* terminals: those injecting at node are src_t[src_of[node] .. src_of[node+1]), in
     * increasing order, at router inputs P, P+1, ...; those ejecting there dst_t[dst_of[node]
     * ..], at outputs P, P+1, ...; terminal t ejects at output P + dst_j[t] */
    uint32_t *src_of, *dst_of; /* [n_nodes + 1] */
    uint32_t *src_t, *dst_t, *dst_j; /* [n_src] */
    struct iq_fl *injf, *ejf;  /* [t * Rt] */
    uint64_t *injc, *ejc;      /* [t * Rt] credits to the source, to the router */
    int32_t *t_use;            /* [t * B + vc] injection buffer state at the source */
    uint8_t *t_tail;
    uint32_t *t_occ;
    int32_t *t_last;           /* last VC a head took */
    uint32_t *t_cur, *t_k, *t_vc; /* packet being injected, its next flit, its VC */
    uint64_t *tcm, *srcm;      /* [wT]: terminals with t_cur set; scratch of the step */
    uint64_t packets;          /* in the network (head sent, tail not delivered) */
    uint32_t idle;             /* cycles without a flit or credit moving */
    uint32_t now;
    uint32_t r_now, rt_now;    /* now mod R, now mod Rt: the channel slots read now */
    uint32_t r_wr, rt_wr;      /* (now + lat + 1) mod R, (now + 2) mod Rt: the slots written */
    /* the event-driven cycle (iq_bits.h): work lists and sets instead of scans of every
     * router, port and terminal */
    uint32_t n_chan;           /* network channels (f->n_chan) */
    uint32_t wN, wI, wO, wT;   /* words of a set of nodes, inputs, outputs, terminals */
    uint64_t *busy;            /* nodes whose router has something to do this cycle */
    uint64_t *wbusy;           /* nodes with a flit or credit to write */
    uint64_t *rxm;             /* [node * wI]: inputs with a flit received */
    uint64_t *oqm;             /* [node * wO]: non-empty output queues */
    struct iq_fev *evf;        /* [r * n_chan]: flits written in ring slot r, their channels */
    uint32_t *evc;             /* [r * n_chan]: channels with a credit written in ring slot r */
    uint32_t *n_evf, *n_evc;   /* [R] */
    uint32_t *evi, *evj;       /* [rt * n_src]: terminals with a flit injected, a credit to
                                * their source */
    uint32_t *evk;             /* [rt * n_src]: terminals with a credit to their router */
    uint32_t *n_evi, *n_evj, *n_evk; /* [Rt] */
    uint64_t *ejm;             /* [rt * wT]: terminals with a flit to eject in slot rt */
    uint32_t *src_n, *src_j, *dst_n; /* [n_src]: t's source node and its input there - P,
                                      * its destination node */
    /* the router phase's writers, set at the start of the step (the slots they write are
     * empty then): cy's slot r_wr (send_credit, cy0), evf's slot r_now when direct
     * (write_flit) else r_wr (router_write), evc's slot r_wr and evj's slot rt_wr
     * (send_credit), and the row of ejm that ejections set (rt_now when direct, else
     * rt_wr); n_cy, n_evf, n_evc and n_evj of those slots are set from them at its end */
    uint32_t *cy_w;
    struct iq_fev *evf_w;
    uint32_t *evc_w, *evj_w;
    uint64_t *ejm_w;
    /* threads=T > 1 (iq_par.c): the router phase in n_part parts, NULL when serial */
    struct iq_part *part;
    uint32_t n_part;
    /* over MPI ranks (iq_dist.c): the slot of each packet that arrived from another rank,
     * [from * n_slots + its slot there] (written by its head); a taken record found no slot
     * (dist_fail); dl_msg[input VC]: after rs__iq_dist_gather, the message at the front of
     * every rank's input VCs (RS_NONE: empty), read by the deadlock's waiting cycle */
    uint32_t *dist_map;
    int dist_fail;
    uint32_t *dl_msg;
    /* routing=ugal_g over MPI ranks (iq_dist.c): the output VCs whose counts other ranks read
     * (the class-0 VCs of the global channels of this rank's routers in a group that another
     * rank's routers share), output VC sh_y[i], its count as last sent sh_val[i], read by
     * the ranks [sh_lo[i], sh_hi[i]] other than this one (sh_rank); NULL otherwise */
    uint32_t *sh_y, *sh_val, *sh_lo, *sh_hi;
    uint32_t n_sh, sh_rank;
};

/* The router phase's cycles of the busy routers whose node is in words [w0, w1) of the
 * busy set, in increasing order (step 4 of docs/model-iq.md; under an adaptive routing the
 * credit view's start-of-cycle copy taken before). f and q may be a part's copies
 * (iq_par.c). Returns 0 or RS_E... (err set) at the first failing router. */
int rs__iq_routers(struct flit *f, struct iq *q, uint32_t w0, uint32_t w1, struct rs_err *err);

/* The routers' writes (not direct: one flit per non-empty output queue) of the nodes in
 * words [w0, w1) of wbusy, in increasing order. */
void rs__iq_writes(struct flit *f, struct iq *q, uint32_t w0, uint32_t w1);

/* Set up the parts of the router phase when f->threads > 1 (q->part; nothing otherwise).
 * Returns 0 or RS_ENOMEM. */
int rs__iq_par_init(struct flit *f, struct iq *q);
void rs__iq_par_free(struct iq *q);

/* Run the router phase (rs__iq_routers and rs__iq_writes over every node) on the threads
 * when q->part is set and the cycle has enough busy routers, else serially: the same
 * outcome either way. Returns 0 or RS_E... (the error of the first failing router). */
int rs__iq_par_routers(struct flit *f, struct iq *q, struct rs_err *err);

#endif
