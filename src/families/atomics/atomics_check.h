/*
 * atomics_check.h - the atomics family in the random model check (issue 36):
 * its model is its own (src/families/atomics/atomics_model.h, no
 * fam_model), so its draws and its comparison table are made here, in the
 * shapes bin/model_check draw and bin/sector_compare --family give the other
 * families, and it is judged by the same rules (model_check.h, model_tol.h).
 */
#ifndef WARPLAT_MODEL_ATOMICS_H
#define WARPLAT_MODEL_ATOMICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tsv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* N of the atomics draws: log-uniform over [1e5, 1e7] (same_address at N =
 * 1e7 is 0.17 s a launch on the H100: the check stays short). */
#define MA_DRAW_N_MAX 10000000ull

/*
 * K random configurations of the atomics family (its 8 variants in turn, N
 * log-uniform in [SF_DRAW_N_MIN, MA_DRAW_N_MAX], WPB 1..32), as mc_draw
 * writes them: the --batch-file to batch and the draws' table to draws;
 * meta ('#' lines) first in both heads (NULL: none).  0, or -1 with err.
 */
int ma_draw(uint64_t seed, unsigned k, const char *meta, FILE *batch, FILE *draws, char *err, size_t errlen);

/*
 * The comparison table of one profiled batch: runs is the engine's table
 * (kernel, n, warps_per_block, valid), ext bin/ncu_extract's (kernel and the
 * atomics metrics); the i-th launch of a clean kernel atomics_VARIANT is the
 * i-th valid row of runs.  Written to out in bin/sector_compare's columns
 * (family, variant, config, op, l1/l2 requests and sectors and DRAM sectors
 * predicted and measured, agree, mismatch, judged, wide, note, n,
 * warps_per_block) under the H100's replay rule and a DRAM fetch of
 * fetch_bytes; L1 and L2 exact, DRAM judged from 8,192 sectors where the
 * model judges it (atm_pred.dram_judged), within 5 %.  0, or -1 with err.
 */
int ma_compare(const tsv_table *runs, const tsv_table *ext, unsigned fetch_bytes, FILE *out, char *err,
               size_t errlen);

/* ncu's --metrics list of the atomics comparison, into buf.  0, or -1. */
int ma_metrics(char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
