/*
 * report_cmd.h - the commands of bin/report (src/report/main.c is their
 * command line) and the common sections of the page they assemble.  The
 * families' own sections and charts come from the registry (family.h,
 * report_family.h); what the sections share is report_ctx.h.
 *
 * Every command returns the exit status: 0 ok, 1 runtime failure, 2 usage
 * error (with a sentence on stderr).
 */
#ifndef WARPLAT_REPORT_CMD_H
#define WARPLAT_REPORT_CMD_H
#include "report_ctx.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ commands */

/* OUTDIR/data/<label>/ for every folder that holds results, sorted (src:
 * the LABEL=DIR arguments, where each came from). */
void rc_load_gpus(rc_ctx *c, int nsrc, char **src);
/* Families: those found in any GPU's results, then any of list (a,b,c). */
void rc_find_families(rc_ctx *c, const char *list);

/* report plan: the jobs (jobplan.h), in the TSV form, or with nul in the
 * NUL form that bin/report run-plan reads. */
int rc_cmd_plan(rc_ctx *c, int nul);
/* report plan OUTDIR --log LOG: the charts of your own kernel's log, two
 * per region (its latency distribution and its per-warp timeline), into
 * OUTDIR/charts/. */
int rc_cmd_plan_kernel(const char *outdir, const char *log, int nul);
/* report run-plan PLAN OUTDIR: run the jobs (jobrun.h), recording them in
 * OUTDIR/logs/; the failed ones' names, NUL-ended, on stdout. */
int rc_cmd_run_plan(const char *plan, const char *outdir, int jobs, int no_charts, long long t0_us);
/* report render: OUTDIR/index.html and index.md. */
int rc_cmd_render(rc_ctx *c, const char *mode, const char *note, const char *ref_root);
/* report kernel: the report of your own kernel's log (report_kernel.h). */
int rc_cmd_kernel(const char *outdir);
/* report expected DIR: the files DIR lacks, with the command of each. */
int rc_cmd_expected(const char *dir, const char *families);
/* report gpus DIR: the results folders in DIR, one a line (nul: each
 * ended by a NUL instead, for a script: a folder's name may hold a newline). */
int rc_cmd_gpus(const char *dir, int nul);
int rc_cmd_chart_bandwidth(const char *out, int n, char **files, double ceiling);
int rc_cmd_chart_ladders(const char *out, int n, char **specs);
int rc_cmd_chart_family(const char *out, const char *kind, const char *dir, const char *n);
/* The chart kinds of every family, ", "-separated, into buf. */
void rc_chart_kinds(char *buf, size_t len);

/* ------------------------------------------------------------ the plan's names */

/* charts/<gpu>/warps_<log>.svg */
void rc_warps_chart(char *buf, size_t len, const rc_gpu *G, const res_file *log);
/* sweep_readonly_float4_4.tsv -> charts/<gpu>/throughput_readonly_float4_4.svg */
void rc_sweep_chart(char *buf, size_t len, const rc_gpu *G, const res_file *sw);
/* tables/<gpu>/sectors_<exp>_compare.tsv */
void rc_compare_rel(char *buf, size_t len, const rc_gpu *G, const char *exp);
/* A sector table that holds only ncu's counts (then sector_compare makes
 * the comparison), not the model's prediction already. */
int rc_sectors_need_compare(const char *path);
/* The WPB the latency distribution is drawn at: 4 if there, else the smallest. */
unsigned rc_dist_wpb(const rc_gpu *G, const char *dir, const char *exp);
/* The experiments that have logs in dir, in order. */
size_t rc_log_exps(const rc_gpu *G, const char *dir, char (*out)[64], size_t max);

/* ------------------------------------------------------------ sections */

/* Latency statistics of every log of a timeline folder. */
typedef struct rc_logstat {
    const res_file *f;
    lat_summary s;
    warplog_header h;
    int ok;
    char err[256];
} rc_logstat;

rc_logstat *rc_timeline_stats(const rc_gpu *G, const char *dir, size_t *n);

/* The common sections, in the order of the page; the title and opening
 * paragraph of each are one table, the report's outline (report_sections.c). */
typedef enum rc_section_id {
    RC_SEC_DEVICE, RC_SEC_OVERHEAD, RC_SEC_TIMELINES, RC_SEC_LATENCY, RC_SEC_LADDER, RC_SEC_SWEEPS,
    RC_SEC_SECTORS, RC_SEC_FILES, RC_NSECTIONS
} rc_section_id;
/* Section id added to d, with its title, opened by its paragraph. */
rd_section *rc_section_open(report_doc *d, rc_section_id id);

void rc_sec_device(report_doc *d, const rc_ctx *c);
void rc_sec_family(report_doc *d, const rc_ctx *c, const char *exp);
void rc_sec_overhead(report_doc *d, const rc_ctx *c);
void rc_sec_timelines(report_doc *d, const rc_ctx *c, rc_logstat **stats, size_t *nstats);
void rc_sec_latency(report_doc *d, const rc_ctx *c, rc_logstat **stats, size_t *nstats);
void rc_sec_ladder(report_doc *d, const rc_ctx *c);
void rc_sec_sweeps(report_doc *d, const rc_ctx *c);
void rc_sec_sectors(report_doc *d, const rc_ctx *c);
void rc_sec_files(report_doc *d, const rc_ctx *c);

/* Call fn for every file a complete results folder has (docs/naming.md, as
 * scripts/reference.sh writes it), for the families fams. */
void rc_expected(const res_gpu *r, char (*fams)[64], size_t nfam, void (*fn)(const char *base, void *arg),
                 void *arg);
/* The summary a family's set would start with, for a "missing" note. */
void rc_first_summary(const rc_gpu *G, const char *exp, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
