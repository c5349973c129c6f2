/* Tests of RS_ASSERT: a kept contract costs nothing visible; a broken one aborts the process
 * with the condition on stderr (checked in a child process). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>
#include <cmocka.h>

#include "routesim/assert.h"

static int half(int x)
{
    RS_ASSERT(x % 2 == 0);
    return x / 2;
}

static void test_kept_contract(void **state)
{
    (void)state;
    assert_int_equal(half(8), 4);
}

static void test_broken_contract_aborts(void **state)
{
    (void)state;
#ifdef NDEBUG
    skip();
#else
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0)
            dup2(fd, 2); /* keep the test log clean */
        (void)half(3);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_contract),
        cmocka_unit_test(test_broken_contract_aborts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
