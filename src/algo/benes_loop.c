/* The looping algorithm (Beneš 1964; Waksman 1968) on topology=benes: the middle row of
 * every circuit from the LPV recursion with d = 2 (lpv.c, whose Euler splits are the loops),
 * and the switch settings those rows give. docs/lcan-realization.md, "Beneš networks". */
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "algo/lcan_plan.h"

/* Why the rows are distinct. LPV on CB-LCAN(N,2,2) puts the message of s at depth j into
 * the sub-network k_0 .. k_{j-1} and gives it k_j; in benes.c's numbering its row after
 * the first j+1 stages is (s div 2^(j+1), k_0 .. k_j) read as bits n-1 .. j+1 of s and
 * bits j .. 0 = k_j .. k_0, which is LPV's up channel of level j, used by one message.
 * Symmetrically the row before the last j+1 stages is LPV's down channel (dst div 2^(j+1),
 * k_0 .. k_j). The middle rows mid = (s bit n-1, k_{n-2} .. k_0) equal the rows after
 * stage n-1, so they are distinct too. */
int rs__benes_loop(uint32_t n, const uint32_t *dst, uint32_t *mid, struct rs_err *err)
{
    RS_ASSERT(dst != NULL && mid != NULL);
    if (n < 1 || n > 25)
        return rs_err_set(err, RS_ECONSTRAINT, "looping algorithm: n = %u is out of 1..25", n);
    uint32_t N = 1u << n;
    int rc = rs__lpv_route(N, 2, n, dst, 0, mid, err); /* top labels, k_0 most significant */
    if (rc)
        return rc;
    for (uint32_t s = 0; s < N; s++) {
        uint32_t top = mid[s], row = s & (N >> 1); /* bit n-1: the first middle stage straight */
        for (uint32_t j = 0; j + 1 < n; j++)
            row |= ((top >> (n - 2 - j)) & 1u) << j;
        mid[s] = row;
    }
    return 0;
}

/* Bit flipped by stage l of the Beneš network on 2^n rows (benes.c). */
static uint32_t stage_bit(uint32_t n, uint32_t l)
{
    return l < n ? l : 2 * n - 1 - l;
}

/* Index of the switch of stage bit b that holds row r: r with bit b removed. */
static uint32_t switch_of(uint32_t r, uint32_t b)
{
    return ((r >> (b + 1)) << b) | (r & ((1u << b) - 1));
}

int rs__benes_settings(uint32_t n, const uint32_t *dst, const uint32_t *mid, uint8_t *set,
                       struct rs_err *err)
{
    RS_ASSERT(n >= 1 && n <= 25 && dst != NULL && mid != NULL && set != NULL);
    uint32_t N = 1u << n, half = N >> 1;
    memset(set, 0xff, (size_t)2 * n * half);
    for (uint32_t s = 0; s < N; s++) {
        uint32_t row = s;
        for (uint32_t l = 0; l < 2 * n; l++) {
            uint32_t b = stage_bit(n, l), goal = l < n ? mid[s] : dst[s];
            uint8_t x = (uint8_t)(((row ^ goal) >> b) & 1u), *at = &set[(size_t)l * half +
                                                                        switch_of(row, b)];
            if (*at != 0xff && *at != x)
                return rs_err_set(err, RS_EINVARIANT,
                                  "looping algorithm: the circuit of PE %u (to %u through middle "
                                  "row %u) needs switch %u of stage %u %s, another set it %s",
                                  s, dst[s], mid[s], switch_of(row, b), l,
                                  x ? "crossed" : "straight", x ? "straight" : "crossed");
            *at = x;
            row ^= (uint32_t)x << b;
        }
    }
    return 0;
}

uint32_t rs__benes_follow(uint32_t n, const uint8_t *set, uint32_t s)
{
    RS_ASSERT(n >= 1 && n <= 25 && set != NULL);
    uint32_t half = 1u << (n - 1), row = s;
    for (uint32_t l = 0; l < 2 * n; l++) {
        uint32_t b = stage_bit(n, l);
        row ^= (uint32_t)(set[(size_t)l * half + switch_of(row, b)] & 1u) << b;
    }
    return row;
}
