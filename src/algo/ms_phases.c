/* Makedon–Symvonis (003) Route_on_a_Square_Mesh and its torus form, steps 1-4: colour (or
 * split into 2 or 4 snakes), sort the submeshes on the mesh (ms_sort.c), then route every
 * column and row as an independent line with ms_line (step 3, then step 4 once step 3 is
 * over). */
#include <string.h>

#include "algo/ms_run.h"
#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/ms_line.h"

/* The routing units of steps 3 and 4: a snake with its position after the sort, its
 * destination, which dimension it moves in first (vertical_first) and its forced directions
 * (0: the discipline's rule; four snakes on the torus: +1 / -1). */
struct unit {
    uint32_t pos, dst, msg;
    int vertical_first;
    int32_t dir3, dir4;
};

/* One line routing call over the units that move in one dimension in this step. */
/* Packet j of the call is unit idx[j] and finishes at fin[j] (ms_line's step; 0: no move);
 * *m_out packets. */
static int route_dim(const struct rs__ms_cfg *c, const struct unit *u, uint64_t nu, int step4,
                     int vertical, uint32_t len, struct rs_ms_packet *pk, uint64_t *fin,
                     uint64_t *idx, uint32_t *m_out, struct rs_ms_line_result *res,
                     struct rs_err *err)
{
    uint32_t n = c->n, m = 0;
    for (uint64_t i = 0; i < nu; i++) {
        if ((u[i].vertical_first == vertical) == step4)
            continue;
        /* step 3 moves the snake to its destination row (vertical) or column; step 4 starts
         * where step 3 ended */
        uint32_t r = u[i].pos / n, col = u[i].pos % n;
        uint32_t dr = u[i].dst / n, dc = u[i].dst % n;
        if (step4 && vertical)
            col = dc; /* a white snake, now in its destination column */
        else if (step4)
            r = dr; /* a black snake, now in its destination row */
        struct rs_ms_packet p;
        p.line = vertical ? col : r;
        p.src = vertical ? r : col;
        p.dst = vertical ? dr : dc;
        p.dir = step4 ? u[i].dir4 : u[i].dir3;
        pk[m] = p;
        idx[m++] = i;
    }
    struct rs_ms_line_problem pr;
    memset(&pr, 0, sizeof pr);
    pr.lines = n;
    pr.n = n;
    pr.shape = c->torus ? RS_MS_RING : RS_MS_CHAIN;
    if (!step4)
        pr.disc = RS_MS_FIFO;
    else
        pr.disc = c->torus && c->snakes == 1 && !c->step4_farthest ? RS_MS_SAF_DELAYED
                                                                  : RS_MS_FARTHEST;
    pr.k = len;
    pr.m = m;
    pr.pkt = pk;
    pr.check = c->check;
    *m_out = m;
    return rs__ms_line_route(&pr, res, fin, NULL, err);
}

/* Build the sort snakes (one per packet, or a black and a white one per packet) and colour
 * them; ns = their number. */
static void sort_snakes(const struct rs__ms_cfg *c, const uint32_t *src, const uint32_t *dst,
                        uint64_t nm, uint64_t ns, uint32_t *s_src, uint32_t *s_dst,
                        uint8_t *black)
{
    if (ns == nm) {
        memcpy(s_src, src, nm * sizeof *src);
        memcpy(s_dst, dst, nm * sizeof *dst);
        rs_ms_colour(c->n, nm, src, dst, c->colouring, c->seed, black);
        return;
    }
    for (uint64_t m = 0; m < nm; m++)
        for (int w = 0; w < 2; w++) {
            s_src[2 * m + w] = src[m];
            s_dst[2 * m + w] = dst[m];
            black[2 * m + w] = (uint8_t)!w; /* 2m black (BG), 2m+1 white (WR) */
        }
}

/* The routing units from the sorted snakes. */
static uint64_t make_units(const struct rs__ms_cfg *c, uint64_t ns, const uint32_t *pos,
                           const uint32_t *s_dst, const uint8_t *black, struct unit *u)
{
    uint64_t nu = 0;
    uint32_t per = c->snakes == 1 ? 1 : 2;
    for (uint64_t s = 0; s < ns; s++) {
        struct unit x = {pos[s], s_dst[s], (uint32_t)(s / per), black[s] != 0, 0, 0};
        if (c->snakes != 4) {
            u[nu++] = x;
            continue;
        }
        /* 003 §4.3: black south then east, green north then west (from BG); white east
         * then north, red west then south (from WR); south and east are +1 */
        if (black[s]) {
            x.dir3 = +1, x.dir4 = +1;
            u[nu++] = x;
            x.dir3 = -1, x.dir4 = -1;
            u[nu++] = x;
        } else {
            x.dir3 = +1, x.dir4 = -1;
            u[nu++] = x;
            x.dir3 = -1, x.dir4 = +1;
            u[nu++] = x;
        }
    }
    return nu;
}

/* Steps 3 and 4: two dimensions per step; the step lasts until its last tail arrives. */
static int route_steps(const struct rs__ms_cfg *c, const struct unit *u, uint64_t nu,
                       struct rs__ms_out *out, uint64_t *ufin, struct rs_err *err)
{
    uint32_t len = c->k / c->snakes;
    struct rs_ms_packet *pk = rs_malloc(nu * sizeof *pk);
    uint64_t *fin = rs_malloc(nu * sizeof *fin), *tmp = rs_malloc(nu * sizeof *tmp);
    uint64_t *f3 = rs_calloc(nu, sizeof *f3);
    int rc = 0;
    if (!pk || !fin || !tmp || !f3) {
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the line routing of steps 3-4");
        goto out;
    }
    for (int step4 = 0; step4 < 2 && !rc; step4++) {
        uint64_t steps = 0;
        uint32_t queue = 0;
        for (int vertical = 0; vertical < 2 && !rc; vertical++) {
            struct rs_ms_line_result res;
            uint32_t m = 0;
            if ((rc = route_dim(c, u, nu, step4, vertical, len, pk, fin, tmp, &m, &res, err)))
                break;
            steps = res.steps > steps ? res.steps : steps;
            queue = res.max_queue > queue ? res.max_queue : queue;
            out->flit_hops += res.flit_hops;
            out->blocked_starts += res.blocked_starts;
            for (uint32_t j = 0; j < m; j++)
                (step4 ? ufin : f3)[tmp[j]] = fin[j];
        }
        if (step4)
            out->steps4 = steps, out->queue4 = queue;
        else
            out->steps3 = steps, out->queue3 = queue;
    }
    if (rc)
        goto out;
    for (uint64_t i = 0; i < nu; i++) {
        uint64_t t = out->steps_sort;
        if (ufin[i])
            t += out->steps3 + ufin[i];
        else if (f3[i])
            t += f3[i];
        ufin[i] = t;
    }
out:
    rs_free(pk);
    rs_free(fin);
    rs_free(tmp);
    rs_free(f3);
    return rc;
}

int rs__ms_steps(const struct rs__ms_cfg *c, const uint32_t *src, const uint32_t *dst,
                 struct rs__ms_out *out, struct rs_err *err)
{
    uint64_t nm = (uint64_t)c->n * c->n, ns = nm * (c->snakes == 1 ? 1 : 2);
    uint64_t nu = nm * c->snakes;
    uint32_t *s_src = rs_malloc(ns * sizeof *s_src), *s_dst = rs_malloc(ns * sizeof *s_dst);
    uint8_t *black = rs_malloc(ns);
    struct unit *u = rs_malloc(nu * sizeof *u);
    uint64_t *ufin = rs_calloc(nu, sizeof *ufin);
    int rc = 0;
    memset(out, 0, sizeof *out);
    out->finish = rs_calloc(nm, sizeof *out->finish);
    if (!s_src || !s_dst || !black || !u || !ufin || !out->finish) {
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for algorithm=ms_%s",
                        c->torus ? "torus" : "mesh");
        goto out;
    }
    sort_snakes(c, src, dst, nm, ns, s_src, s_dst, black);
    if ((rc = rs_ms_uvwx(c->n, ns, s_src, s_dst, black, out->uvwx)))
        goto nomem;
    /* step 2: s_src becomes the position after the sort */
    out->sort_exchanges = rs_ms_sort_by(c->n, c->side, ns, s_src, s_dst, black, c->mesh_sort,
                                        &out->sort_used, &rc);
    if (rc == RS_EINVARIANT) {
        rc = rs_err_set(err, rc, "ms sort: %s of a %u x %u submesh left it unsorted",
                        out->sort_used == RS_MS_SORT_SHEARSORT ? "shearsort" : "schnorr-shamir",
                        c->side, c->side);
        goto out;
    }
    uint32_t q[4];
    if (rc || (rc = rs_ms_uvwx(c->n, ns, s_src, s_dst, black, q)))
        goto nomem;
    out->uv_sorted[0] = q[0];
    out->uv_sorted[1] = q[1];
    RS_ASSERT(q[2] == out->uvwx[2] && q[3] == out->uvwx[3]); /* Lemma 3: w, x unchanged */
    out->steps_sort = out->sort_exchanges * (c->k / (c->snakes == 1 ? 1 : 2));
    nu = make_units(c, ns, s_src, s_dst, black, u);
    if ((rc = route_steps(c, u, nu, out, ufin, err)))
        goto out;
    for (uint64_t i = 0; i < nu; i++)
        if (ufin[i] > out->finish[u[i].msg])
            out->finish[u[i].msg] = ufin[i];
    goto out;
nomem:
    rc = rs_err_set(err, RS_ENOMEM, "out of memory for algorithm=ms_%s",
                    c->torus ? "torus" : "mesh");
out:
    rs_free(s_src);
    rs_free(s_dst);
    rs_free(black);
    rs_free(u);
    rs_free(ufin);
    if (rc) {
        rs_free(out->finish);
        out->finish = NULL;
    }
    return rc;
}
