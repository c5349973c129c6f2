/* algorithm=cms_butterfly: Cole, Maggs & Sitaraman's randomized wormhole algorithm for an
 * N-input butterfly (001 §3.1). This file: its options, constants, random draws and registry
 * entry; the rounds are cms_rounds.c, one subround cms_subround.c (docs/cms-butterfly.md). */
#include <math.h>
#include <string.h>

#include "algo/cms_butterfly.h"
#include "routesim/algo.h"
#include "routesim/assert.h"
#include "routesim/rng.h"

static const struct rs_optdef cms_options[] = {
    {"beta", RS_OPT_DOUBLE, "1", 0.001, 1e6, NULL,
     "the constant of Delta = ceil(beta q log^(1/B) N / B) colours, the subrounds of a round "
     "(001 §3.1 step 2)", "1"},
    {"pad", RS_OPT_BOOL, "1", 0, 0, NULL,
     "when q < log N, start every message with ceil(log N / q) copies and use "
     "q ceil(log N / q) as q (001 §3.1, last paragraph); 0: one copy, q as given", "-"},
    {"max_rounds", RS_OPT_INT, "32", 1, 64, NULL,
     "rounds after which an undelivered message is an error (the paper's count is "
     "2 log log(Nq) + 1; later rounds go on doubling the copies)", "1"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* ---- constants and draws ----------------------------------------------------------------- */

uint32_t rs__cms_delta(double beta, uint32_t q, uint32_t log_n, uint32_t B)
{
    RS_ASSERT(log_n >= 1 && B >= 1);
    double d = ceil(beta * q * pow((double)log_n, 1.0 / B) / B - 1e-9);
    if (d > (double)(1u << 24))
        return 0;
    return d < 1 ? 1 : (uint32_t)d;
}

uint32_t rs__cms_rounds_paper(uint64_t nq)
{
    if (nq <= 2)
        return 1;
    double x = 2 * log2(log2((double)nq));
    return (uint32_t)ceil(x - 1e-9) + 1;
}

void rs__cms_draw(uint64_t seed, uint32_t round, uint32_t msg, uint32_t copy, uint32_t delta,
                  uint32_t N, struct rs__cms_draws *d)
{
    /* The Philox entity has 48 bits (src/core/rng.c): the low 16 bits of the message id
     * and the copy form the entity, the high 16 bits of the message id go above the round
     * (round <= max_rounds <= 64 < 2^8) in the step word. Messages below 2^16 get the same
     * draws as the earlier layout (msg << 32 | copy), which silently dropped the bits of
     * msg above 15, so messages m and m + 2^16 shared every draw. */
    RS_ASSERT(round < 256);
    RS_ASSERT(delta >= 1 && N >= 1); /* the colour and the intermediate are drawn below them */
    struct rs_rng r;
    rs_rng_init(&r, seed, RS_STREAM_CMS_BUTTERFLY, (uint64_t)(msg & 0xffffu) << 32 | copy,
                round | (msg >> 16) << 8);
    d->colour = rs_rng_below(&r, delta);
    d->mid = rs_rng_below(&r, N);
    d->priority = rs_rng_u32(&r);
}

int rs__cms_config(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                   struct rs__cms_cfg *cfg, struct rs_err *err)
{
    const struct rs_net *net = in->net;
    const struct rs_params *p = in->params;
    const struct rs_param *od = rs_params_find(p, "on_delay");
    int64_t L, B, max_rounds;
    int link, classes, on_delay, pad, rc;
    memset(cfg, 0, sizeof *cfg);
    if (!net->wrap)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=cms_butterfly needs wrap=1: its second pass goes on from "
                          "the intermediate in level log N (001 §3.1)");
    if (!rs_route_is_direct(in->routing))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=cms_butterfly draws its own intermediates (001 §3.1 step "
                          "3): routing must be direct");
    if ((rc = rs_opt_choice(p, engine->options, "on_delay", &on_delay, err)))
        return rc;
    if (od && on_delay == 0) /* on_delay choices: wait, discard */
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=cms_butterfly discards every delayed copy (001 §3.1 step "
                          "4): on_delay=wait is not possible");
    if ((rc = rs_opt_int(p, engine->options, "length", &L, err)) ||
        (rc = rs_opt_int(p, engine->options, "vcs", &B, err)) ||
        (rc = rs_opt_choice(p, engine->options, "link", &link, err)) ||
        (rc = rs_opt_choice(p, engine->options, "vc_classes", &classes, err)) ||
        (rc = rs_opt_double(p, cms_options, "beta", &cfg->beta, err)) ||
        (rc = rs_opt_bool(p, cms_options, "pad", &pad, err)) ||
        (rc = rs_opt_int(p, cms_options, "max_rounds", &max_rounds, err)))
        return rc;
    if (classes != 0)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=cms_butterfly cannot deadlock (delayed copies are "
                          "discarded): vc_classes must be none");
    cfg->N = net->n_terminals;
    cfg->log_n = net->log2n;
    cfg->q = in->pb->per_input;
    cfg->B = (uint32_t)B;
    cfg->L = (uint32_t)L;
    cfg->pad = pad && cfg->q < cfg->log_n ? (cfg->log_n + cfg->q - 1) / cfg->q : 1;
    cfg->q_eff = cfg->q * cfg->pad;
    cfg->delta = rs__cms_delta(cfg->beta, cfg->q_eff, cfg->log_n, cfg->B);
    if (!cfg->delta)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "algorithm=cms_butterfly: beta=%g gives more than 2^24 colours "
                          "(q=%u, N=%u, vcs=%u)",
                          cfg->beta, cfg->q_eff, cfg->N, cfg->B);
    cfg->rounds_paper = rs__cms_rounds_paper((uint64_t)cfg->N * cfg->q_eff);
    cfg->max_rounds = (uint32_t)max_rounds;
    cfg->start_cap = link == 1 ? 1 : cfg->B; /* link choices: per_vc, shared */
    return 0;
}

static int cms_run(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                   struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                   struct rs_err *err)
{
    struct rs__cms_cfg cfg;
    int rc = rs__cms_config(in, engine, &cfg, err);
    return rc ? rc : rs__cms_rounds(in, engine, &cfg, out, deadlock_msg, deadlock_len, err);
}

static const char *const cms_switching[] = {"wormhole", NULL};

const struct rs_algo_ops rs_algo_cms_butterfly = {
    .name = "cms_butterfly",
    .summary = "001 §3.1: rounds of Delta colour subrounds, copies doubling, two passes via "
               "random intermediates on the wrapped butterfly, delayed copies discarded",
    .options = cms_options,
    .switching = cms_switching,
    .needs = RS_CAP_BUTTERFLY,
    .run = cms_run,
};
