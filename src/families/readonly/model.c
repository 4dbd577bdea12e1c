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

const struct fam_model fam_model_readonly = {
    "readonly", NULL, 0, SF_SHAPE_N, 100000000ull, NULL, NULL, NULL, NULL, 0,
    SF_MSET_LOADS, "1e8", READONLY_NCU, sizeof READONLY_NCU / sizeof READONLY_NCU[0],
};
