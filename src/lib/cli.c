/* cli.c - see cli.h. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Parse into *out without range checks other than "a non-negative integer". */
static int parse_u64(const char *name, const char *s, uint64_t *out, char *err, size_t errlen)
{
    if (!s || !*s) return fail(err, errlen, "%s is empty: expected a number", name);
    const char *p = s;
    while (*p == ' ') p++;
    if (*p == '-') return fail(err, errlen, "%s must not be negative (got \"%s\")", name, s);
    if (*p == '+') p++;
    if (*p < '0' || *p > '9') {
        if (*p != '.') return fail(err, errlen, "%s is not a number: \"%s\"", name, s);
    }
    uint64_t mult = 1;
    size_t len = strlen(p);
    char buf[64];
    if (len >= sizeof buf) return fail(err, errlen, "%s is too long: \"%s\"", name, s);
    memcpy(buf, p, len + 1);
    char last = len ? buf[len - 1] : 0;
    if (last == 'K' || last == 'k') mult = 1ull << 10;
    else if (last == 'M') mult = 1ull << 20;
    else if (last == 'G') mult = 1ull << 30;
    if (mult != 1) buf[--len] = 0;

    int plain = len > 0;
    for (size_t i = 0; i < len; i++) plain &= buf[i] >= '0' && buf[i] <= '9';
    if (plain) {
        errno = 0;
        char *end = NULL;
        unsigned long long v = strtoull(buf, &end, 10);
        if (errno == ERANGE || *end) return fail(err, errlen, "%s is too large: \"%s\"", name, s);
        if (v > UINT64_MAX / mult) return fail(err, errlen, "%s is too large: \"%s\"", name, s);
        *out = (uint64_t)v * mult;
        return 0;
    }
    /* scientific / decimal notation: must denote an integer exactly */
    errno = 0;
    char *end = NULL;
    long double v = strtold(buf, &end);
    if (end == buf || *end) return fail(err, errlen, "%s is not a number: \"%s\"", name, s);
    if (errno == ERANGE || !isfinite((double)v) || v * mult >= 18446744073709551616.0L)
        return fail(err, errlen, "%s is too large: \"%s\"", name, s);
    v *= mult;
    if (v < 0) return fail(err, errlen, "%s must not be negative (got \"%s\")", name, s);
    if (v != floorl(v)) return fail(err, errlen, "%s must be a whole number (got \"%s\")", name, s);
    *out = (uint64_t)v;
    return 0;
}

int cli_parse_count(const char *name, const char *s, uint64_t max, uint64_t *out,
                    char *err, size_t errlen)
{
    uint64_t v;
    if (parse_u64(name, s, &v, err, errlen) != 0) return -1;
    if (v == 0) return fail(err, errlen, "%s must be at least 1 (got \"%s\")", name, s);
    if (v > max)
        return fail(err, errlen, "%s is too large: %s > %llu", name, s, (unsigned long long)max);
    *out = v;
    return 0;
}

int cli_parse_range(const char *name, const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
                    char *err, size_t errlen)
{
    uint64_t v;
    if (parse_u64(name, s, &v, err, errlen) != 0) return -1;
    if (v < lo || v > hi)
        return fail(err, errlen, "%s must be between %llu and %llu (got \"%s\")", name,
                    (unsigned long long)lo, (unsigned long long)hi, s);
    *out = v;
    return 0;
}

int cli_check_smem(uint32_t smem_bytes, uint32_t optin_bytes, uint32_t per_sm_bytes,
                   uint32_t reserved_bytes, const char *device, char *err, size_t errlen)
{
    if (smem_bytes <= optin_bytes) return 0;
    return fail(err, errlen,
                "SMEM %u bytes is more than %s allows a block (%u bytes with opt-in; %u per SM, "
                "of which the runtime reserves %u per block)",
                smem_bytes, device, optin_bytes, per_sm_bytes, reserved_bytes);
}
