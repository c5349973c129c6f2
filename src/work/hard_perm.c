/* traffic=hard_permutation (004 §3, Theorem 3.1): the permutation a deterministic
 * nonpredictive protocol routes slowly on a butterfly with queue threshold q, built by
 * playing the proof's adversary against the run's protocol (hard_sim.c), and the proof's
 * bound beside the run's makespan. The rules and decisions: docs/workloads.md. */
#include <string.h>

#include "routesim/engine.h"
#include "routesim/hard_perm.h"
#include "routesim/saf_options.h"
#include "routesim/metrics.h"
#include "routesim/problem.h"
#include "routesim/record.h"

/* The store-and-forward protocols and whether Theorem 3.1's construction applies to each:
 * why is NULL for the deterministic nonpredictive ones. */
struct proto_kind {
    const char *name;
    enum rs_hard_proto proto;
    const char *why;
};

static const struct proto_kind proto_kinds[] = {
    {"fifo", RS_HARD_FIFO, NULL},
    {"priority", RS_HARD_PRIORITY, NULL},
    /* it looks at the hops a packet has left, but on the butterfly every packet at a level
     * has log2 N - level hops left: its choice never depends on a destination */
    {"furthest_first", RS_HARD_FURTHEST_FIRST, NULL},
    {"random", RS_HARD_FIFO,
     "it is randomized: Theorem 3.1's adversary fixes each destination after the choice of a "
     "deterministic protocol, which it can compute in advance; a randomized protocol's "
     "choices are not known to it, so no fixed permutation is forced to be slow (route the "
     "permutation built for a deterministic one with hard_protocol=fifo protocol=random)"},
    {"rank", RS_HARD_FIFO,
     "every packet draws its rank at random (004 §5), so the protocol is randomized: "
     "Theorem 3.1's adversary fixes each destination after the choice of a deterministic "
     "protocol, which it can compute in advance (route the permutation built for a "
     "deterministic one with hard_protocol=fifo protocol=rank)"},
};

static const char *const hard_protocols[] = {"run", "fifo", "random", "priority",
                                             "furthest_first", "rank", NULL};

static const struct rs_optdef hard_options[] = {
    {"hard_protocol", RS_OPT_CHOICE, "run", 0, 0, hard_protocols,
     "protocol the permutation is built against (run: the run's protocol); the run may then "
     "route it with another", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL},
};

/* The smallest n >= from for which some r = 2^k is valid for threshold q (0 if none up to
 * 31). Not every larger n is valid (q = 2: n = 6 is, 7 is not). */
static uint32_t smallest_n(uint32_t q, uint32_t from)
{
    struct rs_hard_params hp;
    for (uint32_t n = from; n <= 31; n++)
        if (rs_hard_choose(n, q, &hp, NULL) == 0)
            return n;
    return 0;
}

int rs_hard_choose(uint32_t n, uint32_t q, struct rs_hard_params *hp, struct rs_err *err)
{
    memset(hp, 0, sizeof *hp);
    uint64_t q2 = (uint64_t)q + 2;
    for (uint32_t k = 1; 2 * k <= n && k < 32; k++) {
        uint64_t r = (uint64_t)1 << k, d = n - 2 * k;
        if (r <= q2 * (d + 1))
            continue;
        uint64_t bound = ((uint64_t)1 << d) * (r - q2 * (d + 1));
        if (bound > hp->bound) {
            hp->k = k;
            hp->r = (uint32_t)r;
            hp->d = (uint32_t)d;
            hp->bound = bound;
        }
    }
    if (hp->r == 0) {
        if (!err)
            return RS_ECONSTRAINT;
        uint32_t m = q < (1u << 14) ? smallest_n(q, 2) : 0, up = m ? smallest_n(q, n) : 0;
        if (m && up)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "traffic=hard_permutation: N=2^%u admits no r = 2^k with r^2 <= "
                              "N and r > (q+2)(d+1), d = log2 N - 2k (004 Theorem 3.1) for "
                              "queue_threshold=%u; the smallest N for it is 2^%u = %u (above "
                              "N=2^%u: 2^%u)",
                              n, q, m, 1u << m, n, up);
        if (m)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "traffic=hard_permutation: N=2^%u admits no r = 2^k with r^2 <= "
                              "N and r > (q+2)(d+1), d = log2 N - 2k (004 Theorem 3.1) for "
                              "queue_threshold=%u; the smallest N for it is 2^%u = %u (none "
                              "above N=2^%u up to 2^31)",
                              n, q, m, 1u << m, n);
        return rs_err_set(err, RS_ECONSTRAINT,
                          "traffic=hard_permutation: no N up to 2^31 admits a valid r for "
                          "queue_threshold=%u (004 Theorem 3.1)",
                          q);
    }
    hp->n = n;
    hp->q = q;
    hp->asymptotic = (double)((uint64_t)1 << n) / (4.0 * (double)q2 * (double)(n + 1));
    return 0;
}

/* Read and check the run's model (butterfly, store-and-forward, queue_at=switch,
 * queue_threshold=q, on_full=block, per_input=1): *hp for it. */
static int read_model(const struct rs_net *net, const struct rs_params *p, uint32_t per_input,
                      struct rs_hard_params *hp, struct rs_err *err)
{
    const struct rs_param *sw = rs_params_find(p, "switching");
    struct rs_saf_options o;
    int rc;
    if (!(net->caps & RS_CAP_BUTTERFLY))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "traffic=hard_permutation needs topology=butterfly (004 §3), got "
                          "topology=%s",
                          net->name);
    if (per_input != 1)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "traffic=hard_permutation is a permutation: per_input must be 1 "
                          "(got %u)",
                          per_input);
    if (sw && strcmp(sw->value, "store_forward") != 0)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "traffic=hard_permutation is built for switching=store_forward "
                          "(004 §3's queues), got switching=%s",
                          sw ? sw->value : "?");
    if (!rs_params_find(p, "queue_threshold"))
        return rs_err_set(err, RS_EINVAL,
                          "traffic=hard_permutation needs queue_threshold=q and "
                          "queue_at=switch: Theorem 3.1's adversary and bound are for one "
                          "queue per switch with a queue threshold (004 §3)");
    if ((rc = rs_saf_options_read(p, &o, err)))
        return rc;
    if (o.at != RS_SAF_AT_SWITCH)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "traffic=hard_permutation needs queue_at=switch (004 §3: one queue "
                          "per switch), got queue_at=%s",
                          o.at == RS_SAF_AT_INPUT ? "input" : "output");
    if (o.on_full != RS_SAF_BLOCK)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "traffic=hard_permutation needs on_full=block (004 §3 drops nothing)");
    return rs_hard_choose(net->log2n, (uint32_t)o.queue_threshold, hp, err);
}

/* The protocol the permutation is built against: hard_protocol, or the run's protocol. */
static int read_proto(const struct rs_params *p, enum rs_hard_proto *proto, struct rs_err *err)
{
    int i, rc;
    const char *name;
    if ((rc = rs_opt_choice(p, hard_options, "hard_protocol", &i, err)))
        return rc;
    name = hard_protocols[i];
    if (strcmp(name, "run") == 0) { /* the run's protocol, from the engine's typed keys */
        struct rs_saf_options o;
        if ((rc = rs_saf_options_read(p, &o, err)))
            return rc;
        name = rs_saf_protocol_names[o.proto];
    }
    for (size_t j = 0; j < sizeof proto_kinds / sizeof *proto_kinds; j++) {
        if (strcmp(proto_kinds[j].name, name) != 0)
            continue;
        if (proto_kinds[j].why)
            return rs_err_set(err, RS_EUNSUPPORTED,
                              "traffic=hard_permutation cannot be built against "
                              "protocol=%s: %s",
                              name, proto_kinds[j].why);
        *proto = proto_kinds[j].proto;
        return 0;
    }
    return rs_err_set(err, RS_EUNSUPPORTED,
                      "traffic=hard_permutation does not know whether protocol=%s is "
                      "deterministic and nonpredictive",
                      name);
}

static int hard_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                         uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    struct rs_hard_params hp;
    enum rs_hard_proto proto = RS_HARD_FIFO;
    int rc;
    (void)seed; /* deterministic: no random choice */
    if ((rc = read_model(net, p, per_input, &hp, err)) || (rc = read_proto(p, &proto, err)))
        return rc;
    return rs_hard_build(&hp, proto, dst, NULL, err);
}

/* The proof's parameters and bounds beside the run's makespan. */
static int hard_metrics(const struct rs_net *net, const struct rs_params *p,
                        struct rs_record *out, struct rs_err *err)
{
    struct rs_hard_params hp;
    int rc = read_model(net, p, 1, &hp, err);
    if (rc)
        return rc;
    const struct rs_field *mk = rs_record_get(out, rs_metric_defs[RS_M_MAKESPAN].name);
    int e = rs_metric_int(out, RS_M_BOUND_HARD, (int64_t)hp.bound);
    e |= rs_metric_double(out, RS_M_BOUND_HARD_ASYMPTOTIC, hp.asymptotic);
    if (mk)
        e |= rs_metric_double(out, RS_M_MAKESPAN_OVER_BOUND_HARD,
                              (double)mk->i / (double)hp.bound);
    e |= rs_metric_int(out, RS_M_HARD_R, hp.r);
    e |= rs_metric_int(out, RS_M_HARD_DEPTH, hp.d);
    return e ? rs_err_set(err, RS_ENOMEM, "out of memory for the result record") : 0;
}

const struct rs_traffic_ops rs__traffic_hard_permutation = {
    .name = "hard_permutation",
    .summary = "004 Theorem 3.1's slow permutation for a deterministic nonpredictive protocol "
               "(butterfly, queue_at=switch, queue_threshold=q)",
    .options = hard_options,
    .generate = hard_generate,
    .metrics = hard_metrics,
};
