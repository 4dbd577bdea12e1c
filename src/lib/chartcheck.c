/* chartcheck.c - see chartcheck.h. */
#define _POSIX_C_SOURCE 200809L
#include "chartcheck.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int near(double a, double b)
{
    const double m = fmax(fabs(a), fabs(b));
    return m == 0 || fabs(a - b) <= CC_TOL * m;
}

/* 1 when two series coincide at every common x (at least 2 of them, and
 * every point of each has a partner). */
static int series_coincide(const cc_series *a, const cc_series *b)
{
    if (a->n < 2 || a->n != b->n) return 0;
    for (size_t i = 0; i < a->n; i++) {
        size_t j = 0;
        while (j < b->n && b->x[j] != a->x[i]) j++;
        if (j == b->n) return 0;
        if (!isfinite(a->y[i]) || !isfinite(b->y[j]) || !near(a->y[i], b->y[j])) return 0;
    }
    return 1;
}

static void add(char *buf, size_t len, int *k, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t len, int *k, const char *fmt, ...)
{
    const size_t u = strlen(buf);
    if (u + 3 >= len) return;
    if (*k) snprintf(buf + u, len - u, "; ");
    const size_t w = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + w, len - w, fmt, ap);
    va_end(ap);
    (*k)++;
}

/* outside (or on the bound) of range r? */
static int off_range(double y, cc_range r)
{
    if (!isfinite(y)) return 0;
    if (isfinite(r.lo) && y < r.lo) return 1;
    if (isfinite(r.hi) && y > r.hi) return 1;
    if (isfinite(r.lo) && isfinite(r.hi) && r.hi > r.lo) {
        const double span = r.hi - r.lo, e = CC_TOL * span;
        if (y != 0 && fabs(y - r.lo) <= e) return 1;
        if (fabs(y - r.hi) <= e) return 1;
    }
    return 0;
}

int cc_check(const cc_series *s, size_t n, cc_range y, cc_range y2, char *buf, size_t len)
{
    int k = 0;
    if (len) buf[0] = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            const cc_series *a = &s[i], *b = &s[j];
            if (a->axis2 != b->axis2) continue;
            if (a->is_line && b->is_line) {
                if (isfinite(a->y_line) && isfinite(b->y_line) && near(a->y_line, b->y_line))
                    add(buf, len, &k, "the lines '%s' and '%s' lie within 1%% of each other (at %.4g)", a->title,
                        b->title, a->y_line);
                continue;
            }
            if (a->is_line || b->is_line) {
                const cc_series *l = a->is_line ? a : b, *q = a->is_line ? b : a;
                int all = q->n > 0;
                for (size_t p = 0; p < q->n && all; p++) all = isfinite(q->y[p]) && near(q->y[p], l->y_line);
                if (all && isfinite(l->y_line))
                    add(buf, len, &k, "'%s' lies within 1%% of the line '%s' at every point (%.4g)", q->title, l->title,
                        l->y_line);
                continue;
            }
        }
    /* series that coincide, in groups: one sentence per group */
    size_t *grp = malloc((n ? n : 1) * sizeof *grp);
    if (grp) {
        for (size_t i = 0; i < n; i++) grp[i] = i;
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++) {
                if (s[i].is_line || s[j].is_line || s[i].axis2 != s[j].axis2 || !series_coincide(&s[i], &s[j])) continue;
                const size_t from = grp[j], to = grp[i];
                for (size_t q = 0; q < n; q++) if (grp[q] == from) grp[q] = to;
            }
        for (size_t g = 0; g < n; g++) {
            size_t members = 0;
            for (size_t q = 0; q < n; q++) members += grp[q] == g;
            if (members < 2) continue;
            char names[1024] = "";
            size_t m = 0;
            for (size_t q = 0; q < n; q++) {
                if (grp[q] != g) continue;
                const size_t u = strlen(names);
                snprintf(names + u, sizeof names - u, "%s'%s'", !m ? "" : m + 1 == members ? " and " : ", ", s[q].title);
                m++;
            }
            add(buf, len, &k, "%s coincide within 1%% at every point", names);
        }
        free(grp);
    }
    for (size_t i = 0; i < n; i++) {
        const cc_series *a = &s[i];
        const cc_range r = a->axis2 ? y2 : y;
        int bad = 0;
        if (a->is_line) bad = off_range(a->y_line, r);
        else
            for (size_t p = 0; p < a->n && !bad; p++) bad = off_range(a->y[p], r);
        if (bad)
            add(buf, len, &k, "'%s' lies outside the %s axis's range, or on its edge", a->title, a->axis2 ? "right" : "left");
    }
    return k;
}

cc_range cc_range_in(const char *script, const char *axis)
{
    cc_range r = {NAN, NAN};
    char key[32];
    snprintf(key, sizeof key, "set %srange [", axis);
    for (const char *p = script ? strstr(script, key) : NULL; p; p = strstr(p + 1, key)) {
        const char *q = p + strlen(key);
        char *e;
        const double lo = strtod(q, &e);
        r.lo = e != q ? lo : NAN;
        const char *c = strchr(q, ':');
        if (!c) continue;
        const double hi = strtod(c + 1, &e);
        r.hi = e != c + 1 ? hi : NAN;
    }
    return r;
}
