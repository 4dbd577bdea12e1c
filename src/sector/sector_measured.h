/*
 * sector_measured.h - readonly's measured table judged by the families'
 * sector model (bin/sector_compare MEASURED.tsv).
 *
 * The table is what scripts/ncu_profile.sh readonly writes and what
 * data/reference/GPU/sectors_readonly.tsv holds: ncu's counts only, "#"
 * metadata (n, wpb, dram_granularity_bytes, l2_bytes, seed, device), then
 * pattern, stride, l1_sectors, l2_sectors, dram_sectors, and elem_bytes,
 * l1_requests, time_ns when present.  Each row is a launch of
 * readonly_PATTERN at that N; it is predicted by the readonly family's
 * generators (sf_predict) and judged as every family's launch is (sf_judge):
 * requests and sectors exact, L2 sectors inside the model's bounds, DRAM
 * within 5 %.  The output is the families' table (sector_table.h).
 */
#ifndef WARPLAT_SECTOR_MEASURED_H
#define WARPLAT_SECTOR_MEASURED_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The status of a comparison that is whole but has a row that disagrees
 * under --strict: the table is kept, the program exits 1. */
#define SECTOR_RC_DISAGREE 3

typedef struct smt_opts {
    int markdown, strict;
    const char *chart;        /* NULL, or an SVG/PNG/PDF of sectors and time against stride */
    /* 0: the table's metadata, else the defaults (sf_params_default; WPB 4) */
    uint64_t n, granule, l2_bytes, wpb;
    int have_seed;
    uint64_t seed;
    int walk;                 /* 1: the model's reference walk (sf_params.walk) */
} smt_opts;

/*
 * Judge the measured table read from in (named path in messages; not
 * closed) and write the families' table to out, sentences to stderr.  A row
 * the model refuses (an N beyond what it walks, SF_MAX_WORK, where it cannot count) is written with
 * no prediction, agree "-", the reason in its note.  Returns 0,
 * SECTOR_RC_DISAGREE (strict and a row disagrees) or 1 (a failure).
 */
int smt_compare(FILE *out, FILE *in, const char *path, const smt_opts *o);

#ifdef __cplusplus
}
#endif
#endif
