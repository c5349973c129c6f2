/* traffic=group_shift: adversarial group traffic for dragonflies (Kim et al. 2008 §4.2, their
 * worst case for minimal routing): every terminal of group i sends to a uniformly random
 * terminal of group i+1 (mod g), so all of a group's traffic wants the one global channel
 * (or the par parallel ones) between the two groups. */
#include "routesim/dragonfly.h"
#include "routesim/problem.h"
#include "routesim/rng.h"

static const struct rs_optdef no_options[] = {{NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* A terminal of group (group of src) + 1 mod g, the r-th of the a*p there. */
static uint32_t next_group_terminal(const struct rs_dfly *d, uint32_t src, uint32_t r)
{
    uint32_t per = d->a * d->p;
    return (rs_dfly_term_group(d, src) + 1) % d->g * per + r;
}

/* dst[m] = terminal rs_rand_below(seed, RS_STREAM_TRAFFIC, entity m, step 0, a*p) of the next
 * group. */
static int group_shift_generate(const struct rs_net *net, const struct rs_params *p,
                                uint64_t seed, uint32_t per_input, uint32_t *dst,
                                struct rs_err *err)
{
    const struct rs_dfly *d = rs_dfly_of(net);
    if (!d)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "traffic=group_shift needs topology=dragonfly (got %s)", net->name);
    uint64_t total = (uint64_t)net->n_terminals * per_input;
    for (uint64_t m = 0; m < total; m++)
        dst[m] = next_group_terminal(d, (uint32_t)(m / per_input),
                                     rs_rand_below(seed, RS_STREAM_TRAFFIC, m, 0, d->a * d->p));
    return 0;
}

/* Open loop: a fresh terminal of the next group per packet, from (seed, RS_STREAM_OL_DEST,
 * src, gen) as uniform traffic draws its destinations. */
static uint32_t group_shift_dst_openloop(const struct rs_net *net, uint64_t seed, uint32_t src,
                                         uint32_t gen)
{
    const struct rs_dfly *d = rs_dfly_of(net);
    return next_group_terminal(d, src, rs_rand_below(seed, RS_STREAM_OL_DEST, src, gen,
                                                     d->a * d->p));
}

const struct rs_traffic_ops rs__traffic_group_shift = {
    .name = "group_shift",
    .summary = "dragonfly adversarial traffic: each terminal of group i to a random terminal "
               "of group i+1",
    .options = no_options,
    .generate = group_shift_generate,
    .dst_openloop = group_shift_dst_openloop,
};
