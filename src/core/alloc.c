/* The allocator hook (alloc.h): the C library by default, or the embedder's function. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"

static rs_alloc_fn hook; /* NULL: the C library */
static void *hook_ud;

/* A block from the hook; errno = ENOMEM when it fails, as the C library's malloc does. */
static void *call_hook(void *ptr, size_t size)
{
    void *p = hook(hook_ud, ptr, size);
    if (!p)
        errno = ENOMEM;
    return p;
}

void rs_alloc_set(rs_alloc_fn fn, void *ud)
{
    hook = fn;
    hook_ud = fn ? ud : NULL;
}

void rs_alloc_get(rs_alloc_fn *fn, void **ud)
{
    if (fn)
        *fn = hook;
    if (ud)
        *ud = hook_ud;
}

void *rs_malloc(size_t size)
{
    if (!hook)
        return malloc(size ? size : 1);
    return call_hook(NULL, size ? size : 1);
}

void *rs_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    size_t bytes = count * size;
    if (!hook)
        return calloc(1, bytes ? bytes : 1); /* keeps calloc's zero pages for large blocks */
    void *p = call_hook(NULL, bytes ? bytes : 1);
    if (p)
        memset(p, 0, bytes);
    return p;
}

void *rs_realloc(void *ptr, size_t size)
{
    if (!ptr)
        return rs_malloc(size);
    if (!hook)
        return realloc(ptr, size ? size : 1);
    return call_hook(ptr, size ? size : 1);
}

void rs_free(void *ptr)
{
    if (!ptr)
        return;
    if (!hook)
        free(ptr);
    else
        hook(hook_ud, ptr, 0);
}

char *rs_strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = rs_malloc(len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

char *rs_strdup(const char *s)
{
    return rs_strndup(s, SIZE_MAX);
}
