/* Load factors on a fat-tree (000 §2, §5): channel loads along each message's tree path,
 * lambda against the channel capacities, eta against the reference weights 2^ceil(h/2),
 * the degree and the peak levels. Contract: include/routesim/load_factor.h. */
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/load_factor.h"

void rs_load_factor_free(struct rs_load_factor *lf)
{
    rs_free(lf->load);
    rs_free(lf->peak);
    memset(lf, 0, sizeof *lf);
}

/* d(M): the largest number of messages one terminal sends or receives. */
static int degree_of(const struct rs_problem *pb, uint32_t *degree)
{
    uint32_t *in = rs_calloc(pb->n_terminals, sizeof *in), best = pb->n_msgs ? 1 : 0;
    uint32_t *out = rs_calloc(pb->n_terminals, sizeof *out);
    if (!in || !out) {
        rs_free(in);
        rs_free(out);
        return RS_ENOMEM;
    }
    for (uint64_t m = 0; m < pb->n_msgs; m++) {
        uint32_t s = rs_problem_src(pb, m), t = pb->dst[m];
        if (++out[s] > best)
            best = out[s];
        if (++in[t] > best)
            best = in[t];
    }
    rs_free(in);
    rs_free(out);
    *degree = best;
    return 0;
}

int rs_load_factor_compute(struct rs_load_factor *lf, const struct rs__ftree *ft,
                           const struct rs_problem *pb, struct rs_err *err)
{
    RS_ASSERT(lf != NULL && ft != NULL && pb != NULL && pb->n_terminals == ft->N);
    uint32_t n = ft->n;
    memset(lf, 0, sizeof *lf);
    lf->n = n;
    lf->n_msgs = pb->n_msgs;
    lf->load = rs_calloc(2 * (size_t)ft->N, sizeof *lf->load);
    lf->peak = rs_malloc(pb->n_msgs ? pb->n_msgs : 1);
    if (!lf->load || !lf->peak || degree_of(pb, &lf->degree)) {
        rs_load_factor_free(lf);
        return rs_err_set(err, RS_ENOMEM, "out of memory for the load factors of %llu messages",
                          (unsigned long long)pb->n_msgs);
    }
    for (uint64_t m = 0; m < pb->n_msgs; m++) {
        uint32_t s = rs_problem_src(pb, m), t = pb->dst[m], p = rs__ft_peak(ft, s, t);
        lf->peak[m] = (uint8_t)p;
        lf->peak_hist[p]++;
        for (uint32_t i = p + 1; i <= n; i++) { /* both sides of the peak, level i */
            lf->load[rs__ft_node(i, s >> (n - i))]++;
            lf->load[rs__ft_node(i, t >> (n - i))]++;
        }
    }
    struct rs__ftree ref;
    rs__ftree_init_area_universal(&ref, n);
    for (uint32_t c = 2; c < 2 * ft->N; c++) {
        uint32_t i = rs__ft_level(c);
        RS_ASSERT(ft->cap[i] >= 1);
        double lam = (double)lf->load[c] / ft->cap[i], eta = (double)lf->load[c] / ref.cap[i];
        if (lam > lf->load_factor) {
            lf->load_factor = lam;
            lf->argmax = c;
        }
        if (lam > lf->level_load_factor[i])
            lf->level_load_factor[i] = lam;
        if (eta > lf->reference_load_factor)
            lf->reference_load_factor = eta;
    }
    return 0;
}
