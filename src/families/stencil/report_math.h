/*
 * report_math.h - the stencil's arithmetic in the report: what its section
 * (report.c) computes from its tables, each a function of numbers or small
 * tables, tested on cases worked out by hand (test_stencil_report.c).
 */
#ifndef WARPLAT_STENCIL_REPORT_MATH_H
#define WARPLAT_STENCIL_REPORT_MATH_H

#include <stddef.h>

#include "plateau.h"
#include "report_families.h"   /* the report's family-independent arithmetic (rfm_*) */
#include "tsv.h"

typedef struct rfm_stencil_cfg {
    double n0, n1, radius;
    int lead_pad, pad_ld;
} rfm_stencil_cfg;

/* "1024x97656,R=1,lead=0,padld=1" -> n0, n1, R, the two pads.  0, or -1. */
int rfm_stencil_config(const char *config, rfm_stencil_cfg *out);

/*
 * The over-fetch of the centre load in one layout (stencil.cu's: ld = N0 + 2R,
 * rounded up to 32 floats with the leading-dimension pad; H halo rows;
 * lead the smallest that puts element (0, 0) on a 128 B line with the lead
 * pad): the 32 B sectors the warps' loads of in[idx] touch, over the
 * sectors the same floats fill when aligned (4 B floats, 8 per sector),
 * minus 1, in percent.  halo_rows: R for deriv1, 0 for the others.  NAN for
 * a geometry out of range.  Lab 000: N0 = 1024, no pad: 160 sectors for 128,
 * 25%.
 */
double rfm_stencil_overfetch_pct(double n0, double n1, double radius, int lead_pad, int pad_ld,
                                 double halo_rows);

/* One of the lab's stencil cases (a row of sectors_stencil.tsv): L1
 * sectors, L1 hits, L1 hit rate % and L2 requests, each as the lab gives it
 * (NAN where it gives none), as the model predicts it (model .. model_hi:
 * the bracket of assumption B2, and for L2 requests also the one the note
 * states, misses joining a request already in flight or not; model_hi NAN
 * when there is none) and as measured. */
enum { RFM_CASE_SECTORS, RFM_CASE_HITS, RFM_CASE_HIT_PCT, RFM_CASE_L2_REQ, RFM_NCASE };
typedef struct rfm_case_q {
    double lab, model, model_hi, measured;
} rfm_case_q;

/* Fill q[RFM_NCASE] from row r.  Returns the number of lab figures among
 * the four. */
int rfm_stencil_case(const tsv_table *t, size_t r, rfm_case_q *q);

/* Over the rows with a lab figure: per quantity, in how many the measured
 * value is the model's (inside its bracket), and the rows where it is not:
 * "Measured inside the model's prediction: L1 sectors in 11 of 11, ...; L2
 * requests in 8 of 11 (fewer: deriv_copy ld n0=64,... 3 for 4, ...)." */
int rfm_stencil_cases_note(const tsv_table *t, char *buf, size_t len);

/* The four layouts' names, by lead_pad + 2 x pad_ld: "without padding",
 * "with the lead pad", "with the padded leading dimension", "with both pads". */
const char *rfm_layout_name(int lead_pad, int pad_ld);

/* One point of the size sweep. */
typedef struct rfm_stencil_point {
    double n0;
    int lead_pad, pad_ld;
    char variant[24];
    double bw_GBps, overfetch_pct;
} rfm_stencil_point;

/* The sweep in sentences: each layout's over-fetch (one figure when it is
 * the same at every N0, else its range) and mean bandwidth over sizes and
 * variants, what both pads change against none, and the lowest point. */
int rfm_stencil_sweep_note(const rfm_stencil_point *p, size_t n, char *buf, size_t len);

/* The ladder level nearest a latency (by ratio); -1 when there is none. */
int rfm_nearest_level(const plateau_level *lv, int n, double cycles);

/* The halo probe: "deriv0_halo: the halo load's median latency is 41
 * cycles, x1.24 the L1 plateau of 33 cycles and nearest it: the halo load
 * hits in L1, as the sector model predicts." */
int rfm_halo_note(double p50_cycles, const plateau_level *lv, int n, char *buf, size_t len);

#endif
