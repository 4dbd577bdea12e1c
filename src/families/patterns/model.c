/*
 * model.c - the patterns family's sector model (sector_family.h): float a[N]
 * and out[N], the load, write and struct patterns of patterns.cu, the
 * figures of labs 001 (bus utilization, write transactions) and 002 (the
 * coalescing scenarios), and its ncu recipe.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_family.h"
#include "sector_expect.h"
#include "sector_perm.h"
#include "patterns.h"
#include "variants.h"

#include <stddef.h>
#include <stdio.h>

extern const struct fam_model fam_model_patterns;

/* ------------------------------------------------------------ generators */

/* The word lane l of warp w (thread t) loads; param: the variant's PT_*. */
static uint64_t load_word(const sf_ctx *c, uint64_t w, uint64_t t, unsigned l)
{
    static const unsigned spread_base[4] = { 0, 32, 64, 120 };
    switch (c->v->param) {
    case PT_PERMUTED: return (t & ~(uint64_t)31) | ((7 * l + 3) & 31);
    case PT_OFFSET: return t + c->cfg;
    case PT_BROADCAST: return 32 * w;
    case PT_RANDOM: return ro_perm(t, c->n, c->half, c->p->seed);
    case PT_SPREAD: return 128 * w + spread_base[l / 8] + l % 8;
    case PT_STRADDLE: return 128 * w + 24 + l;
    case PT_REREAD: return 128 * (w / 2) + (w % 2 ? 0 : 24) + l;
    default: return t;
    }
}

/* The word it stores; param: the variant's PT_W_*. */
static uint64_t write_word(const sf_ctx *c, uint64_t w, uint64_t t, unsigned l)
{
    switch (c->v->param) {
    case PT_W_SCATTER192: /* bytes 0-31, 64-127, 160-191 of a 256 B window */
        return 64 * w + (l < 8 ? l : l < 24 ? 16 + (l - 8) : 40 + (l - 24));
    case PT_W_RANGE64: return 16 * w + l / 2;
    case PT_W_OFFSET: return t + c->cfg;
    case PT_W_STRIDED: return t * c->cfg;
    default: return t;
    }
}

/* One access of 4 B per lane, op on array, at the words word() gives. */
static int one_access(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a, int op, int array,
                      uint64_t (*word)(const sf_ctx *, uint64_t, uint64_t, unsigned))
{
    if (k > 0)
        return 0;
    sf_acc_begin(a, op, array, 4);
    SF_FOR_LANES(c, w, t, l)
        sf_acc_lane(a, l, 4 * word(c, w, t, l));
    return 1;
}

/* The random gather's permutation (sector_perm.h), kept per thread for the
 * (N, seed) of the last call, as readonly's random_access keeps it. */
static _Thread_local sf_perm perm_cache;
static _Thread_local int perm_ready;

/* The load patterns (one LDG of a) and the write patterns (one STG of out).
 * The random gather permutes a warp's words at once: the same ro_perm values
 * (sf_perm_many), several times faster than one lane at a time. */
static int g_load_pattern(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    if (c->v->param != PT_RANDOM || k > 0)
        return one_access(c, w, k, a, SF_LD, 0, load_word);
    if (!perm_ready || perm_cache.n != c->n || perm_cache.seed != c->p->seed) {
        sf_perm_init(&perm_cache, c->n, c->p->seed);
        perm_ready = 1;
    }
    uint64_t x[32];
    unsigned m = 0;
    SF_FOR_LANES(c, w, t, l)
        x[m++] = t;   /* the working lanes are 0 .. m - 1 */
    sf_perm_many(&perm_cache, x, m);
    sf_acc_begin(a, SF_LD, 0, 4);
    for (unsigned l = 0; l < m; l++)
        sf_acc_lane(a, l, 4 * x[l]);
    return 1;
}

static int g_write_pattern(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    return one_access(c, w, k, a, SF_ST, 1, write_word);
}

/* AoS / SoA of F floats (param: F in the low nibble, the form in the high
 * one, the variant's PT_* less PT_AOS_ONE). */
enum { S_AOS_ONE, S_AOS_ALL, S_SOA_ONE, S_SOA_ALL, S_AOS_VEC };

static int g_struct(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const unsigned F = c->v->param & 15, form = c->v->param >> 4;
    const unsigned nk = form == S_AOS_ALL || form == S_SOA_ALL ? F : 1;
    if (k >= nk)
        return 0;
    sf_acc_begin(a, SF_LD, 0, form == S_AOS_VEC ? 4 * F : 4);
    SF_FOR_LANES(c, w, t, l)
    {
        uint64_t off;
        switch (form) {
        case S_AOS_ONE: off = 4 * (t * F); break;
        case S_AOS_ALL: off = 4 * (t * F + k); break;
        case S_SOA_ONE: off = 4 * t; break;
        case S_SOA_ALL: off = 4 * (k * c->items + t); break;
        default: off = (uint64_t)4 * F * t; break;
        }
        sf_acc_lane(a, l, off);
    }
    return 1;
}

/* ------------------------------------------------------------ the table */

#define PM_L(N, PT, ABOUT, CFG, CFGD, RULE)                                                        \
    { &fam_model_patterns, #N "_ca", CFG, CFGD, RULE " (ld.global.ca)", g_load_pattern,          \
      SF_PATH_CA, PT },                                                                          \
    { &fam_model_patterns, #N "_cg", CFG, CFGD, RULE " (ld.global.cg: L2 only)", g_load_pattern, \
      SF_PATH_CG, PT },                                                                          \
    { &fam_model_patterns, #N "_nc", CFG, CFGD, RULE " (ld.global.nc: read-only path)",          \
      g_load_pattern, SF_PATH_NC, PT },
#define PM_W(N, PT, ABOUT, CFG, CFGD, RULE) \
    { &fam_model_patterns, #N, CFG, CFGD, RULE, g_write_pattern, 0, PT },
#define PM_S(N, PT, F, ABOUT, RULE) \
    { &fam_model_patterns, #N, SF_CFG_NONE, NULL, RULE, g_struct, SF_PATH_CA, ((PT - PT_AOS_ONE) << 4) | F },

static const sf_variant PATTERNS_MODEL[] = { PATTERNS_VARIANTS(PM_L, PM_W, PM_S) };

static int patterns_setup(sf_ctx *c, const sf_variant *v, const sf_params *p,
                          sf_prediction *out, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const uint64_t N = p->n;
    /* shared lines: who comes first misses (sector_expect.h), for the variants
     * whose expected count reads the other orders only (each is a walk more) */
    c->orders = sf_expect_orders(v);
    if (v->gen == g_load_pattern) {
        c->items = patterns_items(v->param, v->cfg == SF_CFG_OFFSET ? p->cfg : 0, N);
        c->half = ro_perm_half_bits(N);
        /* random loads through L1: cross-block reuse in an SM's L1 is statistical */
        out->hit_tol_frac = v->param == PT_RANDOM && v->path != SF_PATH_CG ? 0.005 : 0;
    } else if (v->gen == g_write_pattern) {
        c->items = patterns_items(v->param, v->cfg != SF_CFG_NONE ? p->cfg : 0, N);
    } else {
        c->items = N / (v->param & 15);
    }
    return 0;
}

/*
 * The offset patterns (offset_*: loads of a[t + off]; write_offset: stores
 * of out[t + off]) counted without their L2 walk: the L1 side of the whole
 * blocks by sf_count_blocks (each block is the one before it moved by
 * 128 WPB floats), the partial block walked, and the DRAM in closed form.
 * Why the closed form is the walk's LRU, to the sector: thread t touches
 * word t + off and there is one instruction per warp, so the walk (blocks in
 * order, warps in order) meets the words [off, off + items) in increasing
 * order, and a warp's 128 B span one line or two.  A line is touched by one
 * warp or by two that follow each other, with no other line between its
 * first and its last touch; so with room for 2 lines it is never evicted
 * while it is still to be touched, and it leaves in the order of its number.
 * Loads: each granule touched is fetched once (L1 hits only skip sectors
 * whose granule the block just fetched), so the DRAM reads are the granules
 * of the byte range times their sectors.  Stores: the lines still resident
 * at the end are the last cap lines of the range, and the walk writes back
 * only the lines it evicts: the first ones, whole lines but for the first;
 * every sector of theirs is dirty, and only the first can be partial (the
 * range ends past them).  Tested against the walk (test_sector_count.c).
 */
static int offset_stream(const sf_ctx *c, sf_blocks *B, sf_prediction *out, uint64_t tpb, int store,
                         char *err, size_t errlen)
{
    const uint64_t cap = c->p->l2_bytes / 128, full = c->items / tpb;
    if (cap < 2)
        return 1;   /* the walk's L2 of one line: the run below walks it */
    if (store && cap / SF_L2_PARTIAL_SHARE < 2)
        return 1;   /* room for one partly written line: the first line's is written back
                       (and filled) when the next partial one comes, as the walk does */
    if (!B)
        return 0;
    if (sf_count_blocks(B, 0, full, err, errlen) ||
        sf_count_blocks(B, full, out->blocks - full, err, errlen))
        return -1;
    const uint64_t lo = 4 * c->cfg, hi = 4 * (c->cfg + c->items);   /* the bytes touched */
    if (!store) {
        const uint64_t g = c->p->granule_bytes;
        out->dram_read_sectors = (double)(((hi - 1) / g - lo / g + 1) * (g / 32));
        return 0;
    }
    const uint64_t first = lo / 128, lines = (hi - 1) / 128 - first + 1;
    if (lines > cap) {
        const uint64_t end = (first + lines - cap) * 128;   /* the evicted lines end here */
        out->dram_write_sectors = (double)(end / 32 - lo / 32);
        out->dram_partial_sectors = lo % 32 ? 1 : 0;
    }
    return 0;
}

/* The walk's numbers without the walk (fam_model.count, sf_count_run): every
 * pattern but the random gather gives lane l of warp w an address that is
 * a constant times t (or w) plus what depends on l and the configuration
 * only, so each block whose lanes all work is the one before it moved by
 * one block's worth of that constant: one run of those blocks, then the
 * partial one.  reread (warps in pairs) and write_range64 (64 B a warp)
 * move by whole lines only when WPB is even; else the walk predicts.  The
 * random gather's blocks are all different: sf_count_loads takes each once,
 * the offset patterns have a closed form (offset_stream). */
static int patterns_count(const sf_ctx *c, sf_blocks *B, sf_prediction *out, char *err,
                          size_t errlen)
{
    const sf_variant *v = c->v;
    const uint64_t wpb = c->p->wpb, tpb = 32 * wpb;
    uint64_t step;   /* bytes one block moves its array by */
    int array = 0;
    if (v->gen == g_load_pattern) {
        switch (v->param) {
        case PT_RANDOM:   /* loads only: every block once, the L2 as times */
            return B ? sf_count_loads(B, err, errlen) : 0;
        case PT_SPREAD: case PT_STRADDLE: step = wpb * 512; break;
        case PT_REREAD: if (wpb % 2) return 1; step = wpb / 2 * 512; break;
        case PT_OFFSET: {
            const int r = offset_stream(c, B, out, tpb, 0, err, errlen);
            if (r <= 0) return r;
            step = tpb * 4;
            break;
        }
        default: step = tpb * 4; break;   /* coalesced, permuted, broadcast */
        }
    } else if (v->gen == g_write_pattern) {
        array = 1;
        switch (v->param) {
        case PT_W_SCATTER192: step = wpb * 256; break;
        case PT_W_RANGE64: if (wpb % 2) return 1; step = wpb * 64; break;
        case PT_W_STRIDED: step = tpb * c->cfg * 4; break;
        case PT_W_OFFSET: {
            const int r = offset_stream(c, B, out, tpb, 1, err, errlen);
            if (r <= 0) return r;
            step = tpb * 4;
            break;
        }
        default: step = tpb * 4; break;   /* coalesced */
        }
    } else {
        const unsigned F = v->param & 15, form = v->param >> 4;
        step = tpb * 4 * (form == S_AOS_ONE || form == S_AOS_ALL || form == S_AOS_VEC ? F : 1);
    }
    if (!B)
        return 0;
    const uint64_t shift[2] = {array ? 0 : step, array ? step : 0}, full = c->items / tpb;
    if (sf_count_run(B, 0, full, shift, err, errlen))
        return -1;
    for (uint64_t b = full; b < out->blocks; b++)
        if (sf_count_run(B, b, 1, shift, err, errlen))
            return -1;
    return 0;
}

/* One random configuration of v (bin/model_check): N and WPB from the
 * documented ranges, an offset 0..63 (offset_*, write_offset) or a stride
 * 1..257 (write_strided). */
static int patterns_draw(const sf_variant *v, uint64_t *rng, sf_draw *out, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    sf_draw_begin(out, rng);
    const char *opt = NULL;
    if (v->cfg == SF_CFG_OFFSET) {
        out->p.cfg = sf_rand_range(rng, 0, SF_DRAW_OFFSET_MAX);
        opt = "--offset";
    } else if (v->cfg == SF_CFG_STRIDE) {
        out->p.cfg = sf_rand_range(rng, 1, SF_DRAW_STRIDE_MAX);
        opt = "--stride";
    }
    sf_draw_line(out, v, opt);
    return 0;
}

/* The labs profiled whole warps: 2^16 elements, 2^20 for the random gather. */
static void patterns_lab_params(const sf_lab *e, const sf_variant *v, sf_params *out)
{
    (void)e;
    out->n = v->gen == g_load_pattern && v->param == PT_RANDOM ? 1 << 20 : 1 << 16;
    out->grid_blocks = 0;
}

/* ------------------------------------------------------------ lab figures */

#define ANY SF_LAB_ANY_CFG
#define MIS SF_LAB_MISALIGNED
#define PAT(var, cfg, op, q, v, src, what, h) { var, cfg, 0, 0, -1, -1, op, q, v, src, what, h }

static const char H_SECTORED[] =
    "the H100 L1 moves 32 B sectors, not 128 B lines: the figure is bytes asked / sectors moved";

static const sf_lab PATTERNS_LABS[] = {
    /* 001: bus utilization, cached (L1) and uncached (L2 only) loads */
    PAT("coalesced_ca", ANY, SF_LD, SFQ_L1_UTIL_PCT, 100, "001", "aligned, coalesced, cached: 100 %", NULL),
    PAT("coalesced_cg", ANY, SF_LD, SFQ_L1_UTIL_PCT, 100, "001", "aligned, coalesced, uncached: 100 %", NULL),
    PAT("permuted_ca", ANY, SF_LD, SFQ_L1_UTIL_PCT, 100, "001", "aligned, not consecutive, cached: 100 %", NULL),
    PAT("permuted_cg", ANY, SF_LD, SFQ_L1_UTIL_PCT, 100, "001", "aligned, not consecutive, uncached: 100 %", NULL),
    PAT("offset_ca", MIS, SF_LD, SFQ_L1_UTIL_PCT, 50, "001", "consecutive, misaligned, cached: 50 %",
        H_SECTORED),
    PAT("offset_cg", MIS, SF_LD, SFQ_L1_UTIL_PCT, 80, "001", "consecutive, misaligned, uncached: 80 %",
        "an offset that is a multiple of 8 floats starts on a sector: 4 sectors, 100 %"),
    PAT("broadcast_ca", ANY, SF_LD, SFQ_L1_UTIL_PCT, 3.125, "001", "one address, cached: 3.125 %",
        H_SECTORED),
    PAT("broadcast_cg", ANY, SF_LD, SFQ_L1_UTIL_PCT, 12.5, "001", "one address, uncached: 12.5 %", NULL),
    PAT("random_ca", ANY, SF_LD, SFQ_L1_UTIL_PCT, 0.02, "001", "32 random addresses, cached: 0.02 %",
        "32 words in 32 sectors: 128 B asked / 1024 B moved = 12.5 %"),
    PAT("random_cg", ANY, SF_LD, SFQ_L1_UTIL_PCT, 3.9, "001", "32 random addresses, uncached: 3.9 %",
        "32 words in 32 sectors: 128 B asked / 1024 B moved = 12.5 %"),
    /* 001: write transactions (segments = sectors; transactions = L2 requests) */
    PAT("write_coalesced", ANY, SF_ST, SFQ_L2_REQ_PER_REQ, 1, "001", "one 4-segment transaction", NULL),
    PAT("write_coalesced", ANY, SF_ST, SFQ_SECTORS_PER_REQ, 4, "001", "4 segments", NULL),
    PAT("write_scatter192", ANY, SF_ST, SFQ_L2_REQ_PER_REQ, 3, "001",
        "scattered over 192 B: 2 one-segment + 1 two-segment transactions",
        "L1 sends one write request per 128 B line with a sector mask: 2 requests"),
    PAT("write_scatter192", ANY, SF_ST, SFQ_SECTORS_PER_REQ, 4, "001", "4 segments in all", NULL),
    PAT("write_range64", ANY, SF_ST, SFQ_L2_REQ_PER_REQ, 1, "001", "64 B range: one 2-segment transaction",
        NULL),
    PAT("write_range64", ANY, SF_ST, SFQ_SECTORS_PER_REQ, 2, "001", "2 segments", NULL),
    /* 002: the five coalescing scenarios (128 B bus: a "cycle" is one line) */
    PAT("permuted_*", ANY, SF_LD, SFQ_L1_UTIL_PCT, 100, "002", "scenario 1: 100 %", NULL),
    PAT("permuted_*", ANY, SF_LD, SFQ_L2_REQ_PER_REQ, 1, "002", "scenario 1: 1 cycle", NULL),
    PAT("broadcast_*", ANY, SF_LD, SFQ_L1_UTIL_PCT, 3.125, "002", "scenario 2: 3.125 %", H_SECTORED),
    PAT("broadcast_*", ANY, SF_LD, SFQ_L2_REQ_PER_REQ, 1, "002", "scenario 2: 1 cycle", NULL),
    PAT("straddle_*", ANY, SF_LD, SFQ_L1_UTIL_PCT, 50, "002", "scenario 3 (bytes 96-223): 50 %",
        "bytes 96-223 are exactly 4 sectors: 100 %"),
    PAT("straddle_*", ANY, SF_LD, SFQ_L2_REQ_PER_REQ, 2, "002", "scenario 3: 2 cycles", NULL),
    PAT("reread_*", ANY, SF_LD, SFQ_DRAM_UTIL_PCT, 100, "002", "scenario 4: 100 % overall (L2 reuse)",
        NULL),
    PAT("spread_*", ANY, SF_LD, SFQ_L1_UTIL_PCT, 4, "002", "scenario 5 (spread over 512 B): 4 %",
        "4 sectors hold exactly the 128 B asked: 100 %"),
    PAT("spread_*", ANY, SF_LD, SFQ_L2_REQ_PER_REQ, 4, "002", "scenario 5: 4 cycles", NULL),
};

/* ------------------------------------------------------------ ncu recipe */

/* One run: every modelled variant in every default configuration.
 * --quick: the offsets 0, 1, 16 and 32 and the strides 1, 2 and 32, and
 * not the _nc loads (the read-only path: on sm_90 the _ca rows' L1 path,
 * and no lab figure names them): 46 profiled launches instead of 176.  ncu
 * costs about a quarter of a second a launch whatever the kernel (65
 * launches took 14 s on an H200, data/reference/h200/runlogs/issue37/). */
static const sf_ncu_run PATTERNS_NCU[] = {
    { "main", "{N} 0 {WPB} --kernel {V}", "^patterns_({V|})(_b[0-9]+)?$", -1,
      "--family patterns", SF_NCU_SECTORS, SF_NCU_FULL },
    { "quick", "{N} 0 {WPB} --kernel {V-_nc} --offset 0,1,16,32 --stride 1,2,32",
      "^patterns_({V|-_nc})(_b[0-9]+)?$", -1, "--family patterns", SF_NCU_SECTORS, SF_NCU_QUICK },
};

const struct fam_model fam_model_patterns = {
    "patterns", SF_ROWS(PATTERNS_MODEL), SF_SHAPE_N, SF_N_DEFAULT, NULL, patterns_setup, patterns_lab_params,
    SF_ROWS(PATTERNS_LABS), SF_MSET_FULL, "1e7", SF_ROWS(PATTERNS_NCU), patterns_draw, patterns_count,
};
