/* Schnorr–Shamir's mesh sort (STOC 1986; 003's ref [22]) of one m x m submesh, m = q^4, on
 * blocks of side b = q^3: the 7 phases simulated compare-exchange by compare-exchange, every
 * sub-sort a mesh sort whose steps are counted as they run (docs/ms-mesh.md decision 4). */
#include <stddef.h>

#include "routesim/assert.h"
#include "routesim/ms_mesh.h"

static uint32_t ceil_log2(uint32_t m)
{
    uint32_t l = 0;
    while ((1u << l) < m)
        l++;
    return l;
}

uint32_t rs_ms_ss_q(uint32_t m)
{
    for (uint32_t q = 2; (uint64_t)q * q * q * q <= m; q++)
        if ((uint64_t)q * q * q * q == m)
            return q;
    return 0;
}

/* Steps of shearsort of an h x w rectangle: ceil(log2 h) + 1 row phases, ceil(log2 h) column
 * phases. */
static uint64_t shear_steps(uint32_t h, uint32_t w)
{
    uint64_t l = ceil_log2(h);
    return (l + 1) * w + l * h;
}

uint64_t rs_ms_ss_steps(uint32_t m)
{
    uint32_t q = rs_ms_ss_q(m);
    if (!q)
        return 0;
    uint32_t b = q * q * q;
    uint64_t pairs = q >= 3 ? 2 : 1; /* q = 2: one pair of blocks per slice */
    return 4 * (uint64_t)m + 2 * shear_steps(b, b) + pairs * shear_steps(2 * b, b) +
           4 * (uint64_t)b;
}

static void swap2(uint64_t *g, uint32_t *t, size_t a, size_t b)
{
    uint64_t x = g[a];
    g[a] = g[b];
    g[b] = x;
    if (t) {
        uint32_t y = t[a];
        t[a] = t[b];
        t[b] = y;
    }
}

/* `steps` odd-even transposition steps on every row of the h x w region at (r0, c0) of g
 * (width m). Rows with odd global index run descending when snake is set. When t is set
 * the rows are sorted by t (target column) instead of by g, both moving together. */
static uint64_t rows_oets(uint64_t *g, uint32_t *t, uint32_t m, uint32_t r0, uint32_t c0,
                          uint32_t h, uint32_t w, uint32_t steps, int snake)
{
    for (uint32_t s = 0; s < steps; s++)
        for (uint32_t r = r0; r < r0 + h; r++) {
            int desc = snake && (r & 1u);
            for (uint32_t j = s & 1u; j + 1 < w; j += 2) {
                size_t a = (size_t)r * m + c0 + j, b = a + 1;
                int gt = t ? t[a] > t[b] : g[a] > g[b];
                int ne = t ? t[a] != t[b] : g[a] != g[b];
                if (gt != desc && ne)
                    swap2(g, t, a, b);
            }
        }
    return steps;
}

/* `steps` odd-even transposition steps on every column of the region, ascending downward. */
static uint64_t cols_oets(uint64_t *g, uint32_t m, uint32_t r0, uint32_t c0, uint32_t h,
                          uint32_t w, uint32_t steps)
{
    for (uint32_t s = 0; s < steps; s++)
        for (uint32_t c = c0; c < c0 + w; c++)
            for (uint32_t i = s & 1u; i + 1 < h; i += 2) {
                size_t a = (size_t)(r0 + i) * m + c, b = a + m;
                if (g[a] > g[b])
                    swap2(g, NULL, a, b);
            }
    return steps;
}

/* Shearsort every h x w region of a grid of such regions starting at row r0 (rows r0 ..
 * r0 + rows - 1, all m columns), in snake order by global row parity; all regions at once,
 * so the steps are those of one region. */
static uint64_t shear_regions(uint64_t *g, uint32_t m, uint32_t r0, uint32_t rows, uint32_t h,
                              uint32_t w)
{
    uint32_t l = ceil_log2(h);
    uint64_t steps = 0;
    for (uint32_t p = 0; p <= l; p++) {
        uint64_t s = 0;
        for (uint32_t r = r0; r + h <= r0 + rows; r += h)
            for (uint32_t c = 0; c < m; c += w) {
                s = rows_oets(g, NULL, m, r, c, h, w, w, 1);
                if (p < l)
                    s += cols_oets(g, m, r, c, h, w, h);
            }
        steps += s;
    }
    return steps;
}

/* Snake index i of the m x m grid: row i / m, left to right in even rows. */
static size_t snake_at(uint32_t m, size_t i)
{
    size_t r = i / m, c = i % m;
    return r * m + ((r & 1u) ? m - 1 - c : c);
}

uint64_t rs__ms_ss_sort(uint64_t *g, uint32_t *tgt, uint32_t m)
{
    uint32_t q = rs_ms_ss_q(m);
    RS_ASSERT(q >= 2 && tgt != NULL);
    uint32_t b = q * q * q;
    size_t mm = (size_t)m * m;
    uint64_t steps = 0;
    /* 1: every b x b block into snake order */
    steps += shear_regions(g, m, 0, m, b, b);
    /* 2: q-way unshuffle of the columns: column j goes to (j mod q) b + j / q, routed along
     * every row by m odd-even transposition steps on the target column */
    for (size_t i = 0; i < mm; i++) {
        uint32_t j = (uint32_t)(i % m);
        tgt[i] = (j % q) * b + j / q;
    }
    steps += rows_oets(g, tgt, m, 0, 0, m, m, m, 0);
    for (size_t i = 0; i < mm; i++)
        RS_ASSERT(tgt[i] == i % m);
    /* 3: every block into snake order again */
    steps += shear_regions(g, m, 0, m, b, b);
    /* 4: every column, m odd-even transposition steps */
    steps += cols_oets(g, m, 0, 0, m, m, m);
    /* 5: blocks 2i and 2i+1 of every vertical slice together, then 2i+1 and 2i+2 (0-based) */
    steps += shear_regions(g, m, 0, m, 2 * b, b);
    steps += shear_regions(g, m, b, m - b, 2 * b, b); /* none when q = 2 */
    /* 6: every row in alternating order, m steps */
    steps += rows_oets(g, NULL, m, 0, 0, m, m, m, 1);
    /* 7: 2b odd-even transposition steps on the snake; each is charged 2 exchange steps (the
     * snake's turns use black's vertical and white's horizontal links, which the other colour
     * uses inside its rows at the same time) */
    for (uint32_t s = 0; s < 2 * b; s++)
        for (size_t i = s & 1u; i + 1 < mm; i += 2) {
            size_t x = snake_at(m, i), y = snake_at(m, i + 1);
            if (g[x] > g[y])
                swap2(g, NULL, x, y);
        }
    steps += 4 * (uint64_t)b;
    /* snake order to row-major: m steps on every row, ascending */
    steps += rows_oets(g, NULL, m, 0, 0, m, m, m, 0);
    return steps;
}
