/* Tests of src/core/hugemem.c: large (mmap, huge pages) and small (calloc) blocks are
 * zeroed and writable, and freeing accepts NULL at every size. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "routesim/hugemem.h"

/* p[0..n) is all zero; then write a pattern over it and read it back. */
static void check_block(unsigned char *p, size_t n)
{
    assert_non_null(p);
    size_t nonzero = 0;
    for (size_t i = 0; i < n; i++)
        nonzero += p[i] != 0;
    assert_int_equal(nonzero, 0);
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 31 + 7);
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += p[i] != (unsigned char)(i * 31 + 7);
    assert_int_equal(wrong, 0);
}

static void test_hugemem(void **state)
{
    (void)state;
    size_t big = (size_t)4 << 20; /* 4 MiB: the mmap + huge page path */
    unsigned char *p = rs__huge_alloc(big);
    check_block(p, big);
    unsigned char *q = rs__huge_alloc(100); /* calloc path */
    check_block(q, 100);
    unsigned char *z = rs__huge_alloc(0); /* valid, distinct block */
    assert_non_null(z);
    /* a second large block is zeroed too, whatever the first one held */
    unsigned char *p2 = rs__huge_alloc(big);
    check_block(p2, big);
    rs__huge_free(p, big);
    rs__huge_free(q, 100);
    rs__huge_free(z, 0);
    rs__huge_free(p2, big);
    rs__huge_free(NULL, 0);
    rs__huge_free(NULL, 100);
    rs__huge_free(NULL, big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hugemem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
