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

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define RS_PHILOX_AVX2 1 /* rs_rng_block2 in one 256-bit register, chosen at run time */
#endif

#include "routesim/assert.h"
#include "routesim/rng.h"

/* Philox4x32-10 of counter c and key k into out: the same words as Random123's philox4x32.
 * With SSE2 (every x86-64) the four counter words sit in one register: one _mm_mul_epu32
 * makes both 32x32->64 products of a round (words 0 and 2 times the two multipliers), a
 * shuffle puts {hi1, lo1, hi0, lo0} in place, and a 64-bit shift brings words 1 and 3 to
 * the lanes they are XORed into, with the key in lanes 0 and 2 (about 6 instructions a
 * round instead of about 14). Elsewhere Random123's scalar code. */
static inline void philox_block(const uint32_t c[4], uint32_t k0, uint32_t k1, uint32_t out[4])
{
#if defined(__SSE2__)
    __m128i x = _mm_set_epi32((int)c[3], (int)c[2], (int)c[1], (int)c[0]);
    __m128i key = _mm_set_epi32(0, (int)k1, 0, (int)k0);
    const __m128i mul = _mm_set_epi32(0, (int)PHILOX_M4x32_1, 0, (int)PHILOX_M4x32_0);
    const __m128i bump = _mm_set_epi32(0, (int)PHILOX_W32_1, 0, (int)PHILOX_W32_0);
#define PHILOX_ROUND()                                                                         \
    do {                                                                                       \
        __m128i prod = _mm_mul_epu32(x, mul); /* {lo0, hi0, lo1, hi1} */                       \
        __m128i swap = _mm_shuffle_epi32(prod, _MM_SHUFFLE(0, 1, 2, 3)); /* {hi1, lo1, hi0, lo0} */ \
        x = _mm_xor_si128(swap, _mm_xor_si128(_mm_srli_epi64(x, 32), key));                   \
    } while (0)
    PHILOX_ROUND(); /* round 1 with the key itself, then each round with the key bumped */
#pragma GCC unroll 9
    for (int r = 1; r < 10; r++) {
        key = _mm_add_epi32(key, bump);
        PHILOX_ROUND();
    }
#undef PHILOX_ROUND
    _mm_storeu_si128((__m128i *)(void *)out, x);
#else
    philox4x32_ctr_t cc = {{c[0], c[1], c[2], c[3]}};
    philox4x32_key_t kk = {{k0, k1}};
    philox4x32_ctr_t o = philox4x32(cc, kk);
    for (int i = 0; i < 4; i++)
        out[i] = o.v[i];
#endif
}

#ifdef RS_PHILOX_AVX2
/* Two blocks of one key with AVX2: philox_block of (ca, k) into oa and of (cb, k) into ob,
 * both counters in one 256-bit register (one per 128-bit half; the multiplies, shuffles and
 * shifts work per half): half the instructions of two SSE2 blocks. */
__attribute__((target("avx2"))) static void philox_block2_avx2(const uint32_t ca[4],
                                                               const uint32_t cb[4], uint32_t k0,
                                                               uint32_t k1, uint32_t oa[4],
                                                               uint32_t ob[4])
{
    __m256i x = _mm256_set_epi32((int)cb[3], (int)cb[2], (int)cb[1], (int)cb[0], (int)ca[3],
                                 (int)ca[2], (int)ca[1], (int)ca[0]);
    __m256i key = _mm256_set_epi32(0, (int)k1, 0, (int)k0, 0, (int)k1, 0, (int)k0);
    const __m256i mul = _mm256_set_epi32(0, (int)PHILOX_M4x32_1, 0, (int)PHILOX_M4x32_0, 0,
                                         (int)PHILOX_M4x32_1, 0, (int)PHILOX_M4x32_0);
    const __m256i bump = _mm256_set_epi32(0, (int)PHILOX_W32_1, 0, (int)PHILOX_W32_0, 0,
                                          (int)PHILOX_W32_1, 0, (int)PHILOX_W32_0);
#define PHILOX_ROUND()                                                                         \
    do {                                                                                       \
        __m256i prod = _mm256_mul_epu32(x, mul);                                               \
        __m256i swap = _mm256_shuffle_epi32(prod, _MM_SHUFFLE(0, 1, 2, 3));                    \
        x = _mm256_xor_si256(swap, _mm256_xor_si256(_mm256_srli_epi64(x, 32), key));          \
    } while (0)
    PHILOX_ROUND();
#pragma GCC unroll 9
    for (int r = 1; r < 10; r++) {
        key = _mm256_add_epi32(key, bump);
        PHILOX_ROUND();
    }
#undef PHILOX_ROUND
    _mm_storeu_si128((__m128i *)(void *)oa, _mm256_castsi256_si128(x));
    _mm_storeu_si128((__m128i *)(void *)ob, _mm256_extracti128_si256(x, 1));
}

/* Whether this processor has AVX2 (libgcc's record of the processor, filled by its
 * constructor before main; both copies give the same words). */
static inline int have_avx2(void)
{
    return __builtin_cpu_supports("avx2");
}
#endif

/* Compute the next block into r->buf and advance the block counter. */
static void refill(struct rs_rng *r)
{
    philox_block(r->ctr, r->key[0], r->key[1], r->buf);
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

/* The counter of block 0 of (stream, entity, step), as rs_rng_init lays it out. */
static inline void first_ctr(uint32_t stream, uint64_t entity, uint32_t step, uint32_t c[4])
{
    RS_DASSERT(stream < (1u << 16) && entity < (UINT64_C(1) << 48));
    c[0] = (uint32_t)entity;
    c[1] = ((uint32_t)(entity >> 32) & 0xffffu) | (stream << 16);
    c[2] = step;
    c[3] = 0;
}

void rs_rng_block(uint64_t seed, uint32_t stream, uint64_t entity, uint32_t step,
                  uint32_t out[4])
{
    uint32_t c[4];
    first_ctr(stream, entity, step, c);
    philox_block(c, (uint32_t)seed, (uint32_t)(seed >> 32), out);
}

void rs_rng_block2(uint64_t seed, uint32_t stream_a, uint64_t entity_a, uint32_t step_a,
                   uint32_t out_a[4], uint32_t stream_b, uint64_t entity_b, uint32_t step_b,
                   uint32_t out_b[4])
{
    uint32_t ca[4], cb[4];
    first_ctr(stream_a, entity_a, step_a, ca);
    first_ctr(stream_b, entity_b, step_b, cb);
#ifdef RS_PHILOX_AVX2
    if (have_avx2()) {
        philox_block2_avx2(ca, cb, (uint32_t)seed, (uint32_t)(seed >> 32), out_a, out_b);
        return;
    }
#endif
    philox_block(ca, (uint32_t)seed, (uint32_t)(seed >> 32), out_a);
    philox_block(cb, (uint32_t)seed, (uint32_t)(seed >> 32), out_b);
}

uint32_t rs_rand_below(uint64_t seed, uint32_t stream, uint64_t entity, uint32_t step,
                       uint32_t n)
{
    /* the first block directly; the rare rejection goes on through a reader (the same draws
     * as rs_rng_below on a fresh stream) */
    RS_DASSERT(n >= 1);
    uint32_t c[4], b[4];
    first_ctr(stream, entity, step, c);
    philox_block(c, (uint32_t)seed, (uint32_t)(seed >> 32), b);
    uint64_t m = (uint64_t)b[0] * n;
    if ((uint32_t)m >= n) /* (n == 0, outside the contract, gives 0 as rs_rng_below) */
        return (uint32_t)(m >> 32);
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
