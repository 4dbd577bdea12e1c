/*
 * test_sector_expect - the expected count of sector_expect.h: the rounded
 * share of the merge opportunities (integer arithmetic), the warps an SM
 * holds (W) and the stencil's power law in it, a hand-counted small
 * stencil (the store hits of a line an earlier warp stored), the
 * calibration probes' geometry (src/families/stencil/calib.tsv, ids 0, 1
 * and 7: deriv0 1000 x 64, R 1, at WPB 1 and 4), a comparison row's config
 * read back, and a family whose merges are not modelled; copy's store
 * share by lines a store instruction (a hand-counted warp and the probes of
 * src/families/copy/calib.tsv, batch's eighth), patterns' shared-line
 * loads and write_offset stores (its probes), the mean over the warps'
 * orders (patterns' offset loads, a hand-counted stencil block) and the
 * lines copy's batch loops hold partly written at once, and the L1 hits of
 * patterns' random gathers (a hand-counted fit, a big N, one row), and
 * deriv1's grid counts against the rows its loads read, on random
 * geometries.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "sector_expect.h"
#include "sector_families.h"
#include "sector_sim.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void test_share(void)
{
    CHECK_NEAR(sf_merge_share(1500, 1, 3), 500, 0);
    CHECK_NEAR(sf_merge_share(1488, 1, 3), 496, 0);   /* 496.0 */
    CHECK_NEAR(sf_merge_share(1128, 1, 5), 226, 0);   /* 225.6 rounds up */
    CHECK_NEAR(sf_merge_share(2, 1, 5), 0, 0);        /* 0.4 rounds down */
    CHECK_NEAR(sf_merge_share(2, 1, 3), 1, 0);        /* 0.67 */
    CHECK_NEAR(sf_merge_share(0, 1, 3), 0, 0);
    CHECK_NEAR(sf_merge_share(-4, 1, 3), 0, 0);
    CHECK_NEAR(sf_merge_share(7, 1, 0), 0, 0);
}

/* The stencil's variant over n0 x n1 points, R 1, WPB wpb, the leading pad
 * on or off, into pr. */
static void predict_pad(const char *variant, unsigned long long n0, unsigned long long n1,
                        unsigned wpb, int lead_pad, sf_prediction *pr)
{
    sf_params p;
    sf_params_default(&p);
    p.n0 = n0;
    p.n1 = n1;
    p.n = n0 * n1;
    p.wpb = wpb;
    p.lead_pad = lead_pad;
    char err[256] = "";
    const sf_variant *v = sf_find("stencil", variant);
    CHECK(v != NULL);
    CHECK(v && sf_predict(v, &p, pr, err, sizeof err) == 0);
}

static void predict(const char *variant, unsigned long long n0, unsigned long long n1, unsigned wpb,
                    sf_prediction *pr)
{
    predict_pad(variant, n0, n1, wpb, 0, pr);
}

/* deriv_copy 40 x 1, R 1, WPB 2: idx = i0 + 1.  Warp 0 stores floats 1..32
 * (bytes 4..131: sectors 0-4, lines 0 and 1), warp 1 floats 33..40 (bytes
 * 132..163: sectors 4 and 5, line 1).  Warp 1's two sectors are in a line
 * warp 0 stored: 2 store hits by line, where the shared sector alone is 1.
 * The opportunities: 1 line (3 requests per request, 2 lines per block) and
 * 1 sector (7 per request, 6 distinct).  One block: W = 2, one load a
 * store, WPB 2 (not a multiple of 4): the stores' share 2^-0.31 = 0.81
 * rounds 1 up, the loads' min(1, 2.2 x 2^-0.65) = 1 (WPB 2: no
 * schedulers' factor). */
static void test_hand(void)
{
    sf_prediction pr;
    predict("deriv_copy", 40, 1, 2, &pr);
    const sf_variant *v = sf_find("stencil", "deriv_copy");
    sf_expected e;
    CHECK_EQ_I(sf_expect(v, &pr, SF_ST, &e), 1);
    CHECK_NEAR(pr.op[SF_ST].hits, 1, 0);
    CHECK_NEAR(e.l1_hits, 2, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_requests, 3, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_requests_merged, 2, 0);
    CHECK_NEAR(sf_resident_warps(&pr), 2, 0);
    CHECK_NEAR(e.l2_requests, 2, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_sectors, 7, 0);
    CHECK_NEAR(e.l2_sectors, 6, 0);
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 1);
    CHECK_NEAR(e.l1_hits, pr.op[SF_LD].hits, 0);
    CHECK_NEAR(e.l2_requests, 2, 0);
}

/* The probes' deriv0 1000 x 64: at WPB 1 no two warps share a block, the
 * expected count is the per-request one; at WPB 4 (500 blocks, 4 an SM: W
 * 16) the stores share 1500 lines and 1488 sectors in the blocks (2 loads
 * a store, WPB a multiple of 4: 16^-0.31 x 2^-0.14 x 1.2 = 0.4611 of them:
 * 692 and 686), the loads 1128 lines (2.2 x 16^-0.65 = 0.3629, 4 warps a
 * block, one a scheduler: 409), and the store hits by line are 3744. */
static void test_probe(void)
{
    sf_prediction pr;
    sf_expected e;
    const sf_variant *v = sf_find("stencil", "deriv0");
    predict("deriv0", 1000, 64, 1, &pr);
    CHECK_EQ_I(sf_expect(v, &pr, SF_ST, &e), 1);
    CHECK_NEAR(e.l2_requests, 4000, 0);
    CHECK_NEAR(e.l2_sectors, 10000, 0);
    CHECK_NEAR(e.l1_hits, 0, 0);
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 1);
    CHECK_NEAR(e.l2_requests, 4000, 0);
    predict("deriv0", 1000, 64, 4, &pr);
    CHECK_EQ_I(sf_expect(v, &pr, SF_ST, &e), 1);
    CHECK_NEAR(pr.op[SF_ST].l2_requests - pr.op[SF_ST].l2_requests_merged, 1500, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_sectors - pr.op[SF_ST].l2_sectors_merged, 1488, 0);
    CHECK_NEAR(sf_resident_warps(&pr), 16, 0);
    CHECK_NEAR(e.l2_requests, 3308, 0);
    CHECK_NEAR(e.l2_sectors, 9314, 0);
    CHECK_NEAR(e.l1_hits, 3744, 0);
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 1);
    CHECK_NEAR(pr.op[SF_LD].l2_requests, 3628, 0);
    CHECK_NEAR(e.l2_requests, 3219, 0);   /* 3628 - 409 */
    CHECK_NEAR(e.l2_sectors, 8512, 0);
    CHECK_NEAR(e.l1_hits, 10992, 0);
}

/* The stencil stores' share: deriv0 at R 4 (8 loads) and W = WPB = 31,
 * 31^-0.31 x 8^-0.14 = 0.2578; one load at W 32: 32^-0.31 = 0.3415, times
 * 1.2 = 0.4098 where the block's WPB is a multiple of 4 (32, or two blocks
 * of 16), not at WPB 2 (16 blocks); fewer loads than one count as one;
 * capped at 1; nothing below W 1. */
static void test_store_share(void)
{
    CHECK_NEAR(sf_stencil_store_share(31, 8, 31), 0.2578, 1e-4);
    CHECK_NEAR(sf_stencil_store_share(32, 1, 32), 0.4098, 1e-4);
    CHECK_NEAR(sf_stencil_store_share(32, 1, 16), 0.4098, 1e-4);
    CHECK_NEAR(sf_stencil_store_share(32, 1, 2), 0.3415, 1e-4);
    CHECK_NEAR(sf_stencil_store_share(32, 0.5, 2), 0.3415, 1e-4);
    CHECK_NEAR(sf_stencil_store_share(1, 1, 4), 1, 0);
    CHECK_NEAR(sf_stencil_store_share(0, 1, 4), 0, 0);
}

static void test_row(void)
{
    sf_expected e;
    char err[256] = "";
    CHECK_EQ_I(sf_expect_row("stencil", "deriv0", "n0=1000,n1=64,r=1,lead=0,ld=1002", 0, 4, "st", &e, err,
                             sizeof err), 1);
    CHECK_NEAR(e.l2_requests, 3308, 0);
    /* deriv_copy 555 x 30 with a padded leading dimension (probe 7): 131
     * blocks, one an SM, W 4, one load, WPB 4: 4^-0.31 x 1.2 = 0.7808 of
     * 377 is 294 */
    CHECK_EQ_I(sf_expect_row("stencil", "deriv_copy", "n0=555,n1=30,r=1,lead=0,ld=576", 0, 4, "st", &e, err,
                             sizeof err), 1);
    CHECK_NEAR(e.l2_requests, 749, 0);   /* 1043 - 294 */
    /* a config the model would not give back, a malformed one, a bad WPB */
    CHECK_EQ_I(sf_expect_row("stencil", "deriv0", "n0=1000,n1=64,r=1,lead=5,ld=1002", 0, 4, "st", &e, err,
                             sizeof err), -1);
    CHECK_EQ_I(sf_expect_row("stencil", "deriv0", "n0=1000,n1=64", 0, 4, "st", &e, err, sizeof err), -1);
    CHECK_EQ_I(sf_expect_row("stencil", "deriv0", "n0=1000,n1=64,r=1,lead=0,ld=1002", 0, 0, "st", &e, err,
                             sizeof err), -1);
    /* no expectation: another family, an unknown variant, another op */
    CHECK_EQ_I(sf_expect_row("copy", "coalesced", "-", 0, 4, "ld", &e, err, sizeof err), 0);
    CHECK_EQ_I(sf_expect_row("stencil", "nosuch", "n0=1000,n1=64,r=1,lead=0,ld=1002", 0, 4, "ld", &e, err,
                             sizeof err), 0);
    CHECK_EQ_I(sf_expect_row("stencil", "deriv0", "n0=1000,n1=64,r=1,lead=0,ld=1002", 0, 4, "all", &e, err,
                             sizeof err), 0);
}

static void predict_cfg(const char *family, const char *variant, unsigned long long n, unsigned wpb,
                        unsigned long long cfg, sf_prediction *pr)
{
    sf_params p;
    sf_params_default(&p);
    p.n = n;
    p.wpb = wpb;
    p.cfg = cfg;
    char err[256] = "";
    const sf_variant *v = sf_find(family, variant);
    CHECK(v != NULL);
    CHECK(v && sf_predict(v, &p, pr, err, sizeof err) == 0);
}

static void test_copy_share(void)
{
    CHECK_NEAR(sf_merge_copy_share(2), 1, 0);
    CHECK_NEAR(sf_merge_copy_share(1), 1, 0);
    CHECK_NEAR(sf_merge_copy_share(0), 1, 0);
    CHECK_NEAR(sf_merge_copy_share(8), 0.25, 1e-12);
    CHECK_NEAR(sf_merge_copy_share(5), 0.5, 1e-12);
    CHECK_NEAR(sf_merge_copy_share(16), 0.0393725, 1e-6);   /* 2^(-14/3) */
    /* batch_restrict's and int4's window (SF_MERGE_COPY_WIN): int4 B 8 (S 2,
     * L 8) at W 60 on every SM: 2^-((480 / 630)^2.9) = 0.7298; batch_restrict
     * B 4 (S 4, L 4) at W 20 on half the SMs: X = 630 x 0.5^0.85 = 349.51,
     * the mean of 2^-((80 j / X)^2.9) over j = 1..3 = (0.9904 + 0.9306 +
     * 0.7921) / 3 = 0.9044; one store a line, every one; no warp, none */
    CHECK_NEAR(sf_merge_copy_window_share(2, 8, 60, 1), 0.729775, 1e-6);
    CHECK_NEAR(sf_merge_copy_window_share(4, 4, 20, 0.5), 0.904393, 1e-6);
    CHECK_NEAR(sf_merge_copy_window_share(1, 8, 60, 1), 1, 0);
    CHECK_NEAR(sf_merge_copy_window_share(2, 8, 0, 1), 0, 0);
}

/* batch_restrict B 2, N 64, WPB 1: one warp, threads 0..31 store ints 2t
 * and 2t + 1, two instructions each over bytes 0..255 (lines 0 and 1, all 8
 * sectors): 4 requests and 16 sectors per request, 2 and 8 merged; at
 * L = 2 every one merges.  Loads: no expectation. */
static void test_copy_hand(void)
{
    sf_prediction pr;
    sf_expected e;
    const sf_variant *v = sf_find("copy", "batch_restrict");
    predict_cfg("copy", "batch_restrict", 64, 1, 2, &pr);
    CHECK_NEAR(pr.op[SF_ST].requests, 2, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_requests, 4, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_requests_merged, 2, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_sectors, 16, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_sectors_merged, 8, 0);
    CHECK_EQ_I(sf_expect(v, &pr, SF_ST, &e), 1);
    CHECK_NEAR(e.l2_requests, 2, 0);
    CHECK_NEAR(e.l2_sectors, 8, 0);
    CHECK_NEAR(e.l1_hits, pr.op[SF_ST].hits, 0);
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 0);
    /* batch's stores: a sixteenth of the share, 2/16 of 2 rounds to 0 */
    predict_cfg("copy", "batch", 64, 1, 2, &pr);
    CHECK_EQ_I(sf_expect(sf_find("copy", "batch"), &pr, SF_ST, &e), 1);
    CHECK_NEAR(e.l2_requests, 4, 0);
    CHECK_EQ_I(sf_expect(sf_find("copy", "batch"), &pr, SF_LD, &e), 0);
    CHECK_EQ_I(sf_expect(sf_find("copy", "coalesced"), &pr, SF_ST, &e), 0);
}

/* The copy probes (N 4000037): batch_restrict B 8 at WPB 8 (L 1000008 /
 * 125008 lines a store, 875007 requests and 3500028 sectors to share; W 64:
 * (0.684 + 0.059 + ...) / 7 = 0.106 of them), B 16 at WPB 2, int4 B 16 at WPB 4, int4 B 4 (no
 * opportunities). */
static void test_copy_probe(void)
{
    sf_prediction pr;
    sf_expected e;
    const sf_variant *br = sf_find("copy", "batch_restrict"), *i4 = sf_find("copy", "int4");
    predict_cfg("copy", "batch_restrict", 4000037, 8, 8, &pr);
    CHECK_NEAR(pr.op[SF_ST].l2_requests - pr.op[SF_ST].l2_requests_merged, 875007, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_sectors - pr.op[SF_ST].l2_sectors_merged, 3500028, 0);
    CHECK_EQ_I(sf_expect(br, &pr, SF_ST, &e), 1);
    CHECK_NEAR(e.l2_requests, 907154, 0);   /* 1000008 - 875007 x 0.1061 (the window rule) */
    CHECK_NEAR(e.l2_sectors, 3628615, 0);
    predict_cfg("copy", "batch_restrict", 4000037, 2, 16, &pr);
    CHECK_EQ_I(sf_expect(br, &pr, SF_ST, &e), 1);
    CHECK_NEAR(e.l2_requests, 1988107, 0);
    CHECK_NEAR(e.l2_sectors, 3977801, 0);
    predict_cfg("copy", "int4", 4000037, 4, 16, &pr);
    CHECK_EQ_I(sf_expect(i4, &pr, SF_ST, &e), 1);
    CHECK_NEAR(e.l2_requests, 488095, 0);
    CHECK_NEAR(e.l2_sectors, 984129, 0);
    predict_cfg("copy", "int4", 4000037, 4, 4, &pr);
    CHECK_EQ_I(sf_expect(i4, &pr, SF_ST, &e), 1);
    CHECK_NEAR(e.l2_requests, pr.op[SF_ST].l2_requests, 0);
    CHECK_NEAR(e.l2_sectors, pr.op[SF_ST].l2_sectors, 0);
    /* batch B 2 at WPB 16 (probe 30): 125002 requests and 500005 sectors to
     * share, an eighth of them (15625 and 62501) */
    predict_cfg("copy", "batch", 4000037, 16, 2, &pr);
    CHECK_NEAR(pr.op[SF_ST].l2_requests - pr.op[SF_ST].l2_requests_merged, 125002, 0);
    CHECK_EQ_I(sf_expect(sf_find("copy", "batch"), &pr, SF_ST, &e), 1);
    CHECK_NEAR(e.l2_requests, 250004 - 15625, 0);
    CHECK_NEAR(e.l2_sectors, 1000010 - 62501, 0);
}

/* copy's batch loops on the H200's model L2 (30 MiB, 61440 partial lines):
 * batch B 15 at WPB 5 (session6 seed 479224933, 33058809 elements, 13775
 * blocks, 12 an SM on 132 SMs) holds 1584 x 5 x 15 = 118800 lines open at
 * once; f / -ln(1 - f) = 61440 / 118800 gives f = 0.7777, of out's 4132352
 * sectors 3213776 extra DRAM reads (measured 7593160 - 4132350 = 3460810).
 * batch_restrict and B 1 have none; twice the capacity open: 0.7968. */
static void test_open_partial(void)
{
    CHECK_NEAR(l2_open_partial_share(61440, 61440), 0, 0);
    CHECK_NEAR(l2_open_partial_share(122880, 61440), 0.796812, 1e-6);
    sf_params p;
    sf_params_default(&p);
    p.n = 33058809;
    p.wpb = 5;
    p.cfg = 15;
    p.l2_bytes = 30ull << 20;
    p.sms = 132;
    sf_prediction pr;
    memset(&pr, 0, sizeof pr);
    pr.blocks = 13775;
    pr.warps = 13775 * 5;
    pr.open_lines = 15;
    pr.open_sectors = 4132352;
    CHECK_NEAR(sf_open_partial_fills(&p, &pr), 3213776, 0);
    pr.open_lines = 1;   /* one line: nothing held open across stores */
    CHECK_NEAR(sf_open_partial_fills(&p, &pr), 0, 0);
    /* 300 blocks of 5 warps, B 8: all resident, 12000 lines open, none */
    pr.open_lines = 8;
    pr.blocks = 300;
    pr.warps = 1500;
    CHECK_NEAR(sf_open_partial_fills(&p, &pr), 0, 0);
    /* the copy model says which kernels hold their lines open: the rolled
     * loops, B lines a warp and N's sectors; batch_restrict none */
    char err[256];
    p.n = 100000;
    p.wpb = 4;
    p.cfg = 8;
    CHECK(sf_predict(sf_find("copy", "batch"), &p, &pr, err, sizeof err) == 0);
    CHECK(pr.open_lines == 8 && pr.open_sectors == 12500);
    CHECK(sf_predict(sf_find("copy", "batch_unrolled"), &p, &pr, err, sizeof err) == 0);
    CHECK(pr.open_lines == 8);
    CHECK(sf_predict(sf_find("copy", "batch_restrict"), &p, &pr, err, sizeof err) == 0);
    CHECK(pr.open_lines == 0);
    CHECK(sf_predict(sf_find("copy", "int4"), &p, &pr, err, sizeof err) == 0);
    CHECK(pr.open_lines == 0);
}

/* patterns' random gathers (sector_expect.h, SF_RANDOM_L1_SECTORS).  By
 * hand: 64 floats (8 sectors) in 2 blocks on 2 SMs, 32 accesses each, well
 * under C: each sector's 8 floats fall on an SM with probability 1/2 each,
 * so it is fetched by 2 (1 - 2^-8) SMs in expectation and the other
 * accesses hit: 64 - 8 x 2 x 255/256 = 48.06, 48.  A footprint far past C
 * tends to 7 C (1 - C / 2A): N 8e7 over 132 SMs, 13028 (the integral of
 * the fill, 13027.02, rounds to 13027).  random_ca at N 135168, WPB 1
 * (4224 one-warp blocks, no in-block hit, A = 1024 <= C): the reuse limit
 * N - 132 x 16896 (1 - (131/132)^8) = 3530.2, and 3530 sectors and
 * requests fewer to L2; random_cg (no L1) keeps the point prediction. */
static void test_random_hits(void)
{
    CHECK_NEAR(sf_random_l1_hits(64, 2, 2, SF_RANDOM_L1_SECTORS), 48, 0);
    CHECK_NEAR(sf_random_l1_hits(8e7, 625000, 132, SF_RANDOM_L1_SECTORS), 13027, 0);
    CHECK_NEAR(sf_random_l1_hits(64, 0, 2, SF_RANDOM_L1_SECTORS), 0, 0);
    sf_params p;
    sf_params_default(&p);
    p.n = 135168;
    p.wpb = 1;
    sf_prediction pr;
    char err[256] = "";
    const sf_variant *v = sf_find("patterns", "random_ca");
    CHECK(v != NULL);
    CHECK(v && sf_predict(v, &p, &pr, err, sizeof err) == 0);
    sf_expected e;
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 1);
    CHECK_NEAR(pr.op[SF_LD].hits, 0, 0);
    CHECK_NEAR(e.l1_hits, 3530, 0);
    CHECK_NEAR(e.l2_sectors, pr.op[SF_LD].l2_sectors - 3530, 0);
    CHECK_NEAR(e.l2_requests, pr.op[SF_LD].l2_requests - 3530, 0);
    CHECK_EQ_I(sf_expect(sf_find("patterns", "random_cg"), &pr, SF_LD, &e), 0);
}

/* The patterns probes (offset_ca, N 10000019): at WPB 4 all 234375 shared
 * lines merge, at WPB 16 3/5 of 292968; WPB 1 has none; offset_nc's loads
 * alike; write_offset's stores, requests and sectors; a store-only kernel's
 * loads and other kernels are not modelled. */
static void test_offset_probe(void)
{
    sf_prediction pr;
    sf_expected e;
    const sf_variant *v = sf_find("patterns", "offset_ca");
    predict_cfg("patterns", "offset_ca", 10000019, 4, 1, &pr);
    CHECK_NEAR(pr.op[SF_LD].l2_requests - pr.op[SF_LD].l2_requests_merged, 234375, 0);
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 1);
    CHECK_NEAR(e.l2_requests, 390624, 0);
    CHECK_NEAR(e.l2_sectors, pr.op[SF_LD].l2_sectors, 0);
    CHECK_NEAR(e.l1_hits, pr.op[SF_LD].hits, 0);
    CHECK_EQ_I(sf_expect(v, &pr, SF_ST, &e), 0);
    predict_cfg("patterns", "offset_ca", 10000019, 16, 1, &pr);
    CHECK_NEAR(pr.op[SF_LD].l2_requests - pr.op[SF_LD].l2_requests_merged, 292968, 0);
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 1);
    /* offset 1: every shared line is the other order's merged one (the
     * earlier warp's part is the shared sector alone): reversed 2/5 of the
     * time, 624999 - 2/5 x 292968 = 507811.8 -> 507812, then 3/10 of its
     * 175781 opportunities (52734.3) merge */
    CHECK_NEAR(pr.op[SF_LD].l2_requests_rev, 332031, 0);
    CHECK_NEAR(e.l2_requests, 507812 - 52734, 0);
    predict_cfg("patterns", "offset_ca", 10000019, 1, 17, &pr);
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 1);
    CHECK_NEAR(e.l2_requests, 625000, 0);
    predict_cfg("patterns", "offset_nc", 10000019, 4, 1, &pr);
    CHECK_EQ_I(sf_expect(sf_find("patterns", "offset_nc"), &pr, SF_LD, &e), 1);
    CHECK_NEAR(e.l2_requests, 390624, 0);
    const sf_variant *wo = sf_find("patterns", "write_offset");
    predict_cfg("patterns", "write_offset", 10000019, 16, 1, &pr);
    CHECK_NEAR(pr.op[SF_ST].l2_requests - pr.op[SF_ST].l2_requests_merged, 292968, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_sectors - pr.op[SF_ST].l2_sectors_merged, 292968, 0);
    CHECK_EQ_I(sf_expect(wo, &pr, SF_ST, &e), 1);
    /* stores: min(1, 3.1 x 16^-0.6) = 0.5873 of 292968 = 172072.1 */
    CHECK_NEAR(e.l2_requests, 624999 - 172072, 0);
    CHECK_NEAR(e.l2_sectors, 1562498 - 172072, 0);
    CHECK_NEAR(e.l1_hits, pr.op[SF_ST].hits, 0);
    CHECK_EQ_I(sf_expect(wo, &pr, SF_LD, &e), 0);
    CHECK_EQ_I(sf_expect(sf_find("patterns", "coalesced_ca"), &pr, SF_LD, &e), 0);
}

/* write_range64, N 4096 (16 words a warp: 64 B, two warps a 128 B line, 256
 * warps), WPB 4: 256 requests, one L2 request and 2 sectors each; 128 lines,
 * so 128 requests merge at WPB 4 (every opportunity) and the sectors none
 * (the two halves of a line share no sector); at WPB 16, min(1, 3.1 x
 * 16^-0.6) = 0.5873 of the 128 shared lines (75.2, rounded to 75).  Its
 * loads have no expectation. */
static void test_range64_hand(void)
{
    sf_prediction pr;
    sf_expected e;
    const sf_variant *v = sf_find("patterns", "write_range64");
    CHECK(v != NULL);
    predict_cfg("patterns", "write_range64", 4096, 4, 0, &pr);
    CHECK_NEAR(pr.op[SF_ST].requests, 256, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_requests, 256, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_requests_merged, 128, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_sectors, 512, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_sectors_merged, 512, 0);
    CHECK_EQ_I(sf_expect(v, &pr, SF_ST, &e), 1);
    CHECK_NEAR(e.l2_requests, 128, 0);
    CHECK_NEAR(e.l2_sectors, 512, 0);
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 0);
    predict_cfg("patterns", "write_range64", 4096, 16, 0, &pr);
    CHECK_EQ_I(sf_expect(v, &pr, SF_ST, &e), 1);
    CHECK_NEAR(e.l2_requests, 256 - 75, 0);
    CHECK_NEAR(e.l2_sectors, 512, 0);
    /* reread_nc keeps the per-request count up to WPB 4 (see sector_expect.c) */
    predict_cfg("patterns", "reread_nc", 4096, 4, 0, &pr);
    CHECK_EQ_I(sf_expect(sf_find("patterns", "reread_nc"), &pr, SF_LD, &e), 0);
}

/* The warps' order (sector_expect.h, SF_MERGE_OFF_REV_*), by hand: offset_ca
 * at offset 28 words (112 B), N 8220 (8192 threads: 256 warps, 32 blocks of
 * 8).  Warp j of a block reads sector 3 of line j and all of line j + 1;
 * warp j - 1 read line j up to byte 112, sector 3 included.  In the walk's
 * order warp j hits that sector: 9 requests a block (warp 0 two), 288, and
 * 9 lines, nothing to merge.  Reversed, warp j comes first and misses it,
 * and warp j - 1 still needs sectors 0-2 of line j: 2 requests a warp, 512.
 * Expected: 288 + 2/5 x 224 = 377.6 -> 378, then 3/10 of its 90
 * opportunities (27) merge: 351, 63 more than the walk's order (the seeds
 * measured 0.21 to 0.24 a warp more at offsets 28 and 29, WPB 11 to 20).
 * reread_nc at WPB 8 (N 4096: 1024 threads, 32 warps, 4 blocks) takes the
 * same rule: its even warp's part of the shared line is that sector alone,
 * so the reversed order is the merged count. */
static void test_offset_orders(void)
{
    sf_prediction pr;
    sf_expected e;
    const sf_variant *v = sf_find("patterns", "offset_ca");
    predict_cfg("patterns", "offset_ca", 8220, 8, 28, &pr);
    CHECK_NEAR(pr.op[SF_LD].requests, 256, 0);
    CHECK_NEAR(pr.op[SF_LD].l2_requests, 288, 0);
    CHECK_NEAR(pr.op[SF_LD].l2_requests_merged, 288, 0);
    CHECK_NEAR(pr.op[SF_LD].l2_requests_rev, 512, 0);
    CHECK_NEAR(sf_offset_order_requests(&pr.op[SF_LD], 8), 378, 0);
    CHECK_NEAR(sf_offset_order_requests(&pr.op[SF_LD], 4), 288, 0);
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 1);
    CHECK_NEAR(e.l2_requests, 351, 0);
    const sf_variant *rn = sf_find("patterns", "reread_nc");
    predict_cfg("patterns", "reread_nc", 4096, 8, 0, &pr);
    CHECK_NEAR(pr.op[SF_LD].l2_requests_rev, pr.op[SF_LD].l2_requests_merged, 0);
    CHECK_EQ_I(sf_expect(rn, &pr, SF_LD, &e), 1);
    const double per = sf_offset_order_requests(&pr.op[SF_LD], 8);
    CHECK_NEAR(e.l2_requests, per - sf_merge_share(per - pr.op[SF_LD].l2_requests_merged, 3, 10), 0);
}

/* Rows of copy and patterns: the config with N read back. */
static void test_row_cfg(void)
{
    sf_expected e;
    char err[256] = "";
    CHECK_EQ_I(sf_expect_row("copy", "batch_restrict", "batch=8", 4000037, 8, "st", &e, err, sizeof err), 1);
    CHECK_NEAR(e.l2_requests, 907154, 0);
    CHECK_EQ_I(sf_expect_row("copy", "batch_restrict", "batch=8", 4000037, 8, "ld", &e, err, sizeof err), 0);
    CHECK_EQ_I(sf_expect_row("patterns", "offset_ca", "offset=1", 10000019, 4, "ld", &e, err, sizeof err), 1);
    CHECK_NEAR(e.l2_requests, 390624, 0);
    CHECK_EQ_I(sf_expect_row("copy", "batch_restrict", "stride=8", 4000037, 8, "st", &e, err, sizeof err), -1);
    CHECK_EQ_I(sf_expect_row("copy", "batch_restrict", "batch=8x", 4000037, 8, "st", &e, err, sizeof err), -1);
    CHECK_EQ_I(sf_expect_row("copy", "batch_restrict", "batch=8", 0, 8, "st", &e, err, sizeof err), -1);
    CHECK_EQ_I(sf_expect_row("copy", "int4", "batch=6", 4000037, 8, "st", &e, err, sizeof err), -1);
}

/* The warps an SM holds: the first wave's blocks an SM gets, capped by 32
 * blocks and 64 warps; and the share's power law, capped at 1. */
static void test_resident(void)
{
    sf_prediction pr;
    memset(&pr, 0, sizeof pr);
    pr.sms = 132;
    const unsigned long long cases[][3] = {
        /* blocks, WPB, W */
        {500, 4, 16}, {2, 19, 19}, {2000, 1, 16}, {63, 32, 32}, {1000, 2, 16}, {10000, 1, 32},
        {10000, 4, 64}, {133, 8, 16}, {132, 8, 8}, {1, 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pr.blocks = cases[i][0];
        pr.warps = cases[i][0] * cases[i][1];
        CHECK_NEAR(sf_resident_warps(&pr), (double)cases[i][2], 0);
    }
    pr.blocks = pr.warps = 0;
    CHECK_NEAR(sf_resident_warps(&pr), 0, 0);
    CHECK_NEAR(sf_resident_warps(NULL), 0, 0);
    CHECK_NEAR(sf_merge_power_share(0.84, 0.26, 16), 0.84 * 0.486327, 1e-6);
    CHECK_NEAR(sf_merge_power_share(SF_MERGE_LD_A, SF_MERGE_LD_B, 2), 1, 0);   /* 1.40, capped */
    CHECK_NEAR(sf_merge_power_share(SF_MERGE_LD_A, SF_MERGE_LD_B, 16), 2.2 * 0.1649385, 1e-6);
    CHECK_NEAR(sf_merge_power_share(SF_MERGE_LD_A, SF_MERGE_LD_B, 32), 2.2 * 0.105112, 1e-6);
    CHECK_NEAR(sf_merge_power_share(SF_MERGE_LD_A, SF_MERGE_LD_B, 0), 0, 0);
}

/* The mean over the warps' orders (sf_order_requests): deriv0 160 x 1, R 1,
 * lead pad (idx = 32 + i0: warp w's centres fill line w + 1), WPB 5, one
 * block.  In the walk's order every centre load is a request (5) and only
 * warp 0's halo in[idx-1] misses (line 0, sector 3): 6; warps descending, 6;
 * warp by warp ascending, 6 (each halo sector was fetched by the warp
 * before).  Warp by warp descending each warp's halo comes before the warp
 * below fetched its line: 5 centres + 5 halos = 10, and warps 0-3 still
 * request their own lines (the sector 3 they miss is one request with
 * sectors 0-2): 10.  A block of 5 warps (more than the 4 schedulers) takes
 * the mean of the four, 7; the lines of the block are lines 0-5 (6), the
 * opportunity 1, W 5: min(1, 2.2 x 5^-0.65) = 0.77, x 0.7 for 5 warps on
 * 4 schedulers (sf_smsp_even_factor), 0.54, rounds it to 1: 6.
 * At WPB 4 or fewer the mean is of the two instruction-major orders. */
static void test_orders(void)
{
    const sf_variant *v = sf_find("stencil", "deriv0");
    sf_prediction pr;
    predict_pad("deriv0", 160, 1, 5, 1, &pr);
    const sf_counts *k = &pr.op[SF_LD];
    CHECK_NEAR(k->l2_requests, 6, 0);
    CHECK_NEAR(k->l2_requests_rev, 6, 0);
    CHECK_NEAR(k->l2_requests_wm, 6, 0);
    CHECK_NEAR(k->l2_requests_wm_rev, 10, 0);
    CHECK_NEAR(k->l2_requests_merged, 6, 0);
    CHECK_NEAR(k->hits, 4 + 4 * 5, 0);   /* the halos' 25 sectors but warp 0's line-0 one, in any order */
    CHECK_NEAR(sf_order_requests(k, 5), 7, 0);
    CHECK_NEAR(sf_order_requests(k, 4), 6, 0);
    sf_expected e;
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 1);
    CHECK_NEAR(e.l2_requests, 6, 0);
    /* the stores keep the walk's order: the four counts are for loads only */
    CHECK_NEAR(pr.op[SF_ST].l2_requests_wm_rev, 0, 0);
    /* deriv1 keeps the walk's order too */
    CHECK_NEAR(sf_order_requests(&(sf_counts){.l2_requests = 3, .l2_requests_rev = 2}, 2), 3, 0);
}

/* deriv1 32 x 2, R 1, WPB 1 (ld 34, one halo row each side): block 0
 * loads row 1 (floats 35..66: sectors 4-8, lines 1-2) then row 0 (1..32:
 * sectors 0-4, lines 0-1; sector 4 hits), block 1 row 2 (69..100: sectors
 * 8-12, lines 2-3) then row 1 (sector 8 hits).  Per request 9 + 9 = 18
 * sectors and 3 + 3 = 6 requests; the grid's distinct ones are sectors 0-12
 * (13) and lines 0-3 (4).  Two blocks, one an SM: W 1, sectors
 * min(1, 0.36) x 5 = 1.8 -> 2 joined (16), requests 0.92 x 2 = 1.84 -> 2
 * (4).  deriv0 does not count the grid. */
static void test_lrc(void)
{
    const sf_variant *v = sf_find("stencil", "deriv1");
    sf_prediction pr;
    predict("deriv1", 32, 2, 1, &pr);
    const sf_counts *k = &pr.op[SF_LD];
    CHECK_NEAR(k->l2_sectors, 18, 0);
    CHECK_NEAR(k->l2_requests, 6, 0);
    CHECK_NEAR(k->l2_sectors_grid, 13, 0);
    CHECK_NEAR(k->l2_requests_grid, 4, 0);
    CHECK_NEAR(sf_resident_warps(&pr), 1, 0);
    sf_expected e;
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 1);
    CHECK_NEAR(e.l2_sectors, 16, 0);
    CHECK_NEAR(e.l2_requests, 4, 0);
    CHECK_NEAR(e.l1_hits, 2, 0);
    CHECK_NEAR(pr.op[SF_ST].l2_sectors_grid, 0, 0);
    predict("deriv0", 32, 2, 1, &pr);
    CHECK_NEAR(pr.op[SF_LD].l2_sectors_grid, 0, 0);
    /* 32 x 20 at WPB 5 (uneven over the schedulers): four blocks of five
     * rows, one an SM, W 5.  The walk: 105 sectors and 44 requests per
     * request over 90 and 23 distinct.  Sectors take no schedulers' factor:
     * 0.36 x 5^-0.35 = 0.205 of 15 is 3 (102; with 0.7 it would be 2);
     * requests take it: 0.7 x 0.92 x 5^-0.40 = 0.338 of 21 is 7 (37; 34
     * without it). */
    predict("deriv1", 32, 20, 5, &pr);
    k = &pr.op[SF_LD];
    CHECK_NEAR(k->l2_sectors, 105, 0);
    CHECK_NEAR(k->l2_sectors_grid, 90, 0);
    CHECK_NEAR(k->l2_requests, 44, 0);
    CHECK_NEAR(k->l2_requests_grid, 23, 0);
    CHECK_NEAR(sf_resident_warps(&pr), 5, 0);
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 1);
    CHECK_NEAR(e.l2_sectors, 102, 0);
    CHECK_NEAR(e.l2_requests, 37, 0);
}

/* deriv1's grid counts (l2_sectors_grid, l2_requests_grid) on geometries
 * nobody picked, against a count that does not walk: its loads read array
 * rows 0 to N1 + 2R - 2 of the layout (H = R halo rows above), columns R to
 * R + N0 - 1 of each, so the distinct sectors and lines are those of these
 * row segments, found with a bitmap over the array (the layout's rule is
 * variants.h's: ld = N0 + 2R, rounded up to 32 floats with the
 * leading-dimension pad; the lead pad puts point (0, 0) at a multiple of 32
 * floats). */
static void test_grid_random(void)
{
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    const sf_variant *v = sf_find("stencil", "deriv1");
    CHECK(v != NULL);
    for (int it = 0; it < 40 && v; it++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        const unsigned n0 = 17 + (unsigned)((rng >> 33) % 200), n1 = 1 + (unsigned)((rng >> 17) % 12);
        const unsigned R = 1 + (unsigned)((rng >> 9) % 4), wpb = 1 + (unsigned)((rng >> 45) % 12);
        const int lead_pad = (int)((rng >> 3) & 1), pad_ld = (int)((rng >> 5) & 1);
        uint64_t ld = n0 + 2ull * R;
        if (pad_ld) ld = (ld + 31) / 32 * 32;
        const uint64_t lead = lead_pad ? (32 - ((uint64_t)R * ld + R) % 32) % 32 : 0;
        const uint64_t size = lead + (n1 + 2ull * R) * ld;
        const size_t nsec = (size_t)(4 * size / 32 + 1);
        unsigned char *sec = calloc(nsec, 1);
        CHECK(sec != NULL);
        if (!sec) return;
        double secs = 0, lines = 0;
        for (uint64_t row = 0; row + 1 < n1 + 2ull * R; row++) {
            const uint64_t a = lead + row * ld + R, b = a + n0 - 1;
            for (uint64_t x = 4 * a / 32; x <= 4 * b / 32; x++)
                if (!sec[x]) { sec[x] = 1; secs += 1; }
        }
        for (size_t x = 0; x < nsec; x += 4)
            lines += sec[x] | (x + 1 < nsec && sec[x + 1]) | (x + 2 < nsec && sec[x + 2]) | (x + 3 < nsec && sec[x + 3]);
        free(sec);
        sf_params p;
        sf_params_default(&p);
        p.n0 = n0;
        p.n1 = n1;
        p.n = (uint64_t)n0 * n1;
        p.radius = R;
        p.wpb = wpb;
        p.lead_pad = lead_pad;
        p.pad_ld = pad_ld;
        sf_prediction pr;
        char err[256] = "";
        CHECK(sf_predict(v, &p, &pr, err, sizeof err) == 0);
        CHECK_NEAR(pr.op[SF_LD].l2_sectors_grid, secs, 0);
        CHECK_NEAR(pr.op[SF_LD].l2_requests_grid, lines, 0);
        /* the fewest: never above the per-request counts */
        CHECK(pr.op[SF_LD].l2_sectors_grid <= pr.op[SF_LD].l2_sectors);
        CHECK(pr.op[SF_LD].l2_requests_grid <= pr.op[SF_LD].l2_requests);
    }
}

/* The schedulers' spread (sf_smsp_even_factor): 1 up to 4 warps a block and
 * at multiples of 4, 0.7 otherwise.  A deriv0 launch of one block (132 SMs)
 * whose four orders all give 120 requests over 20 merged lines (opportunity
 * 100): at WPB 8 (W 8, even) 2.2 x 8^-0.65 = 0.569 of it merges, 57 (63
 * left); at WPB 6 (W 6, two schedulers hold two warps, two hold one)
 * 0.7 x 2.2 x 6^-0.65 = 0.7 x 0.686 = 0.481, 48 (72 left). */
static void test_smsp_even(void)
{
    const double even[][2] = {{1, 1}, {3, 1}, {4, 1}, {5, 0.7}, {6, 0.7}, {7, 0.7}, {8, 1},
                              {12, 1}, {14, 0.7}, {31, 0.7}, {32, 1}};
    for (size_t i = 0; i < sizeof even / sizeof even[0]; i++)
        CHECK_NEAR(sf_smsp_even_factor(even[i][0]), even[i][1], 0);
    const sf_variant *v = sf_find("stencil", "deriv0");
    sf_prediction pr;
    memset(&pr, 0, sizeof pr);
    pr.sms = 132;
    pr.blocks = 1;
    sf_counts *k = &pr.op[SF_LD];
    k->l2_requests = k->l2_requests_rev = k->l2_requests_wm = k->l2_requests_wm_rev = 120;
    k->l2_requests_merged = 20;
    k->l2_sectors = 300;
    sf_expected e;
    pr.warps = 8;
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 1);
    CHECK_NEAR(e.l2_requests, 63, 0);
    CHECK_NEAR(e.l2_sectors, 300, 0);
    pr.warps = 6;
    CHECK_EQ_I(sf_expect(v, &pr, SF_LD, &e), 1);
    CHECK_NEAR(e.l2_requests, 72, 0);
}

int main(void)
{
    test_resident();
    test_smsp_even();
    test_lrc();
    test_grid_random();
    test_copy_share();
    test_copy_hand();
    test_copy_probe();
    test_open_partial();
    test_offset_probe();
    test_random_hits();
    test_range64_hand();
    test_offset_orders();
    test_row_cfg();
    test_share();
    test_hand();
    test_probe();
    test_store_share();
    test_row();
    test_orders();
    return check_report("test_sector_expect");
}
