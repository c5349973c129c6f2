/* Claims: a paper's sentence turned into a check on sweep results, judged as the project's
 * reproduction rules say (docs/reproduce.md): one verdict per group of rows, written as a
 * Markdown section with the measured values beside the theory. */
#ifndef ROUTESIM_CLAIMS_H
#define ROUTESIM_CLAIMS_H

#include "routesim/buf.h"
#include "routesim/params.h"

enum rs_verdict { RS_VERDICT_HOLDS = 1, RS_VERDICT_FAILS = 0, RS_VERDICT_INCONCLUSIVE = -1 };

/* Counts of verdicts over the groups of one claim. */
struct rs_claim_outcome {
    int holds, fails, inconclusive;
};

/* Check the claim named name, whose keys are in c (without the "claim.NAME." prefix):
 *   kind       bounded_ratio | exponent | report
 *   statement  the paper's words, quoted in the report (continued in statement2 ..
 *              statement9 when longer than one INI line)
 *   experiment the sweep whose statistics file is DIR/<experiment>.csv
 *   metric, x  the measured column (its _mean, _ci95) and the size column
 *   f          log2 | sqrt | linear (bounded_ratio)
 *   expect, tol the exponent and its tolerance (exponent)
 *   filter     KEY=VALUE;KEY=VALUE rows must match (optional)
 *   group      comma list of columns; one verdict per combination (optional)
 * Appends a Markdown section to md and adds the verdicts to *out. Errors (RS_EINVAL) name
 * the claim and the bad key. */
int rs_claim_check(const char *name, const struct rs_params *c, const char *dir,
                   struct rs_buf *md, struct rs_claim_outcome *out, struct rs_err *err);

#endif
