/* The off-line colour-refinement schedule of Cole, Maggs & Sitaraman (001 §2.1), made
 * constructive: Lemma 2.1.5's random refinement with Moser-Tardos resampling, in the steps
 * of Theorem 2.1.6's cases, then one release slot of L+D-1 flit steps per colour class.
 * algorithm=colour_refine (colour_refine.c) runs the plan on the flit engine
 * (docs/colour-refine.md). */
#ifndef RS_ALGO_COLOUR_REFINE_PLAN_H
#define RS_ALGO_COLOUR_REFINE_PLAN_H

#include <stdint.h>

#include "routesim/error.h"
#include "routesim/path_set.h"

#define RS__CR_MAX_STEPS 32

/* Which case of Theorem 2.1.6 the congestion C, dilation D and B select (log = log2). */
enum rs__cr_case {
    RS__CR_FEW = 0,   /* C <= B: one class, no refinement */
    RS__CR_CASE1 = 1, /* B < C <= log D: condition 1 once */
    RS__CR_CASE2A = 2,/* log D < C <= D: condition 2, then condition 1 */
    RS__CR_CASE2 = 3  /* C > D: condition 3 repeatedly, then 2, then 1 */
};

/* Which r a refinement step uses. */
enum rs__cr_constants {
    RS__CR_PROOF = 0, /* the lemma's r, with the proof's constants (3e, 32e, ...) */
    RS__CR_TIGHT = 1  /* the smallest r up to the lemma's for which Moser-Tardos converges
                         within max_resamples, found by a geometric then binary search */
};

/* One refinement step: every colour class is split into r new classes by independent
 * uniform choices, resampled until no new class puts more than m_f messages on an edge. */
struct rs__cr_step {
    int condition;      /* the condition of Lemma 2.1.5 applied: 1, 2 or 3 */
    double m_s;         /* multiplex size it starts from, as the proof states it */
    uint32_t m_f;       /* multiplex size it guarantees (the integer part of the lemma's) */
    uint64_t r;         /* new colours per class: the lemma's r rounded up (RS__CR_TIGHT:
                           the one the search found) */
    uint64_t r_proof;   /* the lemma's r rounded up */
    uint32_t trials;    /* RS__CR_TIGHT: Moser-Tardos runs of the search (0 with the proof's r) */
    uint64_t resamples; /* Moser-Tardos resamplings it took (with the r it uses) */
    uint64_t classes;   /* non-empty colour classes after it */
};

struct rs__cr_input {
    const struct rs_path_set *paths; /* edge-simple paths, channel ids (rs_path_set_build) */
    uint32_t B;                      /* virtual channels: the final multiplex size, >= 1 */
    uint32_t L;                      /* message length in flits, >= 1 */
    uint64_t seed;                   /* all random colours derive from it (RS_STREAM_COLOUR) */
    uint64_t max_resamples;          /* per step (per run of the RS__CR_TIGHT search);
                                        0 = 100 * messages + 1000 */
    enum rs__cr_constants constants; /* RS__CR_PROOF (0) or RS__CR_TIGHT */
};

struct rs__cr_plan {
    uint64_t n_msgs;
    uint32_t congestion, dilation;   /* C and D of the paths */
    uint32_t B, L;
    enum rs__cr_case thm_case;
    int n_steps;
    struct rs__cr_step steps[RS__CR_MAX_STEPS];
    double kappa;        /* product of the steps' r: the class count the proof counts
                            (RS__CR_TIGHT: of the r found) */
    uint64_t n_classes;  /* non-empty colour classes, numbered 0.. in colour order */
    uint32_t *colour;    /* [n_msgs] class of message m */
    uint64_t *release;   /* [n_msgs] flit step at which message m is injected:
                            colour[m] * period */
    uint64_t period;     /* L + D - 1: flit steps an unblocked worm needs, the gap between
                            two classes' releases */
    uint64_t length;     /* n_classes * period: flit steps of the whole schedule */
};

/* The refinement steps Theorem 2.1.6 prescribes for C, D, B (the steps' resamples and
 * classes left 0) into steps[0..*n) and its case into *thm. Returns 0, or RS_ECONSTRAINT
 * when a step would need more than 2^32-1 colours per class. */
int rs__cr_steps(uint32_t C, uint32_t D, uint32_t B, struct rs__cr_step *steps, int *n,
                 enum rs__cr_case *thm, struct rs_err *err);

/* Plan the schedule of in->paths (see the file comment and docs/colour-refine.md): a
 * colour class per message such that no channel carries more than B messages of one class,
 * and release steps one period apart per class. plan owns colour and release (free with
 * rs__cr_plan_free). A pure function of the paths, B, L, seed, max_resamples and
 * constants. With RS__CR_TIGHT every step first checks the lemma's r as RS__CR_PROOF does,
 * then searches below it (a run that exceeds max_resamples counts as failing; the search
 * assumes success is monotone in r and keeps the smallest r it saw succeed). Returns 0,
 * RS_EINVAL
 * (B or L is 0, or a path takes a channel twice: the theorem needs edge-simple paths),
 * RS_ECONSTRAINT (a step needs more than 2^32-1 colours per class, or a step still has a
 * violated event after max_resamples resamplings), RS_ENOMEM, or RS_EINVARIANT (the final
 * check failed: a bug). On error plan is left empty. */
int rs__cr_plan_build(struct rs__cr_plan *plan, const struct rs__cr_input *in,
                      struct rs_err *err);

/* Release what rs__cr_plan_build allocated; safe on a zeroed plan. */
void rs__cr_plan_free(struct rs__cr_plan *plan);

#endif
