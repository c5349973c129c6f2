/* Helpers shared by the topology files. */
#include <stdio.h>
#include <stdlib.h>

#include "topo/topo_util.h"

int rs__topo_read_pow2(const struct rs_params *p, const struct rs_optdef *table,
                       const char *topo, uint32_t max, uint32_t *N, uint32_t *log2n,
                       struct rs_err *err)
{
    int64_t v;
    int rc = rs_opt_int(p, table, "N", &v, err);
    if (rc)
        return rc;
    if (v < 2 || v > max) /* the option table's range normally catches this first */
        return rs_err_set(err, RS_ECONSTRAINT, "topology=%s needs N in [2, %u] (got N=%lld)",
                          topo, max, (long long)v);
    if (v & (v - 1))
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=%s needs N a power of two (got N=%lld)", topo, (long long)v);
    *N = (uint32_t)v;
    *log2n = (uint32_t)__builtin_ctz(*N);
    return 0;
}

void rs__topo_label_row(char *buf, size_t n, uint32_t level, uint32_t row, uint32_t bits)
{
    int len = snprintf(buf, n, "<%u,", level);
    for (uint32_t b = 0; b < bits && len > 0 && (size_t)len + 2 < n; b++)
        buf[len++] = (char)('0' + ((row >> b) & 1));
    if (len > 0 && (size_t)len + 2 <= n) {
        buf[len++] = '>';
        buf[len] = '\0';
    }
}

int rs__topo_read_list(const struct rs_params *p, const struct rs_optdef *table, const char *key,
                       uint32_t lo, uint32_t hi, uint32_t max_n, uint32_t *out, uint32_t *n,
                       struct rs_err *err)
{
    const char *text;
    char where[256];
    int rc = rs_opt_string(p, table, key, &text, err);
    if (rc)
        return rc;
    const struct rs_param *par = rs_params_find(p, key);
    if (par)
        rs_param_where(par, where, sizeof where);
    else
        snprintf(where, sizeof where, "default");
    *n = 0;
    const char *c = text;
    for (;;) {
        while (*c == ' ' || *c == '\t')
            c++;
        char *end;
        unsigned long v = (*c >= '0' && *c <= '9') ? strtoul(c, &end, 10) : 0;
        if (!(*c >= '0' && *c <= '9') || v < lo || v > hi || *n == max_n)
            return rs_err_set(err, RS_EINVAL,
                              "%s: key '%s': expected an integer %u..%u or a list of at most %u "
                              "of them (4,4,4 or 4/4/4), got '%.60s'",
                              where, key, lo, hi, max_n, text);
        out[(*n)++] = (uint32_t)v;
        c = end;
        while (*c == ' ' || *c == '\t')
            c++;
        if (*c == '\0')
            return 0;
        if (*c != ',' && *c != '/')
            return rs_err_set(err, RS_EINVAL,
                              "%s: key '%s': expected an integer %u..%u or a list of at most %u "
                              "of them (4,4,4 or 4/4/4), got '%.60s'",
                              where, key, lo, hi, max_n, text);
        c++;
    }
}
