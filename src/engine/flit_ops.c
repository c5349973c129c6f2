/* The four flit-level switching models as engines (registry names wormhole,
 * virtual_cut_through, cut_through_partial, store_forward_flits): their option tables and
 * ops structs, all running the shared flit engine (flit.c) in their mode. */
#include "engine/flit.h"
#include "engine/estimate_util.h"
#include "engine/iq.h"

static const char *const link_names[] = {"per_vc", "shared", NULL};
static const char *const class_names[] = {"none", "dateline", "partition", NULL};
static const char *const on_delay_names[] = {"wait", "discard", NULL};

/* Options of every mode. */
#define FLIT_COMMON_OPTIONS                                                                    \
    {"length", RS_OPT_INT, "4", 1, 65535, NULL, "flits per message (001's L, 003's k)",        \
     "flits"},                                                                                 \
    {"vcs", RS_OPT_INT, "1", 1, 64, NULL, "virtual channels per physical channel (001's B)",   \
     "VCs"},                                                                                   \
    {"link", RS_OPT_CHOICE, "per_vc", 0, 0, link_names,                                        \
     "link bandwidth per step: one flit per virtual channel (per_vc, 001 §1.1) or one flit "   \
     "per channel shared by its virtual channels, oldest message first (shared, 001 "         \
     "Remarks)", "-"},                                                                         \
    {"vc_classes", RS_OPT_CHOICE, "none", 0, 0, class_names,                                   \
     "none: a header takes the lowest free virtual channel; dateline: the virtual channels "   \
     "are split into classes, before/after the wrap-around (and per Valiant phase), so that "  \
     "tori and rings cannot deadlock; partition: BookSim's torus classes, class 1 for the "  \
     "whole of a dimension whose route wraps around, class 0 otherwise", "-"},                 \
    {"on_delay", RS_OPT_CHOICE, "wait", 0, 0, on_delay_names,                                  \
     "a message whose header is delayed waits, or is discarded (001 §3.1 step 4)", "-"}

static const struct rs_optdef wormhole_options[] = {
    FLIT_COMMON_OPTIONS,
    {"vc_depth", RS_OPT_INT, "1", 1, 65535, NULL,
     "flits per virtual-channel buffer (001 §1.1: 1)", "flits"},
    IQ_OPTIONS,
    RS_OPENLOOP_OPTIONS,
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const struct rs_optdef vct_options[] = {
    FLIT_COMMON_OPTIONS,
    {"collapse", RS_OPT_BOOL, "0", 0, 0, NULL,
     "1: a message whose header was blocked waits until it is entirely in that buffer "
     "before going on (003 §1's cut-through model)", "-"},
    IQ_OPTIONS,
    RS_OPENLOOP_OPTIONS,
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const struct rs_optdef partial_options[] = {
    FLIT_COMMON_OPTIONS,
    {"vc_depth", RS_OPT_INT, "0", 0, 65535, NULL,
     "flits per channel FIFO (003's k; 0: the message length)", "flits"},
    RS_OPENLOOP_OPTIONS,
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const struct rs_optdef saf_flits_options[] = {FLIT_COMMON_OPTIONS, RS_OPENLOOP_OPTIONS,
                                                     {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* The lifecycles of each mode, batch and open loop: its set-up, then the shared ops
 * (flit.c); they differ in their columns. Every plan field but via is honoured (the driver
 * refuses a plan in open loop). */
static const enum rs_metric batch_columns[] = {FLIT_BATCH_COLUMNS};
static const enum rs_metric open_columns[] = {FLIT_OPEN_COLUMNS};

#define FLIT_LIFE_OF(name, kind, cols, n_cols)                                                 \
    static const struct rs_engine_life name##_##kind = {                                       \
        .size = sizeof(struct flit),                                                           \
        .auto_check = 1, /* the driver's rule for small runs in Debug builds */                \
        .plan_fields = RS_PLAN_RELEASE | RS_PLAN_MID | RS_PLAN_LENGTH | RS_PLAN_DISCARD |      \
                       RS_PLAN_FINISH | RS_PLAN_FATE,                                          \
        .init = name##_init,                                                                   \
        .step = rs__flit_life_step,                                                            \
        .check = rs__flit_life_check,                                                          \
        .describe_deadlock = rs__flit_life_describe,                                           \
        .deadlock_cycle = rs__flit_life_cycle,                                                 \
        .collect = rs__flit_collect,                                                           \
        .columns = cols,                                                                       \
        .n_columns = n_cols,                                                                   \
        .free = rs__flit_free,                                                                 \
    };
#define FLIT_LIFE(name, mode, options)                                                         \
    static int name##_init(void *st, struct rs_driver *d, struct rs_err *err)                  \
    {                                                                                          \
        return rs__flit_init(st, d, mode, options, err);                                       \
    }                                                                                          \
    FLIT_LIFE_OF(name, batch, batch_columns, sizeof batch_columns / sizeof *batch_columns)     \
    FLIT_LIFE_OF(name, open, open_columns, sizeof open_columns / sizeof *open_columns)

FLIT_LIFE(wormhole, FLIT_WORMHOLE, wormhole_options)
FLIT_LIFE(vct, FLIT_VCT, vct_options)
FLIT_LIFE(partial, FLIT_PARTIAL, partial_options)
FLIT_LIFE(saf_flits, FLIT_SAF, saf_flits_options)

const struct rs_engine_ops rs_engine_wormhole = {
    .name = "wormhole",
    .summary = "wormhole worms of L flits, B virtual channels of vc_depth flits (001 §1.1)",
    .options = wormhole_options,
    .batch = &wormhole_batch,
    .open = &wormhole_open,
    .openloop = 1,
    .estimate = rs__flit_estimate,
    .counts_paths = rs__flit_counts_paths,
};

const struct rs_engine_ops rs_engine_virtual_cut_through = {
    .name = "virtual_cut_through",
    .summary = "virtual cut-through: a virtual-channel buffer holds a whole message "
               "(collapse=1: 003's cut-through snakes)",
    .options = vct_options,
    .batch = &vct_batch,
    .open = &vct_open,
    .openloop = 1,
    .estimate = rs__flit_estimate,
    .counts_paths = rs__flit_counts_paths,
};

const struct rs_engine_ops rs_engine_cut_through_partial = {
    .name = "cut_through_partial",
    .summary = "cut-through with partial cuts: a FIFO of k flits per channel, snakes never "
               "broken (003 §1)",
    .options = partial_options,
    .batch = &partial_batch,
    .open = &partial_open,
    .openloop = 1,
    .estimate = rs__flit_estimate,
    .counts_paths = rs__flit_counts_paths,
};

const struct rs_engine_ops rs_engine_store_forward_flits = {
    .name = "store_forward_flits",
    .summary = "store-and-forward snakes: forwarded flit by flit once entirely stored (003 §1, "
               "001's message step = L flit steps)",
    .options = saf_flits_options,
    .batch = &saf_flits_batch,
    .open = &saf_flits_open,
    .openloop = 1,
    .estimate = rs__flit_estimate,
    .counts_paths = rs__flit_counts_paths,
};
