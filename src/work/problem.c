/* Workloads: the traffic registry, the options common to every workload (traffic,
 * per_input) and rs_problem_build, which sizes the message set and lets the chosen
 * traffic fill in the destinations. Each traffic lives in its own file of src/work. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/problem.h"

/* Every traffic, in `routesim list` order. The X-macro yields the registry, the CHOICE
 * list of the `traffic` key and the declarations of the ops structs defined in
 * random.c, digits.c, bitperm.c, linear.c, omega.c, root.c, file.c, paths.c and pattern_ops.c
 * (among others), so that the
 * three cannot drift
 * apart; the registry test checks that each ops->name equals its entry here. */
#define RS__TRAFFIC_LIST(X)                                                    \
    X(uniform)                                                                 \
    X(randperm)                                                                \
    X(qrelation)                                                               \
    X(identity)                                                                \
    X(bitrev)                                                                  \
    X(shuffle)                                                                 \
    X(bitcomp)                                                                 \
    X(bpc)                                                                     \
    X(inverse_omega)                                                           \
    X(linear)                                                                  \
    X(root)                                                                    \
    X(transpose)                                                               \
    X(tornado)                                                                 \
    X(neighbor)                                                                \
    X(file)                                                                    \
    X(paths)                                                                   \
    X(subtree_cross)                                                           \
    X(mot_expander)                                                            \
    X(hard_permutation)                                                       \
    X(many_to_one)                                                             \
    X(one_to_many)                                                             \
    X(group_shift)                                                             \
    X(hotspot)                                                                 \
    X(diagonal)                                                                \
    X(asymmetric)                                                              \
    X(mix)                                                                     \
    X(trace)

#define RS__TRAFFIC_DECL(name) extern const struct rs_traffic_ops rs__traffic_##name;
RS__TRAFFIC_LIST(RS__TRAFFIC_DECL)
#undef RS__TRAFFIC_DECL

#define RS__TRAFFIC_PTR(name) &rs__traffic_##name,
const struct rs_traffic_ops *const rs_traffics[] = {RS__TRAFFIC_LIST(RS__TRAFFIC_PTR) NULL};
#undef RS__TRAFFIC_PTR

#define RS__TRAFFIC_NAME(name) #name,
static const char *const traffic_names[] = {RS__TRAFFIC_LIST(RS__TRAFFIC_NAME) NULL};
#undef RS__TRAFFIC_NAME

/* Largest per_input accepted (2^20). */
#define RS__PER_INPUT_MAX 1048576.0

const struct rs_optdef rs_problem_options[] = {
    {"traffic", RS_OPT_CHOICE, "uniform", 0, 0, traffic_names,
     "workload: destinations of the messages", "-"},
    {"per_input", RS_OPT_INT, "1", 1, RS__PER_INPUT_MAX, NULL,
     "messages per source terminal (q)", "messages"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL},
};

const struct rs_traffic_ops *rs_traffic_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (int i = 0; rs_traffics[i] != NULL; i++)
        if (strcmp(rs_traffics[i]->name, name) == 0)
            return rs_traffics[i];
    return NULL;
}

int rs_problem_build(struct rs_problem *pb, const struct rs_net *net, const struct rs_params *p,
                     uint64_t seed, struct rs_err *err)
{
    RS_ASSERT(pb != NULL && net != NULL && p != NULL);
    memset(pb, 0, sizeof *pb);

    int idx = 0;
    int rc = rs_opt_choice(p, rs_problem_options, "traffic", &idx, err);
    if (rc != 0)
        return rc;
    int64_t q = 0;
    rc = rs_opt_int(p, rs_problem_options, "per_input", &q, err);
    if (rc != 0)
        return rc;
    const struct rs_traffic_ops *ops = rs_traffics[idx];
    if (net->paths && ops != &rs__traffic_paths)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "topology=%s gives its messages as explicit paths: use traffic=paths "
                          "(got traffic=%s)",
                          net->name, ops->name);
    if (ops->build) {
        rc = ops->build(pb, net, p, seed, err);
        if (rc != 0)
            rs_problem_free(pb);
        else /* build fills pb completely: messages between the net's terminals */
            for (uint64_t m = 0; m < pb->n_msgs; m++)
                RS_ASSERT(pb->dst[m] < pb->n_terminals &&
                          rs_problem_src(pb, m) < pb->n_terminals);
        return rc;
    }

    uint64_t n = net->n_terminals;
    if (n == 0)
        return rs_err_set(err, RS_EINVARIANT, "traffic=%s: the network has no terminals",
                          ops->name);
    uint64_t total = n * (uint64_t)q;
    if (total >= ((uint64_t)1 << 32))
        return rs_err_set(err, RS_ECONSTRAINT,
                          "N x per_input must be below 2^32 (got N=%llu x per_input=%lld)",
                          (unsigned long long)n, (long long)q);

    uint32_t *dst = rs_malloc((size_t)total * sizeof *dst);
    if (dst == NULL)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu messages",
                          (unsigned long long)total);
    rc = ops->generate(net, p, seed, (uint32_t)q, dst, err);
    if (rc != 0) {
        rs_free(dst);
        return rc;
    }
    /* generate's contract: a destination terminal for every message */
    for (uint64_t m = 0; m < total; m++)
        RS_ASSERT(dst[m] < n);
    pb->n_terminals = (uint32_t)n;
    pb->per_input = (uint32_t)q;
    pb->n_msgs = total;
    pb->dst = dst;
    return 0;
}

void rs_problem_free(struct rs_problem *pb)
{
    if (pb == NULL)
        return;
    rs_free(pb->dst);
    rs_free(pb->src);
    memset(pb, 0, sizeof *pb);
}
