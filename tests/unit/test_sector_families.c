/*
 * test_sector_families - the sector model of the copy, patterns and stencil
 * families against the background labs' figures (every entry of sf_labs:
 * where the lab and the H100 agree the lab's figure is asserted; where they
 * differ, the H100 model's figure is asserted with the reason), hand counts
 * of single warps and small launches, an independent brute-force recount,
 * the L1 ordering and cross-block brackets, the LRU L2 (DRAM reads, writes
 * of evicted dirty lines), and the parameter checks.
 */
#include "check.h"
#include "family.h"
#include "sector_families.h"
#include "sector_family.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static sf_prediction P(const char *f, const char *var, const sf_params *p)
{
    sf_prediction pr;
    char err[256] = "";
    const sf_variant *v = sf_find(f, var);
    CHECK(v != NULL);
    memset(&pr, 0, sizeof pr);
    if (!v)
        return pr;
    int rc = sf_predict(v, p, &pr, err, sizeof err);
    if (rc)
        fprintf(stderr, "sf_predict %s: %s\n", var, err);
    CHECK_EQ_I(rc, 0);
    return pr;
}

static sf_params base(void)
{
    sf_params p;
    sf_params_default(&p);
    return p;
}

/* Every lab figure: the model agrees where the entry gives no H100 reason. */
static void test_lab_oracles(void)
{
    int checked = 0;
    for (const fam_entry *f = fam_registry; f->name; f++)
    for (size_t i = 0; f->model && i < f->model->nlabs; i++) {
        const sf_lab *e = &f->model->labs[i];
        int matched = 0;
        for (size_t j = 0; j < f->model->nvariants; j++) {
            const sf_variant *v = &f->model->variants[j];
            sf_params p;
            sf_lab_params(e, v, NULL, &p);
            if (!sf_lab_matches(e, v, &p, e->op))
                continue;
            sf_prediction pr = P(sf_family_name(v), v->name, &p);
            double m = sf_quantity_value(&pr, e->op, e->q);
            if (!e->h100) {
                if (!sf_lab_agrees(e, m))
                    fprintf(stderr, "lab %s %s %s: lab %g, model %g\n", e->source, v->name,
                            sf_quantity_name(e->q), e->value, m);
                CHECK(sf_lab_agrees(e, m));
            }
            checked++;
            matched++;
        }
        if (!matched)
            fprintf(stderr, "lab entry %zu (%s %s) matches no variant\n", i, e->source, e->variant);
        CHECK(matched > 0);
    }
    CHECK(checked >= 80); /* the *_ prefixes match three paths each */
}

/* Where the H100 and the lab differ: the H100 model's figures, each with why. */
static void test_lab_differences(void)
{
    sf_params p = base();
    sf_prediction pr;

    /* 000, n0=32 n1=2 without lead pad: row 0 is bytes 4..131 (sectors 0-4, lines
     * 0-1), row 1 bytes 140..267 (sectors 4-8, lines 1-2).  Sector 4 hits; warp
     * 1's misses 5-7 (line 1) and 8 (line 2) are 2 L2 requests: 4 in all.  The
     * lab says 3, and 4 for n0=64 n1=1 whose sectors are the same. */
    p.n0 = 32, p.n1 = 2;
    pr = P("stencil", "deriv_copy", &p);
    CHECK_EQ_U(pr.op[SF_LD].sectors, 10);
    CHECK_EQ_U(pr.op[SF_LD].hits, 1);
    CHECK_EQ_U(pr.op[SF_LD].l2_requests, 4);
    CHECK_EQ_U(pr.op[SF_LD].l2_sectors, 9);
    p.n0 = 64, p.n1 = 1;
    sf_prediction q = P("stencil", "deriv_copy", &p);
    CHECK_EQ_U(q.op[SF_LD].l2_requests, 4);
    CHECK_EQ_U(q.op[SF_LD].hits, 1);

    /* 001 misaligned cached loads: the lecture's 50 % is 2 lines of 128 B for
     * 128 B; the H100's L1 is sectored: 5 sectors (80 %), or 4 (100 %) when
     * the offset is a multiple of 8 floats. */
    p = base();
    p.n = 1 << 16;
    p.cfg = 1;
    pr = P("patterns", "offset_ca", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_L1_UTIL_PCT), 80, 1e-9);
    p.cfg = 8;
    pr = P("patterns", "offset_cg", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_L1_UTIL_PCT), 100, 1e-9);
    CHECK_EQ_U(pr.op[SF_LD].l2_requests, 2 * pr.op[SF_LD].requests); /* 2 lines still */
    p.cfg = 32; /* aligned again: one line, 4 sectors */
    pr = P("patterns", "offset_ca", &p);
    CHECK_EQ_U(pr.op[SF_LD].sectors, 4 * pr.op[SF_LD].requests);

    /* one address for 32 lanes: one sector, 4 B of 32 (lecture: 4 of 128 cached) */
    pr = P("patterns", "broadcast_ca", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_L1_UTIL_PCT), 12.5, 1e-9);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_SECTORS_PER_REQ), 1, 1e-12);

    /* 32 random words: 32 sectors (a few share one at N = 2^20) */
    p.n = 1 << 20;
    pr = P("patterns", "random_cg", &p);
    double u = sf_quantity_value(&pr, SF_LD, SFQ_L1_UTIL_PCT);
    CHECK(u >= 12.5 && u < 12.6);
    CHECK_EQ_U(pr.op[SF_LD].hits, 0);  /* .cg never allocates in L1 */
    CHECK_NEAR(pr.hit_tol_frac, 0, 0);
    pr = P("patterns", "random_ca", &p);
    CHECK(pr.hit_tol_frac > 0);        /* cross-block reuse in an SM's L1 is statistical */

    /* 001 write scattered over 192 B: sectors 0, 2, 3 of one line and 5 of the
     * next: 4 sectors (as the lecture's 2x1 + 1x2 segments) in 2 write
     * requests (one per line), not 3 transactions */
    p.n = 1 << 16;
    pr = P("patterns", "write_scatter192", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_ST, SFQ_SECTORS_PER_REQ), 4, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_ST, SFQ_L2_REQ_PER_REQ), 2, 0);
    CHECK_EQ_U(pr.op[SF_LD].requests, 0);

    /* 002 scenario 3 (bytes 96-223): 4 sectors in 2 lines: 100 % on the H100 */
    pr = P("patterns", "straddle_ca", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_SECTORS_PER_REQ), 4, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_L2_REQ_PER_REQ), 2, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_WAVEFRONTS_PER_REQ), 1, 0);
    /* 002 scenario 5 (four 32 B pieces over 512 B): 4 sectors, 4 lines, 1 wavefront */
    pr = P("patterns", "spread_nc", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_L1_UTIL_PCT), 100, 1e-9);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_L2_REQ_PER_REQ), 4, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_WAVEFRONTS_PER_REQ), 1, 0);
    /* 64 B granules: 4 of them for the 4 pieces, 256 B for 128 B asked */
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_DRAM_UTIL_PCT), 50, 1e-9);
}

/* The strided copy, loads and stores, per request and per launch. */
static void test_copy_stride(void)
{
    static const struct { uint64_t s; unsigned sectors, lines, wf, dram64; } t[] = {
        { 1, 4, 1, 1, 4 }, { 2, 8, 2, 1, 8 }, { 3, 12, 3, 1, 12 }, { 4, 16, 4, 1, 16 },
        { 5, 20, 5, 2, 20 }, { 6, 24, 6, 2, 24 }, { 7, 28, 7, 2, 28 }, { 8, 32, 8, 2, 32 },
        { 16, 32, 16, 4, 64 }, { 32, 32, 32, 8, 64 }, { 64, 32, 32, 8, 64 }, { 128, 32, 32, 8, 64 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        sf_params p = base();
        p.cfg = t[i].s;
        p.n = 1000000; /* 4 MB: far below the L2, every granule fetched once */
        sf_prediction pr = P("copy", "stride", &p);
        const double req = (double)((p.n / t[i].s + 31) / 32);
        const double full = (double)(p.n / t[i].s / 32);
        CHECK_EQ_U(pr.items, p.n / t[i].s);
        CHECK_NEAR(pr.op[SF_LD].requests, req, 0);
        CHECK_NEAR(pr.op[SF_ST].requests, req, 0);
        /* the full warps; the last partial one is checked through the total below */
        if (req == full) {
            CHECK_NEAR(pr.op[SF_LD].sectors, full * t[i].sectors, 0);
            CHECK_NEAR(pr.op[SF_LD].wavefronts, full * t[i].wf, 0);
            CHECK_NEAR(pr.op[SF_LD].l2_requests, full * t[i].lines, 0);
            CHECK_NEAR(pr.dram_read_sectors, full * t[i].dram64, 0);
        } else {
            CHECK(pr.op[SF_LD].sectors > full * t[i].sectors);
            CHECK(pr.op[SF_LD].sectors < req * t[i].sectors);
        }
        CHECK_NEAR(pr.op[SF_LD].hits, 0, 0);
        CHECK_NEAR(pr.op[SF_LD].l2_sectors, pr.op[SF_LD].sectors, 0);
        /* the stores are coalesced whatever the stride */
        CHECK_NEAR(pr.op[SF_ST].sectors, ceil(pr.items / 8.0), 0);
        CHECK_NEAR(pr.op[SF_ST].l2_requests, req, 0);
        /* out is 4 MB, L2 25 MiB: nothing dirty leaves during the kernel */
        CHECK_NEAR(pr.dram_write_sectors, 0, 0);
    }
    /* the figures at N = 1e7 (the script's size), stride 4 */
    sf_params p = base();
    p.cfg = 4;
    sf_prediction pr = P("copy", "stride", &p);
    CHECK_EQ_U(pr.op[SF_LD].requests, 78125);
    CHECK_EQ_U(pr.op[SF_LD].sectors, 1250000);
    CHECK_EQ_U(pr.op[SF_LD].wavefronts, 78125);
    CHECK_EQ_U(pr.op[SF_LD].l2_requests, 312500);
    CHECK_EQ_U(pr.dram_read_sectors, 1250000);
    CHECK_EQ_U(pr.op[SF_ST].sectors, 312500);
    CHECK_EQ_U(pr.blocks, 19532); /* 2,500,000 threads in blocks of 128 */

    /* stride_store: the loads are coalesced, the stores strided */
    p.cfg = 8;
    pr = P("copy", "stride_store", &p);
    CHECK_EQ_U(pr.op[SF_LD].sectors, 156250);
    CHECK_EQ_U(pr.op[SF_ST].sectors, 1250000);
    CHECK_EQ_U(pr.op[SF_ST].wavefronts, 2 * 39063 - 1); /* the last warp: 2 lanes, 1 line */
    CHECK_EQ_U(pr.op[SF_ST].l2_requests, 312500);
    CHECK_EQ_U(pr.op[SF_ST].hits, 0);

    /* 16 B elements: stride 1 is 512 B = 16 sectors in 4 lines and 1 wavefront;
     * stride 2 one sector per lane (16 of 32 B used) in 8 lines */
    p = base();
    p.n = 1 << 16;
    p.cfg = 1;
    pr = P("copy", "stride16", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_SECTORS_PER_REQ), 16, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_WAVEFRONTS_PER_REQ), 1, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_L2_REQ_PER_REQ), 4, 0);
    p.cfg = 2;
    pr = P("copy", "stride16", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_SECTORS_PER_REQ), 32, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_WAVEFRONTS_PER_REQ), 2, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_L1_UTIL_PCT), 50, 1e-9);
    CHECK_NEAR(sf_quantity_value(&pr, SF_ST, SFQ_SECTORS_PER_REQ), 16, 0);
}

/* Batches: instruction k > 0 of a warp rereads the sectors of instruction 0. */
static void test_copy_batch(void)
{
    const char *names[3] = { "batch", "batch_unrolled", "batch_restrict" };
    for (int n = 0; n < 3; n++)
        for (uint64_t B = 1; B <= 8; B *= 2) {
            sf_params p = base();
            p.n = 1 << 16;
            p.cfg = B;
            sf_prediction pr = P("copy", names[n], &p);
            const double warps = (double)(p.n / B / 32), sec = 4.0 * B; /* per request */
            CHECK_NEAR(pr.op[SF_LD].requests, warps * B, 0);
            CHECK_NEAR(pr.op[SF_LD].sectors, warps * B * sec, 0);
            CHECK_NEAR(pr.op[SF_LD].wavefronts, warps * B * ceil(B / 4.0), 0);
            /* the first load of a warp misses, the B - 1 others hit */
            CHECK_NEAR(pr.op[SF_LD].hits, warps * (B - 1) * sec, 0);
            CHECK_NEAR(pr.op[SF_LD].l2_requests, warps * B, 0); /* B lines */
            CHECK_NEAR(pr.op[SF_LD].l2_sectors, warps * sec, 0);
            /* stores allocate: the same counts at L1; all go to L2 (write-through) */
            CHECK_NEAR(pr.op[SF_ST].hits, warps * (B - 1) * sec, 0);
            CHECK_NEAR(pr.op[SF_ST].l2_requests, warps * B * B, 0);
            CHECK_NEAR(pr.op[SF_ST].l2_sectors, warps * B * sec, 0);
            CHECK_NEAR(pr.dram_read_sectors, p.n / 8.0, 0);
        }
    /* int4 with B = 8: two 16 B elements per thread, 32 B apart */
    sf_params p = base();
    p.n = 1 << 16;
    p.cfg = 8;
    sf_prediction pr = P("copy", "int4", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_SECTORS_PER_REQ), 32, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_WAVEFRONTS_PER_REQ), 2, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_HIT_PCT), 50, 1e-9);
    p.cfg = 4; /* one int4 per thread: 512 B per warp, coalesced */
    pr = P("copy", "int4", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_SECTORS_PER_REQ), 16, 0);
    CHECK_NEAR(pr.op[SF_LD].hits, 0, 0);
}

/* Grid-stride and vector copies: remainders, and independence of the grid. */
static void test_copy_vectors(void)
{
    sf_params p = base();
    p.n = 4099; /* N mod 2 = 1, N mod 4 = 3 */
    sf_prediction a = P("copy", "grid_vector4", &p);
    /* 1024 int4 (32 requests) + one request of 3 scalar lanes (in one sector) */
    CHECK_EQ_U(a.op[SF_LD].requests, 33);
    CHECK_EQ_U(a.op[SF_LD].sectors, 513);
    CHECK_EQ_U(a.op[SF_LD].bytes, 4099 * 4);
    p.grid_blocks = 1; /* one block: the same requests, more iterations per warp */
    sf_prediction b = P("copy", "grid_vector4", &p);
    CHECK_EQ_U(b.op[SF_LD].requests, 33);
    CHECK_EQ_U(b.op[SF_LD].sectors, 513);
    CHECK_EQ_U(b.blocks, 1);
    /* vector4: 1024 threads, then thread 1024 copies 3 scalars: 3 requests of
     * one lane, in the sector the vectors already loaded: 2 hits after the first */
    a = P("copy", "vector4", &p);
    CHECK_EQ_U(a.op[SF_LD].requests, 35);
    CHECK_EQ_U(a.op[SF_LD].hits, 2);
    CHECK_EQ_U(a.op[SF_ST].requests, 35);
    CHECK_EQ_U(a.blocks, 9); /* 1025 threads */
    p.n = 1 << 20;
    a = P("copy", "grid_scalar", &p);
    CHECK_NEAR(sf_quantity_value(&a, SF_LD, SFQ_ELEMS_PER_REQ), 32, 0);
    a = P("copy", "vector2", &p);
    CHECK_NEAR(sf_quantity_value(&a, SF_ST, SFQ_ELEMS_PER_REQ), 64, 0);
    CHECK_NEAR(sf_quantity_value(&a, SF_ST, SFQ_SECTORS_PER_REQ), 8, 0);
}

/* Independent recount: the distinct sectors of each warp, by brute force. */
static void test_brute_force(void)
{
    for (uint64_t off = 0; off <= 32; off += 3) {
        sf_params p = base();
        p.n = 5000;
        p.cfg = off;
        p.wpb = 3;
        sf_prediction pr = P("patterns", "offset_nc", &p);
        const uint64_t items = p.n - 32;
        double sectors = 0, lines = 0, hits = 0, l2req = 0;
        for (uint64_t w = 0; w * 32 < items; w++) {
            uint64_t s0 = (w * 32 + off) * 4 / 32;
            uint64_t last = (w * 32 + 31 < items ? w * 32 + 31 : items - 1) + off;
            uint64_t s1 = last * 4 / 32;
            sectors += (double)(s1 - s0 + 1);
            lines += (double)(s1 / 4 - s0 / 4 + 1);
            /* the first sector was the previous warp's last, in the same block */
            int shared = w % 3 != 0 && ((w * 32 + off) * 4) % 32 != 0;
            hits += shared;
            l2req += (double)(s1 / 4 - (s0 + shared) / 4 + 1);
        }
        CHECK_NEAR(pr.op[SF_LD].sectors, sectors, 0);
        CHECK_NEAR(pr.op[SF_LD].lines, lines, 0);
        CHECK_NEAR(pr.op[SF_LD].hits, hits, 0);
        CHECK_NEAR(pr.op[SF_LD].l2_requests, l2req, 0);
        CHECK_NEAR(pr.op[SF_LD].l2_sectors, sectors - hits, 0);
    }
}

/* Stencils: the lab's cases by hand, the order assumption, the brackets. */
static void test_stencil(void)
{
    sf_params p = base();
    /* deriv0, n0 = 32, aligned: loads idx (4 sectors), idx-1 (5, 4 of them hit) */
    p.n0 = 32, p.n1 = 1, p.lead_pad = 1, p.pad_ld = 1;
    sf_prediction pr = P("stencil", "deriv0", &p);
    CHECK_EQ_U(pr.op[SF_LD].sectors, 9);
    CHECK_EQ_U(pr.op[SF_LD].hits, 4);
    CHECK_EQ_U(pr.op[SF_ST].sectors, 4);
    CHECK_EQ_U(pr.op[SF_LD].l2_requests, 2); /* lines 0 (sector 3) and 1 */
    CHECK(strcmp(pr.config, "n0=32,n1=1,r=1,lead=31,ld=64") == 0);
    pr = P("stencil", "deriv0_halo", &p);   /* the same loads, the halo one second */
    CHECK_EQ_U(pr.op[SF_LD].sectors, 9);
    CHECK_EQ_U(pr.op[SF_LD].hits, 4);
    /* n0 = 32, n1 = 5, lead pad only: rows at 0, 8, 16, 24, 32 B into a line */
    p.n1 = 5, p.pad_ld = 0;
    pr = P("stencil", "deriv_copy", &p);
    CHECK_EQ_U(pr.op[SF_LD].sectors, 23);
    CHECK_EQ_U(pr.op[SF_LD].hits, 2);        /* rows 2 and 3 start in their predecessor's last sector */
    CHECK_EQ_U(pr.op[SF_ST].hits, 2);        /* stores allocate (write-allocate) */
    CHECK_EQ_U(pr.op[SF_ST].l2_sectors, 23); /* but all go on to L2 */
    /* deriv1, R = 2, one block of 4 rows, aligned: rows w, w-1, w+1, w-2 in
     * that order; 16 requests of 4 sectors, 7 distinct rows miss, the rest hit */
    p = base();
    p.n0 = 32, p.n1 = 4, p.radius = 2, p.lead_pad = 1, p.pad_ld = 1;
    pr = P("stencil", "deriv1", &p);
    CHECK_EQ_U(pr.op[SF_LD].requests, 16);
    CHECK_EQ_U(pr.op[SF_LD].sectors, 64);
    CHECK_EQ_U(pr.op[SF_LD].hits, 36);
    CHECK_EQ_U(pr.op[SF_LD].l2_requests, 7);
    CHECK_EQ_U(pr.op[SF_LD].hits_max, 36); /* one block: no neighbour */
    /* deriv1, R = 1, 32 x 32 aligned, 8 blocks: row 4b-1 is in the previous
     * block: a hit only if both ran on one SM: hits in [96, 96 + 7 * 4] */
    p.n1 = 32, p.radius = 1;
    pr = P("stencil", "deriv1", &p);
    CHECK_EQ_U(pr.op[SF_LD].sectors, 256);
    CHECK_EQ_U(pr.op[SF_LD].hits, 96);
    CHECK_EQ_U(pr.op[SF_LD].hits_max, 124);
    CHECK_EQ_U(pr.op[SF_LD].l2_sectors, 160);
    CHECK_EQ_U(pr.op[SF_LD].l2_sectors_min, 132);
    CHECK_EQ_U(pr.op[SF_LD].l2_requests, 40);
    CHECK_EQ_U(pr.op[SF_LD].l2_requests_min, 33);
    CHECK_EQ_U(pr.op[SF_ST].sectors, 128);
    CHECK_EQ_U(pr.dram_read_sectors, 132); /* 33 rows of 4 sectors (64 B granules) */
    /* n0 = 1024: 32 warps misaligned by 4 B: 5 sectors each, the neighbour in
     * the same block shares one (24 of 31 boundaries) */
    p = base();
    p.n0 = 1024;
    pr = P("stencil", "deriv_copy", &p);
    CHECK_EQ_U(pr.op[SF_LD].sectors, 160);
    CHECK_EQ_U(pr.op[SF_LD].hits, 24);
    CHECK_EQ_U(pr.op[SF_LD].hits_max, 31);
}

/* The L2 model: granules, reuse, dirty lines written only when evicted. */
static void test_l2_dram(void)
{
    sf_params p = base();
    p.n = 100000;
    p.cfg = 16;
    /* 6,250 lanes 64 B apart: one granule each of 32 or 64 B; 128 B granules
     * hold two lanes */
    static const double want[3] = { 6250, 12500, 12500 };
    for (int i = 0; i < 3; i++) {
        p.granule_bytes = 32u << i;
        sf_prediction pr = P("copy", "stride", &p);
        CHECK_NEAR(pr.dram_read_sectors, want[i], 0);
    }
    /* write-back: with 64 lines of L2, a coalesced copy writes every dirty line
     * it evicts; the 32 out lines still in L2 at the end are not written */
    p = base();
    p.n = 102400; /* 800 blocks, each 4 in lines then 4 out lines */
    p.cfg = 1;
    p.l2_bytes = 64 * 128;
    sf_prediction pr = P("copy", "stride", &p);
    CHECK_NEAR(pr.dram_read_sectors, 12800, 0);
    CHECK_NEAR(pr.dram_write_sectors, 12800 - 32 * 4, 0);
    CHECK_NEAR(pr.dram_partial_sectors, 0, 0); /* whole sectors written */
    p.l2_bytes = 1 << 20; /* everything fits: nothing written during the kernel */
    pr = P("copy", "stride", &p);
    CHECK_NEAR(pr.dram_write_sectors, 0, 0);
    /* stride_store at stride 2: every sector written gets 4 B of each 8, and
     * the L2 keeps a quarter of its lines with such sectors (16 of 64, sector_sim.c
     * l2_write): the other 3184 of out's 3200 lines are written back before the
     * LRU would evict them, each sector read from DRAM first (a fill) */
    p.l2_bytes = 64 * 128;
    p.cfg = 2;
    pr = P("copy", "stride_store", &p);
    CHECK_NEAR(pr.dram_write_sectors, (3200 - 16) * 4, 0);
    CHECK_NEAR(pr.dram_read_sectors, 6400 + (3200 - 16) * 4, 0); /* in, then the fills */
    CHECK_NEAR(pr.dram_partial_sectors, 0, 0); /* none left for the LRU to evict */
    /* an L2 of 8192 lines holds in and out (4800 lines): the LRU writes back
     * nothing, but only 2048 partly written lines stay */
    p.l2_bytes = 1 << 20;
    pr = P("copy", "stride_store", &p);
    CHECK_NEAR(pr.dram_write_sectors, (3200 - 2048) * 4, 0);
    CHECK_NEAR(pr.dram_read_sectors, 6400 + (3200 - 2048) * 4, 0);
    /* stride 1: whole sectors, no fill, nothing written back */
    p.cfg = 1;
    pr = P("copy", "stride_store", &p);
    CHECK_NEAR(pr.dram_write_sectors, 0, 0);
    CHECK_NEAR(pr.dram_read_sectors, 12800, 0);
    /* reread: pair p's even warp reads bytes 96-223, the odd one 0-127: 4 granules */
    p = base();
    p.n = 1 << 16;
    pr = P("patterns", "reread_cg", &p);
    CHECK_NEAR(pr.dram_read_sectors, (p.n / 4 / 64) * 8.0, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_DRAM_UTIL_PCT), 100, 1e-9);
    pr = P("patterns", "reread_ca", &p);
    CHECK_NEAR(pr.op[SF_LD].hits, (double)(p.n / 4 / 64), 0); /* sector 3, once per pair */
    /* the random gather over 16 MB: every granule read once (L2 holds it all) */
    p.n = 1 << 22;
    pr = P("patterns", "random_cg", &p);
    CHECK_NEAR(pr.dram_read_sectors, p.n / 8.0, 0);
    p.l2_bytes = 1 << 20; /* 1 MiB: most re-touches miss again */
    sf_prediction q = P("patterns", "random_cg", &p);
    CHECK(q.dram_read_sectors > 1.8 * pr.dram_read_sectors);
}

static void test_patterns_misc(void)
{
    sf_params p = base();
    p.n = 1 << 16;
    /* AoS / SoA */
    sf_prediction pr = P("patterns", "aos4_one", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_SECTORS_PER_REQ), 16, 0);
    pr = P("patterns", "aos4_all", &p);
    CHECK_NEAR(pr.op[SF_LD].requests, 4.0 * (p.n / 4 / 32), 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_HIT_PCT), 75, 1e-9);
    pr = P("patterns", "soa4_all", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_SECTORS_PER_REQ), 4, 0);
    CHECK_NEAR(pr.op[SF_LD].hits, 0, 0);
    pr = P("patterns", "aos_vec4", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_SECTORS_PER_REQ), 16, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_LD, SFQ_L1_UTIL_PCT), 100, 1e-9);
    /* soa8_all at N = 1e7: items = 1,250,000 = 16 mod 32 floats, so the odd k
     * streams start 64 B into a line: 4 sectors, but 2 lines per full warp;
     * each stream ends with a half warp (16 floats, 2 sectors, 1 line) */
    p.n = 10000000;
    pr = P("patterns", "soa8_all", &p);
    CHECK_EQ_U(pr.op[SF_LD].requests, 8 * 39063);
    CHECK_EQ_U(pr.op[SF_LD].sectors, 1250000);
    CHECK_EQ_U(pr.op[SF_LD].l2_requests, 4 * 39063 + 4 * (2 * 39062 + 1));
    /* write_range64: two lanes per word, 64 B: 2 sectors, 1 line */
    p.n = 1 << 16;
    pr = P("patterns", "write_range64", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_ST, SFQ_SECTORS_PER_REQ), 2, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_ST, SFQ_L2_REQ_PER_REQ), 1, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_ST, SFQ_L1_UTIL_PCT), 100, 1e-9);
    CHECK_EQ_U(pr.items, 2 * p.n);
    /* write_strided at stride 8: one sector per lane */
    p.cfg = 8;
    pr = P("patterns", "write_strided", &p);
    CHECK_NEAR(sf_quantity_value(&pr, SF_ST, SFQ_SECTORS_PER_REQ), 32, 0);
    CHECK_NEAR(sf_quantity_value(&pr, SF_ST, SFQ_WAVEFRONTS_PER_REQ), 2, 0);
    /* the three paths differ only in L1 hits */
    p.cfg = 5;
    sf_prediction ca = P("patterns", "offset_ca", &p), cg = P("patterns", "offset_cg", &p),
                  nc = P("patterns", "offset_nc", &p);
    CHECK_NEAR(ca.op[SF_LD].sectors, cg.op[SF_LD].sectors, 0);
    CHECK_NEAR(ca.op[SF_LD].hits, nc.op[SF_LD].hits, 0);
    CHECK(ca.op[SF_LD].hits > 0);
    CHECK_NEAR(cg.op[SF_LD].hits, 0, 0);
    CHECK_NEAR(cg.op[SF_LD].l2_sectors, cg.op[SF_LD].sectors, 0);
}

static void test_errors(void)
{
    char err[256];
    sf_prediction pr;
    sf_params p = base();
    const sf_variant *v = sf_find("copy", "stride");
    CHECK(v != NULL);
    p.n = SF_MAX_N + 1;
    CHECK_EQ_I(sf_predict(v, &p, &pr, err, sizeof err), -1);
    CHECK_STR_HAS(err, "N = 268435457");
    p = base();
    p.cfg = 0;
    CHECK_EQ_I(sf_predict(v, &p, &pr, err, sizeof err), -1);
    CHECK_STR_HAS(err, "stride 0");
    p = base();
    p.granule_bytes = 48;
    CHECK_EQ_I(sf_predict(v, &p, &pr, err, sizeof err), -1);
    CHECK_STR_HAS(err, "32, 64 or 128");
    p = base();
    p.cfg = 6;
    CHECK_EQ_I(sf_predict(sf_find("copy", "int4"), &p, &pr, err, sizeof err), -1);
    CHECK_STR_HAS(err, "multiple of 4");
    p.cfg = 1025;   /* the kernels' --offset limit is 1024 */
    CHECK_EQ_I(sf_predict(sf_find("patterns", "offset_ca"), &p, &pr, err, sizeof err), -1);
    CHECK_STR_HAS(err, "0..1024");
    p = base();
    p.radius = 5;
    CHECK_EQ_I(sf_predict(sf_find("stencil", "deriv1"), &p, &pr, err, sizeof err), -1);
    CHECK_STR_HAS(err, "radius 5");
    p = base();
    p.n = 20;
    CHECK_EQ_I(sf_predict(sf_find("patterns", "offset_ca"), &p, &pr, err, sizeof err), -1);
    CHECK_STR_HAS(err, "no thread has work");
    p = base();
    p.wpb = 0;
    CHECK_EQ_I(sf_predict(v, &p, &pr, err, sizeof err), -1);
    /* the work is bounded before the walk: a stencil of 2^28 points (walked:
     * the stencil has no count hook) is over SF_MAX_WORK; a random gather over
     * 2^28 floats is counted (sf_count_loads), not walked, and a coalesced
     * copy of 2^28 (2^23 warps x 4) is under it */
    p = base();
    p.n0 = 16384, p.n1 = 16384, p.radius = 4;
    CHECK_EQ_I(sf_check(sf_find("stencil", "deriv1"), &p, err, sizeof err), -1);
    CHECK_STR_HAS(err, "requests and line lookups");
    p = base();
    p.n = SF_MAX_N;
    CHECK_EQ_I(sf_check(sf_find("patterns", "random_ca"), &p, err, sizeof err), 0);
    CHECK_EQ_I(sf_check(sf_find("copy", "stride"), &p, err, sizeof err), 0);
    p.n = 1 << 20;
    CHECK_EQ_I(sf_check(sf_find("patterns", "random_ca"), &p, err, sizeof err), 0);
    CHECK(sf_find("copy", "memcpy") == NULL); /* no kernel, no model */
    CHECK(sf_find("patterns", "stride") == NULL);
}

/* The metric list: every measure, both ops, each family's set; no duplicate. */
static void test_metrics(void)
{
    int models = 0;
    for (const fam_entry *f = fam_registry; f->name; f++) {
        const struct fam_model *fm = f->model;
        if (!fm || !fm->nvariants)
            continue;
        models++;
        for (int m = SFM_INSTRUCTIONS; m < SFM_NMEASURES && (fm->metrics & SF_MSET_FULL); m++)
            for (int op = 0; op < 2; op++) {
                int found = 0;
                for (size_t i = 0; i < sf_nmetrics; i++)
                    found += sf_metrics[i].m == (sf_measure)m && sf_metrics[i].op == op &&
                             (sf_metrics[i].sets & fm->metrics);
                CHECK(found >= 1);
            }
        /* names of families and variants */
        for (size_t i = 0; i < fm->nvariants; i++) {
            CHECK(fm->variants[i].model == fm);
            CHECK(sf_find(f->name, fm->variants[i].name) == &fm->variants[i]);
        }
    }
    CHECK(models >= 4);
    for (size_t i = 0; i < sf_nmetrics; i++)
        for (size_t j = i + 1; j < sf_nmetrics; j++)
            CHECK(strcmp(sf_metrics[i].name, sf_metrics[j].name) != 0);
    /* the readonly set is the five metrics its table has always had */
    const struct fam_model *ro = sf_model("readonly");
    CHECK(ro != NULL);
    int nro = 0;
    for (size_t i = 0; ro && i < sf_nmetrics; i++)
        nro += (sf_metrics[i].sets & ro->metrics) != 0;
    CHECK_EQ_I(nro, 5);
    CHECK(sf_model("stencil") != NULL && sf_model("stencil")->shape == SF_SHAPE_2D);
    CHECK(sf_model("nosuch") == NULL);
    CHECK(sf_find("readonly", "baseline") != NULL);
    char names[128];
    CHECK(strcmp(sf_family_list(names, sizeof names, 0), "copy, patterns, readonly, stencil") == 0);
    CHECK(strcmp(sf_family_list(names, sizeof names, 1), "copy, patterns, readonly, stencil") == 0);
    CHECK(strcmp(sf_family_list(names, 12, 1), "copy") == 0);   /* what fits, whole names */
}

/* Judging a measurement against the prediction. */
static void test_judge(void)
{
    sf_params p = base();
    p.n0 = 32, p.n1 = 32, p.lead_pad = 1, p.pad_ld = 1;
    sf_prediction pr = P("stencil", "deriv1", &p); /* hits 96..124 (see test_stencil) */
    sf_measured m;
    sf_verdict v;
    sf_measured_clear(&m);
    sf_judge(&pr, SF_LD, &m, &v);
    CHECK_EQ_I(v.agree, 0); /* nothing measured */
    CHECK_STR_HAS(v.mismatch, "not measured");
    m.v[SFM_REQUESTS][SF_LD] = 64;
    m.v[SFM_SECTORS][SF_LD] = 256;
    m.v[SFM_WAVEFRONTS][SF_LD] = 64;
    /* B2: hits are judged at the in-block point (96), the neighbours' 124 is
     * shown only; L2 requests and sectors of loads at theirs (40, 160) */
    m.v[SFM_HITS][SF_LD] = 96;
    m.v[SFM_L2_REQUESTS][SF_LD] = 40;
    m.v[SFM_L2_SECTORS][SF_LD] = 160;
    m.v[SFM_DRAM][SF_LD] = 500;          /* tiny: not judged */
    m.v[SFM_GRID][0] = 8;
    sf_judge(&pr, SF_LD, &m, &v);
    CHECK_EQ_I(v.agree, 1);
    CHECK(strcmp(v.mismatch, "-") == 0);
    CHECK_EQ_I(v.judged[SFM_DRAM], 0);
    CHECK_STR_HAS(v.note, "DRAM not judged below 8192");
    CHECK_STR_HAS(v.note, "124 if neighbouring blocks had shared an SM's L1 (shown, not judged");
    CHECK(strcmp(v.judged_list, "blocks,l1_requests,l1_sectors,l1_hits,l2_requests,l2_sectors") == 0);
    CHECK(strcmp(v.wide_list, "-") == 0);
    CHECK_EQ_I(v.wide[SFM_HITS], 0);     /* a point: not wide */
    m.v[SFM_HITS][SF_LD] = 110;          /* inside the old bracket: a neighbour's hits */
    sf_judge(&pr, SF_LD, &m, &v);
    CHECK_EQ_I(v.agree, 0);
    CHECK(strcmp(v.mismatch, "l1_hits") == 0);
    m.v[SFM_HITS][SF_LD] = 125;          /* outside */
    m.v[SFM_SECTORS][SF_LD] = 257;
    m.v[SFM_GRID][0] = 9;
    sf_judge(&pr, SF_LD, &m, &v);
    CHECK_EQ_I(v.agree, 0);
    CHECK(strcmp(v.mismatch, "blocks,l1_sectors,l1_hits") == 0);
    /* DRAM: 5 % at the script's size */
    p = base();
    p.cfg = 2;
    pr = P("copy", "stride", &p);
    sf_measured_clear(&m);
    m.v[SFM_REQUESTS][SF_LD] = pr.op[SF_LD].requests;
    m.v[SFM_SECTORS][SF_LD] = pr.op[SF_LD].sectors;
    m.v[SFM_DRAM][SF_LD] = pr.dram_read_sectors * 1.049;
    sf_judge(&pr, SF_LD, &m, &v);
    CHECK_EQ_I(v.agree, 1);
    CHECK_EQ_I(v.judged[SFM_DRAM], 1);
    CHECK_STR_HAS(v.note, "not measured: wavefronts, l1_hits, l2_requests, l2_sectors");
    m.v[SFM_DRAM][SF_LD] = pr.dram_read_sectors * 1.051;
    sf_judge(&pr, SF_LD, &m, &v);
    CHECK_EQ_I(v.agree, 0);
    CHECK(strcmp(v.mismatch, "dram_sectors") == 0);
    /* stores: DRAM writes shown, never judged */
    m.v[SFM_REQUESTS][SF_ST] = pr.op[SF_ST].requests;
    m.v[SFM_SECTORS][SF_ST] = pr.op[SF_ST].sectors;
    m.v[SFM_DRAM][SF_ST] = 1;
    sf_judge(&pr, SF_ST, &m, &v);
    CHECK_EQ_I(v.agree, 1);
    CHECK_STR_HAS(v.note, "DRAM writes not judged");
    /* random through L1: the tolerance widens the bracket */
    p.n = 1 << 20;
    pr = P("patterns", "random_ca", &p);
    sf_measured_clear(&m);
    m.v[SFM_REQUESTS][SF_LD] = pr.op[SF_LD].requests;
    m.v[SFM_SECTORS][SF_LD] = pr.op[SF_LD].sectors;
    m.v[SFM_HITS][SF_LD] = pr.op[SF_LD].hits + 0.004 * pr.op[SF_LD].sectors;
    sf_judge(&pr, SF_LD, &m, &v);
    CHECK_EQ_I(v.ok[SFM_HITS], 1);
    m.v[SFM_HITS][SF_LD] = pr.op[SF_LD].hits_max + 0.006 * pr.op[SF_LD].sectors;
    sf_judge(&pr, SF_LD, &m, &v);
    CHECK_EQ_I(v.ok[SFM_HITS], 0);
}

/* The model's L2: half the device's (the H100's 50 MiB, the H200's 60),
 * the fallback for a table without it or an unusable value. */
static void test_model_l2(void)
{
    CHECK_EQ_U(sf_model_l2_bytes(52428800, 7), 26214400);
    CHECK_EQ_U(sf_model_l2_bytes(62914560, 7), 31457280);
    CHECK_EQ_U(sf_model_l2_bytes(257, 7), 128);
    CHECK_EQ_U(sf_model_l2_bytes(NAN, 26214400), 26214400);
    CHECK_EQ_U(sf_model_l2_bytes(255, 7), 7);
    CHECK_EQ_U(sf_model_l2_bytes(-52428800, 7), 7);
    CHECK_EQ_U(sf_model_l2_bytes(52428800.5, 7), 7);
    CHECK_EQ_U(sf_model_l2_bytes(INFINITY, 7), 7);
    CHECK_EQ_U(sf_model_l2_bytes(2199023255552.0, 7), 7);
}

int main(void)
{
    test_model_l2();
    test_judge();
    test_lab_oracles();
    test_lab_differences();
    test_copy_stride();
    test_copy_batch();
    test_copy_vectors();
    test_brute_force();
    test_stencil();
    test_l2_dram();
    test_patterns_misc();
    test_errors();
    test_metrics();
    return check_report("test_sector_families");
}
