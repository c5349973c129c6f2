/* Contract assertions (SQLite's assert/ALWAYS style): RS_ASSERT states a precondition or
 * invariant that a comment's contract promises; a failure is a bug in routesim, never bad
 * input (bad input is an RS_E... error value), so it prints the broken condition and aborts.
 *
 *   RS_ASSERT(c)   checked unless NDEBUG is defined: Debug, RelWithDebInfo (the default
 *                  build, used by `make test` and `make run`) and sanitizer builds. Use it
 *                  at set-up and API boundaries, not per packet or per flit.
 *   RS_DASSERT(c)  checked only in Debug builds (RS_ALWAYS_CHECK=1): for hot loops, where
 *                  even a predictable branch costs instructions that `make bench` counts. */
#ifndef ROUTESIM_ASSERT_H
#define ROUTESIM_ASSERT_H

/* Print "routesim: FILE:LINE: FUNC: contract 'COND' broken" on stderr and abort().
 * Never returns. */
_Noreturn void rs__assert_fail(const char *cond, const char *file, int line, const char *func);

#ifdef NDEBUG
#define RS_ASSERT(c) ((void)0)
#else
#define RS_ASSERT(c) ((c) ? (void)0 : rs__assert_fail(#c, __FILE__, __LINE__, __func__))
#endif

#if defined(RS_ALWAYS_CHECK) && !defined(NDEBUG)
#define RS_DASSERT(c) RS_ASSERT(c)
#else
#define RS_DASSERT(c) ((void)0)
#endif

#endif
