/*
 * sweepncu.h - what bin/sweep_ncu takes from an Nsight Compute log and from
 * the occupancy sweep it fills (scripts/occupancy_profile.sh --ncu): the
 * achieved occupancy and DRAM read bandwidth of a kernel's last launch, and
 * the sweep's '#' lines.
 */
#ifndef WARPLAT_SWEEPNCU_H
#define WARPLAT_SWEEPNCU_H
#include <stddef.h>
#include <stdio.h>

#include "ncu_csv.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SWEEPNCU_M_ACH "sm__warps_active.avg.pct_of_peak_sustained_active"
#define SWEEPNCU_M_DRAM "dram__bytes_read.sum.per_second"

/* The last launch of kernel (the name as written, or followed by its
 * signature: '(' or '<') in t: *ach_pct and *dram_GBps (byte/s / 1e9; NAN
 * when absent).  0, or -1 with why filled when there is no such launch or
 * neither value. */
int sweepncu_point(const ncu_table *t, const char *kernel, double *ach_pct, double *dram_GBps,
                   char *why, size_t whylen);

/* Copy the '#' (and blank) lines before a table's header from in to out, as
 * they are, all but a "# ncu<TAB>..." line (it is written anew).  Lines of at
 * most 16 KiB (a longer one is cut in pieces).  0, or -1 on a read error. */
int sweepncu_preamble(FILE *in, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
