/*
 * test_regions.c - per-region latency, warps in a region per SM, and the
 * Little's law verdict, on records and numbers worked out by hand.
 */
#define _DEFAULT_SOURCE /* wait4 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "regions.h"

static warp_record rec(uint64_t s, uint64_t e, uint16_t sm, uint8_t region)
{
    warp_record r;
    memset(&r, 0, sizeof r);
    r.start_clk = s;
    r.end_clk = e;
    r.smid = sm;
    r.region = region;
    return r;
}

static void test_acc(void)
{
    warplog_header h;
    warplog_header_init(&h);
    h.sm_count = 2;
    h.region_count = 2;
    snprintf(h.region_names[0], sizeof h.region_names[0], "gather");
    snprintf(h.region_names[1], sizeof h.region_names[1], "reduce");
    snprintf(h.kernel, sizeof h.kernel, "spmv");
    region_acc *a = region_acc_new(&h);
    CHECK(a != NULL);
    if (!a) return;
    CHECK_EQ_U(region_acc_count(a), 2);
    /* SM 0, region 0: [0,100] and [50,150]: 200 cycles of warps over a
     * 150-cycle span = 4/3 warps; SM 1, region 0: one warp, 1; mean 7/6.
     * Region 1: one warp [200,1200] on SM 0. */
    warp_record r[4] = {rec(1000, 1100, 0, 0), rec(1050, 1150, 0, 0), rec(5000, 5100, 1, 0),
                        rec(1200, 2200, 0, 1)};
    char err[256] = "";
    CHECK_EQ_I(region_acc_add(a, r, 4, err, sizeof err), 0);
    region_summary s;
    CHECK_EQ_I(region_acc_summary(a, 0, &s), 0);
    CHECK_EQ_U(s.lat.count, 3);
    CHECK_NEAR(s.lat.p50_cycles, 100, 0);
    CHECK_EQ_U(s.sms, 2);
    CHECK_NEAR(s.recorded_warps_per_sm, 7.0 / 6.0, 1e-12);
    CHECK_EQ_I(region_acc_summary(a, 1, &s), 0);
    CHECK_EQ_U(s.lat.count, 1);
    CHECK_NEAR(s.lat.p50_cycles, 1000, 0);
    CHECK_NEAR(s.recorded_warps_per_sm, 1, 0);
    CHECK_EQ_I(region_acc_summary(a, 2, &s), -1);
    /* a region or SM the header does not have */
    warp_record bad = rec(0, 10, 0, 2);
    CHECK_EQ_I(region_acc_add(a, &bad, 1, err, sizeof err), -1);
    CHECK_STR_HAS(err, "a record of region 2 on SM 0, but the log has 2 regions and 2 SMs");
    bad = rec(0, 10, 7, 0);
    CHECK_EQ_I(region_acc_add(a, &bad, 1, err, sizeof err), -1);
    CHECK_STR_HAS(err, "on SM 7");
    CHECK(strcmp(region_name(&h, 1), "reduce") == 0);
    region_acc_free(a);
    /* a log without regions is one region, named by its kernel */
    h.region_count = 0;
    a = region_acc_new(&h);
    CHECK_EQ_U(region_acc_count(a), 1);
    CHECK(strcmp(region_name(&h, 0), "spmv") == 0);
    region_acc_free(a);
}

static void test_verdict(void)
{
    region_verdict_in in = {
        .p50_cycles = 1000, .recorded_warps_per_sm = 7.0 / 6.0, .sample_blocks = 8,
        .resident_warps_per_sm = 64, .bytes_per_warp = 512, .ceiling_GBps = 3194.1,
        .dram_latency_ns = 500, .sm_clock_MHz = 1755, .sm_count = 132};
    region_verdict v;
    /* 8 x 7/6 = 9.33 warps x 512 B = 4778.7 B; need 3194.1 x 500 / 132 = 12098.9 B */
    region_verdict_make(&in, "gather", &v);
    CHECK_NEAR(v.warps_per_sm, 28.0 / 3.0, 1e-9);
    CHECK_NEAR(v.bytes_in_flight_per_sm, 512 * 28.0 / 3.0, 1e-6);
    CHECK_NEAR(v.bytes_needed_per_sm, 3194.1 * 500 / 132, 1e-9);
    CHECK_NEAR(v.dram_latency_cycles, 877.5, 1e-9);
    CHECK_NEAR(v.p50_x_dram, 1000 / 877.5, 1e-12);
    CHECK_STR_HAS(v.text, "region gather: p50 1000 cycles (1.1x the DRAM latency), 4.8 KB in flight "
                          "per SM of the 12.1 KB the ceiling needs, 9.3 warps in it per SM: bound by "
                          "latency at this occupancy");
    /* the SM full: capped at the resident warps */
    in.sample_blocks = 64;
    region_verdict_make(&in, "gather", &v);
    CHECK_NEAR(v.warps_per_sm, 64, 0);
    CHECK_STR_HAS(v.text, "32.8 KB in flight per SM of the 12.1 KB the ceiling needs: enough in "
                          "flight, not bound by latency");
    CHECK(strstr(v.text, "queue") == NULL);   /* p50 1.1x DRAM: no queueing */
    in.bytes_per_warp = 128;   /* 64 x 128 = 8.2 KB < 12.1 KB, SM full */
    region_verdict_make(&in, "gather", &v);
    CHECK_STR_HAS(v.text, "8.2 KB in flight per SM of the 12.1 KB the ceiling needs, with the SM "
                          "full (64 warps): bound by latency; more bytes per warp");
    /* queueing: enough in flight and p50 >= 2x DRAM */
    in.bytes_per_warp = 512;
    in.p50_cycles = 2000;
    region_verdict_make(&in, "gather", &v);
    CHECK_STR_HAS(v.text, "(2.3x the DRAM latency)");
    CHECK_STR_HAS(v.text, "; the loads queue (bandwidth- or sector-bound)");
    /* what is unknown is said */
    in.bytes_per_warp = 0;
    region_verdict_make(&in, "reduce", &v);
    CHECK(isnan(v.bytes_in_flight_per_sm));
    CHECK_STR_HAS(v.text, "no Little's law verdict: its bytes per warp were not given");
    in.bytes_per_warp = 512;
    in.dram_latency_ns = NAN;
    region_verdict_make(&in, "reduce", &v);
    CHECK(isnan(v.bytes_needed_per_sm));
    CHECK_STR_HAS(v.text, "region reduce: p50 2000 cycles, 64.0 warps in it per SM; no Little's law "
                          "verdict: no ceiling or DRAM latency (pass --ref DIR)");
}

/* A child accounts per_region distinct large latencies in each of 16
 * regions (interleaved, as a kernel's log has them).  Its exit status: 0
 * accepted with exact counts, 3 refused with the shared bound's sentence,
 * else a failure; *rss_kb its peak resident size. */
static int child_regions(uint64_t per_region, long *rss_kb)
{
    pid_t pid = fork();
    if (pid == 0) {
        warplog_header h;
        warplog_header_init(&h);
        h.sm_count = 132;
        h.region_count = 16;
        for (int r = 0; r < 16; r++)
            snprintf(h.region_names[r], sizeof h.region_names[r], "r%d", r);
        region_acc *a = region_acc_new(&h);
        if (!a) _exit(1);
        enum { B = 4096 };
        static warp_record buf[B];
        char err[512];
        uint64_t n = per_region * 16;
        for (uint64_t i = 0; i < n; i += B) {
            size_t k = 0;
            for (; k < B && i + k < n; k++) {
                uint64_t j = i + k;
                buf[k] = rec(1000, 1000 + LAT_STATS_BINS + j / 16, (uint16_t)(j % 132), (uint8_t)(j % 16));
            }
            if (region_acc_add(a, buf, k, err, sizeof err) != 0) {
                char want[128];
                snprintf(want, sizeof want, "more than %u distinct latencies", LAT_STATS_MAX_OVERFLOW / 16);
                _exit(strstr(err, want) ? 3 : 4);
            }
        }
        if (region_acc_finish(a, err, sizeof err) != 0) {
            char want[128];
            snprintf(want, sizeof want, "more than %u distinct latencies", LAT_STATS_MAX_OVERFLOW / 16);
            _exit(strstr(err, want) ? 3 : 4);
        }
        for (uint32_t r = 0; r < 16; r++) {
            region_summary s;
            if (region_acc_summary(a, r, &s) != 0) _exit(5);
            if (s.lat.count != per_region || s.lat.min_cycles != LAT_STATS_BINS ||
                s.lat.max_cycles != LAT_STATS_BINS + per_region - 1)
                _exit(6);
        }
        region_acc_free(a);
        _exit(0);
    }
    int status = 0;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status)) return -1;
    *rss_kb = ru.ru_maxrss;
    return WEXITSTATUS(status);
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* The regions of one log share one population's bound: 16 regions of
 * LAT_STATS_MAX_OVERFLOW / 16 distinct large latencies each are exact; one
 * more each is refused with a sentence, in about 256 MiB at most (16
 * regions of 4 Mi each took 2.5 GB). */
static void test_regions_share_the_bound(void)
{
    long rss = 0;
    CHECK_EQ_I(child_regions(LAT_STATS_MAX_OVERFLOW / 16, &rss), 0);
    CHECK_EQ_I(child_regions(LAT_STATS_MAX_OVERFLOW / 16 + 1, &rss), 3);
    printf("peak RSS: %ld KiB for 16 regions refused at the bound\n", rss);
#ifndef UNDER_ASAN
    CHECK(rss > 0 && (size_t)rss * 1024 < (256u << 20) + (16u << 20));
#endif
}

int main(void)
{
    test_acc();
    test_verdict();
    test_regions_share_the_bound();
    return check_report("test_regions");
}
