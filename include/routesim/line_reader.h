/* Reading a text input file line by line (traffic, graph and paths files): blank lines and
 * lines whose first non-blank character is '#' are skipped (they still count for line
 * numbers), surrounding blanks and CR line ends are stripped, and a NUL byte is shown as
 * '?' so that it fails to parse visibly. */
#ifndef RS_CORE_LINE_READER_H
#define RS_CORE_LINE_READER_H

#include <stdint.h>
#include <stdio.h>

#include "routesim/error.h"

struct rs__lines {
    const char *path; /* as given, for messages */
    FILE *f;
    char *buf;
    size_t cap;
    uint64_t line;    /* number of the line last returned (1-based) */
};

/* Open path. Returns 0 or RS_EIO "cannot open 'F': reason". */
int rs__lines_open(struct rs__lines *r, const char *path, struct rs_err *err);

/* Next line with content into *text (NUL-terminated, stripped, owned by r until the next
 * call). Returns 1 with a line, 0 at the end of the file, or RS_EIO / RS_ENOMEM. */
int rs__lines_next(struct rs__lines *r, char **text, struct rs_err *err);

/* Close the file and free the buffer; safe after a failed open. */
void rs__lines_close(struct rs__lines *r);

/* Blank separators of the formats: space and tab. */
static inline int rs__is_sep(char c)
{
    return c == ' ' || c == '\t';
}

/* Parse the decimal token at *s (digits only, no sign) ending at a separator or the end of
 * the line into *v, advancing *s past it. Returns 1 when the token is a number <= max,
 * 0 when it is not a number, -1 when it is a number > max. *tok and *tok_len get the token
 * (for messages). Leading separators are skipped; at the end of the line *tok_len is 0. */
int rs__parse_uint(char **s, uint64_t max, uint64_t *v, const char **tok, int *tok_len);

#endif
