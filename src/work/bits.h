/* Shared by the bit-level permutations of src/work (bitperm.c, linear.c, omega.c): the
 * number of address bits b of N = 2^b terminals. */
#ifndef RS_WORK_BITS_H
#define RS_WORK_BITS_H

#include <stdint.h>

#include "routesim/net.h"

/* *bits = b with N = 2^b (b >= 1) for net's N terminals, or RS_ECONSTRAINT naming the
 * traffic: "traffic=NAME needs N a power of two (got N=12)". */
static inline int rs__work_bits(const struct rs_net *net, const char *name, unsigned *bits,
                                struct rs_err *err)
{
    uint32_t n = net->n_terminals;
    if (n < 2 || (n & (n - 1)) != 0)
        return rs_err_set(err, RS_ECONSTRAINT, "traffic=%s needs N a power of two (got N=%u)",
                          name, n);
    unsigned b = 0;
    while (((uint32_t)1 << b) != n)
        b++;
    *bits = b;
    return 0;
}

#endif
