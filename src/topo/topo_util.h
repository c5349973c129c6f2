/* Helpers shared by the topology files: reading a power-of-two size, integer powers and
 * labelling rows. */
#ifndef RS_TOPO_UTIL_H
#define RS_TOPO_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "routesim/net.h"

/* Read key `N` of table as a power of two in [2, max]; *log2n gets its exponent. Returns 0,
 * the getter's error (value not an integer or outside the table's range), or
 * RS_ECONSTRAINT "topology=<topo> needs N a power of two (got N=12)". */
int rs__topo_read_pow2(const struct rs_params *p, const struct rs_optdef *table,
                       const char *topo, uint32_t max, uint32_t *N, uint32_t *log2n,
                       struct rs_err *err);

/* Write "<level,c0c1...c_{bits-1}>" (row bits least significant first) into buf. */
void rs__topo_label_row(char *buf, size_t n, uint32_t level, uint32_t row, uint32_t bits);

/* Read key of table as an integer lo..hi or a list of at most max_n of them ("4,4,4" or
 * "4/4/4") into out[0..*n). Returns 0 or RS_EINVAL "WHERE: key 'KEY': expected an integer
 * LO..HI or a list of at most MAX of them (4,4,4 or 4/4/4), got 'TEXT'" (WHERE: the file and
 * line or the command line that gave it, or "default"). */
int rs__topo_read_list(const struct rs_params *p, const struct rs_optdef *table, const char *key,
                       uint32_t lo, uint32_t hi, uint32_t max_n, uint32_t *out, uint32_t *n,
                       struct rs_err *err);

/* k^i for a k^i known to fit in 32 bits (the caller checked its range). */
static inline uint32_t rs__topo_upow(uint32_t k, uint32_t i)
{
    uint32_t r = 1;
    while (i--)
        r *= k;
    return r;
}

#endif
