/* algorithm=offline: off-line realization of a permutation on a CB-LCAN(N,d,u) (002 §4.1,
 * Theorem 3): the Lev-Pippenger-Valiant route on the unfolded CB-LCAN(N,d,d), split for
 * d > u into (d/u)^(l-1) embeddings of CB-LCAN(N,d,u), one network cycle each, run by the
 * circuit engine as a plan; on topology=benes the looping algorithm (offline_benes.c).
 * docs/lcan-realization.md. */
#include <stdlib.h>
#include <string.h>

#include "algo/lcan_plan.h"
#include "routesim/alloc.h"
#include "routesim/algo.h"

static const char *const grouping_names[] = {"consecutive", "blocks", NULL};

static const struct rs_optdef offline_options[] = {
    {"turn", RS_OPT_CHOICE, "lca", 0, 0, rs__turn_names,
     "where a circuit turns down: at its LCA level (partitionable) or at the top level", "-"},
    {"grouping", RS_OPT_CHOICE, "consecutive", 0, 0, grouping_names,
     "d > u: the cycle of a circuit is its top switch's group of u^(l-1) consecutive labels "
     "(002's proof) or its up digits divided by u (blocks)", "-"},
    {"save_settings", RS_OPT_STRING, NULL, 0, 0, NULL,
     "topology=benes: write the looping algorithm's switch settings to this file", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

enum grouping { GROUP_CONSECUTIVE, GROUP_BLOCKS };

/* Theorem 3's bound ceil((d/u)^(l-1)): 1 when d <= u, else (d/u)^(l-1) (d a multiple of u;
 * below N/d < 2^26 because N = d^l). */
static uint32_t bound_cycles(uint32_t d, uint32_t u, uint32_t l)
{
    uint32_t b = 1;
    for (uint32_t j = 0; d > u && j + 1 < l; j++)
        b *= d / u;
    return b;
}

/* The real up digits and the cycle of the message whose route in CB-LCAN(N,d,d) goes
 * through top switch v (base-d digits k'_0 .. k'_{l-2}, k'_0 most significant).
 *   d <= u: the same digits (k' < d <= u: CB-LCAN(N,d,u) embeds CB-LCAN(N,d,d)), cycle 0.
 *   consecutive (002's proof): the group g = v div u^(l-1) of u^(l-1) consecutive labels is
 *     the cycle, and the real top switch is r = v mod u^(l-1), the place of v in its group.
 *     Two circuits of one cycle that share a real level-j channel (s or dst div d^(j+1),
 *     first j+1 base-u digits of r) share v div u^(l-2-j) = g u^(j+1) + r div u^(l-2-j),
 *     hence v div d^(l-2-j) (u <= d), which is k'_0 .. k'_j: they share the channel of
 *     CB-LCAN(N,d,d) too, so they are the same circuit.
 *   blocks: k_j = k'_j mod u, e_j = k'_j div u, the cycle is e read in base d/u. Two
 *     circuits of one cycle that share a real channel (.., k_0 .. k_j) have the same
 *     k'_i = e_i u + k_i for i <= j: the same virtual channel.
 * Both give (d/u)^(l-1) cycles, each conflict-free, and cover every top switch of
 * (N,d,d). *real gets the real top label (base-u digits, k_0 most significant). */
static uint32_t embed(uint32_t v, uint32_t d, uint32_t u, uint32_t l, enum grouping g,
                      uint32_t *real)
{
    uint32_t digits[RS_LCAN_MAX_LEVELS], r = 0, e = 0, ul = 1;
    for (uint32_t j = l - 1; j-- > 0;) { /* k'_{l-2} first */
        digits[j] = v % d;
        v /= d;
        ul *= u;
    }
    if (d > u && g == GROUP_CONSECUTIVE) {
        uint32_t label = 0;
        for (uint32_t j = 0; j + 1 < l; j++)
            label = label * d + digits[j];
        *real = label % ul;
        return label / ul;
    }
    for (uint32_t j = 0; j + 1 < l; j++) {
        r = r * u + digits[j] % u;
        e = e * (d > u ? d / u : 1) + (d > u ? digits[j] / u : 0);
    }
    *real = r;
    return e;
}

static int offline_run(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                       struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                       struct rs_err *err)
{
    struct rs__lcan_perm p;
    int turn, grouping, rc;
    const char *save = NULL;
    if (deadlock_msg && deadlock_len)
        deadlock_msg[0] = '\0';
    if (rs_params_find(in->params, "save_settings") &&
        (rc = rs_opt_string(in->params, offline_options, "save_settings", &save, err)))
        return rc;
    if (in->net->caps & RS_CAP_BENES)
        return rs__offline_benes(in, engine, save, out, deadlock_msg, deadlock_len, err);
    if ((rc = rs__plan_refuse_key(in, "offline", "save_settings",
                                  "switch settings are reported on topology=benes only", err)))
        return rc;
    if ((rc = rs_opt_choice(in->params, offline_options, "turn", &turn, err)) ||
        (rc = rs_opt_choice(in->params, offline_options, "grouping", &grouping, err)) ||
        (rc = rs__plan_refuse_key(in, "offline", "up", "the plan fixes every up choice", err)))
        return rc;
    if ((rc = rs__lcan_perm_init(&p, in, "offline", err)))
        return rc;
    if (p.d > p.u && p.d % p.u)
        rc = rs_err_set(err, RS_EUNSUPPORTED,
                        "algorithm=offline needs d <= u or d a multiple of u (Theorem 3 of 002 "
                        "§4.1); got d=%u u=%u",
                        p.d, p.u);
    if (!rc && p.d <= p.u)
        rc = rs__plan_refuse_key(in, "offline", "grouping",
                                 "with d <= u there is one embedding (Theorem 3, cases 1-2)", err);
    if (rc) {
        rs__lcan_perm_free(&p);
        return rc;
    }
    uint32_t N = p.N, *top = rs_malloc((size_t)N * sizeof *top);
    uint32_t *via = rs_malloc((size_t)N * sizeof *via), *rel = rs_malloc((size_t)N * sizeof *rel);
    if (!top || !via || !rel)
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the plan of %u messages", N);
    if (!rc)
        rc = rs__lpv_route(N, p.d, p.l, p.dst, in->seed, top, err);
    for (uint32_t s = 0; !rc && s < N; s++) {
        uint32_t real, m = p.msg[s], t = p.dst[s];
        uint32_t cycle = embed(top[s], p.d, p.u, p.l, (enum grouping)grouping, &real);
        via[m] = rs__lcan_turn_switch(p.lc, s, t, real, (enum rs__turn)turn);
        rel[m] = s == t ? 0 : cycle; /* no channel: nothing to wait for */
    }
    if (!rc) {
        struct rs_engine_plan plan = {.release = rel, .via = via};
        struct rs_engine_input with = *in;
        with.plan = &plan;
        rc = rs_engine_run(engine, &with, out, deadlock_msg, deadlock_len, err);
    }
    if (!rc && rs_metric_int(out, RS_M_BOUND_CYCLES, bound_cycles(p.d, p.u, p.l)))
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
    rs_free(top);
    rs_free(via);
    rs_free(rel);
    rs__lcan_perm_free(&p);
    return rc;
}

static const char *const offline_switching[] = {"circuit", NULL};

const struct rs_algo_ops rs_algo_offline = {
    .name = "offline",
    .summary = "off-line permutation realization on a CB-LCAN(N,d,u) in ceil((d/u)^(l-1)) "
               "conflict-free network cycles (002 §4.1 Theorem 3, Lev-Pippenger-Valiant); "
               "on a Beneš network in one cycle (looping algorithm)",
    .options = offline_options,
    .switching = offline_switching,
    .needs = RS_CAP_LCA,
    .needs_alt = RS_CAP_BENES,
    .run = offline_run,
};
