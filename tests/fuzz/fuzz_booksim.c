/* Fuzzing harness of the BookSim config parser (src/core/booksim_config.c): the input is
 * the text of a BookSim file; it is detected, parsed and mapped, and a mapped result is
 * written back as INI. Errors are expected; crashes, leaks and sanitizer reports are not.
 * Built with libFuzzer by -DRS_FUZZ=ON; replayed over tests/fuzz/corpus_booksim by every
 * `make test`. */
#include <stdint.h>
#include <string.h>

#include "routesim/booksim_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rs_params p;
    struct rs_err err;
    struct rs_buf out;
    const char *text = (const char *)data;
    (void)rs_booksim_detect("fuzz.cfg", text, size);
    rs_params_init(&p);
    rs_err_clear(&err);
    if (!rs_booksim_parse(&p, text, size, "fuzz.cfg", &err)) {
        rs_buf_init(&out);
        (void)rs_params_write_ini(&p, "fuzz.cfg", &out);
        rs_buf_free(&out);
    }
    rs_params_free(&p);
    return 0;
}
