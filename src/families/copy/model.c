/*
 * model.c - the copy family's sector model (sector_family.h): int32 in and
 * out of N elements, the address rules of copy.cu's kernels, the figures of
 * labs 000 (strides) and 004 (vector loads), and its ncu recipe.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_family.h"
#include "err.h"
#include "variants.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

extern const struct fam_model fam_model_copy;

/* ------------------------------------------------------------ generators */


/* copy: stride (out[t] = in[t*S]), stride_store (out[t*S] = in[t]),
 * stride16 (int4: out4[t] = in4[t*S]). */
static int g_copy_stride(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    if (k > 1)
        return 0;
    const unsigned e = c->v->param == 1 ? 16 : 4; /* param 1: stride16, 2: stride_store */
    const int scatter_store = c->v->param == 2;
    sf_acc_begin(a, k ? SF_ST : SF_LD, k ? 1 : 0, e);
    SF_FOR_LANES(c, w, t, l)
    {
        uint64_t strided = t * c->cfg, plain = t;
        uint64_t idx = (k == 0) != scatter_store ? strided : plain;
        sf_acc_lane(a, l, e * idx);
    }
    return 1;
}

/* copy: batch, batch_unrolled (LDG k, STG k alternate), batch_restrict
 * (param 1: the B loads, then the B stores); lane l of warp w touches
 * element (32w + l) * B + j. */
static int g_copy_batch(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const uint64_t B = c->cfg;
    if (k >= 2 * B)
        return 0;
    int st;
    uint64_t j;
    if (c->v->param) {
        st = k >= B;
        j = k % B;
    } else {
        st = k & 1;
        j = k / 2;
    }
    sf_acc_begin(a, st ? SF_ST : SF_LD, st, 4);
    SF_FOR_LANES(c, w, t, l)
        sf_acc_lane(a, l, 4 * (t * B + j));
    return 1;
}

/* copy: int4, thread t copies int4 elements t*(B/4) + j. */
static int g_copy_int4(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const uint64_t V = c->cfg / 4;
    if (k >= 2 * V)
        return 0;
    const int st = k & 1;
    const uint64_t j = k / 2;
    sf_acc_begin(a, st ? SF_ST : SF_LD, st, 16);
    SF_FOR_LANES(c, w, t, l)
        sf_acc_lane(a, l, 16 * (t * V + j));
    return 1;
}

/* copy: grid_scalar / grid_vector2 / grid_vector4 (param = V): for (i = t;
 * i < N/V; i += grid) copy vector i; then threads t < N mod V copy element
 * V*(N/V) + t. */
static int g_copy_grid(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const unsigned V = c->v->param;
    const uint64_t M = c->vec_items, G = c->grid_threads, base = 32 * w;
    const uint64_t iters = base < M ? (M - base + G - 1) / G : 0;
    if (k < 2 * iters) {
        const uint64_t j = k / 2;
        const int st = k & 1;
        sf_acc_begin(a, st ? SF_ST : SF_LD, st, 4 * V);
        for (unsigned l = 0; l < 32; l++) {
            uint64_t e = base + l + j * G;
            if (e < M)
                sf_acc_lane(a, l, (uint64_t)4 * V * e);
        }
        return 1;
    }
    if (w == 0 && c->rem && k < 2 * iters + 2) {
        const int st = (int)(k - 2 * iters);
        sf_acc_begin(a, st ? SF_ST : SF_LD, st, 4);
        for (unsigned l = 0; l < c->rem; l++)
            sf_acc_lane(a, l, 4 * ((uint64_t)V * M + l));
        return 1;
    }
    return 0;
}

/* copy: vector2 / vector4 (param = V): thread t < N/V copies vector t; thread
 * N/V (the remainder thread) copies the N mod V elements left, one scalar
 * LDG/STG each. */
static int g_copy_vector(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const unsigned V = c->v->param;
    const uint64_t M = c->vec_items, base = 32 * w;
    if (k < 2) {
        const int st = k & 1;
        sf_acc_begin(a, st ? SF_ST : SF_LD, st, 4 * V);
        for (unsigned l = 0; l < 32 && base + l < M; l++)
            sf_acc_lane(a, l, (uint64_t)4 * V * (base + l));
        return 1;
    }
    if (c->rem && M / 32 == w && k < 2 + 2 * (uint64_t)c->rem) {
        const unsigned i = (k - 2) / 2;
        const int st = (k - 2) & 1;
        sf_acc_begin(a, st ? SF_ST : SF_LD, st, 4);
        sf_acc_lane(a, (unsigned)(M % 32), 4 * ((uint64_t)V * M + i));
        return 1;
    }
    return 0;
}

/* patterns: the load patterns (one LDG of a, 4 B); param selects the rule. */
enum { P_COALESCED, P_PERMUTED, P_OFFSET, P_BROADCAST, P_RANDOM, P_SPREAD, P_STRADDLE, P_REREAD };

/* ------------------------------------------------------------ the table */

#define CP_MODEL(ID, NAME, ABOUT, CFG, CFGD, RULE, GEN, PARAM) \
    { &fam_model_copy, NAME, CFG, CFGD, RULE, GEN, 0, PARAM },
#define CP_SKIP(ID, NAME, ABOUT)

static const sf_variant COPY_MODEL[] = { COPY_VARIANTS(CP_MODEL, CP_SKIP) };

/* int4 copies B/4 int4 per thread: B a multiple of 4. */
static int copy_check(const sf_variant *v, const sf_params *p, char *err, size_t errlen)
{
    if (v->gen == g_copy_int4 && p->n >= 1 && p->n <= SF_MAX_N &&
        (p->cfg < 1 || p->cfg > 1024 || p->cfg > p->n || p->cfg % 4)) {
        set_err(err, errlen, "%s: batch %llu is not a multiple of 4 in 4..min(N, 1024)", v->name,
                (unsigned long long)p->cfg);
        return -1;
    }
    return sf_check_n_cfg(v, p, err, errlen);
}

static int copy_setup(sf_ctx *c, const sf_variant *v, const sf_params *p, sf_prediction *out,
                      char *err, size_t errlen)
{
    const uint64_t N = p->n;
    if (v->gen == g_copy_stride) {
        c->items = v->param == 1 ? (N / 4) / p->cfg : N / p->cfg;
    } else if (v->gen == g_copy_batch || v->gen == g_copy_int4) {
        c->items = N / p->cfg;
        /* batch and batch_unrolled (param 0): a warp's B output lines stay
         * partly written from its first store to its last, the loop storing
         * one element a lane per line and turn (sf_open_partial_fills);
         * batch_restrict (its B stores back to back) and int4 (two stores
         * finish a sector) hold theirs a moment.  batch_restrict at B = 16
         * still reads +6 to +21 % more, falling, not rising, with the
         * resident warps: not modelled. */
        if (v->gen == g_copy_batch && v->param == 0) {
            out->open_lines = (unsigned)p->cfg;
            out->open_sectors = (double)((N * 4 + 31) / 32);
        }
    } else {   /* grid-stride and vector copies */
        c->vec_items = N / v->param;
        c->rem = (unsigned)(N % v->param);
        c->items = N;
        if (v->gen == g_copy_grid) {
            uint64_t gb = p->grid_blocks ? p->grid_blocks : (uint64_t)p->sms * p->blocks_per_sm;
            if (gb == 0) {
                set_err(err, errlen, "%s: the grid has no block (give SMs and blocks per SM)",
                        v->name);
                return -1;
            }
            c->grid_threads = gb * 32 * p->wpb;
            c->threads = c->grid_threads;
            c->blocks_floor = 1;
        } else {
            c->threads = c->vec_items + (c->rem ? 1 : 0);
        }
    }
    return 0;
}

/* ------------------------------------------------------------ counting */

/* The walk's numbers without the walk (fam_model.count, sf_count_run): in
 * the strided, batch, int4 and vector copies thread t's addresses are
 * t times a constant (per array), so each block whose lanes all work is the
 * one before it moved by 32 WPB times that constant: one run of those
 * blocks, then the last ones (a partial block, the vector copies' remainder
 * thread) one by one.  In the grid-stride copies block b's warps copy
 * vectors 32 w + l + j G, j = 0, 1, ..., below M = N / V: blocks whose warps
 * make the same number of iterations, all lanes active, are moved copies of
 * each other too. */
static int copy_count(const sf_ctx *c, sf_blocks *B, sf_prediction *out, char *err, size_t errlen)
{
    const sf_variant *v = c->v;
    const uint64_t tpb = 32ull * c->p->wpb;
    uint64_t shift[2], full = c->items / tpb;
    if (v->gen == g_copy_stride) {
        const uint64_t e = v->param == 1 ? 16 : 4;
        const int strided = v->param == 2;   /* stride_store: the stores are strided */
        shift[strided] = tpb * c->cfg * e;
        shift[!strided] = tpb * e;
    } else if (v->gen == g_copy_batch) {
        shift[0] = shift[1] = tpb * c->cfg * 4;
    } else if (v->gen == g_copy_int4) {
        shift[0] = shift[1] = tpb * (c->cfg / 4) * 16;
    } else if (v->gen == g_copy_vector) {
        shift[0] = shift[1] = tpb * 4 * v->param;
        full = c->vec_items / tpb;   /* the remainder thread is past these */
    } else {   /* grid-stride: see below */
        shift[0] = shift[1] = tpb * 4 * v->param;
        if (!B)
            return 0;
        /* M = q G + r vectors: a warp whose lanes are all below r makes q + 1
         * full iterations, one whose lanes are all at r or beyond q; block 0
         * also copies the N mod V scalars, and one block may straddle r:
         * runs [0, 1), [1, r / tpb), the straddling block, the rest */
        const uint64_t r = c->vec_items % c->grid_threads, nb = out->blocks;
        uint64_t b = 0;
        const uint64_t cut[3] = {1, r / tpb, (r + tpb - 1) / tpb};
        for (int i = 0; i < 3; i++) {
            const uint64_t e = cut[i] < nb ? cut[i] : nb;
            if (e > b) {
                if (sf_count_run(B, b, e - b, shift, err, errlen))
                    return -1;
                b = e;
            }
        }
        return sf_count_run(B, b, nb - b, shift, err, errlen);
    }
    if (!B)
        return 0;
    if (sf_count_run(B, 0, full, shift, err, errlen))
        return -1;
    for (uint64_t b = full; b < out->blocks; b++)
        if (sf_count_run(B, b, 1, shift, err, errlen))
            return -1;
    return 0;
}

/* ------------------------------------------------------------ random draws */

/* One random configuration of v (bin/model_check): N and WPB from the
 * documented ranges, a stride 1..257 or a batch the variant's kernels have
 * (the rolled loop any 1..16; the unrolled and restrict kernels 1, 2, 4, 8,
 * 16, the powers of two earlier seeds drew, though every 1..16 runs; int4
 * 4, 8, 16). */
static int copy_draw(const sf_variant *v, uint64_t *rng, sf_draw *out, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    static const uint64_t POW2[] = {1, 2, 4, 8, 16}, INT4[] = {4, 8, 16};
    sf_draw_begin(out, rng);
    const char *opt = NULL;
    if (v->cfg == SF_CFG_STRIDE) {
        out->p.cfg = sf_rand_range(rng, 1, SF_DRAW_STRIDE_MAX);
        opt = "--stride";
    } else if (v->cfg == SF_CFG_BATCH) {
        if (v->gen == g_copy_int4) out->p.cfg = INT4[sf_rand_range(rng, 0, 2)];
        else if (!strcmp(v->name, "batch")) out->p.cfg = sf_rand_range(rng, 1, SF_DRAW_BATCH_MAX);
        else out->p.cfg = POW2[sf_rand_range(rng, 0, 4)];
        opt = "--batch";
    }
    sf_draw_line(out, v, opt);
    return 0;
}

/* The labs profiled whole warps: 8 warps of the stride, else 2^16 elements. */
static void copy_lab_params(const sf_lab *e, const sf_variant *v, sf_params *out)
{
    (void)e;
    out->n = 1 << 16;
    if (v->cfg == SF_CFG_STRIDE)
        out->n = 32 * 8 * out->cfg;
    out->grid_blocks = 0;
}

/* ------------------------------------------------------------ lab figures */

#define ANY SF_LAB_ANY_CFG
#define COPY(var, cfg, op, q, v, what, h) { var, cfg, 0, 0, -1, -1, op, q, v, "000", what, h }
#define COPY4(var, q, v, what) { var, ANY, 0, 0, -1, -1, SF_LD, q, v, "004", what, NULL }, \
                               { var, ANY, 0, 0, -1, -1, SF_ST, q, v, "004", what, NULL }

static const sf_lab COPY_LABS[] = {
    /* 000: copy with strides, 4 B loads, per request (one warp) */
    COPY("stride", 1, SF_LD, SFQ_SECTORS_PER_REQ, 4, "stride 1: 4 sectors/request", NULL),
    COPY("stride", 1, SF_LD, SFQ_WAVEFRONTS_PER_REQ, 1, "stride 1: 1 wavefront", NULL),
    COPY("stride", 2, SF_LD, SFQ_SECTORS_PER_REQ, 8, "stride 2: 8 sectors/request", NULL),
    COPY("stride", 2, SF_LD, SFQ_WAVEFRONTS_PER_REQ, 1, "stride 2: wavefronts unchanged (1)", NULL),
    COPY("stride", 2, SF_LD, SFQ_L2_REQ_PER_REQ, 2, "stride 2: 2 L2 requests", NULL),
    COPY("stride", 4, SF_LD, SFQ_SECTORS_PER_REQ, 16, "stride 4: 16 sectors", NULL),
    COPY("stride", 4, SF_LD, SFQ_WAVEFRONTS_PER_REQ, 1, "stride 4: in 1 wavefront", NULL),
    COPY("stride", 4, SF_LD, SFQ_L2_REQ_PER_REQ, 4, "stride 4: 4 L2 requests", NULL),
    COPY("stride", 5, SF_LD, SFQ_SECTORS_PER_REQ, 20, "stride 5: 20 sectors", NULL),
    COPY("stride", 5, SF_LD, SFQ_WAVEFRONTS_PER_REQ, 2, "stride 5: in 2 wavefronts", NULL),
    COPY("stride", 8, SF_LD, SFQ_SECTORS_PER_REQ, 32, "stride 8: 32 sectors", NULL),
    COPY("stride", 8, SF_LD, SFQ_WAVEFRONTS_PER_REQ, 2, "stride 8: in 2 wavefronts", NULL),
    COPY("stride", 16, SF_LD, SFQ_SECTORS_PER_REQ, 32, "stride 16: 32 sectors", NULL),
    COPY("stride", 16, SF_LD, SFQ_WAVEFRONTS_PER_REQ, 4, "stride 16: in 4 wavefronts", NULL),
    COPY("stride", 16, SF_LD, SFQ_DRAM_PER_REQ, 64, "stride 16: 2 DRAM sectors per thread (64 B granule)",
         NULL),
    COPY("stride", 32, SF_LD, SFQ_L2_REQ_PER_REQ, 32, "stride 32: 32 L2 requests", NULL),
    COPY("stride", 32, SF_LD, SFQ_DRAM_PER_REQ, 64, "stride >= 16: DRAM sectors flat (2 per thread)", NULL),
    COPY("stride", 64, SF_LD, SFQ_L2_REQ_PER_REQ, 32, "stride >= 32: 32 L2 requests", NULL),
    COPY("stride", 64, SF_LD, SFQ_DRAM_PER_REQ, 64, "stride >= 16: DRAM sectors flat (2 per thread)", NULL),
    COPY("stride", 128, SF_LD, SFQ_L2_REQ_PER_REQ, 32, "stride >= 32: 32 L2 requests", NULL),
    COPY("stride", 128, SF_LD, SFQ_DRAM_PER_REQ, 64, "stride >= 16: DRAM sectors flat (2 per thread)", NULL),
    /* 004: vector loads issue half / a quarter of the instructions */
    COPY4("grid_scalar", SFQ_ELEMS_PER_REQ, 32, "LDG.E/STG.E: 32 elements per instruction"),
    COPY4("grid_vector2", SFQ_ELEMS_PER_REQ, 64, "LD.E.64: half the instructions"),
    COPY4("grid_vector4", SFQ_ELEMS_PER_REQ, 128, "LD.E.128: a quarter of the instructions"),
    COPY4("vector2", SFQ_ELEMS_PER_REQ, 64, "LD.E.64: half the instructions"),
    COPY4("vector4", SFQ_ELEMS_PER_REQ, 128, "LD.E.128: a quarter of the instructions"),
};

/* ------------------------------------------------------------ ncu recipe */

/* One run: every modelled variant in every default configuration; a
 * configuration may have a kernel of its own (_b<batch>).  --quick: the
 * strides 1, 2, 4 and 32 and the batches 1 and 4 (24 profiled launches
 * instead of 55: ncu costs about a quarter of a second a launch). */
static const sf_ncu_run COPY_NCU[] = {
    { "main", "{N} 0 {WPB} --kernel {V}", "^copy_({V|})(_b[0-9]+)?$", -1, "--family copy",
      SF_NCU_SECTORS, SF_NCU_FULL },
    { "quick", "{N} 0 {WPB} --kernel {V} --stride 1,2,4,32 --batch 1,4", "^copy_({V|})(_b[0-9]+)?$", -1,
      "--family copy", SF_NCU_SECTORS, SF_NCU_QUICK },
};

const struct fam_model fam_model_copy = {
    "copy", SF_ROWS(COPY_MODEL), SF_SHAPE_N, SF_N_DEFAULT, copy_check, copy_setup, copy_lab_params,
    SF_ROWS(COPY_LABS), SF_MSET_FULL, "1e7", SF_ROWS(COPY_NCU), copy_draw, copy_count,
};
