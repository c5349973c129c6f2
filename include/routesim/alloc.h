/* The library's one allocator hook (after Lua's lua_Alloc): every heap block the library
 * owns is allocated, resized and released through rs_malloc and friends, which call one
 * process-wide function; an embedder may replace it (memory accounting, fault injection). */
#ifndef ROUTESIM_ALLOC_H
#define ROUTESIM_ALLOC_H

#include <stddef.h>

/* An allocator: with ptr NULL, allocate size bytes (size > 0); with ptr non-NULL and size
 * > 0, resize the block to size bytes (realloc semantics: on failure return NULL and leave
 * ptr valid); with size 0, release ptr (may be NULL) and return NULL. Returns NULL on
 * failure. ud is the pointer given to rs_alloc_set. The block sizes are in BYTES. The
 * hook is called from several threads at once (sweeps run OpenMP threads): it must be
 * thread-safe, and any counter it keeps must be atomic. Blocks need malloc's alignment. */
typedef void *(*rs_alloc_fn)(void *ud, void *ptr, size_t size);

/* Replace the allocator (fn NULL restores the C library's malloc/realloc/free).
 * Thread-safety rule: call it only while no other thread is inside the library and no
 * library object (network, problem, result, sweep, buffer...) is live, since a block must
 * be released by the allocator that made it. Not itself thread-safe. */
void rs_alloc_set(rs_alloc_fn fn, void *ud);

/* The current allocator and its ud (fn is NULL while the C library is in use). */
void rs_alloc_get(rs_alloc_fn *fn, void **ud);

/* malloc, calloc, realloc, free, strdup and strndup through the hook; the same contracts
 * as the C library's (NULL on failure; a size of 0 still gives a distinct block; counts
 * and sizes in BYTES except calloc's element count). rs_calloc checks count * size for
 * overflow. A failure sets errno to ENOMEM. */
void *rs_malloc(size_t size);
void *rs_calloc(size_t count, size_t size);
void *rs_realloc(void *ptr, size_t size);
void rs_free(void *ptr);
char *rs_strdup(const char *s);
char *rs_strndup(const char *s, size_t n);

#endif
