/*
 * test_plateau.c - plateau detection (src/lib/plateau.c) on synthetic ladders
 * with known levels, transitions and seeded +-3 % noise, and the TSV reader.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "plateau.h"

/* ------------------------------------------------------------ synthetic */

typedef struct level_model {
    double cap_bytes;   /* last size that is a pure hit in this level */
    double cycles;      /* its latency */
} level_model;

static uint64_t rng_state;
static double urand(void)   /* uniform in [0, 1), xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 0x2545f4914f6cdd1dull) >> 11) / 9007199254740992.0;
}

/* Noise-free latency of a hierarchy: level k up to its capacity, then a
 * transition over `width` octaves (log-linear) to level k+1. */
static double model(const level_model *lv, int n, double b, double width)
{
    for (int k = 0; k < n - 1; k++) {
        if (b <= lv[k].cap_bytes)
            return lv[k].cycles;
        double end = lv[k].cap_bytes * pow(2.0, width);
        if (b < end) {
            double f = log2(b / lv[k].cap_bytes) / width;
            return lv[k].cycles + f * (lv[k + 1].cycles - lv[k].cycles);
        }
    }
    return lv[n - 1].cycles;
}

/* ppo points per octave from 4 KiB to max_bytes; noise uniform in +-noise. */
static size_t make_ladder(plateau_point *pts, size_t cap, const level_model *lv, int n,
                          double max_bytes, int ppo, double width, double noise, uint64_t seed)
{
    rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
    size_t k = 0;
    for (int i = 0; k < cap; i++) {
        double b = 4096.0 * pow(2.0, (double)i / ppo);
        if (b > max_bytes * 1.000001) break;
        double y = model(lv, n, b, width) * (1.0 + noise * (2.0 * urand() - 1.0));
        pts[k].bytes = floor(b / 128) * 128;
        pts[k].cycles = y;
        pts[k].ns = y / 1.98;       /* a 1980 MHz SM clock */
        k++;
    }
    return k;
}

/* The detected levels match the model: count, names, latency within 3 %,
 * and each level ends within half an octave of the model's capacity.
 * Returns the number of failed checks (for the seed sweep). */
static int ladder_ok(const plateau_level *got, int ngot, const level_model *lv, int n,
                     const char *const *names, int verbose, uint64_t seed)
{
    int bad = 0;
    if (ngot != n) {
        if (verbose) fprintf(stderr, "seed %llu: %d levels, expected %d\n",
                             (unsigned long long)seed, ngot, n);
        return 1;
    }
    for (int k = 0; k < n; k++) {
        int b = 0;
        b |= strcmp(got[k].name, names[k]) != 0;
        b |= fabs(got[k].cycles / lv[k].cycles - 1.0) > 0.03;
        b |= fabs(got[k].ns / (lv[k].cycles / 1.98) - 1.0) > 0.03;
        if (k < n - 1)
            b |= fabs(log2(got[k].to_bytes / lv[k].cap_bytes)) > 0.5;
        if (k > 0)   /* starts after the previous level's capacity */
            b |= got[k].from_bytes <= lv[k - 1].cap_bytes;
        if (b && verbose)
            fprintf(stderr, "seed %llu: level %d '%s' %.1f cycles %.0f..%.0f B "
                    "(model '%s' %.1f cycles, capacity %.0f B)\n", (unsigned long long)seed,
                    k, got[k].name, got[k].cycles, got[k].from_bytes, got[k].to_bytes,
                    names[k], lv[k].cycles, lv[k].cap_bytes);
        bad += b;
    }
    return bad;
}

enum { NSEEDS = 200, MAXPTS = 512 };

static void test_three_levels(void)
{
    const level_model lv[] = {{192 * 1024.0, 32.0}, {40 * 1048576.0, 210.0}, {0, 620.0}};
    const char *const names[] = {"L1", "L2", "DRAM"};
    plateau_point pts[MAXPTS];
    plateau_level got[PLATEAU_MAX_LEVELS];
    char err[256];

    /* 4 points per octave, transitions one octave wide, +-3 % noise */
    int fails = 0;
    for (uint64_t seed = 1; seed <= NSEEDS; seed++) {
        size_t n = make_ladder(pts, MAXPTS, lv, 3, 4.0 * 1073741824, 4, 1.0, 0.03, seed);
        int ng = plateau_find(pts, n, NULL, got, PLATEAU_MAX_LEVELS, err, sizeof err);
        fails += ladder_ok(got, ng, lv, 3, names, fails < 3, seed) != 0;
    }
    CHECK_EQ_I(fails, 0);

    /* --quick's grid: 2 points per octave up to 1 GiB */
    fails = 0;
    for (uint64_t seed = 1; seed <= NSEEDS; seed++) {
        size_t n = make_ladder(pts, MAXPTS, lv, 3, 1073741824.0, 2, 1.0, 0.03, seed);
        int ng = plateau_find(pts, n, NULL, got, PLATEAU_MAX_LEVELS, err, sizeof err);
        fails += ladder_ok(got, ng, lv, 3, names, fails < 3, seed) != 0;
    }
    CHECK_EQ_I(fails, 0);

    /* One seed in detail: exact values a reader can check by eye. */
    size_t n = make_ladder(pts, MAXPTS, lv, 3, 4.0 * 1073741824, 4, 1.0, 0.03, 7);
    CHECK_EQ_U(n, 81);
    int ng = plateau_find(pts, n, NULL, got, PLATEAU_MAX_LEVELS, err, sizeof err);
    CHECK_EQ_I(ng, 3);
    if (ng == 3) {
        CHECK_STR_HAS(got[0].name, "L1");
        CHECK_EQ_U(got[0].from_bytes, 4096);
        CHECK_EQ_U(got[0].first, 0);
        CHECK_STR_HAS(got[2].name, "DRAM");
        CHECK_EQ_U(got[2].to_bytes, 4ull << 30);
        CHECK_EQ_U(got[2].last, n - 1);
        CHECK_NEAR(got[1].cycles, 210.0, 210.0 * 0.03);
        /* every point is in a level or in a transition, none twice */
        CHECK(got[0].last < got[1].first && got[1].last < got[2].first);
        CHECK(got[0].npoints >= 14 && got[1].npoints >= 20 && got[2].npoints >= 20);
    }
}

static void test_four_levels(void)
{
    /* H100-like: L1, near L2 partition, far L2 partition, DRAM */
    const level_model lv[] = {{192 * 1024.0, 33.0}, {16 * 1048576.0, 262.0},
                              {48 * 1048576.0, 395.0}, {0, 820.0}};
    const char *const names[] = {"L1", "L2-near", "L2-far", "DRAM"};
    plateau_point pts[MAXPTS];
    plateau_level got[PLATEAU_MAX_LEVELS];
    char err[256];
    int fails = 0;
    for (uint64_t seed = 1; seed <= NSEEDS; seed++) {
        /* half-octave transitions, so the far plateau has ~5 points */
        size_t n = make_ladder(pts, MAXPTS, lv, 4, 4.0 * 1073741824, 4, 0.5, 0.03, seed);
        int ng = plateau_find(pts, n, NULL, got, PLATEAU_MAX_LEVELS, err, sizeof err);
        fails += ladder_ok(got, ng, lv, 4, names, fails < 3, seed) != 0;
    }
    CHECK_EQ_I(fails, 0);

    /* The same ladder read with the L1 bypassed has no L1: the first three
     * levels are then named as the L2 partitions and DRAM. */
    const level_model cg[] = {{16 * 1048576.0, 262.0}, {48 * 1048576.0, 395.0}, {0, 820.0}};
    const char *const cgnames[] = {"L2-near", "L2-far", "DRAM"};
    size_t n = make_ladder(pts, MAXPTS, cg, 3, 4.0 * 1073741824, 4, 0.5, 0.03, 3);
    int ng = plateau_find(pts, n, NULL, got, PLATEAU_MAX_LEVELS, err, sizeof err);
    plateau_label(got, ng, 1);
    CHECK_EQ_I(ladder_ok(got, ng, cg, 3, cgnames, 1, 3), 0);
}

static void test_outliers(void)
{
    const level_model lv[] = {{192 * 1024.0, 32.0}, {40 * 1048576.0, 210.0}, {0, 620.0}};
    plateau_point pts[MAXPTS];
    plateau_level got[PLATEAU_MAX_LEVELS];
    char err[256];
    size_t n = make_ladder(pts, MAXPTS, lv, 3, 4.0 * 1073741824, 4, 1.0, 0.03, 11);
    /* One spike inside L2 (an interrupted chase) and one dip inside DRAM. */
    size_t spike = 0, dip = 0;
    for (size_t i = 0; i < n; i++) {
        if (!spike && pts[i].bytes >= 4 * 1048576.0) spike = i;
        if (!dip && pts[i].bytes >= 512 * 1048576.0) dip = i;
    }
    pts[spike].cycles *= 1.6;
    pts[dip].cycles *= 0.7;
    int ng = plateau_find(pts, n, NULL, got, PLATEAU_MAX_LEVELS, err, sizeof err);
    CHECK_EQ_I(ng, 3);
    if (ng == 3) {
        CHECK_STR_HAS(got[1].name, "L2");
        CHECK(got[1].first < spike && spike < got[1].last);
        CHECK(got[2].first < dip && dip < got[2].last);
        /* the outliers are not members and do not move the median */
        CHECK_EQ_U(got[1].npoints, got[1].last - got[1].first);
        CHECK_NEAR(got[1].cycles, 210.0, 210.0 * 0.03);
        CHECK_NEAR(got[2].cycles, 620.0, 620.0 * 0.03);
    }
}

static void test_edges(void)
{
    plateau_point pts[40];
    plateau_level got[PLATEAU_MAX_LEVELS];
    char err[256];

    /* flat: one level, which cannot be named from order */
    for (int i = 0; i < 20; i++) {
        pts[i].bytes = 4096.0 * (i + 1);
        pts[i].cycles = 600.0 + (i % 3);
        pts[i].ns = 300.0;
    }
    CHECK_EQ_I(plateau_find(pts, 20, NULL, got, PLATEAU_MAX_LEVELS, err, sizeof err), 1);
    CHECK_STR_HAS(got[0].name, "level1");
    CHECK_NEAR(got[0].cycles, 601.0, 1e-9);
    CHECK_NEAR(got[0].ns, 300.0, 1e-9);

    /* too few points for a level */
    CHECK_EQ_I(plateau_find(pts, 2, NULL, got, PLATEAU_MAX_LEVELS, err, sizeof err), 0);
    CHECK_EQ_I(plateau_find(pts, 0, NULL, got, PLATEAU_MAX_LEVELS, err, sizeof err), 0);

    /* max_levels caps the output */
    const level_model lv[] = {{192 * 1024.0, 32.0}, {40 * 1048576.0, 210.0}, {0, 620.0}};
    plateau_point many[MAXPTS];
    size_t n = make_ladder(many, MAXPTS, lv, 3, 4.0 * 1073741824, 4, 1.0, 0.03, 5);
    CHECK_EQ_I(plateau_find(many, n, NULL, got, 2, err, sizeof err), 2);

    /* a steeper tolerance than the noise splits nothing it should not */
    plateau_params pp;
    plateau_params_default(&pp);
    CHECK_NEAR(pp.tol, 0.08, 1e-12);
    CHECK_EQ_I(pp.min_points, 3);

    /* bad input */
    pts[5].bytes = pts[4].bytes;
    CHECK_EQ_I(plateau_find(pts, 20, NULL, got, PLATEAU_MAX_LEVELS, err, sizeof err), -1);
    CHECK_STR_HAS(err, "not increasing");
    pts[5].bytes = 4096.0 * 6;
    pts[7].cycles = NAN;
    CHECK_EQ_I(plateau_find(pts, 20, NULL, got, PLATEAU_MAX_LEVELS, err, sizeof err), -1);
    CHECK_STR_HAS(err, "not a positive number");
    pts[7].cycles = 600;
    pp.tol = 0;
    CHECK_EQ_I(plateau_find(pts, 20, &pp, got, PLATEAU_MAX_LEVELS, err, sizeof err), -1);
}

static void test_labels(void)
{
    plateau_level lv[6];
    plateau_label(lv, 2, 0);
    CHECK_STR_HAS(lv[0].name, "L1");
    CHECK_STR_HAS(lv[1].name, "DRAM");
    plateau_label(lv, 2, 1);
    CHECK(strcmp(lv[0].name, "L2") == 0);
    plateau_label(lv, 4, 0);
    CHECK(strcmp(lv[1].name, "L2-near") == 0 && strcmp(lv[2].name, "L2-far") == 0);
    plateau_label(lv, 5, 0);
    CHECK(strcmp(lv[0].name, "L1") == 0 && strcmp(lv[1].name, "level2") == 0 &&
          strcmp(lv[3].name, "level4") == 0 && strcmp(lv[4].name, "DRAM") == 0);
    plateau_label(lv, 4, 1);
    CHECK(strcmp(lv[0].name, "L2") == 0 && strcmp(lv[1].name, "level2") == 0 &&
          strcmp(lv[3].name, "DRAM") == 0);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); exit(1); }
    fputs(text, f);
    fclose(f);
}

static void test_tsv(void)
{
    char dir[] = "/tmp/test_plateau.XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); exit(1); }
    char path[256], bad[256];
    snprintf(path, sizeof path, "%s/ladder.tsv", dir);
    snprintf(bad, sizeof bad, "%s/bad.tsv", dir);

    /* A table as ./latency writes it, 3 levels of 4 points each. */
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); exit(1); }
    fprintf(f, "# experiment\tlatency\n# kernel\tchase_cg\n# device_name\tNVIDIA Test GPU\n"
               "# threads_per_block\t1\n# sm_clock_measured_MHz\t1980\n# spacing_bytes\t128\n"
               "bytes\tlines\tloads\tcycles_per_load\tns_per_load\n");
    const double lat[] = {200, 202, 199, 201, 300, 450, 610, 598, 605, 600};
    for (int i = 0; i < 10; i++)
        fprintf(f, "%d\t%d\t4096\t%.2f\t%.2f\n", 4096 << i, (4096 << i) / 128, lat[i],
                lat[i] / 1.98);
    fclose(f);

    plateau_series s;
    char err[256];
    CHECK_EQ_I(plateau_read_tsv(path, &s, err, sizeof err), 0);
    CHECK_EQ_U(s.n, 10);
    CHECK_NEAR(s.sm_clock_MHz, 1980, 1e-9);
    CHECK_STR_HAS(s.device_name, "NVIDIA Test GPU");
    CHECK_STR_HAS(s.kernel, "chase_cg");
    CHECK_EQ_I(s.threads, 1);
    CHECK_EQ_U(s.spacing_bytes, 128);
    CHECK_EQ_I(plateau_series_l1_bypassed(&s), 1);
    CHECK_EQ_U(s.pts[9].bytes, 4096u << 9);
    CHECK_NEAR(s.pts[4].cycles, 300, 1e-9);
    CHECK_NEAR(s.pts[4].ns, 300 / 1.98, 0.006);
    plateau_series_free(&s);

    double cyc = 0, ns = 0;
    CHECK_EQ_I(plateau_dram_latency_from_tsv(path, &cyc, &ns, err, sizeof err), 0);
    CHECK_NEAR(cyc, 602.5, 1e-9);          /* median of 610 598 605 600 */
    CHECK_NEAR(ns, 602.5 / 1.98, 0.01);

    /* errors name the file and the line */
    CHECK_EQ_I(plateau_read_tsv("/nonexistent/x.tsv", &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "cannot open /nonexistent/x.tsv");
    write_file(bad, "# only comments\n");
    CHECK_EQ_I(plateau_read_tsv(bad, &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "no header row");
    write_file(bad, "size\tlatency\n1\t2\n");
    CHECK_EQ_I(plateau_read_tsv(bad, &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "no 'bytes' column");
    write_file(bad, "bytes\tcycles_per_load\n4096\t30\n8192\tabc\n");
    CHECK_EQ_I(plateau_read_tsv(bad, &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, ":3: a field is not a number");
    write_file(bad, "bytes\tcycles_per_load\n8192\t30\n4096\t31\n");
    CHECK_EQ_I(plateau_read_tsv(bad, &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "sizes must increase");
    write_file(bad, "bytes\tcycles_per_load\n");
    CHECK_EQ_I(plateau_read_tsv(bad, &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "no data rows");
    /* one level only: DRAM cannot be told */
    write_file(bad, "bytes\tcycles_per_load\n4096\t30\n8192\t30\n16384\t31\n32768\t30\n");
    CHECK_EQ_I(plateau_dram_latency_from_tsv(bad, &cyc, &ns, err, sizeof err), -1);
    CHECK_STR_HAS(err, "found 1 plateau,");

    unlink(path);
    unlink(bad);
    rmdir(dir);
}

/* What a hostile ladder table could do: too many points, metadata that
 * atof/atoi read as inf or overflowed. */
static void test_bounds(void)
{
    char err[256];
    plateau_series s;
    size_t n = PLATEAU_MAX_POINTS + 1, cap = n * 24 + 64, k = 0;
    char *t = malloc(cap);
    k += (size_t)snprintf(t, cap, "bytes\tcycles_per_load\n");
    for (size_t i = 0; i < n; i++) k += (size_t)snprintf(t + k, cap - k, "%zu\t100\n", i + 1);
    FILE *f = fmemopen(t, k, "r");
    CHECK_EQ_I(plateau_parse_tsv(f, "big.tsv", &s, err, sizeof err), -1);
    fclose(f);
    CHECK_STR_HAS(err, "big.tsv:4098: more than 4096 points");
    free(t);
    plateau_point *p = malloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++) p[i] = (plateau_point){(double)i + 1, 100, 0};
    plateau_level lv[PLATEAU_MAX_LEVELS];
    CHECK_EQ_I(plateau_find(p, n, NULL, lv, PLATEAU_MAX_LEVELS, err, sizeof err), -1);
    CHECK_STR_HAS(err, "4097 points: more than the 4096");
    /* the largest allowed, in the worst shape for the merge step: runs of
     * two points (100 104 | 108 104 | ...) whose medians 102 and 106 are
     * close, so that one level absorbs them one by one: quick, one level */
    static const double cyc[4] = {100, 104, 108, 104};
    for (size_t i = 0; i < PLATEAU_MAX_POINTS; i++)
        p[i] = (plateau_point){(double)i + 1, cyc[i % 4], 0};
    plateau_params pp = {0.05, 1};
    CHECK_EQ_I(plateau_find(p, PLATEAU_MAX_POINTS, &pp, lv, PLATEAU_MAX_LEVELS, err, sizeof err), 1);
    free(p);
    const char *meta = "# sm_clock_measured_MHz\tinf\n# threads_per_block\t99999999999999999999\n"
                       "# spacing_bytes\t-5\n# device_name\tGPU\033[2J\n"
                       "bytes\tcycles_per_load\n1\t2\n";
    f = fmemopen((void *)meta, strlen(meta), "r");
    CHECK_EQ_I(plateau_parse_tsv(f, "meta.tsv", &s, err, sizeof err), 0);
    fclose(f);
    CHECK_NEAR(s.sm_clock_MHz, 0, 0);
    CHECK_EQ_I(s.threads, 0);
    CHECK_EQ_U(s.spacing_bytes, 0);
    CHECK(strcmp(s.device_name, "GPU?[2J") == 0);
    plateau_series_free(&s);
    const char *inf = "bytes\tcycles_per_load\n1\tinf\n";
    f = fmemopen((void *)inf, strlen(inf), "r");
    CHECK_EQ_I(plateau_parse_tsv(f, "inf.tsv", &s, err, sizeof err), -1);
    fclose(f);
    CHECK_STR_HAS(err, "inf.tsv:2: a field is not a number");
}

/* The chart's x axis: powers of two, a readable number of tics whatever the sizes. */
static void test_axis(void)
{
    int e0 = 0, e1 = 0, step = 0;
    CHECK_EQ_I(plateau_pow2_axis(1024, 4194304, &e0, &e1, &step), 0);  /* 1 KiB .. 4 MiB */
    CHECK_EQ_I(e0, 10);
    CHECK_EQ_I(e1, 22);
    CHECK_EQ_I(step, 1);
    CHECK_EQ_I(plateau_pow2_axis(1000, 5e9, &e0, &e1, &step), 0);      /* 9 .. 33: step 2 */
    CHECK_EQ_I(e0, 9);
    CHECK_EQ_I(e1, 33);
    CHECK_EQ_I(step, 2);
    CHECK_EQ_I(plateau_pow2_axis(4096, 4096, &e0, &e1, &step), 0);     /* one size: one span */
    CHECK_EQ_I(e1 - e0, 1);
    CHECK_EQ_I(plateau_pow2_axis(4.9e-324, 1.7e308, &e0, &e1, &step), 0);
    CHECK((e1 - e0) / step <= 32);
    CHECK_EQ_I(plateau_pow2_axis(0, 10, &e0, &e1, &step), -1);
    CHECK_EQ_I(plateau_pow2_axis(1, INFINITY, &e0, &e1, &step), -1);
    CHECK_EQ_I(plateau_pow2_axis(NAN, 10, &e0, &e1, &step), -1);
    char lab[32];
    plateau_pow2_label(lab, sizeof lab, 12);
    CHECK(strcmp(lab, "4 KiB") == 0);
    plateau_pow2_label(lab, sizeof lab, 26);
    CHECK(strcmp(lab, "64 MiB") == 0);
    plateau_pow2_label(lab, sizeof lab, 31);
    CHECK(strcmp(lab, "2 GiB") == 0);
    plateau_pow2_label(lab, sizeof lab, 100);   /* 1 << 70 would overflow: written as 2^E */
    CHECK(strcmp(lab, "2^100 B") == 0);
    plateau_pow2_label(lab, sizeof lab, -3);
    CHECK(strcmp(lab, "1 B") == 0);
}

int main(void)
{
    test_three_levels();
    test_four_levels();
    test_outliers();
    test_edges();
    test_labels();
    test_tsv();
    test_bounds();
    test_axis();
    return check_report("test_plateau");
}
