/* Load factors of a message set on a fat-tree (Bay & Bilardi 000 §2, §5): the load
 * l(M, c) and load factor lambda(M, c) = l(M, c) / cap(c) of every channel, lambda(M), the
 * reference load factor eta(M) on the N-leaf complete binary tree, the degree d(M), and
 * every message's peak (LCA) level. Conventions: docs/papers/bay-bilardi.md. */
#ifndef ROUTESIM_LOAD_FACTOR_H
#define ROUTESIM_LOAD_FACTOR_H

#include <stdint.h>

#include "routesim/error.h"
#include "routesim/problem.h"
#include "routesim/pruned_butterfly.h"

struct rs_load_factor {
    uint32_t n;                  /* log2 N of the tree */
    uint64_t *load;              /* [2N]: l(M, c), messages crossing channel id c (2..2N-1,
                                    rs__ft_node numbering), both directions together */
    uint8_t *peak;               /* [n_msgs]: peak level of message m (n when src == dst) */
    uint64_t n_msgs;
    double load_factor;          /* lambda(M) = max_c l(M, c) / cap(c); 0 for no crossing */
    uint32_t argmax;             /* the smallest channel id attaining it (0 when none) */
    double reference_load_factor;/* eta(M) = max_c l(M, c) / 2^ceil(h/2), h = n - i + 1 the
                                    height of channel (i, j) */
    double level_load_factor[RS_FT_MAX_LOG2N + 1]; /* [i]: max lambda(M, c) over level i
                                                      (i = 1..n; [0] = 0) */
    uint64_t peak_hist[RS_FT_MAX_LOG2N + 1];       /* [i]: messages whose peak is level i */
    uint32_t degree;             /* d(M): max over terminals t of max(messages from t,
                                    messages to t) */
};

/* Compute every field for message set pb on the fat-tree ft (pb->n_terminals == ft->N).
 * A message from s to t crosses exactly the channels (i, s >> (n-i)) and (i, t >> (n-i))
 * for i > peak(s, t) (its tree path), whichever way it is routed: the loads are those of
 * the fat-tree's channel cuts, the cuts §2 says determine lambda. Time O(|M| log N), memory
 * 2N + |M| + N words (UNITS: load in messages, load factors messages per wire). lf owns
 * load and peak; free with rs_load_factor_free. Returns 0 or RS_ENOMEM (lf left empty). */
int rs_load_factor_compute(struct rs_load_factor *lf, const struct rs__ftree *ft,
                           const struct rs_problem *pb, struct rs_err *err);

/* Release lf's arrays; safe on a zeroed or freed lf. */
void rs_load_factor_free(struct rs_load_factor *lf);

#endif
