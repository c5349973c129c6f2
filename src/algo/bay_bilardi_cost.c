/* The bit-serial cost model of 000 §3.2-3.3 (M4): every piece of a stage of the pruned
 * butterfly algorithm as a count of pipelined passes (UNITS: bit steps). The derivation of
 * each term is in docs/bay-bilardi.md ("Bit-serial time"). */
#include "routesim/assert.h"
#include "routesim/bay_bilardi.h"

static uint32_t bits_of(uint64_t v)
{
    uint32_t b = 1;
    while (b < 64 && (v >> b))
        b++;
    return b;
}

void rs__bb_cost_init(struct rs__bb_cost *c, uint32_t n, uint32_t b, uint64_t msgs)
{
    RS_ASSERT(c != NULL && n >= 2 && b >= 1);
    c->n = n;
    c->b = b;
    c->W = bits_of(msgs);
    uint32_t peak_bits = 0; /* ceil(log2 n): a peak level 0..n-1 */
    while ((1u << peak_bits) < n)
        peak_bits++;
    c->R = b + n + peak_bits;
}

void rs__bb_stage_cost(const struct rs__bb_cost *c, uint32_t i, struct rs__bb_stage_cost *s)
{
    RS_ASSERT(c != NULL && s != NULL && i < c->n);
    uint64_t D = c->n - i;              /* wires from a leaf up to P, the level-i node */
    uint64_t sigma = (D + 1) / 2;       /* log2 W(i): bits of a position h at P */
    uint64_t tree = rs__bb_pass(D, c->W); /* one pipelined pass of a W-bit word over D levels */
    s->partition = 3 * tree + 2 * tree + c->W;
    s->dequeue = 2 * (uint64_t)c->R;
    s->rank = 2 * tree;
    s->compress = rs__bb_pass(D, sigma + c->n + c->b);
    s->sort = rs__bb_pass(sigma, c->n) + rs__bb_pass(sigma, sigma + 1) +
              rs__bb_pass(sigma, sigma + c->n + c->b);
    s->expand = rs__bb_pass(D, 1 + c->n + c->b);
    s->enqueue = 2 * (uint64_t)c->R;
    s->arrive = s->dequeue + s->rank + s->compress + s->sort + s->expand;
    s->batch = s->arrive + s->enqueue;
}
