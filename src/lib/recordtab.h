/*
 * recordtab.h - warp records written as text, one a line (bin/mklog's
 * stdin, the tests' fixtures):
 *
 *   start_clk end_clk gtimer_ns block warp smid [region]
 *
 * whitespace-separated unsigned integers; blank lines and lines starting
 * with '#' are skipped.  region (0 when left out) is below
 * WARPLOG_MAX_REGIONS.  A warp above 255 lands in the region byte, as the
 * 16-bit warp field of log versions 1-2 stored it (tests of the reader use
 * that).
 */
#ifndef WARPLAT_RECORDTAB_H
#define WARPLAT_RECORDTAB_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "warplog.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RECORDTAB_MAX_LINE 4096 /* a record line is seven numbers */

/* One record line (NUL-terminated; it is cut into tokens).  1 with *r
 * filled, 0 for a blank or '#' line, -1 with a sentence in err ("expected
 * six unsigned integers ...; block is missing"). */
int recordtab_parse_line(char *line, warp_record *r, char *err, size_t errlen);

/* Every record of in (named name in sentences: "stdin line 3: ...").  At
 * most max_records of them (a pipe may never end).  0 with *recs (free it),
 * *n and *max_block (the largest block, 0 when none) filled; -1 with a
 * sentence in err and nothing to free. */
int recordtab_read(FILE *in, const char *name, size_t max_records, warp_record **recs, size_t *n,
                   uint32_t *max_block, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
