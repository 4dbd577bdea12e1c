/*
 * columns.h - the summary's columns, defined once (columns.c): the one table
 * writes the header, every row and --list-columns.  Plain C (no CUDA), so
 * that a unit test can check the bytes (tests/unit/test_engine_columns.c).
 *
 * A row's values live in an eng_row whose field names are the column names;
 * a column that has no value in a row (no timing after a failed validation,
 * no probes) is written as that column's placeholder ("nan" or "-").
 */
#ifndef WARPLAT_ENGINE_COLUMNS_H
#define WARPLAT_ENGINE_COLUMNS_H

#include <stdint.h>
#include <stdio.h>

typedef struct eng_row {
    int timed;                 /* 0: the variant failed validation: no times */
    int probed;                /* the instrumented kernel ran: latencies, sample, instr_* */
    const char *kernel;
    uint64_t n;
    uint32_t smem_bytes, warps_per_block;
    int blocks_per_sm;
    double kernel_ms, kernel_ms_min, kernel_ms_max, bw_GBps, pct_peak, sm_clock_MHz;
    double lat_mean_cycles, lat_p50_cycles, lat_p95_cycles;
    const char *valid;         /* "ok" or "FAIL" */
    const char *log, *config;  /* "-" when none */
    uint32_t sample;
    double instr_ms, instr_ms_min, instr_ms_max, overhead_pct;
    uint64_t records;
    double bytes_read, bytes_written;
    const char *kernel_fn;     /* "-" when the variant is not a kernel */
    int regs;
    uint64_t blocks;
    double flops, gflops;
    uint64_t launches;         /* timed launches of the clean kernel (--reps at most) */
    double kernel_ms_ci_lo, kernel_ms_ci_hi;   /* the 95 % bootstrap interval of kernel_ms */
    int overhead_met;          /* overhead_pct <= --max-overhead */
    uint64_t batch_line;       /* the --batch-file line the row ran from (0: not a batch) */
} eng_row;

/* The header line: the column names, tab-separated, newline-terminated. */
void eng_columns_header(FILE *f);
/* One row. */
void eng_columns_row(FILE *f, const eng_row *row);
/* --list-columns: "name<TAB>meaning" per column. */
void eng_columns_list(FILE *f);

#endif
