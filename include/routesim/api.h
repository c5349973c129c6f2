/* A small entry point for bindings (the Python module, python/routesim) and C programs that
 * want routesim's commands without its option parsing: run, analyze or topo from a
 * configuration file and KEY=VALUE strings, returning typed result rows; a sweep from an
 * INI file into CSV files. Errors are values, as everywhere (error.h). */
#ifndef ROUTESIM_API_H
#define ROUTESIM_API_H

#include <stddef.h>
#include <stdint.h>

#include "routesim/error.h"
#include "routesim/net.h"
#include "routesim/params.h"
#include "routesim/record.h"

/* Result rows of rs_api_exec: records of typed fields (record.h), owned by the table. */
struct rs_api_table;

/* Run command ("run", "analyze" or "topo") on the parameters of the INI or BookSim file
 * config (NULL: none; "-" reads standard input) overridden by args[0..n_args), each
 * "KEY=VALUE" as on the command line (a key given twice, or containing a dot, is RS_EPARSE /
 * RS_EINVAL as there). run and analyze give one row (the parameters, then the metrics:
 * rs_run, rs_analyze); topo gives the network's size, or one row per level of a fat-tree's
 * view (rs_topo_records). A run that deadlocks succeeds with deadlock=1 and the waiting
 * cycle in rs_api_message. *out (set to NULL on error) is released with rs_api_free.
 * Returns 0 or RS_E... with err set (one line). */
int rs_api_exec(const char *command, const char *config, const char *const *args,
                size_t n_args, struct rs_api_table **out, struct rs_err *err);

/* Run the sweep of INI file config overridden by args[0..n_args) ("KEY=VALUE"), with jobs
 * threads (0 = one per core), writing statistics per point to out_path and, when
 * per_run_path is not NULL, one row per run (rs_sweep_run; an existing out_path is
 * replaced). *points_out (may be NULL) gets the points written. Returns 0 or RS_E... */
int rs_api_sweep(const char *config, const char *const *args, size_t n_args, int jobs,
                 const char *out_path, const char *per_run_path, uint64_t *points_out,
                 struct rs_err *err);

/* Rows of t; fields of row r; the number of them that are parameters (the rest are
 * metrics; 0 when unknown, as for topo). */
size_t rs_api_rows(const struct rs_api_table *t);
size_t rs_api_fields(const struct rs_api_table *t, size_t r);
size_t rs_api_params(const struct rs_api_table *t, size_t r);

/* Field i of row r (both in range: a contract): its name, type (enum rs_val_type) and
 * value of that type (a string field's text is owned by t). */
const char *rs_api_name(const struct rs_api_table *t, size_t r, size_t i);
int rs_api_type(const struct rs_api_table *t, size_t r, size_t i);
int64_t rs_api_int(const struct rs_api_table *t, size_t r, size_t i);
double rs_api_double(const struct rs_api_table *t, size_t r, size_t i);
const char *rs_api_string(const struct rs_api_table *t, size_t r, size_t i);

/* The waiting cycle of a deadlocked run ("" when none). */
const char *rs_api_message(const struct rs_api_table *t);

/* Release t; NULL is allowed. */
void rs_api_free(struct rs_api_table *t);

/* The exit status the routesim command gives for error code code: 0 (no error), 2 (bad
 * input), 3 (a resource limit) or 1 (a failure while running). */
int rs_api_exit_status(int code);

/* Load a configuration (INI or BookSim, as rs_params_load_config) from standard input, as
 * `-c -` does: the text is copied to a temporary file in $TMPDIR (or /tmp), loaded and the
 * file removed; messages and the parameters' origins name it "<stdin>". Returns 0 or
 * RS_E... with err set. */
int rs_params_load_stdin(struct rs_params *p, struct rs_err *err);

/* The size of the built network net as records: one record (topology, nodes, channels,
 * max_ports, terminals, levels), or for a fat-tree and the sorting fat-tree one per level
 * of its fat-tree view, root first, each with that level's tree_level, node_height,
 * tree_nodes and the level's widths (capacity and wires, in wires). *recs (initialised here,
 * freed with rs_record_free each and rs_free) holds *n of them. Returns 0 or RS_ENOMEM. */
int rs_topo_records(const struct rs_net *net, struct rs_record **recs, size_t *n);

#endif
