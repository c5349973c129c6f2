/* The hard permutation of Maggs & Sitaraman 004 §3 (Theorem 3.1): the parameters r and d
 * of the proof, its bound, and the construction that runs a deterministic nonpredictive
 * protocol on the butterfly with queue threshold q as the proof's adversary. */
#ifndef ROUTESIM_HARD_PERM_H
#define ROUTESIM_HARD_PERM_H

#include <stdint.h>

#include "routesim/error.h"

/* The deterministic nonpredictive protocols the construction can play against (the
 * store-and-forward engine's protocol of the same name, docs/model-saf.md). */
enum rs_hard_proto { RS_HARD_FIFO, RS_HARD_PRIORITY, RS_HARD_FURTHEST_FIRST };

/* The proof's parameters for N = 2^n inputs and threshold q. */
struct rs_hard_params {
    uint32_t n, q;
    uint32_t k;       /* log2 r */
    uint32_t r;       /* packets forced through each input of the busy sub-butterfly */
    uint32_t d;       /* n - 2k: depth of the busy sub-butterfly (levels k .. n-k) */
    uint64_t bound;   /* 2^d (r - (q+2)(d+1)) steps */
    double asymptotic; /* N / (4 (q+2) (n+1)) steps, the theorem's closing expression */
};

/* Choose r = 2^k, k >= 1, maximising the proof's bound 2^d (r - (q+2)(d+1)) over the valid
 * r (r^2 <= N, r > (q+2)(d+1), d = n - 2k); ties go to the smaller r. n <= 31. Returns 0
 * with *hp filled, or (err may be NULL: no message) RS_ECONSTRAINT "... no power of two r is valid ...; the smallest N
 * for queue_threshold=q is 2^m" when none is. */
int rs_hard_choose(uint32_t n, uint32_t q, struct rs_hard_params *hp, struct rs_err *err);

/* Build the permutation (dst[t] for each of the N = 2^hp->n inputs t; caller-owned, N
 * entries) by simulating the butterfly with one queue per switch of threshold hp->q under
 * protocol proto, deciding each packet's next edge when its switch first selects it (the
 * adversary of the proof; docs/workloads.md). The simulation is the store-and-forward
 * engine's step (queue_at=switch, on_full=block, direct routing, one packet per input) for
 * these protocols, so routing dst there with them reproduces it: *makespan (may be NULL)
 * receives the step of its last delivery. The simulation is a lifecycle run by the driver's
 * loop. Returns 0, RS_ENOMEM, or RS_EINVARIANT if a step moved nothing (a defect). */
int rs_hard_build(const struct rs_hard_params *hp, enum rs_hard_proto proto, uint32_t *dst,
                  uint32_t *makespan, struct rs_err *err);

#endif
