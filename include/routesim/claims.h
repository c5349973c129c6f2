/* Claims: a paper's sentence turned into a check on sweep results, judged as the project's
 * reproduction rules say (docs/reproduce.md): one verdict per group of rows, written as a
 * Markdown section with the measured values beside the theory. */
#ifndef ROUTESIM_CLAIMS_H
#define ROUTESIM_CLAIMS_H

#include "routesim/buf.h"
#include "routesim/params.h"

/* VACUOUS: the claim cannot fail on these rows (a lower bound of 0 or below on a metric that
 * is never negative, a range or factor limit that every value meets): counted apart, never
 * as holding. */
enum rs_verdict {
    RS_VERDICT_HOLDS = 1,
    RS_VERDICT_FAILS = 0,
    RS_VERDICT_INCONCLUSIVE = -1,
    RS_VERDICT_VACUOUS = 2
};

/* Counts of verdicts over the groups of one claim. */
struct rs_claim_outcome {
    int holds, fails, inconclusive, vacuous;
};

/* Check the claim named name, whose keys are in c (without the "claim.NAME." prefix),
 * against the statistics file DIR/<experiment>.csv (and, for the worst instance of bound
 * and equal claims, the per-run file DIR/<experiment>-runs.csv when it exists).
 * Keys of every claim:
 *   kind       bounded_ratio | exponent | report | bound | equal | prediction | compare |
 *              range | factor | difference (the keys of each: `routesim help claims`)
 *   statement  the paper's words, quoted in the report (continued in statement2 ..
 *              statement9 when longer than one INI line)
 *   experiment the sweep whose statistics file is read
 *   metric     the measured metric (columns <metric>_mean, _var, _min, _max, _ci95)
 *   filter     KEY=VALUE;KEY=VALUE rows must match (optional)
 *   group      comma list of columns; one verdict per combination (optional)
 * How each kind is judged: docs/reproduce.md. A key that neither every claim nor the kind
 * declares is an error (RS_EUNKNOWN, with the nearest key). Appends a Markdown section to
 * md (the statement, the test, a table per group and one verdict line per group) and adds
 * the verdicts to *out ("report" claims are not counted). A claim whose filter selects no
 * row is one inconclusive verdict. Errors (RS_EINVAL, RS_EUNKNOWN, RS_ECONSTRAINT for bad
 * keys, expressions or columns; RS_EIO when the file cannot be read) name the claim and
 * the key. */
int rs_claim_check(const char *name, const struct rs_params *c, const char *dir,
                   struct rs_buf *md, struct rs_claim_outcome *out, struct rs_err *err);

/* Check claim name's keys without a statistics file: the kind exists, every key is one it
 * or every claim declares (RS_EUNKNOWN with the nearest key), typed values (numbers,
 * choices) parse, and 'experiment' is given; *experiment then points to its value (owned
 * by c). Keys a kind requires, expressions and columns need the results: rs_claim_check
 * judges them. Returns 0 or RS_E... with err naming the claim and key. */
int rs_claim_validate(const char *name, const struct rs_params *c, const char **experiment,
                      struct rs_err *err);

/* Append the list of claim kinds with their keys (from their option tables) to out, for
 * `routesim help claims`. Returns 0 or RS_ENOMEM. */
int rs_claim_help(struct rs_buf *out);

#endif
