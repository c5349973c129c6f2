/* Error codes: their fixed texts, whether they mean bad input, and the message slot. */
#include <stdarg.h>
#include <stdio.h>

#include "routesim/assert.h"
#include "routesim/error.h"

const char *rs_strerror(int code)
{
    switch (code) {
#define RS__ERR_TEXT(name, value, text, bad) \
    case value:                              \
        return text;
        RS_ERROR_LIST(RS__ERR_TEXT)
#undef RS__ERR_TEXT
    }
    return "unknown error";
}

int rs_err_is_input(int code)
{
    switch (code) {
#define RS__ERR_BAD(name, value, text, bad) \
    case value:                             \
        return bad;
        RS_ERROR_LIST(RS__ERR_BAD)
#undef RS__ERR_BAD
    }
    return 0;
}

int rs_err_is_resource(int code)
{
    return code == RS_ENOMEM || code == RS_ERESOURCE;
}

int rs_err_set(struct rs_err *err, int code, const char *fmt, ...)
{
    RS_ASSERT(code < 0 && fmt != NULL); /* an RS_E... code with its message */
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

void rs_err_clear(struct rs_err *err)
{
    if (err) {
        err->code = 0;
        err->msg[0] = '\0';
    }
}
