/* What the permutation-realization algorithms of CB-LCANs share (002 §4): checking that
 * the network is a uniform CB-LCAN and the message set a permutation, the switch where a
 * planned circuit turns down, and refusing engine options a plan overrides. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "algo/lcan_plan.h"

const char *const rs__turn_names[] = {"lca", "top", NULL};

/* Write "4" or "4,4,2" for v[0..n). */
static void list_text(char *buf, size_t size, const uint32_t *v, uint32_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < n && used + 12 < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%u", i ? "," : "", v[i]);
}

int rs__lcan_perm_init(struct rs__lcan_perm *p, const struct rs_engine_input *in,
                       const char *algo, struct rs_err *err)
{
    RS_ASSERT(p != NULL && in != NULL && in->net != NULL && in->pb != NULL && algo != NULL);
    const struct rs_lcan *lc = rs__lcan_of(in->net);
    const struct rs_problem *pb = in->pb;
    memset(p, 0, sizeof *p);
    if (!lc || lc->tree)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=%s needs a CB-LCAN (pi=cb): 002 §4 realizes permutations "
                          "on the Beneš-like unfolding of a complete bipartite interconnect",
                          algo);
    int same = 1;
    for (uint32_t i = 1; i < lc->l; i++)
        same &= lc->d[i] == lc->d[0] && (i + 1 == lc->l || lc->u[i] == lc->u[0]);
    if (!same) {
        char dl[128], ul[128];
        list_text(dl, sizeof dl, lc->d, lc->l);
        list_text(ul, sizeof ul, lc->u, lc->l - 1);
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=%s needs one d on every level and one u on every level "
                          "below the top (CB-LCAN(N,d,u) of 002 §4); topology=%s has d=%s, "
                          "u=%s below the top",
                          algo, in->net->name, dl, ul);
    }
    p->lc = lc;
    p->N = lc->N;
    p->l = lc->l;
    p->d = lc->d[0];
    p->u = lc->u[0];
    int rc = rs__perm_by_source(pb, p->N, algo, &p->dst, &p->msg, err);
    if (rc)
        rs__lcan_perm_free(p);
    return rc;
}

int rs__perm_by_source(const struct rs_problem *pb, uint32_t N, const char *algo,
                       uint32_t **dst_out, uint32_t **msg_out, struct rs_err *err)
{
    RS_ASSERT(pb != NULL && algo != NULL && dst_out != NULL && msg_out != NULL);
    *dst_out = *msg_out = NULL;
    if (pb->n_msgs != N)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "algorithm=%s routes a permutation: every PE sends one message and "
                          "receives one, got %llu messages for %u PEs",
                          algo, (unsigned long long)pb->n_msgs, N);
    uint32_t *dst = rs_malloc((size_t)N * sizeof *dst), *msg = rs_malloc((size_t)N * sizeof *msg);
    uint8_t *got = rs_calloc(N, 1);
    if (!dst || !msg || !got) {
        rs_free(got);
        rs_free(dst);
        rs_free(msg);
        return rs_err_set(err, RS_ENOMEM, "out of memory for %u messages", N);
    }
    for (uint32_t s = 0; s < N; s++)
        msg[s] = UINT32_MAX;
    int rc = 0;
    for (uint32_t m = 0; m < N && !rc; m++) {
        uint32_t s = rs_problem_src(pb, m), t = pb->dst[m];
        if (msg[s] != UINT32_MAX)
            rc = rs_err_set(err, RS_ECONSTRAINT,
                            "algorithm=%s routes a permutation: PE %u sends two messages "
                            "(%u and %u)",
                            algo, s, msg[s], m);
        else if (got[t])
            rc = rs_err_set(err, RS_ECONSTRAINT,
                            "algorithm=%s routes a permutation: PE %u receives two messages "
                            "(the second is message %u from PE %u)",
                            algo, t, m, s);
        msg[s] = m;
        dst[s] = t;
        got[t] = 1;
    }
    rs_free(got);
    if (rc) {
        rs_free(dst);
        rs_free(msg);
        return rc;
    }
    *dst_out = dst;
    *msg_out = msg;
    return 0;
}

void rs__lcan_perm_free(struct rs__lcan_perm *p)
{
    rs_free(p->dst);
    rs_free(p->msg);
    p->dst = p->msg = NULL;
}

uint32_t rs__lcan_turn_switch(const struct rs_lcan *lc, uint32_t s, uint32_t t, uint32_t top,
                              enum rs__turn turn)
{
    RS_ASSERT(lc != NULL && s < lc->N && t < lc->N);
    uint32_t T = turn == RS__TURN_TOP ? lc->l - 1 : rs__lcan_lca_level(lc, s, t);
    uint32_t lo = top / (lc->U[lc->l - 1] / lc->U[T]); /* k_0 .. k_{T-1} */
    return lc->first[T] + (s / lc->span[T]) * lc->U[T] + lo;
}

int rs__plan_refuse_key(const struct rs_engine_input *in, const char *algo, const char *name,
                        const char *why, struct rs_err *err)
{
    const struct rs_param *par = rs_params_find(in->params, name);
    if (!par)
        return 0;
    char where[256];
    rs_param_where(par, where, sizeof where);
    return rs_err_set(err, RS_EUNSUPPORTED, "%s: key '%s' has no effect with algorithm=%s: %s",
                      where, name, algo, why);
}
