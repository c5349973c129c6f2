/* Error codes: their fixed texts, whether they mean bad input, and the message slot (where
 * every message is made one safe line: control bytes of quoted input escaped). */
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

/* Length of the valid UTF-8 sequence at s (1-4 bytes, none of them a C1 control), or 0. */
static size_t utf8_len(const unsigned char *s)
{
    size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0) /* U+0080..U+009F: C1 controls */
        return 0;
    if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (n == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
        (n == 4 && s[0] == 0xf0 && s[1] < 0x90) || (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))
        return 0; /* overlong, surrogate or beyond U+10FFFF */
    return n;
}

/* Copy the formatted message in into out (n bytes) with every control byte (C0, DEL, C1)
 * and every byte that is not part of valid UTF-8 written as \xNN, so that a message
 * quoting input stays one line and sends nothing to the terminal. Stops before an escape
 * that would not fit. */
void rs_err_escape(const char *in, char *out, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)in;
    size_t o = 0;
    while (*s) {
        size_t len = *s >= 0x20 && *s < 0x7f ? 1 : *s >= 0x80 ? utf8_len(s) : 0;
        if (len) {
            if (o + len >= n)
                break;
            for (size_t i = 0; i < len; i++)
                out[o++] = (char)s[i];
            s += len;
        } else {
            if (o + 4 >= n)
                break;
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[*s >> 4];
            out[o++] = hex[*s & 15];
            s++;
        }
    }
    out[o] = '\0';
}

int rs_err_set(struct rs_err *err, int code, const char *fmt, ...)
{
    RS_ASSERT(code < 0 && fmt != NULL); /* an RS_E... code with its message */
    if (err) {
        char raw[sizeof err->msg];
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        rs_err_escape(raw, err->msg, sizeof err->msg);
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
