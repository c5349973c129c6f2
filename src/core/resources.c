/* Resource limits: byte-size parsing and formatting, available memory, the refusal of an
 * estimate over its limit. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "routesim/resources.h"

int rs_bytes_parse(const char *key, const char *text, uint64_t *bytes, struct rs_err *err)
{
    char *end;
    double v = strtod(text, &end);
    double mul = 1;
    if (end != text && *end) {
        const char *units = "KMGT";
        const char *u = strchr(units, toupper((unsigned char)*end));
        if (u && *end) {
            for (const char *x = units; x <= u; x++)
                mul *= 1024;
            end++;
            if (!strcasecmp(end, "ib") || !strcasecmp(end, "b"))
                end += strlen(end);
        } else if (!strcasecmp(end, "b")) {
            end++;
        }
    }
    if (end == text || *end || !(v >= 1) || isspace((unsigned char)text[0]) ||
        v * mul >= 18446744073709551615.0)
        return rs_err_set(err, RS_EINVAL,
                          "key '%s': expected a size in bytes (e.g. 512M, 4G, 1048576), got '%s'",
                          key, text);
    *bytes = (uint64_t)(v * mul);
    return 0;
}

void rs_bytes_format(uint64_t bytes, char *buf, size_t n)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 6) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, n, "%llu B", (unsigned long long)bytes);
    else
        snprintf(buf, n, "%.*f %s", v < 10 ? 1 : 0, v, unit[u]);
}

uint64_t rs_mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kb;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
            fclose(f);
            return (uint64_t)kb * 1024;
        }
    if (f)
        fclose(f);
#ifdef _SC_AVPHYS_PAGES
    long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0)
        return (uint64_t)pages * (uint64_t)size;
#endif
    return UINT64_MAX;
}

int rs_mem_check(const char *what, uint64_t need, uint64_t limit, const char *limit_text,
                 struct rs_err *err)
{
    char a[32], b[32];
    if (need <= limit)
        return 0;
    rs_bytes_format(need, a, sizeof a);
    rs_bytes_format(limit, b, sizeof b);
    if (!limit_text)
        return rs_err_set(err, RS_ERESOURCE,
                          "%s needs about %s of memory, more than the %s available (the "
                          "max_memory key sets the limit)",
                          what, a, b);
    return rs_err_set(err, RS_ERESOURCE, "%s needs about %s of memory, more than %s (%s)",
                      what, a, limit_text, b);
}
