/* The registry of claim kinds: one X(NAME) per kind, whose ops struct rs__claim_NAME lives
 * in claim_*.c (the X-macro also declares them). The order is the order of `routesim help
 * claims`. */
#include "report/claim.h"

#define RS__CLAIM_KIND_LIST(X)                                                              \
    X(bounded_ratio) X(exponent) X(report) X(bound) X(equal) X(prediction) X(compare)       \
    X(range) X(factor) X(difference)

#define RS__CLAIM_KIND_DECL(name) extern const struct rs__claim_kind rs__claim_##name;
RS__CLAIM_KIND_LIST(RS__CLAIM_KIND_DECL)
#undef RS__CLAIM_KIND_DECL

#define RS__CLAIM_KIND_PTR(name) &rs__claim_##name,
const struct rs__claim_kind *const rs__claim_kinds[] = {RS__CLAIM_KIND_LIST(RS__CLAIM_KIND_PTR)
                                                            NULL};
#undef RS__CLAIM_KIND_PTR
