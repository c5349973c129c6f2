/* Open-loop injection (SPEC W4) and its statistics collector, shared by every engine that
 * sets openloop in its ops. Contracts in include/routesim/openloop.h; the model and the
 * saturation verdict in docs/openloop.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/openloop.h"
#include "routesim/rng.h"

const char *const rs_injection_names[] = {"batch", "bernoulli", NULL};
const char *const rs_sim_type_names[] = {"fixed", "latency", "throughput", NULL};
const char *const rs_arrivals_names[] = {"per_step", "per_packet", "on_off", NULL};

const struct rs_optdef rs_openloop_options[] = {RS_OPENLOOP_OPTIONS,
                                                {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};
const struct rs_optdef rs_openloop_runctl_options[] = {RS_OPENLOOP_RUNCTL_OPTIONS,
                                                       {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};
const struct rs_optdef rs_openloop_fixed_options[] = {RS_OPENLOOP_FIXED_OPTIONS,
                                                      {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* The run-control keys into cfg. */
static int runctl_config(struct rs_openloop_cfg *cfg, const struct rs_params *p,
                         struct rs_err *err)
{
    const struct rs_optdef *t = rs_openloop_options;
    int64_t wp, sp, ms;
    int st, rc;
    if ((rc = rs_opt_choice(p, t, "sim_type", &st, err)) ||
        (rc = rs_opt_int(p, t, "warmup_periods", &wp, err)) ||
        (rc = rs_opt_int(p, t, "sample_period", &sp, err)) ||
        (rc = rs_opt_int(p, t, "max_samples", &ms, err)) ||
        (rc = rs_opt_double(p, t, "latency_thres", &cfg->latency_thres, err)) ||
        (rc = rs_opt_double(p, t, "warmup_thres", &cfg->warmup_thres, err)) ||
        (rc = rs_opt_double(p, t, "acc_warmup_thres", &cfg->acc_warmup_thres, err)) ||
        (rc = rs_opt_double(p, t, "stopping_thres", &cfg->stopping_thres, err)) ||
        (rc = rs_opt_double(p, t, "acc_stopping_thres", &cfg->acc_stopping_thres, err)))
        return rc;
    cfg->sim_type = (enum rs_sim_type)st;
    cfg->warmup_periods = (uint32_t)wp;
    cfg->sample_period = (uint32_t)sp;
    cfg->max_samples = (uint32_t)ms;
    if (st != RS_SIM_FIXED && (double)sp * (double)ms > RS_OPENLOOP_MAX_PHASE)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "sample_period=%lld x max_samples=%lld is over %.0f steps", (long long)sp,
                          (long long)ms, RS_OPENLOOP_MAX_PHASE);
    return 0;
}

/* The value of the optional double key name into *out, or fallback when absent. */
static int opt_double_or(const struct rs_params *p, const char *name, double fallback,
                         double *out, struct rs_err *err)
{
    *out = fallback;
    if (!rs_params_find(p, name))
        return 0;
    return rs_opt_double(p, rs_openloop_options, name, out, err);
}

/* packet_sizes and packet_size_rates into cfg (n_sizes = 0 when absent). */
static int sizes_config(struct rs_openloop_cfg *cfg, const struct rs_params *p,
                        struct rs_err *err)
{
    const char *text, *rtext = NULL;
    uint32_t rates[RS_OPENLOOP_MAX_SIZES], nr = 0;
    double total = 0, run = 0, mean = 0;
    int rc;
    if (!rs_params_find(p, "packet_sizes")) {
        if (rs_params_find(p, "packet_size_rates"))
            return rs_err_set(err, RS_ECONSTRAINT, "packet_size_rates needs packet_sizes");
        return 0;
    }
    if (rs_params_find(p, "length_max"))
        return rs_err_set(err, RS_ECONSTRAINT,
                          "packet_sizes and length_max both give packet lengths: choose one");
    if ((rc = rs_opt_string(p, rs_openloop_options, "packet_sizes", &text, err)) ||
        (rc = rs_pattern_int_list(text, "packet_sizes", 1, 65535, RS_OPENLOOP_MAX_SIZES,
                                  cfg->size, &cfg->n_sizes, err)))
        return rc;
    if (rs_params_find(p, "packet_size_rates") &&
        ((rc = rs_opt_string(p, rs_openloop_options, "packet_size_rates", &rtext, err)) ||
         (rc = rs_pattern_int_list(rtext, "packet_size_rates", 1, 1000000000,
                                   RS_OPENLOOP_MAX_SIZES, rates, &nr, err))))
        return rc;
    if (rtext && nr != cfg->n_sizes)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "packet_size_rates=%s has %u rates for %u packet_sizes", rtext, nr,
                          cfg->n_sizes);
    cfg->len_min = cfg->len_max = cfg->size[0];
    for (uint32_t i = 0; i < cfg->n_sizes; i++) {
        double w = nr ? (double)rates[i] : 1.0;
        total += w;
        mean += w * cfg->size[i];
        cfg->len_min = cfg->size[i] < cfg->len_min ? cfg->size[i] : cfg->len_min;
        cfg->len_max = cfg->size[i] > cfg->len_max ? cfg->size[i] : cfg->len_max;
    }
    for (uint32_t i = 0; i < cfg->n_sizes; i++) {
        run += nr ? (double)rates[i] : 1.0;
        cfg->size_upto[i] = i + 1 == cfg->n_sizes ? UINT64_C(1) << 32
                                                  : (uint64_t)llround(ldexp(run / total, 32));
    }
    cfg->mean_len = mean / total;
    return 0;
}

/* traffic=trace: the file, validated in one pass, gives the packet lengths. */
static int trace_config(struct rs_openloop_cfg *cfg, const struct rs_params *p,
                        struct rs_err *err)
{
    const struct rs_traffic_ops *tr = rs_traffic_find("trace");
    int idx, rc, arr = RS_ARRIVALS_PER_PACKET;
    if ((rc = rs_opt_choice(p, rs_problem_options, "traffic", &idx, err)))
        return rc;
    if (rs_traffics[idx] != tr)
        return 0;
    if (rs_params_find(p, "arrivals") &&
        (rc = rs_opt_choice(p, rs_openloop_options, "arrivals", &arr, err)))
        return rc;
    if (cfg->n_sizes || rs_params_find(p, "length_max") || arr == RS_ARRIVALS_ON_OFF)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "traffic=trace gives the arrivals and the sizes: packet_sizes, "
                          "length_max and arrivals=on_off do not apply");
    if (!rs_params_find(p, "trace_file"))
        return rs_err_set(err, RS_EPARSE, "traffic=trace needs trace_file=FILE");
    /* the sizes now (the engine sizes its buffers by len_max); the terminals are checked
       by rs_openloop_init, which knows the network */
    if ((rc = rs_opt_string(p, tr->options, "trace_file", &cfg->trace_file, err)) ||
        (rc = rs_trace_scan(cfg->trace_file, UINT32_MAX, &cfg->trace, err)))
        return rc;
    cfg->len_min = cfg->trace.size_min;
    cfg->len_max = cfg->trace.size_max;
    cfg->mean_len = (double)cfg->trace.flits / (double)cfg->trace.packets;
    return 0;
}

/* arrivals=on_off: BookSim's rule, two of burst_alpha, burst_beta and burst_r1 give the
 * third through rate = r1 * alpha / (alpha + beta) (rate: packets per step); burst_length L
 * gives beta = 1/L and, alone, r1 = 1. */
static int burst_config(struct rs_openloop_cfg *cfg, const struct rs_params *p,
                        struct rs_err *err)
{
    double a, b, r, len, lam = cfg->packet_rate;
    int rc;
    if ((rc = opt_double_or(p, "burst_alpha", -1, &a, err)) ||
        (rc = opt_double_or(p, "burst_beta", -1, &b, err)) ||
        (rc = opt_double_or(p, "burst_r1", -1, &r, err)) ||
        (rc = opt_double_or(p, "burst_length", -1, &len, err)))
        return rc;
    if (cfg->arrivals != RS_ARRIVALS_ON_OFF) {
        if (a >= 0 || b >= 0 || r >= 0 || len >= 0)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "burst_alpha, burst_beta, burst_r1 and burst_length need "
                              "arrivals=on_off");
        return 0;
    }
    if (len >= 0) {
        if (b >= 0)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "burst_length and burst_beta both give the on-period: choose one");
        b = 1.0 / len;
        if (r < 0 && a < 0)
            r = 1.0;
    }
    if (a < 0 && b < 0 && r < 0)
        a = b = 0.5; /* BookSim's defaults */
    if ((a >= 0) + (b >= 0) + (r >= 0) != 2)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "arrivals=on_off takes two of burst_alpha, burst_beta and burst_r1 "
                          "(the third follows from injection_rate)");
    if (lam > 0) {
        if (r < 0)
            r = a > 0 ? lam * (a + b) / a : INFINITY;
        else if (a < 0)
            a = r > lam ? b * lam / (r - lam) : INFINITY;
        else
            b = a * (r - lam) / lam;
        if (!(r <= 1.0) || !(a > 0 && a <= 1.0) || !(b >= 0 && b <= 1.0))
            return rs_err_set(err, RS_ECONSTRAINT,
                              "arrivals=on_off: %g packets per step needs burst_alpha=%g, "
                              "burst_beta=%g, burst_r1=%g, outside [0, 1] (alpha > 0)",
                              lam, a, b, r);
    }
    cfg->burst_alpha = a;
    cfg->burst_beta = b;
    cfg->burst_r1 = r;
    return 0;
}

int rs_openloop_process(const struct rs_params *p, enum rs_injection *out, struct rs_err *err)
{
    int i, rc = rs_opt_choice(p, rs_openloop_options, "injection_process", &i, err);
    if (!rc)
        *out = (enum rs_injection)i;
    return rc;
}

int rs_openloop_config(struct rs_openloop_cfg *cfg, const struct rs_params *p, uint32_t length,
                       struct rs_err *err)
{
    int64_t w, m, d, lmax;
    int rc, arr;
    memset(cfg, 0, sizeof *cfg);
    if ((rc = rs_openloop_process(p, &cfg->process, err)) ||
        (rc = rs_opt_double(p, rs_openloop_options, "injection_rate", &cfg->rate, err)) ||
        (rc = rs_opt_bool(p, rs_openloop_options, "injection_rate_uses_flits",
                          &cfg->rate_in_flits, err)) ||
        (rc = rs_opt_int(p, rs_openloop_options, "warmup_steps", &w, err)) ||
        (rc = rs_opt_int(p, rs_openloop_options, "measure_steps", &m, err)) ||
        (rc = rs_opt_int(p, rs_openloop_options, "drain_steps", &d, err)) ||
        (rc = rs_opt_choice(p, rs_openloop_options, "arrivals", &arr, err)) ||
        (rc = rs_opt_int(p, rs_openloop_options, "length_max", &lmax, err)) ||
        (rc = rs_opt_double(p, rs_openloop_options, "saturation_margin", &cfg->margin, err)) ||
        (rc = runctl_config(cfg, p, err)))
        return rc;
    cfg->warmup = (uint32_t)w;
    cfg->measure = (uint32_t)m;
    cfg->drain = (uint32_t)d;
    cfg->len_min = length;
    cfg->len_max = lmax ? (uint32_t)lmax : length;
    if (cfg->len_max < cfg->len_min)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "length_max=%lld is below length=%u (0 means every packet has "
                          "`length` flits)",
                          (long long)lmax, length);
    cfg->mean_len = 0.5 * ((double)cfg->len_min + (double)cfg->len_max);
    if ((rc = sizes_config(cfg, p, err)))
        return rc;
    if ((rc = trace_config(cfg, p, err)))
        return rc;
    double mean_len = cfg->mean_len;
    /* at most 1 packet per step: rate <= 1 and a packet has at least one flit */
    cfg->packet_rate = cfg->rate_in_flits ? cfg->rate / mean_len : cfg->rate;
    cfg->threshold = (uint64_t)llround(ldexp(cfg->packet_rate, 32));
    cfg->arrivals = (enum rs_arrivals)arr;
    /* the per-packet gaps use the per-step sampler's exact probability threshold / 2^32 */
    cfg->log_q = cfg->threshold >= (UINT64_C(1) << 32)
                     ? 0.0
                     : log1p(-ldexp((double)cfg->threshold, -32));
    return burst_config(cfg, p, err);
}

/* arrivals=per_packet: the step of packet idx of terminal t, whose predecessor arrived at
 * prev (0 for the first packet): prev plus a geometric gap >= 1 with success probability
 * threshold / 2^32, from one Philox block keyed by (seed, RS_STREAM_OL_GAP, t, idx).
 * UINT32_MAX when that is past every step. */
/* A uniform double in (0, 1) from two 32-bit words: 53 bits, offset by half a unit. */
static double unit_of(const uint32_t *w)
{
    uint64_t bits = ((uint64_t)w[0] << 21) ^ (uint64_t)(w[1] >> 11);
    return ((double)bits + 0.5) * 0x1p-53; /* exact: a power of two, a normal result */
}

/* Steps to the first success (>= 1) of trials with probability q, from u in (0, 1);
 * infinite when q is 0. */
static double geometric(double q, double u)
{
    if (q >= 1.0)
        return 1.0;
    if (q <= 0.0)
        return INFINITY;
    return floor(log(u) / log1p(-q)) + 1.0;
}

/* arrivals=on_off: the step of packet idx of terminal t after its predecessor at prev. An
 * arrival leaves the chain on, so the gap depends on nothing before it: from the on state,
 * each step either turns off (beta), or stays on and sends (1-beta) r1, or neither; from
 * off, the chain turns on after a geometric(alpha) number of steps and sends in that step
 * with probability r1. Round j of the draws is block (seed, RS_STREAM_OL_BURST, t << 32 |
 * j, idx); round 0 holds the first packet's starting state (on with the stationary
 * probability alpha / (alpha + beta)). UINT32_MAX when past every step. */
static uint32_t onoff_after(const struct rs_openloop *ol, uint32_t t, uint32_t idx,
                            uint32_t prev)
{
    const struct rs_openloop_cfg *c = &ol->cfg;
    double pos = prev, a = c->burst_alpha, b = c->burst_beta, r = c->burst_r1;
    double q_on = b + (1.0 - b) * r, send = (1.0 - b) * r / q_on;
    uint32_t blk[4];
    int on = 1;
    if (idx == 0) {
        rs_rng_block(ol->seed, RS_STREAM_OL_BURST, (uint64_t)t << 32, idx, blk);
        on = unit_of(blk) * (a + b) < a;
    }
    for (uint32_t round = 1; pos < (double)UINT32_MAX && round != 0; round++) {
        rs_rng_block(ol->seed, RS_STREAM_OL_BURST, (uint64_t)t << 32 | round, idx, blk);
        if (on) {
            pos += geometric(q_on, unit_of(blk));
            if (unit_of(blk + 2) < send)
                break;
            on = 0;
        } else {
            pos += geometric(a, unit_of(blk));
            if (unit_of(blk + 2) < r)
                break;
            on = 1;
        }
    }
    return pos >= (double)UINT32_MAX ? UINT32_MAX : (uint32_t)pos;
}

/* The gap's step after prev from its block (seed, RS_STREAM_OL_GAP, t, idx), log_q != 0. */
static uint32_t gap_of_block(const struct rs_openloop *ol, const uint32_t blk[4], uint32_t prev)
{
    /* u uniform in (0, 1): 53 random bits, offset by half a unit (the product by 2^-53 is
       exact, as ldexp) */
    uint64_t bits = ((uint64_t)blk[0] << 21) ^ (uint64_t)(blk[1] >> 11);
    double u = ((double)bits + 0.5) * 0x1p-53;
    /* floor(log(u) / log_q) + 1: the quotient is finite and in [0, 2^38) (log(u) >= -38,
       -log_q >= 2^-32 since threshold >= 1), so truncation is the floor, and the gap is an
       exact integer */
    uint64_t gap = (uint64_t)(log(u) / ol->cfg.log_q) + 1;
    if (gap >= (uint64_t)(UINT32_MAX - prev))
        return UINT32_MAX;
    return prev + (uint32_t)gap;
}

static uint32_t gap_after(const struct rs_openloop *ol, uint32_t t, uint32_t idx, uint32_t prev)
{
    uint32_t blk[4];
    if (ol->cfg.log_q == 0.0) /* probability 1: every step */
        return prev + 1;
    rs_rng_block(ol->seed, RS_STREAM_OL_GAP, t, idx, blk);
    return gap_of_block(ol, blk, prev);
}

/* The step of packet idx of terminal t after its predecessor at prev, by the sampler. */
static uint32_t next_after(const struct rs_openloop *ol, uint32_t t, uint32_t idx, uint32_t prev)
{
    if (ol->cfg.arrivals == RS_ARRIVALS_ON_OFF)
        return onoff_after(ol, t, idx, prev);
    return gap_after(ol, t, idx, prev);
}

/* ---- the calendar of next arrivals (arrivals=per_packet|on_off) --------------------------
 * A timing wheel: slot s lists the terminals whose next arrival step is congruent to s
 * modulo the wheel's size, so that a step visits its slot's terminals only (those due then,
 * and those due a multiple of the wheel's size later) instead of scanning every terminal.
 * The gaps are keyed by (seed, terminal, packet index), so the order of the visits changes
 * no value; the step's terminals are sorted before use, as the scan visited them. */

/* Slots of the wheel: a power of two about twice the mean gap, so that a terminal is seen
 * about once per packet, within [64, 4096] (16 KiB at most). */
static uint32_t wheel_slots(const struct rs_openloop_cfg *c)
{
    double gap = c->packet_rate > 0 ? 2.0 / c->packet_rate : 4096.0;
    uint32_t w = 64;
    while (w < 4096 && (double)w < gap)
        w *= 2;
    return w;
}

/* File terminal t under the slot of its next arrival (none when it has none). */
static inline void calendar_put(struct rs_openloop *ol, uint32_t t)
{
    uint32_t at = ol->next[t];
    if (at == UINT32_MAX)
        return;
    uint32_t *head = &ol->wheel[at & ol->wheel_mask];
    ol->wlink[t] = *head;
    *head = t;
}

/* The calendar of ol->next (set). Returns 0 or RS_ENOMEM. */
static int calendar_init(struct rs_openloop *ol)
{
    uint32_t w = wheel_slots(&ol->cfg), n = ol->n_terminals;
    ol->wheel_mask = w - 1;
    ol->wheel = rs_malloc((size_t)w * sizeof *ol->wheel);
    ol->wlink = rs_malloc(((size_t)n + 1) * sizeof *ol->wlink);
    ol->wbits = rs_calloc((size_t)n / 64 + 1, sizeof *ol->wbits);
    if (!ol->wheel || !ol->wlink || !ol->wbits)
        return RS_ENOMEM;
    memset(ol->wheel, 0xff, (size_t)w * sizeof *ol->wheel);
    for (uint32_t t = n; t-- > 0;) /* each slot's list in increasing terminal order */
        calendar_put(ol, t);
    return 0;
}

/* The terminals whose next arrival is step, taken off the calendar into out, increasing;
 * returns their number. The slot's other terminals stay. */
static uint32_t calendar_due(struct rs_openloop *ol, uint32_t step, uint32_t *out)
{
    uint32_t *head = &ol->wheel[step & ol->wheel_mask], t = *head, k = 0;
    uint32_t lo = UINT32_MAX, hi = 0;
    const uint32_t *next = ol->next;
    *head = UINT32_MAX;
    while (t != UINT32_MAX) {
        uint32_t nx = ol->wlink[t];
        if (next[t] == step) {
            out[k++] = t;
            lo = t < lo ? t : lo;
            hi = t > hi ? t : hi;
        } else { /* due a lap or more later */
            ol->wlink[t] = *head;
            *head = t;
        }
        t = nx;
    }
    if (k <= 8) { /* a few: insertion */
        for (uint32_t i = 1; i < k; i++) {
            uint32_t x = out[i], j = i;
            for (; j > 0 && out[j - 1] > x; j--)
                out[j] = out[j - 1];
            out[j] = x;
        }
        return k;
    }
    uint64_t *bits = ol->wbits; /* many: as bits, read back in order */
    for (uint32_t i = 0; i < k; i++)
        bits[out[i] >> 6] |= UINT64_C(1) << (out[i] & 63);
    k = 0;
    for (uint32_t wd = lo >> 6; wd <= hi >> 6; wd++) {
        uint64_t b = bits[wd];
        bits[wd] = 0;
        while (b) {
            out[k++] = wd << 6 | (uint32_t)__builtin_ctzll(b);
            b &= b - 1;
        }
    }
    return k;
}

void rs_openloop_free(struct rs_openloop *ol)
{
    rs_free(ol->tmpl_first);
    rs_free(ol->tmpl);
    rs_free(ol->term);
    rs_free(ol->next);
    rs_free(ol->wheel);
    rs_free(ol->wlink);
    rs_free(ol->wbits);
    rs_free(ol->own);
    rs_free(ol->lat_hist);
    rs_pattern_free(&ol->pat);
    for (uint32_t t = 0; ol->tq && t < ol->n_terminals; t++)
        rs_free(ol->tq[t].v);
    rs_free(ol->tq);
    rs_trace_close(ol->tr);
    memset(ol, 0, sizeof *ol);
}

int rs_openloop_init(struct rs_openloop *ol, const struct rs_openloop_cfg *cfg,
                     const struct rs_net *net, const struct rs_problem *pb,
                     const struct rs_params *p, const struct rs_routing_ops *routing,
                     uint64_t seed, struct rs_err *err)
{
    int traffic, rc;
    RS_ASSERT(ol != NULL && cfg != NULL && net != NULL && pb != NULL && routing != NULL);
    RS_ASSERT(pb->n_terminals == net->n_terminals);
    memset(ol, 0, sizeof *ol);
    if ((rc = rs_opt_choice(p, rs_problem_options, "traffic", &traffic, err)))
        return rc;
    if (routing->mid && !routing->mid_openloop) /* ranade: intermediates of ONE problem */
        return rs_err_set(err, RS_EUNSUPPORTED, "routing=%s %s", routing->name,
                          routing->no_openloop);
    ol->cfg = *cfg;
    ol->seed = seed;
    ol->n_terminals = pb->n_terminals;
    ol->uniform = rs_traffics[traffic] == rs_traffic_find("uniform");
    ol->dst_fn = rs_traffics[traffic]->dst_openloop;
    ol->routing = routing;
    ol->net = net;
    ol->pb = pb;
    if ((rc = rs_pattern_open(&ol->pat, net, p, seed, err)))
        return rc;
    if (cfg->trace_file) { /* every terminal in range, then the stream and its first line */
        struct rs_trace_stats st;
        ol->n_terminals = pb->n_terminals;
        if ((rc = rs_trace_scan(cfg->trace_file, pb->n_terminals, &st, err)) ||
            (rc = rs_trace_open(&ol->tr, cfg->trace_file, pb->n_terminals, err)) ||
            (rc = rs_trace_read(ol->tr, &ol->next_rec, err)) < 0) {
            rs_openloop_free(ol);
            return rc;
        }
        ol->have_next = rc == 1;
        ol->tq = rs_calloc((size_t)pb->n_terminals + 1, sizeof *ol->tq);
        if (!ol->tq) {
            rs_openloop_free(ol);
            return rs_err_set(err, RS_ENOMEM, "out of memory for open-loop injection");
        }
    }
    uint32_t n = pb->n_terminals;
    ol->tmpl_first = rs_calloc((size_t)n + 1, sizeof *ol->tmpl_first);
    ol->tmpl = rs_malloc((size_t)pb->n_msgs * sizeof *ol->tmpl + 1);
    ol->term = rs_calloc((size_t)n + 1, sizeof *ol->term);
    ol->next = rs_malloc(((size_t)n + 1) * sizeof *ol->next);
    ol->dyn = cfg->sim_type != RS_SIM_FIXED;
    ol->win_lo = ol->dyn ? UINT32_MAX : cfg->warmup; /* BookSim's: opens when warmed up */
    ol->win_hi = ol->dyn ? UINT32_MAX : cfg->warmup + cfg->measure;
    ol->lat_cap = ol->dyn ? cfg->sample_period * cfg->max_samples + cfg->drain + 1
                          : cfg->measure + cfg->drain + 1;
    ol->lat_hist = rs_calloc(ol->lat_cap, sizeof *ol->lat_hist);
    if (!ol->tmpl_first || !ol->tmpl || !ol->term || !ol->next || !ol->lat_hist) {
        rs_openloop_free(ol);
        return rs_err_set(err, RS_ENOMEM, "out of memory for open-loop injection");
    }
    /* counting sort of the messages by source, message order kept within a source */
    for (uint64_t m = 0; m < pb->n_msgs; m++)
        ol->tmpl_first[rs_problem_src(pb, m) + 1]++;
    for (uint32_t t = 0; t < n; t++)
        ol->tmpl_first[t + 1] += ol->tmpl_first[t];
    for (uint64_t m = 0; m < pb->n_msgs; m++) {
        uint32_t t = rs_problem_src(pb, m);
        ol->tmpl[ol->tmpl_first[t] + ol->term[t].started++] = (uint32_t)m;
    }
    for (uint32_t t = 0; t < n; t++) {
        ol->term[t].started = 0;
        ol->next[t] = UINT32_MAX;
        if (cfg->arrivals != RS_ARRIVALS_PER_STEP && cfg->threshold > 0 &&
            ol->tmpl_first[t + 1] > ol->tmpl_first[t])
            ol->next[t] = next_after(ol, t, 0, 0);
    }
    if (cfg->arrivals != RS_ARRIVALS_PER_STEP && !ol->tq && (rc = calendar_init(ol))) {
        rs_openloop_free(ol);
        return rs_err_set(err, rc, "out of memory for open-loop injection");
    }
    return 0;
}

uint32_t rs_openloop_last_step(const struct rs_openloop *ol)
{
    if (ol->dyn)
        return ol->cfg.sample_period * ol->cfg.max_samples + ol->cfg.drain;
    return ol->cfg.warmup + ol->cfg.measure + ol->cfg.drain;
}

static int has_templates(const struct rs_openloop *ol, uint32_t t)
{
    return ol->tmpl_first[t + 1] > ol->tmpl_first[t];
}

int rs_openloop_arrival(const struct rs_openloop *ol, uint32_t t, uint32_t step)
{
    uint32_t blk[4];
    if (!has_templates(ol, t))
        return 0;
    rs_rng_block(ol->seed, RS_STREAM_OL_ARRIVAL, t, step >> 2, blk);
    return (uint64_t)blk[step & 3] < ol->cfg.threshold;
}

/* packet_sizes: the first size whose threshold is above the draw of (t, gen). */
static uint32_t mixed_length(const struct rs_openloop *ol, uint32_t t, uint32_t gen)
{
    uint32_t blk[4], i = 0;
    rs_rng_block(ol->seed, RS_STREAM_OL_LENGTH, t, gen, blk);
    while (i + 1 < ol->cfg.n_sizes && (uint64_t)blk[0] >= ol->cfg.size_upto[i])
        i++;
    return ol->cfg.size[i];
}

/* Length of the packet generated by t at gen. */
static inline uint32_t packet_length(const struct rs_openloop *ol, uint32_t t, uint32_t gen)
{
    uint32_t span = ol->cfg.len_max - ol->cfg.len_min;
    if (!span) /* one length (also packet_sizes with a single size) */
        return ol->cfg.len_min;
    if (ol->cfg.n_sizes)
        return mixed_length(ol, t, gen);
    return ol->cfg.len_min + rs_rand_below(ol->seed, RS_STREAM_OL_LENGTH, t, gen, span + 1);
}

static int in_window(const struct rs_openloop *ol, uint32_t step)
{
    return step > ol->win_lo && step <= ol->win_hi;
}

/* Count a packet of len flits generated at step in the statistics. */
static void count_generated(struct rs_openloop *ol, uint32_t step, uint32_t len)
{
    if (in_window(ol, step)) {
        ol->win_packets++;
        ol->win_flits += len;
    }
    if (ol->dyn) { /* BookSim's in-flight flits, for its latency estimate */
        ol->infl_flits += len;
        ol->infl_gen_sum += (double)len * (double)step;
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* traffic=trace: the lines of cycle step join their sources' FIFOs. The file was
 * validated whole by rs_openloop_init; a read error now (the file changed) ends the trace. */
static uint32_t generate_trace(struct rs_openloop *ol, uint32_t step, uint32_t *became_pending)
{
    uint32_t n_new = 0;
    struct rs_err err;
    while (ol->have_next && ol->next_rec.cycle <= step) {
        struct rs_trace_rec r = ol->next_rec;
        r.cycle = step; /* its generation step (the driver visits every step) */
        struct rs_ol_trace_fifo *q = &ol->tq[r.src];
        if (q->count == q->cap) { /* grow the ring, unrolled to start at 0 */
            uint32_t cap = q->cap ? 2 * q->cap : 4;
            struct rs_trace_rec *v = rs_malloc((size_t)cap * sizeof *v);
            RS_ASSERT(v != NULL); /* generate has no error channel: out of memory aborts */
            for (uint32_t i = 0; i < q->count; i++)
                v[i] = q->v[(q->head + i) % q->cap];
            rs_free(q->v);
            q->v = v;
            q->head = 0;
            q->cap = cap;
        }
        q->v[(q->head + q->count++) % q->cap] = r;
        count_generated(ol, step, r.size);
        struct rs_ol_terminal *s = &ol->term[r.src];
        if (s->pending++ == 0) {
            s->front = step;
            became_pending[n_new++] = r.src;
        }
        ol->have_next = rs_trace_read(ol->tr, &ol->next_rec, &err) == 1;
    }
    qsort(became_pending, n_new, sizeof *became_pending, cmp_u32);
    return n_new;
}

uint32_t rs_openloop_generate(struct rs_openloop *ol, uint32_t step, uint32_t *became_pending)
{
    RS_DASSERT(step >= 1 && step <= rs_openloop_last_step(ol));
    uint32_t n_new = 0, b = (step >> 2) + 1;
    int win = in_window(ol, step);
    if (ol->tq)
        return generate_trace(ol, step, became_pending);
    if (ol->cfg.threshold == 0)
        return 0;
    int per_packet = ol->cfg.arrivals != RS_ARRIVALS_PER_STEP;
    const uint32_t *own = ol->own;
    uint32_t n_due = per_packet ? calendar_due(ol, step, became_pending)
                     : own      ? ol->n_own
                                : ol->n_terminals;
    for (uint32_t i = 0; i < n_due; i++) { /* (became_pending: n_new <= i, written behind) */
        uint32_t t = per_packet ? became_pending[i] : own ? own[i] : i;
        struct rs_ol_terminal *s = &ol->term[t];
        if (per_packet) {
            if (s->pending == 0 && ol->uniform && ol->cfg.arrivals == RS_ARRIVALS_PER_PACKET &&
                ol->cfg.log_q != 0.0) {
                /* this packet becomes the front: its destination's block (t, step) beside the
                   next gap's, kept for rs_openloop_front */
                uint32_t gb[4], db[4];
                rs_rng_block2(ol->seed, RS_STREAM_OL_GAP, t, ++s->born, gb, RS_STREAM_OL_DEST,
                              t, step, db);
                ol->next[t] = gap_of_block(ol, gb, step);
                s->dst_word = db[0];
                s->dst_at = step;
            } else {
                ol->next[t] = next_after(ol, t, ++s->born, step);
            }
            calendar_put(ol, t);
        } else {
            if (s->blk_step != b) { /* one Philox block serves four consecutive steps */
                if (!has_templates(ol, t))
                    continue;
                rs_rng_block(ol->seed, RS_STREAM_OL_ARRIVAL, t, step >> 2, s->blk);
                s->blk_step = b;
            }
            if ((uint64_t)s->blk[step & 3] >= ol->cfg.threshold)
                continue;
        }
        if (win || ol->dyn) {
            uint32_t len = packet_length(ol, t, step);
            if (win) {
                ol->win_packets++;
                ol->win_flits += len;
            }
            if (ol->dyn) { /* BookSim's in-flight flits, for its latency estimate */
                ol->infl_flits += len;
                ol->infl_gen_sum += (double)len * (double)step;
            }
        }
        if (s->pending++ == 0) {
            s->front = step;
            became_pending[n_new++] = t;
        }
    }
    return n_new;
}

int rs_openloop_restrict(struct rs_openloop *ol, const uint32_t *own, uint32_t n)
{
    if (ol->tq || ol->own)
        return 0;
    ol->own = rs_malloc((size_t)n * sizeof *ol->own + 1);
    if (!ol->own)
        return -1;
    memcpy(ol->own, own, (size_t)n * sizeof *own);
    ol->n_own = n;
    if (ol->wheel) { /* the calendar keeps only these terminals */
        memset(ol->wheel, 0xff, (size_t)(ol->wheel_mask + 1) * sizeof *ol->wheel);
        for (uint32_t i = n; i-- > 0;) /* each slot's list in increasing terminal order */
            calendar_put(ol, own[i]);
    }
    return 1;
}

void rs_openloop_gen_counts(const struct rs_openloop *ol, uint64_t v[4])
{
    v[0] = ol->win_packets;
    v[1] = ol->win_flits;
    v[2] = ol->infl_flits;
    v[3] = (uint64_t)ol->infl_gen_sum;
}

void rs_openloop_set_gen_counts(struct rs_openloop *ol, const uint64_t v[4])
{
    ol->win_packets = v[0];
    ol->win_flits = v[1];
    ol->infl_flits = v[2];
    ol->infl_gen_sum = (double)v[3];
}

/* traffic=uniform: the destination of terminal t's front packet, rs_rand_below(seed,
 * RS_STREAM_OL_DEST, t, front, n) from the first word kept by rs_openloop_generate when it
 * is there and needs no second draw (the same value). */
static inline uint32_t uniform_dst(const struct rs_openloop *ol, const struct rs_ol_terminal *s,
                                   uint32_t t)
{
    uint32_t n = ol->n_terminals;
    if (s->dst_at == s->front && s->dst_at) {
        uint64_t m = (uint64_t)s->dst_word * n; /* Lemire's first draw (rs_rng_below) */
        if ((uint32_t)m >= n)
            return (uint32_t)(m >> 32);
    }
    return rs_rand_below(ol->seed, RS_STREAM_OL_DEST, t, s->front, n);
}

void rs_openloop_front(const struct rs_openloop *ol, uint32_t t, struct rs_ol_packet *pkt)
{
    RS_DASSERT(t < ol->n_terminals && ol->term[t].pending > 0);
    const struct rs_ol_terminal *s = &ol->term[t];
    uint32_t first = ol->tmpl_first[t], count = ol->tmpl_first[t + 1] - first;
    uint32_t msg = ol->tmpl[first + (count == 1 ? 0 : s->started % count)]; /* (no division
                                                                                for one) */
    pkt->src = t;
    pkt->gen = s->front;
    pkt->msg = msg;
    pkt->dst = ol->uniform ? uniform_dst(ol, s, t)
               : ol->pat.n_parts
                   ? rs_pattern_dst(&ol->pat, ol->net, ol->seed, RS_STREAM_OL_DEST, t, s->front, t)
               : ol->dst_fn ? ol->dst_fn(ol->net, ol->seed, t, s->front)
                            : ol->pb->dst[msg];
    pkt->length = packet_length(ol, t, s->front);
    if (ol->tq) { /* traffic=trace: the packet at the head of t's FIFO */
        const struct rs_ol_trace_fifo *q = &ol->tq[t];
        pkt->dst = q->v[q->head].dst;
        pkt->length = q->v[q->head].size;
    }
    pkt->mid = ol->routing->mid_openloop /* after dst: ROMM's depends on it */
                   ? ol->routing->mid_openloop(ol->net, ol->seed, t, pkt->dst, s->front)
                   : RS_NONE;
}

void rs_openloop_start(struct rs_openloop *ol, uint32_t t)
{
    RS_DASSERT(t < ol->n_terminals && ol->term[t].pending > 0);
    struct rs_ol_terminal *s = &ol->term[t];
    s->started++;
    if (ol->tq) { /* traffic=trace: pop the head; the next one (if any) is the front */
        struct rs_ol_trace_fifo *q = &ol->tq[t];
        q->head = (q->head + 1) % q->cap;
        q->count--;
        if (--s->pending)
            s->front = q->v[q->head].cycle;
        return;
    }
    if (--s->pending == 0)
        return;
    if (ol->cfg.arrivals != RS_ARRIVALS_PER_STEP) { /* packet `started` is the front */
        s->front = next_after(ol, t, s->started, s->front);
        return;
    }
    uint32_t g = s->front + 1; /* the next arrival is at most the last generated step */
    while (!rs_openloop_arrival(ol, t, g))
        g++;
    s->front = g;
}

void rs_openloop_finish(struct rs_openloop *ol, uint32_t gen, uint32_t length, uint32_t step,
                        int delivered)
{
    if (delivered)
        ol->delivered++;
    else
        ol->dropped++;
    if (!delivered && in_window(ol, step)) /* left the network, as a delivery does */
        ol->win_dropped += length;
    if (ol->dyn) {
        ol->infl_flits -= length;
        ol->infl_gen_sum -= (double)length * (double)gen;
        if (delivered && (ol->state == 0 || in_window(ol, gen))) { /* BookSim's plat */
            ol->per_lat_sum += (double)(step - gen);
            ol->per_lat_n++;
        }
    }
    if (!in_window(ol, gen))
        return;
    if (!delivered) {
        ol->meas_dropped++;
        return;
    }
    ol->meas_delivered++;
    uint32_t lat = step - gen; /* < measure + drain: gen is in the window, step <= last */
    RS_DASSERT(step >= gen);
    uint32_t at = lat < ol->lat_cap ? lat : ol->lat_cap - 1;
    ol->lat_hist[at]++;
    if (at >= ol->lat_top)
        ol->lat_top = at + 1;
}

void rs_openloop_accept(struct rs_openloop *ol, uint32_t step, uint64_t flits)
{
    ol->now = step;
    if (in_window(ol, step))
        ol->win_accepted += flits;
    ol->per_acc += flits;
}

static int measured_all(const struct rs_openloop *ol)
{
    return ol->meas_delivered + ol->meas_dropped == ol->win_packets;
}

/* BookSim's mean latency with the flits in flight counted at their age so far. */
static double latency_estimate(const struct rs_openloop *ol, uint32_t step)
{
    double n = (double)ol->per_lat_n + (double)ol->infl_flits;
    return (ol->per_lat_sum + (double)ol->infl_flits * step - ol->infl_gen_sum) / n;
}

/* The end of a sample period at step (BookSim's _SingleSim loop body): the statistics since
 * the last clear against the previous period's, the warm-up and convergence tests, the
 * latency threshold. Moves the state on; the next period's clear is done here too. */
static void end_period(struct rs_openloop *ol, uint32_t step)
{
    const struct rs_openloop_cfg *c = &ol->cfg;
    int lat_mode = c->sim_type == RS_SIM_LATENCY, warming = ol->state == 0;
    double lat = ol->per_lat_sum / (double)ol->per_lat_n; /* NaN when empty, as BookSim's */
    double acc = (double)ol->per_acc / (double)(step - ol->reset_time) / ol->n_terminals;
    double lat_chg = fabs((lat - ol->prev_lat) / lat), acc_chg = fabs((acc - ol->prev_acc) / acc);
    ol->prev_lat = lat;
    ol->prev_acc = acc;
    double lthr = warming ? c->warmup_thres : c->stopping_thres;
    double athr = warming ? c->acc_warmup_thres : c->acc_stopping_thres;
    int lat_exc = lthr >= 0 && lat_chg > lthr, acc_exc = athr >= 0 && acc_chg > athr;
    if (lat_mode && c->latency_thres >= 0 && latency_estimate(ol, step) > c->latency_thres) {
        ol->unstable = 1; /* BookSim aborts: the latency ran away */
        ol->ended_by = "latency_thres";
        ol->state = 3;
        if (ol->win_hi == UINT32_MAX)
            ol->win_hi = step;
        return;
    }
    int quiet = (!lat_mode || !lat_exc) && !acc_exc;
    if (warming) {
        if (c->warmup_periods > 0 ? ol->phases + 1 >= c->warmup_periods : quiet) {
            ol->clear_next = 1;
            ol->state = 1;
            ol->win_lo = step; /* packets generated from now on are measured */
        }
    } else {
        ol->converged = quiet ? ol->converged + 1 : 0;
    }
    ol->phases++;
    if (ol->phases < c->max_samples && (ol->state != 1 || ol->converged < 3)) {
        if (ol->clear_next || (ol->state == 0 && ol->phases % 2 == 0)) {
            ol->clear_next = 0;
            ol->per_lat_sum = 0;
            ol->per_lat_n = ol->per_acc = 0;
            ol->reset_time = step;
        }
        return;
    }
    if (ol->state != 1) { /* still warming up after max_samples periods */
        ol->unstable = 1;
        ol->ended_by = "max_samples";
        ol->state = 3;
        return;
    }
    ol->ended_by = ol->converged >= 3 ? "converged" : "max_samples";
    ol->win_hi = step; /* BookSim's drain time */
    ol->drain_start = step;
    ol->state = lat_mode ? 2 : 3; /* latency: drain the measured packets */
}

static int done_dynamic(struct rs_openloop *ol, uint32_t step)
{
    if (ol->state < 2 && step % ol->cfg.sample_period == 0)
        end_period(ol, step);
    if (ol->state == 2 && measured_all(ol))
        ol->state = 3;
    if (ol->state == 2 && (step - ol->drain_start) % 1000 == 0 && ol->cfg.latency_thres >= 0 &&
        latency_estimate(ol, step) > ol->cfg.latency_thres) {
        ol->unstable = 1;
        ol->ended_by = "latency_thres";
        ol->state = 3;
    }
    if (ol->state != 3 && step >= rs_openloop_last_step(ol)) {
        ol->ended_by = "drain_limit";
        if (ol->win_hi == UINT32_MAX)
            ol->win_hi = step;
        return 1;
    }
    return ol->state == 3;
}

int rs_openloop_done(struct rs_openloop *ol, uint32_t step)
{
    if (ol->dyn)
        return done_dynamic(ol, step);
    int over = step >= ol->cfg.warmup + ol->cfg.measure && measured_all(ol);
    if (over || step >= rs_openloop_last_step(ol)) {
        ol->ended_by = over ? "window" : "drain_limit";
        return 1;
    }
    return 0;
}

void rs_openloop_stop(struct rs_openloop *ol)
{
    ol->stopped = 1;
    ol->ended_by = "deadlock";
    if (ol->dyn && ol->win_lo != UINT32_MAX && ol->win_hi == UINT32_MAX)
        ol->win_hi = ol->now;
}

int rs_openloop_saturated(const struct rs_openloop *ol)
{
    if (ol->stopped)
        return 1;
    if (ol->dyn) {
        if (ol->unstable || ol->win_lo == UINT32_MAX || ol->win_hi <= ol->win_lo)
            return 1;
        if (ol->cfg.sim_type == RS_SIM_LATENCY && !measured_all(ol))
            return 1; /* and the throughput test below, which BookSim does not make */
        /* a latency run whose sample periods converged and whose measured packets all
         * arrived is not saturated (BookSim's own judgement): the throughput test would
         * judge a backlog from the flits in flight at the two ends of a window sized by
         * convergence, not by the margin (at 0.01 flits/node/cycle on an 8x8 mesh, about
         * 22 flits in flight against a 1% margin of about 33) */
        if (ol->cfg.sim_type == RS_SIM_LATENCY && ol->ended_by &&
            !strcmp(ol->ended_by, "converged"))
            return 0;
    } else if (ol->meas_delivered + ol->meas_dropped < ol->win_packets) {
        return 1; /* (throughput runs do not wait for the measured packets) */
    }
    /* the backlog grew when fewer flits left the network (delivered or dropped) than
     * entered it during the window */
    return (double)(ol->win_accepted + ol->win_dropped) <
           (1.0 - ol->cfg.margin) * (double)ol->win_flits;
}

void rs_openloop_result(const struct rs_openloop *ol, struct rs_result *r)
{
    int open = ol->win_lo != UINT32_MAX && ol->win_hi != UINT32_MAX && ol->win_hi > ol->win_lo;
    double cells = open ? (double)ol->n_terminals * (double)(ol->win_hi - ol->win_lo) : NAN;
    int sat = rs_openloop_saturated(ol);
    r->latency_mean = r->latency_p99 = r->latency_max = NAN;
    if (!sat)
        rs_hist_summary(ol->lat_hist, ol->lat_top, r); /* (zero beyond: the same summary) */
    r->offered = (double)ol->win_flits / cells;
    r->accepted = (double)ol->win_accepted / cells;
    r->measured_packets = (int64_t)ol->win_packets;
    r->measured_delivered = (int64_t)ol->meas_delivered;
    r->saturated = sat;
    r->delivered = (int64_t)ol->delivered;
    r->dropped = (int64_t)ol->dropped;
    r->ended_by = ol->ended_by ? ol->ended_by : (ol->stopped ? "deadlock" : "");
}

int rs_openloop_record(const struct rs_openloop *ol, struct rs_record *out)
{
    static const enum rs_metric cols[] = {RS_OPENLOOP_COLUMNS};
    struct rs_result r;
    rs_result_init(&r);
    rs_openloop_result(ol, &r);
    return rs_result_record(&r, cols, sizeof cols / sizeof *cols, out);
}
