/* Progress of one long `routesim run` on stderr, when stderr is a terminal: one refreshed
 * line with the step reached, the steps per second and, in a batch run, the messages left
 * and the time left at the rate they have been leaving. The driver calls back every 16
 * steps (cmd_run.c); the clock is read then and the line redrawn at most twice a second,
 * the first time after one second, so that short runs print nothing and long ones cost one
 * clock read per 16 steps. */
#include <stdio.h>
#include <time.h>

#include "cli/cli.h"

double cli_seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

void cli_run_progress_init(struct cli_run_progress *pr)
{
    clock_gettime(CLOCK_MONOTONIC, &pr->start);
    pr->next_show = 1.0;
    pr->first_remaining = 0;
    pr->shown = 0;
}

int cli_run_progress(void *user, uint32_t step, uint64_t remaining)
{
    struct cli_run_progress *pr = user;
    double el = cli_seconds_since(&pr->start);
    if (!pr->first_remaining)
        pr->first_remaining = remaining;
    if (el < pr->next_show)
        return 0;
    pr->next_show = el + 0.5;
    double rate = (double)step / el;
    if (remaining && pr->first_remaining > remaining) {
        double gone = (double)(pr->first_remaining - remaining);
        fprintf(stderr, "\rroutesim: step %u, %.3g steps/s, %llu messages left, about %.0f s "
                        "left   ", step, rate, (unsigned long long)remaining,
                el * (double)remaining / gone);
    } else if (remaining) {
        fprintf(stderr, "\rroutesim: step %u, %.3g steps/s, %llu messages left   ", step, rate,
                (unsigned long long)remaining);
    } else {
        fprintf(stderr, "\rroutesim: step %u, %.3g steps/s, %.0f s elapsed   ", step, rate, el);
    }
    pr->shown = 1;
    return 0;
}

void cli_run_progress_end(const struct cli_run_progress *pr)
{
    if (pr->shown) /* leave the terminal where it was: clear the line */
        fprintf(stderr, "\r%*s\r", 78, "");
}
