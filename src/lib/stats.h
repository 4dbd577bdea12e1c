/*
 * stats.h - exact, streaming per-warp latency statistics.
 *
 * A warp's latency is end_clk - start_clk, in SM cycles (both clocks come
 * from the same SM, so the difference is meaningful; clocks of different
 * SMs are never subtracted).
 *
 * Memory and time.  Records are fed in chunks (lat_stats_add) straight from
 * warplog_reader_chunk; each one costs one histogram increment.  Every SM
 * seen gets an exact histogram of LAT_STATS_BINS one-cycle bins (128 KiB),
 * and latencies of LAT_STATS_BINS cycles or more go to a per-SM overflow
 * list that is sorted once when the statistics are asked for.  Memory is
 * therefore bounded by the number of SMs plus 8 bytes per overflowing warp
 * (none for the read-only kernels, whose latencies are a few thousand
 * cycles); time is O(n) plus the sort of the overflow.
 *
 * Percentiles are EXACT (no binning error) and use numpy's default
 * definition ("linear", Hyndman & Fan type 7): with the n latencies sorted
 * as x[0] <= ... <= x[n-1] and 0 <= p <= 1,
 *
 *     h = (n - 1) * p,   k = floor(h),
 *     P(p) = x[k] + (h - k) * (x[k+1] - x[k])       (x[n] taken as x[n-1])
 *
 * so the median of an even count is the mean of the middle two, p0 is the
 * minimum and p1 the maximum.
 *
 * Records with end_clk < start_clk cannot come from the probe (its latency
 * field is unsigned); they are not counted, only tallied as "bad"
 * (lat_stats_bad) so that a tool can warn.
 */
#ifndef WARPLAT_STATS_H
#define WARPLAT_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "warplog.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LAT_STATS_BINS 16384u /* one-cycle bins per SM: latencies 0..16383 */
#define LAT_STATS_ALL (-1)    /* smid argument meaning "every SM together" */

typedef struct lat_stats lat_stats;

/* One population's summary.  count == 0 leaves every other field 0. */
typedef struct lat_summary {
    uint64_t count;
    double mean_cycles;
    double p5_cycles, p50_cycles, p95_cycles, p99_cycles;
    uint64_t min_cycles, max_cycles;
} lat_summary;

/* NULL when out of memory. */
lat_stats *lat_stats_new(void);
void lat_stats_free(lat_stats *s);

/* Account n records.  0 on success, -1 when out of memory (the statistics
 * then hold an unspecified subset: give up). */
int lat_stats_add(lat_stats *s, const warp_record *r, size_t n);

/* Records skipped because end_clk < start_clk. */
uint64_t lat_stats_bad(const lat_stats *s);

/* The SM ids that have at least one record, ascending: returns the smallest
 * id > after (pass -1 to start), or -1 when there is none. */
int lat_stats_next_sm(const lat_stats *s, int after);

/* Summary of one SM, or of all of them (smid = LAT_STATS_ALL).  The first
 * call after lat_stats_add finalises (sorts the overflow lists, merges the
 * all-SM histogram); 0 on success, -1 when out of memory. */
int lat_stats_summary(lat_stats *s, int smid, lat_summary *out);

/* One type-7 percentile (0 <= p <= 1) of one SM or of all.  NAN when the
 * population is empty, p is outside [0,1], or memory ran out. */
double lat_stats_percentile(lat_stats *s, int smid, double p);

/* Call fn once per distinct latency of the population, ascending, with the
 * number of warps that had it.  Stops early and returns fn's value when fn
 * returns non-zero; returns -1 when out of memory, else 0.  Used to draw
 * CDFs without a second pass over the log. */
int lat_stats_each(lat_stats *s, int smid,
                   int (*fn)(uint64_t lat_cycles, uint64_t nwarps, void *ctx), void *ctx);

/*
 * The SM clock to convert cycles to ns: sm_clock_measured_MHz when the
 * header has it, else sm_clock_nominal_khz / 1000, with a note on warn
 * (may be NULL) naming the log.  0 when neither is known (ns columns are
 * then nan).
 */
double lat_stats_clock_MHz(const warplog_header *h, const char *log_name, FILE *warn);

/*
 * Stream every record of the log at path into s (which may already hold
 * others), copying its header to *h when h is not NULL.  Memory stays
 * bounded: the log is read one chunk at a time with warplog_reader_chunk.
 * 0 on success; -1 with a sentence in err (missing, corrupt or truncated
 * log, out of memory).
 */
int lat_stats_read_log(lat_stats *s, const char *path, warplog_header *h,
                       char *err, size_t errlen);

/* The median of v[0..n), which is sorted in place (the toolkit's one
 * median of timings: the mean of the middle two for even n); NAN when n is 0. */
double stats_median_inplace(double *v, size_t n);

/* cycles / clock_MHz * 1000; NAN when clock_MHz <= 0. */
double lat_cycles_to_ns(double cycles, double clock_MHz);

#ifdef __cplusplus
}
#endif
#endif /* WARPLAT_STATS_H */
