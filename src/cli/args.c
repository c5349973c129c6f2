/* Shared argument parsing, error reporting and output for the subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static const char *const flag_names[] = {"-c", "--config", "--format", "-o", "--output", "--dot"};

int cli_parse(int argc, char **argv, unsigned allowed, int allow_positional, struct cli_args *a,
              struct rs_err *err)
{
    const char *config = NULL;
    int rc;
    memset(a, 0, sizeof *a);
    rs_params_init(&a->params);
    a->format = RS_FMT_TABLE;
    /* First pass: flags; KEY=VALUE arguments are applied after the INI file. */
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i], *val = NULL;
        const char *eq = strchr(arg, '=');
        if (arg[0] != '-') {
            if (eq)
                continue;
            if (allow_positional && !a->positional) {
                a->positional = arg;
                continue;
            }
            return rs_err_set(err, RS_EPARSE, "command line: expected KEY=VALUE, got '%s'", arg);
        }
        char flag[32];
        size_t flen = eq ? (size_t)(eq - arg) : strlen(arg);
        if (flen >= sizeof flag)
            flen = sizeof flag - 1;
        memcpy(flag, arg, flen);
        flag[flen] = '\0';
        unsigned kind = 0;
        if (!strcmp(flag, "-c") || !strcmp(flag, "--config"))
            kind = CLI_CONFIG;
        else if (!strcmp(flag, "--format"))
            kind = CLI_FORMAT;
        else if (!strcmp(flag, "-o") || !strcmp(flag, "--output"))
            kind = CLI_OUTPUT;
        else if (!strcmp(flag, "--dot"))
            kind = CLI_DOT;
        if (!kind || !(kind & allowed)) {
            const char *near = rs_suggest(flag, flag_names, 6);
            if (kind)
                return rs_err_set(err, RS_EPARSE, "command line: option '%s' does not apply here",
                                  flag);
            if (near)
                return rs_err_set(err, RS_EPARSE, "command line: unknown option '%s' (did you mean '%s'?)",
                                  flag, near);
            return rs_err_set(err, RS_EPARSE, "command line: unknown option '%s'", flag);
        }
        if (kind == CLI_DOT) {
            a->dot = 1;
            continue;
        }
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return rs_err_set(err, RS_EPARSE, "command line: option '%s' needs a value", flag);
        if (kind == CLI_CONFIG)
            config = val;
        else if (kind == CLI_OUTPUT)
            a->output = val;
        else if ((rc = rs_format_parse(val, &a->format, err)))
            return rc;
    }
    if (config && (rc = rs_params_load_ini(&a->params, config, err)))
        return rc;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] == '-') {
            const char *eq = strchr(arg, '=');
            if (!eq && strcmp(arg, "--dot") != 0)
                i++; /* skip the flag's value */
            continue;
        }
        if (strchr(arg, '=') && (rc = rs_params_parse_arg(&a->params, arg, err)))
            return rc;
    }
    return 0;
}

void cli_args_free(struct cli_args *a)
{
    rs_params_free(&a->params);
}

int cli_fail(const struct rs_err *err)
{
    fprintf(stderr, "routesim: %s\n", err->msg[0] ? err->msg : rs_strerror(err->code));
    return rs_err_is_input(err->code) ? 2 : 1;
}

int cli_emit(const struct cli_args *a, const struct rs_record *recs, size_t n)
{
    struct rs_buf out;
    struct rs_err err;
    rs_err_clear(&err);
    rs_buf_init(&out);
    int rc = rs_records_write(&out, a->format, recs, n, &err);
    if (!rc)
        rc = rs_buf_write_file(&out, a->output, &err);
    rs_buf_free(&out);
    return rc ? cli_fail(&err) : 0;
}
