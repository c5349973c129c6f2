/* Resource limits: byte sizes as users write them (64M, 2G), the memory a run may use
 * (the max_memory key, else what the machine has available), and the message a refused
 * estimate gives. The CLI exits 3 for RS_ERESOURCE and RS_ENOMEM (docs/resources.md). */
#ifndef ROUTESIM_RESOURCES_H
#define ROUTESIM_RESOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "routesim/error.h"

/* Parse a byte count: a plain integer or one followed by K, M, G or T (powers of 1024;
 * an optional trailing "iB" or "B", any case), e.g. "4096", "64M", "1.5GiB". Returns 0 with
 * *bytes set, or RS_EINVAL (err names key and text) for anything else, 0 included. */
int rs_bytes_parse(const char *key, const char *text, uint64_t *bytes, struct rs_err *err);

/* Write bytes as a short human text into buf (n bytes): "812 B", "3.2 KiB", "1.5 GiB". */
void rs_bytes_format(uint64_t bytes, char *buf, size_t n);

/* Bytes of memory available to a new allocation now: MemAvailable of /proc/meminfo, else
 * sysconf's available physical pages; UINT64_MAX when neither is known (no limit). */
uint64_t rs_mem_available(void);

/* Refuse an estimate over a limit (UNITS: bytes): returns 0 when need <= limit, else
 * RS_ERESOURCE with err = "WHAT needs about X of memory, more than LIMIT_TEXT (Y)", or with
 * limit_text NULL (the limit is the memory available) "..., more than the Y available (the
 * max_memory key sets the limit)". */
int rs_mem_check(const char *what, uint64_t need, uint64_t limit, const char *limit_text,
                 struct rs_err *err);

#endif
