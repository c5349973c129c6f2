/* Benchmark driver (`make bench`, never part of the tests): runs one standard case of an
 * engine (store-and-forward cases a-e, flit cases f-j) or algorithm (wave k-l, ms_chain m-n,
 * ms_mesh o, bay_bilardi p-q; dragonfly flit cases dfly_min, dfly_ugal; HyperX hyperx;
 * Slim Fly sf_min, sf_ugal; router=iq iq_h, iq_i, iq_j; every engine at 2^16 and 2^20 on
 * one and two threads: b_t2, flit16, flit20, circ16, circ20 and their _t2) several times and
 * prints steps/s, packet-hops/s, flit-hops/s, messages/s of bit-serial algorithms or
 * messages and channel locks per second of the circuit engine (engine time only,
 * median of the repetitions), the set-up time and the process's peak RSS. One case per
 * process, so that peak RSS belongs to that case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "routesim/algo.h"
#include "routesim/engine.h"
#include "routesim/net.h"
#include "routesim/problem.h"
#include "routesim/route.h"
#include "routesim/algo.h"

struct bench_case {
    const char *name;
    const char *params; /* space-separated KEY=VALUE */
    int reps;
};

static const struct bench_case cases[] = {
    {"a", "topology=butterfly N=65536 traffic=uniform per_input=1 queue_size=4 protocol=fifo", 5},
    {"b", "topology=butterfly N=1048576 traffic=uniform per_input=1 queue_size=4 protocol=fifo", 3},
    {"c", "topology=butterfly N=65536 traffic=uniform per_input=16 queue_size=4 protocol=fifo", 3},
    {"d", "topology=mesh k=256 n=2 traffic=randperm queue_size=0 protocol=furthest_first", 3},
    /* cases a and c on two threads (threads=2, issue 23 item 2: the same output) */
    {"a_t2", "topology=butterfly N=65536 traffic=uniform per_input=1 queue_size=4 "
             "protocol=fifo threads=2", 5},
    {"c_t2", "topology=butterfly N=65536 traffic=uniform per_input=16 queue_size=4 "
             "protocol=fifo threads=2", 3},
    /* not a target: state small enough for the caches, to separate compute from memory */
    {"e", "topology=butterfly N=1024 traffic=uniform per_input=16 queue_size=4 protocol=fifo", 9},
    /* flit engine (issue 5): dimension order, 2 VCs of 4 flits, 4-flit packets */
    {"f", "topology=mesh k=8 n=2 traffic=uniform per_input=4 switching=wormhole vcs=2 "
          "vc_depth=4 length=4", 51},
    {"g", "topology=mesh k=16 n=2 traffic=uniform per_input=4 switching=wormhole vcs=2 "
          "vc_depth=4 length=4", 21},
    {"h", "topology=mesh k=8 n=2 traffic=uniform switching=wormhole vcs=2 vc_depth=4 length=4 "
          "injection_process=bernoulli injection_rate=0.1 injection_rate_uses_flits=1 "
          "warmup_steps=10000 measure_steps=30000", 5},
    {"i", "topology=mesh k=16 n=2 traffic=uniform switching=wormhole vcs=2 vc_depth=4 "
          "length=4 injection_process=bernoulli injection_rate=0.1 injection_rate_uses_flits=1 "
          "warmup_steps=10000 measure_steps=30000", 5},
    {"j", "topology=butterfly N=1024 traffic=uniform switching=wormhole vcs=2 vc_depth=4 "
          "length=4 injection_process=bernoulli injection_rate=0.1 injection_rate_uses_flits=1 "
          "warmup_steps=10000 measure_steps=30000", 5},
    /* algorithm=wave (004 §4) on case c's instance (fully loaded: 16 = log2 N packets per
     * input), and its wave_protocol=fifo, the same model as case c on the wave simulator */
    {"k", "topology=butterfly N=65536 traffic=uniform per_input=16 queue_size=4 algorithm=wave",
     3},
    {"l", "topology=butterfly N=65536 traffic=uniform per_input=16 queue_size=4 algorithm=wave "
          "wave_protocol=fifo", 3},
    /* algorithm=ms_chain (003 §2): the line simulator, FIFO and farthest first */
    {"m", "topology=chain k=4096 traffic=randperm switching=cut_through_partial length=8 "
          "algorithm=ms_chain", 3},
    {"n", "topology=chain k=4096 traffic=one_to_many packets=2048 per_input=4 "
          "switching=cut_through_partial length=8 algorithm=ms_chain", 3},
    /* algorithm=ms_mesh (003 §3): colouring, shearsort, rows and columns on the line
     * simulator; flit-hops are steps 3-4 only (the sort's exchanges are not hops) */
    {"o", "topology=mesh k=256 n=2 traffic=randperm switching=cut_through_partial length=8 "
          "algorithm=ms_mesh", 3},
    /* algorithm=bay_bilardi (000 §3.3): the algorithm's own bit-serial model, no engine;
     * random permutations (lambda about sqrt(N)) */
    {"p", "topology=pruned_butterfly N=65536 traffic=randperm switching=circuit "
          "algorithm=bay_bilardi", 5},
    {"q", "topology=pruned_butterfly N=1048576 traffic=randperm switching=circuit "
          "algorithm=bay_bilardi", 3},
    /* the folded Clos (k-ary n-tree, 4-ary 3-tree: 64 terminals, 48 switches of radix 8),
     * random and adaptive up-ports, open loop as case h */
    {"r", "topology=kary_ntree k=4 n=3 traffic=uniform switching=wormhole vcs=2 vc_depth=4 "
          "length=4 injection_process=bernoulli injection_rate=0.1 injection_rate_uses_flits=1 "
          "warmup_steps=10000 measure_steps=30000", 5},
    {"s", "topology=kary_ntree k=4 n=3 routing=nca_adaptive traffic=uniform switching=wormhole "
          "vcs=2 vc_depth=4 length=4 injection_process=bernoulli injection_rate=0.1 "
          "injection_rate_uses_flits=1 warmup_steps=10000 measure_steps=30000", 5},
    /* dragonfly (issue 22): p=4 a=8 h=4 g=33 (1056 terminals), uniform open loop at 0.1
     * flits, minimal (vc_classes=dateline) and UGAL-L, 12 VCs of 8 flits, 4-flit packets */
    {"dfly_min", "topology=dragonfly p=4 traffic=uniform switching=wormhole link=shared vcs=12 "
                 "vc_depth=8 length=4 routing=direct vc_classes=dateline "
                 "injection_process=bernoulli injection_rate=0.1 injection_rate_uses_flits=1 "
                 "warmup_steps=10000 measure_steps=30000", 3},
    {"dfly_ugal", "topology=dragonfly p=4 traffic=uniform switching=wormhole link=shared vcs=12 "
                  "vc_depth=8 length=4 routing=ugal_l "
                  "injection_process=bernoulli injection_rate=0.1 injection_rate_uses_flits=1 "
                  "warmup_steps=10000 measure_steps=30000", 3},
    {"hyperx", "topology=hyperx S=8,8 T=1 traffic=uniform switching=wormhole vcs=2 vc_depth=4 "
               "length=4 injection_process=bernoulli injection_rate=0.1 "
               "injection_rate_uses_flits=1 warmup_steps=10000 measure_steps=30000", 3},
    /* Slim Fly (issue 22): q=7 (98 routers of radix 11, p=6: 588 terminals), uniform open
     * loop at 0.1 flits, minimal (vc_classes=dateline) and UGAL-L, 8 VCs of 8 flits */
    {"sf_min", "topology=slimfly q=7 traffic=uniform switching=wormhole link=shared vcs=8 "
               "vc_depth=8 length=4 routing=direct vc_classes=dateline "
               "injection_process=bernoulli injection_rate=0.1 injection_rate_uses_flits=1 "
               "warmup_steps=10000 measure_steps=30000", 3},
    {"sf_ugal", "topology=slimfly q=7 traffic=uniform switching=wormhole link=shared vcs=8 "
                "vc_depth=8 length=4 routing=ugal_l_sf "
                "injection_process=bernoulli injection_rate=0.1 injection_rate_uses_flits=1 "
                "warmup_steps=10000 measure_steps=30000", 3},
    /* router=iq (issue 21 item 5): cases h, i (0.1 flits) and the butterfly at 0.3 flits of
     * docs/PERFORMANCE.md's BookSim comparison, in BookSim 2's input-queued router model */
    {"iq_h", "topology=mesh k=8 n=2 traffic=uniform switching=wormhole router=iq vcs=2 "
             "vc_depth=4 length=4 injection_process=bernoulli injection_rate=0.1 "
             "injection_rate_uses_flits=1 warmup_steps=10000 measure_steps=30000 drain_steps=0",
     5},
    {"iq_i", "topology=mesh k=16 n=2 traffic=uniform switching=wormhole router=iq vcs=2 "
             "vc_depth=4 length=4 injection_process=bernoulli injection_rate=0.1 "
             "injection_rate_uses_flits=1 warmup_steps=10000 measure_steps=30000 drain_steps=0",
     3},
    {"iq_j", "topology=butterfly N=1024 traffic=uniform switching=wormhole router=iq vcs=2 "
             "vc_depth=4 length=4 injection_process=bernoulli injection_rate=0.3 "
             "injection_rate_uses_flits=1 warmup_steps=1000 measure_steps=3000 drain_steps=0",
     3},
    /* issue 23 item 4: every engine at 2^16 and 2^20 inputs on threads 1 and 2 (batch, one
     * packet per input). Store-and-forward: b_t2 is case b on two threads. Flit engine:
     * wormhole, 2 VCs of 4 flits, 4-flit packets. Circuit engine: greedy, random
     * permutation (its own table: locks, not hops) */
    {"b_t2", "topology=butterfly N=1048576 traffic=uniform per_input=1 queue_size=4 "
             "protocol=fifo threads=2", 3},
    {"flit16", "topology=butterfly N=65536 traffic=uniform per_input=1 switching=wormhole "
               "vcs=2 vc_depth=4 length=4", 3},
    {"flit16_t2", "topology=butterfly N=65536 traffic=uniform per_input=1 switching=wormhole "
                  "vcs=2 vc_depth=4 length=4 threads=2", 3},
    {"flit20", "topology=butterfly N=1048576 traffic=uniform per_input=1 switching=wormhole "
               "vcs=2 vc_depth=4 length=4", 1},
    {"flit20_t2", "topology=butterfly N=1048576 traffic=uniform per_input=1 "
                  "switching=wormhole vcs=2 vc_depth=4 length=4 threads=2", 1},
    {"circ16", "topology=butterfly N=65536 traffic=randperm switching=circuit", 5},
    {"circ16_t2", "topology=butterfly N=65536 traffic=randperm switching=circuit threads=2", 5},
    {"circ20", "topology=butterfly N=1048576 traffic=randperm switching=circuit", 3},
    {"circ20_t2", "topology=butterfly N=1048576 traffic=randperm switching=circuit threads=2",
     3},
    {NULL, NULL, 0}};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int run_case(const struct bench_case *bc)
{
    struct rs_params p;
    struct rs_err err;
    struct rs_net net = {0};
    struct rs_problem pb = {0};
    char buf[512], *save = NULL;
    double times[64];
    int64_t steps = 0, hops = 0, msgs = 0;
    rs_params_init(&p);
    snprintf(buf, sizeof buf, "%s", bc->params);
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
        rs_params_parse_arg(&p, w, &err);
    double t0 = now();
    if (rs_net_build(&net, &p, &err) || rs_problem_build(&pb, &net, &p, 1, &err)) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return 1;
    }
    double setup = now() - t0;
    const struct rs_param *sw = rs_params_find(&p, "switching");
    const struct rs_engine_ops *eng = rs_engine_find(sw ? sw->value : "store_forward");
    if (!eng) {
        fprintf(stderr, "bench: no engine '%s'\n", sw->value);
        return 1;
    }
    const struct rs_param *rt = rs_params_find(&p, "routing");
    const struct rs_routing_ops *routing = rt ? rs_routing_find(rt->value) : RS_ROUTING_DIRECT;
    if (!routing) {
        fprintf(stderr, "bench: no routing '%s'\n", rt->value);
        return 1;
    }
    const struct rs_param *al = rs_params_find(&p, "algorithm");
    const struct rs_algo_ops *algo = al ? rs_algo_find(al->value) : NULL;
    if (al && !algo) {
        fprintf(stderr, "bench: no algorithm '%s'\n", al->value);
        return 1;
    }
    int bitserial = 0; /* a bit-serial algorithm: its own table (--header-algo) */
    int circuit = 0;   /* the circuit engine: its own table (--header-circuit) */
    for (int r = 0; r < bc->reps; r++) {
        struct rs_record rec;
        struct rs_engine_input in = {.net = &net, .pb = &pb, .params = &p,
                                     .routing = routing, .seed = 1, .check = 0};
        rs_record_init(&rec);
        double t1 = now();
        /* a timed model (bay_bilardi) runs with engine NULL (rs_algo_ops.timed) */
        if (algo ? algo->run(&in, algo->timed ? NULL : eng, &rec, NULL, 0, &err)
                 : rs_engine_run(eng, &in, &rec, NULL, 0, &err)) {
            fprintf(stderr, "bench: %s\n", err.msg);
            return 1;
        }
        times[r] = now() - t1;
        /* the counts of the case's table: the circuit engine's cycles and channel locks,
         * bay_bilardi's bit steps and batch rounds, else steps and packet- or flit-hops of
         * the messages (open loop: the packets delivered, not the static template set) */
        circuit = rs_record_get(&rec, "locks") != NULL;
        bitserial = rs_record_get(&rec, "bit_steps") != NULL;
        const char *sk = circuit ? "cycles" : bitserial ? "bit_steps" : "steps";
        const char *hk = circuit         ? "locks"
                         : bitserial     ? "batch_rounds"
                         : rs_record_get(&rec, "hops") ? "hops"
                                                      : "flit_hops";
        steps = rs_record_get(&rec, sk)->i;
        hops = rs_record_get(&rec, hk)->i;
        msgs = rs_record_get(&rec, rs_record_get(&rec, "messages") ? "messages" : "delivered")->i;
        rs_record_free(&rec);
    }
    qsort(times, (size_t)bc->reps, sizeof times[0], cmp_double);
    double med = times[bc->reps / 2];
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    if (bitserial) {
        printf("| %s | %s | %llu | %lld | %lld | %.6f | %.1f | %.3f | %.0f |\n", bc->name,
               bc->params, (unsigned long long)msgs, (long long)steps, (long long)hops, med,
               (double)msgs / med / 1e6, setup, (double)ru.ru_maxrss / 1024.0);
        rs_problem_free(&pb);
        rs_net_free(&net);
        rs_params_free(&p);
        return 0;
    }
    if (circuit) {
        printf("| %s | %s | %llu | %lld | %lld | %.6f | %.2f | %.1f | %.3f | %.0f |\n",
               bc->name, bc->params, (unsigned long long)msgs, (long long)steps,
               (long long)hops, med, (double)msgs / med / 1e6, (double)hops / med / 1e6, setup,
               (double)ru.ru_maxrss / 1024.0);
        rs_problem_free(&pb);
        rs_net_free(&net);
        rs_params_free(&p);
        return 0;
    }
    printf("| %s | %s | %llu | %lld | %lld | %.6f | %.0f | %.1f | %.3f | %.0f |\n", bc->name,
           bc->params, (unsigned long long)msgs, (long long)steps, (long long)hops, med,
           (double)steps / med, (double)hops / med / 1e6, setup, (double)ru.ru_maxrss / 1024.0);
    rs_problem_free(&pb);
    rs_net_free(&net);
    rs_params_free(&p);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--header-algo")) {
        printf("| case | parameters | messages | bit steps | batch rounds | algorithm s (median) "
               "| M messages/s | set-up s | peak RSS MiB |\n");
        printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "--header-circuit")) {
        printf("| case | parameters | messages | cycles | channel locks | engine s (median) | "
               "M messages/s | M locks/s | set-up s | peak RSS MiB |\n");
        printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        return 0;
    }
    if (argc == 2 && (!strcmp(argv[1], "--header") || !strcmp(argv[1], "--header-flit"))) {
        const char *unit = argv[1][8] ? "flit-hops" : "packet-hops";
        printf("| case | parameters | messages | steps | %s | engine s (median) | "
               "steps/s | M %s/s | set-up s | peak RSS MiB |\n",
               unit, unit);
        printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        return 0;
    }
    for (int i = 0; cases[i].name; i++)
        if (argc == 2 && !strcmp(argv[1], cases[i].name))
            return run_case(&cases[i]);
    fprintf(stderr, "usage: routesim_bench --header | --header-flit | --header-algo | --header-circuit | CASE\n");
    return 2;
}
