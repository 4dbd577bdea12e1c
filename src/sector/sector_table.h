/*
 * sector_table.h - the families' comparison table of bin/sector_compare:
 * one row per variant, configuration and op, each quantity predicted
 * (*_pred) beside measured (*_meas), the verdict, the lab's figure and a
 * note; as TSV (sct_header, then sct_put) or Markdown (sct_md_header).
 * Also the two small readers both comparisons share.
 */
#ifndef WARPLAT_SECTOR_TABLE_H
#define WARPLAT_SECTOR_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    SCT_REQ, SCT_INSTR, SCT_SEC, SCT_SPR, SCT_WF, SCT_DWF, SCT_HITS, SCT_HITS_MAX, SCT_HITPCT, SCT_L2REQ,
    SCT_L2REQ_MIN, SCT_L2SEC, SCT_L2SEC_MIN, SCT_DRAM, SCT_DRAMERR, SCT_L1U, SCT_L2U, SCT_DRAMU,
    SCT_BLOCKS, SCT_TIME, SCT_N
};

/* One row of the table; NAN = not predicted / not measured. */
typedef struct sct_row {
    const char *family, *variant, *config, *op;
    double p[SCT_N], m[SCT_N];
    const char *agree, *mismatch, *lab, *lab_source, *lab_vs_model, *note;
    /* TSV only, after note: the launch's size (N; N0 x N1 for a 2-D family)
     * and warps per block (NAN: unknown), the quantities judged and those
     * judged against a bracket too wide for bin/model_check (sf_verdict) */
    double n, wpb;
    const char *judged, *wide;
} sct_row;

/* Every quantity NAN (not predicted, not measured), the texts "-", agree "no". */
void sct_init(sct_row *g);
/* The derived quantities (sectors per request, hit rate, the utilizations,
 * the DRAM error) from the counts, bytes being what the lanes asked for. */
void sct_derive(sct_row *g, double bytes);
/* The TSV header line. */
void sct_header(FILE *out);
/* The Markdown table's head. */
void sct_md_header(FILE *out);
/* One row, TSV or Markdown. */
void sct_put(FILE *out, const sct_row *g, int markdown);
/* The predicted and measured quantities of op (SF_LD, SF_ST) of one launch
 * into g, side by side, and the derived ones (sector_families.h). */
struct sf_prediction;
struct sf_measured;
void sct_fill(sct_row *g, const struct sf_prediction *pr, const struct sf_measured *meas, int op);

/* The value of KEY in a configuration "stride=4" or "n0=32,n1=2": 0, or -1
 * when KEY=VALUE is absent or VALUE is not a whole number. */
int sct_config_value(const char *config, const char *key, uint64_t *out);
/* A kernel name as ncu printed it, without its signature:
 * "copy_stride(int*, ...)" -> "copy_stride" (into out, always terminated). */
void sct_base_name(const char *k, char *out, size_t len);

#ifdef __cplusplus
}
#endif
#endif
