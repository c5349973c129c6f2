/* Replays every file of a corpus folder through the fuzzing harness (fuzz_inputs.c), so
 * each `make test` re-checks the inputs the fuzzer has kept, under whatever sanitizers the
 * build has. Prints "N passed, 0 failed" (a crash fails the test). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_replay CORPUS_DIR\n");
        return 2;
    }
    DIR *d = opendir(argv[1]);
    if (!d) {
        perror(argv[1]);
        return 1;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        uint8_t *buf = malloc(1 << 20);
        size_t len = buf ? fread(buf, 1, 1 << 20, f) : 0;
        fclose(f);
        if (buf)
            LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        n++;
    }
    closedir(d);
    if (n == 0) {
        fprintf(stderr, "fuzz_replay: no inputs in %s\n", argv[1]);
        return 1;
    }
    printf("%d passed, 0 failed\n", n);
    return 0;
}
