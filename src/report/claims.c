/* Claim checks on sweep statistics (see claims.h): the keys every claim has, checking a
 * claim's keys against its kind, filtering and grouping of rows, the statement, and one
 * verdict line per group from the kind's judge (the kinds are claim_*.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/claim.h"
#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/claims.h"
#include "routesim/metrics.h"

#define STATEMENT_HELP "continuation of statement (INI lines are limited in length)"

const struct rs_optdef rs__claim_common_options[] = {
    {"kind", RS_OPT_STRING, NULL, 0, 0, NULL,
     "what is judged and how (one of the kinds listed here)", "-"},
    {"statement", RS_OPT_STRING, NULL, 0, 0, NULL,
     "the paper's words with the section, quoted in the report", "-"},
    {"statement2", RS_OPT_STRING, NULL, 0, 0, NULL, STATEMENT_HELP, "-"},
    {"statement3", RS_OPT_STRING, NULL, 0, 0, NULL, STATEMENT_HELP, "-"},
    {"statement4", RS_OPT_STRING, NULL, 0, 0, NULL, STATEMENT_HELP, "-"},
    {"statement5", RS_OPT_STRING, NULL, 0, 0, NULL, STATEMENT_HELP, "-"},
    {"statement6", RS_OPT_STRING, NULL, 0, 0, NULL, STATEMENT_HELP, "-"},
    {"statement7", RS_OPT_STRING, NULL, 0, 0, NULL, STATEMENT_HELP, "-"},
    {"statement8", RS_OPT_STRING, NULL, 0, 0, NULL, STATEMENT_HELP, "-"},
    {"statement9", RS_OPT_STRING, NULL, 0, 0, NULL, STATEMENT_HELP, "-"},
    {"experiment", RS_OPT_STRING, NULL, 0, 0, NULL,
     "the sweep whose statistics (<experiment>.csv) are judged", "-"},
    {"metric", RS_OPT_STRING, "makespan", 0, 0, NULL,
     "the measured metric: columns <metric>_mean, _var, _sd, _min, _max, _ci95", "-"},
    {"filter", RS_OPT_STRING, NULL, 0, 0, NULL, "KEY=VALUE;KEY=VALUE: only the rows with these values",
     "-"},
    {"group", RS_OPT_STRING, NULL, 0, 0, NULL,
     "comma list of columns: one verdict per combination of their values", "-"},
    {"deterministic", RS_OPT_BOOL, "0", 0, 0, NULL,
     "1: the experiment's points do not vary between runs (no random choice): judged on the "
     "exact values, without intervals (detected anyway when every row's replications agree)", "-"},
    {NULL, RS_OPT_STRING, NULL, 0, 0, NULL, NULL, NULL},
};

static const char *verdict_text(int v)
{
    return v == RS_VERDICT_HOLDS     ? "holds"
           : v == RS_VERDICT_FAILS   ? "does not hold"
           : v == RS_VERDICT_VACUOUS ? "vacuous"
                                     : "inconclusive";
}

static void count(struct rs_claim_outcome *o, int v)
{
    if (v == RS_VERDICT_HOLDS)
        o->holds++;
    else if (v == RS_VERDICT_FAILS)
        o->fails++;
    else if (v == RS_VERDICT_VACUOUS)
        o->vacuous++;
    else
        o->inconclusive++;
}

/* The kind named by key 'kind', or an error listing the kinds. */
static int find_kind(const char *name, const struct rs_params *keys,
                     const struct rs__claim_kind **kind, struct rs_err *err)
{
    const struct rs_param *k = rs_params_find(keys, "kind");
    const char *names[32];
    char list[512];
    size_t n = 0, len = 0;
    for (; rs__claim_kinds[n] && n < 32; n++) {
        /* a kind names itself and has prepare and judge (claim.h) */
        RS_ASSERT(rs__claim_kinds[n]->name && rs__claim_kinds[n]->prepare &&
                  rs__claim_kinds[n]->judge);
        names[n] = rs__claim_kinds[n]->name;
        len += (size_t)snprintf(list + len, len < sizeof list ? sizeof list - len : 0, "%s%s",
                                n ? ", " : "", names[n]);
        if (k && !strcmp(k->value, names[n])) {
            *kind = rs__claim_kinds[n];
            return 0;
        }
    }
    RS_ASSERT(rs__claim_kinds[n] == NULL); /* names[] has room for every kind */
    if (!k)
        return rs_err_set(err, RS_EINVAL, "claim '%s': missing key 'kind' (one of %s)", name,
                          list);
    char where[512];
    rs_param_where(k, where, sizeof where);
    const char *near = rs_suggest(k->value, names, (int)n);
    return rs_err_set(err, RS_EUNKNOWN, "%s: claim '%s': unknown kind '%s' (%s%s%s)", where,
                      name, k->value, near ? "did you mean '" : "one of ", near ? near : list,
                      near ? "'?" : "");
}

/* Every key must be a common key or one of the kind's. */
static int check_keys(const char *name, const struct rs_params *keys,
                      const struct rs__claim_kind *kind, struct rs_err *err)
{
    for (size_t i = 0; i < keys->n; i++) {
        const char *key = keys->v[i].key;
        if (rs_optdef_find(rs__claim_common_options, key) || rs_optdef_find(kind->options, key))
            continue;
        const char *names[64];
        int n = 0;
        for (const struct rs_optdef *d = rs__claim_common_options; d->name && n < 64; d++)
            names[n++] = d->name;
        for (const struct rs_optdef *d = kind->options; d && d->name && n < 64; d++)
            names[n++] = d->name;
        char where[512];
        rs_param_where(&keys->v[i], where, sizeof where);
        const char *near = rs_suggest(key, names, n);
        return rs_err_set(err, RS_EUNKNOWN,
                          "%s: claim '%s': unknown key '%s' for kind %s%s%s%s (see `routesim help "
                          "claims`)",
                          where, name, key, kind->name, near ? " (did you mean '" : "",
                          near ? near : "", near ? "'?)" : "");
    }
    return 0;
}

/* Parameter columns (before "runs", seed and group columns excepted) whose value differs
 * between the selected rows: they name a row in the report's tables. */
static void find_shown(struct rs__claim *c, const size_t *sel, size_t nsel, const long *gcols,
                       int ng)
{
    c->nshow = 0;
    for (long k = 0; k < c->nparams && c->nshow < RS__CLAIM_MAX_COLS; k++) {
        int skip = !strcmp(c->t.names[k], "seed");
        for (int j = 0; j < ng && !skip; j++)
            skip = gcols[j] == k;
        int varies = 0;
        for (size_t i = 1; i < nsel && !skip && !varies; i++)
            varies = strcmp(c->t.rows[sel[i]][k], c->t.rows[sel[0]][k]) != 0;
        if (varies)
            c->show[c->nshow++] = k;
    }
}

/* Split the comma list of key group into columns. */
static int parse_group(struct rs__claim *c, long *gcols, char names[][RS__CLAIM_ITEM], int *ng)
{
    const char *text = rs__claim_text(c, NULL, "group");
    *ng = 0;
    for (const char *s = text; s && *s;) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        while (len && (*s == ' ' || *s == '\t')) {
            s++;
            len--;
        }
        while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            len--;
        if (len && *ng < RS__CLAIM_MAX_COLS) {
            if (len >= RS__CLAIM_ITEM)
                len = RS__CLAIM_ITEM - 1;
            memcpy(names[*ng], s, len);
            names[*ng][len] = '\0';
            int rc = rs__claim_col(c, names[*ng], &gcols[*ng]);
            if (rc)
                return rc;
            (*ng)++;
        }
        s = e ? e + 1 : NULL;
    }
    return 0;
}

/* Judge every group of the selected rows sel[0..nsel): groups in order of first row. */
static int judge_groups(struct rs__claim *c, const struct rs__claim_kind *kind, void *state,
                        const size_t *sel, size_t nsel, const long *gcols,
                        char gnames[][RS__CLAIM_ITEM], int ng, struct rs_claim_outcome *out)
{
    size_t *rows = rs_malloc((nsel + 1) * sizeof *rows);
    unsigned char *seen = rs_calloc(nsel + 1, 1);
    char *why = rs_malloc(4096), *note = rs_malloc(4096);
    int rc = rows && seen && why && note ? 0 : rs_err_set(c->err, RS_ENOMEM, "out of memory");
    for (size_t first = 0; first < nsel && !rc; first++) {
        if (seen[first])
            continue;
        size_t n = 0;
        for (size_t i = first; i < nsel; i++) {
            int match = 1;
            for (int k = 0; k < ng && match; k++)
                match = !strcmp(c->t.rows[sel[i]][gcols[k]], c->t.rows[sel[first]][gcols[k]]);
            if (match) {
                rows[n++] = sel[i];
                seen[i] = 1;
            }
        }
        char label[512] = "";
        size_t len = 0;
        for (int k = 0; k < ng && len < sizeof label; k++)
            len += (size_t)snprintf(label + len, sizeof label - len, "%s%s=%s", k ? ", " : "",
                                    gnames[k], c->t.rows[sel[first]][gcols[k]]);
        if (!ng)
            snprintf(label, sizeof label, "all rows");
        RS_ASSERT(n >= 1); /* the group of row sel[first] holds at least that row */
        struct rs__claim_group g = {rows, n, label};
        int v = RS_VERDICT_INCONCLUSIVE;
        why[0] = note[0] = '\0';
        rc = kind->judge(c, state, &g, &v, why, 4096, note, 4096);
        if (rc)
            break;
        if (strcmp(kind->name, "report"))
            count(out, v);
        rs_buf_printf(c->md, "\n**Verdict (%s): %s** — %s.\n\n", label, verdict_text(v), why);
        if (note[0])
            rs_buf_printf(c->md, "%s\n\n", note);
    }
    rs_free(rows);
    rs_free(seen);
    rs_free(why);
    rs_free(note);
    return rc;
}

/* The claim's metric (key `metric`, default makespan) must be declared in the metrics
 * table (or be one of its statistics columns): a typo is an error naming it. */
static int check_metric(const char *name, const struct rs_params *keys, struct rs_err *err)
{
    const struct rs_param *m = rs_params_find(keys, "metric");
    const char *metric = m ? m->value
                           : rs_optdef_find(rs__claim_common_options, "metric")->def;
    char what[640], where[300] = "";
    if (m && m->line)
        rs_param_where(m, where, sizeof where);
    snprintf(what, sizeof what, "%s%sclaim '%s'", where, where[0] ? ": " : "", name);
    return rs_metric_check_name(metric, what, err);
}

/* c->exact from key 'deterministic' or, undeclared, from the rows sel[0..n): every one of
 * at least 2 runs with a metric variance of exactly 0. A declared claim whose row varies
 * between runs is RS_EINVAL naming the row. */
static int find_exact(struct rs__claim *c, const size_t *sel, size_t n)
{
    int declared = 0, rc = rs_params_bool(c->keys,
                                          rs_optdef_find(rs__claim_common_options, "deterministic"),
                                          &declared, c->err);
    if (rc)
        return rc;
    int detected = n > 0;
    for (size_t i = 0; i < n; i++) {
        double runs = rs_table_num(&c->t, sel[i], c->cruns), var = rs__claim_stat(c, sel[i], "var");
        if (runs >= 2 && !(var == 0) && declared) {
            char label[512];
            rs__claim_row_label(c, sel[i], label, sizeof label);
            return rs_err_set(c->err, RS_EINVAL,
                              "claim '%s': deterministic = 1, but %s varies between the runs of "
                              "row %s (%s_var = %g)",
                              c->name, c->metric, label, c->metric, var);
        }
        detected &= runs >= 2 && var == 0;
    }
    c->exact = declared || detected;
    if (c->exact)
        rs_buf_printf(c->md, "Exact: the points are deterministic (%s), so the claim is judged on "
                             "the exact values, without intervals: every spread (variance, 95%% "
                             "interval) is 0 and a fit is read at its point estimate "
                             "(docs/reproduce.md, exact verdicts).\n\n",
                      declared ? "declared: `deterministic = 1`"
                               : "detected: every replication of every row identical");
    return 0;
}

int rs_claim_check(const char *name, const struct rs_params *keys, const char *dir,
                   struct rs_buf *md, struct rs_claim_outcome *out, struct rs_err *err)
{
    RS_ASSERT(name != NULL && keys != NULL && dir != NULL && md != NULL && out != NULL);
    const struct rs__claim_kind *kind = NULL;
    int rc = find_kind(name, keys, &kind, err);
    rc = rc ? rc : check_keys(name, keys, kind, err);
    rc = rc ? rc : check_metric(name, keys, err);
    if (rc)
        return rc;
    struct rs__claim c;
    memset(&c, 0, sizeof c);
    c.name = name;
    c.kind = kind->name;
    c.kind_options = kind->options;
    c.keys = keys;
    c.dir = dir;
    c.md = md;
    c.err = err;
    c.metric = rs__claim_text(&c, NULL, "metric");
    rc = rs__claim_require(&c, rs__claim_common_options, "experiment", &c.experiment);
    if (rc)
        return rc;
    snprintf(c.path, sizeof c.path, "%s/%s.csv", dir, c.experiment);
    rc = rs_table_read(&c.t, c.path, err);
    if (rc)
        return rc;
    char mean[256], gnames[RS__CLAIM_MAX_COLS][RS__CLAIM_ITEM];
    long gcols[RS__CLAIM_MAX_COLS], cmean;
    int ng = 0;
    struct rs__claim_filter filter;
    void *state = NULL;
    size_t *sel = NULL, nsel = 0;
    snprintf(mean, sizeof mean, "%s_mean", c.metric);
    if ((c.cruns = rs_table_col(&c.t, "runs")) < 0)
        rc = rs_err_set(err, RS_EINVAL, "claim '%s': '%s' is not a sweep's statistics file (no "
                                        "column 'runs')",
                        name, c.path);
    c.nparams = c.cruns;
    rc = rc ? rc : parse_group(&c, gcols, gnames, &ng);
    rc = rc ? rc : rs__claim_filter_parse(&c, "filter", rs__claim_text(&c, NULL, "filter"), &filter);
    /* every statistic column of the metric, which the kinds read through rs__claim_stat */
    for (int k = 0; !rc && rs_metric_stat_suffixes[k]; k++) {
        snprintf(mean, sizeof mean, "%s_%s", c.metric, rs_metric_stat_suffixes[k]);
        rc = rs__claim_col(&c, mean, &cmean);
    }
    if (!rc && !(sel = rs_malloc((c.t.nrows + 1) * sizeof *sel)))
        rc = rs_err_set(err, RS_ENOMEM, "out of memory");
    for (size_t r = 0; !rc && r < c.t.nrows; r++)
        if (rs__claim_filter_match(&c, &filter, r))
            sel[nsel++] = r;
    if (!rc) {
        find_shown(&c, sel, nsel, gcols, ng);
        /* the statement may be split over statement, statement2 .. statement9 (INI lines
         * are limited in length); its pieces are joined with spaces */
        rs_buf_printf(md, "### %s\n\n> %s", name,
                      rs__claim_text(&c, NULL, "statement") ? rs__claim_text(&c, NULL, "statement")
                                                            : "(no statement given)");
        for (int k = 2; k <= 9; k++) {
            char key[16];
            snprintf(key, sizeof key, "statement%d", k);
            if (rs__claim_text(&c, NULL, key))
                rs_buf_printf(md, " %s", rs__claim_text(&c, NULL, key));
        }
        rs_buf_puts(md, "\n\n");
        rs_buf_printf(md, "Experiment `%s`%s%s", c.experiment, filter.n ? ", rows with " : "",
                      filter.n ? rs__claim_text(&c, NULL, "filter") : "");
        rc = kind->prepare(&c, &state);
        rc = rc ? rc : find_exact(&c, sel, nsel);
    }
    if (!rc && !nsel) {
        rs_buf_printf(md, "**Verdict (all rows): inconclusive** — no row of %s.csv matches the "
                          "filter.\n\n",
                      c.experiment);
        if (strcmp(kind->name, "report"))
            count(out, RS_VERDICT_INCONCLUSIVE);
    }
    if (!rc)
        rc = judge_groups(&c, kind, state, sel, nsel, gcols, gnames, ng, out);
    if (kind->release)
        kind->release(state);
    rs_free(sel);
    rs_table_free(&c.t);
    return rc;
}

int rs_claim_validate(const char *name, const struct rs_params *keys, const char **experiment,
                      struct rs_err *err)
{
    const struct rs__claim_kind *kind = NULL;
    int rc = find_kind(name, keys, &kind, err);
    rc = rc ? rc : check_keys(name, keys, kind, err);
    rc = rc ? rc : check_metric(name, keys, err);
    if (rc)
        return rc;
    for (size_t i = 0; i < keys->n && !rc; i++) { /* typed values parse */
        const struct rs_optdef *d = rs_optdef_find(kind->options, keys->v[i].key);
        d = d ? d : rs_optdef_find(rs__claim_common_options, keys->v[i].key);
        double x;
        int64_t n;
        int k;
        if (d->type == RS_OPT_DOUBLE)
            rc = rs_params_double(keys, d, &x, err);
        else if (d->type == RS_OPT_INT)
            rc = rs_params_int(keys, d, &n, err);
        else if (d->type == RS_OPT_CHOICE)
            rc = rs_params_choice(keys, d, &k, err);
        else if (d->type == RS_OPT_BOOL)
            rc = rs_params_bool(keys, d, &k, err);
    }
    if (rc)
        return rc;
    const struct rs_param *e = rs_params_find(keys, "experiment");
    if (!e)
        return rs_err_set(err, RS_EINVAL, "claim '%s': missing key 'experiment' (%s)", name,
                          rs_optdef_find(rs__claim_common_options, "experiment")->help);
    *experiment = e->value;
    return 0;
}

int rs_claim_help(struct rs_buf *out)
{
    int rc = rs_buf_puts(out, "claim kinds ([claim.NAME] sections of an experiment's "
                              "claims.ini; docs/reproduce.md):\n");
    for (int i = 0; !rc && rs__claim_kinds[i]; i++)
        rc = rs_buf_printf(out, "  %-14s %s\n", rs__claim_kinds[i]->name,
                           rs__claim_kinds[i]->summary) ||
             rs_optdef_format(out, rs__claim_kinds[i]->options, 6);
    rc = rc ? rc : rs_buf_puts(out, "every claim\n");
    rc = rc ? rc : rs_optdef_format(out, rs__claim_common_options, 2);
    return rc ? RS_ENOMEM : 0;
}
