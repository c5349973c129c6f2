/* algorithm=self_route: on-line self-routing of a permutation on CB-LCAN(N,2,2), whose
 * unfolding is a Beneš network (002 §4.2): Nassimi-Sahni (priority to the lower-numbered
 * input; realizes BPC and inverse-omega permutations) or Raghavendra-Boppana (priority to
 * the smaller destination tag; linear permutations), run as one plan by the circuit engine.
 * docs/lcan-realization.md. */
#include <stdlib.h>
#include <string.h>

#include "algo/lcan_plan.h"
#include "routesim/alloc.h"
#include "routesim/algo.h"

static const char *const priority_names[] = {"lower_input", "smaller_tag", NULL};

static const struct rs_optdef self_route_options[] = {
    {"priority", RS_OPT_CHOICE, "lower_input", 0, 0, priority_names,
     "who gets its wish at a switch: the lower-numbered input (Nassimi-Sahni) or the smaller "
     "destination (Raghavendra-Boppana)", "-"},
    {"turn", RS_OPT_CHOICE, "lca", 0, 0, rs__turn_names,
     "where a circuit turns down: at its LCA level (partitionable) or at the top level", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

enum priority { PRIO_LOWER_INPUT, PRIO_SMALLER_TAG };

/* The up digits of every PE's circuit, level by level as the switches of the unfolded
 * Beneš network would set themselves (002 §4.2). A message from s reaches its level-j
 * switch (s div 2^(j+1), k_0 .. k_{j-1}) on downer s_j (bit j of s): the lower-numbered
 * input of the switch is the one on downer 0. Every level-j switch receives exactly two
 * messages (each switch below sends one on each upper), and sets itself from both, also
 * when one of them turns down at this level (its LCA level): the prioritized message
 * takes upper dst_j (bit j of its destination), the other the remaining upper. Upper
 * dst_j is the Beneš rule: the two messages of a class k_0 .. k_{j-1} bound for the same
 * level-j switch (dst div 2^(j+1)) differ in bit j of their destinations, and they can
 * share the down channel (dst div 2^(j+1), k_0 .. k_j) only if they took the same k_j.
 * top[s] gets k_0 .. k_{l-2} (k_0 most significant); at[] is scratch of N entries. */
static void self_route_digits(uint32_t N, uint32_t l, const uint32_t *dst, enum priority prio,
                              uint32_t *top, uint32_t *at)
{
    memset(top, 0, (size_t)N * sizeof *top);
    for (uint32_t j = 0; j + 1 < l; j++) {
        uint32_t block = N >> (j + 1); /* values of s div 2^(j+1) */
        for (uint32_t s = 0; s < N; s++) /* switch index * 2 + downer */
            at[2 * (top[s] * block + (s >> (j + 1))) + ((s >> j) & 1)] = s;
        for (uint32_t x = 0; x < N / 2; x++) {
            uint32_t a = at[2 * x], b = at[2 * x + 1], first = a, other = b;
            if (prio == PRIO_SMALLER_TAG && dst[b] < dst[a]) {
                first = b;
                other = a;
            }
            uint32_t wish = (dst[first] >> j) & 1;
            top[first] = top[first] * 2 + wish;
            top[other] = top[other] * 2 + (wish ^ 1);
        }
    }
}

static int self_route_run(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                          struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                          struct rs_err *err)
{
    struct rs__lcan_perm p;
    int prio, turn, rc;
    if (deadlock_msg && deadlock_len)
        deadlock_msg[0] = '\0';
    if ((rc = rs_opt_choice(in->params, self_route_options, "priority", &prio, err)) ||
        (rc = rs_opt_choice(in->params, self_route_options, "turn", &turn, err)) ||
        (rc = rs__plan_refuse_key(in, "self_route", "up", "the switches set themselves", err)))
        return rc;
    if ((rc = rs__lcan_perm_init(&p, in, "self_route", err)))
        return rc;
    if (p.d != 2 || (p.l > 1 && p.u != 2)) {
        rc = rs_err_set(err, RS_EUNSUPPORTED,
                        "algorithm=self_route needs CB-LCAN(N,2,2), whose unfolding is a Beneš "
                        "network (002 §4.2); got d=%u u=%u",
                        p.d, p.u);
        rs__lcan_perm_free(&p);
        return rc;
    }
    uint32_t N = p.N, *top = rs_malloc((size_t)N * sizeof *top);
    uint32_t *via = rs_malloc((size_t)N * sizeof *via), *at = rs_malloc((size_t)N * sizeof *at);
    if (!top || !via || !at)
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the plan of %u messages", N);
    if (!rc) {
        self_route_digits(N, p.l, p.dst, (enum priority)prio, top, at);
        for (uint32_t s = 0; s < N; s++)
            via[p.msg[s]] = rs__lcan_turn_switch(p.lc, s, p.dst[s], top[s], (enum rs__turn)turn);
        struct rs_engine_plan plan = {.via = via};
        struct rs_engine_input with = *in;
        with.plan = &plan;
        rc = rs_engine_run(engine, &with, out, deadlock_msg, deadlock_len, err);
    }
    rs_free(top);
    rs_free(via);
    rs_free(at);
    rs__lcan_perm_free(&p);
    return rc;
}

static const char *const self_route_switching[] = {"circuit", NULL};

const struct rs_algo_ops rs_algo_self_route = {
    .name = "self_route",
    .summary = "on-line self-routing on CB-LCAN(N,2,2) with Nassimi-Sahni or Raghavendra-Boppana "
               "priorities (002 §4.2); conflicts = refused circuits",
    .options = self_route_options,
    .switching = self_route_switching,
    .needs = RS_CAP_LCA,
    .run = self_route_run,
};
