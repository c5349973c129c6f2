/* Example of routesim's C library: build a butterfly network, run a uniform workload on it
 * with store-and-forward switching, and read typed metrics from the result record.
 * Build against an installed routesim:
 *   cc run_metrics.c $(pkg-config --cflags --libs routesim) -o run_metrics
 * Prints the network's size and three metrics; exits 1 with routesim's message on error. */
#include <stdio.h>

#include "routesim/net.h"
#include "routesim/params.h"
#include "routesim/record.h"
#include "routesim/run.h"

int main(void)
{
    struct rs_params p;
    struct rs_err err;
    struct rs_net net = {0};
    struct rs_record rec;
    rs_err_clear(&err);
    rs_params_init(&p);
    rs_record_init(&rec);
    /* the parameters, as KEY=VALUE on the command line would give them */
    int rc = rs_params_set(&p, "topology", "butterfly", NULL, 0, &err) ||
             rs_params_set(&p, "N", "64", NULL, 0, &err) ||
             rs_params_set(&p, "traffic", "uniform", NULL, 0, &err) ||
             rs_params_set(&p, "seed", "7", NULL, 0, &err);
    /* the network alone: its size */
    if (!rc && !(rc = rs_net_build(&net, &p, &err)))
        printf("%s: %u nodes, %llu channels, %u terminals\n", net.name, net.n_nodes,
               (unsigned long long)net.n_channels, net.n_terminals);
    rs_net_free(&net);
    /* the whole run (network, workload, engine) into a record of typed fields */
    if (!rc)
        rc = rs_run(&p, &rec, NULL, 0, &err);
    if (!rc) {
        const struct rs_field *makespan = rs_record_get(&rec, "makespan");
        const struct rs_field *latency = rs_record_get(&rec, "latency_mean");
        const struct rs_field *delivered = rs_record_get(&rec, "delivered");
        printf("makespan %lld steps, mean latency %.4f steps, %lld messages delivered\n",
               (long long)makespan->i, latency->d, (long long)delivered->i);
    } else {
        fprintf(stderr, "run_metrics: %s\n", err.msg);
    }
    rs_record_free(&rec);
    rs_params_free(&p);
    return rc ? 1 : 0;
}
