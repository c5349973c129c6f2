/* routesim command-line entry point: dispatch to a subcommand. The only place that exits. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "mpi/rs_mpi.h"
#include "routesim/version.h"

const struct cli_command cli_commands[] = {
    /* usage: the operands (and --shard, parsed by sweep itself); the options of flags are
     * appended from cli_flag_helps by cli_usage */
    {"run", "KEY=VALUE...", "simulate one parameter set and print its metrics",
     CLI_CONFIG | CLI_FORMAT | CLI_DIGITS | CLI_OUTPUT | CLI_SAVE_TRAFFIC | CLI_SVG | CLI_PNG |
         CLI_QUIET | CLI_EVENTS | CLI_EVENTS_MAX | CLI_EVENTS_PACKETS | CLI_EVENTS_NODES |
         CLI_EVENTS_STEPS | CLI_TRACE | CLI_TRACE_LIMIT,
     cli_cmd_run},
    {"analyze", "KEY=VALUE...", "congestion, dilation and per-level load without simulating",
     CLI_CONFIG | CLI_FORMAT | CLI_OUTPUT | CLI_SAVE_TRAFFIC, cli_cmd_analyze},
    {"sweep", "-c FILE.ini [-o FILE.csv] [--shard I/N]",
     "run an experiment grid with replications; statistics per point",
     CLI_CONFIG | CLI_OUTPUT | CLI_FORMAT | CLI_DIGITS | CLI_JOBS | CLI_PER_RUN | CLI_RESUME |
         CLI_PLOT | CLI_QUIET,
     cli_cmd_sweep},
    {"merge", "-c FILE.ini -o OUT.csv PART.csv...",
     "join the files of a sweep's shards (--shard I/N) into the whole sweep's file",
     CLI_CONFIG | CLI_OUTPUT, cli_cmd_merge},
    {"reproduce", "NAME|all [--out DIR]",
     "run a paper's shipped experiments and judge its claims (REPORT.md)",
     CLI_OUTPUT | CLI_JOBS | CLI_QUICK | CLI_RESUME | CLI_DRY_RUN, cli_cmd_reproduce},
    {"topo", "KEY=VALUE...",
     "build a network; print its size or its Graphviz description, or draw it (SVG, PNG)",
     CLI_CONFIG | CLI_FORMAT | CLI_OUTPUT | CLI_DOT | CLI_SVG | CLI_PNG, cli_cmd_topo},
    {"convert", "FILE [KEY=VALUE...]", "print a configuration file (BookSim's too) as routesim INI",
     CLI_OUTPUT, cli_cmd_convert},
    {"events", "FILE.bin", "print a binary event log (run --events FILE.bin) as CSV", CLI_OUTPUT,
     cli_cmd_events},
    {"saturate", "KEY=VALUE...",
     "find the saturation throughput by bisection on the offered load (keys: routesim help "
     "saturate)",
     CLI_CONFIG | CLI_FORMAT | CLI_OUTPUT, cli_cmd_saturate},
    {"list", "[metrics|keys]",
     "every topology, workload and switching model with its keys, and every metric",
     0, cli_cmd_list},
    {"help", "[TOPIC]", "usage, or the help of one command, key, metric, topology, workload, model or algorithm",
     CLI_MAN, cli_cmd_help},
    {NULL, NULL, NULL, 0, NULL}};

int main(int argc, char **argv)
{
    rs_mpi_reexec(argv); /* under mpirun -np P > 1: routesim-mpi, when built */
    if (argc < 2) {
        char *none[] = {NULL};
        cli_cmd_help(0, none);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
        return cli_cmd_help(argc - 2, argv + 2);
    if (!strcmp(cmd, "--version")) {
        printf("routesim %s (%s)\n", rs_version(), rs_commit());
        return 0;
    }
    const char *names[16];
    int n = 0;
    for (int i = 0; cli_commands[i].name; i++) {
        names[n++] = cli_commands[i].name;
        if (strcmp(cmd, cli_commands[i].name))
            continue;
        for (int j = 2; j < argc; j++) /* CMD --help: its help, exit 0 */
            if (!strcmp(argv[j], "--help") || !strcmp(argv[j], "-h"))
                return cli_command_help(&cli_commands[i]);
        return cli_commands[i].main(argc - 2, argv + 2);
    }
    const char *near = rs_suggest(cmd, names, n);
    struct rs_err err;
    if (near)
        rs_err_set(&err, RS_EUNKNOWN, "unknown command '%s' (did you mean '%s'?)", cmd, near);
    else
        rs_err_set(&err, RS_EUNKNOWN, "unknown command '%s' (try `routesim help`)", cmd);
    return cli_fail(&err);
}
