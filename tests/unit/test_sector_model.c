/*
 * test_sector_model - the sector model against hand-computed cases: single
 * warps (strided, misaligned, partial, gathers), every row of both stride
 * tables of the original study, the gathers, the reuse assumptions, and a
 * brute-force recount of small kernels (which exercises both the per-warp
 * table and the lane-by-lane path of the walker).
 */
#include "check.h"
#include "sector_model.h"
#include "patterns.h"

#include <math.h>
#include <stdlib.h>

static sm_warp W(unsigned elem, uint64_t stride, uint64_t off, unsigned lanes, unsigned g)
{
    sm_warp w;
    int rc = sm_warp_strided(elem, stride, off, lanes, g, &w);
    CHECK_EQ_I(rc, 0);
    return w;
}

static void test_single_warps(void)
{
    /* 4 B, stride 1: 128 B = 4 sectors, 1 line, 2 granules of 64 B */
    sm_warp w = W(4, 1, 0, 32, 64);
    CHECK_EQ_U(w.l1_requests, 1);
    CHECK_EQ_U(w.sectors, 4);
    CHECK_EQ_U(w.lines, 1);
    CHECK_EQ_U(w.l2_sectors, 4);
    CHECK_EQ_U(w.dram_sectors, 4);
    CHECK_EQ_U(w.bytes_used, 128);
    CHECK_NEAR(w.sector_util, 1.0, 1e-12);
    /* stride 2: 8 sectors over 2 lines; stride 4: 16 over 4 */
    w = W(4, 2, 0, 32, 32);
    CHECK_EQ_U(w.sectors, 8);
    CHECK_EQ_U(w.lines, 2);
    CHECK_NEAR(w.sector_util, 0.5, 1e-12);
    w = W(4, 4, 0, 32, 32);
    CHECK_EQ_U(w.sectors, 16);
    CHECK_EQ_U(w.lines, 4);
    /* stride 8 (32 B): one sector per lane, 8 lines */
    w = W(4, 8, 0, 32, 32);
    CHECK_EQ_U(w.sectors, 32);
    CHECK_EQ_U(w.lines, 8);
    CHECK_EQ_U(w.dram_sectors, 32);
    CHECK_NEAR(w.sector_util, 0.125, 1e-12);
    /* stride 16 (64 B): still 32 sectors, 16 lines; a 64 B granule per lane */
    w = W(4, 16, 0, 32, 64);
    CHECK_EQ_U(w.sectors, 32);
    CHECK_EQ_U(w.lines, 16);
    CHECK_EQ_U(w.dram_sectors, 64);
    CHECK_NEAR(w.dram_util, 128.0 / 2048, 1e-12);
    /* stride 32 (128 B): 32 lines; 128 B granules: 4 sectors from DRAM per lane */
    w = W(4, 32, 0, 32, 128);
    CHECK_EQ_U(w.sectors, 32);
    CHECK_EQ_U(w.lines, 32);
    CHECK_EQ_U(w.dram_sectors, 128);
    /* 16 B elements: stride 1 = 512 B = 16 sectors, 4 lines, one request */
    w = W(16, 1, 0, 32, 32);
    CHECK_EQ_U(w.l1_requests, 1);
    CHECK_EQ_U(w.sectors, 16);
    CHECK_EQ_U(w.lines, 4);
    /* 16 B stride 2: a sector per lane, half used */
    w = W(16, 2, 0, 32, 64);
    CHECK_EQ_U(w.sectors, 32);
    CHECK_EQ_U(w.lines, 8);
    CHECK_EQ_U(w.dram_sectors, 32); /* 1024 B span: 16 granules of 64 B, 2 lanes each */
    CHECK_NEAR(w.sector_util, 0.5, 1e-12);
    /* 8 B elements, stride 1: 256 B = 8 sectors, 2 lines */
    w = W(8, 1, 0, 32, 32);
    CHECK_EQ_U(w.sectors, 8);
    CHECK_EQ_U(w.lines, 2);

    /* Misaligned by one float: bytes 4..131 -> 5 sectors, 2 lines,
     * 3 granules of 64 B (6 sectors from DRAM) */
    w = W(4, 1, 4, 32, 64);
    CHECK_EQ_U(w.sectors, 5);
    CHECK_EQ_U(w.lines, 2);
    CHECK_EQ_U(w.dram_sectors, 6);
    CHECK_NEAR(w.sector_util, 128.0 / 160, 1e-12);
    /* Offset by a whole sector: 4 sectors but 2 lines */
    w = W(4, 1, 32, 32, 32);
    CHECK_EQ_U(w.sectors, 4);
    CHECK_EQ_U(w.lines, 2);
    /* Misaligned float4 by 16 B: bytes 16..527 -> 17 sectors, 5 lines */
    w = W(16, 1, 16, 32, 32);
    CHECK_EQ_U(w.sectors, 17);
    CHECK_EQ_U(w.lines, 5);

    /* Active lanes: 8 lanes of floats fill one sector; none: no request */
    w = W(4, 1, 0, 8, 32);
    CHECK_EQ_U(w.sectors, 1);
    CHECK_EQ_U(w.l1_requests, 1);
    CHECK_EQ_U(w.bytes_used, 32);
    w = W(4, 1, 0, 0, 32);
    CHECK_EQ_U(w.l1_requests, 0);
    CHECK_EQ_U(w.sectors, 0);
    /* 9 lanes cross into a second sector */
    w = W(4, 1, 0, 9, 32);
    CHECK_EQ_U(w.sectors, 2);

    /* Bad arguments */
    sm_warp x;
    CHECK_EQ_I(sm_warp_strided(4, 1, 0, 33, 32, &x), -1);
    CHECK_EQ_I(sm_warp_strided(4, 1, 0, 32, 48, &x), -1);
    CHECK_EQ_I(sm_granule_ok(64), 1);
    CHECK_EQ_I(sm_granule_ok(256), 0);
}

static void test_gather_warps(void)
{
    uint64_t a[32];
    sm_warp w;
    /* broadcast: every lane the same float */
    for (int l = 0; l < 32; l++)
        a[l] = 1000;
    CHECK_EQ_I(sm_warp_from_addrs(a, 32, 4, 64, &w), 0);
    CHECK_EQ_U(w.sectors, 1);
    CHECK_EQ_U(w.lines, 1);
    CHECK_EQ_U(w.dram_sectors, 2);
    CHECK_EQ_U(w.bytes_used, 4);
    CHECK_NEAR(w.sector_util, 4.0 / 32, 1e-12);
    /* a permutation of one line: still 4 sectors, 1 line */
    for (int l = 0; l < 32; l++)
        a[l] = 4 * (uint64_t)((l * 7) % 32);
    CHECK_EQ_I(sm_warp_from_addrs(a, 32, 4, 32, &w), 0);
    CHECK_EQ_U(w.sectors, 4);
    CHECK_EQ_U(w.lines, 1);
    CHECK_EQ_U(w.bytes_used, 128);
    /* fully diverged, in reverse order: a sector and a line per lane */
    for (int l = 0; l < 32; l++)
        a[l] = 4096 * (uint64_t)(31 - l) + 8;
    CHECK_EQ_I(sm_warp_from_addrs(a, 32, 4, 128, &w), 0);
    CHECK_EQ_U(w.sectors, 32);
    CHECK_EQ_U(w.lines, 32);
    CHECK_EQ_U(w.dram_sectors, 128);
    /* hand case: 0, 4, 36, 64, 300, 300 -> sectors {0,1,2,9}, lines {0,2},
     * 64 B granules {0,1,4} */
    uint64_t b[6] = { 0, 4, 36, 64, 300, 300 };
    CHECK_EQ_I(sm_warp_from_addrs(b, 6, 4, 64, &w), 0);
    CHECK_EQ_U(w.sectors, 4);
    CHECK_EQ_U(w.lines, 2);
    CHECK_EQ_U(w.dram_sectors, 6);
    CHECK_EQ_U(w.bytes_used, 20);
}

static sm_prediction P(sm_kernel k, uint64_t n, uint64_t stride, unsigned g, unsigned tpb,
                       sm_reuse reuse)
{
    sm_config c;
    sm_config_default(&c);
    c.n_floats = n;
    c.stride = stride;
    c.granule_bytes = g;
    c.threads_per_block = tpb;
    c.reuse = reuse;
    sm_prediction p;
    char err[200] = "";
    int rc = sm_predict(k, &c, &p, err, sizeof err);
    CHECK_EQ_I(rc, 0);
    if (rc)
        fprintf(stderr, "sm_predict: %s\n", err);
    return p;
}

static void test_stride_tables(void)
{
    static const uint64_t strides[8] = { 1, 2, 4, 8, 16, 32, 64, 128 };
    /* The original study's tables, which are right for N = 1e7 floats
     * (40 MB / 32 B = 1.25 M sectors), not for the N = 1e8 its text says. */
    static const double orig4[8] = { 1.25e6, 2.5e6, 5e6, 10e6, 10e6, 10e6, 10e6, 10e6 };
    static const double orig16[8] = { 1.25e6, 2.5e6, 2.5e6, 2.5e6, 2.5e6, 2.5e6, 2.5e6, 2.5e6 };
    for (int i = 0; i < 8; i++) {
        sm_prediction p = P(SM_STRIDED, 10000000, strides[i], 64, 0, SM_REUSE_LRU);
        CHECK_NEAR(p.l1_sectors, orig4[i], 0);
        CHECK_NEAR(p.l1_requests, 312500, 0);
        p = P(SM_STRIDED_FLOAT4, 10000000, strides[i], 64, 0, SM_REUSE_LRU);
        CHECK_NEAR(p.l1_sectors, orig16[i], 0);
        CHECK_NEAR(p.l1_requests, 78125, 0);
    }
    /* N = 1e8, as readonly_profile runs them (128 threads per block):
     * 4 B: 12.5 M x (1, 2, 4, 8, 8, 8, 8, 8); 16 B: 12.5 M then 25 M, plus
     * the 2 warps of the last block that are past N/4 = 25e6 (195312.5
     * blocks -> 64 clamped threads: 2 requests of 1 sector each). */
    static const double n4[8] = { 12.5e6, 25e6, 50e6, 100e6, 100e6, 100e6, 100e6, 100e6 };
    static const double n16[8] = { 12.5e6, 25e6, 25e6, 25e6, 25e6, 25e6, 25e6, 25e6 };
    for (int i = 0; i < 8; i++) {
        sm_prediction p = P(SM_STRIDED, 100000000, strides[i], 64, 128, SM_REUSE_LRU);
        CHECK_NEAR(p.l1_sectors, n4[i], 0);
        CHECK_NEAR(p.l2_sectors, n4[i], 0);
        CHECK_NEAR(p.l1_requests, 3125000, 0);
        CHECK_NEAR(p.sectors_per_request, n4[i] / 3125000, 1e-12);
        CHECK_EQ_I(p.exact, 1);
        p = P(SM_STRIDED_FLOAT4, 100000000, strides[i], 64, 128, SM_REUSE_LRU);
        CHECK_NEAR(p.l1_sectors, n16[i] + 2, 0);
        CHECK_NEAR(p.l1_requests, 781250 + 2, 0);
    }
}

static void test_dram(void)
{
    const uint64_t N = 100000000;
    /* Coalesced: every byte once, any granule */
    CHECK_NEAR(P(SM_BASELINE, N, 1, 32, 128, SM_REUSE_LRU).dram_sectors, 12.5e6, 0);
    CHECK_NEAR(P(SM_BASELINE, N, 1, 128, 128, SM_REUSE_LRU).dram_sectors, 12.5e6, 0);
    /* 4 B stride 2: two sweeps over the whole 400 MB, L2 50 MiB: the second
     * sweep re-fetches everything under LRU; ALL fetches it once. */
    CHECK_NEAR(P(SM_STRIDED, N, 2, 64, 128, SM_REUSE_LRU).dram_sectors, 25e6, 0);
    CHECK_NEAR(P(SM_STRIDED, N, 2, 64, 128, SM_REUSE_ALL).dram_sectors, 12.5e6, 0);
    /* 4 B stride 16, 64 B granules: 16 sweeps of 6.25 M granules (400 MB
     * each) -> 100 M granules = 200 M sectors; with 32 B granules 100 M. */
    CHECK_NEAR(P(SM_STRIDED, N, 16, 64, 128, SM_REUSE_LRU).dram_sectors, 200e6, 0);
    CHECK_NEAR(P(SM_STRIDED, N, 16, 32, 128, SM_REUSE_LRU).dram_sectors, 100e6, 0);
    /* 4 B stride 128: each of the 128 sweeps touches 781250 granules in
     * 781250 distinct 128 B lines: the L2 footprint is 100 MB of lines
     * (whatever the granule) > 25 MiB: every sweep re-fetched, 128 x
     * 781250 x 2 at 64 B (the H100 measured 200,010,416), x 4 at 128 B;
     * with ALL each granule once. */
    CHECK_NEAR(P(SM_STRIDED, N, 128, 64, 128, SM_REUSE_LRU).dram_sectors, 200e6, 0);
    CHECK_NEAR(P(SM_STRIDED, N, 128, 64, 128, SM_REUSE_ALL).dram_sectors, 1562500, 0);
    CHECK_NEAR(P(SM_STRIDED, N, 128, 128, 128, SM_REUSE_LRU).dram_sectors, 400e6, 0);
    /* NONE: every request its own granules: 3.125 M warps x 32 x 2 */
    CHECK_NEAR(P(SM_STRIDED, N, 128, 64, 128, SM_REUSE_NONE).dram_sectors, 200e6, 0);
    /* float4 stride 128: n = 25 M, gcd(128, 25 M) = 64: two interleaved
     * sweeps of 195312.5 elements 2 KiB apart, 390625 granules (and lines)
     * in all: an element comes back after 390625 lines (50 MB) > 25 MiB,
     * so LRU re-fetches every sweep (50 M); ALL fetches each once. */
    CHECK_NEAR(P(SM_STRIDED_FLOAT4, N, 128, 64, 128, SM_REUSE_LRU).dram_sectors, 50e6, 0);
    CHECK_NEAR(P(SM_STRIDED_FLOAT4, N, 128, 64, 128, SM_REUSE_ALL).dram_sectors, 781250, 0);
    /* the DRAM utilisation: distinct bytes / DRAM bytes */
    sm_prediction p = P(SM_STRIDED, N, 2, 64, 128, SM_REUSE_LRU);
    CHECK_NEAR(p.unique_bytes, 200e6, 0);
    CHECK_NEAR(p.dram_util, 200e6 / 800e6, 1e-12);
}

/* Brute-force recount of a gather over n elements, warp by warp, from
 * ro_perm itself and sm_warp_from_addrs (independent of the library's
 * sorted-run counting): c's sectors plus a's. */
static void brute_gather(uint64_t n, unsigned tpb, int random, uint64_t seed)
{
    uint64_t threads = tpb ? (n + tpb - 1) / tpb * tpb : n;
    uint32_t half = ro_perm_half_bits(n);
    double req = 0, sec = 0, none = 0;
    for (uint64_t base = 0; base < threads; base += 32) {
        uint64_t ca[32], aa[32];
        unsigned lanes = 0;
        for (uint64_t i = base; i < base + 32 && i < threads; i++) {
            uint64_t k = i < n ? i : n - 1;
            ca[lanes] = 4 * k;
            aa[lanes++] = 4 * (random ? ro_perm(k, n, half, seed) : k);
        }
        sm_warp wc, wa;
        CHECK_EQ_I(sm_warp_from_addrs(ca, lanes, 4, 64, &wc), 0);
        CHECK_EQ_I(sm_warp_from_addrs(aa, lanes, 4, 64, &wa), 0);
        req += wc.l1_requests + wa.l1_requests;
        sec += wc.sectors + wa.sectors;
        none += wc.dram_sectors + wa.dram_sectors;
    }
    sm_config c;
    sm_config_default(&c);
    c.n_floats = n;
    c.threads_per_block = tpb;
    c.seed = seed;
    c.reuse = SM_REUSE_NONE;
    sm_prediction p;
    CHECK_EQ_I(sm_predict(random ? SM_RANDOM_ACCESS : SM_NONDIVERGING, &c, &p, NULL, 0), 0);
    CHECK_EQ_I(p.exact, 1);
    CHECK_NEAR(p.l1_requests, req, 0);
    CHECK_NEAR(p.l1_sectors, sec, 0);
    CHECK_NEAR(p.dram_sectors, none, 0);
}

static void test_gathers(void)
{
    /* ro_perm is a bijection of [0, n): every value once (n = 1000: a
     * Feistel domain of 1024, cycle walking for 1000..1023) */
    {
        const uint64_t n = 1000;
        char seen[1000] = { 0 };
        for (uint64_t i = 0; i < n; i++) {
            uint64_t j = ro_perm(i, n, ro_perm_half_bits(n), SM_SEED_DEFAULT);
            CHECK(j < n);
            if (j < n)
                seen[j]++;
        }
        int all_once = 1;
        for (uint64_t i = 0; i < n; i++)
            all_once &= seen[i] == 1;
        CHECK(all_once);
    }
    /* Hand-checkable: n = 64, nondiverging, 2 warps: c and a each one
     * request of 4 sectors (128 B) per warp: 4 requests, 16 sectors; DRAM
     * 64 B granules: 256 B of c + 256 B of a = 16 sectors, nothing re-read */
    sm_config c;
    sm_config_default(&c);
    c.n_floats = 64;
    c.threads_per_block = 0;
    sm_prediction p;
    CHECK_EQ_I(sm_predict(SM_NONDIVERGING, &c, &p, NULL, 0), 0);
    CHECK_NEAR(p.l1_requests, 4, 0);
    CHECK_NEAR(p.l1_sectors, 16, 0);
    CHECK_NEAR(p.dram_sectors, 16, 0);
    /* n = 64, random: the permutation's 64 values spread over the 8 sectors
     * of a; the exact count is what a brute-force recount gives, and it can
     * be neither less than 8 (c) + 8 (a covers all 8 sectors over both
     * warps) nor more than 8 + 2 x 8 */
    c.seed = SM_SEED_DEFAULT;
    CHECK_EQ_I(sm_predict(SM_RANDOM_ACCESS, &c, &p, NULL, 0), 0);
    CHECK(p.l1_sectors >= 16 && p.l1_sectors <= 24);
    /* with a whole-array L2 (ALL) DRAM is c + a once: 16 + 16 sectors of
     * 32 B over 64 B granules: 512 B / 32 = 16 */
    c.reuse = SM_REUSE_ALL;
    CHECK_EQ_I(sm_predict(SM_RANDOM_ACCESS, &c, &p, NULL, 0), 0);
    CHECK_NEAR(p.dram_sectors, 16, 0);
    /* brute-force recounts: partial warps, clamped tails, other seeds */
    brute_gather(64, 0, 1, SM_SEED_DEFAULT);
    brute_gather(1000, 128, 1, SM_SEED_DEFAULT);
    brute_gather(1000, 128, 1, 7);
    brute_gather(4099, 96, 1, SM_SEED_DEFAULT);
    brute_gather(4099, 96, 0, SM_SEED_DEFAULT);
    /* The seed matters: another permutation, other sectors */
    sm_config_default(&c);
    c.n_floats = 100000;
    sm_prediction p1, p2;
    CHECK_EQ_I(sm_predict(SM_RANDOM_ACCESS, &c, &p1, NULL, 0), 0);
    c.seed = 1;
    CHECK_EQ_I(sm_predict(SM_RANDOM_ACCESS, &c, &p2, NULL, 0), 0);
    CHECK(p1.l1_sectors != p2.l1_sectors);
    /* The real H100 captures, seed 12345: N = 1e7 measured 11,249,874 L1
     * sectors (tests/fixtures/ncu/measured_h100_1e7.tsv): exactly */
    sm_config_default(&c);
    c.n_floats = 10000000;
    CHECK_EQ_I(sm_predict(SM_RANDOM_ACCESS, &c, &p, NULL, 0), 0);
    CHECK_NEAR(p.l1_requests, 625000, 0);
    CHECK_NEAR(p.l1_sectors, 11249874, 0);
    CHECK_EQ_I(sm_predict(SM_NONDIVERGING, &c, &p, NULL, 0), 0);
    CHECK_NEAR(p.l1_sectors, 2500000, 0);
}

/* The DRAM model against rows of the real N = 1e8 H100 capture
 * (tests/fixtures/ncu/h100_sectors_1e8.tsv, G = 64, WPB 4) with the
 * default effective L2 of 25 MiB: within 5 % where docs/sectors.md says it
 * should be, and the known miss (float4 stride 64) where it says it is not. */
static double dram_pred(sm_kernel k, uint64_t stride)
{
    sm_config c;
    sm_config_default(&c);
    c.stride = stride;
    sm_prediction p;
    CHECK_EQ_I(sm_predict(k, &c, &p, NULL, 0), 0);
    return p.dram_sectors;
}

static void test_dram_h100(void)
{
    /* 4 B stride 128: a sweep is 781,250 lines (100 MB) > 25 MiB: every
     * sweep re-fetched: 128 x 781,250 x 2 = 200 M; measured 200,010,416 */
    double d = dram_pred(SM_STRIDED, 128);
    CHECK_NEAR(d, 200e6, 0);
    CHECK(fabs(200010416 / d - 1) < 0.05);
    /* float4 stride 32: 781,250 lines a sweep: 50 M; measured 50,002,936 */
    d = dram_pred(SM_STRIDED_FLOAT4, 32);
    CHECK_NEAR(d, 50e6, 0);
    CHECK(fabs(50002936 / d - 1) < 0.05);
    /* 4 B stride 2: two sweeps of 400 MB: 25 M; measured 25,001,720 */
    d = dram_pred(SM_STRIDED, 2);
    CHECK_NEAR(d, 25e6, 0);
    /* float4 stride 64: 390,625 lines (50 MB) a sweep: the model re-fetches
     * every sweep (50 M), the H100 kept a third: 34,101,184.  Flagged in
     * docs/sectors.md; this pins the model's value so a change shows. */
    d = dram_pred(SM_STRIDED_FLOAT4, 64);
    CHECK_NEAR(d, 50e6, 0);
    CHECK(34101184 / d - 1 < -0.30);
}

/* Recount a small strided kernel by brute force and compare. */
static void brute(uint64_t n, uint64_t stride, unsigned elem, uint64_t off, unsigned g,
                  unsigned tpb)
{
    uint64_t threads = tpb ? (n + tpb - 1) / tpb * tpb : n;
    double req = 0, sec = 0, lines = 0, none = 0;
    uint64_t ngr = (off + n * elem) / g + 2;
    char *seen = calloc(ngr, 1);
    double distinct = 0;
    uint64_t elast = (stride % n) * ((n - 1) % n) % n;
    for (uint64_t base = 0; base < threads; base += 32) {
        uint64_t addr[32];
        unsigned lanes = 0;
        for (uint64_t i = base; i < base + 32 && i < threads; i++) {
            uint64_t e = i < n ? (stride % n) * i % n : elast;
            addr[lanes++] = off + e * elem;
        }
        sm_warp w;
        CHECK_EQ_I(sm_warp_from_addrs(addr, lanes, elem, g, &w), 0);
        req += w.l1_requests;
        sec += w.sectors;
        lines += w.lines;
        none += w.dram_sectors;
        for (unsigned l = 0; l < lanes; l++)
            for (uint64_t x = addr[l] / g; x <= (addr[l] + elem - 1) / g; x++)
                if (!seen[x]) {
                    seen[x] = 1;
                    distinct++;
                }
    }
    free(seen);
    sm_config c;
    sm_config_default(&c);
    c.stride = stride;
    c.offset_bytes = off;
    c.granule_bytes = g;
    c.threads_per_block = tpb;
    c.n_floats = n * elem / 4;
    sm_prediction p;
    c.reuse = SM_REUSE_NONE;
    CHECK_EQ_I(sm_predict_strided(n, elem, &c, &p, NULL, 0), 0);
    CHECK_NEAR(p.l1_requests, req, 0);
    CHECK_NEAR(p.l1_sectors, sec, 0);
    CHECK_NEAR(p.lines, lines, 0);
    CHECK_NEAR(p.dram_sectors, none, 0);
    c.reuse = SM_REUSE_ALL;
    CHECK_EQ_I(sm_predict_strided(n, elem, &c, &p, NULL, 0), 0);
    CHECK_NEAR(p.dram_sectors, distinct * (g / 32), 0);
    CHECK_NEAR(p.l1_sectors, sec, 0);
    /* LRU with an L2 larger than the array is ALL */
    c.reuse = SM_REUSE_LRU;
    c.l2_bytes = 1ull << 40;
    CHECK_EQ_I(sm_predict_strided(n, elem, &c, &p, NULL, 0), 0);
    CHECK_NEAR(p.dram_sectors, distinct * (g / 32), 0);
}

static void test_brute_force(void)
{
    brute(1000, 7, 4, 0, 32, 0);
    brute(1000, 7, 4, 12, 64, 128);
    brute(4096, 33, 16, 16, 128, 96);
    brute(3000, 1, 8, 8, 64, 128);
    brute(777, 128, 4, 4, 32, 64);
    brute(100, 250, 4, 0, 64, 32); /* stride > n */
    brute(64, 64, 4, 0, 32, 0);    /* stride = n: every thread the same element */
}

static void test_names_and_errors(void)
{
    sm_kernel k;
    CHECK_EQ_I(sm_kernel_from_name("strided_float4", &k), 0);
    CHECK_EQ_I(k, SM_STRIDED_FLOAT4);
    CHECK_EQ_I(sm_kernel_from_name("nope", &k), -1);
    CHECK_EQ_U(sm_kernel_elem_bytes(SM_FLOAT4), 16);
    CHECK_EQ_U(sm_kernel_elem_bytes(SM_RANDOM_ACCESS), 4);
    sm_reuse r;
    CHECK_EQ_I(sm_reuse_from_name("none", &r), 0);
    CHECK_EQ_I(r, SM_REUSE_NONE);
    sm_config c;
    sm_config_default(&c);
    c.granule_bytes = 16;
    sm_prediction p;
    char err[200] = "";
    CHECK_EQ_I(sm_predict(SM_BASELINE, &c, &p, err, sizeof err), -1);
    CHECK_STR_HAS(err, "granularity");
    sm_config_default(&c);
    c.stride = 0;
    CHECK_EQ_I(sm_predict(SM_STRIDED, &c, &p, err, sizeof err), -1);
    CHECK_STR_HAS(err, "stride");
}

int main(void)
{
    test_single_warps();
    test_gather_warps();
    test_stride_tables();
    test_dram();
    test_gathers();
    test_dram_h100();
    test_brute_force();
    test_names_and_errors();
    return check_report("test_sector_model");
}
