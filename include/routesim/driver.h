/* The engine lifecycle and the one driver loop (src/engine/driver.c): an engine is a const
 * struct of operations (set-up, one step, check, deadlock report, collect, free); the
 * driver owns the loop, the plan's admission, the release of static messages and their
 * intermediates, open-loop injection and its phases, the stop conditions, the per-step
 * checks, the progress callback and the typed result. docs/ARCHITECTURE.md. */
#ifndef ROUTESIM_DRIVER_H
#define ROUTESIM_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "routesim/engine.h"
#include "routesim/openloop.h"

/* What the driver shares with the engine's operations during one run. The engine reads
 * in, ol and cfg (check is set before set-up, see rs_engine_life.check_size), and reports
 * every step through the fields below `step`. */
struct rs_driver {
    const struct rs_engine_input *in;
    const struct rs_engine_ops *engine;
    struct rs_openloop_cfg cfg; /* the open-loop keys; cfg.process says batch or open loop */
    struct rs_openloop *ol;     /* the injection process (owned by the driver), NULL in batch
                                   runs */
    const void *extra;          /* engine-specific set-up argument (tests' hooks), or NULL */
    int check;                  /* call the check op after set-up and after every step */
    /* The step's report, written by the step op (set-up writes remaining):
     *   step      the step just run (UNITS: the engine's steps; circuit: network cycles). A
     *             batch engine may jump over steps in which nothing can happen.
     *   accepted  flits delivered at their destinations in this step (open loop: the
     *             accepted throughput; packets of one flit for packet engines)
     *   remaining batch: static messages neither delivered nor dropped (0 ends the run)
     *   deadlock  1: nothing can ever move again; the run stops and is recorded as such */
    uint32_t step;
    uint64_t accepted;
    uint64_t remaining;
    int deadlock;
    /* The stall rule (rs_engine_life.stall), judged by the driver after every step: the
     * step reports the items it moved (moves, injections: anything that changed the state)
     * and the items still waiting to move, both reset to 0 by the driver before the step.
     * moved == 0 with live > 0 is a stall (a fixed point nothing can leave). */
    uint64_t moved;
    uint64_t live;
    uint32_t *newly; /* [n_terminals] scratch of rs_driver_arrivals */
    /* Batch runs: the static messages' schedule, computed once by the driver before set-up
     * (read them through the functions below, never the plan's arrays):
     *   release   [n_msgs] release step of each message (the plan's), NULL: all at step 0
     *   mid       [n_msgs] intermediate terminal of each message (the plan's, or the
     *             routing's rs_route_mid_for drawn once), NULL: all RS_NONE (direct)
     *   last_release  the largest release step (0 without a plan) */
    const uint32_t *release;
    const uint32_t *mid;
    uint32_t last_release;
    uint32_t *rel_order; /* owned: message ids by (release, id); NULL when release is NULL */
    uint32_t *mid_own;   /* owned: the routing's intermediates, or NULL */
    uint64_t rel_pos;    /* messages handed out so far (a prefix of the release order) */
    uint64_t n_static;   /* static messages (0 in open loop) */
};

/* Static messages released together (rs_driver_released): ids[0..n), or first..first+n-1
 * when ids is NULL (every message at step 0, in id order). */
struct rs_released {
    const uint32_t *ids;
    uint32_t first, n;
};

static inline uint32_t rs_released_id(const struct rs_released *r, uint32_t i)
{
    return r->ids ? r->ids[i] : r->first + i;
}

/* Batch: hand out the static messages whose release step is <= step and that were not
 * handed out before, in (release, id) order, into *out; returns their number (0 in open
 * loop). An engine calls it once at set-up with step 0 and then once per step s it runs,
 * at the point where the messages released at s join their sources (a message released at
 * r makes its first move at step r+1 at the earliest); asked every step, each answer is one
 * release step's messages, in id order. One call per step: nothing per message. */
uint32_t rs_driver_released(struct rs_driver *d, uint32_t step, struct rs_released *out);

/* Batch: the release step of the next message not yet handed out, UINT32_MAX when none is
 * left: an engine whose network is empty may jump to that step. */
static inline uint32_t rs_driver_next_release(const struct rs_driver *d)
{
    if (d->rel_pos >= d->n_static)
        return UINT32_MAX;
    return d->release ? d->release[d->rel_order[d->rel_pos]] : 0;
}

/* Batch: the release step of message m (0 without a plan's release), e.g. for its latency. */
static inline uint32_t rs_driver_release_of(const struct rs_driver *d, uint32_t m)
{
    return d->release ? d->release[m] : 0;
}

/* Batch: the intermediate terminal of message m (RS_NONE: direct route), resolved once by
 * the driver from the plan or the routing. */
static inline uint32_t rs_driver_mid_of(const struct rs_driver *d, uint32_t m)
{
    return d->mid ? d->mid[m] : RS_NONE;
}

/* Plan fields (struct rs_engine_plan), as bits of rs_engine_life.plan_fields. */
enum rs_plan_field {
    RS_PLAN_RELEASE = 1u << 0,
    RS_PLAN_MID = 1u << 1,
    RS_PLAN_LENGTH = 1u << 2,
    RS_PLAN_DISCARD = 1u << 3,
    RS_PLAN_FINISH = 1u << 4,
    RS_PLAN_FATE = 1u << 5,
    RS_PLAN_VIA = 1u << 6,
};
#define RS_PLAN_N_FIELDS 7 /* bit numbers 0 .. RS_PLAN_N_FIELDS - 1 */

/* What a stall (a step that moved nothing while items wait: rs_driver.moved, live) means. */
enum rs_stall {
    RS_STALL_OWN = 0,  /* the engine judges stalls itself (sets deadlock), or cannot stall */
    RS_STALL_DEADLOCK, /* a deadlock: the run stops and is recorded as such */
    RS_STALL_DEFECT    /* the model cannot deadlock: RS_EINVARIANT, a defect, with the
                          describe_deadlock text */
};

/* The auto-check of small runs in Debug builds (RS_ALWAYS_CHECK), for a lifecycle with
 * auto_check and a check op and a network: a run whose size, n_nodes x max_ports of the
 * network plus the static messages (none in open loop), is at most RS_AUTO_CHECK_SIZE and, in open loop, whose last step is at most
 * RS_AUTO_CHECK_STEPS is checked after every step as if check=1 (the checkers walk the whole
 * state: large runs would take hours under the sanitizers). */
#define RS_AUTO_CHECK_SIZE (1u << 16)
#define RS_AUTO_CHECK_STEPS (1u << 15)

/* The lifecycle of an engine in one injection mode, or of an algorithm's own step simulation
 * (rs__driver_run_life). The state is an opaque block of size bytes that the driver
 * allocates zeroed and frees. Every op returns 0 or RS_E... with err set, unless stated
 * otherwise. */
struct rs_engine_life {
    size_t size;           /* bytes of the engine's state */
    unsigned plan_fields;  /* RS_PLAN_... fields the engine honours; the driver refuses the
                              others with RS_EUNSUPPORTED naming the field */
    /* NULL, or RS_PLAN_N_FIELDS entries indexed by the bit number of an RS_PLAN_... field:
     * NULL or the reason the engine refuses that field, appended to the driver's message
     * after ": ". */
    const char *const *plan_why;
    /* Set up the state from d->in (d->ol is initialised in open loop) and set
     * d->remaining. On error the driver still calls free. */
    int (*init)(void *st, struct rs_driver *d, struct rs_err *err);
    /* Run one step and write the report fields of d. In open loop the engine calls
     * rs_driver_arrivals once, at the point of its step where the step's new packets join
     * the sources. */
    int (*step)(void *st, struct rs_driver *d, struct rs_err *err);
    /* Check every invariant of the state between steps: RS_EINVARIANT naming the first
     * violation. NULL: the engine has no checker. Called after set-up and after every step
     * when d->check. */
    int (*check)(void *st, struct rs_err *err);
    /* 1: Debug builds check small runs on their own, by the driver's one rule (see
     * RS_AUTO_CHECK_SIZE), decided before set-up so that init can allocate its checker. */
    int auto_check;
    /* What a stall means (see enum rs_stall). */
    enum rs_stall stall;
    /* Describe the waiting cycle of a deadlocked state into buf (one line, n bytes). NULL:
     * the engine never deadlocks. */
    void (*describe_deadlock)(void *st, char *buf, size_t n);
    /* Optional: the same waiting cycle as data, appended to out (include/routesim/
     * deadlock.h), called by the driver on a deadlock when rs_engine_input.deadlock is set.
     * Returns 0 or RS_ENOMEM. NULL: the cycle is not recorded. */
    int (*deadlock_cycle)(void *st, struct rs_deadlock *out);
    /* Fill the run's typed result res (initialised by the driver with rs_result_init) and
     * write the plan's outputs once the loop has ended; deadlock is 1 when it ended on a
     * deadlock. String fields may point into the state (they are read before free). The
     * driver converts res to the record once (columns). Returns 0, RS_ENOMEM or (a run
     * over MPI ranks whose collection exchanges) RS_EIO (err not set). */
    int (*collect)(void *st, struct rs_driver *d, struct rs_result *res, int deadlock);
    /* The metrics of the record, in column order: fields of struct rs_result. */
    const enum rs_metric *columns;
    size_t n_columns;
    /* Release what the state holds (safe on a partly set-up or zeroed state). */
    void (*free)(void *st);
};

/* Generate the open-loop arrivals of step (the step being run, >= 1) at every terminal
 * when step is within the injection phases (rs_openloop_last_step), and point *newly at
 * the terminals whose FIFO became non-empty, increasing. Returns their number: 0 in batch
 * runs (*newly NULL) and after the last step. Called once by an engine's step op. */
uint32_t rs__driver_generate(struct rs_driver *d, uint32_t step, const uint32_t **newly);

static inline uint32_t rs_driver_arrivals(struct rs_driver *d, uint32_t step,
                                          const uint32_t **newly)
{
    if (!d->ol) { /* batch: nothing arrives */
        *newly = NULL;
        return 0;
    }
    return rs__driver_generate(d, step, newly);
}

/* rs_engine_run with an engine-specific set-up argument (d->extra): the circuit engine's
 * tests pass a shuffle seed (uint64_t). */
int rs__driver_run(const struct rs_engine_ops *engine, const struct rs_engine_input *in,
                   const void *extra, struct rs_record *out, char *deadlock_msg,
                   size_t deadlock_len, struct rs_err *err);

/* Run an algorithm's own step simulation (a lifecycle outside the engine registry: the wave
 * algorithm, the Makedon-Symvonis line simulator) under the same loop: set-up, steps until
 * d->remaining is 0 or a stall/deadlock, the per-step checks (in->check, the auto-check
 * rule), progress, collect, free. who names it in messages ("algorithm=wave"). in needs
 * only params (may be NULL), check, progress and result; net, pb and routing may be NULL (no
 * release schedule, no open loop: the lifecycle hands out its own items and sets
 * d->remaining). extra: the lifecycle's typed set-up argument (d->extra). out: the record
 * the columns are appended to, or NULL (the caller reads what collect wrote through extra).
 * Returns 0 or RS_E... with err set. */
int rs__driver_run_life(const char *who, const struct rs_engine_life *life,
                        const struct rs_engine_input *in, const void *extra,
                        struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                        struct rs_err *err);

#endif
