/* rs_api_exec and rs_api_sweep: routesim's run, analyze, topo and sweep from a configuration
 * file and KEY=VALUE strings, for bindings (python/routesim) and C programs; the rows come
 * back as typed records behind accessor functions, so a binding needs no struct layout. */
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/api.h"
#include "routesim/booksim_config.h"
#include "routesim/grid.h"
#include "routesim/run.h"
#include "routesim/sweep.h"

struct rs_api_table {
    struct rs_record *recs;
    size_t n;
    char message[2048]; /* a deadlocked run's waiting cycle */
};

/* p from config (NULL: none; "-": standard input) and then args, checked as the command
 * line's KEY=VALUE arguments are: no dotted key, no key twice among args. */
static int load_params(struct rs_params *p, const char *config, const char *const *args,
                       size_t n_args, struct rs_err *err)
{
    int rc = 0;
    if (config && !strcmp(config, "-"))
        rc = rs_params_load_stdin(p, err);
    else if (config)
        rc = rs_params_load_config(p, config, err);
    for (size_t i = 0; i < n_args && !rc; i++) {
        const char *eq = strchr(args[i], '=');
        if (!eq || eq == args[i])
            return rs_err_set(err, RS_EPARSE, "arguments: expected KEY=VALUE, got '%s'",
                              args[i]);
        size_t klen = (size_t)(eq - args[i]);
        if (memchr(args[i], '.', klen))
            return rs_err_set(err, RS_EPARSE,
                              "arguments: key '%.*s' contains a dot (a key of a section is "
                              "written under its [section] header in an INI file)",
                              (int)klen, args[i]);
        for (size_t j = 0; j < i; j++)
            if (!strncmp(args[j], args[i], klen + 1))
                return rs_err_set(err, RS_EINVAL, "arguments: key '%.*s' given twice (%s, %s)",
                                  (int)klen, args[i], args[j], args[i]);
        rc = rs_params_parse_arg(p, args[i], err);
    }
    return rc;
}

/* topo: the network keys only (rs_net_options and the topology's), then its size. */
static int topo(struct rs_api_table *t, const struct rs_params *p, struct rs_err *err)
{
    int i, rc;
    struct rs_net net;
    memset(&net, 0, sizeof net);
    if ((rc = rs_opt_choice(p, rs_net_options, "topology", &i, err)))
        return rc;
    const struct rs_optdef *tables[2] = {rs_net_options, rs_topologies[i]->options};
    if ((rc = rs_params_check_known(p, tables, 2, err)) || (rc = rs_net_build(&net, p, err)))
        return rc;
    if ((rc = rs_topo_records(&net, &t->recs, &t->n)))
        rs_err_set(err, rc, "out of memory");
    rs_net_free(&net);
    return rc;
}

int rs_api_exec(const char *command, const char *config, const char *const *args,
                size_t n_args, struct rs_api_table **out, struct rs_err *err)
{
    *out = NULL;
    int run = !strcmp(command, "run"), analyze = !strcmp(command, "analyze");
    if (!run && !analyze && strcmp(command, "topo"))
        return rs_err_set(err, RS_EUNKNOWN, "unknown command '%s' (expected run, analyze or "
                          "topo)", command);
    struct rs_api_table *t = rs_calloc(1, sizeof *t);
    if (!t)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    struct rs_params p;
    rs_params_init(&p);
    int rc = load_params(&p, config, args, n_args, err);
    if (!rc && (run || analyze)) {
        if (!(t->recs = rs_calloc(1, sizeof *t->recs))) {
            rc = rs_err_set(err, RS_ENOMEM, "out of memory");
        } else {
            t->n = 1;
            rs_record_init(&t->recs[0]);
            rc = run ? rs_run(&p, &t->recs[0], t->message, sizeof t->message, err)
                     : rs_analyze(&p, &t->recs[0], err);
        }
    } else if (!rc) {
        rc = topo(t, &p, err);
    }
    rs_params_free(&p);
    if (rc) {
        rs_api_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

int rs_api_sweep(const char *config, const char *const *args, size_t n_args, int jobs,
                 const char *out_path, const char *per_run_path, uint64_t *points_out,
                 struct rs_err *err)
{
    struct rs_params p;
    struct rs_grid g;
    memset(&g, 0, sizeof g);
    rs_params_init(&p);
    int rc = config ? load_params(&p, config, args, n_args, err)
                    : rs_err_set(err, RS_EINVAL, "a sweep needs an INI file");
    if (!rc)
        rc = rs_grid_build(&g, &p, err);
    struct rs_sweep_result res;
    memset(&res, 0, sizeof res);
    if (!rc) {
        struct rs_sweep_opts o;
        memset(&o, 0, sizeof o);
        o.out_path = out_path;
        o.per_run_path = per_run_path;
        o.jobs = jobs;
        rc = rs_sweep_run(&g, &o, &res, err);
    }
    if (points_out)
        *points_out = res.written;
    rs_grid_free(&g);
    rs_params_free(&p);
    return rc;
}

size_t rs_api_rows(const struct rs_api_table *t)
{
    return t->n;
}

size_t rs_api_fields(const struct rs_api_table *t, size_t r)
{
    return t->recs[r].n;
}

size_t rs_api_params(const struct rs_api_table *t, size_t r)
{
    return t->recs[r].n_params;
}

const char *rs_api_name(const struct rs_api_table *t, size_t r, size_t i)
{
    return t->recs[r].f[i].name;
}

int rs_api_type(const struct rs_api_table *t, size_t r, size_t i)
{
    return (int)t->recs[r].f[i].type;
}

int64_t rs_api_int(const struct rs_api_table *t, size_t r, size_t i)
{
    return t->recs[r].f[i].i;
}

double rs_api_double(const struct rs_api_table *t, size_t r, size_t i)
{
    return t->recs[r].f[i].d;
}

const char *rs_api_string(const struct rs_api_table *t, size_t r, size_t i)
{
    return t->recs[r].f[i].s ? t->recs[r].f[i].s : "";
}

const char *rs_api_message(const struct rs_api_table *t)
{
    return t->message;
}

void rs_api_free(struct rs_api_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        rs_record_free(&t->recs[i]);
    rs_free(t->recs);
    rs_free(t);
}

int rs_api_exit_status(int code)
{
    if (!code)
        return 0;
    if (rs_err_is_resource(code))
        return 3;
    return rs_err_is_input(code) ? 2 : 1;
}
