/* Internal interface of the routesim command-line tool: the subcommand table, shared
 * argument parsing (KEY=VALUE, -c FILE, --format, -o, --dot) and error reporting. Only
 * this layer prints or exits. */
#ifndef RS_CLI_H
#define RS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "routesim/error.h"
#include "routesim/outpath.h"
#include "routesim/params.h"
#include "routesim/record.h"

/* Flags a subcommand accepts besides KEY=VALUE. */
enum cli_flag {
    CLI_CONFIG = 1,
    CLI_FORMAT = 2,
    CLI_OUTPUT = 4,
    CLI_DOT = 8,
    CLI_JOBS = 16,
    CLI_PER_RUN = 32,
    CLI_RESUME = 64,
    CLI_PLOT = 128,
    CLI_QUICK = 256,
    CLI_DRY_RUN = 512,
    CLI_SAVE_TRAFFIC = 1024,
    CLI_MAN = 2048,
    CLI_SVG = 4096,
    CLI_PNG = 8192,
    CLI_QUIET = 16384,
    CLI_EVENTS = 1u << 15,         /* --events FILE (run) */
    CLI_EVENTS_MAX = 1u << 16,     /* --events-max N */
    CLI_EVENTS_PACKETS = 1u << 17, /* --events-packets LIST */
    CLI_EVENTS_NODES = 1u << 18,   /* --events-nodes LIST */
    CLI_EVENTS_STEPS = 1u << 19,   /* --events-steps LIST */
    CLI_TRACE = 1u << 20,          /* --trace F.html (run): the browser view */
    CLI_TRACE_LIMIT = 1u << 21,    /* --trace-limit NODES */
    CLI_DIGITS = 1u << 22          /* --digits 9|exact */
};

/* One option's help: its kind, names ("-c, --config"), value placeholder (NULL: none) and
 * meaning; cli_flag_helps ends with an entry of kind 0. */
struct cli_flag_help {
    unsigned kind;
    const char *names, *arg, *help;
};
extern const struct cli_flag_help cli_flag_helps[];

struct cli_args {
    struct rs_params params; /* INI file first, then KEY=VALUE arguments over it */
    enum rs_format format;   /* --format (default table) */
    const char *output;      /* -o FILE, NULL = stdout */
    int dot;                 /* --dot */
    const char *config;      /* -c FILE */
    int jobs;                /* --jobs N (0 = all cores) */
    const char *per_run;     /* --per-run FILE */
    int resume;              /* --resume */
    const char *plot;        /* --plot FILE.png|FILE.svg */
    int quick;               /* --quick */
    int dry_run;             /* --dry-run */
    const char *positional;  /* one bare word (help TOPIC), NULL if none */
    const char *save_traffic; /* --save-traffic FILE (run, analyze), NULL if none */
    int man;                 /* --man (help): roff instead of text */
    const char *svg;         /* --svg FILE (topo): a picture, NULL if none */
    const char *png;         /* --png FILE (topo): a picture, NULL if none */
    int quiet;               /* --quiet: no progress on stderr */
    const char *events;      /* --events FILE (run): the per-packet event log, NULL if none */
    const char *events_max, *events_packets, *events_nodes, *events_steps; /* its options */
    const char *trace;       /* --trace F.html (run): the browser view, NULL if none */
    const char *trace_limit; /* --trace-limit NODES, NULL: the default */
    enum rs_digits digits;   /* --digits 9|exact (default 9) */
};

/* Parse argv[0..argc) (after the subcommand name) accepting the flags in allowed and, when
 * allow_positional, one bare word. Returns 0 or RS_E... with err set; a->params must be
 * released with cli_args_free either way. */
int cli_parse(int argc, char **argv, unsigned allowed, int allow_positional, struct cli_args *a,
              struct rs_err *err);
void cli_args_free(struct cli_args *a);

/* Before anything is written: every output in outs[0..n) (NULL paths skipped) must be
 * writable where it is (rs_out_check: not a directory, its folder exists) and be neither
 * an input (-c FILE, the file named by any *_file key) nor another output of outs.
 * Returns 0 or RS_E... with err set (bad input: exit 2). */
int cli_check_outputs(const struct cli_args *a, const struct rs_named_path *outs, size_t n,
                      struct rs_err *err);

/* Print "routesim: MESSAGE" on stderr and return the exit status for err (2 for bad input
 * or usage, 3 for a resource error: out of memory or refused by an estimate, 1 for any
 * other failure while running). */
int cli_fail(const struct rs_err *err);

struct rs_sweep_remote;
/* Run a command that works under mpirun: join the MPI job (one rank when not started by
 * mpirun or built without MPI), rank 0 runs rank0 with the remote that hands runs to the
 * other ranks (NULL with one rank), the other ranks serve runs until rank 0 ends them.
 * Returns rank0's exit status on rank 0; a failure to join prints one line on rank 0 and
 * returns its status (1 elsewhere). */
int cli_mpi_main(int argc, char **argv,
                 int (*rank0)(int argc, char **argv, const struct rs_sweep_remote *remote));

struct cli_command;

/* `routesim CMD --help` (and `help CMD`): the command's usage, summary and options on
 * standard output. Returns 0, or an exit status when writing failed. */
int cli_command_help(const struct cli_command *c);

/* Print "routesim: TEXT" on stderr, TEXT escaped as error messages are (rs_err_escape):
 * a notice or warning that quotes input stays one line. */
void cli_notice(const char *text);

/* Write records in a->format to a->output (rs_buf_write_file: atomically, through, or
 * stdout). Returns an exit status. */
int cli_emit(const struct cli_args *a, const struct rs_record *recs, size_t n);

struct cli_command {
    const char *name;
    const char *usage;   /* argument synopsis */
    const char *summary; /* one line */
    unsigned flags;      /* the options it takes (enum cli_flag), for its help */
    int (*main)(int argc, char **argv);
};

extern const struct cli_command cli_commands[];

/* Keys of `topo` itself (dot_limit), besides the network's (cmd_topo.c). */
extern const struct rs_optdef cli_topo_options[];

int cli_cmd_run(int argc, char **argv);
int cli_cmd_analyze(int argc, char **argv);
int cli_cmd_list(int argc, char **argv);
int cli_cmd_help(int argc, char **argv);
int cli_cmd_topo(int argc, char **argv);
int cli_cmd_events(int argc, char **argv);

struct rs_events;
/* The event log a's --events options ask for (cmd_events.c): *ev NULL without --events and
 * --trace (whose view replays the log; the --events-* filters apply to it too).
 * Returns 0 or RS_E... with err set (bad options: exit 2). */
int cli_events_open(const struct cli_args *a, struct rs_events **ev, struct rs_err *err);

struct rs_record;
struct rs_net;
/* The browser view (trace_html.c, docs/trace.md). cli_trace_check: 0 when net has at most
 * max_nodes nodes, else RS_ERESOURCE naming --trace-limit (checked before the run).
 * cli_trace_html: write the page of a finished run to path (atomically, as every output):
 * net drawn by Graphviz as `topo --svg` draws it, ev's records (NULL: none), rec's metrics,
 * the deadlock line (NULL or "" if none) and its cycle as n_cycle channels (tail node,
 * head node), NULL if unknown. Returns 0, RS_EIO (Graphviz missing or failing), RS_ENOMEM
 * or a write error. */
int cli_trace_check(const struct rs_net *net, uint64_t max_nodes, struct rs_err *err);
int cli_trace_html(const struct rs_net *net, const struct rs_events *ev,
                   const struct rs_record *rec, const char *deadlock,
                   const uint32_t (*cycle)[2], size_t n_cycle, const char *path,
                   struct rs_err *err);
/* Write ev to a->events (binary when the name ends in .bin, else CSV) and print a notice
 * when the size guard truncated it. Returns 0 or RS_E... with err set. */
int cli_events_write(const struct cli_args *a, const struct rs_events *ev, struct rs_err *err);

/* Progress of one run on a terminal (progress.c): the driver's callback for
 * rs_run_followed (user: a struct cli_run_progress set up by cli_run_progress_init), the
 * line cleared by cli_run_progress_end. cli_seconds_since: seconds since t0 (monotonic). */
struct cli_run_progress {
    struct timespec start;
    double next_show;         /* seconds after start of the next redraw */
    uint64_t first_remaining; /* messages left at the first report (batch runs) */
    int shown;
};
double cli_seconds_since(const struct timespec *t0);
void cli_run_progress_init(struct cli_run_progress *pr);
int cli_run_progress(void *user, uint32_t step, uint64_t remaining);
void cli_run_progress_end(const struct cli_run_progress *pr);

struct rs_net;
/* Draw net with Graphviz into path ("-" or NULL: standard output) as format ("svg" or
 * "png"): `neato -n` on grids (pinned positions), `dot` otherwise, written as every output
 * is (a temporary file renamed over the target). Refused (RS_ERESOURCE, nothing run) above
 * max_nodes nodes; RS_EIO when Graphviz is missing or fails (its last error line). */
int cli_picture(const struct rs_net *net, const char *path, const char *format,
                uint64_t max_nodes, struct rs_err *err);
/* cli_picture with the channels marked[0..n_marked) (ids node * max_ports + port) drawn
 * red and thick and their end nodes filled (rs_net_write_dot_marked): a deadlock's cycle. */
int cli_picture_marked(const struct rs_net *net, const char *path, const char *format,
                       uint64_t max_nodes, const uint64_t *marked, size_t n_marked,
                       struct rs_err *err);
/* 0 when net has at most max_nodes nodes, else RS_ERESOURCE (the refusal of cli_picture). */
int cli_picture_check(const struct rs_net *net, uint64_t max_nodes, struct rs_err *err);
/* The node limit of `run --svg/--png` (topo's picture_limit default). */
#define CLI_RUN_PICTURE_LIMIT 2000
int cli_cmd_sweep(int argc, char **argv);
int cli_cmd_reproduce(int argc, char **argv);
int cli_cmd_convert(int argc, char **argv);
int cli_cmd_saturate(int argc, char **argv);
int cli_cmd_merge(int argc, char **argv);

#endif
