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
    const char *absent;        /* written when the row has no value */
} eng_column;

#define COL(field, kind, dec, when, absent, meaning) \
    {#field, meaning, kind, offsetof(eng_row, field), dec, when, absent}
/* The usual rows: a value on every row ("-" when it has none); a time or a
 * rate of a validated variant ("nan" before); a figure of the probes. */
#define ALWAYS(field, kind, meaning) COL(field, kind, 0, COL_ALWAYS, "-", meaning)
#define TIMED(field, dec, meaning) COL(field, COL_DBL, dec, COL_TIMED, "nan", meaning)
#define PROBED(field, dec, meaning) COL(field, COL_DBL, dec, COL_PROBED, "nan", meaning)

static const eng_column COLUMNS[] = {
    ALWAYS(kernel, COL_STR, "the variant (--kernel)"),
    ALWAYS(n, COL_U64, "elements of the data (N; without N, the product of the family's sizes)"),
    ALWAYS(smem_bytes, COL_U32, "dynamic shared memory per block, bytes (SMEM)"),
    ALWAYS(warps_per_block, COL_U32,
        "warps per block the variant ran with (WPB, or the variant's own block)"),
    ALWAYS(blocks_per_sm, COL_INT, "resident blocks per SM of the clean kernel (occupancy API)"),
    TIMED(kernel_ms, 4, "the clean kernel's time, ms: median of --reps launches"),
    TIMED(kernel_ms_min, 4, "the clean kernel's fastest launch, ms"),
    TIMED(kernel_ms_max, 4, "the clean kernel's slowest launch, ms"),
    TIMED(bw_GBps, 1, "(bytes_read + bytes_written) / kernel_ms, GB/s"),
    TIMED(pct_peak, 1, "bw_GBps in percent of the peak DRAM bandwidth (2 x memory clock x bus width)"),
    TIMED(sm_clock_MHz, 0, "the SM clock measured from the probes, MHz (0: no probes)"),
    PROBED(lat_mean_cycles, 1, "mean per-warp latency of what one record covers, SM cycles"),
    PROBED(lat_p50_cycles, 1, "median per-warp latency, SM cycles"),
    PROBED(lat_p95_cycles, 1, "95th percentile of the per-warp latency, SM cycles"),
    ALWAYS(valid, COL_STR,
        "ok: the check launch agreed with the CPU reference; FAIL: it did not (no times, no log)"),
    ALWAYS(log, COL_STR, "the per-warp log written (-: none)"),
    ALWAYS(config, COL_STR, "the configuration of the variant (stride=8, ...; -: it has only one)"),
    COL(sample, COL_U32, 0, COL_PROBED, "-", "one block in sample recorded its warps (-: no probes)"),
    PROBED(instr_ms, 4,
        "the instrumented kernel's time, ms: median of --reps launches, interleaved with the clean ones"),
    PROBED(instr_ms_min, 4, "the instrumented kernel's fastest launch, ms"),
    PROBED(instr_ms_max, 4, "the instrumented kernel's slowest launch, ms"),
    PROBED(overhead_pct, 2, "instr_ms / kernel_ms - 1, percent: what the probes cost"),
    ALWAYS(records, COL_U64, "records in the log (0: none)"),
    ALWAYS(bytes_read, COL_DBL, "bytes the kernel asks to read"),
    ALWAYS(bytes_written, COL_DBL, "bytes the kernel asks to write"),
    ALWAYS(kernel_fn, COL_STR,
        "the clean kernel's function, as Nsight Compute and cuobjdump name it (-: not a kernel)"),
    ALWAYS(regs, COL_INT, "registers per thread of the clean kernel"),
    ALWAYS(blocks, COL_U64, "blocks in the grid"),
    ALWAYS(flops, COL_DBL, "floating-point operations of one launch (0: none counted)"),
    TIMED(gflops, 1, "flops / kernel_ms, GFLOP/s"),
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
        fputs(c->absent, f);
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
