/* Internal to src/core: compact text of the range bounds of option tables, shared by the
 * help listing (options.c) and the range in error messages (params.c). */
#ifndef RS_CORE_NUMTEXT_H
#define RS_CORE_NUMTEXT_H

#include <stddef.h>

/* Write v into buf[0..n) as a person would write a bound: integers below 10^7 in full
 * ("67"), powers of two from 2^20 as "2^26", one less than such a power as "2^53-1",
 * powers of ten as "1e9", other integers up to 2^53 in full, anything else with "%.6g"
 * and its exponent without '+' or leading zeros ("2.5e-7"); nan, inf, -inf. Always
 * NUL-terminated (n >= 1). */
void rs__num_text(double v, char *buf, size_t n);

/* "[min, max]" of an INT or DOUBLE option into buf[0..n). */
void rs__range_text(double min, double max, char *buf, size_t n);

#endif
