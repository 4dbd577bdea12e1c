/*
 * report_math.h - the patterns family's arithmetic in the report: its offsets in a sentence, the bandwidth a level moves and its write patterns,
 * each a function of numbers or small tables, tested on cases worked out by
 * hand (test_patterns_report.c).
 */
#ifndef WARPLAT_PATTERNS_REPORT_MATH_H
#define WARPLAT_PATTERNS_REPORT_MATH_H

#include <stddef.h>

#include "report_families.h"   /* the report's family-independent arithmetic (rfm_*) */
#include "tsv.h"

/* Misalignment: how far bandwidth moves over the offsets against how far
 * the L1 utilization does, per path. */
int rfm_offset_note(const char *path, const rfm_series *bw, const rfm_series *util, char *buf,
                    size_t len);

/* The bandwidth a level moves for a kernel that asks for asked_GBps with
 * that level's utilization (bytes asked / bytes moved, %): asked / util.
 * NAN when util is not positive. */
double rfm_moved_GBps(double asked_GBps, double util_pct);

/* The write patterns of a patterns summary (kernels write_*), rows of one
 * kernel with the same measured sectors and L2 requests per request (the
 * store rows of the sectors table, NULL: none) merged: their
 * configurations compacted, time and bandwidth as ranges. */
typedef struct rfm_write_group {
    char kernel[48];
    char configs[256];
    size_t nconfig;
    double ms_lo, ms_hi, bw_lo, bw_hi, bytes_written;
    double sectors_per_request, l2_per_request;   /* measured; NAN without */
} rfm_write_group;

size_t rfm_write_groups(const tsv_table *summary, const tsv_table *sectors, rfm_write_group *out, size_t max);

#endif
