/*
 * sweep.h - reader of the occupancy-sweep table (format: docs/postprocessors.md).
 *
 *   # key<TAB>value          metadata, the keys of warplog_header_print
 *   # any other comment      ignored
 *   col<TAB>col<TAB>...      header row: the first line not starting with '#'
 *   v<TAB>v<TAB>...          one row per sweep point; "nan" (or "-", or an
 *                            empty field) for a missing value
 *
 * Columns are found by name, in any order; unknown columns are ignored and
 * known ones that are absent read as NAN (or "" for log).  Blank lines and
 * a trailing '\r' are tolerated.  A row with a different number of fields
 * than the header, or a field that is not a number, is an error naming the
 * line: a sweep that silently loses a point would bend a chart.  Numbers are
 * decimal and finite ("inf" and "1e400" are not numbers here).
 *
 * Bounds: at most SWEEP_MAX_POINTS rows, SWEEP_MAX_COLUMNS columns,
 * SWEEP_MAX_META metadata lines and LINES_MAX_BYTES a line; a table beyond
 * them is refused, so the memory a file can ask for is bounded.
 */
#ifndef WARPLAT_SWEEP_H
#define WARPLAT_SWEEP_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWEEP_MAX_POINTS  65536u
#define SWEEP_MAX_COLUMNS 4096u
#define SWEEP_MAX_META    65536u

/* X(name): every numeric column the parser knows, in docs order. */
#define SWEEP_NUMERIC_COLUMNS(X) \
    X(smem_bytes) X(blocks_per_sm) X(warps_per_sm) X(occupancy_pct) \
    X(kernel_ms) X(kernel_ms_min) X(kernel_ms_max) \
    X(bw_GBps) X(bw_GBps_min) X(bw_GBps_max) \
    X(lat_mean_cycles) X(lat_p50_cycles) X(bound_GBps) X(closure_err_pct) \
    X(achieved_occupancy_pct) X(dram_read_GBps) \
    X(inflight_warps_per_sm) X(slot_period_cycles) X(slot_rest_cycles) X(instr_bw_GBps) \
    X(bound_inflight_GBps) X(closure_inflight_err_pct) X(launch_drain_pct) X(sm_imbalance_pct)

typedef struct sweep_point {
#define SWEEP_FIELD(name) double name;
    SWEEP_NUMERIC_COLUMNS(SWEEP_FIELD)
#undef SWEEP_FIELD
    char log[256]; /* the point's log file, "" when the column is absent */
} sweep_point;

typedef struct sweep_meta {
    char *key;
    char *value;
} sweep_meta;

typedef struct sweep {
    sweep_meta *meta;
    size_t nmeta;
    sweep_point *points;
    size_t npoints;
    int has_column[32]; /* by the order of SWEEP_NUMERIC_COLUMNS */
} sweep;

/* Parse f (name is used in messages).  0 on success; -1 with a sentence in
 * err, and *out left empty, on a malformed table or out of memory. */
int sweep_parse(FILE *f, const char *name, sweep *out, char *err, size_t errlen);
/* Open and parse path. */
int sweep_read(const char *path, sweep *out, char *err, size_t errlen);
void sweep_free(sweep *s);

/* The last value given for key, or NULL. */
const char *sweep_meta_get(const sweep *s, const char *key);
/* That value as a number; NAN when absent or not entirely a number. */
double sweep_meta_num(const sweep *s, const char *key);
/* 1 when the table had the named numeric column. */
int sweep_has_column(const sweep *s, const char *name);

#ifdef __cplusplus
}
#endif
#endif /* WARPLAT_SWEEP_H */
