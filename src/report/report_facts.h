/*
 * report_facts.h - the report's interpretations: every sentence with a
 * number in it, computed from the measured tables, never typed in.  Each
 * function takes plain values (the tool reads them from the tables by column
 * name) and writes one sentence into buf; the unit tests feed them numbers
 * worked out by hand.
 *
 * Return value of the sentence writers: 0 when a sentence was written, 1
 * when there is nothing to say (missing inputs: buf is then ""), -1 when
 * buf is too small.
 *
 * Little's law is src/lib/littles.h; percentiles are src/lib/stats.h; the
 * ladder's levels are src/lib/plateau.h.
 */
#ifndef WARPLAT_REPORT_FACTS_H
#define WARPLAT_REPORT_FACTS_H
#include <stddef.h>

#include "plateau.h"
#include "tsv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the report knows of one GPU; NAN where unknown. */
typedef struct rf_device {
    double sm_count;
    double sm_clock_MHz;       /* the clock that turns cycles into time */
    double peak_GBps;          /* DRAM peak */
    double max_warps_per_sm;
    double l2_bytes;
} rf_device;

void rf_device_unknown(rf_device *d);

/* One row of a family's summary table. */
typedef struct rf_kernel {
    const char *kernel;        /* variant */
    const char *config;        /* "" or "-" when the variant has one configuration */
    double wpb, blocks_per_sm;
    double kernel_ms, bw_GBps, pct_peak, sm_clock_MHz;
    double lat_mean_cycles, lat_p50_cycles, lat_p95_cycles;
    double instr_ms, overhead_pct;
    double bytes_per_warp;     /* bytes one warp has in flight in its timed load; NAN unknown */
    double flops, gflops;      /* a compute kernel's (tiling): flops > 0; else 0 or NAN */
    /* from the occupancy sweep's point at this row's blocks per SM, when it
     * recorded every block (inflight.h); not > 0 / NAN: unknown */
    double slot_period_cycles, slot_rest_cycles, closure_inflight_err_pct;
} rf_kernel;

/* Row r of a summary (<exp>_<N>_wpb<W>.tsv, the engine's summary row), by
 * column name: a column the table lacks is NAN, a missing kernel "?", a
 * missing config ""; bytes_per_warp NAN (the summary does not hold it).
 * k->kernel and k->config point into t.  The one reader of the summary row:
 * the report's tables and the families' (rfm_tiling_read) read through it. */
void rf_kernel_read(const tsv_table *t, size_t r, rf_kernel *k);

/* "At 1980 MHz, the 3352 GB/s peak is 1693.1 bytes per SM cycle across the
 * GPU, 12.8 B per cycle per SM: one 128 B warp load every 10.0 cycles on
 * each SM." */
int rf_device_note(const rf_device *d, char *buf, size_t len);

/* "Fastest kernel at 4 warps per block: float4, 2793.0 GB/s = 83.3% of the
 * 3352 GB/s DRAM peak." (percent from pct_peak, else bw / peak).  Each row's
 * own warps per block: when they differ (variants that fix their block),
 * "Fastest kernel: X, at its 32 warps per block, ...".  When a row has
 * flops > 0 the kernels are compute kernels, ranked by GFLOP/s:
 * "Fastest kernel: tiled32, at its 32 warps per block, 8978.7 GFLOP/s
 * (122.458 ms)." */
int rf_fastest_note(const rf_kernel *k, size_t n, const rf_device *d, char *buf, size_t len);

/* Little's law for one kernel whose bytes_per_warp is known: the bytes its
 * median latency asks to be in flight against what its resident warps hold,
 * and the bound at its occupancy.  Far below the bound, what limits it: with
 * the slot figures of its sweep, in numbers ("the load holds a slot 719 of
 * every 1108 cycles; the other 389 are launch and retire, ..."), else in
 * words. */
int rf_littles_note(const rf_kernel *k, const rf_device *d, char *buf, size_t len);

/* "Instrumentation overhead at 4 warps per block: from -0.04% (nondiverging)
 * to +1.79% (strided_float4) of the clean twin's time." (overhead_pct); with
 * rows of different warps per block, each row's: "from +0.16% (tiled8, 2
 * warps per block) to +9.82% (naive, 32 warps per block)". */
int rf_overhead_note(const rf_kernel *k, size_t n, char *buf, size_t len);

/* One variant's bandwidth against warps per block, wpb ascending:
 * "baseline 422, 835, 1641, 1623 GB/s at 2, 4, 8, 16". */
int rf_bw_series(const char *variant, const unsigned *wpb, const double *bw_GBps, size_t n,
                 char *buf, size_t len);

/* Median warp latency of one variant at several WPB. */
typedef struct rf_latpoint {
    const char *variant;
    unsigned wpb;
    double p50_cycles;
} rf_latpoint;

/* How the median latency of `variant` grows from its smallest to its largest
 * WPB: "random_access: median warp latency 1016 cycles at 2 warps per block,
 * 2415 at 16 (x2.38)".  1 when the variant has fewer than two WPBs. */
int rf_timeline_growth(const rf_latpoint *p, size_t n, const char *variant, char *buf, size_t len);

/* Median latency of each variant relative to `ref`'s, at one WPB:
 * "Median latency relative to baseline (727 cycles): float4 x2.45, ...". */
int rf_relative_p50(const rf_latpoint *p, size_t n, const char *ref, char *buf, size_t len);

/* Whether an array of n_elems x elem_bytes fits in L2: " At N = 1000000 the
 * array is 4.0 MB, smaller than the 52.4 MB L2, so ...". */
int rf_l2_note(double n_elems, double elem_bytes, double l2_bytes, char *buf, size_t len);

/* The ladder: levels as found by plateau_find and named by plateau_label.
 * note1: every level and the DRAM/first ratio; note2: what the DRAM latency
 * asks of occupancy (needs peak, SMs; the clock is the ladder's own when its
 * levels have ns, else d->sm_clock_MHz). */
int rf_ladder_levels_note(const plateau_level *lv, int n, char *buf, size_t len);
int rf_ladder_occupancy_note(const plateau_level *lv, int n, const rf_device *d, char *buf,
                             size_t len);

/* One point of an occupancy sweep, and what the report computes of it. */
typedef struct rf_sweep_point {
    double warps_per_sm, occupancy_pct, bw_GBps, lat_mean_cycles, sm_clock_MHz;
    double bound_GBps;         /* out: Little's law at this point's mean latency */
    double of_bound_pct;       /* out: bw / bound x 100 */
    int capped;                /* out: the DRAM peak, not latency, sets the bound here */
} rf_sweep_point;

/* Fill bound_GBps and of_bound_pct of every point (bytes_per_warp: the
 * sweep's bytes_per_warp_load; each point's own clock, else d's). */
void rf_sweep_bounds(rf_sweep_point *p, size_t n, double bytes_per_warp, const rf_device *d);
/* "baseline: the highest bandwidth is 838.8 GB/s (25.0% of the 3352 GB/s
 * peak) at 64 warps per SM (100% occupancy), with a mean warp latency of 761
 * cycles." */
int rf_sweep_best_note(const char *kernel, const rf_sweep_point *p, size_t n, const rf_device *d,
                       char *buf, size_t len);
/* "At the unloaded latency of 682 cycles and 128 B per warp, Little's law
 * reaches the peak only with 77 warps per SM (9.7 KB in flight per SM), more
 * than the 64 an SM can hold."  latency_given: the ladder's plateau (else
 * the sweep's least-loaded latency, said so). */
int rf_sweep_need_note(double latency_cycles, int latency_given, double bytes_per_warp,
                       const rf_device *d, char *buf, size_t len);
/* "3 of 16 points are within 80% of the bound at their own latency
 * (latency-bound); the largest of them has 12 warps per SM."  Points whose
 * bound the peak caps are bandwidth-bound, not latency-bound, and said
 * apart: "9 of 16 points are within 80% of the bound at their own latency:
 * 2 latency-bound (the largest has 16 warps per SM) and 7 bandwidth-bound,
 * from 24 warps per SM, where the DRAM peak caps the bound." */
int rf_sweep_bound_note(const rf_sweep_point *p, size_t n, char *buf, size_t len);

/* One point of a sweep that recorded every block (src/lib/inflight.h). */
typedef struct rf_inflight_point {
    double blocks_per_sm, warps_per_sm, inflight_warps_per_sm;
    double slot_period_cycles, slot_rest_cycles;
    double closure_inflight_err_pct, launch_drain_pct, sm_imbalance_pct;
} rf_inflight_point;

/* The sweep's in-flight closure in numbers, from its points with a finite
 * closure_inflight_err_pct (none: nothing to say):
 * "Measured in flight (every block recorded), Little's law closes within
 * 2.1% at every point (from -2.1% to -0.6%).  At 1 block per SM the load
 * holds a slot 719 of every 1108 cycles; the other 389 are launch and
 * retire, so 4 resident warps keep 2.60 in flight.  What does not close is
 * launch and drain (1.2% of the kernel's time there) and SMs idle while
 * others finish (0.4%)."  Points beyond 5% are counted and the worst named
 * instead of "at every point". */
int rf_sweep_inflight_note(const rf_inflight_point *p, size_t n, char *buf, size_t len);

/* A sector table (bin/sector_compare's, or any with an `agree` column). */
typedef struct rf_sectors {
    size_t rows;
    size_t agree;              /* rows that agree with the model */
    size_t unjudged;           /* rows with agree "-": not predicted, not in rows */
    size_t l1_rows, l1_ok;     /* rows with an L1 verdict, and those that match */
    double worst_dram_err_pct; /* largest |DRAM error| (NAN: no such column) */
    char worst[160];           /* its row and error: "strided_float4 stride 128, -32.03%" */
    char flagged[512];         /* the rows that do not agree, comma-separated */
} rf_sectors;

/* Count a table's rows: `agree` (yes/no; "-": not predicted, counted apart)
 * or a `verdict` (agree/DISAGREE) decides agreement; `l1_ok` (1/0) the L1 match;
 * `dram_err_pct` the worst DRAM error.  -1 when the table has neither
 * agreement column. */
int rf_sectors_count(const tsv_table *t, rf_sectors *out);
/* "18 of 20 rows agree with the model; L1 sectors match in 20 of 20. The
 * largest DRAM disagreement is strided_float4 stride 128, -32.0%." */
int rf_sectors_note(const rf_sectors *s, char *buf, size_t len);

/* Formatting shared with the tool: decimal SI bytes ("8.2 KB", "1.32 MB"). */
const char *rf_fmt_bytes(double b, char *buf, size_t len);
/* Binary sizes ("215 KiB"). */
const char *rf_fmt_size(double b, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
