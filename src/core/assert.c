/* The failure path of RS_ASSERT (include/routesim/assert.h): the one place the library
 * prints, because a broken contract is a bug and the process cannot continue safely. */
#include "routesim/assert.h"

#include <stdio.h>
#include <stdlib.h>

_Noreturn void rs__assert_fail(const char *cond, const char *file, int line, const char *func)
{
    fprintf(stderr, "routesim: %s:%d: %s: contract '%s' broken (a bug in routesim)\n", file,
            line, func, cond);
    fflush(stderr);
    abort();
}
