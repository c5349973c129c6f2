/* Bit sets of router=iq's event-driven cycle: which routers have work, which of a router's
 * inputs received a flit, which outputs have a queued flit to write, which terminals
 * receive a flit or are sending a packet. Words of 64 bits; a set of n members takes
 * IQ_WORDS(n) words. Iteration visits members in increasing order, so the cycle's
 * outcome does not depend on the bookkeeping (docs/ARCHITECTURE.md, router=iq). */
#ifndef RS_ENGINE_IQ_BITS_H
#define RS_ENGINE_IQ_BITS_H

#include <stdint.h>

#define IQ_WORDS(n) (((n) + 63u) / 64u)

/* Add member i to the set at s. */
static inline void iq_bit_set(uint64_t *s, uint32_t i)
{
    s[i >> 6] |= (uint64_t)1 << (i & 63);
}

/* Remove member i from the set at s. */
static inline void iq_bit_clear(uint64_t *s, uint32_t i)
{
    s[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

/* Is i a member of the set at s? */
static inline int iq_bit_has(const uint64_t *s, uint32_t i)
{
    return (int)(s[i >> 6] >> (i & 63) & 1);
}

/* Visit the members of the set at s (nw words) in increasing order as variable i; the body
 * may clear members (the word being visited is a copy). */
#define IQ_FOR_BITS(s, nw, i)                                                                  \
    for (uint32_t iq_w_ = 0; iq_w_ < (nw); iq_w_++)                                            \
        for (uint64_t iq_b_ = (s)[iq_w_]; iq_b_; iq_b_ &= iq_b_ - 1)                           \
            for (uint32_t i = iq_w_ * 64u + (uint32_t)__builtin_ctzll(iq_b_), iq_once_ = 1;    \
                 iq_once_; iq_once_ = 0)

#endif
