/* algorithm=offline on topology=benes: the looping algorithm (benes_loop.c) gives every
 * circuit its middle row, the circuit engine locks all N circuits in one network cycle
 * (its conflicts metric checks the plan), and the switch settings are counted
 * (crossed_switches) and, with save_settings=FILE, written atomically.
 * docs/lcan-realization.md, "Beneš networks: the looping algorithm". */
#include <string.h>

#include "algo/lcan_plan.h"
#include "routesim/alloc.h"
#include "routesim/buf.h"
#include "routesim/outpath.h"

/* RS_EINVAL unless path may be written as the settings: a file name (not empty, not "-":
 * standard output carries the result) that is not an input of the run (a *_file key's
 * value or the file a key was read from); then rs_out_check. */
static int check_save_path(const struct rs_params *p, const char *path, struct rs_err *err)
{
    if (!path[0] || !strcmp(path, "-"))
        return rs_err_set(err, RS_EINVAL,
                          "save_settings needs a file name (standard output carries the "
                          "result), got '%s'",
                          path);
    for (size_t i = 0; i < p->n; i++) {
        const char *key = p->v[i].key;
        size_t len = strlen(key);
        if (len > 5 && !strcmp(key + len - 5, "_file") && rs_path_same(path, p->v[i].value))
            return rs_err_set(err, RS_EINVAL,
                              "save_settings '%s' is the same file as the input %s '%s' "
                              "(refusing to overwrite it)",
                              path, key, p->v[i].value);
        if (p->v[i].line > 0 && rs_path_same(path, p->v[i].origin))
            return rs_err_set(err, RS_EINVAL,
                              "save_settings '%s' is the same file as the input '%s' (refusing "
                              "to overwrite it)",
                              path, p->v[i].origin);
    }
    return rs_out_check(path, err);
}

/* The settings as text (docs/lcan-realization.md, "The settings file"). */
static int write_settings(const uint8_t *set, uint32_t n, const char *path, struct rs_err *err)
{
    struct rs_buf b;
    uint32_t half = 1u << (n - 1);
    rs_buf_init(&b);
    rs_buf_printf(&b,
                  "# routesim looping-algorithm settings, topology=benes N=%u: %u stages of %u "
                  "switches\n# line l = stage l (level l to l+1, row bit %s); character i = "
                  "switch i: 0 straight, 1 crossed\n",
                  1u << n, 2 * n, half, "l for l < n, else 2n-1-l");
    char *line = rs_malloc((size_t)half + 2);
    if (!line) {
        rs_buf_free(&b);
        return rs_err_set(err, RS_ENOMEM, "out of memory for the switch settings");
    }
    for (uint32_t l = 0; l < 2 * n && !b.failed; l++) {
        for (uint32_t i = 0; i < half; i++)
            line[i] = (char)('0' + set[(size_t)l * half + i]);
        line[half] = '\n';
        rs_buf_append(&b, line, (size_t)half + 1);
    }
    rs_free(line);
    int rc = rs_buf_write_file(&b, path, err);
    rs_buf_free(&b);
    return rc;
}

int rs__offline_benes(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                      const char *save, struct rs_record *out, char *deadlock_msg,
                      size_t deadlock_len, struct rs_err *err)
{
    const struct rs_net *net = in->net;
    uint32_t N = net->N, n = net->log2n, *dst = NULL, *msg = NULL;
    int rc;
    if (!rs_route_is_direct(in->routing))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "routing=%s has no effect with algorithm=offline on topology=benes: "
                          "the plan fixes every circuit's middle row",
                          in->routing->name);
    if ((rc = rs__plan_refuse_key(in, "offline", "turn",
                                  "every circuit of a Beneš network crosses the middle level",
                                  err)) ||
        (rc = rs__plan_refuse_key(in, "offline", "grouping",
                                  "a Beneš network routes every permutation in one cycle", err)) ||
        (save && (rc = check_save_path(in->params, save, err))) ||
        (rc = rs__perm_by_source(in->pb, N, "offline", &dst, &msg, err)))
        return rc;
    uint32_t *mid = rs_malloc((size_t)N * sizeof *mid), *by_msg = rs_malloc((size_t)N * sizeof *by_msg);
    uint8_t *set = rs_malloc((size_t)n * N); /* 2n stages of N/2 switches */
    if (!mid || !by_msg || !set)
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the plan of %u messages", N);
    if (!rc)
        rc = rs__benes_loop(n, dst, mid, err);
    if (!rc)
        rc = rs__benes_settings(n, dst, mid, set, err);
    if (!rc) {
        for (uint32_t s = 0; s < N; s++)
            by_msg[msg[s]] = mid[s];
        struct rs_engine_plan plan = {.mid = by_msg};
        struct rs_engine_input with = *in;
        with.plan = &plan;
        rc = rs_engine_run(engine, &with, out, deadlock_msg, deadlock_len, err);
    }
    if (!rc) {
        int64_t crossed = 0;
        for (size_t i = 0; i < (size_t)n * N; i++)
            crossed += set[i];
        if (rs_metric_int(out, RS_M_BOUND_CYCLES, 1) ||
            rs_metric_int(out, RS_M_CROSSED_SWITCHES, crossed))
            rc = rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
    }
    if (!rc && save)
        rc = write_settings(set, n, save, err);
    rs_free(set);
    rs_free(by_msg);
    rs_free(mid);
    rs_free(dst);
    rs_free(msg);
    return rc;
}
