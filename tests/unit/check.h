/*
 * check.h - the unit tests' assertions.  Each failed check prints file:line,
 * the expression and the values; the test binary exits 1 if any failed and
 * prints one line "test_NAME: N checks, M failed".
 */
#ifndef CHECK_H
#define CHECK_H
#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_count, check_failed;

#define CHECK(cond) do { check_count++; if (!(cond)) { check_failed++; \
    fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); } } while (0)

#define CHECK_EQ_U(a, b) do { unsigned long long va_ = (unsigned long long)(a), vb_ = (unsigned long long)(b); \
    check_count++; if (va_ != vb_) { check_failed++; \
    fprintf(stderr, "%s:%d: %s == %s failed: %llu != %llu\n", __FILE__, __LINE__, #a, #b, va_, vb_); } } while (0)

#define CHECK_EQ_I(a, b) do { long long va_ = (long long)(a), vb_ = (long long)(b); \
    check_count++; if (va_ != vb_) { check_failed++; \
    fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, #a, #b, va_, vb_); } } while (0)

#define CHECK_NEAR(a, b, tol) do { double va_ = (double)(a), vb_ = (double)(b); \
    check_count++; if (!(fabs(va_ - vb_) <= (tol))) { check_failed++; \
    fprintf(stderr, "%s:%d: %s ~= %s failed: %.17g vs %.17g (tol %g)\n", __FILE__, __LINE__, #a, #b, va_, vb_, (double)(tol)); } } while (0)

#define CHECK_STR_HAS(hay, needle) do { const char *h_ = (hay), *n_ = (needle); check_count++; \
    if (!h_ || !strstr(h_, n_)) { check_failed++; \
    fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__, h_ ? h_ : "(null)", n_); } } while (0)

static int check_report(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failed);
    return check_failed ? 1 : 0;
}
#endif
