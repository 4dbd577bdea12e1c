/*
 * test_readonly_model - the readonly family's generators (its model.c, run by
 * the families' simulator) against the legacy readonly model (sector_model.h,
 * sm_predict), which counts the same kernels by its own walk: for every
 * variant over a grid of N (whole blocks and ragged tails), warps per block
 * and strides, the L1 requests, sectors and 128 B lines must be equal, and so
 * must the DRAM sectors wherever the legacy model's count is exact (the
 * footprint fits the L2, or the walk is one sweep); its L2 sectors are the L1
 * sectors (it assumes L1 never hits), so the new L2 sectors plus L1 hits
 * must give them, and the new model's hits must come only from the tail (the
 * clamped threads load the last item again) and the random gather.  The
 * wavefronts are recounted warp by warp with the legacy one-warp function.
 * Then the variant list against the kernels' (variants.h) and the checks.
 */
#include "check.h"
#include "patterns.h"
#include "sector_families.h"
#include "sector_family.h"
#include "sector_model.h"

#include <stdlib.h>
#include <string.h>

static const char *const NAMES[SM_KERNEL_COUNT] = {
    "baseline", "float4", "nondiverging", "random_access", "strided", "strided_float4",
};

/* The wavefronts of kernel k by the legacy one-warp function: per launched
 * warp, the addresses the kernel's rule gives (clamped), ceil(lines / 4);
 * the gathers' c[i] load as one more request per warp. */
static double legacy_wavefronts(sm_kernel k, uint64_t n, uint64_t stride, unsigned wpb)
{
    const unsigned e = sm_kernel_elem_bytes(k);
    const uint64_t items = e == 16 ? n / 4 : n, tpb = 32ull * wpb;
    const uint64_t threads = (items + tpb - 1) / tpb * tpb;
    const uint32_t half = ro_perm_half_bits(n);
    double wf = 0;
    for (uint64_t t0 = 0; t0 < threads; t0 += 32) {
        uint64_t addr[32], caddr[32];
        for (unsigned l = 0; l < 32; l++) {
            const uint64_t i = t0 + l < items ? t0 + l : items - 1;
            uint64_t x = i;
            if (k == SM_STRIDED || k == SM_STRIDED_FLOAT4)
                x = (stride % items) * i % items;
            else if (k == SM_RANDOM_ACCESS)
                x = ro_perm(i, n, half, SM_SEED_DEFAULT);
            addr[l] = e * x;
            caddr[l] = 4 * i;
        }
        sm_warp w;
        if (sm_warp_from_addrs(addr, 32, e, 64, &w))
            return -1;
        wf += (w.lines + 3) / 4;
        if (k == SM_NONDIVERGING || k == SM_RANDOM_ACCESS) {
            if (sm_warp_from_addrs(caddr, 32, 4, 64, &w))
                return -1;
            wf += (w.lines + 3) / 4;
        }
    }
    return wf;
}

static int cases, dram_compared;

/* One case: kernel k at N, stride, WPB, granule g and an L2 of l2 bytes. */
static void compare(sm_kernel k, uint64_t n, uint64_t stride, unsigned wpb, unsigned g,
                    uint64_t l2, int dram_always)
{
    char err[256] = "";
    sm_config c;
    sm_config_default(&c);
    c.n_floats = n;
    c.stride = stride;
    c.granule_bytes = g;
    c.l2_bytes = l2;
    c.threads_per_block = 32 * wpb;
    sm_prediction old;
    const int rc_old = sm_predict(k, &c, &old, err, sizeof err);
    CHECK_EQ_I(rc_old, 0);

    const sf_variant *v = sf_find("readonly", NAMES[k]);
    CHECK(v != NULL);
    if (!v || rc_old)
        return;
    sf_params p;
    sf_params_default(&p);
    p.n = n;
    p.wpb = wpb;
    p.cfg = stride;
    p.granule_bytes = g;
    p.l2_bytes = l2;
    p.seed = SM_SEED_DEFAULT;
    sf_prediction pr;
    const int rc = sf_predict(v, &p, &pr, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s N %llu: %s\n", v->name, (unsigned long long)n, err);
    CHECK_EQ_I(rc, 0);
    if (rc)
        return;
    cases++;
    const sf_counts *ld = &pr.op[SF_LD];
    const int before = check_failed;
    CHECK(!pr.has_store);
    CHECK_EQ_U(pr.warps * 32, old.threads);
    CHECK_EQ_U(ld->requests, old.l1_requests);
    CHECK_EQ_U(ld->sectors, old.l1_sectors);
    CHECK_EQ_U(ld->lines, old.lines);
    CHECK_EQ_U(ld->bytes, old.bytes_used);
    CHECK_EQ_U(ld->l2_sectors + ld->hits, old.l2_sectors);
    CHECK_EQ_U(ld->wavefronts, legacy_wavefronts(k, n, stride, wpb));
    /* hits: none where every launched thread has its own item, unless the
     * gather is random (two warps of a block may share a sector) */
    const uint64_t items = sm_kernel_elem_bytes(k) == 16 ? n / 4 : n;
    const int wraps = (k == SM_STRIDED || k == SM_STRIDED_FLOAT4) && stride * 64 * wpb > items;
    if (k != SM_RANDOM_ACCESS && items % (32ull * wpb) == 0 && !wraps)
        CHECK_EQ_U(ld->hits_max, 0);
    /* DRAM: the legacy count is exact when nothing fetched is evicted before
     * it is read again: the arrays fit in the L2 (a and c, in lines) */
    const uint64_t lines = (4 * n + 127) / 128 * (k == SM_NONDIVERGING || k == SM_RANDOM_ACCESS ? 2 : 1);
    if (lines <= l2 / 128 || dram_always) {
        dram_compared++;
        CHECK_EQ_U(pr.dram_read_sectors, old.dram_sectors);
    }
    if (check_failed != before)
        fprintf(stderr, "  in: %s N %llu stride %llu WPB %u granule %u L2 %llu\n", v->name,
                (unsigned long long)n, (unsigned long long)stride, wpb, g, (unsigned long long)l2);
}

static void test_against_legacy(void)
{
    static const uint64_t ns[] = { 4096, 65536, 100003, 1 << 20 };
    static const uint64_t strides[] = { 1, 2, 3, 4, 8, 16, 32, 64, 128, 1000, 65536 };
    static const unsigned wpbs[] = { 1, 4, 7, 32 };
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t w = 0; w < sizeof wpbs / sizeof wpbs[0]; w++)
            for (int k = 0; k < SM_KERNEL_COUNT; k++) {
                const int strided = k == SM_STRIDED || k == SM_STRIDED_FLOAT4;
                const size_t ns_ = strided ? sizeof strides / sizeof strides[0] : 1;
                if (ns[a] > 100003 && wpbs[w] != 4)
                    continue;   /* the large N once: the walks are the test's time */
                for (size_t s = 0; s < ns_; s++)
                    if (strides[s] <= ns[a])
                        compare((sm_kernel)k, ns[a], strided ? strides[s] : 1, wpbs[w], 64,
                                SM_L2_EFFECTIVE_BYTES_H100, 0);
            }
    /* every granule */
    for (unsigned g = 32; g <= 128; g *= 2)
        for (int k = 0; k < SM_KERNEL_COUNT; k++)
            compare((sm_kernel)k, 1 << 18, 4, 4, g, SM_L2_EFFECTIVE_BYTES_H100, 0);
    /* arrays larger than the L2, as 4e7 B against 25 MiB (the H100 runs at
     * N = 1e7): the strided walks wrap and fetch again what the L2 dropped;
     * there the legacy count (the sum of the sweeps' footprints since the
     * last touch) is exact too, and the two must agree */
    const uint64_t n = 1000000, l2 = SM_L2_EFFECTIVE_BYTES_H100 / 10;
    for (int k = 0; k < SM_KERNEL_COUNT; k++) {
        if (k == SM_RANDOM_ACCESS)
            continue;
        const int strided = k == SM_STRIDED || k == SM_STRIDED_FLOAT4;
        for (size_t s = 0; s < (strided ? 9u : 1u); s++)
            compare((sm_kernel)k, n, strided ? strides[s] : 1, 4, 64, l2, 1);
    }
    CHECK(cases > 300);
    CHECK(dram_compared == cases);
}

/* Hand counts of the tail: float4 at N = 1e8 (the bundled H100 run): 2.5e7
 * items in blocks of 128, the last block 64 items, so 2 whole warps load the
 * last float4 again: 2 requests, 2 sectors, both L1 hits (what the H100
 * measured: 781252 requests, 25000002 L1 sectors, 25000000 L2 sectors). */
static void test_tail(void)
{
    sf_params p;
    sf_params_default(&p);
    p.n = 100000;     /* 25000 items: 195 blocks of 128 and 40 items (2 warps: 8 + 32 clamped) */
    const sf_variant *v = sf_find("readonly", "float4");
    sf_prediction pr;
    CHECK_EQ_I(sf_predict(v, &p, &pr, NULL, 0), 0);
    CHECK_EQ_U(pr.blocks, 196);
    CHECK_EQ_U(pr.op[SF_LD].requests, 196 * 4);
    /* 781.25 warps of items: 781 full (4 sectors... 16 B lanes: 16 sectors each), the
     * 782nd has 8 items (4 sectors) and 24 clamped lanes (the same sector), 2 more warps
     * load the last sector once each */
    CHECK_EQ_U(pr.op[SF_LD].sectors, 781 * 16 + 4 + 2);
    CHECK_EQ_U(pr.op[SF_LD].hits, 2);
    CHECK_EQ_U(pr.op[SF_LD].l2_sectors, 781 * 16 + 4);
}

/* The list is the kernels' (variants.h, the order of ./readonly
 * --list-kernels), each with the configuration it takes. */
static void test_variants(void)
{
    const struct fam_model *m = sf_model("readonly");
    CHECK(m != NULL);
    if (!m)
        return;
    CHECK_EQ_U(m->nvariants, SM_KERNEL_COUNT);
    for (size_t i = 0; i < m->nvariants && i < SM_KERNEL_COUNT; i++) {
        CHECK(!strcmp(m->variants[i].name, NAMES[i]));
        CHECK_EQ_I(m->variants[i].cfg, strstr(NAMES[i], "strided") ? SF_CFG_STRIDE : SF_CFG_NONE);
    }
    sf_params p;
    sf_params_default(&p);
    char err[256] = "";
    p.n = 3;
    CHECK_EQ_I(sf_check(sf_find("readonly", "float4"), &p, err, sizeof err), -1);
    CHECK_STR_HAS(err, "no thread has work");
    p.n = 1000;
    p.cfg = 1001;
    CHECK_EQ_I(sf_check(sf_find("readonly", "strided"), &p, err, sizeof err), -1);
    CHECK_STR_HAS(err, "stride 1001 is not 1..N");
    p.cfg = 0;
    CHECK_EQ_I(sf_check(sf_find("readonly", "baseline"), &p, err, sizeof err), 0);
}

int main(void)
{
    test_variants();
    test_tail();
    test_against_legacy();
    return check_report("test_readonly_model");
}
