/* The (b, s, l)-flexible sorter of Bay & Bilardi (000 §4.1: Theorem 2, Lemmas 8 and 9) as a
 * timed model: Columnsort [Lei85a] recursed as in Lemma 8 on an s x w array of real words,
 * and its time in bit steps with named constants (docs/flexible-sorter.md). */
#ifndef ROUTESIM_FLEXSORT_H
#define ROUTESIM_FLEXSORT_H

#include <stdint.h>

#include "routesim/error.h"

/* One word of the cell array: its key (b bits; RS_FSORT_EMPTY in a cell no input word
 * filled) and the input position it came from (the check's witness). */
struct rs_fsort_word {
    uint64_t key;
    uint32_t id;
};

#define RS_FSORT_EMPTY UINT64_MAX

/* The time model's constants (bit steps; docs/flexible-sorter.md derives each).
 * One s-word sort (Lemma 9): RS_FSORT_SORT_CB * b + RS_FSORT_SORT_CLOG * log2 s.
 * One permuting step: RS_FSORT_PERM_PASSES * (w b + log2 s). */
#define RS_FSORT_SORT_CB 2
#define RS_FSORT_SORT_CLOG 4
#define RS_FSORT_PERM_PASSES 2

/* Largest s and s*w the model accepts (memory: 12 bytes a word, twice). */
#define RS_FSORT_MAX_S (1u << 16)
#define RS_FSORT_MAX_WORDS (1u << 22)

/* The structure of Lemma 8's algorithm on n = s*w words (s, w powers of two, s >= 4):
 * depth levels of Columnsort (0 when w == 1: one sort), phases sort steps (4^depth),
 * perm_steps permuting steps (the permutations between two sort steps and after the last
 * one, combined into one each: phases when depth >= 1, else 0). */
struct rs_fsort_shape {
    uint32_t s, w, depth, phases, perm_steps;
};

/* The rows S of the "virtual columns" a Columnsort of n words with real columns of s words
 * uses: s when Leighton's condition S >= 2 (n/S - 1)^2 holds for S = s (Columnsort on the
 * real columns), else the smallest power of two S in (s, n) satisfying it (each virtual
 * column is sorted by a recursive Columnsort, Lemma 8); n itself when n == s. s and n are
 * powers of two, s <= n. UNITS: words. */
uint32_t rs_fsort_block(uint32_t s, uint32_t n);

/* Fill out with the shape of Lemma 8's algorithm for s and w (powers of two, s >= 4,
 * s*w <= RS_FSORT_MAX_WORDS). Returns 0 or RS_EINVAL with err set. */
int rs_fsort_shape(uint32_t s, uint32_t w, struct rs_fsort_shape *out, struct rs_err *err);

/* What a trace sees: the array after the sort step of phase k, or after its (combined)
 * permuting step. */
enum rs_fsort_event { RS_FSORT_SORTED, RS_FSORT_PERMUTED };

/* Called with the whole array (column-major, s*w words) after each event of phase
 * phase (0-based). a is borrowed for the call only. */
typedef void (*rs_fsort_trace_fn)(void *ctx, enum rs_fsort_event ev, uint32_t phase,
                                  const struct rs_fsort_word *a, uint32_t n);

/* Sort a (s*w words in column-major order: word p is row p mod s of column p / s) in
 * place by Lemma 8's algorithm: every sort step sorts each real column of s words (stably,
 * by key) except the columns a shift step leaves out (the wrap-around column of Leighton's
 * shift, whose two halves are sorted already); the permutations are Columnsort's
 * transpose, untranspose, shift and unshift of each level. trace (may be NULL) sees every
 * phase. The counts the run made are written to done (phases, perm_steps; may be NULL) and
 * asserted equal to rs_fsort_shape's. s, w as for rs_fsort_shape. Returns 0, RS_EINVAL
 * (shape) or RS_ENOMEM with err set. */
int rs_fsort_columnsort(struct rs_fsort_word *a, uint32_t s, uint32_t w,
                        rs_fsort_trace_fn trace, void *ctx, struct rs_fsort_shape *done,
                        struct rs_err *err);

/* The time of one run of a (b, s, l)-flexible sorter on r words, in bit steps, by part. */
struct rs_fsort_time {
    uint64_t load;    /* b ceil(r/s): the words enter on s wires, bit-serially */
    uint64_t select;  /* shifting the control registers to w's field */
    uint64_t sort;    /* phases * w * (CB b + CLOG log2 s) */
    uint64_t permute; /* perm_steps * PASSES * (w b + log2 s) */
    uint64_t unload;  /* b ceil(r/s): the sorted words leave on s wires */
    uint64_t total;
    uint32_t beta;    /* permuting steps of the largest w the sorter serves (l/s) */
};

/* The time model of Theorem 2's proof for r words on a (b, s, l)-flexible sorter: w is the
 * next power of two >= ceil(r/s), sh its shape (rs_fsort_shape(s, w)). b >= 1, s a power of
 * two >= 4, 1 <= r <= l (Theorem 2 has s <= r; r < s is one partly empty column: w = 1),
 * l/s a power of two. Returns 0 or RS_EINVAL with err set. */
int rs_fsort_time(uint32_t b, uint32_t s, uint32_t r, uint32_t l, struct rs_fsort_time *t,
                  struct rs_err *err);

/* Theorem 2's bound without its constant: (b + log2 s) ceil(r/s). UNITS: bit steps. */
double rs_fsort_bound(uint32_t b, uint32_t s, uint32_t r);

/* Lemma 8's phase count (log2 r / log2(s/2))^(2 / log2(3/2)), s >= 4, r >= 1. */
double rs_fsort_bound_phases(uint32_t s, uint32_t r);

/* Sort keys[0..r) (1 <= r, each < 2^b) on a (b, s, l)-flexible sorter: load them into the first r
 * cells of the s x w array (the others empty), run rs_fsort_columnsort, and check that
 * the first r cells hold the input's words in nondecreasing key order, each exactly once
 * (a failure is RS_EINVARIANT naming the first bad position). sorted (r keys, may be NULL)
 * gets the output, sh (may be NULL) the shape run. Returns 0, RS_EINVAL, RS_ENOMEM or
 * RS_EINVARIANT with err set. */
int rs_fsort_sort(const uint64_t *keys, uint32_t r, uint32_t s, uint64_t *sorted,
                  struct rs_fsort_shape *sh, struct rs_err *err);

#endif
