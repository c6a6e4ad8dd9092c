/* Helpers shared by the C test programs: golden files, the input pattern, checks. */
#ifndef NVSURF_TEST_COMMON_H
#define NVSURF_TEST_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvsurf.h"

/* Not every program uses every helper. */
#if defined(__GNUC__)
#define TEST_HELPER static __attribute__((unused))
#else
#define TEST_HELPER static
#endif

static int failures = 0;

/* A call that must succeed: on error, print its status and message and count a failure. */
#define CHECK_OK(call)                                                                      \
    do {                                                                                    \
        NvsurfStatus st_ = (call);                                                          \
        if (st_ != NVSURF_OK) {                                                             \
            fprintf(stderr, "%s:%d: %s -> status %d: %s\n", __FILE__, __LINE__, #call,      \
                    (int)st_, nvsurf_last_error());                                         \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

#define EXPECT(cond, ...)                                                                   \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond);             \
            fprintf(stderr, __VA_ARGS__);                                                   \
            fprintf(stderr, "\n");                                                          \
            failures++;                                                                     \
        }                                                                                   \
    } while (0)

/* The linear input every golden file was made from: byte i = (i * 131 + 7) % 251. */
TEST_HELPER unsigned char *pattern(size_t n) {
    unsigned char *p = (unsigned char *)malloc(n ? n : 1);
    size_t i;
    if (!p) exit(1);
    for (i = 0; i < n; i++) p[i] = (unsigned char)((i * 131u + 7u) % 251u);
    return p;
}

/* Reads tests/data/<name> (the directory is argv[1]) whole; exits on error. */
TEST_HELPER unsigned char *read_golden(const char *dir, const char *name, size_t *len) {
    char path[1024];
    FILE *f;
    long n;
    unsigned char *buf;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open golden file %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (unsigned char *)malloc(n > 0 ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read golden file %s\n", path);
        exit(1);
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Compares n bytes; reports the first difference under `what`. */
TEST_HELPER void same_bytes(const char *what, const unsigned char *got, const unsigned char *want, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            fprintf(stderr, "%s: byte %lu is %u, the golden file has %u\n", what, (unsigned long)i,
                    got[i], want[i]);
            failures++;
            return;
        }
    }
    printf("%s: %lu bytes match\n", what, (unsigned long)n);
}

#endif
