/*
 * test_readonly_model - the readonly family's generators (its model.c, run by
 * the families' simulator) against an independent recount of the kernels'
 * addresses, written here from readonly.cu's rules: every launched thread t
 * loads item min(t, items - 1) (ro_clamp), the strided variants item
 * (S * i) % items, the gathers c[i] then a[c[i]].  For every variant over a
 * grid of N (whole blocks and ragged tails), warps per block and strides:
 * L1 requests, sectors, 128 B lines, wavefronts (ceil(lines / 4) per
 * request) and bytes asked must be equal; with arrays that fit the L2 the
 * DRAM sectors are the distinct granules, times granule / 32; L2 sectors
 * plus L1 hits are the L1 sectors (a sector either hits or goes to L2).
 * These cases are the ones on which the legacy readonly model (sector_model.c,
 * retired with issue 23) and the families' model were shown equal, DRAM of
 * arrays larger than the L2 included, before the legacy one went.
 * Then the original study's tables at N = 1e7, the tail by hand, the variant
 * list against the kernels' (variants.h), and the checks.
 */
#include "check.h"
#include "patterns.h"
#include "sector_families.h"
#include "sector_family.h"

#include <stdlib.h>
#include <string.h>

enum { BASELINE, FLOAT4, NONDIVERGING, RANDOM_ACCESS, STRIDED, STRIDED_FLOAT4, NKERNELS };
static const char *const NAMES[NKERNELS] = {
    "baseline", "float4", "nondiverging", "random_access", "strided", "strided_float4",
};

static int gather(int k) { return k == NONDIVERGING || k == RANDOM_ACCESS; }
static unsigned elem(int k) { return k == FLOAT4 || k == STRIDED_FLOAT4 ? 16 : 4; }

/* What one kernel moves, counted from its addresses. */
typedef struct recount {
    double requests, sectors, lines, wavefronts, bytes, dram;
} recount;

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* One request: lanes loading e bytes at off[0..31] (array base 'base' in
 * bytes); its counts, and its granules marked in seen (a bitmap per
 * granule of the two arrays). */
static void request(recount *rc, const uint64_t *off, unsigned e, uint64_t base, unsigned g,
                    unsigned char *seen)
{
    uint64_t v[32];
    memcpy(v, off, sizeof v);
    qsort(v, 32, sizeof v[0], cmp_u64);
    unsigned nu = 0, ns = 0, nl = 0;
    for (unsigned l = 0; l < 32; l++) {
        const uint64_t a = base + v[l];
        const int first = l == 0;
        nu += first || v[l] != v[l - 1];
        ns += first || a / 32 != (base + v[l - 1]) / 32;
        nl += first || a / 128 != (base + v[l - 1]) / 128;
        seen[a / g / 8] |= (unsigned char)(1u << (a / g % 8));
    }
    rc->requests += 1;
    rc->sectors += ns;
    rc->lines += nl;
    rc->wavefronts += (nl + 3) / 4;
    rc->bytes += (double)nu * e;
}

static recount count(int k, uint64_t n, uint64_t stride, unsigned wpb, unsigned g)
{
    recount rc;
    memset(&rc, 0, sizeof rc);
    const unsigned e = elem(k);
    const uint64_t items = e == 16 ? n / 4 : n, tpb = 32ull * wpb;
    const uint64_t threads = (items + tpb - 1) / tpb * tpb;
    const uint64_t abytes = 4 * n, cbase = (abytes + 127) / 128 * 128; /* c after a's lines */
    const uint32_t half = ro_perm_half_bits(n);
    unsigned char *seen = calloc((2 * cbase) / g / 8 + 2, 1);
    if (!seen)
        abort();
    for (uint64_t t0 = 0; t0 < threads; t0 += 32) {
        uint64_t a[32], c[32];
        for (unsigned l = 0; l < 32; l++) {
            const uint64_t i = t0 + l < items ? t0 + l : items - 1;
            uint64_t x = i;
            if (k == STRIDED || k == STRIDED_FLOAT4)
                x = (stride % items) * i % items;
            else if (k == RANDOM_ACCESS)
                x = ro_perm(i, n, half, SF_SEED_DEFAULT);
            a[l] = e * x;
            c[l] = 4 * i;
        }
        if (gather(k))
            request(&rc, c, 4, cbase, g, seen);
        request(&rc, a, e, 0, g, seen);
    }
    for (uint64_t i = 0; i < (2 * cbase) / g / 8 + 2; i++)
        rc.dram += __builtin_popcount(seen[i]) * (g / 32.0);
    free(seen);
    return rc;
}

static int cases;

static void compare(int k, uint64_t n, uint64_t stride, unsigned wpb, unsigned g)
{
    char err[256] = "";
    const sf_variant *v = sf_find("readonly", NAMES[k]);
    CHECK(v != NULL);
    if (!v)
        return;
    sf_params p;
    sf_params_default(&p);
    p.n = n;
    p.wpb = wpb;
    p.cfg = stride;
    p.granule_bytes = g;
    sf_prediction pr;
    const int rc = sf_predict(v, &p, &pr, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s N %llu: %s\n", v->name, (unsigned long long)n, err);
    CHECK_EQ_I(rc, 0);
    if (rc)
        return;
    cases++;
    const recount want = count(k, n, stride, wpb, g);
    const sf_counts *ld = &pr.op[SF_LD];
    const int before = check_failed;
    CHECK(!pr.has_store);
    CHECK_EQ_U(ld->requests, want.requests);
    CHECK_EQ_U(ld->sectors, want.sectors);
    CHECK_EQ_U(ld->lines, want.lines);
    CHECK_EQ_U(ld->wavefronts, want.wavefronts);
    CHECK_EQ_U(ld->bytes, want.bytes);
    CHECK_EQ_U(ld->l2_sectors + ld->hits, ld->sectors);
    /* every array here fits the 25 MiB L2: each granule is fetched once */
    CHECK_EQ_U(pr.dram_read_sectors, want.dram);
    /* hits: none where every launched thread has its own item and no block
     * wraps the strided index, unless the gather is random (two warps of a
     * block may share a sector) */
    const uint64_t items = elem(k) == 16 ? n / 4 : n;
    const int wraps = (k == STRIDED || k == STRIDED_FLOAT4) && stride * 64 * wpb > items;
    if (k != RANDOM_ACCESS && items % (32ull * wpb) == 0 && !wraps)
        CHECK_EQ_U(ld->hits_max, 0);
    if (check_failed != before)
        fprintf(stderr, "  in: %s N %llu stride %llu WPB %u granule %u\n", v->name,
                (unsigned long long)n, (unsigned long long)stride, wpb, g);
}

static void test_recount(void)
{
    static const uint64_t ns[] = { 4096, 65536, 100003, 1 << 20 };
    static const uint64_t strides[] = { 1, 2, 3, 4, 8, 16, 32, 64, 128, 1000, 65536 };
    static const unsigned wpbs[] = { 1, 4, 7, 32 };
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t w = 0; w < sizeof wpbs / sizeof wpbs[0]; w++)
            for (int k = 0; k < NKERNELS; k++) {
                const int strided = k == STRIDED || k == STRIDED_FLOAT4;
                if (ns[a] > 100003 && wpbs[w] != 4)
                    continue;   /* the large N once: the walks are the test's time */
                for (size_t s = 0; s < (strided ? sizeof strides / sizeof strides[0] : 1); s++)
                    if (strides[s] <= ns[a])
                        compare(k, ns[a], strided ? strides[s] : 1, wpbs[w], 64);
            }
    for (unsigned g = 32; g <= 128; g *= 2)
        for (int k = 0; k < NKERNELS; k++)
            compare(k, 1 << 18, 4, 4, g);
    CHECK(cases > 300);
}

/* The original study's tables (1.25 M, 2.5 M, 5 M, 10 M ... sectors for 4 B;
 * 1.25 M then 2.5 M for 16 B) are the L1 sectors at N = 1e7, not the 1e8 its
 * text says.  WPB 5: 2.5e6 float4 items fill whole blocks of 160 threads, as
 * the study's one thread per item did (no clamped tail). */
static void test_study_tables(void)
{
    static const uint64_t strides[8] = { 1, 2, 4, 8, 16, 32, 64, 128 };
    static const double orig4[8] = { 1.25e6, 2.5e6, 5e6, 10e6, 10e6, 10e6, 10e6, 10e6 };
    static const double orig16[8] = { 1.25e6, 2.5e6, 2.5e6, 2.5e6, 2.5e6, 2.5e6, 2.5e6, 2.5e6 };
    sf_params p;
    sf_params_default(&p);
    p.n = 10000000;
    p.wpb = 5;
    for (int i = 0; i < 8; i++) {
        sf_prediction pr;
        p.cfg = strides[i];
        CHECK_EQ_I(sf_predict(sf_find("readonly", "strided"), &p, &pr, NULL, 0), 0);
        CHECK_EQ_U(pr.op[SF_LD].sectors, orig4[i]);
        CHECK_EQ_I(sf_predict(sf_find("readonly", "strided_float4"), &p, &pr, NULL, 0), 0);
        CHECK_EQ_U(pr.op[SF_LD].sectors, orig16[i]);
    }
}

/* The tail by hand: float4 at N = 100000 is 25000 items in 196 blocks of 128
 * threads (the last has 40 items: its warp 0 is whole, warp 1 has 8 items
 * and 24 lanes that load the last float4 again, warps 2 and 3 load only
 * that one) */
static void test_tail(void)
{
    sf_params p;
    sf_params_default(&p);
    p.n = 100000;
    const sf_variant *v = sf_find("readonly", "float4");
    sf_prediction pr;
    CHECK_EQ_I(sf_predict(v, &p, &pr, NULL, 0), 0);
    CHECK_EQ_U(pr.blocks, 196);
    CHECK_EQ_U(pr.op[SF_LD].requests, 196 * 4);
    /* 781 whole warps of 16 sectors, the 8-item warp's 4 (its clamped lanes
     * fall in its last), and 2 warps of the last sector again, both L1 hits */
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
    CHECK_EQ_U(m->nvariants, NKERNELS);
    for (size_t i = 0; i < m->nvariants && i < NKERNELS; i++) {
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
    test_study_tables();
    test_recount();
    return check_report("test_readonly_model");
}
