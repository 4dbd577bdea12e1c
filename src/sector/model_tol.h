/*
 * model_tol.h - the sector model judged against each row's own run-to-run
 * spread (issue 36; bin/model_check tolerate and tsummary,
 * scripts/model_check.sh --repeat R, docs/model_check.md "The judged rule").
 *
 * One batch of random configurations is profiled R times (R comparison
 * tables of bin/sector_compare, row for row the same launches).  For each
 * row and quantity the model gives ONE number, its expected count (the
 * comparison's <q>_exp_pred where the model gives one, else its point
 * prediction <q>_pred); the row's brackets are shown beside it, never
 * judged.  The measured value is the median of the R runs, and the
 * tolerance is the largest of
 *
 *   5 % of the measured median                      (MT_PCT, "pct")
 *   2 x the row's spread, max - min over the runs   (MT_SPREAD, "spread")
 *   0.1 % of the row's L1 sectors (the median's)    (MT_ALLOW, "allow")
 *
 * a tie going to the first of these.  L1 requests, L1 sectors and the grid
 * are judged exactly (MT_EXACT, "exact").  Which quantities a row is judged
 * on is run 1's `judged` column (sector_compare's: DRAM from 8,192 sectors,
 * no hits for stores, ...).  A row agrees when every judged quantity is
 * within its tolerance of the expected count.  Beside it the judged table
 * keeps today's strict verdict of run 1 (model_check.h, mc_classify).
 *
 * No function here prints to stdout; each writes to the FILE it is given
 * and reports errors in err.
 */
#ifndef WARPLAT_MODEL_TOL_H
#define WARPLAT_MODEL_TOL_H

#include <stddef.h>
#include <stdio.h>

#include "tsv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a tolerance came from. */
typedef enum mt_src { MT_EXACT = 0, MT_PCT, MT_SPREAD, MT_ALLOW, MT_NSRC } mt_src;

/* "exact", "pct", "spread", "allow". */
const char *mt_src_name(mt_src s);

#define MT_PCT_FRAC 0.05        /* 5 % of the measured median */
#define MT_SPREAD_FACTOR 2.0    /* twice the row's spread */
#define MT_ALLOW_FRAC 0.001     /* 0.1 % of the row's L1 sectors */

/* The judged quantities, in the tables' order. */
enum {
    MT_Q_BLOCKS = 0, MT_Q_L1_REQUESTS, MT_Q_L1_SECTORS, MT_Q_L1_HITS, MT_Q_L2_REQUESTS, MT_Q_L2_SECTORS,
    MT_Q_DRAM_SECTORS, MT_NQ
};
/* "blocks", "l1_requests", ... "dram_sectors": sector_compare's names. */
const char *mt_quantity(int q);

/*
 * The tolerance of one count: the largest of MT_PCT_FRAC x |median|,
 * MT_SPREAD_FACTOR x spread and MT_ALLOW_FRAC x l1_sectors (NAN: 0), and in
 * *src which one (a tie: the first).  spread NAN counts as 0.
 */
double mt_tolerance(double median, double spread, double l1_sectors, mt_src *src);

/* The median of n values (n >= 1; v is sorted in place). */
double mt_median(double *v, size_t n);

/*
 * Judge R = nruns comparison tables of one batch (mc_repeat's rows: the
 * same variant, config, op, n and WPB row for row) under the rule above:
 * the header line, then one row per row of runs[0], joined with the draws'
 * table (mc_draw's; NULL: none) as mc_judge joins them; draws no row
 * joined are written as rows that are not measured.  Columns: id, family,
 * variant, config, op, n, warps_per_block, runs, agree, agree_strict,
 * class_strict, failed (the quantities outside tolerance, or "-"),
 * by_spread (those whose tolerance came from the spread), worst (the
 * largest |expected - median| / tolerance of a judged quantity), then per
 * quantity q: q_exp, q_bracket ("lo..hi", shown only), q_meas (median),
 * q_spread, q_tol, q_src, q_ok ("yes", "no", "-": not judged); last args.
 * Returns 0, or -1 with err (no run, other rows, a column missing).
 */
int mt_judge(const tsv_table *runs, int nruns, const tsv_table *draws, FILE *out, char *err, size_t errlen);

/* Per quantity (and MT_NQ: every judged quantity at once), the counts of
 * judged tables (mt_judge's output). */
typedef struct mt_counts {
    unsigned long rows;                /* rows (configurations x ops) */
    unsigned long judged[MT_NQ + 1];   /* rows judged on q (MT_NQ: rows measured) */
    unsigned long ok[MT_NQ + 1];       /* of those, within tolerance (MT_NQ: on every one) */
    unsigned long strict_ok[MT_NQ + 1];/* agreeing under the strict rule of run 1 */
    unsigned long by_spread[MT_NQ + 1];/* tolerance from the spread (MT_NQ: rows with any) */
    unsigned long needed_spread[MT_NQ + 1]; /* within tolerance only thanks to the spread */
} mt_counts;

/* Add the rows of a judged table to c.  0, or -1 with err (not mt_judge's). */
int mt_count(const tsv_table *judged, mt_counts *c, char *err, size_t errlen);

/* The summary: its header, then per family (or "all") one row per quantity
 * judged and one, quantity "every", for every judged quantity at once. */
void mt_summary_header(FILE *out);
void mt_summary_rows(FILE *out, const char *family, const mt_counts *c);

/*
 * The worst rows of judged tables: up to max rows, largest `worst` first
 * (rows not measured last), as TSV (family, id, variant, op, worst, failed,
 * and args) to out, after a header line.
 */
int mt_worst(const tsv_table *judged, int ntables, size_t max, FILE *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
