/*
 * overlap.h - warps in flight per SM, from a log's records (lat_overlap_*;
 * bin/warplog's in-flight count).
 */
#ifndef WARPLAT_OVERLAP_H
#define WARPLAT_OVERLAP_H

#include <stdint.h>

#include "stats.h"     /* LAT_STATS_MAX_SMS */
#include "warplog.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Per SM, the most warps whose timed regions overlap: the records'
 * [start_clk, end_clk) intervals, an end counting before a start at the same
 * cycle (touching regions do not overlap).  Records with end_clk <= start_clk
 * are counted as warps but not as intervals.
 *
 * Memory independent of the record count.  A log is written in launch order,
 * and an SM starts its blocks in that order, so the records of one SM arrive
 * almost sorted by start (on the H100 no record started before more than 30
 * earlier records of its SM).  Each SM keeps the intervals not yet swept in a
 * heap of at most lat_overlap_window() entries and sweeps the earliest when
 * it is full; a record that starts before one already swept (out of order by
 * more than the window) makes that SM's count unknown (LAT_OVERLAP_DISORDER),
 * as does having more than the window in flight at once
 * (LAT_OVERLAP_TOO_MANY; no GPU holds 2^16 warps on an SM).  The window is
 * LAT_OVERLAP_BUDGET / sm_count, at least 64: 24 bytes an interval, about
 * 6 MiB in all.  Where it is neither, the count is exact.
 */
#define LAT_OVERLAP_BUDGET (1u << 18)

enum { LAT_OVERLAP_EXACT = 0, LAT_OVERLAP_DISORDER = 1, LAT_OVERLAP_TOO_MANY = 2 };

typedef struct lat_overlap lat_overlap;

typedef struct lat_overlap_sm {
    uint64_t warps;          /* records of the SM */
    uint64_t max_in_flight;  /* exact when status is EXACT, else a lower bound */
    int status;              /* LAT_OVERLAP_* */
} lat_overlap_sm;

/* sm_count in 1..LAT_STATS_MAX_SMS; NULL when out of memory or out of range. */
lat_overlap *lat_overlap_new(uint32_t sm_count);
void lat_overlap_free(lat_overlap *o);
/* Account one record, r->smid < sm_count.  0, or -1 when out of memory. */
int lat_overlap_add(lat_overlap *o, const warp_record *r);
/* Sweep what is left (call once, after the last add).  0, or -1 out of memory. */
int lat_overlap_finish(lat_overlap *o);
/* The result of SM sm (< sm_count), after lat_overlap_finish. */
void lat_overlap_get(const lat_overlap *o, unsigned sm, lat_overlap_sm *out);
/* Intervals each SM may hold unswept (and in flight). */
uint32_t lat_overlap_window(const lat_overlap *o);

#ifdef __cplusplus
}
#endif
#endif /* WARPLAT_OVERLAP_H */
