/* Positive claims (scratch, how-to check): the metric's mean is above 0 in every row. */
#include <stdio.h>

#include "report/claim.h"

static const struct rs_optdef positive_options[] = {{NULL, RS_OPT_STRING, NULL, 0, 0, NULL, NULL}};

static int prepare(struct rs__claim *c, void **state)
{
    *state = NULL;
    rs_buf_printf(c->md, ": `%s_mean`; test: above 0 in every row.\n\n", c->metric);
    return 0;
}

static int judge(struct rs__claim *c, void *state, const struct rs__claim_group *g,
                 int *verdict, char *why, size_t wn, char *note, size_t nn)
{
    for (size_t i = 0; i < g->n; i++)
        if (!(rs__claim_stat(c, g->rows[i], "mean") > 0)) {
            *verdict = RS_VERDICT_FAILS;
            snprintf(why, wn, "row %zu is not above 0", g->rows[i]);
            return 0;
        }
    *verdict = RS_VERDICT_HOLDS;
    snprintf(why, wn, "every row is above 0");
    return 0;
}

const struct rs__claim_kind rs__claim_positive = {
    .name = "positive",
    .summary = "the metric's mean is above 0 in every row (scratch)",
    .options = positive_options,
    .prepare = prepare,
    .judge = judge,
};
