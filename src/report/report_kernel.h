/*
 * report_kernel.h - the report of your own kernel (make report
 * REPORT_ARGS="--log FILE"): for each region of the log, its latency
 * distribution and timeline charts, and the verdict in numbers of
 * bin/verdict (bytes in flight per SM against what Little's law needs at
 * the GPU's achievable ceiling and DRAM latency).
 *
 * It reads what scripts/report.sh left in OUTDIR:
 *   tables/verdict.tsv        bin/verdict LOG --ref DIR (one row a region)
 *   tables/latency_stats.tsv  bin/latency_stats LOG (a row a region and "all")
 *   charts/warps_<region>.svg, charts/latency_<region>.svg
 *   logs/steps.tsv, logs/failures.tsv   the run log and the failed charts
 * every table by column name.
 */
#ifndef WARPLAT_REPORT_KERNEL_H
#define WARPLAT_REPORT_KERNEL_H
#include <stddef.h>

#include "report_doc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Build the document of OUTDIR (see above).  NULL with a sentence in err
 * when verdict.tsv cannot be read; a missing chart or statistics table is a
 * note in the document, not an error. */
report_doc *rk_build(const char *outdir, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
