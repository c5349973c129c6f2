/* Bit permutations of N = 2^b terminals (SPEC W1): bit reversal, perfect shuffle, bit
 * complement and BPC (bit-permute-complement, given by the `bpc` key or drawn at random).
 * Every message of source s goes to the same destination. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/problem.h"
#include "routesim/rng.h"
#include "work/bits.h"

/* Streams of the random BPC permutation: the bit positions come from the permutation
 * stream (entity 2^32 + 1, after qrelation's 2^32), the complement mask from the traffic
 * stream (entity 2^40, above every message number uniform uses). */
#define RS__BPC_PERM_ENTITY (((uint64_t)1 << 32) + 1)
#define RS__BPC_MASK_ENTITY ((uint64_t)1 << 40)

#define RS__MAX_BITS 32

static const struct rs_optdef no_options[] = {{NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const struct rs_optdef bpc_options[] = {
    {"bpc", RS_OPT_STRING, NULL, 0, 0, NULL,
     "bit map, least significant source bit first: entry i = j or ~j sends source bit i "
     "to destination bit j (complemented with ~); absent = random BPC", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL},
};

/* Fill dst[s*q + k] = f(s) for every k, f given as a per-bit map: source bit i goes to
 * destination bit to[i], then the destination is XORed with mask. */
static void fill_bit_map(uint32_t n, unsigned b, const unsigned *to, uint32_t mask,
                         uint32_t per_input, uint32_t *dst)
{
    for (uint32_t s = 0; s < n; s++) {
        uint32_t d = 0;
        for (unsigned i = 0; i < b; i++)
            d |= ((s >> i) & 1u) << to[i];
        d ^= mask;
        for (uint32_t k = 0; k < per_input; k++)
            dst[(uint64_t)s * per_input + k] = d;
    }
}

/* bitrev: destination bit b-1-i = source bit i. */
static int bitrev_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                           uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    unsigned b = 0, to[RS__MAX_BITS];
    int rc = rs__work_bits(net, "bitrev", &b, err);
    if (rc != 0)
        return rc;
    for (unsigned i = 0; i < b; i++)
        to[i] = b - 1 - i;
    fill_bit_map(net->n_terminals, b, to, 0, per_input, dst);
    return 0;
}

/* shuffle (perfect shuffle): rotate the b bits left by one, destination bit (i+1) mod b =
 * source bit i. */
static int shuffle_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                            uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    unsigned b = 0, to[RS__MAX_BITS];
    int rc = rs__work_bits(net, "shuffle", &b, err);
    if (rc != 0)
        return rc;
    for (unsigned i = 0; i < b; i++)
        to[i] = (i + 1) % b;
    fill_bit_map(net->n_terminals, b, to, 0, per_input, dst);
    return 0;
}

/* bitcomp: d = s XOR (N-1). */
static int bitcomp_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                            uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    unsigned b = 0, to[RS__MAX_BITS];
    int rc = rs__work_bits(net, "bitcomp", &b, err);
    if (rc != 0)
        return rc;
    for (unsigned i = 0; i < b; i++)
        to[i] = i;
    fill_bit_map(net->n_terminals, b, to, net->n_terminals - 1, per_input, dst);
    return 0;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Parse the `bpc` value "e0,e1,...,e(b-1)" (entry i = "j" or "~j", blanks allowed around
 * entries) into to[] and mask. Errors name the key: RS_EINVAL for an entry that is not
 * an integer, RS_ECONSTRAINT for a wrong count, a bit out of range or a destination bit
 * used twice. */
static int parse_bpc(const char *text, unsigned b, uint32_t n, unsigned *to, uint32_t *mask,
                     struct rs_err *err)
{
    unsigned count = 0;
    for (const char *c = text; *c != '\0'; c++)
        if (*c == ',')
            count++;
    count++;
    if (count != b)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "key 'bpc': expected %u entries for N=%u, got %u", b, n, count);

    unsigned used_by[RS__MAX_BITS];
    for (unsigned j = 0; j < b; j++)
        used_by[j] = RS__MAX_BITS;
    *mask = 0;
    const char *c = text;
    for (unsigned i = 0; i < b; i++) {
        const char *end = strchr(c, ',');
        size_t len = end != NULL ? (size_t)(end - c) : strlen(c);
        while (len > 0 && is_blank(*c)) {
            c++;
            len--;
        }
        while (len > 0 && is_blank(c[len - 1]))
            len--;
        const char *tok = c;
        size_t toklen = len;
        int comp = 0;
        if (len > 0 && *c == '~') {
            comp = 1;
            c++;
            len--;
        }
        /* digits only: no sign, no blanks between ~ and the number */
        int ok = len > 0 && len <= 9;
        for (size_t t = 0; ok && t < len; t++)
            ok = c[t] >= '0' && c[t] <= '9';
        if (!ok)
            return rs_err_set(err, RS_EINVAL,
                              "key 'bpc': entry %u is '%.*s', expected j or ~j with j in 0..%u",
                              i, (int)(toklen > 40 ? 40 : toklen), tok, b - 1);
        unsigned long j = strtoul(c, NULL, 10);
        if (j >= b)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "key 'bpc': entry %u names destination bit %lu, expected 0..%u", i,
                              j, b - 1);
        if (used_by[j] != RS__MAX_BITS)
            return rs_err_set(err, RS_ECONSTRAINT, "key 'bpc': destination bit %lu used twice",
                              j);
        used_by[j] = i;
        to[i] = (unsigned)j;
        if (comp)
            *mask |= (uint32_t)1 << j;
        c = end != NULL ? end + 1 : c + len;
    }
    return 0;
}

/* bpc: the map from the `bpc` key, or when absent a random one: to[] is a uniformly
 * random permutation of the b bit positions (RS_STREAM_PERM, entity 2^32 + 1) and the
 * complement mask is rs_rand_below(seed, RS_STREAM_TRAFFIC, entity 2^40, step 0, N). */
static int bpc_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                        uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    unsigned b = 0, to[RS__MAX_BITS];
    uint32_t mask = 0;
    int rc = rs__work_bits(net, "bpc", &b, err);
    if (rc != 0)
        return rc;
    const char *text = NULL;
    if (rs_params_text(p, &bpc_options[0]) != NULL) {
        rc = rs_opt_string(p, bpc_options, "bpc", &text, err);
        if (rc != 0)
            return rc;
    }
    if (text != NULL) {
        rc = parse_bpc(text, b, net->n_terminals, to, &mask, err);
        if (rc != 0)
            return rc;
    } else {
        uint32_t perm[RS__MAX_BITS];
        rs_random_permutation(perm, b, seed, RS_STREAM_PERM, RS__BPC_PERM_ENTITY);
        for (unsigned i = 0; i < b; i++)
            to[i] = perm[i];
        mask = rs_rand_below(seed, RS_STREAM_TRAFFIC, RS__BPC_MASK_ENTITY, 0, net->n_terminals);
    }
    fill_bit_map(net->n_terminals, b, to, mask, per_input, dst);
    return 0;
}

const struct rs_traffic_ops rs__traffic_bitrev = {
    .name = "bitrev",
    .summary = "bit reversal of the log2 N address bits (N a power of two)",
    .options = no_options,
    .generate = bitrev_generate,
};

const struct rs_traffic_ops rs__traffic_shuffle = {
    .name = "shuffle",
    .summary = "perfect shuffle: rotate the address bits left by one (N a power of two)",
    .options = no_options,
    .generate = shuffle_generate,
};

const struct rs_traffic_ops rs__traffic_bitcomp = {
    .name = "bitcomp",
    .summary = "bit complement: d = s xor (N-1) (N a power of two)",
    .options = no_options,
    .generate = bitcomp_generate,
};

const struct rs_traffic_ops rs__traffic_bpc = {
    .name = "bpc",
    .summary = "bit-permute-complement from key bpc, or a random one (N a power of two)",
    .options = bpc_options,
    .generate = bpc_generate,
};
