/*
 * model.c - the readonly family's sector model (sector_family.h): float a[N]
 * (array 0) and, for the gathers, uint32_t c[N] (array 1), the address rules
 * of readonly.cu's kernels, and its ncu recipe.
 *
 * Every kernel launches whole blocks over its items (N, or N/4 float4) and
 * clamps the index instead of branching (ro_clamp): a thread past the end
 * loads the last item again, so every lane of every launched warp is active
 * and the tail's extra requests, sectors and L1 hits are counted as the GPU
 * counts them.  The gathers load c[i] first, then a[c[i]]: two instructions.
 *
 * The recipe: first the DRAM fetch granularity (strided at stride 32, one
 * isolated 4 B load per 128 B line, at N = 1e8 so that the wrapped index never
 * fits in L2) under each cudaLimitMaxL2FetchGranularity, each a row of
 * l2_fetch.tsv; then the strided kernels, both element sizes per run, at each
 * stride, and the other four in one run, all pooled into one measured table
 * (ncu's counts only, as data/reference/h100/sectors_readonly.tsv).  Those
 * run at N = 1e8, the size of the bundled H100 logs; there the random gather
 * and the 4-byte strides from 32 up are more than the simulator walks
 * (SF_MAX_WORK), so the recipe does not compare them itself: a run at
 * N <= 1e7 compares as every family does (sector_compare --family readonly
 * --runs RUNS --ncu EXT).  The metrics are the load path's five (SF_MSET_LOADS),
 * the columns of that table.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_family.h"
#include "patterns.h"
#include "variants.h"

#include <stddef.h>
#include <stdio.h>

extern const struct fam_model fam_model_readonly;

#define RO_ID(ID, NAME, ABOUT, CFG, CFGD, RULE) ID,
enum { READONLY_VARIANTS(RO_ID) RO_NVARIANTS };
#undef RO_ID

/* ------------------------------------------------------------ generators */

static int ro_vec4(unsigned v) { return v == RO_FLOAT4 || v == RO_STRIDED_FLOAT4; }
static int ro_gather(unsigned v) { return v == RO_NONDIVERGING || v == RO_RANDOM_ACCESS; }

/* The item thread t loads from a (or c, for the gathers' first load):
 * ro_clamp, then the strided variants' (S * i) % items, S reduced first so
 * that the product stays below 2^56. */
static uint64_t ro_item(const sf_ctx *c, uint64_t t)
{
    const uint64_t i = t < c->items ? t : c->items - 1;
    const unsigned v = c->v->param;
    if (v == RO_STRIDED || v == RO_STRIDED_FLOAT4)
        return (c->cfg % c->items) * i % c->items;
    return i;
}

/* One load per thread (two for the gathers: c[i], then a[c[i]]); every lane
 * of a launched warp loads (the simulator asks only for launched warps). */
static int g_readonly(const sf_ctx *c, uint64_t w, unsigned k, sf_access *a)
{
    const unsigned v = c->v->param;
    if (k >= (ro_gather(v) ? 2u : 1u))
        return 0;
    const unsigned e = ro_vec4(v) ? 16 : 4;
    sf_acc_begin(a, SF_LD, ro_gather(v) && k == 0 ? 1 : 0, e);
    for (unsigned l = 0; l < 32; l++) {
        uint64_t x = ro_item(c, 32 * w + l);
        if (ro_gather(v) && k == 1 && v == RO_RANDOM_ACCESS)
            x = ro_perm(x, c->n, c->half, c->p->seed);
        sf_acc_lane(a, l, (uint64_t)e * x);
    }
    return 1;
}

/* ------------------------------------------------------------ the table */

#define RO_MODEL(ID, NAME, ABOUT, CFG, CFGD, RULE) \
    { &fam_model_readonly, NAME, CFG, CFGD, RULE, g_readonly, SF_PATH_CA, ID },

static const sf_variant READONLY_MODEL[] = { READONLY_VARIANTS(RO_MODEL) };

static int readonly_setup(sf_ctx *c, const sf_variant *v, const sf_params *p, sf_prediction *out,
                          char *err, size_t errlen)
{
    (void)err, (void)errlen;
    c->items = ro_vec4(v->param) ? p->n / 4 : p->n;
    c->half = ro_perm_half_bits(p->n);
    /* c[] exists only for the gathers: no L2 lines for it otherwise */
    c->array_bytes[1] = ro_gather(v->param) ? 4 * p->n : 0;
    /* random loads through L1: cross-block reuse in an SM's L1 is statistical */
    out->hit_tol_frac = v->param == RO_RANDOM_ACCESS ? 0.005 : 0;
    return 0;
}

/* ------------------------------------------------------------ ncu recipe */

#define GRAN(lim, row, quick)                                                                  \
    { "gran_" lim, "1e8 0 {WPB} --kernel strided --stride 32", "^readonly_strided$", row,     \
      "--family readonly --l2-fetch-row " #row, SF_NCU_L2_FETCH, quick }
#define STRIDED(s, quick)                                                                      \
    { "strided_" #s, "{N} 0 {WPB} --kernel strided,strided_float4 --stride " #s,               \
      "^readonly_(strided|strided_float4)$", -1, "--family readonly --measured", SF_NCU_POOL, quick }

static const sf_ncu_run READONLY_NCU[] = {
    GRAN("default", 0, 1),
    GRAN("32", 32, 0),
    GRAN("64", 64, 0),
    GRAN("128", 128, 0),
    STRIDED(1, 1),
    STRIDED(2, 0),
    STRIDED(4, 0),
    STRIDED(8, 0),
    STRIDED(16, 0),
    STRIDED(32, 1),
    STRIDED(64, 0),
    STRIDED(128, 0),
    { "other", "{N} 0 {WPB} --kernel baseline,float4,nondiverging,random_access",
      "^readonly_(baseline|float4|nondiverging|random_access)$", -1,
      "--family readonly --measured", SF_NCU_POOL, 1 },
};

/* One random configuration of the readonly variant v (bin/model_check): N
 * and WPB from the documented ranges, a stride 1..257 for the strided ones. */
static int readonly_draw(const sf_variant *v, uint64_t *rng, sf_draw *out, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    sf_draw_begin(out, rng);
    if (v->cfg == SF_CFG_STRIDE) out->p.cfg = sf_rand_range(rng, 1, SF_DRAW_STRIDE_MAX);
    sf_draw_line(out, v, v->cfg == SF_CFG_STRIDE ? "--stride" : NULL);
    return 0;
}

const struct fam_model fam_model_readonly = {
    "readonly", SF_ROWS(READONLY_MODEL), SF_SHAPE_N, SF_N_DEFAULT, NULL, readonly_setup, NULL,
    NULL, 0, SF_MSET_LOADS, "1e8", SF_ROWS(READONLY_NCU), readonly_draw,
};
