/*
 * columns.c - the summary's columns (contract: columns.h).
 *
 * Before this table the header, the row of a valid variant and the row of a
 * failed one were three format strings kept in step by hand.  Now a column
 * is one line: its name (the eng_row field it reads), what it holds (for
 * --list-columns), how it is written, and when it has a value.  The readers
 * (report, bin/tsv) find columns by name; the order is kept as it was so that
 * every summary written before reads the same.
 */
#include "columns.h"

#include <stddef.h>

typedef enum col_kind { COL_STR, COL_U64, COL_U32, COL_INT, COL_DBL } col_kind;
typedef enum col_when {
    COL_ALWAYS,   /* every row */
    COL_TIMED,    /* rows of a variant that passed validation */
    COL_PROBED    /* rows whose instrumented kernel ran */
} col_when;

typedef struct eng_column {
    const char *name;
    const char *meaning;
    col_kind kind;
    size_t offset;             /* of the field in eng_row */
    int decimals;              /* COL_DBL: digits after the point */
    col_when when;
} eng_column;

/* A column: COL(FIELD, KIND, DECIMALS, WHEN, MEANING), FIELD the eng_row
 * field it reads and its name, KIND and WHEN without their COL_ prefix.  A
 * row without its value writes "nan" in a COL_DBL column (a time, a rate, a
 * latency), "-" in any other. */
#define COL(field, kind, dec, when, meaning) \
    {#field, meaning, COL_##kind, offsetof(eng_row, field), dec, COL_##when}

static const eng_column COLUMNS[] = {
    COL(kernel, STR, 0, ALWAYS, "the variant (--kernel)"),
    COL(n, U64, 0, ALWAYS, "elements of the data (N; without N, the product of the family's sizes)"),
    COL(smem_bytes, U32, 0, ALWAYS, "dynamic shared memory per block, bytes (SMEM)"),
    COL(warps_per_block, U32, 0, ALWAYS, "warps per block the variant ran with (WPB, or the variant's own block)"),
    COL(blocks_per_sm, INT, 0, ALWAYS, "resident blocks per SM of the clean kernel (occupancy API)"),
    COL(kernel_ms, DBL, 4, TIMED, "the clean kernel's time, ms: median of --reps launches"),
    COL(kernel_ms_min, DBL, 4, TIMED, "the clean kernel's fastest launch, ms"),
    COL(kernel_ms_max, DBL, 4, TIMED, "the clean kernel's slowest launch, ms"),
    COL(bw_GBps, DBL, 1, TIMED, "(bytes_read + bytes_written) / kernel_ms, GB/s"),
    COL(pct_peak, DBL, 1, TIMED, "bw_GBps in percent of the peak DRAM bandwidth (2 x memory clock x bus width)"),
    COL(sm_clock_MHz, DBL, 0, TIMED, "the SM clock measured from the probes, MHz (0: no probes)"),
    COL(lat_mean_cycles, DBL, 1, PROBED, "mean per-warp latency of what one record covers, SM cycles"),
    COL(lat_p50_cycles, DBL, 1, PROBED, "median per-warp latency, SM cycles"),
    COL(lat_p95_cycles, DBL, 1, PROBED, "95th percentile of the per-warp latency, SM cycles"),
    COL(valid, STR, 0, ALWAYS, "ok: the check launch agreed with the CPU reference; FAIL: it did not (no times, no log)"),
    COL(log, STR, 0, ALWAYS, "the per-warp log written (-: none)"),
    COL(config, STR, 0, ALWAYS, "the configuration of the variant (stride=8, ...; -: it has only one)"),
    COL(sample, U32, 0, PROBED, "one block in sample recorded its warps (-: no probes)"),
    COL(instr_ms, DBL, 4, PROBED, "the instrumented kernel's time, ms: median of --reps launches, interleaved with the clean ones"),
    COL(instr_ms_min, DBL, 4, PROBED, "the instrumented kernel's fastest launch, ms"),
    COL(instr_ms_max, DBL, 4, PROBED, "the instrumented kernel's slowest launch, ms"),
    COL(overhead_pct, DBL, 2, PROBED, "instr_ms / kernel_ms - 1, percent: what the probes cost"),
    COL(records, U64, 0, ALWAYS, "records in the log (0: none)"),
    COL(bytes_read, DBL, 0, ALWAYS, "bytes the kernel asks to read"),
    COL(bytes_written, DBL, 0, ALWAYS, "bytes the kernel asks to write"),
    COL(kernel_fn, STR, 0, ALWAYS, "the clean kernel's function, as Nsight Compute and cuobjdump name it (-: not a kernel)"),
    COL(regs, INT, 0, ALWAYS, "registers per thread of the clean kernel"),
    COL(blocks, U64, 0, ALWAYS, "blocks in the grid"),
    COL(flops, DBL, 0, ALWAYS, "floating-point operations of one launch (0: none counted)"),
    COL(gflops, DBL, 1, TIMED, "flops / kernel_ms, GFLOP/s"),
    COL(launches, U64, 0, TIMED, "timed launches of the clean kernel: --reps at most, fewer once the median is known within --precision"),
    COL(kernel_ms_ci_lo, DBL, 4, TIMED, "the 95 % bootstrap interval of kernel_ms: its low end, ms"),
    COL(kernel_ms_ci_hi, DBL, 4, TIMED, "... its high end, ms"),
    COL(overhead_met, INT, 0, PROBED, "1: overhead_pct is at most --max-overhead; 0: above it even at the sparsest sampling tried (too few blocks to record fewer)"),
    COL(batch_line, U64, 0, ALWAYS, "the line of --batch-file FILE the row ran from, as FILE:LINE counts (0: not a batch): splits one batch's table per line"),
};
enum { NCOLUMNS = sizeof COLUMNS / sizeof COLUMNS[0] };

void eng_columns_header(FILE *f)
{
    for (int i = 0; i < NCOLUMNS; i++) fprintf(f, "%s%s", COLUMNS[i].name, i + 1 < NCOLUMNS ? "\t" : "\n");
}

static void write_value(FILE *f, const eng_column *c, const eng_row *row)
{
    const int has = c->when == COL_ALWAYS || (c->when == COL_TIMED && row->timed) ||
                    (c->when == COL_PROBED && row->probed);
    const char *p = (const char *)row + c->offset;
    if (!has) {
        fputs(c->kind == COL_DBL ? "nan" : "-", f);
        return;
    }
    switch (c->kind) {
    case COL_STR: fputs(*(const char *const *)p, f); break;
    case COL_U64: fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)p); break;
    case COL_U32: fprintf(f, "%u", *(const uint32_t *)p); break;
    case COL_INT: fprintf(f, "%d", *(const int *)p); break;
    case COL_DBL: fprintf(f, "%.*f", c->decimals, *(const double *)p); break;
    }
}

void eng_columns_row(FILE *f, const eng_row *row)
{
    for (int i = 0; i < NCOLUMNS; i++) {
        write_value(f, &COLUMNS[i], row);
        fputc(i + 1 < NCOLUMNS ? '\t' : '\n', f);
    }
}

void eng_columns_list(FILE *f)
{
    for (int i = 0; i < NCOLUMNS; i++) fprintf(f, "%s\t%s\n", COLUMNS[i].name, COLUMNS[i].meaning);
}
