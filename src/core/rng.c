/* Counter-based random streams on Random123's Philox4x32-10 (Salmon et al., SC'11).
 *
 * Layout of one Philox call (four 32-bit counter words, two key words):
 *   key     = { seed bits 0-31, seed bits 32-63 }
 *   ctr[0]  = entity bits 0-31
 *   ctr[1]  = entity bits 32-47 | stream << 16      (stream < 2^16, entity < 2^48)
 *   ctr[2]  = step                                 (step < 2^32)
 *   ctr[3]  = block: 0, 1, 2, ... within the stream (< 2^32 blocks)
 * Every field has its own bits, so two different tuples (seed, stream, entity, step,
 * block) never share a counter/key pair; each block yields four 32-bit values consumed in
 * order, so draw index d of a stream is word d % 4 of block d / 4 (d < 2^34). Entity bits
 * above 47 and stream bits above 15 are ignored: callers keep within the ranges above. */
#include <Random123/philox.h>

#include "routesim/assert.h"
#include "routesim/rng.h"

/* Compute the next block into r->buf and advance the block counter. */
static void refill(struct rs_rng *r)
{
    philox4x32_ctr_t c = {{r->ctr[0], r->ctr[1], r->ctr[2], r->ctr[3]}};
    philox4x32_key_t k = {{r->key[0], r->key[1]}};
    philox4x32_ctr_t out = philox4x32(c, k);
    for (int i = 0; i < 4; i++)
        r->buf[i] = out.v[i];
    r->avail = 4;
    r->ctr[3]++;
}

void rs_rng_init(struct rs_rng *r, uint64_t seed, uint32_t stream, uint64_t entity,
                 uint32_t step)
{
    RS_DASSERT(stream < (1u << 16) && entity < (UINT64_C(1) << 48));
    r->key[0] = (uint32_t)seed;
    r->key[1] = (uint32_t)(seed >> 32);
    r->ctr[0] = (uint32_t)entity;
    r->ctr[1] = ((uint32_t)(entity >> 32) & 0xffffu) | (stream << 16);
    r->ctr[2] = step;
    r->ctr[3] = 0;
    r->buf[0] = r->buf[1] = r->buf[2] = r->buf[3] = 0;
    r->avail = 0;
}

uint32_t rs_rng_u32(struct rs_rng *r)
{
    if (r->avail == 0)
        refill(r);
    return r->buf[4 - r->avail--];
}

uint64_t rs_rng_u64(struct rs_rng *r)
{
    uint64_t hi = rs_rng_u32(r); /* first draw is the high word */
    return (hi << 32) | rs_rng_u32(r);
}

uint32_t rs_rng_below(struct rs_rng *r, uint32_t n)
{
    /* Lemire, "Fast random integer generation in an interval", ACM TOMACS 29(1), 2019:
     * the high word of x*n is uniform on [0, n) once the low words below 2^32 mod n are
     * rejected; the division is only needed when the low word is below n. */
    RS_DASSERT(n >= 1);
    if (n == 0)
        return 0; /* outside the contract (n >= 1); no division by zero */
    uint64_t m = (uint64_t)rs_rng_u32(r) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n; /* 2^32 mod n */
        while (low < threshold) {
            m = (uint64_t)rs_rng_u32(r) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

double rs_rng_unit(struct rs_rng *r)
{
    return (double)(rs_rng_u64(r) >> 11) * 0x1.0p-53;
}

void rs_rng_block(uint64_t seed, uint32_t stream, uint64_t entity, uint32_t step,
                  uint32_t out[4])
{
    struct rs_rng r;
    rs_rng_init(&r, seed, stream, entity, step);
    refill(&r);
    for (int i = 0; i < 4; i++)
        out[i] = r.buf[i];
}

uint32_t rs_rand_below(uint64_t seed, uint32_t stream, uint64_t entity, uint32_t step,
                       uint32_t n)
{
    struct rs_rng r;
    rs_rng_init(&r, seed, stream, entity, step);
    return rs_rng_below(&r, n);
}

void rs_random_permutation(uint32_t *perm, uint32_t n, uint64_t seed, uint32_t stream,
                           uint64_t entity)
{
    struct rs_rng r;
    RS_ASSERT(perm != NULL || n == 0);
    rs_rng_init(&r, seed, stream, entity, 0);
    for (uint32_t i = 0; i < n; i++)
        perm[i] = i;
    for (uint32_t i = n; i > 1; i--) { /* Durstenfeld: swap slot i-1 with one of 0..i-1 */
        uint32_t j = rs_rng_below(&r, i);
        uint32_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
}
