/* The registry of claim kinds: one line per kind (its ops struct lives in claim_*.c). The
 * order is the order of `routesim help claims`. */
#include "report/claim.h"

const struct rs__claim_kind *const rs__claim_kinds[] = {
    &rs__claim_bounded_ratio,
    &rs__claim_exponent,
    &rs__claim_report,
    &rs__claim_bound,
    &rs__claim_equal,
    &rs__claim_prediction,
    &rs__claim_compare,
    &rs__claim_range,
    &rs__claim_factor,
    &rs__claim_difference,
    NULL,
};
