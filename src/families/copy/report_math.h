/*
 * report_math.h - the copy family's arithmetic in the report: its strides in a sentence and its bandwidths against a reference,
 * each a function of numbers or small tables, tested on cases worked out by
 * hand (test_copy_report.c).
 */
#ifndef WARPLAT_COPY_REPORT_MATH_H
#define WARPLAT_COPY_REPORT_MATH_H

#include <stddef.h>

#include "report_families.h"   /* the report's family-independent arithmetic (rfm_*) */
#include "tsv.h"

/* Strided accesses: "stride (loads): 4 sectors per request at stride 1, 32
 * from stride 8 on (12.5% of the bytes moved are used); bandwidth 1671.8 GB/s
 * at stride 1, 197.5 at stride 128."  spr: measured sectors per request
 * against stride; bw: GB/s against stride. */
int rfm_stride_note(const char *what, const rfm_series *spr, const rfm_series *bw, char *buf,
                    size_t len);

/* A named bandwidth against a reference bandwidth, for a list that names
 * the reference once: "batch_restrict (batch=4) 2965.2 GB/s (102.3%)". */
int rfm_vs_reference(const char *name, double bw_GBps, double ref_GBps, char *buf, size_t len);

#endif
