/*
 * report_math.h - the tiling's arithmetic in the report: what its section
 * (report.c) computes from its tables, each a function of numbers or small
 * tables, tested on cases worked out by hand (test_tiling_report.c).
 */
#ifndef WARPLAT_TILING_REPORT_MATH_H
#define WARPLAT_TILING_REPORT_MATH_H

#include <stddef.h>

#include "report_families.h"   /* the report's family-independent arithmetic (rfm_*) */
#include "tsv.h"

typedef struct rfm_tiling {
    char kernel[32];          /* variant: naive, tiled8, ... */
    double tile, wpb, blocks_per_sm, kernel_ms, gflops;
    double lat_p50_cycles, lat_p95_cycles;
    /* Nsight Compute (NAN without its table) */
    double l1_bytes, l1_hit_pct, l2_bytes, dram_bytes, ncu_ms;
} rfm_tiling;

/* One entry per row of a tiling summary (tile from its config "tile=T"),
 * joined with the Nsight Compute table (NULL: none) by the summary's kernel_fn
 * and the table's kernel column.  Returns the count. */
size_t rfm_tiling_read(const tsv_table *summary, const tsv_table *ncu, rfm_tiling *out, size_t max);

/* The bytes a DSIZE x DSIZE multiply must read at least: A and B once, 4 B
 * floats: 2 x DSIZE^2 x 4. */
double rfm_tiling_ideal_bytes(double dsize);

/* Why `fast` beats `slow` (speed-up, bytes at each level, latency), from the
 * numbers: the level whose traffic falls by about the time ratio is named,
 * and a level whose traffic does not fall is said not to explain it. */
int rfm_tiling_speedup_note(const rfm_tiling *slow, const rfm_tiling *fast, double dsize,
                            char *buf, size_t len);

/* Little's law for one kernel's measured DRAM throughput (dram_bytes over
 * Nsight Compute's time): the bytes in flight per SM it needs at the
 * ladder's DRAM latency, in 128 B warp loads. */
int rfm_tiling_littles_note(const rfm_tiling *k, double dram_latency_ns, double sm_count,
                            char *buf, size_t len);

#endif
