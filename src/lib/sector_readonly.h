/*
 * sector_readonly.h - the readonly family's sector comparison (the readonly
 * mode of bin/sector_compare): its measured table against sector_model.h's
 * predictions, and the join that makes that table from a profiled run.
 * Both write the table to out and their sentences to stderr.
 */
#ifndef WARPLAT_SECTOR_READONLY_H
#define WARPLAT_SECTOR_READONLY_H

#include "sector_model.h"
#include "tsv.h"

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The status of a comparison that is whole but has a row that disagrees
 * under --strict: the table is kept, the program exits 1. */
#define SECTOR_RC_DISAGREE 3

/*
 * MEASURED.tsv at path ("#" metadata, then pattern, elem_bytes, stride,
 * l1_sectors, l2_sectors, dram_sectors, and l1_requests, time_ns when
 * present) against the model: a row agrees when its L1 sectors equal the
 * prediction and its DRAM sectors are within 5 %.  generic: the families'
 * table (sector_table.h); chart: an SVG of the rows too.  opt_n, opt_g,
 * opt_l2, opt_wpb: 0, or what overrides the table's metadata.  Returns 0,
 * SECTOR_RC_DISAGREE (strict and a row disagrees) or 1 (a failure).
 */
int sro_compare(FILE *out, const char *path, int markdown, int strict, int generic,
                const char *chart, uint64_t opt_n, uint64_t opt_g, uint64_t opt_l2,
                uint64_t opt_wpb, int have_opt_seed, uint64_t opt_seed, sm_reuse reuse);
/* The same from an open stream, named path in messages (not closed). */
int sro_compare_stream(FILE *out, FILE *in, const char *path, int markdown, int strict,
                       int generic, const char *chart, uint64_t opt_n, uint64_t opt_g,
                       uint64_t opt_l2, uint64_t opt_wpb, int have_opt_seed, uint64_t opt_seed,
                       sm_reuse reuse);

/*
 * The measured table (l2row 0) or the L2 fetch-granularity row of limit
 * (l2row 1; limit "0", "32", "64" or "128") from the engine's table of the
 * profiled run and bin/ncu_extract's: the k-th row of pattern P pairs with
 * the k-th launch of readonly_P.  Returns 0 or 1.
 */
int sro_join(FILE *out, const char *runs_path, const char *ncu_path, unsigned granule, int l2row,
             const char *limit);
/* The same from the two tables read, named runs_path and ncu_path in
 * messages. */
int sro_join_tables(FILE *out, const tsv_table *runs, const tsv_table *ncu, const char *runs_path,
                    const char *ncu_path, unsigned granule, int l2row, const char *limit);

#ifdef __cplusplus
}
#endif
#endif
