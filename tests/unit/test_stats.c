/*
 * test_stats - exact latency statistics (src/lib/stats.c).
 *
 * Expected values are worked by hand from numpy's type-7 definition,
 * h = (n-1)p, P = x[floor h] + frac(h) (x[floor h + 1] - x[floor h]),
 * and then cross-checked against a sort of random data.
 */
#define _DEFAULT_SOURCE /* wait4 */
#include <math.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "overlap.h"
#include "stats.h"
#include "warplog.h"

static warp_record rec(uint64_t start, uint64_t lat, uint16_t sm)
{
    warp_record r = {start, start + lat, 0, 0, 0, 0, sm};
    return r;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Reference: type 7 on a sorted array. */
static double ref_type7(const uint64_t *x, size_t n, double p)
{
    double h = (double)(n - 1) * p;
    size_t k = (size_t)floor(h);
    if (k + 1 >= n) return (double)x[n - 1];
    return (double)x[k] + (h - floor(h)) * ((double)x[k + 1] - (double)x[k]);
}

typedef struct seen { uint64_t lat[8], n[8]; int k; } seen;
static int collect(uint64_t lat, uint64_t n, void *ctx)
{
    seen *s = ctx;
    if (s->k < 8) { s->lat[s->k] = lat; s->n[s->k] = n; }
    s->k++;
    return 0;
}

static void test_hand_computed(void)
{
    lat_stats *s = lat_stats_new();
    warp_record r[32];
    size_t n = 0;
    /* SM 0: latencies 1..10, starts on a clock far from zero. */
    for (int i = 1; i <= 10; i++) r[n++] = rec(1000000000000ull + 7u * i, (uint64_t)i, 0);
    /* SM 5: values around the histogram edge and beyond it (overflow). */
    uint64_t big[] = {30000, 100, 16384, 16383, 20000};
    for (int i = 0; i < 5; i++) r[n++] = rec(50, big[i], 5);
    /* A record whose end precedes its start is not a latency. */
    r[n] = rec(100, 0, 0);
    r[n].end_clk = 99;
    n++;
    CHECK_EQ_I(lat_stats_add(s, r, n), 0);
    CHECK_EQ_U(lat_stats_bad(s), 1);

    CHECK_EQ_I(lat_stats_next_sm(s, -1), 0);
    CHECK_EQ_I(lat_stats_next_sm(s, 0), 5);
    CHECK_EQ_I(lat_stats_next_sm(s, 5), -1);

    lat_summary m;
    CHECK_EQ_I(lat_stats_summary(s, 0, &m), 0);
    CHECK_EQ_U(m.count, 10);
    CHECK_NEAR(m.mean_cycles, 5.5, 1e-12);
    CHECK_NEAR(m.p5_cycles, 1.45, 1e-12);  /* h = 0.45 */
    CHECK_NEAR(m.p50_cycles, 5.5, 1e-12);  /* h = 4.5: mean of 5 and 6 */
    CHECK_NEAR(m.p95_cycles, 9.55, 1e-12); /* h = 8.55 */
    CHECK_NEAR(m.p99_cycles, 9.91, 1e-12); /* h = 8.91 */
    CHECK_EQ_U(m.min_cycles, 1);
    CHECK_EQ_U(m.max_cycles, 10);

    /* sorted: 100 16383 16384 20000 30000 */
    CHECK_EQ_I(lat_stats_summary(s, 5, &m), 0);
    CHECK_EQ_U(m.count, 5);
    CHECK_NEAR(m.mean_cycles, 16573.4, 1e-9);
    CHECK_NEAR(m.p5_cycles, 3356.6, 1e-9);   /* h = 0.2: 100 + 0.2 * 16283 */
    CHECK_NEAR(m.p50_cycles, 16384, 0);      /* h = 2 */
    CHECK_NEAR(m.p95_cycles, 28000, 1e-9);   /* h = 3.8 */
    CHECK_NEAR(m.p99_cycles, 29600, 1e-9);   /* h = 3.96 */
    CHECK_EQ_U(m.min_cycles, 100);
    CHECK_EQ_U(m.max_cycles, 30000);

    /* all 15: 1..10 100 16383 16384 20000 30000 */
    CHECK_EQ_I(lat_stats_summary(s, LAT_STATS_ALL, &m), 0);
    CHECK_EQ_U(m.count, 15);
    CHECK_NEAR(m.mean_cycles, 82922.0 / 15.0, 1e-9);
    CHECK_NEAR(m.p5_cycles, 1.7, 1e-12);    /* h = 0.7 */
    CHECK_NEAR(m.p50_cycles, 8, 0);         /* h = 7 */
    CHECK_NEAR(m.p95_cycles, 23000, 1e-9);  /* h = 13.3 */
    CHECK_NEAR(m.p99_cycles, 28600, 1e-9);  /* h = 13.86 */
    CHECK_EQ_U(m.min_cycles, 1);
    CHECK_EQ_U(m.max_cycles, 30000);
    CHECK_NEAR(lat_stats_percentile(s, LAT_STATS_ALL, 0.0), 1, 0);
    CHECK_NEAR(lat_stats_percentile(s, LAT_STATS_ALL, 1.0), 30000, 0);
    CHECK(isnan(lat_stats_percentile(s, LAT_STATS_ALL, 1.5)));

    /* An SM without records, and adding after a summary re-finalises. */
    CHECK_EQ_I(lat_stats_summary(s, 3, &m), 0);
    CHECK_EQ_U(m.count, 0);
    CHECK(isnan(lat_stats_percentile(s, 3, 0.5)));
    warp_record more[2] = {rec(0, 30000, 5), rec(0, 2, 0)};
    CHECK_EQ_I(lat_stats_add(s, more, 2), 0);
    CHECK_EQ_I(lat_stats_summary(s, LAT_STATS_ALL, &m), 0);
    CHECK_EQ_U(m.count, 17);
    CHECK_NEAR(m.p50_cycles, 8, 0); /* 1 2 2 3 ... : x[8] = 8 */

    seen sn = {0};
    CHECK_EQ_I(lat_stats_each(s, 5, collect, &sn), 0);
    CHECK_EQ_I(sn.k, 5); /* 30000 appears twice: one step */
    CHECK_EQ_U(sn.lat[0], 100);
    CHECK_EQ_U(sn.lat[4], 30000);
    CHECK_EQ_U(sn.n[4], 2);
    lat_stats_free(s);
}

static void test_single_and_empty(void)
{
    lat_stats *s = lat_stats_new();
    lat_summary m;
    CHECK_EQ_I(lat_stats_summary(s, LAT_STATS_ALL, &m), 0);
    CHECK_EQ_U(m.count, 0);
    warp_record r = rec(5, 622, 131);
    CHECK_EQ_I(lat_stats_add(s, &r, 1), 0);
    CHECK_EQ_I(lat_stats_summary(s, 131, &m), 0);
    CHECK_EQ_U(m.count, 1);
    CHECK_NEAR(m.p5_cycles, 622, 0);
    CHECK_NEAR(m.p99_cycles, 622, 0);
    CHECK_NEAR(m.mean_cycles, 622, 0);
    lat_stats_free(s);
}

/* Random latencies on several SMs, some overflowing, against qsort. */
static void test_against_sort(void)
{
    enum { N = 200003, NSM = 7 };
    uint64_t *all = malloc(N * sizeof *all);
    uint64_t *one = malloc(N * sizeof *one);
    warp_record *r = malloc(N * sizeof *r);
    uint64_t state = 12345;
    for (size_t i = 0; i < N; i++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t x = state >> 33;
        uint64_t lat = x % 97 == 0 ? 16000 + x % 9000 : 300 + x % 1500;
        r[i] = rec(x, lat, (uint16_t)(x % NSM * 3));
        all[i] = lat;
    }
    lat_stats *s = lat_stats_new();
    /* in uneven pieces, like chunks */
    for (size_t i = 0; i < N;) {
        size_t k = N - i < 65536 ? N - i : 65536 - 17;
        CHECK_EQ_I(lat_stats_add(s, r + i, k), 0);
        i += k;
    }
    qsort(all, N, sizeof *all, cmp_u64);
    const double ps[] = {0, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 0.999, 1};
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++)
        CHECK_NEAR(lat_stats_percentile(s, LAT_STATS_ALL, ps[k]), ref_type7(all, N, ps[k]), 1e-9);
    /* one SM */
    size_t m = 0;
    long double sum = 0;
    for (size_t i = 0; i < N; i++)
        if (r[i].smid == 6) {
            one[m++] = r[i].end_clk - r[i].start_clk;
            sum += one[m - 1];
        }
    qsort(one, m, sizeof *one, cmp_u64);
    lat_summary sm;
    CHECK_EQ_I(lat_stats_summary(s, 6, &sm), 0);
    CHECK_EQ_U(sm.count, m);
    CHECK_NEAR(sm.mean_cycles, (double)(sum / m), 1e-9);
    CHECK_NEAR(sm.p5_cycles, ref_type7(one, m, 0.05), 1e-9);
    CHECK_NEAR(sm.p50_cycles, ref_type7(one, m, 0.5), 1e-9);
    CHECK_NEAR(sm.p95_cycles, ref_type7(one, m, 0.95), 1e-9);
    CHECK_NEAR(sm.p99_cycles, ref_type7(one, m, 0.99), 1e-9);
    CHECK_EQ_U(sm.min_cycles, one[0]);
    CHECK_EQ_U(sm.max_cycles, one[m - 1]);
    lat_stats_free(s);
    free(all);
    free(one);
    free(r);
}

static void test_clock(void)
{
    CHECK_NEAR(lat_cycles_to_ns(1755, 1755), 1000, 1e-9);
    CHECK_NEAR(lat_cycles_to_ns(622, 1555), 400, 1e-9);
    CHECK(isnan(lat_cycles_to_ns(1, 0)));
    warplog_header h;
    warplog_header_init(&h);
    h.sm_clock_measured_MHz = 1755;
    h.sm_clock_nominal_khz = 1980000;
    CHECK_NEAR(lat_stats_clock_MHz(&h, "x.bin", NULL), 1755, 0);
    h.sm_clock_measured_MHz = 0;
    FILE *w = tmpfile();
    CHECK_NEAR(lat_stats_clock_MHz(&h, "x.bin", w), 1980, 0);
    char buf[256] = "";
    rewind(w);
    size_t got = fread(buf, 1, sizeof buf - 1, w);
    buf[got] = 0;
    CHECK_STR_HAS(buf, "x.bin has no measured SM clock");
    CHECK_STR_HAS(buf, "1980 MHz");
    fclose(w);
    h.sm_clock_nominal_khz = 0;
    CHECK_NEAR(lat_stats_clock_MHz(&h, "x.bin", NULL), 0, 0);
}

/* Through a real log: several chunks, read back with the streaming reader. */
static void test_read_log(void)
{
    char path[] = "/tmp/test_stats_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    warplog_header h;
    warplog_header_init(&h);
    h.record_count = 1000;
    h.chunk_records = 64;
    h.sm_count = 4;
    h.warps_per_block = 4;
    snprintf(h.experiment, sizeof h.experiment, "readonly");   /* a log names both */
    snprintf(h.kernel, sizeof h.kernel, "float4");
    char err[256];
    warplog_writer *w = warplog_writer_open(path, &h, 1, err, sizeof err);
    CHECK(w != NULL);
    warp_record rs[1000];
    for (uint64_t i = 0; i < 1000; i++)
        rs[i] = rec(1000 + i, 500 + i % 100, (uint16_t)(i % 4)); /* 500..599, 10 each */
    if (w) CHECK_EQ_I(warplog_writer_put(w, rs, 1000, err, sizeof err), 0);
    if (w) CHECK_EQ_I(warplog_writer_close(w, err, sizeof err), 0);
    lat_stats *s = lat_stats_new();
    warplog_header got;
    CHECK_EQ_I(lat_stats_read_log(s, path, &got, err, sizeof err), 0);
    CHECK_STR_HAS(got.kernel, "float4");
    lat_summary m;
    lat_stats_summary(s, LAT_STATS_ALL, &m);
    CHECK_EQ_U(m.count, 1000);
    CHECK_NEAR(m.mean_cycles, 549.5, 1e-12);
    CHECK_NEAR(m.p50_cycles, 549.5, 1e-12); /* h = 499.5: x[499]=549, x[500]=550 */
    CHECK_NEAR(m.p5_cycles, 504.95, 1e-9);  /* h = 49.95: x[49]=504, x[50]=505 */
    CHECK_EQ_U(m.min_cycles, 500);
    CHECK_EQ_U(m.max_cycles, 599);
    lat_stats_free(s);
    unlink(path);

    s = lat_stats_new();
    CHECK_EQ_I(lat_stats_read_log(s, "/nonexistent/x.bin", NULL, err, sizeof err), -1);
    CHECK_STR_HAS(err, "cannot open /nonexistent/x.bin");
    lat_stats_free(s);

    /* a record of an SM the header does not have is refused: per-SM state
     * is sized by sm_count */
    h.sm_count = 3;
    h.record_count = 1000;
    w = warplog_writer_open(path, &h, 1, err, sizeof err);
    CHECK(w != NULL);
    if (w) CHECK_EQ_I(warplog_writer_put(w, rs, 1000, err, sizeof err), 0);
    if (w) CHECK_EQ_I(warplog_writer_close(w, err, sizeof err), 0);
    s = lat_stats_new();
    CHECK_EQ_I(lat_stats_read_log(s, path, NULL, err, sizeof err), -1);
    CHECK_STR_HAS(err, "record 3 is of SM 3, but the header says the GPU has 3 SMs");
    lat_stats_free(s);
    unlink(path);
}

/* The bounds of stats.h: SM ids, distinct large latencies, exact 128-bit sums. */
static void test_bounds(void)
{
    lat_stats *s = lat_stats_new();
    warp_record r = rec(0, 10, LAT_STATS_MAX_SMS);
    CHECK_EQ_I(lat_stats_add(s, &r, 1), -1);
    CHECK_STR_HAS(lat_stats_error(s), "SM id 256");
    lat_stats_free(s);

    /* exactly LAT_STATS_MAX_OVERFLOW distinct large latencies: fine, exact */
    enum { B = 1000 };
    warp_record buf[B];
    s = lat_stats_new();
    uint64_t k = 0;
    for (; k < LAT_STATS_MAX_OVERFLOW;) {
        size_t n = 0;
        for (; n < B && k < LAT_STATS_MAX_OVERFLOW; n++, k++)
            buf[n] = rec(k, LAT_STATS_BINS + (LAT_STATS_MAX_OVERFLOW - 1 - k) * 3, (uint16_t)(k & 1));
        CHECK_EQ_I(lat_stats_add(s, buf, n), 0);
    }
    lat_summary m;
    CHECK_EQ_I(lat_stats_summary(s, LAT_STATS_ALL, &m), 0);
    CHECK_EQ_U(m.count, LAT_STATS_MAX_OVERFLOW);
    CHECK_EQ_U(m.min_cycles, LAT_STATS_BINS);
    CHECK_EQ_U(m.max_cycles, LAT_STATS_BINS + (LAT_STATS_MAX_OVERFLOW - 1) * 3ull);
    CHECK_NEAR(m.p50_cycles, LAT_STATS_BINS + (LAT_STATS_MAX_OVERFLOW - 1) * 1.5, 1e-9);
    /* repeating them costs nothing; one more distinct value is refused */
    for (k = 0; k < B; k++)
        buf[k] = rec(k, LAT_STATS_BINS + (k % 100) * 3,
                     (uint16_t)((LAT_STATS_MAX_OVERFLOW - 1 - k % 100) & 1));
    CHECK_EQ_I(lat_stats_add(s, buf, B), 0);
    CHECK_EQ_I(lat_stats_summary(s, LAT_STATS_ALL, &m), 0);
    r = rec(0, LAT_STATS_BINS + 1, 0);
    int rc = lat_stats_add(s, &r, 1);
    if (rc == 0) rc = lat_stats_summary(s, LAT_STATS_ALL, &m); /* the batch is merged here */
    CHECK_EQ_I(rc, -1);
    char want[96];
    snprintf(want, sizeof want, "more than %u distinct latencies of %u cycles or more",
             LAT_STATS_MAX_OVERFLOW, LAT_STATS_BINS);
    CHECK_STR_HAS(lat_stats_error(s), want);
    lat_stats_free(s);

    /* a mean whose sum needs more than 64 bits */
    s = lat_stats_new();
    warp_record huge[4];
    for (int i = 0; i < 4; i++) huge[i] = rec(0, (1ull << 63) + (uint64_t)i, 2);
    CHECK_EQ_I(lat_stats_add(s, huge, 4), 0);
    CHECK_EQ_I(lat_stats_summary(s, 2, &m), 0);
    CHECK_NEAR(m.mean_cycles, 9223372036854775809.5, 4096); /* 2^63 + 1.5, to double precision */
    CHECK_EQ_U(m.max_cycles, (1ull << 63) + 3);
    lat_stats_free(s);
}

/* Peak RSS (KiB) of a child that accounts n records with large, repeating
 * latencies on 132 SMs. */
static long child_rss_kb(uint64_t n)
{
    pid_t pid = fork();
    if (pid == 0) {
        enum { B = 65536 };
        warp_record *buf = malloc(B * sizeof *buf);
        lat_stats *s = lat_stats_new();
        for (uint64_t i = 0; i < n; i += B) {
            for (uint64_t k = 0; k < B; k++)
                buf[k] = rec(i + k, 16384 + (i + k) % 3000, (uint16_t)((i + k) % 132));
            if (lat_stats_add(s, buf, B) != 0) _exit(1);
        }
        lat_summary m;
        _exit(lat_stats_summary(s, LAT_STATS_ALL, &m) == 0 && m.count == (n + B - 1) / B * B ? 0 : 2);
    }
    int status = 0;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
        return -1;
    return ru.ru_maxrss;
}

/* Under AddressSanitizer freed memory waits in a quarantine of 256 MB, so
 * resident sizes say nothing about what the code holds. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* Ten million warps of 16384 cycles or more: the memory does not grow with
 * the count (it was 8 bytes a warp). */
static void test_memory_independent_of_count(void)
{
#ifdef UNDER_ASAN
    printf("AddressSanitizer build: resident sizes not compared\n");
    CHECK(child_rss_kb(1u << 20) > 0);
#else
    long small = child_rss_kb(1u << 16), big = child_rss_kb(10u << 20);
    printf("peak RSS: %ld KiB for 65536 large latencies, %ld KiB for 10 Mi\n", small, big);
    CHECK(small > 0 && big > 0);
    CHECK(big - small < 4096);
    CHECK((size_t)big * 1024 < LAT_STATS_MAX_BYTES + (8u << 20));
#endif
}

/* Brute force: the most intervals [s, e) overlapping, ends before starts. */
static uint64_t brute_overlap(const warp_record *r, size_t n, unsigned sm)
{
    uint64_t best = 0;
    for (size_t i = 0; i < n; i++) {
        if (r[i].smid != sm || r[i].end_clk <= r[i].start_clk) continue;
        uint64_t t = r[i].start_clk, c = 0;
        for (size_t j = 0; j < n; j++)
            if (r[j].smid == sm && r[j].end_clk > r[j].start_clk && r[j].start_clk <= t &&
                r[j].end_clk > t)
                c++;
        if (c > best) best = c;
    }
    return best;
}

static void test_overlap(void)
{
    /* by hand, SM 1: [10,20) [15,30) [20,25) [20,21) [40,50) [5,5)
     * at 20: [10,20) has ended, so [15,30) [20,25) [20,21) = 3 */
    warp_record hand[] = {rec(10, 10, 1), rec(15, 15, 1), rec(20, 5, 1), rec(20, 1, 1),
                          rec(40, 10, 1), rec(5, 0, 1), rec(7, 100, 0)};
    lat_overlap *o = lat_overlap_new(2);
    for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++) CHECK_EQ_I(lat_overlap_add(o, &hand[i]), 0);
    CHECK_EQ_I(lat_overlap_finish(o), 0);
    lat_overlap_sm res;
    lat_overlap_get(o, 1, &res);
    CHECK_EQ_U(res.warps, 6);
    CHECK_EQ_U(res.max_in_flight, 3);
    CHECK_EQ_I(res.status, LAT_OVERLAP_EXACT);
    lat_overlap_get(o, 0, &res);
    CHECK_EQ_U(res.max_in_flight, 1);
    lat_overlap_free(o);
    CHECK(lat_overlap_new(0) == NULL);
    CHECK(lat_overlap_new(LAT_STATS_MAX_SMS + 1) == NULL);

    /* near-sorted random runs like a real log, longer than the window:
     * exact, equal to brute force */
    enum { N = 6000, NSM = 3 };
    warp_record *r = malloc(N * sizeof *r);
    uint64_t x = 99;
    for (size_t i = 0; i < N; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t jitter = (x >> 40) % 200, lat = 50 + (x >> 20) % 400;
        r[i] = rec(1000 + i * 4 + jitter, (x >> 60) == 0 ? 0 : lat, (uint16_t)(i % NSM));
    }
    o = lat_overlap_new(LAT_STATS_MAX_SMS); /* window 1024 per SM, < N / NSM */
    CHECK_EQ_U(lat_overlap_window(o), 1024);
    for (size_t i = 0; i < N; i++) CHECK_EQ_I(lat_overlap_add(o, &r[i]), 0);
    CHECK_EQ_I(lat_overlap_finish(o), 0);
    for (unsigned sm = 0; sm < NSM; sm++) {
        lat_overlap_get(o, sm, &res);
        CHECK_EQ_I(res.status, LAT_OVERLAP_EXACT);
        CHECK_EQ_U(res.warps, N / NSM);
        CHECK_EQ_U(res.max_in_flight, brute_overlap(r, N, sm));
    }
    lat_overlap_free(o);

    /* a record far out of order: the count of its SM is unknown */
    o = lat_overlap_new(LAT_STATS_MAX_SMS);
    for (size_t i = 0; i < 3000; i++) {
        warp_record a = rec(1000 + i, 10, 4);
        CHECK_EQ_I(lat_overlap_add(o, &a), 0);
    }
    warp_record late = rec(1500, 10, 4); /* 1500 records earlier than the last */
    CHECK_EQ_I(lat_overlap_add(o, &late), 0);
    CHECK_EQ_I(lat_overlap_finish(o), 0);
    lat_overlap_get(o, 4, &res);
    CHECK_EQ_I(res.status, LAT_OVERLAP_DISORDER);
    CHECK_EQ_U(res.warps, 3001);
    lat_overlap_free(o);

    /* more in flight than the window: too many, not a number to trust */
    o = lat_overlap_new(LAT_STATS_MAX_SMS);
    for (size_t i = 0; i < 3000; i++) {
        warp_record a = rec(1000 + i, 1000000, 7);
        CHECK_EQ_I(lat_overlap_add(o, &a), 0);
    }
    CHECK_EQ_I(lat_overlap_finish(o), 0);
    lat_overlap_get(o, 7, &res);
    CHECK_EQ_I(res.status, LAT_OVERLAP_TOO_MANY);
    CHECK_EQ_U(res.max_in_flight, 1025);
    lat_overlap_free(o);
    free(r);
}

/* The bootstrap interval of a median: identical launches give a point;
 * it holds the median and lies within [min, max]; the same seed gives the
 * same interval; a wider spread gives a wider interval; bad input refused. */
static void test_median_ci(void)
{
    double lo, hi;
    const double same[5] = {0.25, 0.25, 0.25, 0.25, 0.25};
    CHECK(stats_median_ci(same, 5, 0.95, 200, 7, &lo, &hi) == 0);
    CHECK_NEAR(lo, 0.25, 0);
    CHECK_NEAR(hi, 0.25, 0);
    const double x[7] = {1.00, 1.01, 0.99, 1.02, 0.98, 1.00, 1.005};
    double sorted[7];
    memcpy(sorted, x, sizeof x);
    const double med = stats_median_inplace(sorted, 7);
    CHECK(stats_median_ci(x, 7, 0.95, 400, 7, &lo, &hi) == 0);
    CHECK(lo <= med && med <= hi);
    CHECK(lo >= 0.98 && hi <= 1.02);
    CHECK(lo < hi);
    double lo2, hi2;
    CHECK(stats_median_ci(x, 7, 0.95, 400, 7, &lo2, &hi2) == 0);
    CHECK_NEAR(lo2, lo, 0);
    CHECK_NEAR(hi2, hi, 0);
    const double wide[7] = {1.00, 1.10, 0.90, 1.20, 0.80, 1.00, 1.05};
    CHECK(stats_median_ci(wide, 7, 0.95, 400, 7, &lo2, &hi2) == 0);
    CHECK(hi2 - lo2 > hi - lo);
    const double one = 3.5;
    CHECK(stats_median_ci(&one, 1, 0.95, 10, 1, &lo, &hi) == 0);
    CHECK_NEAR(lo, 3.5, 0);
    CHECK(stats_median_ci(x, 0, 0.95, 10, 1, &lo, &hi) == -1);
    CHECK(isnan(lo) && isnan(hi));
    CHECK(stats_median_ci(x, 7, 1.0, 10, 1, &lo, &hi) == -1);
    CHECK(stats_median_ci(x, 7, 0.95, 0, 1, &lo, &hi) == -1);
}

int main(void)
{
    test_median_ci();
    test_hand_computed();
    test_single_and_empty();
    test_against_sort();
    test_clock();
    test_read_log();
    test_bounds();
    test_memory_independent_of_count();
    test_overlap();
    return check_report("test_stats");
}
