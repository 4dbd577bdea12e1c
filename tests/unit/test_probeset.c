/* test_probeset.c - what the engine computes from a launch's probes. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "probeset.h"
#include "synthprobes.h"

static warp_probe P(uint32_t start, uint32_t lat, uint32_t sm, uint32_t gt, uint32_t block)
{
    warp_probe p = {start, lat | sm << 24, gt, block};
    return p;
}


static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The max concurrency as the engine first computed it, the reference for
 * the sliced, per-SM one: every probe unwrapped in order
 * (warplog_expand_probe), one key per edge, smid << 56 | clock << 1 |
 * start, one sort of them all, one sweep. */
static long ref_max_concurrency(const warp_probe *p, uint64_t n)
{
    uint64_t *e = malloc(2 * n * sizeof *e);
    uint32_t sm_ref[WARP_PROBE_MAX_SMS];
    uint8_t sm_seen[WARP_PROBE_MAX_SMS] = {0};
    for (uint64_t i = 0; i < n; i++) {
        warp_record r;
        warplog_expand_probe(&p[i], i, 1, 1, 0, sm_ref, sm_seen, &r);
        e[2 * i] = (uint64_t)r.smid << 56 | (r.start_clk & ((1ull << 54) - 1)) << 1 | 1;
        e[2 * i + 1] = (uint64_t)r.smid << 56 | ((r.end_clk & ((1ull << 54) - 1)) + 1) << 1;
    }
    qsort(e, 2 * n, sizeof *e, cmp_u64);
    long best = 0, cur = 0;
    unsigned sm = 256;
    for (uint64_t i = 0; i < 2 * n; i++) {
        if ((unsigned)(e[i] >> 56) != sm) sm = (unsigned)(e[i] >> 56), cur = 0;
        cur += (e[i] & 1) ? 1 : -1;
        if (cur > best) best = cur;
    }
    free(e);
    return best;
}

/* The latency summary from fully unwrapped records, the reference for the
 * one that skips the clocks. */
static int ref_summary(const warp_probe *p, uint64_t n, lat_summary *out)
{
    lat_stats *st = lat_stats_new();
    warp_record *r = malloc(n * sizeof *r);
    uint32_t sm_ref[WARP_PROBE_MAX_SMS];
    uint8_t sm_seen[WARP_PROBE_MAX_SMS] = {0};
    for (uint64_t i = 0; i < n; i++) warplog_expand_probe(&p[i], i, 4, 1, 0, sm_ref, sm_seen, &r[i]);
    const int rc = lat_stats_add(st, r, n) == 0 ? lat_stats_summary(st, LAT_STATS_ALL, out) : -1;
    free(r);
    lat_stats_free(st);
    return rc;
}

/* A launch of n probes (synthprobes.h), made harder: SM 5's clock wraps
 * its low word mid-run, SM 200's probes appear only in the last 500 (its
 * first probe in the last slice), and one probe in 1000 has a latency past
 * the statistics' one-cycle bins, up to the probe's largest. */
static warp_probe *hard_probes(uint64_t n, uint64_t seed)
{
    warp_probe *p = synth_probes(n, 4, 8, seed, 1ull << 40);
    uint32_t first5 = 0;
    int seen5 = 0;
    uint64_t s = seed * 977;
    for (uint64_t i = 0; i < n; i++) {
        if (p[i].lat_smid >> 24 == 5) {
            if (!seen5) first5 = p[i].start_lo, seen5 = 1;
            p[i].start_lo -= first5 + 1000u;   /* the first at 2^32 - 1000 */
        }
        if (i + 500 >= n) p[i].lat_smid = (p[i].lat_smid & WARP_PROBE_LAT_MAX) | 200u << 24;
        if (synth_next(&s) % 1000 == 0)
            p[i].lat_smid = (p[i].lat_smid & 0xff000000u) |
                            (uint32_t)(LAT_STATS_BINS + synth_next(&s) % (WARP_PROBE_LAT_MAX - LAT_STATS_BINS + 1));
    }
    return p;
}

static void check_against_references(void)
{
    /* more than 65536 probes: several slices on a host of several cores */
    const uint64_t counts[] = {1000, 70001, 250000};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            const uint64_t n = counts[c];
            warp_probe *p = hard_probes(n, seed);
            CHECK_EQ_I(probeset_max_concurrency(p, n), ref_max_concurrency(p, n));
            lat_summary got, want;
            CHECK(probeset_summary(p, n, 4, 1, &got, NULL, 0) == 0);
            CHECK(ref_summary(p, n, &want) == 0);
            CHECK(memcmp(&got, &want, sizeof got) == 0);
            CHECK_EQ_U(got.count, n);
            free(p);
        }
}

int main(void)
{
    /* latencies 100, 200, 300, 400 on two SMs: mean 250, p50 250 */
    warp_probe a[4] = {P(1000, 100, 3, 0, 0), P(1010, 200, 3, 0, 0), P(5000, 300, 7, 0, 8), P(5000, 400, 7, 0, 8)};
    lat_summary s;
    CHECK(probeset_summary(a, 4, 2, 1, &s, NULL, 0) == 0);
    CHECK_EQ_U(s.count, 4);
    CHECK_NEAR(s.mean_cycles, 250, 1e-9);
    CHECK_NEAR(s.p50_cycles, 250, 1e-9);
    CHECK_EQ_U(s.min_cycles, 100);
    CHECK_EQ_U(s.max_cycles, 400);
    CHECK(probeset_summary(a, 0, 2, 1, &s, NULL, 0) == 0);
    CHECK_EQ_U(s.count, 0);

    /* concurrency: on SM 3 [1000,1100] and [1010,1210] overlap (2); on SM 7
     * both start at 5000 (2); a third on SM 3 starting after both end: still 2 */
    warp_probe c[5] = {a[0], a[1], a[2], a[3], P(1300, 5, 3, 0, 16)};
    CHECK_EQ_I(probeset_max_concurrency(c, 5), 2);
    /* touching intervals do not overlap: [0,10] and [11,20] */
    warp_probe d[2] = {P(0, 10, 1, 0, 0), P(11, 9, 1, 0, 0)};
    CHECK_EQ_I(probeset_max_concurrency(d, 2), 1);
    /* ... but sharing the end cycle does */
    warp_probe e[2] = {P(0, 10, 1, 0, 0), P(10, 9, 1, 0, 0)};
    CHECK_EQ_I(probeset_max_concurrency(e, 2), 2);
    /* the clock wraps its low 32 bits between two warps of one SM */
    warp_probe w[2] = {P(0xfffffff0u, 0x40, 2, 0, 0), P(0x10u, 0x10, 2, 0, 0)};
    CHECK_EQ_I(probeset_max_concurrency(w, 2), 2);
    /* random intervals on 3 SMs (the radix sort's every digit moves):
     * against counting, at each start, the intervals of its SM that cover it */
    for (unsigned seed = 1; seed <= 20; seed++) {
        enum { NR = 300 };
        warp_probe r[NR];
        srand(seed);
        for (int i = 0; i < NR; i++)
            r[i] = P((uint32_t)rand() * 2654435761u % (seed * 5000u + 50u), 1u + (uint32_t)rand() % 400u,
                     (uint32_t)rand() % 3u, 0, 0);
        long want = 0;
        for (int i = 0; i < NR; i++) {
            long cover = 0;
            const uint32_t si = r[i].start_lo;
            for (int j = 0; j < NR; j++) {
                const uint32_t sj = r[j].start_lo, ej = sj + (r[j].lat_smid & 0xffffffu);
                if (r[j].lat_smid >> 24 == r[i].lat_smid >> 24 && sj <= si && si <= ej) cover++;
            }
            if (cover > want) want = cover;
        }
        CHECK_EQ_I(probeset_max_concurrency(r, NR), want);
    }

    /* in flight (inflight.h) across that wrap: blocks 0 and 1 on SM 2,
     * windows [-16,48] and [16,32] around the wrap: span 64, integral
     * 64 + 16 = 80, W = 1.25; mean latency 40; the global timer wraps too
     * (base 2^32 - 100): the first start at base + 10 ns, the last end at
     * base + 150 + 16 ns at 1000 MHz, a device span of 0.156 us */
    {
        const uint64_t gb = (1ull << 32) - 100;
        warp_probe g[2] = {P(0xfffffff0u, 0x40, 2, (uint32_t)(gb + 10), 0),
                           P(0x10u, 0x10, 2, (uint32_t)(gb + 150), 1)};
        const inflight_params prm = {128, 1, 1000, 0.0002};
        inflight_result o;
        CHECK(probeset_inflight(g, 2, 1, 1, gb, &prm, &o, NULL, 0) == 0);
        CHECK_EQ_U(o.blocks, 2);
        CHECK_NEAR(o.lat_mean_cycles, 40, 0);
        CHECK_NEAR(o.warps_in_flight, 1.25, 1e-12);
        CHECK_NEAR(o.slot_period_cycles, 32, 1e-12);
        CHECK_NEAR(o.device_span_us, 0.156, 1e-12);
        CHECK_NEAR(o.bw_GBps, 1.28, 1e-12);    /* 2 x 128 B in 200 ns */
    }

    /* the clock: SM 5 runs 2 cycles per ns over 40 us; SM 6 spans 1 us only */
    uint64_t base = 1000000000ull;
    warp_probe k[4] = {P(100, 1, 5, (uint32_t)base, 0), P(100 + 80000, 1, 5, (uint32_t)(base + 40000), 0),
                       P(0, 1, 6, (uint32_t)base, 0), P(500, 1, 6, (uint32_t)(base + 1000), 0)};
    CHECK_NEAR(probeset_clock_MHz(k, 4, base, 20000), 2000.0, 1e-9);
    CHECK_NEAR(probeset_clock_MHz(k + 2, 2, base, 20000), 0.0, 0);   /* too short: unknown */

    /* unwritten probes (0xff bytes) are counted */
    warp_probe u[3];
    memset(u, 0xff, sizeof u);
    u[1] = a[0];
    CHECK_EQ_U(probeset_unwritten(u, 3), 2);

    /* the median of timings */
    double t[4] = {3, 1, 4, 2};
    CHECK_NEAR(stats_median_inplace(t, 4), 2.5, 0);
    double t1[3] = {9, 1, 5};
    CHECK_NEAR(stats_median_inplace(t1, 3), 5, 0);
    CHECK(isnan(stats_median_inplace(t1, 0)));
    check_against_references();
    return check_report("test_probeset");
}
