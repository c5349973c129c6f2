/* traffic=hotspot, diagonal, asymmetric and mix (issue 22 item 4): the registry entries of
 * the sampled patterns of pattern.c. A batch run draws each message's destination from
 * (seed, message); open loop draws one per packet (openloop.c). Definitions in
 * docs/workloads.md. */
#include "routesim/pattern.h"
#include "routesim/problem.h"
#include "routesim/rng.h"

static const struct rs_optdef no_options[] = {{NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};
static const struct rs_optdef hotspot_options[] = {RS_HOTSPOT_OPTIONS,
                                                   {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};
static const struct rs_optdef mix_options[] = {
    {"mix", RS_OPT_STRING, NULL, 0, 0, NULL,
     "mix: NAME@WEIGHT,... e.g. uniform@0.8,hotspot@0.2: each packet (message) follows "
     "traffic NAME with probability WEIGHT / (sum of the weights)", "-"},
    RS_HOTSPOT_OPTIONS,
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* dst[m] = rs_pattern_dst(entity m, step 0) for the pattern of p's traffic. */
static int sampled_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                            uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    struct rs_pattern pt;
    int rc = rs_pattern_open(&pt, net, p, seed, err);
    if (rc)
        return rc;
    uint64_t total = (uint64_t)net->n_terminals * per_input;
    for (uint64_t m = 0; m < total; m++)
        dst[m] = rs_pattern_dst(&pt, net, seed, RS_STREAM_TRAFFIC, m, 0,
                                (uint32_t)(m / per_input));
    rs_pattern_free(&pt);
    return 0;
}

const struct rs_traffic_ops rs__traffic_hotspot = {
    .name = "hotspot",
    .summary = "to hot terminals by their rates (hotspot_fraction of the packets; the rest "
               "uniform), BookSim's hotspot",
    .options = hotspot_options,
    .generate = sampled_generate,
};

const struct rs_traffic_ops rs__traffic_diagonal = {
    .name = "diagonal",
    .summary = "BookSim's diagonal: to s+1 mod N with probability 1/3, else to s",
    .options = no_options,
    .generate = sampled_generate,
};

const struct rs_traffic_ops rs__traffic_asymmetric = {
    .name = "asymmetric",
    .summary = "BookSim's asymmetric: to s mod N/2 or s mod N/2 + N/2, each with "
               "probability 1/2",
    .options = no_options,
    .generate = sampled_generate,
};

const struct rs_traffic_ops rs__traffic_mix = {
    .name = "mix",
    .summary = "a weighted mix of traffics (mix=uniform@0.8,hotspot@0.2), drawn per packet",
    .options = mix_options,
    .generate = sampled_generate,
};
