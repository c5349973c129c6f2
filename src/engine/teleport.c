/* switching=teleport (scratch, how-to check): every message arrives at its destination in
 * step 1, whatever the network. Batch runs only. */
#include "routesim/driver.h"
#include "routesim/metrics.h"

static const struct rs_optdef teleport_options[] = {{NULL, 0, NULL, 0, 0, NULL, NULL}};

struct teleport {
    uint64_t n_msgs, delivered;
    uint32_t step;
};

static int teleport_init(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct teleport *t = st;
    t->n_msgs = d->in->pb->n_msgs;
    d->remaining = t->n_msgs;
    return 0;
}

static int teleport_step(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct teleport *t = st;
    t->step++;
    t->delivered = t->n_msgs;
    d->step = t->step;
    d->accepted = t->n_msgs;
    d->remaining = 0;
    return 0;
}

static int teleport_check(void *st, struct rs_err *err)
{
    const struct teleport *t = st;
    if (t->delivered > t->n_msgs)
        return rs_err_set(err, RS_EINVARIANT, "switching=teleport: more delivered than sent");
    return 0;
}

static const enum rs_metric teleport_columns[] = {RS_M_MAKESPAN, RS_M_MESSAGES, RS_M_DELIVERED,
                                                  RS_M_LATENCY_MEAN, RS_M_LATENCY_P99, RS_M_LATENCY_MAX};

static int teleport_collect(void *st, struct rs_driver *d, struct rs_record *out, int deadlock)
{
    const struct teleport *t = st;
    struct rs_result r;
    rs_result_init(&r);
    r.makespan = t->step;
    r.messages = (int64_t)t->n_msgs;
    r.delivered = (int64_t)t->delivered;
    if (t->n_msgs)
        r.latency_mean = r.latency_p99 = r.latency_max = 1.0;
    if (d->in->result)
        *d->in->result = r;
    return rs_result_record(&r, teleport_columns, sizeof teleport_columns / sizeof *teleport_columns,
                            out) ||
           rs_metric_int(out, RS_M_TELEPORTS, (int64_t)t->delivered);
}

static void teleport_free(void *st)
{
}

static const struct rs_engine_life teleport_life = {
    .size = sizeof(struct teleport),
    .plan_fields = 0,
    .init = teleport_init,
    .step = teleport_step,
    .check = teleport_check,
    .collect = teleport_collect,
    .free = teleport_free,
};

const struct rs_engine_ops rs_engine_teleport = {
    .name = "teleport",
    .summary = "every message arrives in step 1 (scratch)",
    .options = teleport_options,
    .batch = &teleport_life,
};
