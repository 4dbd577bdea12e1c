/*
 * regions.h - per-region analysis of a warp log with named regions (version
 * 3, warplat.h): the latency distribution of each region, how many warps
 * were inside it at once on an SM, and Little's law's verdict on it.
 *
 * Warps in a region per SM.  On each SM, the records of region r span
 * [first start, last end]; the sum of their latencies divided by that span
 * is the mean number of recorded warps inside the region during it
 * (time-weighted).  With one block in K recorded, the estimate for all
 * warps is K times that, capped at the resident warps per SM when the log
 * knows them (blocks_per_sm x warps_per_block).  The figure for the GPU is
 * the mean over the SMs that have records of the region.
 *
 * A log without regions reads as one region (index 0).
 * Plain C11; memory is bounded: one all-SM latency histogram per region
 * (stats.h, records fed with their smid set to 0) and 32 B per (region, SM).
 * The regions share one population's bound on distinct large latencies
 * (LAT_STATS_MAX_OVERFLOW / regions each), so a log of any number of regions
 * takes at most about 256 MiB for them (stats.h), or is refused.
 */
#ifndef WARPLAT_REGIONS_H
#define WARPLAT_REGIONS_H
#include <stddef.h>
#include <stdint.h>
#include "stats.h"
#include "warplog.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct region_acc region_acc;

typedef struct region_summary {
    lat_summary lat;                 /* latency of the region's records, cycles */
    double recorded_warps_per_sm;    /* mean recorded warps inside it at once (see above) */
    unsigned sms;                    /* SMs with records of the region */
} region_summary;

/* For a log with h's region_count (0 = one region).  NULL: out of memory. */
region_acc *region_acc_new(const warplog_header *h);
/* Account n records.  0, or -1 with a sentence in err (a region id or smid
 * outside the header's, or the statistics' own limits). */
int region_acc_add(region_acc *a, const warp_record *r, size_t n, char *err, size_t errlen);
/* Merge what was accounted (the last batch of large latencies, which may
 * pass the bound): 0, or -1 with a sentence in err.  region_acc_read_log
 * calls it. */
int region_acc_finish(region_acc *a, char *err, size_t errlen);
/* Summary of region r (0 .. regions-1).  0, or -1 (r out of range, memory). */
int region_acc_summary(region_acc *a, uint32_t r, region_summary *out);
uint32_t region_acc_count(const region_acc *a);
void region_acc_free(region_acc *a);
/* Read a whole log into a new accumulator; the header is copied to *h.
 * NULL with err filled on failure. */
region_acc *region_acc_read_log(const char *path, warplog_header *h, char *err, size_t errlen);

/* The name of region r of h: its region name, or the kernel's name for a
 * log without regions. */
const char *region_name(const warplog_header *h, uint32_t r);

/* The index of the region called name in h, or -1 (a log without regions
 * has none). */
int region_index(const warplog_header *h, const char *name);

/*
 * Like lat_stats_read_log (stats.h), but only the records of the region
 * called region (NULL: every record).  -1 with a sentence in err when the
 * log has no region of that name, or as lat_stats_read_log.
 */
int region_lat_read_log(lat_stats *s, const char *path, const char *region, warplog_header *h,
                        char *err, size_t errlen);

/* What the verdict is made of (NAN or 0 where unknown, as marked). */
typedef struct region_verdict_in {
    double p50_cycles;
    double recorded_warps_per_sm;
    double sample_blocks;            /* K */
    double resident_warps_per_sm;    /* blocks_per_sm x warps_per_block; 0 unknown */
    double bytes_per_warp;           /* one pass of the region; 0 unknown */
    double ceiling_GBps;             /* achievable DRAM bandwidth; NAN unknown */
    double dram_latency_ns;          /* unloaded DRAM latency; NAN unknown */
    double sm_clock_MHz;             /* the log's SM clock */
    double sm_count;
} region_verdict_in;

typedef struct region_verdict {
    double warps_per_sm;             /* estimate for all warps (K x recorded, capped) */
    double bytes_in_flight_per_sm;   /* warps_per_sm x bytes_per_warp; NAN unknown */
    double bytes_needed_per_sm;      /* ceiling x DRAM latency / sm_count; NAN unknown */
    double dram_latency_cycles;      /* at this log's clock; NAN unknown */
    double p50_x_dram;               /* p50 / DRAM latency; NAN unknown */
    char text[512];                  /* the verdict, a sentence with its numbers */
} region_verdict;

/*
 * The verdict on region `name`: "region gather: p50 1840 cycles (2.1x the
 * DRAM latency), 22.0 KB in flight per SM of the 8.3 KB the ceiling needs:
 * ...".  The kinds, in order:
 *   - bytes_per_warp or the references unknown: the numbers that are known,
 *     and what is missing;
 *   - in flight >= needed: enough bytes in flight for the ceiling, so not
 *     bound by latency (with p50 >= 2x DRAM: the loads queue, bandwidth- or
 *     sector-bound);
 *   - in flight < needed, warps at >= 90 % of the resident warps: bound by
 *     latency with the SM full: more bytes per warp in flight would help;
 *   - in flight < needed otherwise: bound by latency at this occupancy.
 */
void region_verdict_make(const region_verdict_in *in, const char *name, region_verdict *out);

#ifdef __cplusplus
}
#endif
#endif
