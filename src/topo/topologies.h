/* The ops structs of every topology file, listed by registry.c. */
#ifndef RS_TOPO_TOPOLOGIES_H
#define RS_TOPO_TOPOLOGIES_H

#include "routesim/net.h"

extern const struct rs_topo_ops rs_topo_butterfly;
extern const struct rs_topo_ops rs_topo_benes;
extern const struct rs_topo_ops rs_topo_mesh;
extern const struct rs_topo_ops rs_topo_torus;
extern const struct rs_topo_ops rs_topo_chain;
extern const struct rs_topo_ops rs_topo_ring;
extern const struct rs_topo_ops rs_topo_lcan, rs_topo_baseline, rs_topo_swbanyan, rs_topo_trac, rs_topo_cm5;
extern const struct rs_topo_ops rs_topo_graph;
extern const struct rs_topo_ops rs_topo_cms_lower_bound;

#endif
