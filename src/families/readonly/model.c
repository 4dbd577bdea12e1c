/*
 * model.c - the readonly family's entry in the sector model (sector_family.h):
 * its Nsight Compute metrics (the load path) and its ncu recipe.  Its
 * predictions are still sector_model.h's tables (bin/sector_model without
 * --family; bin/sector_compare FILE), not per-variant generators: nvariants 0.
 *
 * The recipe: first the DRAM fetch granularity (strided at stride 32, one
 * isolated 4 B load per 128 B line, at N = 1e8 so that the wrapped index never
 * fits in L2) under each cudaLimitMaxL2FetchGranularity, each a row of
 * l2_fetch.tsv; then the strided kernels, both element sizes per run, at each
 * stride, and the other four in one run, all pooled into one measured table.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_family.h"

#include <stddef.h>
#include <stdio.h>

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
      "^readonly_(baseline|float4|nondiverging|random_access)$", -1, "--family readonly --measured",
      SF_NCU_POOL, 1 },
};

/* One random configuration of the readonly variant v (bin/model_check): N
 * and WPB from the documented ranges, a stride 1..257 for the strided ones. */
static int readonly_draw(const sf_variant *v, uint64_t *rng, sf_draw *out, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    sf_params_default(&out->p);
    out->p.n = sf_draw_n(rng);
    out->p.wpb = sf_draw_wpb(rng);
    out->p.cfg = 0;
    int k = snprintf(out->args, sizeof out->args, "%llu 0 %u --kernel %s", (unsigned long long)out->p.n,
                     out->p.wpb, v->name);
    if (v->cfg == SF_CFG_STRIDE) {
        out->p.cfg = sf_rand_range(rng, 1, SF_DRAW_STRIDE_MAX);
        snprintf(out->args + k, sizeof out->args - (size_t)k, " --stride %llu", (unsigned long long)out->p.cfg);
    }
    return 0;
}

const struct fam_model fam_model_readonly = {
    "readonly", NULL, 0, SF_SHAPE_N, 100000000ull, NULL, NULL, NULL, NULL, 0,
    SF_MSET_LOADS, "1e8", READONLY_NCU, sizeof READONLY_NCU / sizeof READONLY_NCU[0],
    readonly_draw,
};
