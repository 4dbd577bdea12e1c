/*
 * report_run.h - the report's section about this run: the run log (each
 * step of scripts/report.sh with its time and status, from logs/steps.tsv)
 * and, where a GPU was measured, the drift table: each headline figure
 * against the bundled results of the same GPU model (drift.h).
 */
#ifndef WARPLAT_REPORT_RUN_H
#define WARPLAT_REPORT_RUN_H
#include <stddef.h>

#include "report_doc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The run log's totals from a steps.tsv (columns step, status, start_us,
 * end_us): the steps, the failed ones, and the seconds from the first
 * start to the last end.  0, or -1 with err when it cannot be read. */
typedef struct rr_totals {
    size_t steps, failed;
    double wall_s;
} rr_totals;
int rr_read_steps(const char *path, rr_totals *t, char *err, size_t errlen);

/* Add the section "run" to d: the run log table of steps_tsv (when it
 * exists) and, for each measured folder today_dirs[i] (labels[i]) whose
 * GPU model has a folder under ref_root, the drift table, also written as
 * tables_dir/drift_<label>.tsv (tables_dir NULL: not written).  Returns
 * the number of figures outside their tolerance, or -1 when a table could
 * not be written. */
int rr_section(report_doc *d, const char *steps_tsv, const char *ref_root, int n,
               const char *const *today_dirs, const char *const *labels, const char *const *names,
               const char *tables_dir);

#ifdef __cplusplus
}
#endif
#endif
