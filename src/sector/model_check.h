/*
 * model_check.h - the sector model checked on configurations nobody picked
 * (issue 25; bin/model_check, scripts/model_check.sh, docs/model_check.md).
 *
 * The steps, each a function here:
 *
 *   draw     K random configurations of a family from a seed: the family's
 *            draw hook (sector_family.h) gives each one's command line, the
 *            variants taken in turn so that every modelled variant is drawn;
 *            written as an engine --batch-file file whose '#' lines hold the
 *            seed, the ranges and, per line, its id and variant;
 *   judge    bin/sector_compare's table of those runs (one row per
 *            configuration and op) judged strictly: a row agrees when every
 *            judged quantity is inside the model's bounds (sf_judge), L1
 *            requests and sectors among them, and no bound it was judged
 *            against is wider than SF_BOUND_MAX_FRAC of its point prediction;
 *            each row gets one mismatch class;
 *   summary  rows, rows agreeing, the percentage, the count of each class
 *            and how often each quantity was not judged, per family and in
 *            all;
 *   repeat   one batch profiled more than once: how far each measured count
 *            moves between runs, the floor under any point prediction.
 *
 * Reads tables by column name (tsv.h).  No function here prints to stdout;
 * each writes to the FILE it is given and reports errors in err.
 */
#ifndef WARPLAT_MODEL_CHECK_H
#define WARPLAT_MODEL_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tsv.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fam_model;

/* The mismatch class of a judged row: the first that applies, in this
 * order. */
typedef enum mc_class {
    MC_AGREE = 0,      /* every judged quantity inside a tight bound */
    MC_NOT_MEASURED,   /* no launch, a failed validation, or requests/sectors absent */
    MC_GRID,           /* the launch's grid is not the model's: the run is not the model's */
    MC_L1,             /* L1 requests or sectors (exact) */
    MC_HITS,           /* L1 hits outside their bounds */
    MC_L2,             /* L2 requests or sectors outside their bounds */
    MC_DRAM,           /* DRAM sectors outside 5 % */
    MC_WIDE,           /* inside the bounds, but a bound is too wide to count */
    MC_NCLASSES
} mc_class;

/* "agree", "not_measured", "grid", "l1", "hits", "l2", "dram", "wide_bound". */
const char *mc_class_name(mc_class c);

/* The per-configuration generator state of configuration `id` of `family`
 * under `seed`: a configuration can be drawn again alone. */
uint64_t mc_rng_of(uint64_t seed, const char *family, uint64_t id);

/*
 * Draw k random configurations of model m: the --batch-file file to batch ('#'
 * lines: family, seed, k, the ranges; then per configuration the line
 * "ARGS  # id=I variant=V") and the draws' table to draws (the same '#'
 * lines, then id, family, variant, n, warps_per_block, args).  only: a
 * comma-separated list of variants to draw (NULL: all of the model's, in
 * turn).  Returns 0, or -1 with err (the family has no draw hook, a variant
 * it lacks, a draw the model refuses 64 times).
 */
int mc_draw(const struct fam_model *m, uint64_t seed, unsigned k, const char *only, FILE *batch,
            FILE *draws, char *err, size_t errlen);

/* mc_draw with meta: '#' lines ("# commit\tHASH\n"...) written first in
 * both files' heads (NULL: none). */
int mc_draw_meta(const struct fam_model *m, uint64_t seed, unsigned k, const char *only, const char *meta,
                 FILE *batch, FILE *draws, char *err, size_t errlen);

/* The seeds of a frozen commit (issue 36, --seed-from-commit): seed[0] the
 * number of the hash's first 8 hex digits, seed[1] of the next 8.  0, or
 * -1 with err (fewer than 16 hex digits, a character not hex). */
int mc_commit_seeds(const char *hash, uint64_t seed[2], char *err, size_t errlen);

/* The engine's --batch-file of a draws' table written by hand (fixed
 * configurations: the calibration probes): per row "ARGS  # id=I
 * variant=V".  0, or -1 with err (a column missing, a row without args). */
int mc_batch_of_draws(const tsv_table *draws, FILE *batch, char *err, size_t errlen);

/* The git pathspecs of the model's files: a change to any of them since the
 * frozen commit means the seeds are not held out.  NULL-terminated. */
extern const char *const MC_MODEL_PATHS[];

/* A judged row's class from bin/sector_compare's columns: agree ("yes" or
 * "no"), mismatch ("l1_sectors,dram_sectors", "not measured" or "-") and
 * wide ("l1_hits" or "-"). */
mc_class mc_classify(const char *agree, const char *mismatch, const char *wide);

/*
 * Judge a comparison table (bin/sector_compare --family F, TSV) strictly:
 * one row per row of cmp to out (the header line, then rows), with the
 * draw's id and args from draws (mc_draw's table; NULL: none).  The rows of
 * cmp come in the draws' order, one launch per draw (a draw whose run was
 * skipped has none, a launch has a row per op): a row joins the first draw,
 * from the last one joined on, of its variant, n and warps per block.
 * Draws no row joined are written as rows of class not_measured.  Returns
 * 0, or -1 with err (a column missing).
 */
int mc_judge(const tsv_table *cmp, const tsv_table *draws, FILE *out, char *err, size_t errlen);

/* The judged table's counts. */
typedef struct mc_counts {
    unsigned long rows, agree;
    unsigned long cls[MC_NCLASSES];
    unsigned long not_judged_dram, not_judged_hits, wide;   /* quantities not judged or too wide */
} mc_counts;

/* Count the rows of a judged table (mc_judge's output) into c (added to). */
int mc_count(const tsv_table *judged, mc_counts *c, char *err, size_t errlen);

/* The summary table: its header, then one row (family, or "all"). */
void mc_summary_header(FILE *out);
void mc_summary_row(FILE *out, const char *family, const mc_counts *c);

/*
 * How far the hardware's counts move from one run of a batch to the next:
 * runs are nruns comparison tables (bin/sector_compare) of ONE batch profiled
 * again, row for row (variant, config, op, n and WPB must match).  Writes a
 * header, then per op and measured quantity (l1_requests ... dram_sectors):
 * rows, rows whose count varied, those spread over 1 % and over 5 %, the
 * median and the largest spread.  A row's spread is (max - min) / max of
 * the runs' counts, in percent (mc_row_spread: NAN when a run lacks it or
 * all are 0).  Last, op "all", quantity "any_judged": per row the widest
 * spread of the quantities run 1 judged (its judged column), and in
 * over_5pct the rows that no point prediction inside a bound of
 * SF_BOUND_MAX_FRAC (5 %) can agree with in every run: a judged count
 * moved by more than 5 % of its largest value plus sf_judge's allowance
 * for measurement (2 x 0.1 % of the row's L1 sectors).  Returns 0, or -1 with err (fewer than 2 runs, other rows).
 */
int mc_repeat(const tsv_table *runs, int nruns, FILE *out, char *err, size_t errlen);
double mc_row_spread(const tsv_table *runs, int nruns, size_t r, const char *col);

/* Helpers model_tol.c shares: is name in the comma-separated list; the
 * draw of comparison row r (from *cursor on, the first of its variant, n and
 * WPB, the next one where row r's config differs from row r - 1's or its op
 * came already; -1: none); are the runs' tables the same launches row for row (0, or
 * -1 with err). */
int mc_in_list(const char *list, const char *name);
long mc_join_draw(const tsv_table *cmp, size_t r, const tsv_table *draws, size_t *cursor);
int mc_same_rows(const tsv_table *runs, int nruns, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
