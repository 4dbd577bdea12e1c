/*
 * sector_join.h - the join of a family's profiled run with its ncu profile
 * (bin/sector_compare --family F): RUNS, the engine's table of the run
 * (--table: kernel, config, n, warps_per_block, valid, kernel_fn; one row per
 * variant and configuration in launch order), and NCU, bin/ncu_extract's
 * table of the ncu log (kernel, id, one column per metric).
 *
 * The k-th clean row of variant V pairs with the k-th launch of FAMILY_V
 * (or of the row's kernel_fn, when a configuration has a kernel of its own).
 * When NCU has twice as many launches of a kernel as RUNS has rows of it,
 * the validation launched the clean kernel too (check, then clean): the
 * row pairs with the second of each two.  A row whose validation FAILED had
 * no clean launch (the engine skips it).  No function here prints.
 */
#ifndef WARPLAT_SECTOR_JOIN_H
#define WARPLAT_SECTOR_JOIN_H

#include "sector_families.h"
#include "tsv.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How row r of RUNS pairs with a launch of NCU. */
typedef struct sj_pairing {
    char want[128];   /* the clean kernel's name */
    size_t k;         /* the row's index among the clean rows of its kernel */
    size_t kth;       /* the launch of want the row pairs with (0-based) */
    long hit;         /* that launch's row of NCU, or -1 */
    int failed;       /* the row's validation failed: no clean launch */
    int twice;        /* NCU has two launches of want per clean row */
} sj_pairing;

/* Which column of NCU holds each measure and op (-1: none) of the metric
 * sets `sets` (SF_MSET_*); absent gets the metrics NCU lacks, comma
 * separated ("" when none; data wavefronts are optional). */
void sj_columns(const tsv_table *ncu, unsigned sets, int col[SFM_NMEASURES][2], char *absent,
                size_t absent_len);

/* The pairing of row r of RUNS, a row of variant vname of family. */
void sj_pair(const tsv_table *runs, const tsv_table *ncu, const char *family, const char *vname,
             size_t r, sj_pairing *pa);

/* The measured values of NCU's row hit (cleared, NAN, when hit < 0). */
void sj_measured(const tsv_table *ncu, const int col[SFM_NMEASURES][2], long hit,
                 sf_measured *meas);

/* The kernel whose launches row r of RUNS claims (its kernel_fn, else
 * FAMILY_<kernel>) into want; returns 1 when the row had a clean launch,
 * 0 when its validation FAILED. */
int sj_row_kernel(const tsv_table *runs, size_t r, const char *family, char *want, size_t len);

/* The first row j >= from of NCU that no row of RUNS claims: the first
 * launch of a FAMILY_* kernel beyond the clean rows that claim that kernel
 * (as sj_pair pairs them: by kernel_fn, else FAMILY_V), unless the launches
 * are twice the rows; its kernel's base name in kernel.  Returns NCU's row
 * count when there is none. */
size_t sj_unclaimed(const tsv_table *runs, const tsv_table *ncu, const char *family, size_t from,
                    char *kernel, size_t len);

#ifdef __cplusplus
}
#endif
#endif
