/*
 * report_families.h - what the report computes for the families that are
 * more than a table of summaries (copy, patterns, stencil, tiling, ceiling):
 * the series its charts draw, the labs' figures against the model and the
 * GPU, the stencil's over-fetch, the tiling kernels' bytes and Little's law,
 * the achievable ceiling.  Every table is read by column name (tsv.h); every
 * sentence is computed from the numbers (the conventions of report_facts.h:
 * 0 written, 1 nothing to say and buf "", -1 buf too small).
 *
 * report_labs.c: the series and the labs; report_families.c: the rest.
 */
#ifndef WARPLAT_REPORT_FAMILIES_H
#define WARPLAT_REPORT_FAMILIES_H
#include <stddef.h>

#include "plateau.h"
#include "tsv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ fields */

/* A whole field as a number (strtod over all of it), else NAN. */
double rfm_num(const char *s);

/* Copy [a, b) with its leading and trailing spaces trimmed into dst (at
 * most len bytes, cut where it does not fit). */
void rfm_trim(char *dst, size_t len, const char *a, const char *b);

/* ------------------------------------------------------------ series */

#define RFM_MAX_POINTS 256

/* One line of a chart: y against a configuration value x, x ascending. */
typedef struct rfm_series {
    double x[RFM_MAX_POINTS], y[RFM_MAX_POINTS];
    size_t n;
} rfm_series;

/*
 * The rows of t whose columns equal the filters ("kernel=stride",
 * "op=ld"; a NULL-terminated list), x the integer value of key in the row's
 * config column ("stride=4" -> 4), y the number in column ycol.  Rows
 * without the key or with a NAN y are left out; x sorted ascending.  Returns
 * the number of points.
 */
size_t rfm_series_get(const tsv_table *t, const char *const *filters, const char *key,
                      const char *ycol, rfm_series *out);

/* The number in column col of the first row whose columns equal the filters
 * (and, when config is not NULL, whose config column is config); NAN if none. */
double rfm_value(const tsv_table *t, const char *const *filters, const char *config,
                 const char *col);

/* ------------------------------------------------------------ labs */

/* One figure of the background labs on one row of a sectors_<family>.tsv. */
typedef struct rfm_lab {
    char quantity[48];     /* "sectors/request", "L1 bus utilization %" */
    char source[8];        /* "000" */
    double lab;            /* the lab's figure */
    double model;          /* the model's at the lab's setting */
    double measured;       /* the GPU's, from the row's _meas columns; NAN unknown */
} rfm_lab;

/*
 * Parse the lab column ("sectors/request 16 [000]; wavefronts/request 1
 * [000]") and the lab_vs_model column ("agrees", or "differs: L2 requests lab
 * 3 [000], model 4; ...") into at most max figures: model is the lab's value
 * where the verdict does not name the figure.  Returns the count (0 for "-").
 */
size_t rfm_lab_parse(const char *lab, const char *verdict, rfm_lab *out, size_t max);

/* The measured value of a lab quantity on row r of a sectors table, from its
 * _meas columns: sectors/request, wavefronts/request, L2 requests/request and
 * DRAM sectors/request per L1 request; sectors, L1 hits, L1 hit rate %, L2
 * requests as counted; L1 and DRAM bus utilization %; elements/request (4 B
 * elements: bytes asked = L1 utilization x sectors x 32).  NAN when unknown. */
double rfm_lab_measured(const tsv_table *t, size_t r, const char *quantity);

/* 1 when a measured figure is the lab's: within 1% (the measured runs end in
 * partial warps: 31.99 sectors per request is the lab's 32), or within 0.05
 * for a quantity in % (the labs quote 44.4 for 4/9); 0 otherwise (NAN never
 * matches). */
int rfm_lab_same(const char *quantity, double lab, double measured);

/* Lab figures of a table, rows that differ only by configuration merged:
 * the configurations are listed compactly ("offset=1-7,9-15"). */
typedef struct rfm_labrow {
    char variant[64];
    char op[8];
    char configs[256];
    size_t nconfig;
    rfm_lab f;
} rfm_labrow;

/* Every row with a lab figure, merged when variant, op, quantity, source and
 * the lab, model and measured values (to 4 significant digits) are equal.
 * Returns the number of merged rows (at most max). */
size_t rfm_lab_rows(const tsv_table *t, rfm_labrow *out, size_t max);

/* "The H100 measures the lab's figure in 31 of 40 (rows merged over
 * configurations: 12 of 15); it differs in: L1 bus utilization % of
 * offset_ca (offset=1-7,...) lab 50 [001], measured 80; ..."  gpu names the
 * measured column ("the H100"). */
int rfm_lab_note(const rfm_labrow *r, size_t n, const char *gpu, char *buf, size_t len);

/* Configurations ("offset=1", "offset=2", ...) as one compact list,
 * "offset=1-2": when all are key=integer of one key, the integers sorted in
 * runs; else the configurations joined with "; ".  Truncated with "...". */
void rfm_compact_configs(const char *const *configs, size_t n, char *buf, size_t len);

/* The patterns' bus utilization: the lecture's figures beside the model's
 * and the GPU's, per load pattern and path. */
typedef struct rfm_util_row {
    char pattern[48];      /* "coalesced", "offset (offset=1)" */
    double lab_cached, lab_uncached;     /* lecture 001's columns (else lab 002's); NAN */
    char lab_source[16];   /* "001", "002" */
    double model[3], measured[3];        /* L1 utilization %, paths ca, cg, nc */
} rfm_util_row;

/* From sectors_patterns.tsv: one row per load pattern <p>_ca/_cg/_nc that
 * has a lab figure, at the first configuration that has one.  Returns the
 * number of rows. */
size_t rfm_patterns_util(const tsv_table *t, rfm_util_row *out, size_t max);

/* ------------------------------------------------------------ rows */

/* The first row whose columns equal the filters and whose config column is
 * config (NULL: any); -1 if none. */
long rfm_row(const tsv_table *t, const char *const *filters, const char *config);

/* ------------------------------------------------------------ ceiling */

typedef struct rfm_ceiling {
    char op[32], config[64];
    double bw_GBps, pct_theoretical, wpb, bytes_in_flight_per_sm;
} rfm_ceiling;

/* The rows of ceiling.tsv (columns operation, bw_GBps, pct_theoretical,
 * config, warps_per_block, bytes_in_flight_per_sm).  Returns the count, or
 * -1 when the table lacks operation or bw_GBps. */
int rfm_ceiling_read(const tsv_table *t, rfm_ceiling *out, size_t max);

/* The bandwidth of operation op, NAN when absent. */
double rfm_ceiling_of(const rfm_ceiling *c, size_t n, const char *op);

/* "The best read reaches 3194.1 GB/s, 95.3% of the 3352 GB/s theoretical
 * peak (w=16,...), 8.3 KB in flight per SM at the ladder's 344.7 ns DRAM
 * latency; write 3282.2 GB/s (97.9%), ..., cudaMemcpy 3001.5 GB/s (89.5%)." */
int rfm_ceiling_note(const rfm_ceiling *c, size_t n, double peak_GBps, double dram_latency_ns,
                     char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
