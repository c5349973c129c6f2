/* The root-permutation sampler behind traffic=root (root.c), exposed for its tests. */
#ifndef RS_WORK_ROOT_H
#define RS_WORK_ROOT_H

#include <stdint.h>

/* Chain length: steps = ceil(3 N ln N) + 16 N (docs/workloads.md: measured mixing). */
#define RS__ROOT_STEPS_PER_NLOGN 3.0
#define RS__ROOT_STEPS_PER_N 16

/* Steps of the chain for n terminals: ceil(3 n ln n) + 16 n (0 for n < 2). */
uint64_t rs__root_steps(uint32_t n);

/* Fill perm[0..n) with a permutation in which no s goes to its own group (group of t =
 * t / (n / groups); groups divides n): start from a balanced root permutation (group a
 * sends as evenly as possible to every other group, consecutive sources to consecutive
 * destinations), then run
 * `steps` Metropolis steps, each a fair coin between swapping the destinations of two
 * uniform sources i, j and rotating those of three uniform sources i <- j <- k <- i,
 * accepted when every pair stays a root pair. The proposals are symmetric, so the chain's
 * stationary law is uniform over the root permutations (the two moves connect them).
 * Draws from (seed, RS_STREAM_PERM, entity, 0). groups < 2: a uniform permutation. */
void rs__root_permutation(uint32_t *perm, uint32_t n, uint32_t groups, uint64_t steps,
                          uint64_t seed, uint64_t entity);

#endif
