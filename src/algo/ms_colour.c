/* Makedon–Symvonis (003) step 1: the colourings A, B and C (= random) of §3.2 and the
 * measured (u, v, w, x) of a colouring (§3.1 Definition). */
#include <math.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/error.h"
#include "routesim/ms_mesh.h"
#include "routesim/rng.h"

void rs_ms_colour(uint32_t n, uint64_t n_snakes, const uint32_t *src, const uint32_t *dst,
                  enum rs_ms_colouring how, uint64_t seed, uint8_t *black)
{
    RS_ASSERT(n >= 1 && src != NULL && dst != NULL && black != NULL);
    for (uint64_t s = 0; s < n_snakes; s++) {
        uint32_t node = how == RS_MS_COL_B ? dst[s] : src[s];
        if (how == RS_MS_COL_A || how == RS_MS_COL_B) {
            black[s] = (uint8_t)rs_ms_chess_black(node / n, node % n);
        } else {
            struct rs_rng r;
            rs_rng_init(&r, seed, RS_STREAM_MS_COLOUR, s, 0);
            black[s] = (uint8_t)(rs_rng_u32(&r) & 1u);
        }
    }
}

int rs_ms_uvwx(uint32_t n, uint64_t n_snakes, const uint32_t *pos, const uint32_t *dst,
               const uint8_t *black, uint32_t uvwx[4])
{
    uint32_t *cnt = rs_calloc(4 * (size_t)n, sizeof *cnt);
    if (!cnt)
        return RS_ENOMEM;
    for (uint64_t s = 0; s < n_snakes; s++) {
        RS_ASSERT(pos[s] < n * n && dst[s] < n * n);
        if (black[s]) {
            cnt[n + pos[s] % n]++;     /* v: black per column, now */
            cnt[3 * n + dst[s] / n]++; /* x: black destined per row */
        } else {
            cnt[pos[s] / n]++;         /* u: white per row, now */
            cnt[2 * n + dst[s] % n]++; /* w: white destined per column */
        }
    }
    for (int q = 0; q < 4; q++) {
        uvwx[q] = 0;
        for (uint32_t i = 0; i < n; i++)
            if (cnt[(size_t)q * n + i] > uvwx[q])
                uvwx[q] = cnt[(size_t)q * n + i];
    }
    rs_free(cnt);
    return 0;
}

static uint32_t largest_divisor_upto(uint32_t n, uint32_t lim)
{
    for (uint32_t d = lim < n ? lim : n; d > 1; d--)
        if (n % d == 0)
            return d;
    return 1;
}

uint32_t rs_ms_f(uint32_t n, int f_sqrt)
{
    RS_ASSERT(n >= 1);
    double t = f_sqrt ? sqrt((double)n) : log2((double)n);
    uint32_t lim = (uint32_t)floor(t + 0.5);
    return largest_divisor_upto(n, lim < 1 ? 1 : lim);
}
