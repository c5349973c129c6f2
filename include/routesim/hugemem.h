/* Large zeroed allocations backed by transparent huge pages where the kernel allows it
 * (madvise mode): the engines' packet and queue arrays are touched at random, and 2 MiB
 * pages cut the TLB misses that dominate such access. */
#ifndef RS_CORE_HUGEMEM_H
#define RS_CORE_HUGEMEM_H

#include <stddef.h>

/* A zeroed block of bytes (NULL when out of memory; bytes == 0 gives a valid block): mmap
 * for large blocks, unless an allocator hook is set (alloc.h), which then gets every block.
 * Release with rs__huge_free and the same size. */
void *rs__huge_alloc(size_t bytes);

/* Release a block from rs__huge_alloc; p may be NULL. */
void rs__huge_free(void *p, size_t bytes);

#endif
