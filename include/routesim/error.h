/* routesim error codes and messages. The library never prints or exits: every fallible
 * function returns 0 or a negative RS_E... code and writes a one-line message into a
 * caller-owned struct rs_err (git style: lower case, what failed first). */
#ifndef ROUTESIM_ERROR_H
#define ROUTESIM_ERROR_H

#include <stddef.h>

/* X(name, value, short text, is_bad_input) */
#define RS_ERROR_LIST(X)                                                        \
    X(RS_OK, 0, "success", 0)                                                   \
    X(RS_EINVAL, -1, "invalid value", 1)                                        \
    X(RS_EUNKNOWN, -2, "unknown name", 1)                                       \
    X(RS_ECONSTRAINT, -3, "constraint violated", 1)                             \
    X(RS_EPARSE, -4, "parse error", 1)                                          \
    X(RS_EIO, -5, "input/output error", 1)                                      \
    X(RS_ENOMEM, -6, "out of memory", 0)                                        \
    X(RS_EDEADLOCK, -7, "deadlock", 0)                                          \
    X(RS_EINVARIANT, -8, "invariant violated", 0)                               \
    X(RS_EUNSUPPORTED, -9, "unsupported combination", 1)                        \
    X(RS_EINTERRUPTED, -10, "interrupted", 0)                                   \
    X(RS_EUNFINISHED, -11, "did not finish", 0)                                 \
    X(RS_EWRITE, -12, "write failed", 0)                                        \
    X(RS_ERESOURCE, -13, "resource limit exceeded", 0)

enum rs_errcode {
#define RS__ERR_ENUM(name, value, text, bad) name = value,
    RS_ERROR_LIST(RS__ERR_ENUM)
#undef RS__ERR_ENUM
};

/* Caller-owned error slot. code is 0 until rs_err_set() is called. */
struct rs_err {
    int code;
    char msg[512];
};

/* Short fixed text of an error code ("unknown name"); never NULL. */
const char *rs_strerror(int code);

/* 1 when code means bad input or usage (the CLI exits 2), 0 otherwise (exit 1). */
int rs_err_is_input(int code);

/* 1 when code means a resource error: out of memory (RS_ENOMEM) or an estimate refused
 * by a limit (RS_ERESOURCE); the CLI exits 3 (docs/resources.md). 0 otherwise. */
int rs_err_is_resource(int code);

/* Record code and a printf-style message in err (err may be NULL), escaped by
 * rs_err_escape so that input quoted in it (a file's bytes, an argument) can neither split
 * the line nor reach the terminal as a control sequence. Returns code, so a caller can
 * write `return rs_err_set(err, RS_EINVAL, "...", ...);`. */
int rs_err_set(struct rs_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Copy text into out (n > 0 bytes, always terminated) with every control byte (C0, DEL,
 * C1) and every byte that is not part of valid UTF-8 written as \xNN (ESC is "\x1b", a
 * newline "\x0a"); printable ASCII and valid UTF-8 are kept, so escaping twice changes
 * nothing. Cut before a character or escape that would not fit. */
void rs_err_escape(const char *text, char *out, size_t n);

/* Reset err to code 0 and an empty message. */
void rs_err_clear(struct rs_err *err);

#endif
