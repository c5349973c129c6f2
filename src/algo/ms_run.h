/* Internal to algorithm=ms_mesh / ms_torus (src/algo/ms_*.c): the configuration of one run
 * and what steps 2-4 measured. */
#ifndef ROUTESIM_ALGO_MS_RUN_H
#define ROUTESIM_ALGO_MS_RUN_H

#include <stdint.h>

#include "routesim/error.h"
#include "routesim/ms_mesh.h"

struct rs__ms_cfg {
    uint32_t n;       /* mesh side (topology key k) */
    uint32_t k;       /* flits per packet (length) */
    uint32_t snakes;  /* 1, 2 or 4 snakes per packet */
    uint32_t f, side; /* f(n) and the submesh side n / f(n) */
    int torus;        /* ms_torus: rings (Lemmas 6, 7) */
    int step4_farthest; /* ms_torus step 4 by farthest-first (Theorem 3's rule) instead of Lemma 7 */
    enum rs_ms_colouring colouring;
    enum rs_ms_mesh_sort mesh_sort; /* step 2's sort asked for (key mesh_sort) */
    uint64_t seed;
    int check;
};

struct rs__ms_out {
    uint32_t uvwx[4];       /* colouring before the sort */
    uint32_t uv_sorted[2];  /* u, v after the sort (w, x do not change) */
    uint64_t sort_exchanges;
    enum rs_ms_mesh_sort sort_used; /* the sort step 2 ran */
    uint64_t steps_sort, steps3, steps4; /* flit steps of steps 2, 3, 4 */
    uint32_t queue3, queue4;             /* largest queue (snakes) in steps 3, 4 */
    uint64_t flit_hops;                  /* flit hops of steps 3 and 4 */
    uint64_t blocked_starts;             /* ms_line's count (Lemma 7's promise: 0) */
    uint64_t *finish;                    /* per message: step its last snake arrived */
};

/* Run steps 1-4 on the permutation (src[m], dst[m]) of n*n messages. out->finish is
 * allocated here (n*n entries; the caller frees it with rs_free). Returns 0 or RS_E... */
int rs__ms_steps(const struct rs__ms_cfg *c, const uint32_t *src, const uint32_t *dst,
                 struct rs__ms_out *out, struct rs_err *err);

#endif
