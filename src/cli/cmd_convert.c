/* `routesim convert FILE [KEY=VALUE...]`: print the routesim INI equivalent of a
 * configuration file (a BookSim file mapped key by key, docs/booksim-config.md), with the
 * command line's KEY=VALUE overrides applied on top as `run` applies them. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "routesim/alloc.h"
#include "routesim/booksim_config.h"

int cli_cmd_convert(int argc, char **argv)
{
    struct cli_args a;
    struct rs_err err;
    struct rs_buf out;
    int status = 0, rc;
    rs_err_clear(&err);
    rs_buf_init(&out);
    /* the bare FILE is -c FILE */
    char **v = rs_malloc(((size_t)argc + 2) * sizeof *v);
    if (!v) {
        rs_err_set(&err, RS_ENOMEM, "out of memory");
        return cli_fail(&err);
    }
    int n = 0, placed = 0;
    for (int i = 0; i < argc; i++) {
        int after_flag = i > 0 && (!strcmp(argv[i - 1], "-o") || !strcmp(argv[i - 1], "-c") ||
                                   !strcmp(argv[i - 1], "--output") ||
                                   !strcmp(argv[i - 1], "--config"));
        if (!placed && !after_flag && argv[i][0] != '-' && !strchr(argv[i], '=')) {
            v[n++] = "-c";
            placed = 1;
        }
        v[n++] = argv[i];
    }
    v[n] = NULL;
    rc = cli_parse(n, v, CLI_CONFIG | CLI_OUTPUT, 0, &a, &err);
    if (!rc && !a.config)
        rc = rs_err_set(&err, RS_EPARSE, "command line: convert needs a FILE");
    for (size_t i = 0; !rc && i < a.params.n; i++) { /* overrides in routesim's names */
        const struct rs_param *q = &a.params.v[i];
        const char *bs = q->line == 0 ? rs_booksim_alias(q->key) : NULL;
        if (bs)
            rc = rs_err_set(&err, RS_EUNKNOWN, "command line: unknown key '%s' (did you mean "
                            "'%s'? '%s' is BookSim's name)", q->key, bs, q->key);
    }
    struct rs_named_path outs[1] = {{"-o", a.output}};
    if (!rc)
        rc = cli_check_outputs(&a, outs, 1, &err);
    if (!rc && rs_params_write_ini(&a.params, a.config, &out))
        rc = rs_err_set(&err, RS_ENOMEM, "out of memory");
    if (!rc)
        rc = rs_buf_write_file(&out, a.output, &err);
    if (rc)
        status = cli_fail(&err);
    rs_buf_free(&out);
    cli_args_free(&a);
    rs_free(v);
    return status;
}
