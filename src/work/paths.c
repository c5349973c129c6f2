/* traffic=paths: the message set is the explicit paths the network carries (topology=graph
 * with paths_file, topology=cms_lower_bound): message m starts at the first node of path
 * m and is delivered at its last node (every node of these networks is a terminal). */
#include <stdlib.h>

#include "routesim/alloc.h"
#include "routesim/msg_paths.h"
#include "routesim/problem.h"

static const struct rs_optdef paths_options[] = {{NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* Fill pb from net->paths: src[m], dst[m] the ends of path m; per_input the largest
 * number of paths starting at one node. Errors: RS_EUNSUPPORTED when the network carries
 * no paths or per_input is given with another value than that (the paths decide how many
 * messages a terminal sends; the value itself is accepted, so that a run's recorded
 * parameters, per_input included, run again: the worst instance of a claim). */
static int paths_build(struct rs_problem *pb, const struct rs_net *net,
                       const struct rs_params *p, uint64_t seed, struct rs_err *err)
{
    const struct rs_msg_paths *mp = net->paths;
    if (!mp)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "traffic=paths needs a network that carries message paths: "
                          "topology=graph with paths_file=PATH, or topology=cms_lower_bound "
                          "(got topology=%s without paths)",
                          net->name);
    const struct rs_param *given = rs_params_find(p, "per_input");
    uint64_t n = mp->n_msgs;
    uint32_t *count = rs_calloc(net->n_terminals, sizeof *count);
    pb->dst = rs_malloc((size_t)n * sizeof *pb->dst);
    pb->src = rs_malloc((size_t)n * sizeof *pb->src);
    if (!count || !pb->dst || !pb->src) {
        rs_free(count);
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu messages",
                          (unsigned long long)n);
    }
    uint32_t most = 1;
    for (uint64_t m = 0; m < n; m++) {
        pb->src[m] = mp->start[m];
        pb->dst[m] = rs_msg_paths_end(mp, m);
        if (++count[pb->src[m]] > most)
            most = count[pb->src[m]];
    }
    rs_free(count);
    if (given) {
        char *end;
        unsigned long long v = strtoull(given->value, &end, 10);
        if (*end || end == given->value || v != most) {
            rs_free(pb->dst);
            rs_free(pb->src);
            pb->dst = pb->src = NULL;
            return rs_err_set(err, RS_EUNSUPPORTED,
                              "per_input does not apply to traffic=paths (one message per "
                              "path; these paths give per_input=%u, got %s)",
                              most, given->value);
        }
    }
    pb->n_terminals = net->n_terminals;
    pb->per_input = most;
    pb->n_msgs = n;
    return 0;
}

const struct rs_traffic_ops rs__traffic_paths = {
    .name = "paths",
    .summary = "one message per explicit path of the network (topology=graph with paths_file, "
               "cms_lower_bound)",
    .options = paths_options,
    .generate = NULL,
    .build = paths_build,
};
