/*
 * probeset.h - what the host does with the probes a launch wrote, before
 * (and besides) writing them to a log: expand them into records, summarise
 * their latencies, measure the SM clock from them, count warps in flight.
 * Plain C, no CUDA: the engine calls it on the probes it copied back, the
 * unit tests on probes they made up.
 */
#ifndef WARPLAT_PROBESET_H
#define WARPLAT_PROBESET_H
#include <stddef.h>
#include <stdint.h>
#include "inflight.h"
#include "stats.h"
#include "warplog.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A probe the kernel did not write: the engine fills the array with 0xff
 * bytes before the recording launch, and no block id is 0xffffffff. */
#define PROBE_UNWRITTEN_BLOCK 0xffffffffu

/* How many of the n probes are still unwritten. */
uint64_t probeset_unwritten(const warp_probe *p, uint64_t n);

/* Mean, median, p95 (and the rest) of the probes' latencies, through the
 * statistics module the analysis tools use, so that a run's summary row and
 * bin/latency_stats on its log agree exactly.  0, or -1 with a sentence in
 * err (errlen bytes; err may be NULL): out of memory, or more distinct large
 * latencies than the statistics keep exactly (stats.h). */
int probeset_summary(const warp_probe *p, uint64_t n, uint32_t warps_per_block,
                     uint32_t records_per_warp, lat_summary *out, char *err, size_t errlen);

/*
 * The SM clock during the run, from the probes themselves: on each SM, the
 * clock and the global timer of its earliest and latest probe give cycles per
 * nanosecond.  Only SMs whose probes span at least min_span_ns count (the
 * global timer ticks coarsely); the median over those SMs is returned, or 0
 * when none qualifies (a run too short: say so rather than guess).
 */
double probeset_clock_MHz(const warp_probe *p, uint64_t n, uint64_t gtimer_base_ns,
                          uint64_t min_span_ns);

/* The most warps whose [start, end] intervals overlap on any one SM: on a
 * fully recorded run, resident blocks per SM x warps per block.  Runs on
 * every core (par.h).  Memory: 32 bytes per probe, freed before returning;
 * -1 when out of memory. */
long probeset_max_concurrency(const warp_probe *p, uint64_t n);

/* Warps in flight, the slot period and Little's law closed by measurement
 * (inflight.h) of a launch that recorded every block; gtimer_base_ns unwraps
 * the probes' global timer (read before each window's start), clock_MHz
 * turns cycles into time for the device's span.  0, or -1 with a sentence
 * in err. */
int probeset_inflight(const warp_probe *p, uint64_t n, uint32_t warps_per_block,
                      uint32_t records_per_warp, uint64_t gtimer_base_ns,
                      const inflight_params *prm, inflight_result *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
