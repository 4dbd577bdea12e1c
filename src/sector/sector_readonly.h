/*
 * sector_readonly.h - the readonly family's joins of a profiled run
 * (bin/sector_compare --family readonly --measured | --l2-fetch-row): its
 * measured table, which sector_measured.h judges, and its L2
 * fetch-granularity row.  Both write the table to out and their sentences
 * to stderr.
 */
#ifndef WARPLAT_SECTOR_READONLY_H
#define WARPLAT_SECTOR_READONLY_H

#include "tsv.h"

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

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
