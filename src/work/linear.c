/* traffic=linear: linear (and, with a complement, affine) permutations of N = 2^b terminals
 * over GF(2) (SPEC W1; 002 §4.2, Raghavendra-Boppana): destination bit i is the XOR of the
 * source bits in row i of an invertible b x b bit matrix, from the `matrix` key or random. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/problem.h"
#include "routesim/rng.h"
#include "work/bits.h"

/* Entity of the permutation stream for the random matrix: after qrelation's 2^32 and bpc's
 * 2^32 + 1, below root's 2^33. */
#define RS__LINEAR_ENTITY (((uint64_t)1 << 32) + 2)

static const struct rs_optdef linear_options[] = {
    {"matrix", RS_OPT_STRING, NULL, 0, 0, NULL,
     "rows, least significant destination bit first: row i = the source bits XORed into "
     "destination bit i, as a mask (5, 0b101, 0x5); absent = a random invertible matrix", "-"},
    {"complement", RS_OPT_INT, "0", 0, 4294967295.0, NULL,
     "mask XORed into every destination (0 = linear; else an affine permutation)", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* Index of the first row of rows[0..b) that is a XOR of earlier rows (Gaussian elimination
 * over GF(2)), or b when the matrix is invertible. */
static unsigned dependent_row(const uint32_t *rows, unsigned b)
{
    uint32_t basis[32] = {0}; /* basis[p]: a reduced row with highest set bit p */
    for (unsigned i = 0; i < b; i++) {
        uint32_t r = rows[i];
        for (int p = 31; p >= 0 && r; p--) {
            if (!((r >> p) & 1))
                continue;
            if (!basis[p]) {
                basis[p] = r;
                break;
            }
            r ^= basis[p];
        }
        if (!r)
            return i;
    }
    return b;
}

/* Parse "r0,r1,...,r(b-1)" (each a decimal number, or 0b / 0x followed by binary / hex
 * digits; blanks around entries allowed) into rows. RS_EINVAL for an entry that is not a
 * number, RS_ECONSTRAINT for a wrong count, a row with bits at or above b, or a singular
 * matrix. */
static int parse_matrix(const char *text, unsigned b, uint32_t n, uint32_t *rows,
                        struct rs_err *err)
{
    unsigned count = 1;
    for (const char *c = text; *c; c++)
        count += *c == ',';
    if (count != b)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "key 'matrix': expected %u rows for N=%u, got %u", b, n, count);
    const char *c = text;
    for (unsigned i = 0; i < b; i++) {
        while (*c == ' ' || *c == '\t')
            c++;
        const char *tok = c;
        unsigned base = 10;
        if (c[0] == '0' && (c[1] == 'b' || c[1] == 'B' || c[1] == 'x' || c[1] == 'X')) {
            base = c[1] == 'b' || c[1] == 'B' ? 2 : 16;
            c += 2;
        }
        uint64_t v = 0;
        unsigned digits = 0;
        for (;; c++, digits++) {
            unsigned dv = *c >= '0' && *c <= '9'   ? (unsigned)(*c - '0')
                          : *c >= 'a' && *c <= 'f' ? (unsigned)(*c - 'a' + 10)
                          : *c >= 'A' && *c <= 'F' ? (unsigned)(*c - 'A' + 10)
                                                   : 99;
            if (dv >= base)
                break;
            v = v * base + dv;
            if (v > UINT32_MAX)
                break;
        }
        while (*c == ' ' || *c == '\t')
            c++;
        if (!digits || v > UINT32_MAX || (*c != ',' && *c != '\0')) {
            size_t len = strcspn(tok, ",");
            return rs_err_set(err, RS_EINVAL,
                              "key 'matrix': row %u is '%.*s', expected a bit mask (5, 0b101 "
                              "or 0x5)",
                              i, (int)(len > 40 ? 40 : len), tok);
        }
        if (v >= n)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "key 'matrix': row %u is %llu, expected a mask of the %u source "
                              "bits (below %u)",
                              i, (unsigned long long)v, b, n);
        rows[i] = (uint32_t)v;
        if (*c == ',')
            c++;
    }
    unsigned dep = dependent_row(rows, b);
    if (dep < b)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "key 'matrix': row %u is a XOR of earlier rows, so the matrix is "
                          "singular over GF(2) and does not give a permutation",
                          dep);
    return 0;
}

/* linear: the matrix of the `matrix` key, or when absent one drawn uniformly among the
 * invertible ones: b uniform rows from (seed, RS_STREAM_PERM, entity 2^32 + 2, step 0),
 * drawn again while singular (fewer than 3.5 tries on average). dst = A s xor complement. */
static int linear_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                           uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    unsigned b = 0;
    uint32_t rows[32], n = net->n_terminals;
    int64_t comp = 0;
    int rc = rs__work_bits(net, "linear", &b, err);
    if (rc || (rc = rs_opt_int(p, linear_options, "complement", &comp, err)))
        return rc;
    if ((uint64_t)comp >= n)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "key 'complement': %lld is not a mask of the %u address bits (below "
                          "N=%u)",
                          (long long)comp, b, n);
    if (rs_params_text(p, &linear_options[0])) {
        const char *text;
        if ((rc = rs_opt_string(p, linear_options, "matrix", &text, err)) ||
            (rc = parse_matrix(text, b, n, rows, err)))
            return rc;
    } else {
        struct rs_rng r;
        rs_rng_init(&r, seed, RS_STREAM_PERM, RS__LINEAR_ENTITY, 0);
        do {
            for (unsigned i = 0; i < b; i++)
                rows[i] = rs_rng_below(&r, n);
        } while (dependent_row(rows, b) < b);
    }
    for (uint32_t s = 0; s < n; s++) {
        uint32_t d = 0;
        for (unsigned i = 0; i < b; i++)
            d |= (uint32_t)__builtin_parity(rows[i] & s) << i;
        d ^= (uint32_t)comp;
        for (uint32_t k = 0; k < per_input; k++)
            dst[(uint64_t)s * per_input + k] = d;
    }
    return 0;
}

const struct rs_traffic_ops rs__traffic_linear = {
    .name = "linear",
    .summary = "linear permutation over GF(2), d = A s (xor complement): key matrix or a random "
               "invertible A (N a power of two)",
    .options = linear_options,
    .generate = linear_generate,
};
