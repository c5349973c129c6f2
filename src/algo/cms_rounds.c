/* The rounds of algorithm=cms_butterfly (001 §3.1 steps 1-4): every undelivered message's
 * copies doubled (not in round 0), a colour, an intermediate and a priority per copy, the
 * Delta subrounds in colour order, one after the other; then the record. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/cms_butterfly.h"
#include "routesim/alloc.h"
#include "routesim/bounds.h"

struct cms_run {
    const struct rs_engine_input *in;
    const struct rs_engine_ops *engine;
    const struct rs__cms_cfg *cfg;
    uint32_t *live;       /* undelivered messages, increasing id */
    uint32_t n_live;
    uint32_t *arrival;    /* [n_msgs] flit step of its first delivered copy, RS_NONE */
    /* copies of the current round: copy i is copy i mod k of message live[i / k] */
    uint32_t *cp_msg, *cp_mid, *cp_colour, *cp_finish, *order;
    uint64_t *cp_key;     /* priority << 32 | i */
    uint64_t *sorted;     /* the keys by colour, by priority within a colour */
    uint64_t cp_cap;
    uint32_t *colour_first; /* [delta + 1] */
    uint32_t *load_in, *load_out; /* [N] copies per input / per output in this round */
    struct rs__cms_sub sub;
    /* totals */
    uint64_t steps;       /* flit steps so far: the sum of the subrounds' */
    uint32_t rounds, subrounds, max_buffer, max_in, max_out;
    uint64_t sent, delivered, at_input, discarded, flit_hops;
    struct rs_buf per_round_delivered, per_round_steps;
};

static void run_free(struct cms_run *r)
{
    rs_free(r->live);
    rs_free(r->arrival);
    rs_free(r->cp_msg);
    rs_free(r->cp_mid);
    rs_free(r->cp_colour);
    rs_free(r->cp_finish);
    rs_free(r->order);
    rs_free(r->cp_key);
    rs_free(r->sorted);
    rs_free(r->colour_first);
    rs_free(r->load_in);
    rs_free(r->load_out);
    rs__cms_sub_free(&r->sub);
    rs_buf_free(&r->per_round_delivered);
    rs_buf_free(&r->per_round_steps);
}

static int copies_reserve(struct cms_run *r, uint64_t n, struct rs_err *err)
{
    if (n <= r->cp_cap)
        return 0;
    uint32_t **arrays[] = {&r->cp_msg, &r->cp_mid, &r->cp_colour, &r->cp_finish, &r->order};
    for (size_t a = 0; a < sizeof arrays / sizeof *arrays; a++) {
        uint32_t *x = rs_realloc(*arrays[a], (size_t)n * sizeof *x);
        if (!x)
            return rs_err_set(err, RS_ENOMEM, "out of memory for %llu copies",
                              (unsigned long long)n);
        *arrays[a] = x;
    }
    uint64_t **keys[] = {&r->cp_key, &r->sorted};
    for (size_t a = 0; a < sizeof keys / sizeof *keys; a++) {
        uint64_t *x = rs_realloc(*keys[a], (size_t)n * sizeof *x);
        if (!x)
            return rs_err_set(err, RS_ENOMEM, "out of memory for %llu copies",
                              (unsigned long long)n);
        *keys[a] = x;
    }
    r->cp_cap = n;
    return 0;
}

/* The first few undelivered messages, for the error line. */
static void name_live(const struct cms_run *r, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < r->n_live && i < 8 && used + 1 < n; i++) {
        int w = snprintf(buf + used, n - used, "%s%u", i ? ", " : "", r->live[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (r->n_live > 8 && used + 1 < n)
        snprintf(buf + used, n - used, ", ...");
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Steps 1-2 of round R: n copies (k of each live message), their draws, the loads of
 * Invariant 3.1.2, and r->order: the copies by colour, by priority within a colour (the
 * arrays reserved for n copies). Returns the size of the largest colour. */
static uint32_t make_copies(struct cms_run *r, uint32_t R, uint64_t k, uint64_t n)
{
    const struct rs__cms_cfg *c = r->cfg;
    const struct rs_problem *pb = r->in->pb;
    memset(r->colour_first, 0, ((size_t)c->delta + 1) * sizeof *r->colour_first);
    memset(r->load_in, 0, (size_t)c->N * sizeof *r->load_in);
    memset(r->load_out, 0, (size_t)c->N * sizeof *r->load_out);
    for (uint64_t i = 0; i < n; i++) {
        uint32_t msg = r->live[i / k];
        struct rs__cms_draws d;
        rs__cms_draw(r->in->seed, R, msg, (uint32_t)(i % k), c->delta, c->N, &d);
        r->cp_msg[i] = msg;
        r->cp_colour[i] = d.colour;
        r->cp_mid[i] = d.mid;
        r->cp_key[i] = (uint64_t)d.priority << 32 | i;
        r->colour_first[d.colour + 1]++;
        r->load_in[rs_problem_src(pb, msg)]++;
        r->load_out[pb->dst[msg]]++;
    }
    for (uint32_t t = 0; t < c->N; t++) {
        if (r->load_in[t] > r->max_in)
            r->max_in = r->load_in[t];
        if (r->load_out[t] > r->max_out)
            r->max_out = r->load_out[t];
    }
    uint32_t largest = 0;
    for (uint32_t col = 0; col < c->delta; col++) {
        if (r->colour_first[col + 1] > largest)
            largest = r->colour_first[col + 1];
        r->colour_first[col + 1] += r->colour_first[col];
    }
    /* bucket the keys by colour, then sort each bucket: the keys are unique, so the order is
     * a pure function of the draws */
    uint64_t *sorted = r->sorted;
    for (uint64_t i = 0; i < n; i++)
        sorted[r->colour_first[r->cp_colour[i]]++] = r->cp_key[i];
    for (uint32_t col = c->delta; col > 0; col--) /* back to the starts */
        r->colour_first[col] = r->colour_first[col - 1];
    r->colour_first[0] = 0;
    for (uint32_t col = 0; col < c->delta; col++) {
        uint32_t first = r->colour_first[col], cnt = r->colour_first[col + 1] - first;
        if (cnt > 1)
            qsort(&sorted[first], cnt, sizeof *sorted, cmp_u64);
    }
    for (uint64_t j = 0; j < n; j++)
        r->order[j] = (uint32_t)sorted[j];
    return largest;
}

/* Record the outcome of the subround of the copies order[first .. first+cnt). */
static void add_subround(struct cms_run *r, uint32_t first, uint32_t cnt,
                         const struct rs__cms_sub_result *res, uint32_t *newly)
{
    for (uint32_t j = first; j < first + cnt; j++) {
        uint32_t i = r->order[j];
        if (r->cp_finish[i] == RS_NONE)
            continue;
        uint64_t t = r->steps + r->cp_finish[i];
        uint32_t *a = &r->arrival[r->cp_msg[i]];
        if (*a == RS_NONE)
            ++*newly;
        if (t < *a)
            *a = (uint32_t)t;
    }
    r->subrounds++;
    r->sent += cnt;
    r->delivered += res->delivered;
    r->at_input += res->discarded_at_input;
    r->discarded += res->discarded;
    r->flit_hops += res->flit_hops;
    if (res->max_buffer > r->max_buffer)
        r->max_buffer = res->max_buffer;
    r->steps += res->steps;
}

/* One round R: copies, colours and intermediates, then the Delta subrounds in colour order;
 * the messages delivered in it leave the live list. */
static int run_round(struct cms_run *r, uint32_t R, char *dl, size_t dl_len, struct rs_err *err)
{
    const struct rs__cms_cfg *c = r->cfg;
    char names[128];
    double want = (double)r->n_live * c->pad * ldexp(1.0, (int)R);
    double limit = fmin(fmax(4194304.0, 4.0 * c->N * c->q_eff), 2147483648.0);
    if (want > limit) {
        name_live(r, names, sizeof names);
        return rs_err_set(err, RS_EUNFINISHED,
                          "algorithm=cms_butterfly: round %u would route %.4g copies of the %u "
                          "undelivered messages, more than %.4g (Invariant 3.1.2 allows N q = "
                          "%llu): %s",
                          R, want, r->n_live, limit, (unsigned long long)c->N * c->q_eff,
                          names);
    }
    uint64_t k = (uint64_t)c->pad << R, n = (uint64_t)r->n_live * k;
    int rc = copies_reserve(r, n, err);
    if (rc)
        return rc;
    uint32_t largest = make_copies(r, R, k, n);
    if ((rc = rs__cms_sub_reserve(&r->sub, r->in->net, largest, err)))
        return rc;
    uint64_t start = r->steps;
    uint32_t newly = 0;
    for (uint32_t col = 0; col < c->delta; col++) {
        uint32_t first = r->colour_first[col], cnt = r->colour_first[col + 1] - first;
        struct rs__cms_sub_result res;
        if (!cnt)
            continue; /* nothing to route: the subround takes no time */
        if ((rc = rs__cms_subround(r->in, r->engine, c, &r->sub, &r->order[first], cnt,
                                   r->cp_msg, r->cp_mid, r->cp_finish, &res, dl, dl_len, err)))
            return rc;
        add_subround(r, first, cnt, &res, &newly);
        if (r->steps >= RS_NONE)
            return rs_err_set(err, RS_EUNFINISHED,
                              "algorithm=cms_butterfly: more than 2^32 flit steps");
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < r->n_live; i++)
        if (r->arrival[r->live[i]] == RS_NONE)
            r->live[kept++] = r->live[i];
    r->n_live = kept;
    r->rounds = R + 1;
    if (rs_buf_printf(&r->per_round_delivered, "%s%u", R ? ";" : "", newly) ||
        rs_buf_printf(&r->per_round_steps, "%s%llu", R ? ";" : "",
                      (unsigned long long)(r->steps - start)))
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    return 0;
}

/* The common metrics cms_butterfly reports first, in this order. */
static const enum rs_metric cms_columns[] = {RS_M_MAKESPAN,     RS_M_MESSAGES,
                                             RS_M_DELIVERED,    RS_M_LATENCY_MEAN,
                                             RS_M_LATENCY_P99,  RS_M_LATENCY_MAX};

/* The record of the whole run: the common metrics (latency: the delivery step of every
 * delivered message, all released at step 0; NaN when there is none), then the rounds' own. */
static int cms_record(const struct cms_run *r, struct rs_record *out)
{
    const struct rs__cms_cfg *c = r->cfg;
    uint64_t n = r->in->pb->n_msgs;
    double bound = rs_bound_cms_butterfly(c->L, c->q, c->N, c->B);
    struct rs_result res;
    int rc;
    rs_result_init(&res);
    struct rs_lat_source ls = {.n = n, .finish = r->arrival, .none = RS_NONE};
    if ((rc = rs_result_latency(&res, &ls)))
        return rc;
    res.makespan = (int64_t)r->steps;
    res.messages = (int64_t)n;
    res.delivered = (int64_t)(n - r->n_live);
    res.flit_hops = (int64_t)r->flit_hops;
    res.max_buffer = r->max_buffer;
    if (r->in->result)
        *r->in->result = res;
    rc |= rs_result_record(&res, cms_columns, sizeof cms_columns / sizeof *cms_columns, out);
    rc |= rs_metric_int(out, RS_M_ROUNDS, r->rounds);
    rc |= rs_metric_int(out, RS_M_ROUNDS_PAPER, c->rounds_paper);
    rc |= rs_metric_int(out, RS_M_COLOURS, c->delta);
    rc |= rs_metric_int(out, RS_M_Q_EFF, c->q_eff);
    rc |= rs_metric_int(out, RS_M_SUBROUNDS, r->subrounds);
    rc |= rs_metric_int(out, RS_M_COPIES_SENT, (int64_t)r->sent);
    rc |= rs_metric_int(out, RS_M_COPIES_DELIVERED, (int64_t)r->delivered);
    rc |= rs_metric_int(out, RS_M_COPIES_DISCARDED, (int64_t)(r->at_input + r->discarded));
    rc |= rs_metric_int(out, RS_M_COPIES_DISCARDED_AT_INPUT, (int64_t)r->at_input);
    rc |= rs_metric_int(out, RS_M_DUPLICATES, (int64_t)(r->delivered - (n - r->n_live)));
    rc |= rs_metric_int(out, RS_M_MAX_INPUT_COPIES, r->max_in);
    rc |= rs_metric_int(out, RS_M_MAX_OUTPUT_COPIES, r->max_out);
    rc |= rs_metric_int(out, RS_M_FLIT_HOPS, (int64_t)r->flit_hops);
    rc |= rs_metric_int(out, RS_M_MAX_BUFFER, r->max_buffer);
    rc |= rs_metric_double(out, RS_M_BOUND, bound);
    rc |= rs_metric_double(out, RS_M_MEASURED_OVER_BOUND, (double)r->steps / bound);
    rc |= rs_metric_string(out, RS_M_DELIVERED_PER_ROUND,
                           r->per_round_delivered.data ? r->per_round_delivered.data : "");
    rc |= rs_metric_string(out, RS_M_STEPS_PER_ROUND,
                           r->per_round_steps.data ? r->per_round_steps.data : "");
    return rc ? RS_ENOMEM : 0;
}

int rs__cms_rounds(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                   const struct rs__cms_cfg *cfg, struct rs_record *out, char *deadlock_msg,
                   size_t deadlock_len, struct rs_err *err)
{
    struct cms_run r;
    uint64_t n = in->pb->n_msgs;
    int rc = 0;
    memset(&r, 0, sizeof r);
    r.in = in;
    r.engine = engine;
    r.cfg = cfg;
    rs_buf_init(&r.per_round_delivered);
    rs_buf_init(&r.per_round_steps);
    r.live = rs_malloc((size_t)n * sizeof *r.live + 1);
    r.arrival = rs_malloc((size_t)n * sizeof *r.arrival + 1);
    r.colour_first = rs_malloc(((size_t)cfg->delta + 1) * sizeof *r.colour_first);
    r.load_in = rs_malloc((size_t)cfg->N * sizeof *r.load_in);
    r.load_out = rs_malloc((size_t)cfg->N * sizeof *r.load_out);
    if (!r.live || !r.arrival || !r.colour_first || !r.load_in || !r.load_out)
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for %llu messages",
                        (unsigned long long)n);
    for (uint64_t m = 0; !rc && m < n; m++) {
        r.live[m] = (uint32_t)m;
        r.arrival[m] = RS_NONE;
    }
    r.n_live = rc ? 0 : (uint32_t)n;
    for (uint32_t R = 0; !rc && r.n_live; R++) {
        if (R == cfg->max_rounds) {
            char names[128];
            name_live(&r, names, sizeof names);
            rc = rs_err_set(err, RS_EUNFINISHED,
                            "algorithm=cms_butterfly: %u of %llu messages undelivered after "
                            "max_rounds=%u rounds (the paper's count is %u): %s",
                            r.n_live, (unsigned long long)n, R, cfg->rounds_paper, names);
            break;
        }
        rc = run_round(&r, R, deadlock_msg, deadlock_len, err);
    }
    if (!rc && (rc = cms_record(&r, out)))
        rs_err_set(err, rc, "out of memory for the result record");
    run_free(&r);
    return rc;
}
