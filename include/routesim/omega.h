/* Inverse-omega permutations (omega.c), exposed for the tests: the permutation an inverse
 * omega network of N = 2^b inputs realizes with given switch settings. */
#ifndef RS_WORK_OMEGA_H
#define RS_WORK_OMEGA_H

#include <stdint.h>

/* The inverse omega network (the omega network of Lawrie with its signals reversed): b
 * stages, each a column of N/2 2x2 switches on lines (2i, 2i+1) followed by the inverse
 * perfect shuffle (line x goes to line x rotated right by one bit). Switch i of stage st
 * (0-based) crosses when bit st*N/2 + i of settings (32 per word, least significant
 * first) is 1. perm[s] gets the output line that input s reaches; scratch holds 2N
 * entries. Every permutation it realizes for some settings is an inverse-omega
 * permutation, and different settings give different permutations (unique paths). */
void rs__inverse_omega_perm(unsigned b, const uint32_t *settings, uint32_t *perm,
                            uint32_t *scratch);

#endif
