/*
 * ncu_split.h - one Nsight Compute process over a family's whole ncu recipe
 * (scripts/ncu_profile.sh), split back into the recipe's runs.
 *
 * The recipe's runs are the lines of one engine --batch-file; the batch's
 * table (RUNS) names each row's line (column batch_line), and bin/ncu_extract's
 * table of the one log (NCU: kernel, id, metrics) has the launches in the
 * order ncu profiled them.  A launch's line is the line of the row that
 * claims it, by the rule of the join (sector_join.h): the k-th clean row of
 * a kernel claims its k-th launch, or its (2k+1)-th and the one before when
 * the kernel has two launches per clean row (validation, then the timed
 * launch).  A launch no row claims (a failed row's validation, a launch
 * the join would call unclaimed) stays with the line of the launch before
 * it, as it would have stayed in that line's own log.  No function prints.
 */
#ifndef WARPLAT_NCU_SPLIT_H
#define WARPLAT_NCU_SPLIT_H

#include "tsv.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The batch line of each launch of NCU into line[0 .. NCU's rows - 1]
 * (0: before any claimed launch, no line).  Returns 0, or -1 with err when
 * RUNS has no batch_line column or NCU no kernel column.
 */
int sns_assign(const tsv_table *runs, const tsv_table *ncu, const char *family, long *line,
               char *err, size_t errlen);

/*
 * For each run of RECIPE (bin/sector_model --ncu-recipe: columns run,
 * kernel, line), write DIR/<run>_runs.tsv (RUNS's '#' lines and header, its
 * rows of that line) and DIR/<run>.tsv (NCU's header, the launches of that
 * line whose kernel matches the run's regex as bin/ncu_extract --kernel
 * matches: a substring or an extended regex), each through outfile (whole
 * or not at all).  Returns 0, or -1 with err (a table unreadable, a column
 * missing, a run with no row in RUNS, a write failed).
 */
int sns_split(const char *recipe, const char *runs, const char *ncu, const char *family,
              const char *dir, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
