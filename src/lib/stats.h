/*
 * stats.h - exact, streaming per-warp latency statistics, and warps in
 * flight per SM, in memory that does not grow with the number of records.
 *
 * A warp's latency is end_clk - start_clk, in SM cycles (both clocks come
 * from the same SM, so the difference is meaningful; clocks of different
 * SMs are never subtracted).
 *
 * Memory and time.  Records are fed in chunks (lat_stats_add) straight from
 * warplog_reader_chunk; each one costs one histogram increment.  Every SM
 * seen gets an exact histogram of LAT_STATS_BINS one-cycle bins (32-bit
 * counters, 64 KiB), and latencies of LAT_STATS_BINS cycles or more are kept
 * as (latency, count) pairs, sorted.  The memory is therefore bounded by
 * LAT_STATS_MAX_BYTES whatever the number of records:
 *   - at most LAT_STATS_MAX_SMS histograms (smid must be below it; a log's
 *     sm_count is at most that, and lat_stats_read_log refuses records of an
 *     SM the header does not have), plus one 64-bit histogram of all SMs;
 *   - at most LAT_STATS_MAX_OVERFLOW distinct (SM, latency) pairs above the
 *     bins (or fewer: lat_stats_set_max_distinct), held twice (with the
 *     all-SM list) or, while a batch of at most as many is merged, with the
 *     batch and a merged copy of an SM's pairs and the batch together.
 * A log with more distinct large latencies than that is refused with a
 * sentence rather than summarised inexactly (the read-only kernels' latencies
 * are a few thousand cycles, and a probe saturates at 2^24 - 1).  Time is
 * O(n) plus the sorting of the large latencies.
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
#define LAT_STATS_MAX_SMS WARPLOG_MAX_SM_COUNT /* smid must be below this */
#define LAT_STATS_MAX_OVERFLOW (1u << 22) /* distinct (SM, latency >= LAT_STATS_BINS) pairs */
#define LAT_STATS_PENDING 4096u       /* the smallest batch of large latencies before sorting */
/* The bound: per-SM 32-bit and all-SM 64-bit histograms (16.1 MiB), and
 * 64 B per distinct large latency allowed: while a batch is merged, the
 * per-SM pairs (16 B each), the batch (at most as many entries, 16 B each)
 * and the merged copy of an SM's pairs (pairs and batch together, 32 B);
 * after it, the per-SM pairs and the all-SM pairs (16 B each, twice).
 * About 272 MiB with LAT_STATS_MAX_OVERFLOW (16.1 + 256); a population
 * limited with lat_stats_set_max_distinct takes 64 B for each it allows.
 * Memory only touched when a log has that many distinct large latencies. */
#define LAT_STATS_MAX_BYTES ((size_t)LAT_STATS_MAX_SMS * LAT_STATS_BINS * 4u + \
                             (size_t)LAT_STATS_BINS * 8u + \
                             (size_t)LAT_STATS_MAX_OVERFLOW * 16u * 4u)

typedef struct lat_stats lat_stats;

/* One population's summary.  count == 0 leaves every other field 0. */
typedef struct lat_summary {
    uint64_t count;
    double mean_cycles;
    double p5_cycles, p50_cycles, p95_cycles, p99_cycles;
    uint64_t min_cycles, max_cycles;
} lat_summary;

/* NULL when out of memory.  Allows LAT_STATS_MAX_OVERFLOW distinct large
 * latencies. */
lat_stats *lat_stats_new(void);

/* Allow at most max_distinct (1 .. LAT_STATS_MAX_OVERFLOW) distinct (SM,
 * latency >= LAT_STATS_BINS) pairs instead: for several populations read at
 * once (the regions of one log, regions.h), which share one memory bound.
 * Call before the first lat_stats_add. */
void lat_stats_set_max_distinct(lat_stats *s, size_t max_distinct);
void lat_stats_free(lat_stats *s);

/* Account n records.  0 on success, -1 when a record cannot be held within
 * the bounds above (smid >= LAT_STATS_MAX_SMS, too many distinct large
 * latencies, 2^32 warps with one latency on one SM) or memory ran out:
 * lat_stats_error says which, and the statistics then hold an unspecified
 * subset (give up). */
int lat_stats_add(lat_stats *s, const warp_record *r, size_t n);

/* A sentence saying why the last call that returned -1 failed ("" if none). */
const char *lat_stats_error(const lat_stats *s);

/* Records skipped because end_clk < start_clk. */
uint64_t lat_stats_bad(const lat_stats *s);

/* The SM ids that have at least one record, ascending: returns the smallest
 * id > after (pass -1 to start), or -1 when there is none. */
int lat_stats_next_sm(const lat_stats *s, int after);

/* Summary of one SM, or of all of them (smid = LAT_STATS_ALL).  The first
 * call after lat_stats_add finalises (sorts the large latencies, merges the
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
 * A record of an SM the header's sm_count does not have is refused.
 * 0 on success; -1 with a sentence in err (missing, corrupt or truncated
 * log, a record beyond the bounds, out of memory).
 */
int lat_stats_read_log(lat_stats *s, const char *path, warplog_header *h,
                       char *err, size_t errlen);

/* The median of v[0..n), which is sorted in place (the toolkit's one
 * median of timings: the mean of the middle two for even n); NAN when n is 0. */
double stats_median_inplace(double *v, size_t n);

/* The percentile bootstrap interval of the median of x[0..n) (x is not
 * changed): `draws` resamples of n values with replacement, from a fixed
 * generator seeded with seed (the same data give the same interval), and
 * the (1 - level) / 2 and (1 + level) / 2 quantiles of their medians in
 * *lo and *hi.  n = 1: both are x[0].  0, or -1 (n = 0, draws = 0, level
 * outside (0, 1), out of memory: *lo and *hi NAN). */
int stats_median_ci(const double *x, size_t n, double level, unsigned draws, uint64_t seed,
                    double *lo, double *hi);

/* cycles / clock_MHz * 1000; NAN when clock_MHz <= 0. */
double lat_cycles_to_ns(double cycles, double clock_MHz);

#ifdef __cplusplus
}
#endif
#endif /* WARPLAT_STATS_H */
