/* Flit-serial routing on lines (chains and rings) of Makedon & Symvonis (paper 003 §2 and
 * §4.1), many independent lines at once: Route_on_a_Chain, many-to-one and one-to-many
 * routing, the ring routines of Lemmas 6 and 7. Shared by algorithm=ms_chain and the mesh
 * and torus phases of ms_mesh / ms_torus (docs/ms-chain.md). */
#ifndef ROUTESIM_MS_LINE_H
#define ROUTESIM_MS_LINE_H

#include <stdint.h>

#include "routesim/error.h"

/* ---- The model (exactly what one step is; docs/ms-chain.md) ---------------------------
 *
 * A problem is `lines` independent lines of n processors (positions 0..n-1). A chain has
 * the channels p -> p+1 and p+1 -> p; a ring also n-1 -> 0 and 0 -> n-1. Every processor
 * has one PORT per direction (+1: towards higher positions, -1: towards lower ones): the
 * place where the flits that still have to cross that outgoing channel wait (003 §2.1's
 * "FIFO queue associated with each one of its two channels"). A packet (snake) has k flits
 * and travels in one direction from src to dst (dst == src: delivered at once, no move).
 *
 * Steps are numbered 1, 2, ...: step s is the paper's step s-1 (003 counts from step 0),
 * so a count of steps is the paper's count, and a packet's `finish` is the number of steps
 * the paper needs to deliver it. In each step, at every port:
 *   1. the heads that crossed into this processor in step s-1 (and the local packets
 *      released at s-1) join the port's waiting packets (003: "appends the flits it
 *      received at step i-1");
 *   2. if the port has no current packet it picks one among its ELIGIBLE waiting packets
 *      by the discipline's rule (none eligible: it stays idle);
 *   3. if it has a current packet it transmits that packet's next flit across the channel
 *      (one flit per channel per step); a flit that reaches its destination is delivered in
 *      that step; after the tail the port has no current packet (the next one is picked
 *      in the next step: no gap, no overlap).
 * Once a port starts a packet it sends its k flits on k consecutive steps (non-preemptive);
 * under cut-through eligibility the packet's next flit is always there in time (every
 * upstream port also sends it on consecutive steps), so snakes are never broken.
 *
 * Disciplines (enum rs_ms_disc):
 *   RS_MS_FIFO      Route_on_a_Chain (003 §2.1, Theorem 1; Theorem 2's many-to-one) and,
 *                   on rings, Lemma 6's "shortest path, no over passing". Eligible: head
 *                   present (cut-through with partial cuts). Pick: the packet whose head
 *                   arrived first (local packets first, in input order). So each port is
 *                   a FIFO of flits and always transmits when non-empty; with at most one
 *                   local packet per port it never holds more than k flits.
 *   RS_MS_FARTHEST  one-to-many (003 §2.2, Theorem 3): eligible as FIFO; pick the packet
 *                   that has to go farthest from this processor (local or in transit),
 *                   ties by earlier head arrival, then input order.
 *   RS_MS_SAF_DELAYED  Lemma 7 (003 §4.1): store-and-forward; a packet that travels
 *                   distance mu starts at paper step (H - mu)k, i.e. its head crosses its
 *                   first channel in step (H - mu)k + 1, where H = floor(n/2) on a ring
 *                   whose packets all take the shortest way (dir 0), else n - 1
 *                   (the paper writes (n/2 - mu - 1)k, which is negative for mu = n/2;
 *                   docs/papers/makedon-symvonis.md). Eligible: the whole packet at this
 *                   processor and, at its source, its start step reached. Pick: earliest
 *                   eligible, then input order. Lemma 7 says no two packets ever compete:
 *                   `blocked_starts` counts every (packet, step) in which an eligible
 *                   packet was not sent (0 when the lemma holds).
 *
 * Direction: on a chain a packet goes towards dst (dir must be 0 or that sign). On a ring
 * dir 0 takes the shortest way, ties (distance exactly n/2) in the + direction; dir +1 or
 * -1 forces that direction (the four-snake torus routing of 003 §4.3).
 *
 * The QUEUE measure (003 Lemma 4's "packets queued at any processor waiting for the same
 * channel"): at a port, after step 1 of a step, the packets that have at least one flit
 * at this processor still to cross the port's channel (its current packet while flits are
 * left, plus every waiting packet, released or not). `max_queue` is the largest over all
 * ports and steps. */

enum rs_ms_shape { RS_MS_CHAIN = 0, RS_MS_RING = 1 };

enum rs_ms_disc { RS_MS_FIFO = 0, RS_MS_FARTHEST = 1, RS_MS_SAF_DELAYED = 2 };

/* One packet: line < lines, src and dst < n, dir in {-1, 0, +1} (above). Several packets
 * may share a source (their input order is their order among local packets). */
struct rs_ms_packet {
    uint32_t line;
    uint32_t src;
    uint32_t dst;
    int32_t dir;
};

struct rs_ms_line_problem {
    uint32_t lines;      /* >= 1 */
    uint32_t n;          /* processors per line, >= 1 */
    enum rs_ms_shape shape;
    enum rs_ms_disc disc;
    uint32_t k;          /* flits per packet, 1..65535 */
    uint32_t m;          /* packets (0 allowed) */
    const struct rs_ms_packet *pkt; /* m packets; borrowed, read only */
    /* Per-step invariant check (test builds, check=1): every flit's position is kept and
     * after every step: snakes unbroken (flit j+1 at the processor of flit j or one hop
     * behind), every channel carried at most one flit, under FIFO with at most one local
     * packet per port no port holds more than k flits, no overtaking (under FIFO the
     * packets leave every port in the order their heads arrived), store-and-forward
     * snakes on at most two processors. A violation returns RS_EINVARIANT. Costs
     * O(m k) per step and m k words. */
    int check;
    /* Optional (check=1 only; NULL otherwise): called after step 0 and after every step s
     * with hops[p*k + j] = hops flit j of packet p has made (the processor is src +
     * dir*hops, modulo n on a ring); for tests that follow every flit. */
    void (*on_step)(void *ctx, uint64_t step, const uint32_t *hops);
    void *ctx;
};

struct rs_ms_line_result {
    uint64_t steps;          /* largest finish over all packets (0 when none moves) */
    uint64_t flit_hops;      /* flits that crossed a channel, = sum over packets of k*distance */
    uint32_t max_queue;      /* the QUEUE measure above, in packets */
    uint32_t max_port_flits; /* largest number of flits at one port (check=1 only, else 0) */
    uint64_t blocked_starts; /* (packet, step) pairs an eligible packet waited (above) */
};

/* Route prob. finish (NULL, or m entries, caller-owned) receives each packet's finish: the
 * step its tail is delivered (0 for dst == src); line_steps (NULL, or prob->lines entries)
 * each line's largest finish. res is filled on success. Allocates its state once (O(m +
 * lines*n) words, plus m*k with check) and nothing inside the step loop; frees it before
 * returning. Returns 0, RS_EINVAL on a bad problem (a field out of range, a packet off its
 * line, a forced direction a chain does not have) with one message naming the first bad
 * item, RS_ENOMEM, or RS_EINVARIANT (check=1) naming the step and what broke. Thread-safe
 * (no global state). */
int rs__ms_line_route(const struct rs_ms_line_problem *prob, struct rs_ms_line_result *res,
                      uint64_t *finish, uint64_t *line_steps, struct rs_err *err);

/* Distance a packet travels (hops) under the direction rule above; 0 when dst == src.
 * Requires a valid packet of prob (checked by rs__ms_line_route). */
uint32_t rs__ms_line_distance(const struct rs_ms_line_problem *prob,
                              const struct rs_ms_packet *p);

/* The paper's bounds, in steps (the units of rs_ms_line_result.steps):
 *   Theorem 1 (permutation on a chain):         n(k+1)/2 + k
 *   Theorems 2 and 3 (many-to-one, one-to-many
 *   on a chain with m packets on it):            (k-1)m + n
 *   Lemma 6 (many-to-one on a ring, sources on
 *   non-adjacent processors):                    kn/4
 *   Lemma 7 (one-to-many on a ring):             kn/2 */
double rs__ms_bound_thm1(uint32_t n, uint32_t k);
double rs__ms_bound_thm23(uint32_t n, uint32_t k, uint64_t m);
double rs__ms_bound_lemma6(uint32_t n, uint32_t k);
double rs__ms_bound_lemma7(uint32_t n, uint32_t k);

#endif
