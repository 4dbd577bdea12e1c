/*
 * optfuzz.c - random command lines (contract: optfuzz.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "optfuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tsv.h"

uint64_t of_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t of_rand_range(uint64_t *s, uint64_t lo, uint64_t hi)
{
    if (hi <= lo) return lo;
    const uint64_t span = hi - lo;
    return span == UINT64_MAX ? of_rand(s) : lo + of_rand(s) % (span + 1);
}

/* A percentage chance. */
static int chance(uint64_t *s, unsigned pct) { return of_rand_range(s, 0, 99) < pct; }

/* ------------------------------------------------------------ reading */

static void copy_field(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src && strcmp(src, "-") ? src : "");
}

int of_read_program(of_prog *p, const char *name, const char *options_path, const char *kernels_path,
                    char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    tsv_table t;
    if (tsv_read(options_path, &t, err, errlen) != 0) return -1;
    static const char *const COLS[] = {"option", "kind", "lo", "hi", "choices", "scope"};
    for (size_t c = 0; c < sizeof COLS / sizeof COLS[0]; c++)
        if (tsv_col(&t, COLS[c]) < 0) {
            snprintf(err, errlen, "%s: no column '%s' (is it PROG --list-options?)", options_path, COLS[c]);
            tsv_free(&t);
            return -1;
        }
    for (size_t r = 0; r < t.nrow; r++) {
        if (p->nopt == OF_MAX_OPTS) {
            snprintf(err, errlen, "%s: more than %d options", options_path, OF_MAX_OPTS);
            tsv_free(&t);
            return -1;
        }
        of_opt *o = &p->opt[p->nopt++];
        copy_field(o->name, sizeof o->name, tsv_get(&t, r, "option"));
        copy_field(o->kind, sizeof o->kind, tsv_get(&t, r, "kind"));
        copy_field(o->choices, sizeof o->choices, tsv_get(&t, r, "choices"));
        copy_field(o->scope, sizeof o->scope, tsv_get(&t, r, "scope"));
        const char *lo = tsv_get(&t, r, "lo"), *hi = tsv_get(&t, r, "hi");
        if (!strcmp(o->kind, "double")) {
            o->dlo = strtod(lo, NULL);
            o->dhi = strtod(hi, NULL);
        } else if (strcmp(lo, "-") && strcmp(hi, "-")) {
            o->lo = strtoull(lo, NULL, 10);
            o->hi = strtoull(hi, NULL, 10);
        }
    }
    tsv_free(&t);
    if (!kernels_path) return 0;
    FILE *f = fopen(kernels_path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open", kernels_path);
        return -1;
    }
    char line[512];
    while (fgets(line, sizeof line, f) && p->nkernel < OF_MAX_KERNELS) {
        line[strcspn(line, "\t\r\n")] = 0;
        if (line[0]) snprintf(p->kernel[p->nkernel++], sizeof p->kernel[0], "%.31s", line);
    }
    fclose(f);
    return 0;
}

/* ------------------------------------------------------------ drawing */

/* The tops of accepted ranges that are drawn lower, and why: each would run
 * for minutes under compute-sanitizer and proves nothing a smaller value
 * does not (the value past the true top is still drawn, as a refusal).
 * always: the option is given on every line (its default is a long run). */
static const struct {
    const char *name;
    uint64_t cap;
    int always;
} OF_CAPS[] = {
    {"--max", 16u << 20, 1},         /* latency: the default sweeps to 4 GiB */
    {"--min", 1u << 20, 0},
    {"--loads", 1u << 14, 0},        /* latency: dependent loads per repetition */
    {"--warmup", 1u << 16, 0},       /* latency: dependent warm-up loads */
    {"--points-per-octave", 4, 0},   /* latency: sizes per doubling */
    {"--spacing", 1u << 16, 0},
    {"--points", 6, 0},              /* a sweep point is a run of its own */
    {"--configs-max", 3, 1},         /* bounds a line's runs; the defaults run many */
    {"--min-records", 1u << 20, 0},
    {"DSIZE", 256, 0},               /* tiling: DSIZE^3 multiply-adds */
};

static int cap_of(const char *name, uint64_t *cap)
{
    for (size_t i = 0; i < sizeof OF_CAPS / sizeof OF_CAPS[0]; i++)
        if (!strcmp(OF_CAPS[i].name, name)) {
            *cap = OF_CAPS[i].cap;
            return 1;
        }
    return 0;
}

static int always(const char *name)
{
    for (size_t i = 0; i < sizeof OF_CAPS / sizeof OF_CAPS[0]; i++)
        if (!strcmp(OF_CAPS[i].name, name)) return OF_CAPS[i].always;
    return 0;
}

/* The options a line never draws: listings, the runner's paths and run
 * length, the devices (an ordinal that is not there is the host's fact, not
 * a value's), and the sweep (drawn on its own, with one variant). */
static int never(const of_opt *o)
{
    static const char *const ANY[] = {"--device", "--out", "--table", "--batch-file", "--ladder",
                                      "--device-info", "--kernel", "--sweep", "--points", NULL};
    static const char *const COMMON[] = {"--reps", "--warmup", "--quiet", "--n", "--wpb", "--smem",
                                         NULL};
    if (!strncmp(o->name, "--list-", 7) || !strcmp(o->scope, "positional")) return 1;
    for (int i = 0; ANY[i]; i++)
        if (!strcmp(o->name, ANY[i])) return 1;
    for (int i = 0; COMMON[i] && !strcmp(o->scope, "common"); i++)
        if (!strcmp(o->name, COMMON[i])) return 1;
    return 0;
}

typedef struct line {
    char *buf;
    size_t len, cap;
    int argc, full;
} line;

static void put(line *l, const char *arg)
{
    const size_t n = strlen(arg);
    if (l->full || l->len + n + 2 > l->cap || l->argc >= OF_MAX_ARGS) {
        l->full = 1;
        return;
    }
    if (l->len) l->buf[l->len++] = '\t';
    memcpy(l->buf + l->len, arg, n + 1);
    l->len += n;
    l->argc++;
}

static void put_u64(line *l, uint64_t v)
{
    char b[24];
    snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    put(l, b);
}

/* The k-th comma-separated choice of s into out; the count of choices. */
static int choice_at(const char *s, int k, char *out, size_t len)
{
    int n = 0;
    const char *p = s;
    while (*p) {
        const char *e = strchr(p, ',');
        const size_t w = e ? (size_t)(e - p) : strlen(p);
        if (n == k && out) snprintf(out, len, "%.*s", (int)w, p);
        n++;
        p = e ? e + 1 : p + w;
    }
    return n;
}

/* One number for an option of range [lo, hi]: its edges, just past them, a
 * small value, or any value (below the cap, where it has one). */
static uint64_t draw_num(const of_opt *o, uint64_t *rng)
{
    uint64_t lo = o->lo, hi = o->hi, top = hi, cap;
    if (!strcmp(o->kind, "count") && lo < 1) lo = 1;
    if (cap_of(o->name, &cap) && cap < top) top = cap;
    if (o->choices[0] && chance(rng, 70)) {
        char b[32];
        const int n = choice_at(o->choices, 0, NULL, 0);
        choice_at(o->choices, (int)of_rand_range(rng, 0, (uint64_t)n - 1), b, sizeof b);
        return strtoull(b, NULL, 10);
    }
    const uint64_t r = of_rand_range(rng, 0, 99);
    if (r < 12) return lo;
    if (r < 24) return top;
    if (r < 27 && lo > 0) return lo - 1;             /* refused */
    if (r < 30 && hi < UINT64_MAX) return hi + 1;    /* refused */
    if (r < 70) return of_rand_range(rng, lo, top - lo > 64 ? lo + 64 : top);
    return of_rand_range(rng, lo, top);
}

static void draw_value(const of_opt *o, uint64_t *rng, line *l)
{
    char b[64];
    if (!strcmp(o->kind, "list")) {
        const int k = (int)of_rand_range(rng, 1, 3);
        b[0] = 0;
        for (int i = 0; i < k; i++) {
            const size_t n = strlen(b);
            snprintf(b + n, sizeof b - n, "%s%llu", i ? "," : "", (unsigned long long)draw_num(o, rng));
        }
        put(l, b);
    } else if (!strcmp(o->kind, "u64") || !strcmp(o->kind, "count")) {
        put_u64(l, draw_num(o, rng));
    } else if (!strcmp(o->kind, "double")) {
        const uint64_t r = of_rand_range(rng, 0, 99);
        double v = r < 15 ? o->dlo : r < 30 ? o->dhi : r < 33 ? o->dlo - 1 : r < 36 ? o->dhi + 1
                 : o->dlo + (o->dhi - o->dlo) * (double)of_rand_range(rng, 0, 1000000) / 1e6;
        if (r >= 36 && r < 38) {
            put(l, r & 1 ? "nan" : "inf");
            return;
        }
        snprintf(b, sizeof b, "%.6g", v);
        put(l, b);
    } else if (!strcmp(o->kind, "choice")) {
        const int n = choice_at(o->choices, 0, NULL, 0);
        if (n == 0 || chance(rng, 10)) {
            put(l, "bogus");
            return;
        }
        choice_at(o->choices, (int)of_rand_range(rng, 0, (uint64_t)n - 1), b, sizeof b);
        put(l, b);
    } else if (!strcmp(o->name, "--sample")) {
        static const char *const K[] = {"1", "2", "4", "8", "64", "1024", "65536", "auto", "overhead",
                                        "3", "0", "12", "1048576", "x"};
        put(l, K[of_rand_range(rng, 0, sizeof K / sizeof K[0] - 1)]);
    }
}

/* A positional's value: small sizes, the edges of the accepted range, and
 * values past them. */
static void draw_positional(const of_opt *o, uint64_t *rng, line *l)
{
    static const uint64_t SMALL_N[] = {1,   2,    3,    31,   32,    33,    63,    64,   65,
                                       127, 128,  129,  255,  256,   257,   1000,  1023, 1025,
                                       4097, 65535, 65537, 100003, 131071, 262147, 1000003};
    static const uint64_t SMEM[] = {0,      1,      1024,   4096,   8192,   16384,       32768,
                                    49152,  49153,  65536,  100000, 116736, 200000,      232448,
                                    232449, 262144, 1u << 30, (1u << 30) + 1};
    static const uint64_t DSIZE[] = {32, 64, 96, 128, 160, 192, 256};
    const uint64_t r = of_rand_range(rng, 0, 99);
    if (!strcmp(o->name, "WPB")) {
        put_u64(l, r < 4 ? 0 : r < 8 ? 33 : of_rand_range(rng, 1, 32));
    } else if (!strcmp(o->name, "SMEM")) {
        put_u64(l, r < 30 ? 0 : SMEM[of_rand_range(rng, 0, sizeof SMEM / sizeof SMEM[0] - 1)]);
    } else if (!strcmp(o->name, "DSIZE")) {
        static const uint64_t BAD[] = {0, 1, 31, 33, 32800, 1ull << 36, (1ull << 36) + 1};
        put_u64(l, r < 85 ? DSIZE[of_rand_range(rng, 0, sizeof DSIZE / sizeof DSIZE[0] - 1)]
                          : BAD[of_rand_range(rng, 0, sizeof BAD / sizeof BAD[0] - 1)]);
    } else if (!strcmp(o->name, "N0") || !strcmp(o->name, "N1")) {
        static const uint64_t BAD[] = {0, 1ull << 32, 1ull << 36, (1ull << 36) + 1};
        put_u64(l, r < 60 ? of_rand_range(rng, 1, 2000) : r < 94 ? SMALL_N[of_rand_range(rng, 0, 17)]
                                                                 : BAD[of_rand_range(rng, 0, 3)]);
    } else {   /* N */
        static const char *const EDGE[] = {"0", "68719476736", "68719476737", "1e5", "abc", "-5"};
        if (r < 6) put(l, EDGE[of_rand_range(rng, 0, sizeof EDGE / sizeof EDGE[0] - 1)]);
        else if (r < 30) put_u64(l, of_rand_range(rng, 1, 3000000));
        else put_u64(l, SMALL_N[of_rand_range(rng, 0, sizeof SMALL_N / sizeof SMALL_N[0] - 1)]);
    }
}

static const of_opt *find(const of_prog *p, const char *name)
{
    for (int i = 0; i < p->nopt; i++)
        if (!strcmp(p->opt[i].name, name)) return &p->opt[i];
    return NULL;
}

/* --kernel: all (none given), one to three names, or one that is not. */
static void draw_kernels(const of_prog *p, uint64_t *rng, line *l, int one)
{
    if (!p->nkernel || (!one && chance(rng, 40))) return;
    char b[256] = "";
    const int k = one ? 1 : (int)of_rand_range(rng, 1, 3);
    for (int i = 0; i < k; i++) {
        const char *name = chance(rng, 3) ? "nosuch" : p->kernel[of_rand_range(rng, 0, (uint64_t)p->nkernel - 1)];
        if (strstr(b, name)) continue;
        const size_t n = strlen(b);
        snprintf(b + n, sizeof b - n, "%s%s", n ? "," : "", name);
    }
    put(l, "--kernel");
    put(l, b);
}

int of_draw_line(const of_prog *p, uint64_t *rng, char *buf, size_t buflen)
{
    line l = {buf, 0, buflen, -1, 0};
    if (buflen) buf[0] = 0;
    put(&l, p->name);
    for (int i = 0; i < p->nopt; i++)
        if (!strcmp(p->opt[i].scope, "positional")) draw_positional(&p->opt[i], rng, &l);
    const int sweep = find(p, "--sweep") && p->nkernel && chance(rng, 8);
    draw_kernels(p, rng, &l, sweep);
    if (sweep) {
        put(&l, "--sweep");
        const of_opt *pts = find(p, "--points");
        if (pts && chance(rng, 80)) {
            put(&l, "--points");
            draw_value(pts, rng, &l);
        }
    }
    for (int i = 0; i < p->nopt; i++) {
        const of_opt *o = &p->opt[i];
        if (never(o)) continue;
        const unsigned pct = !strcmp(o->scope, "common") ? 15 : 60;
        if (!always(o->name) && !chance(rng, pct)) continue;
        if (!strcmp(o->kind, "string") && strcmp(o->name, "--sample")) continue;
        put(&l, o->name);
        if (strcmp(o->kind, "flag")) draw_value(o, rng, &l);
    }
    return l.full ? -1 : l.argc;
}
