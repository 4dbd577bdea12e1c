/*
 * plateau.c - plateau detection for latency ladders (contract: plateau.h).
 *
 * The method, and why.
 *
 *   1. Runs.  Walk the points in size order; a point joins the current run
 *      while it lies within tol of the run's median, else it starts a new
 *      run.  The running median (not the mean, not the previous point) is
 *      what makes this robust: one noisy point neither drags the reference
 *      nor, compared point-to-point, lets a slow drift pass unnoticed.
 *   2. Drop short runs.  Runs of fewer than min_points points are the
 *      transitions between levels (where part of the working set still hits
 *      the smaller level) or single outliers (an interrupted chase).
 *   3. Merge.  Neighbouring surviving runs whose medians are within tol of
 *      each other are one level that an outlier, or a short excursion, cut
 *      in two; merge them, recompute the median, repeat until stable.
 *
 * A level's latency is the median of its member points (an outlier that cut
 * it, being no member, does not count), in cycles and separately in ns.
 */
#define _POSIX_C_SOURCE 200809L
#include "plateau.h"
#include "err.h"
#include "lines.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void plateau_params_default(plateau_params *p)
{
    p->tol = 0.08;
    p->min_points = 3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n), n >= 1; sorts v. */
static double median_inplace(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int within(double y, double ref, double tol)
{
    return fabs(y - ref) <= tol * ref;
}

/* Median cycles (or ns when use_ns) of the points whose group is g. */
static double group_median(const plateau_point *pts, const int *group, size_t n, int g,
                           int use_ns, double *scratch, size_t *count)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (group[i] == g)
            scratch[k++] = use_ns ? pts[i].ns : pts[i].cycles;
    if (count) *count = k;
    return k ? median_inplace(scratch, k) : 0.0;
}

/* Every point positive and finite, sizes rising: 0, or -1 with err. */
static int check_points(const plateau_point *pts, size_t n, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(pts[i].bytes) || !(pts[i].bytes > 0) || !isfinite(pts[i].cycles) ||
            !(pts[i].cycles > 0) || !isfinite(pts[i].ns) || pts[i].ns < 0) {
            set_err(err, errlen, "point %zu (size %g) has a latency that is not a positive "
                    "number (%g cycles, %g ns)", i + 1, pts[i].bytes, pts[i].cycles, pts[i].ns);
            return -1;
        }
        if (i > 0 && !(pts[i].bytes > pts[i - 1].bytes)) {
            set_err(err, errlen, "sizes are not increasing: point %zu is %g bytes after %g",
                    i + 1, pts[i].bytes, pts[i - 1].bytes);
            return -1;
        }
    }
    return 0;
}

/* 1. runs: group[i] = run number.  scratch holds the run's latencies
 * sorted, so that each point costs an insertion, not a sort. */
static void find_runs(const plateau_point *pts, size_t n, double tol, int *group, double *scratch)
{
    int nruns = 0;
    for (size_t i = 0; i < n;) {
        size_t start = i, j = i + 1, k = 1;
        scratch[0] = pts[i].cycles;
        while (j < n) {
            double med = k % 2 ? scratch[k / 2] : 0.5 * (scratch[k / 2 - 1] + scratch[k / 2]);
            if (!within(pts[j].cycles, med, tol))
                break;
            size_t at = k;
            while (at > 0 && scratch[at - 1] > pts[j].cycles) at--;
            memmove(scratch + at + 1, scratch + at, (k - at) * sizeof *scratch);
            scratch[at] = pts[j].cycles;
            k++;
            j++;
        }
        for (size_t m = start; m < j; m++)
            group[m] = nruns;
        nruns++;
        i = j;
    }
}

/* 2. drop short runs (a run is a contiguous range of points), renumber the
 * survivors 0..ng-1 in order; returns ng. */
static int drop_short_runs(size_t n, int min_points, int *group)
{
    int ng = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && group[j] == group[i]) j++;
        int keep = j - i >= (size_t)min_points;
        for (size_t m = i; m < j; m++)
            group[m] = keep ? ng : -1;
        ng += keep;
        i = j;
    }
    return ng;
}

/* 3. merge neighbours with close medians, until stable.  Merging g and g+1
 * changes only g's median, so the scan goes on from g-1 (the pairs before
 * it were already found apart) instead of from the start.  Returns the
 * number of groups left, or -1 when out of memory. */
static int merge_close(const plateau_point *pts, size_t n, double tol, int ng, int *group,
                       double *scratch)
{
    double *med = malloc((size_t)(ng > 0 ? ng : 1) * sizeof *med);
    if (!med) return -1;
    for (int g = 0; g < ng; g++)
        med[g] = group_median(pts, group, n, g, 0, scratch, NULL);
    for (int g = 0; g + 1 < ng;) {
        double a = med[g], b = med[g + 1];
        if (fabs(a - b) <= tol * (a < b ? a : b)) {
            for (size_t i = 0; i < n; i++)
                if (group[i] > g)
                    group[i]--;    /* g+1 joins g, later groups move down */
            memmove(med + g + 1, med + g + 2, (size_t)(ng - g - 2) * sizeof *med);
            ng--;
            med[g] = group_median(pts, group, n, g, 0, scratch, NULL);
            if (g > 0)
                g--;
        } else {
            g++;
        }
    }
    free(med);
    return ng;
}

int plateau_find(const plateau_point *pts, size_t n, const plateau_params *pp,
                 plateau_level *levels, int max_levels, char *err, size_t errlen)
{
    plateau_params def;
    if (!pp) {
        plateau_params_default(&def);
        pp = &def;
    }
    if (!(pp->tol > 0) || pp->min_points < 1) {
        set_err(err, errlen, "plateau parameters out of range: tol %g, min_points %d",
                pp->tol, pp->min_points);
        return -1;
    }
    if (check_points(pts, n, err, errlen) != 0)
        return -1;
    if (n == 0)
        return 0;
    if (n > PLATEAU_MAX_POINTS) {
        set_err(err, errlen, "%zu points: more than the %u a ladder may have", n,
                PLATEAU_MAX_POINTS);
        return -1;
    }
    int *group = malloc(n * sizeof *group);
    double *scratch = malloc(n * sizeof *scratch);
    int ng = -1;
    if (group && scratch) {
        find_runs(pts, n, pp->tol, group, scratch);
        ng = merge_close(pts, n, pp->tol, drop_short_runs(n, pp->min_points, group), group, scratch);
    }
    if (ng < 0) {
        free(group);
        free(scratch);
        set_err(err, errlen, "out of memory (%zu points)", n);
        return -1;
    }
    int nl = 0;
    for (int g = 0; g < ng && nl < max_levels; g++) {
        plateau_level *L = &levels[nl++];
        memset(L, 0, sizeof *L);
        size_t first = n, last = 0;
        for (size_t i = 0; i < n; i++) {
            if (group[i] != g) continue;
            if (first == n) first = i;
            last = i;
        }
        L->first = first;
        L->last = last;
        L->from_bytes = pts[first].bytes;
        L->to_bytes = pts[last].bytes;
        L->cycles = group_median(pts, group, n, g, 0, scratch, &L->npoints);
        L->ns = group_median(pts, group, n, g, 1, scratch, NULL);
    }
    free(group);
    free(scratch);
    plateau_label(levels, nl, 0);
    return nl;
}

void plateau_label(plateau_level *levels, int n, int l1_bypassed)
{
    static const char *cached3[] = {"L1", "L2", "DRAM"};
    static const char *cached4[] = {"L1", "L2-near", "L2-far", "DRAM"};
    static const char *bypass2[] = {"L2", "DRAM"};
    static const char *bypass3[] = {"L2-near", "L2-far", "DRAM"};
    const char **names = NULL;
    if (!l1_bypassed && n == 3) names = cached3;
    else if (!l1_bypassed && n == 4) names = cached4;
    else if (l1_bypassed && n == 2) names = bypass2;
    else if (l1_bypassed && n == 3) names = bypass3;

    for (int i = 0; i < n; i++) {
        char *dst = levels[i].name;
        size_t cap = sizeof levels[i].name;
        if (names)
            snprintf(dst, cap, "%s", names[i]);
        else if (n == 1)
            snprintf(dst, cap, "level1");
        else if (i == 0)
            snprintf(dst, cap, "%s", l1_bypassed ? "L2" : "L1");
        else if (i == n - 1)
            snprintf(dst, cap, "DRAM");
        else
            snprintf(dst, cap, "level%d", i + 1);
    }
}

/* ------------------------------------------------------------ TSV reader */

void plateau_series_free(plateau_series *s)
{
    if (!s) return;
    free(s->pts);
    s->pts = NULL;
    s->n = 0;
}

int plateau_series_l1_bypassed(const plateau_series *s)
{
    return strcmp(s->kernel, "chase_cg") == 0;
}

/* Split line (modified in place) at tabs; returns the field count (<= max). */
static int split_tabs(char *line, char **f, int max)
{
    int k = 0;
    char *p = line;
    while (k < max) {
        f[k++] = p;
        char *t = strchr(p, '\t');
        if (!t) break;
        *t = '\0';
        p = t + 1;
    }
    return k;
}

static void chomp(char *s)
{
    size_t l = strlen(s);
    while (l > 0 && (s[l - 1] == '\n' || s[l - 1] == '\r'))
        s[--l] = '\0';
}

/* A decimal, finite number filling the whole field (strtod alone would
 * take "inf", "nan" and "0x1p3"). */
static int parse_num(const char *s, double *v)
{
    if (!*s || s[strspn(s, "0123456789.eE+-")]) return -1;
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0 && isfinite(*v) ? 0 : -1;
}

/* A metadata number in [lo, hi], else 0 (as if absent: these only label
 * the chart). */
static double meta_num(const char *s, double lo, double hi)
{
    double v;
    return parse_num(s, &v) == 0 && v >= lo && v <= hi ? v : 0;
}

/* Copy a string for a chart title: control characters become '?'. */
static void copy_printable(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++)
        dst[i] = (unsigned char)src[i] < 0x20 || src[i] == 0x7f ? '?' : src[i];
    dst[i] = 0;
}

/* "# key<TAB>value" metadata the reader keeps. */
static void take_meta(plateau_series *s, const char *line)
{
    const char *p = line + 1;
    while (*p == ' ') p++;
    const char *tab = strchr(p, '\t');
    if (!tab) return;
    size_t klen = (size_t)(tab - p);
    const char *val = tab + 1;
#define KEY(k) (klen == strlen(k) && strncmp(p, k, klen) == 0)
    if (KEY("sm_clock_measured_MHz")) s->sm_clock_MHz = meta_num(val, 1, 1e5);
    else if (KEY("device_name")) copy_printable(s->device_name, sizeof s->device_name, val);
    else if (KEY("kernel")) copy_printable(s->kernel, sizeof s->kernel, val);
    else if (KEY("threads_per_block")) s->threads = (int)meta_num(val, 0, 1 << 20);
    else if (KEY("spacing_bytes")) s->spacing_bytes = (unsigned)meta_num(val, 0, 4294967295.0);
#undef KEY
}

int plateau_read_tsv(const char *path, plateau_series *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "r");
    if (!f) {
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    int rc = plateau_parse_tsv(f, path, s, err, errlen);
    fclose(f);
    return rc;
}

int plateau_parse_tsv(FILE *f, const char *path, plateau_series *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    char *line = NULL;
    size_t cap = 0, lineno = 0, npcap = 0;
    int col_bytes = -1, col_cyc = -1, col_ns = -1, ncols = 0, rc = -1;
    enum { MAXF = 64 };
    char *fld[MAXF];
    long len;

    while ((len = lines_read(f, &line, &cap, LINES_MAX_BYTES)) != -1) {
        lineno++;
        if (len < -1) {
            set_err(err, errlen, len == -2 ? "%s:%zu: a line longer than 1 MiB: not a ./latency "
                    "table" : "%s:%zu: out of memory", path, lineno);
            goto out;
        }
        chomp(line);
        if (line[0] == '#') {
            take_meta(s, line);
            continue;
        }
        if (line[0] == '\0')
            continue;
        int nf = split_tabs(line, fld, MAXF);
        if (col_bytes < 0 && col_cyc < 0 && ncols == 0) {
            ncols = nf;
            for (int k = 0; k < nf; k++) {
                if (!strcmp(fld[k], "bytes")) col_bytes = k;
                else if (!strcmp(fld[k], "cycles_per_load")) col_cyc = k;
                else if (!strcmp(fld[k], "ns_per_load")) col_ns = k;
            }
            if (col_bytes < 0 || col_cyc < 0) {
                set_err(err, errlen, "%s:%zu: the header row has no '%s' column "
                        "(is this a ./latency table?)", path, lineno,
                        col_bytes < 0 ? "bytes" : "cycles_per_load");
                goto out;
            }
            continue;
        }
        if (nf != ncols) {
            set_err(err, errlen, "%s:%zu: %d fields, the header row has %d", path, lineno,
                    nf, ncols);
            goto out;
        }
        plateau_point pt = {0, 0, 0};
        if (parse_num(fld[col_bytes], &pt.bytes) != 0 ||
            parse_num(fld[col_cyc], &pt.cycles) != 0 ||
            (col_ns >= 0 && parse_num(fld[col_ns], &pt.ns) != 0)) {
            set_err(err, errlen, "%s:%zu: a field is not a number", path, lineno);
            goto out;
        }
        if (s->n > 0 && !(pt.bytes > s->pts[s->n - 1].bytes)) {
            set_err(err, errlen, "%s:%zu: sizes must increase (%g after %g)", path, lineno,
                    pt.bytes, s->pts[s->n - 1].bytes);
            goto out;
        }
        if (s->n == PLATEAU_MAX_POINTS) {
            set_err(err, errlen, "%s:%zu: more than %u points: not a ./latency table", path,
                    lineno, PLATEAU_MAX_POINTS);
            goto out;
        }
        if (s->n == npcap) {
            npcap = npcap ? 2 * npcap : 128;
            plateau_point *np = realloc(s->pts, npcap * sizeof *np);
            if (!np) {
                set_err(err, errlen, "out of memory reading %s", path);
                goto out;
            }
            s->pts = np;
        }
        s->pts[s->n++] = pt;
    }
    if (ferror(f)) {
        set_err(err, errlen, "error reading %s: %s", path, strerror(errno));
        goto out;
    }
    if (ncols == 0) {
        set_err(err, errlen, "%s: no header row (is this a ./latency table?)", path);
        goto out;
    }
    if (s->n == 0) {
        set_err(err, errlen, "%s: no data rows", path);
        goto out;
    }
    rc = 0;
out:
    free(line);
    if (rc != 0)
        plateau_series_free(s);
    return rc;
}

int plateau_dram_latency_from_tsv(const char *path, double *cycles, double *ns,
                                  char *err, size_t errlen)
{
    plateau_series s;
    if (plateau_read_tsv(path, &s, err, errlen) != 0)
        return -1;
    plateau_level lv[PLATEAU_MAX_LEVELS];
    char e2[256];
    int nl = plateau_find(s.pts, s.n, NULL, lv, PLATEAU_MAX_LEVELS, e2, sizeof e2);
    if (nl < 0) {
        set_err(err, errlen, "%s: %s", path, e2);
        plateau_series_free(&s);
        return -1;
    }
    if (nl < 2) {
        set_err(err, errlen, "%s: found %d plateau%s, need at least a cache level and DRAM "
                "to tell which is DRAM (sweep from a few KiB to well past the L2 size)",
                path, nl, nl == 1 ? "" : "s");
        plateau_series_free(&s);
        return -1;
    }
    *cycles = lv[nl - 1].cycles;
    *ns = lv[nl - 1].ns;
    plateau_series_free(&s);
    return 0;
}

int plateau_pow2_axis(double xmin, double xmax, int *e0, int *e1, int *step)
{
    if (!(xmin > 0) || !(xmax > 0) || !isfinite(xmin) || !isfinite(xmax)) return -1;
    /* log2 of a positive finite double is within [-1075, 1024] */
    *e0 = (int)floor(log2(xmin) + 1e-9);
    *e1 = (int)ceil(log2(xmax) - 1e-9);
    if (*e1 <= *e0) *e1 = *e0 + 1;
    const int span = *e1 - *e0;
    *step = span > 16 ? 2 : 1;
    if (span > 64)
        while (span / *step > 32) *step *= 2;
    return 0;
}

void plateau_pow2_label(char *buf, size_t len, int e)
{
    if (e >= 70) snprintf(buf, len, "2^%d B", e);
    else if (e >= 30) snprintf(buf, len, "%llu GiB", 1ull << (e - 30));
    else if (e >= 20) snprintf(buf, len, "%llu MiB", 1ull << (e - 20));
    else if (e >= 10) snprintf(buf, len, "%llu KiB", 1ull << (e - 10));
    else snprintf(buf, len, "%llu B", 1ull << (e < 0 ? 0 : e));
}
