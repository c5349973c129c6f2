/* Circuit-switching engine (switching=circuit): repeated network cycles in which every
 * unrouted message tries to lock a whole path (Scherson & Chien 002 §3 on LCANs), or one
 * pass with drops (BBN Butterfly, 004 §5), with `circuits` circuits per channel, the up
 * policies of 002 §3 and the conflict policies random / lower- / higher-LCA-first / rank.
 * Options, set-up, one cycle, plans and metrics of batch runs (open loop:
 * circuit_openloop.c; the loop is the driver's, driver.c); the model is
 * docs/model-circuit.md. */
#include "engine/circuit.h"
#include "engine/estimate_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/exchange.h"
#include "routesim/rng.h"
#include "routesim/run.h"

static const char *const up_names[] = {"random_per_cycle", "random_per_permutation", "fixed",
                                       NULL};
static const char *const down_names[] = {"random", "lower_lca_first", "higher_lca_first",
                                         "rank", NULL};

static const struct rs_optdef circuit_options[] = {
    {"circuits", RS_OPT_INT, "1", 1, 1024, NULL,
     "circuits one channel carries in a network cycle (q of 004 §5)", "circuits"},
    {"passes", RS_OPT_INT, "0", 0, 2147483647.0, NULL,
     "network cycles before the unrouted messages are dropped (0 = until all are routed)",
     "cycles"},
    {"up", RS_OPT_CHOICE, "random_per_cycle", 0, 0, up_names,
     "LCAN up choices: a random switch setting per cycle, one per run, or fixed", "-"},
    {"down", RS_OPT_CHOICE, "random", 0, 0, down_names,
     "who wins a contended channel: random, lower or higher LCA level first, higher rank", "-"},
    {"ranks", RS_OPT_INT, "0", 0, 4294967295.0, NULL,
     "down=rank: ranks 1..ranks drawn per message (0 = ceil(log2(N)^(1/circuits)))", "1"},
    RS_OPENLOOP_OPTIONS,
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

void rs__circ_free(struct circ *c)
{
    rs_free(c->state);
    rs_free(c->finish);
    rs_free(c->turn);
    rs_free(c->rank);
    rs_free(c->off ? c->off + c->m0 : NULL); /* shifted over ranks (struct circ) */
    rs_free(c->hop);
    rs_free(c->used);
    rs_free(c->touched);
    rs_free(c->pend);
    rs_free(c->act);
    rs_free(c->fail);
    rs_free(c->pos);
    rs_free(c->slot);
    rs_free(c->tb);
    rs_free(c->req);
    rs_free(c->grp);
    rs_free(c->cnt);
    rs_free(c->run);
    rs_free(c->sigma);
    rs_free(c->ucnt);
    rs_free(c->cpath);
    rs_free(c->cplen);
    rs_free(c->chk);
    rs_free(c->per_cycle);
    rs_buf_free(&c->per_cycle_text);
    rs__circ_par_free(c);
    rs__circ_dist_free(c);
    memset(c, 0, sizeof *c);
}

int rs__circ_read_options(struct circ *c, const struct rs_engine_input *in, struct rs_err *err)
{
    const struct rs_params *p = in->params;
    int64_t cap, passes, ranks;
    int up, down, rc;
    if ((rc = rs_opt_int(p, circuit_options, "circuits", &cap, err)) ||
        (rc = rs_opt_int(p, circuit_options, "passes", &passes, err)) ||
        (rc = rs_opt_choice(p, circuit_options, "up", &up, err)) ||
        (rc = rs_opt_choice(p, circuit_options, "down", &down, err)) ||
        (rc = rs_opt_int(p, circuit_options, "ranks", &ranks, err)))
        return rc;
    c->cap = (uint32_t)cap;
    c->passes = (uint32_t)passes;
    c->up = (enum circ_up)up;
    c->down = (enum circ_down)down;
    const char *topo = c->net->name;
    if (!c->lc && rs_params_find(p, "up"))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "up=%s chooses uppers on an LCAN; topology=%s has no up choices",
                          up_names[up], topo);
    if (!c->lc && (c->down == CIRC_DOWN_LOWER_LCA_FIRST || c->down == CIRC_DOWN_HIGHER_LCA_FIRST))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "down=%s needs LCA levels, which topology=%s does not have (use "
                          "random or rank)",
                          down_names[down], topo);
    if (c->down != CIRC_DOWN_RANK && rs_params_find(p, "ranks"))
        return rs_err_set(err, RS_EUNSUPPORTED, "ranks= is used by down=rank only (got down=%s)",
                          down_names[down]);
    if ((rc = rs_route_need_fixed(in->routing, "switching=circuit", err)))
        return rc;
    if (c->lc && !rs_route_is_direct(in->routing))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "switching=circuit on an LCAN routes through LCA switches with its "
                          "own up choices; routing=%s is not supported there",
                          in->routing->name);
    int64_t threads;
    if ((rc = rs_opt_int(p, rs_run_options, "threads", &threads, err)))
        return rc;
    /* the event log is written in the serial order: one thread then (the same outcome) */
    c->threads = in->events ? 1 : (uint32_t)threads;
    /* over MPI ranks (circuit_dist.c): one thread per rank; the checker's lock lists would
     * be split over the ranks */
    c->xc = in->exchange && in->exchange->size > 1 ? in->exchange : NULL;
    if (c->xc) {
        c->threads = 1;
        if (in->check)
            return rs_err_set(err, RS_EUNSUPPORTED,
                              "check=1 is not supported when switching=circuit is "
                              "partitioned over %d MPI ranks: run it without mpirun",
                              c->xc->size);
    }
    if (c->down == CIRC_DOWN_RANK) {
        if (ranks == 0) { /* 004 §5: r = log^(1/q) N, rounded up */
            double lg = log2((double)c->net->n_terminals);
            ranks = (int64_t)ceil(pow(lg > 1 ? lg : 1, 1.0 / (double)c->cap) - 1e-9);
            if (ranks < 1)
                ranks = 1;
        }
        c->ranks = (uint32_t)ranks;
    }
    return 0;
}

/* Check the plan against the network and the messages (LCAN turn levels are set here). */
static int read_plan(struct circ *c, const struct rs_engine_plan *plan, struct rs_err *err)
{
    if (!plan)
        return 0;
    c->via = plan->via;
    if (!c->via)
        return 0;
    if (!c->lc)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "a circuit plan with via switches needs an LCAN, got topology=%s",
                          c->net->name);
    const struct rs_lcan *lc = c->lc;
    for (uint32_t m = 0; m < c->n; m++) {
        uint32_t s = rs_problem_src(c->pb, m), t = c->pb->dst[m], v = c->via[m];
        int lv = v < c->net->n_nodes ? rs__lcan_level(lc, v) : -1;
        if (lv < 0 || !rs__lcan_above(lc, (uint32_t)lv, v - lc->first[lv], s) ||
            !rs__lcan_above(lc, (uint32_t)lv, v - lc->first[lv], t))
            return rs_err_set(err, RS_EINVAL,
                              "circuit plan: message %u (%u -> %u) cannot go through node %u: "
                              "not a switch above both terminals",
                              m, s, t, v);
        if (s != t)
            c->turn[m] = (uint8_t)lv;
    }
    return 0;
}

int rs__circ_alloc_requests(struct circ *c, uint64_t n_req, uint64_t n_ch, struct rs_err *err)
{
    c->req_cap = n_req;
    c->req = rs_malloc((size_t)(n_req + 1) * sizeof *c->req);
    c->grp = rs_malloc((size_t)(n_req + 1) * sizeof *c->grp);
    c->run = rs_malloc((size_t)(n_req + 1) * sizeof *c->run);
    /* counting sort while the resource ids of a stage span at most 4 per request (and at
     * least 2^16): a level of an LCAN or a butterfly, the PE links */
    uint64_t cc = 4 * n_req > (1u << 16) ? 4 * n_req : (1u << 16);
    c->cnt_cap = (uint32_t)(cc < n_ch + 1 ? cc : n_ch + 1);
    c->cnt = rs_malloc((size_t)c->cnt_cap * sizeof *c->cnt);
    if (!c->req || !c->grp || !c->run || !c->cnt)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu requests",
                          (unsigned long long)n_req);
    return 0;
}

/* The messages the driver releases at step (once per cycle, before the cycle that lets
 * them try; at set-up, step 0) join the pending list, which stays in id order: a merge, in
 * act as scratch (act is refilled by the cycle). */
static void take_released(struct circ *c, uint32_t step)
{
    struct rs_released r;
    uint32_t n = rs_driver_released(c->drv, step, &r);
    if (!n)
        return;
    for (uint32_t j = 0; c->ev && j < n; j++) /* the event log (docs/events.md) */
        rs__events_put(c->ev, RS_EV_GENERATED, step, rs_released_id(&r, j),
                       c->net->ops->src_node(c->net, rs_problem_src(c->pb, rs_released_id(&r, j))),
                       RS_EV_NONE, RS_EV_NONE);
    uint32_t i = 0, j = 0, k = 0;
    while (i < c->n_pend || j < n) {
        uint32_t m = j < n ? rs_released_id(&r, j) : RS_NONE;
        if (j >= n || (i < c->n_pend && c->pend[i] < m))
            c->act[k++] = c->pend[i++];
        else
            c->act[k++] = (j++, m);
    }
    RS_DASSERT(k == c->n_pend + n);
    uint32_t *tmp = c->pend;
    c->pend = c->act;
    c->act = tmp;
    c->n_pend = k;
    c->unreleased -= n;
}

static int circ_init(struct circ *c, struct rs_driver *d, uint64_t shuffle, int check,
                     struct rs_err *err)
{
    const struct rs_engine_input *in = d->in;
    const struct rs_net *net = in->net;
    const struct rs_problem *pb = in->pb;
    int rc;
    memset(c, 0, sizeof *c);
    c->net = net;
    c->routing = in->routing;
    c->pb = pb;
    c->seed = in->seed;
    c->shuffle = shuffle;
    c->lc = rs__lcan_of(net);
    c->P = net->max_ports;
    if (pb->n_msgs >= UINT32_MAX)
        return rs_err_set(err, RS_ECONSTRAINT, "too many messages (%llu) for one run",
                          (unsigned long long)pb->n_msgs);
    if ((uint64_t)net->n_nodes * c->P >= UINT32_MAX)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "switching=circuit numbers channels in 32 bits: topology=%s with %u "
                          "nodes x %u ports is too large",
                          net->name, net->n_nodes, c->P);
    c->n = (uint32_t)pb->n_msgs;
    c->m1 = c->n; /* this rank's messages [m0, m1): all but over ranks (circuit_dist.c) */
    if ((rc = rs__circ_read_options(c, in, err)))
        return rc;
    c->mode = rs__circ_mode(net, in->routing, c->lc != NULL);
    uint64_t n_ch = (uint64_t)net->n_nodes * c->P;
    c->n_res = n_ch ? n_ch : 1;
    c->state = rs_calloc(c->n + 1, 1);
    c->finish = rs_malloc(((size_t)c->n + 1) * sizeof *c->finish);
    c->pend = rs_malloc(((size_t)c->n + 1) * sizeof *c->pend);
    c->act = rs_malloc(((size_t)c->n + 1) * sizeof *c->act);
    c->fail = rs_malloc((size_t)c->n + 1);
    if (!c->state || !c->finish || !c->pend || !c->act || !c->fail)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %u messages", c->n);
    uint64_t n_req = c->n;
    if (c->lc) {
        const struct rs_lcan *lc = c->lc;
        uint32_t dmax = 1, umax = 1;
        for (uint32_t i = 0; i < lc->l; i++) {
            dmax = lc->d[i] > dmax ? lc->d[i] : dmax;
            umax = lc->u[i] > umax ? lc->u[i] : umax;
        }
        c->turn = rs_malloc((size_t)c->n + 1);
        c->pos = rs_malloc(((size_t)c->n + 1) * sizeof *c->pos);
        c->slot = rs_malloc(((size_t)c->n + 1) * sizeof *c->slot);
        c->tb = rs_malloc(((size_t)c->n + 1) * sizeof *c->tb);
        c->sigma = rs_malloc(dmax * sizeof *c->sigma);
        c->ucnt = rs_malloc(umax * sizeof *c->ucnt);
        if (!c->turn || !c->pos || !c->slot || !c->tb || !c->sigma || !c->ucnt)
            return rs_err_set(err, RS_ENOMEM, "out of memory for %u messages", c->n);
        for (uint32_t m = 0; m < c->n; m++) {
            uint32_t s = rs_problem_src(pb, m), t = pb->dst[m];
            c->turn[m] = s == t ? UINT8_MAX : (uint8_t)rs__lcan_lca_level(lc, s, t);
        }
        c->cp_max = 2 * lc->l + 2;
    } else {
        if (c->xc) { /* over ranks: this rank's channels, paths and requests only */
            if ((rc = rs__circ_dist_alloc_used(c, err)))
                return rc;
        } else if (!(c->used = rs_calloc(n_ch + 1, sizeof *c->used)))
            return rs_err_set(err, RS_ENOMEM, "out of memory for %llu channels",
                              (unsigned long long)n_ch);
        if ((rc = rs__circ_paths_init(c, d, err)))
            return rc;
        if (c->xc)
            n_req = c->m1 - c->m0;
        if (c->mode == CIRC_MODE_ALL_AT_ONCE) {
            if (c->off[c->m1] >= UINT32_MAX)
                return rs_err_set(err, RS_ECONSTRAINT, "too many path hops (%llu) for one run",
                                  (unsigned long long)c->off[c->m1]);
            n_req = c->off[c->m1] > n_req ? c->off[c->m1] : n_req;
        }
        /* over ranks the list grows with the requests received (circuit_dist.c) */
        uint64_t n_touch = c->xc ? 0 : c->off[c->m1];
        c->touched = rs_malloc((size_t)(n_touch + 1) * sizeof *c->touched);
        if (!c->touched)
            return rs_err_set(err, RS_ENOMEM, "out of memory for the channel list");
        c->cp_max = c->max_len;
    }
    if ((rc = rs__circ_alloc_requests(c, n_req, n_ch, err)))
        return rc;
    if (c->down == CIRC_DOWN_RANK) {
        if (!(c->rank = rs_malloc(((size_t)c->n + 1) * sizeof *c->rank)))
            return rs_err_set(err, RS_ENOMEM, "out of memory for ranks");
        for (uint32_t m = 0; m < c->n; m++)
            c->rank[m] = 1 + rs_rand_below(c->seed, RS_STREAM_CIRCUIT_RANK, m, 0, c->ranks);
    }
    if ((rc = read_plan(c, in->plan, err)))
        return rc;
    /* every cycle with an active message routes one at least */
    uint64_t cycles = (uint64_t)d->last_release + c->n + 1;
    if (c->passes && c->passes < cycles)
        cycles = c->passes;
    if (cycles >= UINT32_MAX)
        return rs_err_set(err, RS_ECONSTRAINT, "release cycles too large");
    c->per_cycle_cap = (uint32_t)cycles;
    if (!(c->per_cycle = rs_calloc(cycles + 1, sizeof *c->per_cycle)))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the per-cycle counts");
    if (check || in->events) { /* the event log's hop records come from the lock list */
        c->cpath = rs_malloc(((size_t)c->n + 1) * c->cp_max * sizeof *c->cpath + 4);
        c->cplen = rs_malloc((size_t)c->n + 1);
        c->chk = check ? rs_calloc(n_ch + 1, sizeof *c->chk) : NULL;
        if (!c->cpath || !c->cplen || (check && !c->chk))
            return rs_err_set(err, RS_ENOMEM, "out of memory for the invariant checker");
    }
    c->drv = d;
    c->ev = in->events; /* batch runs only (rs_run refuses open loop) */
    c->unreleased = c->n;
    take_released(c, 0);
    return 0;
}

/* One cycle: the released pending messages try; the routed ones leave. Returns how many
 * were routed. */
static uint32_t run_cycle(struct circ *c)
{
    memcpy(c->act, c->pend, (size_t)c->n_pend * sizeof *c->act);
    c->n_act = c->n_pend;
    if (c->mode == CIRC_MODE_LCAN)
        rs__circ_lcan_cycle(c);
    else
        rs__circ_paths_cycle(c);
    uint32_t routed = 0;
    for (uint32_t p = 0; c->ev && p < c->n_act; p++) {
        uint32_t m = c->act[p]; /* the event log: established (delivered) or failed */
        RS_EVENT(c->ev, c->fail[p] ? RS_EV_BLOCKED : RS_EV_DELIVERED, c->cycle, m,
                 c->fail[p] ? c->net->ops->src_node(c->net, rs_problem_src(c->pb, m))
                            : c->net->ops->dst_node(c->net, c->pb->dst[m]),
                 RS_EV_NONE, RS_EV_NONE);
    }
    for (uint32_t p = 0; p < c->n_act; p++)
        if (!c->fail[p]) {
            c->state[c->act[p]] = CIRC_ROUTED;
            c->finish[c->act[p]] = c->cycle;
            routed++;
        }
    c->delivered += routed;
    c->conflicts += c->n_act - routed;
    c->per_cycle[c->cycle - 1] = routed;
    return routed;
}

/* The end of a cycle, done when the next one starts (the checker reads the state before
 * it) or when the run is collected: the routed messages leave the pending list (order
 * kept); after `passes` cycles the rest are dropped. */
static void settle_batch(struct circ *c)
{
    uint32_t w = 0;
    for (uint32_t k = 0; k < c->n_pend; k++)
        if (c->state[c->pend[k]] == CIRC_PENDING)
            c->pend[w++] = c->pend[k];
    c->n_pend = w;
    if (c->passes && c->cycle == c->passes && (c->n_pend || c->unreleased)) {
        /* the rest are dropped, released or not */
        for (uint32_t k = 0; k < c->n_pend; k++) {
            c->state[c->pend[k]] = CIRC_DROPPED;
            RS_EVENT(c->ev, RS_EV_DROPPED, c->cycle, c->pend[k],
                     c->net->ops->src_node(c->net, rs_problem_src(c->pb, c->pend[k])),
                     RS_EV_NONE, RS_EV_NONE);
        }
        struct rs_released r;
        uint32_t n = rs_driver_released(c->drv, UINT32_MAX, &r);
        for (uint32_t i = 0; i < n; i++)
            c->state[rs_released_id(&r, i)] = CIRC_DROPPED;
        c->dropped = c->n_pend + n;
        c->n_pend = 0;
        c->unreleased = 0;
    }
}

/* The metrics of a batch run, in this order (docs/model-circuit.md). */
static const enum rs_metric circ_columns[] = {
    RS_M_CYCLES,       RS_M_MAKESPAN,      RS_M_MESSAGES,         RS_M_DELIVERED,
    RS_M_DROPPED,      RS_M_DELIVERED_FRACTION, RS_M_LATENCY_MEAN, RS_M_LATENCY_P99,
    RS_M_LATENCY_MAX,  RS_M_DELIVERED_FIRST_CYCLE, RS_M_CONFLICTS, RS_M_MAX_CIRCUITS,
    RS_M_LOCKS,        RS_M_RANKS_USED,    RS_M_DELIVERED_PER_CYCLE};

/* Fill the typed result of a batch run (r initialised); its delivered_per_cycle string is
 * c->per_cycle_text, freed with the state. A message's latency is the cycle that routed it
 * minus its release cycle (released at 0 and routed in the first cycle: 1); the makespan is
 * the last cycle in which a message was routed or dropped. Returns 0 or RS_ENOMEM. */
static int circ_result(struct circ *c, struct rs_result *res)
{
    struct rs_buf *b = &c->per_cycle_text;
    struct rs_result r = *res;
    int rc = 0;
    for (uint32_t k = 0; k < c->cycle && !rc; k++)
        rc = rs_buf_printf(b, "%s%u", k ? ";" : "", c->per_cycle[k]);
    if (!rc)
        rc = rs_buf_puts(b, "");
    for (uint32_t m = 0; m < c->n; m++)
        if (c->state[m] == CIRC_ROUTED)
            r.makespan = c->finish[m] > r.makespan ? c->finish[m] : r.makespan;
    if (c->dropped) /* dropped after the last pass */
        r.makespan = c->cycle;
    struct rs_lat_source ls = {.n = c->n, .finish = c->finish, .release = c->drv->release,
                               .state = c->state, .delivered = CIRC_ROUTED};
    if (!rc)
        rc = rs_result_latency(&r, &ls);
    r.cycles = c->cycle;
    r.messages = c->n;
    r.delivered = (int64_t)c->delivered;
    r.dropped = (int64_t)c->dropped;
    r.delivered_fraction = c->n ? (double)c->delivered / (double)c->n : 1.0;
    r.delivered_first_cycle = c->cycle ? c->per_cycle[0] : 0;
    r.conflicts = (int64_t)c->conflicts;
    r.max_circuits = c->max_circ;
    r.locks = (int64_t)c->locks;
    r.ranks_used = c->ranks;
    r.delivered_per_cycle = b->data ? b->data : "";
    *res = r;
    return rc ? RS_ENOMEM : 0;
}

/* ---- the lifecycle of a batch run (the loop is the driver's, src/engine/driver.c) ----- */

static int circ_life_init(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct circ *c = st;
    const uint64_t *shuffle = d->extra;
    int rc = circ_init(c, d, shuffle ? *shuffle : 0, d->check, err);
    if (!rc)
        d->remaining = c->n_pend + c->unreleased;
    return rc;
}

static int circ_life_step(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct circ *c = st;
    settle_batch(c); /* the previous cycle's end */
    c->cycle++;
    take_released(c, c->cycle - 1); /* released at cycle - 1: they try from this cycle */
    uint32_t routed = run_cycle(c);
    c->routed_now = routed;
    if (c->xfail)
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in cycle %u",
                          c->cycle);
    if (!routed && c->n_act)
        return rs_err_set(err, RS_EINVARIANT, "cycle %u routed none of %u messages", c->cycle,
                          c->n_act);
    d->step = c->cycle;
    d->accepted = routed;
    d->remaining = c->passes && c->cycle == c->passes ? 0 : c->n_pend - routed + c->unreleased;
    return 0;
}

int rs__circ_life_check(void *st, struct rs_err *err)
{
    struct circ *c = st;
    /* over MPI ranks a rank holds the locked channels (cplen, cpath) of the positions it
     * built only: check=1 is refused there (docs/distributed.md), and the check that Debug
     * builds make by themselves on small runs is skipped likewise */
    if (c->xc)
        return 0;
    return c->cycle ? rs__circ_check(c, c->routed_now, err) : 0; /* after a cycle */
}

static int circ_life_collect(void *st, struct rs_driver *d, struct rs_result *res, int deadlock)
{
    struct circ *c = st;
    (void)deadlock; /* every cycle routes a message: no deadlock */
    settle_batch(c); /* the last cycle's end */
    if (c->xc && rs__circ_dist_reduce(c))
        return RS_EIO;
    if (c->xc && !c->lc && d->in->paths && !d->in->plan) {
        /* over ranks, fixed paths: counted at set-up (circuit_dist.c), so that `run` walks
         * no path again (its per-channel loads would be the whole network's on every rank) */
        d->in->paths->congestion = c->cong;
        d->in->paths->dilation = c->max_len;
        d->in->paths->filled = 1;
    }
    return circ_result(c, res);
}

static void circ_life_free(void *st)
{
    rs__circ_free(st);
}

static const struct rs_engine_life circ_batch_life = {
    .auto_check = 1,
    .size = sizeof(struct circ),
    .plan_fields = RS_PLAN_RELEASE | RS_PLAN_MID | RS_PLAN_VIA,
    .init = circ_life_init,
    .step = circ_life_step,
    .check = rs__circ_life_check,
    .describe_deadlock = NULL,
    .collect = circ_life_collect,
    .columns = circ_columns,
    .n_columns = sizeof circ_columns / sizeof *circ_columns,
    .free = circ_life_free,
};

int rs__circuit_run(const struct rs_engine_input *in, const struct rs_engine_plan *plan,
                    uint64_t shuffle, struct rs_record *out, struct rs_err *err)
{
    struct rs_engine_input with = *in;
    with.plan = plan;
    return rs__driver_run(&rs_engine_circuit, &with, &shuffle, out, NULL, 0, err);
}

const struct rs_engine_ops rs_engine_circuit = {
    .name = "circuit",
    .summary = "circuit switching in network cycles: lock whole paths, at most q circuits per "
               "channel (002 §3, 004 §5)",
    .options = circuit_options,
    .batch = &circ_batch_life,
    .open = &rs__circ_open_life,
    .openloop = 1,
    .estimate = rs__circuit_estimate,
};
