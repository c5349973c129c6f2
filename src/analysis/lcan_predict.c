/* The predictor of 002 §3: the root-permutation recurrence (eq. 2-3) on a CB-LCAN, with
 * the indexing routesim uses (one application of eq. 2 per contention point: l-1 of them)
 * and the d > u extension of the paper (uniform load on the top level's downers). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/analysis.h"
#include "routesim/assert.h"
#include "routesim/lcan.h"

/* The recurrence never needs more cycles than this (N <= 2^26 pairs, >= 1 routed each). */
#define PREDICT_MAX_CYCLES 100000000u

int rs_lcan_predict(const struct rs_net *net, struct rs_lcan_prediction *out,
                    struct rs_err *err)
{
    RS_ASSERT(net != NULL && out != NULL);
    const struct rs_lcan *lc = rs__lcan_of(net);
    memset(out, 0, sizeof *out);
    if (!lc || lc->tree)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "predict=lcan is the recurrence of CB-LCANs (002 §3); topology=%s%s is "
                          "not one",
                          net->name, lc ? " pi=tree" : "");
    uint32_t l = lc->l, cap = 16;
    double x = lc->N, top = (double)lc->S[l - 1] * lc->d[l - 1];
    double below = l > 1 ? (double)lc->S[1] * lc->d[1] : lc->N; /* channels into level 0 */
    out->success = rs_malloc(cap * sizeof *out->success);
    if (!out->success)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    while (x >= 1 && out->n_cycles < PREDICT_MAX_CYCLES) {
        double s;
        if (l == 1) { /* one crossbar: a permutation goes through at once */
            s = x;
        } else {
            double p = x / top < 1 ? x / top : 1;
            double q = 1 - pow(1 - p / lc->d[l - 1], lc->d[l - 1]);
            for (uint32_t i = l - 1; i-- > 1;)
                q = 1 - pow(1 - q / lc->d[i], lc->u[i]);
            s = below * q;
        }
        if (out->n_cycles == cap) {
            double *grown = rs_realloc(out->success, 2 * cap * sizeof *grown);
            if (!grown) {
                rs_lcan_prediction_free(out);
                return rs_err_set(err, RS_ENOMEM, "out of memory");
            }
            out->success = grown;
            cap *= 2;
        }
        out->success[out->n_cycles++] = s;
        x -= s;
    }
    out->left = x > 0 ? x : 0;
    out->cycles = out->n_cycles + out->left;
    return 0;
}

void rs_lcan_prediction_free(struct rs_lcan_prediction *p)
{
    rs_free(p->success);
    memset(p, 0, sizeof *p);
}
