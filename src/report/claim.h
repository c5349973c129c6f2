/* Internal interface of claim checking (routesim/claims.h): the claim being checked, the
 * groups of rows it judges, helpers shared by the kinds (claim_util.c, claim_sides.c), and
 * the kinds themselves: one const ops struct per kind, listed in claim_kinds.c. */
#ifndef RS_REPORT_CLAIM_H
#define RS_REPORT_CLAIM_H

#include <stddef.h>

#include "routesim/buf.h"
#include "routesim/claims.h"
#include "routesim/options.h"
#include "routesim/table.h"

#define RS__CLAIM_MAX_COLS 16
#define RS__CLAIM_ITEM 128 /* longest column name or value in a filter */

/* Values in a statistics file carry 9 significant digits (%.9g): a value closer to a limit
 * than this, relative to max(1, |limit|), counts as on the limit (every kind). */
#define RS__CLAIM_REL_SLACK 1e-8

/* Conditions KEY=VALUE;KEY=VALUE on the columns of the statistics file. */
struct rs__claim_filter {
    long col[RS__CLAIM_MAX_COLS];
    char key[RS__CLAIM_MAX_COLS][RS__CLAIM_ITEM];
    char value[RS__CLAIM_MAX_COLS][RS__CLAIM_ITEM];
    int n;
};

/* The claim being checked. Set up by claims.c; the kinds read it. */
struct rs__claim {
    const char *name;              /* [claim.NAME] */
    const char *kind;              /* its kind's name */
    const struct rs_optdef *kind_options; /* its kind's option table */
    const struct rs_params *keys;  /* the claim's keys (without the "claim.NAME." prefix) */
    const char *dir;               /* output folder of the reproduction */
    const char *experiment;        /* the sweep: statistics in DIR/<experiment>.csv */
    char path[4096];               /* that file */
    struct rs_table t;             /* its contents */
    const char *metric;            /* the measured metric (its _mean, _var, ... columns) */
    long nparams;                  /* columns 0 .. nparams-1 are run parameters */
    long cruns;                    /* the "runs" column */
    long show[RS__CLAIM_MAX_COLS]; /* parameter columns that vary over the claim's rows,
                                      group columns excepted: they name a row in tables */
    int nshow;
    int exact;                     /* the claim's rows are deterministic (declared with key
                                      'deterministic' or every row's replications identical):
                                      judged on the exact values, spreads read as 0 */
    struct rs_buf *md;             /* the report being written */
    struct rs_err *err;
};

/* One group of rows: one verdict. */
struct rs__claim_group {
    const size_t *rows; /* table rows, in file order */
    size_t n;           /* >= 1 */
    const char *label;  /* "queue_size=2, protocol=fifo", or "all rows" */
};

/* A kind of claim. prepare parses the kind's keys into a state of its own (freed by
 * release) and appends to c->md what is measured and the test (the text after
 * "Experiment `NAME`[, rows with FILTER]", ending with a blank line). judge appends one
 * group's table to c->md and sets *verdict (RS_VERDICT_...) with the reason in why[0..wn)
 * and, optionally, a line printed after the verdict in note[0..nn) (left empty
 * otherwise). Both return 0 or RS_E... with c->err set naming the claim. */
struct rs__claim_kind {
    const char *name;
    const char *summary;             /* one line, for `routesim help claims` */
    const struct rs_optdef *options; /* keys of this kind besides rs__claim_common_options */
    int (*prepare)(struct rs__claim *c, void **state);
    int (*judge)(struct rs__claim *c, void *state, const struct rs__claim_group *g,
                 int *verdict, char *why, size_t wn, char *note, size_t nn);
    void (*release)(void *state);
};

/* The registry of the kinds (claim_kinds.c: an X-macro over the ops structs
 * rs__claim_NAME of claim_growth.c, claim_bound.c, claim_prediction.c, claim_compare.c,
 * claim_range.c and claim_factor.c), NULL-terminated, and the keys every claim accepts
 * (claims.c). */
extern const struct rs__claim_kind *const rs__claim_kinds[];
extern const struct rs_optdef rs__claim_common_options[];

/* claim_util.c ------------------------------------------------------------------------ */

/* The text of key (its value or the option's default, NULL when neither); the option
 * must be declared in table (NULL: c's kind table) or the common table. */
const char *rs__claim_text(const struct rs__claim *c, const struct rs_optdef *table,
                           const char *key);

/* Required text key: RS_EINVAL "claim 'NAME': missing key 'KEY' (HELP)" when absent. */
int rs__claim_require(const struct rs__claim *c, const struct rs_optdef *table, const char *key,
                      const char **out);

/* Typed keys through the option table (errors name the file, line, key and range). A
 * double without default that is absent leaves *out untouched and sets *given = 0. */
int rs__claim_double(const struct rs__claim *c, const struct rs_optdef *table, const char *key,
                     double *out, int *given);
int rs__claim_choice(const struct rs__claim *c, const struct rs_optdef *table, const char *key,
                     int *index);

/* Column index of name, or RS_EINVAL "claim 'NAME': 'FILE' has no column 'X' (did you mean
 * 'Y'?)". */
int rs__claim_col(const struct rs__claim *c, const char *name, long *col);

/* Parse text (KEY=VALUE;...) of key into f, resolving columns. Errors name the claim. */
int rs__claim_filter_parse(const struct rs__claim *c, const char *key, const char *text,
                           struct rs__claim_filter *f);

/* 1 when row meets every condition of f. */
int rs__claim_filter_match(const struct rs__claim *c, const struct rs__claim_filter *f,
                           size_t row);

/* The metric's statistic column "<metric>_<suffix>" in row (NaN when empty); for an exact
 * claim (c->exact) the spreads var, sd and ci95 are 0. The column
 * must exist: rs_claim_check refuses a file without any of the metric's statistic columns
 * (rs_metric_stat_suffixes) before a kind runs. */
double rs__claim_stat(const struct rs__claim *c, size_t row, const char *suffix);

/* Evaluate the expression text of key over row: names are columns of the statistics file
 * (parameters such as N, statistics such as congestion_mean). A bad expression, an unknown
 * or non-numeric column or a value that is not finite is RS_EINVAL naming the claim, the
 * key and the row. */
int rs__claim_eval(const struct rs__claim *c, size_t row, const char *key, const char *text,
                   double *out);

/* The rounding allowance of a limit: RS__CLAIM_REL_SLACK * max(1, |limit|) (0 when the
 * limit is infinite). */
double rs__claim_slack(double limit);

/* 1 when lo - slack(lo) <= v <= hi + slack(hi) (lo, hi may be infinite); 0 otherwise,
 * also when v is NaN. */
int rs__claim_within(double v, double lo, double hi);

/* Numbers for the report: %.6g, "—" for NaN; mean ± ci95 ("mean" alone when ci is NaN). */
void rs__claim_num(char *buf, size_t n, double v);
void rs__claim_mean_ci(char *buf, size_t n, double mean, double ci);

/* Table head: "| LABEL | <shown columns> | cols[0] | ... |" and the separator line. Columns
 * listed in skip (may be NULL) are left out of the shown ones. */
void rs__claim_table_head(const struct rs__claim *c, const char *label,
                          const struct rs__claim_filter *skip, const char *const *cols,
                          int ncols);

/* Start of a table line: "| | <row's shown cells> |" (cells of skip's columns left out). */
void rs__claim_table_row(const struct rs__claim *c, size_t row,
                         const struct rs__claim_filter *skip);

/* "N=16, queue_size=2" from the shown columns of row, or "the only row". */
void rs__claim_row_label(const struct rs__claim *c, size_t row, char *buf, size_t n);

/* The replication of row whose metric is the largest (want_max) or smallest, from the
 * per-run file DIR/<experiment>-runs.csv: "seed S (replication R): `routesim run K=V ...
 * seed=S`" in buf. Ties go to the first replication. Returns 0, or -1 with buf empty when
 * the file or the run cannot be found (the report then names the row only). */
int rs__claim_worst_run(const struct rs__claim *c, size_t row, int want_max, char *buf,
                        size_t n);

/* claim_sides.c ----------------------------------------------------------------------- */

/* Two sides of a comparison, factor or difference: rows of side A (key a) are paired with
 * the row of side B (key b) that agrees on every match column (key match; default every
 * parameter column except seed and the columns named in a and b). */
struct rs__claim_sides {
    struct rs__claim_filter a, b;
    long match[64];
    int nmatch;
};

/* Parse keys a, b and match (declared in the kind's table). Errors name the claim. */
int rs__claim_sides_parse(const struct rs__claim *c, const struct rs_optdef *table,
                          struct rs__claim_sides *s);

/* The pairs of group g: pa[i], pb[i] (arrays of g->n entries) and their number *np; the
 * rows of each side in side[0] (A) and side[1] (B). Rows of one side without a partner are
 * counted in *unmatched. Two B rows for one A row is RS_EINVAL naming a column in which
 * they differ (add it to match or filter). */
int rs__claim_pairs(const struct rs__claim *c, const struct rs__claim_sides *s,
                    const struct rs__claim_group *g, size_t *pa, size_t *pb, size_t *np,
                    size_t side[2], size_t *unmatched);

/* The reason why a group has no pair, into why[0..wn). */
void rs__claim_no_pair(const struct rs__claim *c, const size_t side[2], char *why, size_t wn);

/* "N=16, queue_size=2": row's shown columns outside the sides' filters, or, when there are
 * none, "A against B" (the texts of keys a and b). */
void rs__claim_pair_label(const struct rs__claim *c, const struct rs__claim_sides *s,
                          size_t row, char *buf, size_t n);

/* Markdown of "side A (a) and side B (b), paired by <match>" for the test sentence. */
void rs__claim_sides_describe(const struct rs__claim *c, const struct rs__claim_sides *s);

#endif
