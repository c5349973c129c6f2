/* The two input files of topology=graph (formats in docs/topologies.md, "Graph"): the
 * graph file (a `nodes N` line, then one directed edge `u v` per line) and the paths file
 * (one message per line: the node ids along its path). Every error names file:line. */
#ifndef RS_TOPO_GRAPH_FILES_H
#define RS_TOPO_GRAPH_FILES_H

#include "topo/graph_core.h"

/* Read the graph file at path into g (rs__graph_init, ports in file order). Returns 0, or
 * RS_EIO (cannot open / read), RS_EPARSE (a line that is not `nodes N` / `u v`),
 * RS_ECONSTRAINT (node out of range, self-loop, repeated edge, too many nodes or edges),
 * RS_ENOMEM; on error g is left zeroed. */
int rs__graph_read_file(struct rs__graph *g, const char *path, struct rs_err *err);

/* Read the paths file at path and append its paths to g (message m = the m-th path line).
 * Returns 0, or RS_EIO, RS_EPARSE (a token that is not a node id), RS_ECONSTRAINT (node
 * out of range, fewer than two nodes, a hop without an edge, an edge twice in one path,
 * no paths at all), RS_ENOMEM. */
int rs__paths_read_file(struct rs__graph *g, const char *path, struct rs_err *err);

#endif
