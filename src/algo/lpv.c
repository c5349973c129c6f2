/* The Lev-Pippenger-Valiant off-line router on a CB-LCAN(N,d,d) unfolded into its d-ary
 * Beneš-like network (002 §4.1): one d-colouring of a regular bipartite multigraph per level
 * below the top chooses every message's up digit of that level. */
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "algo/lcan_plan.h"

/* Why the colourings make the circuits disjoint. A message from s that took the up digits
 * k_0 .. k_{j-1} is at the level-j switch with high part s div d^(j+1) and low part
 * k_0 .. k_{j-1} (002 §2.1); its upper k_j is the up channel (s div d^(j+1), k_0 .. k_j).
 * Coming down from the top it enters the level-j switch (dst div d^(j+1), k_0 .. k_{j-1})
 * over the down channel (dst div d^(j+1), k_0 .. k_j). So two messages can only meet on a
 * level-j channel if they share k_0 .. k_{j-1}, and then they must differ in k_j when they
 * share s div d^(j+1) (up) or dst div d^(j+1) (down). Inside one class k_0 .. k_{j-1} the
 * messages form a d-regular bipartite multigraph between the values of s div d^(j+1) and of
 * dst div d^(j+1) (induction: the class has one message per value of s div d^j, and d of
 * those values share s div d^(j+1); the same for destinations), so a proper d-colouring of
 * its edges is exactly a choice of k_j that respects both conditions. All classes of one
 * level together are one d-regular graph with N/d vertices per side: vertex
 * class * (N / d^(j+1)) + (s or dst) div d^(j+1). */
int rs__lpv_route(uint32_t N, uint32_t d, uint32_t l, const uint32_t *dst, uint64_t seed,
                  uint32_t *top, struct rs_err *err)
{
    struct rs__colourer c;
    uint32_t *left = NULL, *right = NULL, *colour = NULL;
    int rc = 0;
    RS_ASSERT(N >= 1 && l >= 1 && dst != NULL && top != NULL);
    memset(top, 0, (size_t)N * sizeof *top);
    if (l < 2)
        return 0;
    if ((rc = rs__colour_init(&c, N / d, d, err)))
        goto out;
    left = rs_malloc((size_t)N * sizeof *left);
    right = rs_malloc((size_t)N * sizeof *right);
    colour = rs_malloc((size_t)N * sizeof *colour);
    if (!left || !right || !colour) {
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the off-line router of %u PEs", N);
        goto out;
    }
    uint32_t span = d; /* d^(j+1) */
    for (uint32_t j = 0; j + 1 < l; j++, span *= d) {
        uint32_t block = N / span; /* values of s div d^(j+1) */
        for (uint32_t s = 0; s < N; s++) {
            left[s] = top[s] * block + s / span;
            right[s] = top[s] * block + dst[s] / span;
        }
        if ((rc = rs__colour_run(&c, left, right, seed, j, colour, err))) {
            rs_err_set(err, RS_EINVARIANT,
                       "off-line router: level %u is not a d-regular graph (the destinations "
                       "are not a permutation)",
                       j);
            goto out;
        }
        for (uint32_t s = 0; s < N; s++)
            top[s] = top[s] * d + colour[s];
    }
out:
    rs_free(left);
    rs_free(right);
    rs_free(colour);
    rs__colour_free(&c);
    return rc;
}
