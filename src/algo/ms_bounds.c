/* The bounds of Makedon–Symvonis (003) §3-§4 on meshes and tori: Theorem 4's expression,
 * the main terms of Theorems 5-8 and the queue bounds of Lemma 4 and Theorems 5-8. */
#include <stddef.h>

#include "routesim/assert.h"
#include "routesim/ms_mesh.h"

static double maxd(double a, double b)
{
    return a > b ? a : b;
}

double rs_ms_bound_thm4(uint32_t n, uint32_t ks, uint32_t f, const uint32_t uvwx[4])
{
    RS_ASSERT(ks >= 1 && uvwx != NULL);
    double uv = maxd((double)uvwx[0] + f, (double)uvwx[1] + f);
    if (uv > n)
        uv = n;
    return ((double)ks - 1.0) * (uv + maxd(uvwx[2], uvwx[3])) + 2.0 * n;
}

static int random_colouring(enum rs_ms_colouring col)
{
    return col == RS_MS_COL_C || col == RS_MS_COL_RANDOM;
}

double rs_ms_bound_main(uint32_t n, uint32_t k, int torus, uint32_t snakes,
                        enum rs_ms_colouring col)
{
    double nk = (double)n * k;
    if (torus)
        return snakes == 4 || random_colouring(col) ? nk / 2 : 3 * nk / 4;
    return snakes == 2 || random_colouring(col) ? nk : 3 * nk / 2;
}

double rs_ms_bound_lemma4(uint32_t n, uint32_t f, uint32_t w, uint32_t x)
{
    RS_ASSERT(n >= 1);
    return (1.0 + maxd(w, x) / n) * f;
}

double rs_ms_bound_queue(uint32_t n, uint32_t f, int torus, uint32_t snakes,
                         enum rs_ms_colouring col, uint32_t w, uint32_t x)
{
    if (snakes == 2)
        return 2.0 * f; /* Thm 6: f packets of two snakes */
    if (snakes == 4)
        return 4.0 * f / 2; /* Thm 8: f/2 packets of four snakes */
    if (random_colouring(col))
        return rs_ms_bound_lemma4(n, f, w, x);
    if (col == RS_MS_COL_B && !torus)
        return 1.5 * f;
    return 2.0 * f; /* colouring A: §3.2 on the mesh, Thm 7 on the torus */
}
