/* Fuzzing harness of the command-line parser (src/cli/args.c, libFuzzer entry point). The
 * first byte picks a subcommand's accepted options (run, topo, sweep, reproduce, help,
 * list); the rest is the arguments, one per line. A -c value is replaced by a fixed private
 * INI file, so the parse never reads anything else. A successful parse is then checked as
 * the subcommand would check its outputs (cli_check_outputs: stat and access only, nothing
 * written). Built with libFuzzer by -DRS_FUZZ=ON (clang); replayed over
 * tests/fuzz/corpus_cli by every `make test` (replay.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

static const struct {
    unsigned allowed;
    int positional;
} commands[] = {
    {CLI_CONFIG | CLI_FORMAT | CLI_OUTPUT, 0},                                         /* run */
    {CLI_CONFIG | CLI_FORMAT | CLI_OUTPUT | CLI_DOT, 0},                               /* topo */
    {CLI_CONFIG | CLI_OUTPUT | CLI_JOBS | CLI_PER_RUN | CLI_RESUME | CLI_PLOT, 0},     /* sweep */
    {CLI_OUTPUT | CLI_JOBS | CLI_QUICK | CLI_RESUME | CLI_DRY_RUN, 1},                 /* reproduce */
    {0, 1},                                                                            /* help */
    {0, 0},                                                                            /* list */
};

static char path[64];

static void remove_ini(void)
{
    unlink(path);
}

/* The private INI every -c points at: a section, a key the command line may override
 * (removed at exit). */
static const char *ini_file(void)
{
    if (!path[0]) {
        atexit(remove_ini);
        snprintf(path, sizeof path, "/tmp/rs_fuzz_cli_%ld.ini", (long)getpid());
        FILE *f = fopen(path, "w");
        if (!f)
            return NULL;
        fputs("topology = butterfly\nN = 8\ntraffic_file = /tmp/rs_fuzz_cli_in.txt\n[plot]\n"
              "x = N\n", f);
        fclose(f);
    }
    return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int cmd = data[0] % (int)(sizeof commands / sizeof *commands);
    char *text = malloc(size);
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    const char *ini = ini_file();
    if (!text || !ini) {
        free(text);
        return 0;
    }
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    for (char *arg = text, *next; arg && argc < MAX_ARGS; arg = next) {
        next = strchr(arg, '\n');
        if (next)
            *next++ = '\0';
        argv[argc++] = arg;
    }
    argv[argc] = NULL;
    /* every -c / --config value becomes the private INI */
    for (int i = 0; i < argc; i++) {
        int is_c = !strcmp(argv[i], "-c") || !strcmp(argv[i], "--config");
        if (is_c && i + 1 < argc)
            argv[++i] = (char *)ini;
        else if (!strncmp(argv[i], "-c=", 3) || !strncmp(argv[i], "--config=", 9))
            argv[i] = (char *)"-c=/tmp/rs_fuzz_cli_missing.ini";
    }
    struct cli_args a;
    struct rs_err err;
    rs_err_clear(&err);
    int rc = cli_parse(argc, argv, commands[cmd].allowed, commands[cmd].positional, &a, &err);
    if (rc && (!err.msg[0] || (!rs_err_is_input(rc) && rc != RS_ENOMEM)))
        abort(); /* a parse error always has a message and means bad input (exit 2) */
    if (!rc) {
        struct rs_named_path outs[3] = {{"-o", a.output}, {"--per-run", a.per_run},
                                        {"--plot", a.plot}};
        rs_err_clear(&err);
        rc = cli_check_outputs(&a, outs, 3, &err);
        if (rc && !err.msg[0])
            abort();
    }
    cli_args_free(&a);
    free(text);
    return 0;
}
