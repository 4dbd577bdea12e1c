/*
 * fuzz_common.h - what the harnesses share.  Each harness is a libFuzzer
 * target (LLVMFuzzerTestOneInput) built by `make fuzz` with clang and
 * -fsanitize=fuzzer,address,undefined; a finding is a crash, a sanitizer
 * report, a hang (-timeout) or an allocation past -malloc_limit_mb.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H
#define _GNU_SOURCE /* fmemopen */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A stream reading data[0..size) (fmemopen refuses size 0: use a 1-byte
 * empty string then). */
static inline FILE *fuzz_stream(const uint8_t *data, size_t size)
{
    static char empty[1];
    return size ? fmemopen((void *)data, size, "r") : fmemopen(empty, 1, "r");
}

/* A NUL-terminated copy (free it). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* Everything a harness prints goes nowhere, but is formatted. */
static inline FILE *fuzz_sink(void)
{
    static FILE *f;
    if (!f) f = fopen("/dev/null", "w");
    return f;
}
#endif
