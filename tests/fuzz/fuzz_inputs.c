/* Fuzzing harness for every parser of routesim (libFuzzer entry point). The first byte of
 * the input picks the parser: 0 INI file + grid expansion (+ [plot] check and grid size) +
 * typed getters, 1 KEY=VALUE
 * lines, 2 traffic file and trace file, 3 CSV table, 4 derived-value expression, 5 graph file (+ a
 * fixed paths file, + a run), 6 paths file on a fixed graph (+ analysis and a run).
 * Built with libFuzzer by
 * -DRS_FUZZ=ON (clang); replayed over tests/fuzz/corpus by every `make test` (replay.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "routesim/expr.h"
#include "routesim/engine.h"
#include "routesim/grid.h"
#include "routesim/net.h"
#include "routesim/params.h"
#include "routesim/plot.h"
#include "routesim/problem.h"
#include "routesim/run.h"
#include "routesim/sweep.h"
#include "routesim/table.h"
#include "routesim/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Write data to a private temporary file; returns its path (static storage). */
static const char *to_file(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/rs_fuzz_%ld.txt", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    fwrite(data, 1, size, f);
    fclose(f);
    return path;
}

/* A second private file holding text (the fixed partner of a fuzzed graph or paths file). */
static const char *fixed_file(const char *text)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/rs_fuzz_%ld_fixed.txt", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    fputs(text, f);
    fclose(f);
    return path;
}

/* Read every option of table through its typed getter (errors are expected). */
static void read_all(const struct rs_params *p, const struct rs_optdef *table)
{
    struct rs_err err;
    for (const struct rs_optdef *d = table; d && d->name; d++) {
        int64_t i;
        double x;
        int b;
        const char *s;
        switch (d->type) {
        case RS_OPT_INT:
            rs_params_int(p, d, &i, &err);
            break;
        case RS_OPT_DOUBLE:
            rs_params_double(p, d, &x, &err);
            break;
        case RS_OPT_BOOL:
        case RS_OPT_CHOICE:
            (d->type == RS_OPT_BOOL ? rs_params_bool : rs_params_choice)(p, d, &b, &err);
            break;
        case RS_OPT_STRING:
        case RS_OPT_LIST:
            rs_params_string(p, d, &s, &err);
            break;
        }
    }
}

static void check_params(const struct rs_params *p)
{
    struct rs_err err;
    const struct rs_optdef *tables[4] = {rs_net_options, rs_problem_options, rs_run_options,
                                         rs_engines[0]->options};
    rs_params_check_known(p, tables, 4, &err);
    for (int t = 0; t < 4; t++)
        read_all(p, tables[t]);
    for (int i = 0; rs_topologies[i]; i++)
        read_all(p, rs_topologies[i]->options);
    for (int i = 0; rs_traffics[i]; i++)
        read_all(p, rs_traffics[i]->options);
}

static void fuzz_ini(const uint8_t *data, size_t size)
{
    struct rs_params p;
    struct rs_err err;
    struct rs_grid g;
    const char *path = to_file(data, size);
    rs_params_init(&p);
    if (path && !rs_params_load_ini(&p, path, &err)) {
        check_params(&p);
        if (!rs_grid_build(&g, &p, &err)) {
            rs_plot_check(&g, &err);       /* [plot] keys, x, filter, logx, theory syntax */
            rs_sweep_check_size(&g, &err); /* points x runs against max_memory */
            for (uint64_t i = 0; i < g.n_points && i < 4; i++) {
                struct rs_params q;
                if (!rs_grid_point(&g, i, &q, &err)) {
                    check_params(&q);
                    rs_params_free(&q);
                }
                rs_grid_seed(&g, i, 0);
            }
            rs_grid_free(&g);
        }
    }
    rs_params_free(&p);
}

static void fuzz_args(const uint8_t *data, size_t size)
{
    struct rs_params p;
    struct rs_err err;
    char *text = malloc(size + 1);
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = '\0';
    rs_params_init(&p);
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        rs_params_parse_arg(&p, line, &err);
    }
    check_params(&p);
    rs_params_free(&p);
    free(text);
}

static void fuzz_traffic_file(const uint8_t *data, size_t size)
{
    const char *path = to_file(data, size);
    if (!path)
        return;
    for (int variant = 0; variant < 2; variant++) {
        struct rs_params p;
        struct rs_err err;
        struct rs_net net;
        struct rs_problem pb;
        rs_params_init(&p);
        rs_params_set(&p, "topology", "butterfly", NULL, 0, &err);
        rs_params_set(&p, "N", "8", NULL, 0, &err);
        rs_params_set(&p, "traffic", "file", NULL, 0, &err);
        rs_params_set(&p, "traffic_file", path, NULL, 0, &err);
        rs_params_set(&p, "per_input", variant ? "2" : "1", NULL, 0, &err);
        rs_params_set(&p, "file_kind", variant ? "any" : "permutation", NULL, 0, &err);
        if (!rs_net_build(&net, &p, &err)) {
            if (!rs_problem_build(&pb, &net, &p, 1, &err))
                rs_problem_free(&pb);
            rs_net_free(&net);
        }
        rs_params_free(&p);
    }
    struct rs_trace_stats st; /* the same bytes as a trace file (traffic=trace) */
    struct rs_err err;
    rs_trace_scan(path, 8, &st, &err);
    rs_trace_scan(path, UINT32_MAX, &st, &err);
}

/* topology=graph with graph_file and paths_file (one of them fuzzed): build the network,
 * then analyze and run the paths on it with queues of one packet. */
static void run_graph(const char *graph, const char *paths)
{
    struct rs_params p;
    struct rs_err err;
    struct rs_record rec;
    char dl[256];
    for (int variant = 0; variant < 2; variant++) {
        rs_params_init(&p);
        rs_params_set(&p, "topology", "graph", NULL, 0, &err);
        rs_params_set(&p, "graph_file", graph, NULL, 0, &err);
        if (paths) {
            rs_params_set(&p, "paths_file", paths, NULL, 0, &err);
            rs_params_set(&p, "traffic", "paths", NULL, 0, &err);
        }
        rs_params_set(&p, "queue_size", "1", NULL, 0, &err);
        rs_record_init(&rec);
        if (variant == 0)
            rs_analyze(&p, &rec, &err);
        else
            rs_run(&p, &rec, dl, sizeof dl, &err);
        rs_record_free(&rec);
        rs_params_free(&p);
    }
}

static void fuzz_graph_file(const uint8_t *data, size_t size)
{
    const char *g = to_file(data, size);
    if (!g)
        return;
    run_graph(g, NULL); /* shortest paths, uniform traffic */
    const char *paths = fixed_file("0 1 2\n1 2 0\n2 0\n");
    if (paths)
        run_graph(g, paths);
}

static void fuzz_paths_file(const uint8_t *data, size_t size)
{
    const char *paths = to_file(data, size);
    const char *g = fixed_file("nodes 6\n0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n0 3\n3 0\n1 4\n");
    if (paths && g)
        run_graph(g, paths);
}

static void fuzz_table(const uint8_t *data, size_t size)
{
    struct rs_table t;
    struct rs_err err;
    const char *path = to_file(data, size);
    if (path && !rs_table_read(&t, path, &err)) {
        for (size_t r = 0; r < t.nrows; r++)
            for (size_t c = 0; c < t.ncols; c++)
                rs_table_num(&t, r, (long)c);
        rs_table_col(&t, "N");
        rs_table_free(&t);
    }
}

static void fuzz_expr(const uint8_t *data, size_t size)
{
    struct rs_params p;
    struct rs_err err;
    char why[256], *text = malloc(size + 1);
    double v;
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = '\0';
    rs_params_init(&p);
    rs_params_set(&p, "N", "2^10", NULL, 0, &err);
    rs_params_set(&p, "q", "3.5", NULL, 0, &err);
    rs_params_set(&p, "t", "bitrev", NULL, 0, &err);
    rs__expr_eval(text, &p, &v, why, sizeof why);
    rs_params_free(&p);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    switch (data[0] % 7) {
    case 0:
        fuzz_ini(data + 1, size - 1);
        break;
    case 1:
        fuzz_args(data + 1, size - 1);
        break;
    case 2:
        fuzz_traffic_file(data + 1, size - 1);
        break;
    case 3:
        fuzz_table(data + 1, size - 1);
        break;
    case 4:
        fuzz_expr(data + 1, size - 1);
        break;
    case 5:
        fuzz_graph_file(data + 1, size - 1);
        break;
    case 6:
        fuzz_paths_file(data + 1, size - 1);
        break;
    }
    return 0;
}
