/* Makedon–Symvonis (003) §3-§4 on n x n meshes and tori: the colourings of step 1 and their
 * (u, v, w, x) (src/algo/ms_colour.c), the submesh sort of step 2 run on the mesh with its
 * steps counted (src/algo/ms_sort.c; Schnorr–Shamir in src/algo/ms_ss.c). Processor (row r,
 * column c), 0-based, is node c + n·r of topology=mesh/torus (dimension 0 is the column).
 * Snake ids index the arrays below. */
#ifndef ROUTESIM_MS_MESH_H
#define ROUTESIM_MS_MESH_H

#include <stdint.h>

/* Colouring of step 1 (docs/papers/makedon-symvonis.md): A chessboard by source, B by
 * destination, C the paper's colouring C = a fair coin per packet (the same as RANDOM). */
enum rs_ms_colouring { RS_MS_COL_A = 0, RS_MS_COL_B, RS_MS_COL_C, RS_MS_COL_RANDOM };

/* 1 when processor (r, c) is black on the chessboard ((r + c) even, 0-based). */
static inline int rs_ms_chess_black(uint32_t r, uint32_t c)
{
    return ((r + c) & 1u) == 0;
}

/* Colour n_snakes snakes (src[s], dst[s] nodes of an n x n mesh): black[s] = 1 black, 0 white.
 * RANDOM and C draw one fair coin per snake from the Philox stream RS_STREAM_MS_COLOUR keyed by
 * (seed, s). n >= 1. Never fails. */
void rs_ms_colour(uint32_t n, uint64_t n_snakes, const uint32_t *src, const uint32_t *dst,
                  enum rs_ms_colouring how, uint64_t seed, uint8_t *black);

/* The measured (u, v, w, x) of a colouring (003 §3.1 Definition): uvwx[0] = most white snakes
 * in one row at positions pos[], [1] = most black snakes in one column at pos[], [2] = most
 * white snakes destined for one column, [3] = most black snakes destined for one row. pos and
 * dst are nodes of the n x n mesh. Returns 0 or RS_ENOMEM. */
int rs_ms_uvwx(uint32_t n, uint64_t n_snakes, const uint32_t *pos, const uint32_t *dst,
               const uint8_t *black, uint32_t uvwx[4]);

/* f(n) as used: the largest divisor of n not above round(log2 n) (f_sqrt = 0) or
 * round(sqrt n) (f_sqrt = 1), at least 1, so that the submesh side n/f(n) divides n. */
uint32_t rs_ms_f(uint32_t n, int f_sqrt);

/* Compare-exchange steps of the sort of one m x m submesh (shearsort: ceil(log2 m) + 1 row
 * phases and ceil(log2 m) column phases of m odd-even transposition steps each, then one row
 * phase to turn snake order into row-major order); 0 for m = 1. */
uint64_t rs_ms_sort_steps(uint32_t m);

/* Step 2: in every side x side submesh of the n x n mesh (side divides n), sort the black
 * snakes row-wise by destination in row-major order and the white snakes column-wise in
 * column-major order (003 §3.1), by simulating shearsort's compare-exchanges on the mesh
 * links (black on the horizontal links while white uses the vertical ones and the other way
 * round, so both run at once). pos[s] (in: the node of snake s; each node holds at most one
 * snake of each colour) is updated to the node after the sort. Ties (equal destinations)
 * break by snake id. Returns the compare-exchange steps (rs_ms_sort_steps(side); UNITS:
 * exchange steps, each k flit steps for snakes of k flits), or 0 with *rc = RS_ENOMEM /
 * RS_EINVARIANT (the simulated result differs from the order it must reach). */
uint64_t rs_ms_sort(uint32_t n, uint32_t side, uint64_t n_snakes, uint32_t *pos,
                    const uint32_t *dst, const uint8_t *black, int *rc);

/* The sort of step 2 (key mesh_sort of ms_mesh/ms_torus, docs/ms-mesh.md decision 4). */
enum rs_ms_mesh_sort { RS_MS_SORT_SHEARSORT = 0, RS_MS_SORT_SCHNORR_SHAMIR };

/* q when m = q^4 for an integer q >= 2 (Schnorr–Shamir's blocks of side q^3 divide m), else 0. */
uint32_t rs_ms_ss_q(uint32_t m);

/* Exchange steps of Schnorr–Shamir on an m x m submesh, m = q^4, b = q^3 (0 when m is not
 * such a power): 4m + 2 S(b, b) + P S(2b, b) + 4b, S(h, w) = (ceil(log2 h) + 1) w +
 * ceil(log2 h) h the steps of shearsort of an h x w block (phases 1, 3 and 5), P = 2 pair
 * passes (1 when q = 2), m steps each for the unshuffle (phase 2), the columns (4), the rows
 * (6) and the turn of snake order into row-major order, 2b transposition steps on the snake
 * (phase 7) charged 2 exchange steps each. */
uint64_t rs_ms_ss_steps(uint32_t m);

/* Schnorr–Shamir's 7 phases on g (m x m, row-major, m = q^4, q >= 2; tgt: m * m scratch),
 * leaving g in row-major order when the algorithm is correct (the caller checks). Returns the
 * exchange steps counted as the phases run (equal to rs_ms_ss_steps(m)). Never fails. */
uint64_t rs__ms_ss_sort(uint64_t *g, uint32_t *tgt, uint32_t m);

/* rs_ms_sort with the sort chosen: how = RS_MS_SORT_SCHNORR_SHAMIR uses Schnorr–Shamir when
 * rs_ms_ss_q(side) != 0 and falls back to shearsort otherwise; *used (may be NULL) receives
 * the sort run. Returns its exchange steps (rs_ms_ss_steps(side) or rs_ms_sort_steps(side)),
 * or 0 with *rc = RS_ENOMEM / RS_EINVARIANT. */
uint64_t rs_ms_sort_by(uint32_t n, uint32_t side, uint64_t n_snakes, uint32_t *pos,
                       const uint32_t *dst, const uint8_t *black, enum rs_ms_mesh_sort how,
                       enum rs_ms_mesh_sort *used, int *rc);

/* The bounds of 003 §3-§4 in flit steps (queues in snakes), n the side, k the packet length
 * in flits, f = f(n):
 * Theorem 4's main expression, with the initial (u, v, w, x) of the snakes and their length
 * ks (k, or k/2 with two snakes; the O(kn/f(n)) and t_colour terms left out):
 *   (ks - 1)[min(max(u + f, v + f), n) + max(w, x)] + 2n */
double rs_ms_bound_thm4(uint32_t n, uint32_t ks, uint32_t f, const uint32_t uvwx[4]);
/* The main term of the theorem for the configuration (o(n) and O(kn/f(n)) left out):
 * mesh: colourings A, B 3nk/2 (Thm 5), C/random nk (Thm 5), two snakes nk (Thm 6);
 * torus: A 3nk/4, C/random nk/2 (Thm 7), four snakes nk/2 (Thm 8). */
double rs_ms_bound_main(uint32_t n, uint32_t k, int torus, uint32_t snakes,
                        enum rs_ms_colouring col);
/* Lemma 4: (1 + max(w, x)/n) f packets waiting for one channel. */
double rs_ms_bound_lemma4(uint32_t n, uint32_t f, uint32_t w, uint32_t x);
/* The queue bound the theorem states for the configuration, in snakes (003 counts a queue in
 * packets of k flits, so a bound of q packets is q * snakes snakes): mesh A 2f (§3.2), B
 * 3f/2 (Thm 5), C/random Lemma 4 with the measured w, x (Thm 5 states none of its own),
 * two snakes f packets (Thm 6); torus A 2f (Thm 7), C/random Lemma 4, four snakes f/2
 * packets (Thm 8). */
double rs_ms_bound_queue(uint32_t n, uint32_t f, int torus, uint32_t snakes,
                         enum rs_ms_colouring col, uint32_t w, uint32_t x);

#endif
