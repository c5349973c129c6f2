/* The sampled destination patterns (include/routesim/pattern.h): parsing the hotspot and
 * mix keys into a sampler, and one destination per message or open-loop packet. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/pattern.h"
#include "routesim/problem.h"
#include "routesim/rng.h"

static const struct rs_optdef hotspot_options[] = {RS_HOTSPOT_OPTIONS,
                                                   {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};
static const struct rs_optdef mix_key[] = {
    {"mix", RS_OPT_STRING, NULL, 0, 0, NULL, "", "-"}, {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

void rs_pattern_free(struct rs_pattern *pt)
{
    for (uint32_t i = 0; i < RS_PATTERN_MAX_PARTS; i++)
        rs_free(pt->part[i].table);
    memset(pt, 0, sizeof *pt);
}

/* Cumulative thresholds upto[i] = round(2^32 * (w[0] + .. + w[i]) / total), the last
 * exactly 2^32, so that a 32-bit draw below upto[i] and not below upto[i-1] picks i. */
static void cumulate(const double *w, uint32_t n, uint64_t *upto, size_t stride)
{
    double total = 0, run = 0;
    for (uint32_t i = 0; i < n; i++)
        total += w[i];
    for (uint32_t i = 0; i < n; i++) {
        run += w[i];
        uint64_t *u = (uint64_t *)((char *)upto + i * stride);
        *u = i + 1 == n ? UINT64_C(1) << 32 : (uint64_t)llround(ldexp(run / total, 32));
    }
}

int rs_pattern_int_list(const char *text, const char *key, long long lo, long long hi,
                    uint32_t cap, uint32_t *v, uint32_t *n, struct rs_err *err)
{
    const char *c = text;
    *n = 0;
    for (;;) {
        char *end;
        errno = 0;
        long long x = strtoll(c, &end, 10);
        if (end == c || (*end != ',' && *end != '\0'))
            return rs_err_set(err, RS_EPARSE, "%s=%s: item %u is not an integer", key, text,
                              *n + 1);
        if (errno == ERANGE || x < lo || x > hi)
            return rs_err_set(err, RS_ECONSTRAINT, "%s=%s: item %u (%lld) is out of range %lld..%lld",
                              key, text, *n + 1, x, lo, hi);
        if (*n == cap)
            return rs_err_set(err, RS_ECONSTRAINT, "%s=%s: more than %u items", key, text, cap);
        v[(*n)++] = (uint32_t)x;
        if (*end == '\0')
            return 0;
        c = end + 1;
    }
}

/* hotspot_nodes, hotspot_rates and hotspot_fraction into pt. */
static int hotspot_open(struct rs_pattern *pt, const struct rs_params *p, struct rs_err *err)
{
    const char *nodes, *rates = NULL;
    double frac, w[RS_PATTERN_MAX_HOT];
    uint32_t r[RS_PATTERN_MAX_HOT], nr = 0;
    int rc;
    if ((rc = rs_opt_string(p, hotspot_options, "hotspot_nodes", &nodes, err)) ||
        (rc = rs_opt_double(p, hotspot_options, "hotspot_fraction", &frac, err)) ||
        (rc = rs_pattern_int_list(nodes, "hotspot_nodes", 0, (long long)pt->n - 1, RS_PATTERN_MAX_HOT,
                       pt->hot, &pt->n_hot, err)))
        return rc;
    if (rs_params_find(p, "hotspot_rates") &&
        ((rc = rs_opt_string(p, hotspot_options, "hotspot_rates", &rates, err)) ||
         (rc = rs_pattern_int_list(rates, "hotspot_rates", 1, 1000000000, RS_PATTERN_MAX_HOT, r, &nr,
                        err))))
        return rc;
    if (nr > pt->n_hot)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "hotspot_rates=%s has %u rates for %u hotspot_nodes", rates, nr,
                          pt->n_hot);
    for (uint32_t i = 0; i < pt->n_hot; i++) /* BookSim: the last rate repeats */
        w[i] = nr == 0 ? 1.0 : (double)r[i < nr ? i : nr - 1];
    cumulate(w, pt->n_hot, pt->hot_upto, sizeof *pt->hot_upto);
    pt->hot_frac = (uint64_t)llround(ldexp(frac, 32));
    return 0;
}

/* The part for traffic ops. */
static int part_open(struct rs_pattern *pt, struct rs_pattern_part *part,
                     const struct rs_traffic_ops *ops, const struct rs_net *net,
                     const struct rs_params *p, uint64_t seed, struct rs_err *err)
{
    const char *name = ops->name;
    if (!strcmp(name, "uniform")) {
        part->kind = RS_PAT_UNIFORM;
    } else if (!strcmp(name, "hotspot")) {
        part->kind = RS_PAT_HOTSPOT;
        if (!pt->n_hot)
            return hotspot_open(pt, p, err);
    } else if (!strcmp(name, "diagonal")) {
        part->kind = RS_PAT_DIAGONAL;
    } else if (!strcmp(name, "asymmetric")) {
        part->kind = RS_PAT_ASYMMETRIC;
        if (pt->n < 2)
            return rs_err_set(err, RS_ECONSTRAINT, "traffic asymmetric needs N >= 2 (got %u)",
                              pt->n);
    } else if (ops->dst_openloop) {
        part->kind = RS_PAT_FN;
        part->fn = ops->dst_openloop;
        /* its generate checks that the network suits it */
        uint32_t *probe = rs_malloc((size_t)pt->n * sizeof *probe);
        if (!probe)
            return rs_err_set(err, RS_ENOMEM, "mix: out of memory for N=%u", pt->n);
        int rc = ops->generate(net, p, seed, 1, probe, err);
        rs_free(probe);
        return rc;
    } else if (ops->generate && !ops->build && strcmp(name, "mix") != 0) {
        part->kind = RS_PAT_TABLE;
        part->table = rs_malloc((size_t)pt->n * sizeof *part->table);
        if (!part->table)
            return rs_err_set(err, RS_ENOMEM, "mix: out of memory for N=%u", pt->n);
        return ops->generate(net, p, seed, 1, part->table, err);
    } else {
        return rs_err_set(err, RS_EUNSUPPORTED, "mix: traffic %s cannot be a part of a mix",
                          name);
    }
    return 0;
}

/* mix=NAME@WEIGHT,NAME@WEIGHT,... */
static int mix_open(struct rs_pattern *pt, const struct rs_net *net, const struct rs_params *p,
                    uint64_t seed, struct rs_err *err)
{
    const char *text;
    double w[RS_PATTERN_MAX_PARTS];
    char name[64];
    int rc;
    if (!rs_params_find(p, "mix"))
        return rs_err_set(err, RS_EPARSE,
                          "traffic=mix needs mix=NAME@WEIGHT,... (e.g. uniform@0.8,hotspot@0.2)");
    if ((rc = rs_opt_string(p, mix_key, "mix", &text, err)))
        return rc;
    for (const char *c = text;;) {
        const char *at = strchr(c, '@'), *comma = strchr(c, ',');
        if (!comma)
            comma = c + strlen(c);
        if (!at || at > comma || at == c || (size_t)(at - c) >= sizeof name)
            return rs_err_set(err, RS_EPARSE, "mix=%s: part %u is not NAME@WEIGHT", text,
                              pt->n_parts + 1);
        memcpy(name, c, (size_t)(at - c));
        name[at - c] = '\0';
        char *end;
        double x = strtod(at + 1, &end);
        if (end != comma || !(x > 0) || !isfinite(x))
            return rs_err_set(err, RS_ECONSTRAINT,
                              "mix=%s: the weight of part %u (%s) must be a positive number",
                              text, pt->n_parts + 1, name);
        const struct rs_traffic_ops *ops = rs_traffic_find(name);
        if (!ops)
            return rs_err_set(err, RS_EPARSE, "mix=%s: part %u: unknown traffic '%s'", text,
                              pt->n_parts + 1, name);
        if (pt->n_parts == RS_PATTERN_MAX_PARTS)
            return rs_err_set(err, RS_ECONSTRAINT, "mix=%s: more than %d parts", text,
                              RS_PATTERN_MAX_PARTS);
        w[pt->n_parts] = x;
        if ((rc = part_open(pt, &pt->part[pt->n_parts++], ops, net, p, seed, err)))
            return rc;
        if (*comma == '\0')
            break;
        c = comma + 1;
    }
    cumulate(w, pt->n_parts, &pt->part[0].upto, sizeof pt->part[0]);
    return 0;
}

int rs_pattern_open(struct rs_pattern *pt, const struct rs_net *net, const struct rs_params *p,
                    uint64_t seed, struct rs_err *err)
{
    int idx, rc;
    memset(pt, 0, sizeof *pt);
    if ((rc = rs_opt_choice(p, rs_problem_options, "traffic", &idx, err)))
        return rc;
    const struct rs_traffic_ops *ops = rs_traffics[idx];
    const char *name = ops->name;
    pt->n = net->n_terminals;
    if (!strcmp(name, "mix")) {
        rc = mix_open(pt, net, p, seed, err);
    } else if (!strcmp(name, "hotspot") || !strcmp(name, "diagonal") ||
               !strcmp(name, "asymmetric")) {
        pt->n_parts = 1;
        pt->part[0].upto = UINT64_C(1) << 32;
        rc = part_open(pt, &pt->part[0], ops, net, p, seed, err);
    }
    if (rc)
        rs_pattern_free(pt);
    return rc;
}

/* The first i < n whose threshold (at stride bytes apart) is above draw. */
static uint32_t pick(const uint64_t *upto, uint32_t n, size_t stride, uint32_t draw)
{
    uint32_t i = 0;
    while (i + 1 < n && (uint64_t)draw >= *(const uint64_t *)((const char *)upto + i * stride))
        i++;
    return i;
}

uint32_t rs_pattern_dst(const struct rs_pattern *pt, const struct rs_net *net, uint64_t seed,
                        uint32_t uni_stream, uint64_t entity, uint32_t step, uint32_t src)
{
    uint32_t blk[4], n = pt->n;
    rs_rng_block(seed, RS_STREAM_PATTERN, entity, step, blk);
    const struct rs_pattern_part *part =
        &pt->part[pick(&pt->part[0].upto, pt->n_parts, sizeof pt->part[0], blk[0])];
    switch (part->kind) {
    case RS_PAT_HOTSPOT:
        if ((uint64_t)blk[1] < pt->hot_frac)
            return pt->hot[pick(pt->hot_upto, pt->n_hot, sizeof *pt->hot_upto, blk[2])];
        return rs_rand_below(seed, uni_stream, entity, step, n);
    case RS_PAT_DIAGONAL: /* BookSim's RandomInt(2) == 0: one chance in three */
        return ((uint64_t)blk[1] * 3) >> 32 == 0 ? (src + 1) % n : src;
    case RS_PAT_ASYMMETRIC:
        return src % (n / 2) + (blk[1] >> 31 ? n / 2 : 0);
    case RS_PAT_TABLE:
        return part->table[src];
    case RS_PAT_FN:
        return part->fn(net, seed, src, step);
    case RS_PAT_UNIFORM:
        break;
    }
    return rs_rand_below(seed, uni_stream, entity, step, n);
}
