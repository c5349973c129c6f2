/* Digit-based permutations (SPEC W1): identity, transpose, tornado and neighbor. They
 * read a terminal address as net->shape_n digits x_0 .. x_(n-1) in base k = net->shape_k
 * (s = sum x_i k^i; mesh: coordinates, butterfly: bits, ring: one digit). */
#include <stdint.h>

#include "routesim/problem.h"

#define RS__MAX_DIGITS 32 /* k >= 2 and N < 2^32 give at most 32 digits */

static const struct rs_optdef no_options[] = {{NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* How a traffic maps the digits of a source to those of its destination. */
enum digit_map { MAP_TRANSPOSE, MAP_TORNADO, MAP_NEIGHBOR };

/* 0 when the network's shape describes its terminals (k >= 2, n >= 1, k^n = N), else
 * RS_EUNSUPPORTED naming the traffic and the topology. */
static int check_shape(const struct rs_net *net, const char *name, struct rs_err *err)
{
    uint64_t k = net->shape_k, n = net->shape_n, count = 1;
    int ok = k >= 2 && n >= 1 && n <= RS__MAX_DIGITS;
    for (uint64_t i = 0; ok && i < n; i++) {
        count *= k;
        ok = count <= net->n_terminals;
    }
    if (!ok || count != net->n_terminals)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "traffic=%s needs terminal addresses as digits, which topology '%s' "
                          "does not give (shape k=%u n=%u, N=%u)",
                          name, net->name, net->shape_k, net->shape_n, net->n_terminals);
    return 0;
}

/* Fill dst[s*q + k] = f(s) for every k, with f applying map to every digit. */
static void fill_digit_map(const struct rs_net *net, enum digit_map map, uint32_t per_input,
                           uint32_t *dst)
{
    uint32_t k = net->shape_k, n = net->shape_n, x[RS__MAX_DIGITS], y[RS__MAX_DIGITS];
    uint32_t shift = (k + 1) / 2 - 1; /* tornado: ceil(k/2) - 1, as in BookSim */
    for (uint32_t s = 0; s < net->n_terminals; s++) {
        uint32_t v = s;
        for (uint32_t i = 0; i < n; i++) {
            x[i] = v % k;
            v /= k;
        }
        for (uint32_t i = 0; i < n; i++) {
            switch (map) {
            case MAP_TRANSPOSE:
                y[i] = x[(i + n / 2) % n];
                break;
            case MAP_TORNADO:
                y[i] = (x[i] + shift) % k;
                break;
            case MAP_NEIGHBOR:
                y[i] = (x[i] + 1) % k;
                break;
            }
        }
        uint32_t d = 0;
        for (uint32_t i = n; i-- > 0;)
            d = d * k + y[i];
        for (uint32_t j = 0; j < per_input; j++)
            dst[(uint64_t)s * per_input + j] = d;
    }
}

/* identity: d = s (needs no shape). */
static int identity_generate(const struct rs_net *net, const struct rs_params *p,
                             uint64_t seed, uint32_t per_input, uint32_t *dst,
                             struct rs_err *err)
{
    for (uint32_t s = 0; s < net->n_terminals; s++)
        for (uint32_t j = 0; j < per_input; j++)
            dst[(uint64_t)s * per_input + j] = s;
    return 0;
}

/* transpose: destination digit i = source digit (i + n/2) mod n when n is even; else, when
 * N = 2^b with b even, the two halves of the address bits swapped (BookSim's rule). */
static int transpose_generate(const struct rs_net *net, const struct rs_params *p,
                              uint64_t seed, uint32_t per_input, uint32_t *dst,
                              struct rs_err *err)
{
    int rc = check_shape(net, "transpose", err);
    if (rc != 0)
        return rc;
    if (net->shape_n % 2 == 0) {
        fill_digit_map(net, MAP_TRANSPOSE, per_input, dst);
        return 0;
    }
    /* An odd digit count: BookSim's transpose swaps the halves of the address's bits, which
     * is the digit swap whenever both exist (k a power of two, n even). */
    uint32_t bits = 0, N = net->n_terminals;
    while (bits < 32 && (UINT64_C(1) << bits) < N)
        bits++;
    if ((UINT64_C(1) << bits) != N || bits % 2 != 0)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "traffic=transpose needs an even number of address digits or of "
                          "address bits (got %u digits of base %u, N=%u)",
                          net->shape_n, net->shape_k, N);
    uint32_t half = bits / 2, mask = (UINT32_C(1) << half) - 1;
    for (uint32_t s = 0; s < N; s++) {
        uint32_t d = ((s & mask) << half) | (s >> half);
        for (uint32_t j = 0; j < per_input; j++)
            dst[(uint64_t)s * per_input + j] = d;
    }
    return 0;
}

/* tornado: every digit x -> (x + ceil(k/2) - 1) mod k. */
static int tornado_generate(const struct rs_net *net, const struct rs_params *p, uint64_t seed,
                            uint32_t per_input, uint32_t *dst, struct rs_err *err)
{
    int rc = check_shape(net, "tornado", err);
    if (rc != 0)
        return rc;
    fill_digit_map(net, MAP_TORNADO, per_input, dst);
    return 0;
}

/* neighbor: every digit x -> (x + 1) mod k. */
static int neighbor_generate(const struct rs_net *net, const struct rs_params *p,
                             uint64_t seed, uint32_t per_input, uint32_t *dst,
                             struct rs_err *err)
{
    int rc = check_shape(net, "neighbor", err);
    if (rc != 0)
        return rc;
    fill_digit_map(net, MAP_NEIGHBOR, per_input, dst);
    return 0;
}

const struct rs_traffic_ops rs__traffic_identity = {
    .name = "identity",
    .summary = "every terminal sends to itself",
    .options = no_options,
    .generate = identity_generate,
};

const struct rs_traffic_ops rs__traffic_transpose = {
    .name = "transpose",
    .summary = "swap the upper and lower halves of the address digits ((x,y) -> (y,x))",
    .options = no_options,
    .generate = transpose_generate,
};

const struct rs_traffic_ops rs__traffic_tornado = {
    .name = "tornado",
    .summary = "every address digit x -> (x + ceil(k/2) - 1) mod k (BookSim's tornado)",
    .options = no_options,
    .generate = tornado_generate,
};

const struct rs_traffic_ops rs__traffic_neighbor = {
    .name = "neighbor",
    .summary = "every address digit x -> (x + 1) mod k",
    .options = no_options,
    .generate = neighbor_generate,
};
