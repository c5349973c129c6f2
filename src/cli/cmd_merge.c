/* `routesim merge -c FILE.ini -o OUT.csv PART.csv...`: join the files written by the shards
 * of a sweep (`routesim sweep --shard I/N`) into the file the whole sweep writes, checking
 * that every point (or run) is there once (rs_sweep_merge). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "routesim/alloc.h"
#include "routesim/booksim_config.h"
#include "routesim/grid.h"
#include "routesim/sweep.h"

int cli_cmd_merge(int argc, char **argv)
{
    const char *config = NULL, *out = NULL;
    const char **parts = rs_calloc(argc > 0 ? (size_t)argc : 1, sizeof *parts);
    size_t n = 0;
    struct rs_err err;
    struct rs_params p;
    struct rs_grid g;
    int rc = parts ? 0 : rs_err_set(&err, RS_ENOMEM, "out of memory"), built = 0;
    rs_err_clear(&err);
    rs_params_init(&p);
    for (int k = 0; k < argc && !rc; k++) {
        const char *a = argv[k];
        if (!strcmp(a, "-c") || !strcmp(a, "-o") || !strcmp(a, "--output")) {
            const char **dst = a[1] == 'c' ? &config : &out;
            if (k + 1 >= argc)
                rc = rs_err_set(&err, RS_EPARSE, "command line: option '%s' needs a value", a);
            else if (*dst)
                rc = rs_err_set(&err, RS_EPARSE, "command line: option '%s' given twice", a);
            else
                *dst = argv[++k];
        } else if (a[0] == '-') {
            rc = rs_err_set(&err, RS_EPARSE,
                            "command line: merge takes -c FILE.ini, -o OUT and the files to "
                            "merge (got '%s')",
                            a);
        } else {
            parts[n++] = a;
        }
    }
    if (!rc && (!config || !out || !n))
        rc = rs_err_set(&err, RS_EPARSE,
                        "command line: merge needs -c FILE.ini (the sweep's experiment), -o "
                        "OUT and at least one file of its shards");
    rc = rc ? rc : rs_params_load_config(&p, config, &err);
    if (!rc && !(rc = rs_grid_build(&g, &p, &err)))
        built = 1;
    rc = rc ? rc : rs_sweep_merge(&g, out, parts, n, &err);
    int status = rc ? cli_fail(&err) : 0;
    if (!rc)
        fprintf(stderr, "routesim: merged %zu file%s into %s (%llu points x %u runs)\n", n,
                n == 1 ? "" : "s", out, (unsigned long long)g.n_points, g.runs);
    if (built)
        rs_grid_free(&g);
    rs_params_free(&p);
    rs_free(parts);
    return status;
}
