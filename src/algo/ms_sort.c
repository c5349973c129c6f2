/* Makedon–Symvonis (003) step 2 on the mesh: shearsort ((2 ceil(log2 m) + 2) m exchange steps
 * on an m x m submesh) or Schnorr–Shamir (ref [22], ms_ss.c) of the black
 * snakes row-wise row-major and the white ones column-wise column-major, simulated
 * compare-exchange by compare-exchange on the links and checked against the target order. */
#include <stdlib.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/error.h"
#include "routesim/ms_mesh.h"

#define EMPTY UINT64_MAX

static uint32_t ceil_log2(uint32_t m)
{
    uint32_t l = 0;
    while ((1u << l) < m)
        l++;
    return l;
}

uint64_t rs_ms_sort_steps(uint32_t m)
{
    if (m <= 1)
        return 0;
    uint64_t l = ceil_log2(m);
    return (2 * l + 2) * (uint64_t)m;
}

/* One odd-even transposition phase over the lines of g (m x m, logical row-major): lines are
 * rows (rows = 1) or columns; a row lr is sorted descending when snake is set and lr is odd. */
static void phase(uint64_t *g, uint32_t m, int rows, int snake)
{
    for (uint32_t t = 0; t < m; t++)
        for (uint32_t line = 0; line < m; line++) {
            int desc = rows && snake && (line & 1u);
            for (uint32_t j = t & 1u; j + 1 < m; j += 2) {
                size_t a = rows ? (size_t)line * m + j : (size_t)j * m + line;
                size_t b = rows ? a + 1 : a + m;
                if ((g[a] > g[b]) != desc && g[a] != g[b]) {
                    uint64_t x = g[a];
                    g[a] = g[b];
                    g[b] = x;
                }
            }
        }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sort g into row-major order by shearsort, or by Schnorr–Shamir when ss is set (tgt: its
 * m * m scratch); 0, or RS_EINVARIANT when the result is not sorted. */
static int sort_grid(uint64_t *g, uint64_t *tmp, uint32_t *tgt, uint32_t m, int ss)
{
    uint32_t l = ceil_log2(m);
    size_t mm = (size_t)m * m;
    for (size_t i = 0; i < mm; i++)
        tmp[i] = g[i];
    qsort(tmp, mm, sizeof *tmp, cmp_u64);
    if (ss) {
        if (rs__ms_ss_sort(g, tgt, m) != rs_ms_ss_steps(m))
            return RS_EINVARIANT;
    } else {
        for (uint32_t p = 0; p <= l; p++) {
            phase(g, m, 1, 1);
            if (p < l)
                phase(g, m, 0, 0);
        }
        phase(g, m, 1, 0);
    }
    for (size_t i = 0; i < mm; i++)
        if (g[i] != tmp[i])
            return RS_EINVARIANT;
    return 0;
}

uint64_t rs_ms_sort(uint32_t n, uint32_t side, uint64_t n_snakes, uint32_t *pos,
                    const uint32_t *dst, const uint8_t *black, int *rc)
{
    return rs_ms_sort_by(n, side, n_snakes, pos, dst, black, RS_MS_SORT_SHEARSORT, NULL, rc);
}

uint64_t rs_ms_sort_by(uint32_t n, uint32_t side, uint64_t n_snakes, uint32_t *pos,
                       const uint32_t *dst, const uint8_t *black, enum rs_ms_mesh_sort how,
                       enum rs_ms_mesh_sort *used, int *rc)
{
    RS_ASSERT(side >= 1 && n % side == 0 && rc != NULL);
    RS_ASSERT(n < (1u << 14) && n_snakes < (1ull << 32));
    size_t nn = (size_t)n * n, mm = (size_t)side * side;
    uint64_t *at = rs_malloc(2 * nn * sizeof *at); /* key of the snake of colour c at node */
    uint64_t *g = rs_malloc(2 * mm * sizeof *g);
    int ss = how == RS_MS_SORT_SCHNORR_SHAMIR && rs_ms_ss_q(side) != 0;
    uint32_t *tgt = ss ? rs_malloc(mm * sizeof *tgt) : NULL;
    *rc = 0;
    if (used)
        *used = ss ? RS_MS_SORT_SCHNORR_SHAMIR : RS_MS_SORT_SHEARSORT;
    if (!at || !g || (ss && !tgt)) {
        *rc = RS_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < 2 * nn; i++)
        at[i] = EMPTY;
    for (uint64_t s = 0; s < n_snakes; s++) {
        uint32_t dr = dst[s] / n, dc = dst[s] % n;
        /* black: (row, column) row-major; white: (column, row), sorted on the transpose */
        uint64_t key = black[s] ? ((uint64_t)dr << 46 | (uint64_t)dc << 32 | s)
                                : ((uint64_t)dc << 46 | (uint64_t)dr << 32 | s);
        size_t slot = (size_t)(black[s] ? 0 : 1) * nn + pos[s];
        RS_ASSERT(at[slot] == EMPTY); /* one snake of each colour per node */
        at[slot] = key;
    }
    for (uint32_t r0 = 0; r0 < n && !*rc; r0 += side)
        for (uint32_t c0 = 0; c0 < n && !*rc; c0 += side)
            for (int white = 0; white < 2 && !*rc; white++) {
                uint64_t *layer = at + (size_t)white * nn;
                /* logical (lr, lc) is physical (r0 + lr, c0 + lc), transposed for white */
                for (uint32_t lr = 0; lr < side; lr++)
                    for (uint32_t lc = 0; lc < side; lc++) {
                        uint32_t r = r0 + (white ? lc : lr), c = c0 + (white ? lr : lc);
                        g[(size_t)lr * side + lc] = layer[(size_t)r * n + c];
                    }
                if ((*rc = sort_grid(g, g + mm, tgt, side, ss)))
                    break;
                for (uint32_t lr = 0; lr < side; lr++)
                    for (uint32_t lc = 0; lc < side; lc++) {
                        uint32_t r = r0 + (white ? lc : lr), c = c0 + (white ? lr : lc);
                        uint64_t key = g[(size_t)lr * side + lc];
                        layer[(size_t)r * n + c] = key;
                        if (key != EMPTY)
                            pos[key & 0xffffffffu] = r * n + c;
                    }
            }
out:
    rs_free(at);
    rs_free(g);
    rs_free(tgt);
    return *rc ? 0 : (ss ? rs_ms_ss_steps(side) : rs_ms_sort_steps(side));
}
