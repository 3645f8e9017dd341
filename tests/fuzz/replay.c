/*
 * replay.c - runs the fuzz entry point on files given on the command line,
 * without libFuzzer, so that every crash the fuzzer once found stays fixed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads a whole file; NULL when it cannot. */
static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    fclose(f);
    *size = n;
    return buf;
}

int main(int argc, char **argv)
{
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        size_t size;
        unsigned char *data = slurp(argv[i], &size);
        if (!data) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            failed = 1;
            continue;
        }
        LLVMFuzzerTestOneInput(data, size);
        free(data);
    }
    printf("replayed %d input(s)\n", argc - 1);
    return failed;
}
