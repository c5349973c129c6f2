/* Large zeroed allocations on huge pages (see hugemem.h). Small blocks, and every block while
 * an embedder's allocator hook is set (alloc.h), go through rs_calloc. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <stdlib.h>
#include <sys/mman.h>

#include "routesim/alloc.h"
#include "routesim/hugemem.h"

#define RS_HUGE_MIN ((size_t)1 << 21)

void *rs__huge_alloc(size_t bytes)
{
    rs_alloc_fn hook;
    rs_alloc_get(&hook, NULL);
    if (bytes < RS_HUGE_MIN || hook)
        return rs_calloc(1, bytes ? bytes : 1);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE); /* advisory: failure only costs speed */
#endif
    return p;
}

void rs__huge_free(void *p, size_t bytes)
{
    if (!p)
        return;
    rs_alloc_fn hook;
    rs_alloc_get(&hook, NULL);
    if (bytes < RS_HUGE_MIN || hook) /* the hook cannot change while a block is live */
        rs_free(p);
    else
        munmap(p, bytes);
}
