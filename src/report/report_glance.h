/*
 * report_glance.h - the answers first: the report's opening screen, one
 * block per GPU, and report/summary.json, both from one set of figures
 * (docs/report.md, "The first screen and summary.json").
 *
 * Per GPU: the device and its clocks; the achievable read against the
 * theoretical peak; the ladder (L1, L2 near and far, DRAM, in cycles and
 * ns); per family its headline (the fastest kernel of its main table) and
 * what explains it (the Little's-law verdict, the sector ratio, the
 * speed-up: the first finding of the family's own section); the probes'
 * largest overhead; after a GPU run, the drift verdict against the bundled
 * results of the same model; the random model check's agreement.  Each
 * line links to the section it comes from.
 *
 * The sections register the family headlines while they compute them
 * (rc_glance_headline, rc_glance_why); rc_glance_finish reads the rest from
 * the results folders and the finished document, puts the section first
 * and writes summary.json through outfile.h.
 */
#ifndef WARPLAT_REPORT_GLANCE_H
#define WARPLAT_REPORT_GLANCE_H
#include <stdio.h>

#include "report_ctx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An empty register (free it with free()); rc_die when out of memory. */
struct rc_glance *rc_glance_new(void);

/* A family's headline on GPU gi: its fastest kernel (kernel, config), at
 * wpb warps per block, bw GB/s (pct % of the DRAM peak) or gflops GFLOP/s
 * (NAN where not a compute kernel), and the finding's sentence.  The first
 * call per GPU and family counts. */
void rc_glance_headline(const rc_ctx *c, int gi, const char *family, const char *kernel, const char *config,
                        double wpb, double bw, double pct, double gflops, const char *text);
/* What explains it (a sentence, and the section it is in); the first call
 * counts, and it comes before the family section's first finding. */
void rc_glance_why(const rc_ctx *c, int gi, const char *family, const char *text, const char *section);

/* The first screen, put before every other section of d, and OUTDIR/
 * summary.json (mode: gpu, reference or data; in gpu mode the drift
 * against ref_root).  0, or -1 after a sentence on stderr. */
int rc_glance_finish(report_doc *d, const rc_ctx *c, const char *mode, const char *ref_root);

/* The first sentence of text, at most max characters (cut at a clause
 * with "..." when longer), into buf.  For tests. */
void rc_glance_sentence(const char *text, size_t max, char *buf, size_t len);

/* A Little's-law finding (report_facts.h, rf_littles_note) in one short
 * sentence: the bytes in flight it needs per SM, what the resident warps
 * hold, the verdict; the first sentence when it is not one.  For tests. */
void rc_glance_littles(const char *text, char *buf, size_t len);

/* Write s as a JSON string (quoted, escaped). */
void rc_json_str(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif
#endif
