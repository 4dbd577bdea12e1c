/*
 * report_ctx.h - what a section of the report (bin/report render) and a
 * family's own section and charts (src/families/NAME/report.c,
 * report_family.h) work with: the GPUs whose results are shown, their
 * facts, and the helpers that turn files into figures, tables, "missing"
 * notes and gnuplot charts.
 *
 * The report folder OUTDIR holds data/<gpu>/ (one results folder per GPU,
 * docs/naming.md: results.h finds every file by its name), charts/<gpu>/
 * and tables/<gpu>/ (what the plan's jobs wrote) and logs/failures.tsv
 * (the jobs that failed: columns output, error).
 *
 * Runtime failures that leave nothing to show exit 1 with one sentence
 * (rc_die); the rest is shown in the report as failed or missing.
 */
#ifndef WARPLAT_REPORT_CTX_H
#define WARPLAT_REPORT_CTX_H
#include <stddef.h>
#include <stdio.h>

#include "family.h"
#include "gp.h"
#include "plateau.h"
#include "report_doc.h"
#include "report_facts.h"
#include "report_families.h"
#include "report_family.h"
#include "results.h"
#include "tsv.h"
#include "warplog.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RC_PROG "report"
#define RC_MAX_GPUS 8
#define RC_MAX_FAMILIES 16
#define RC_MAX_WPB 16

/* One GPU's results and what the report knows of its device. */
typedef struct rc_gpu {
    res_gpu r;
    const char *label;
    const char *source;        /* where the results came from (for commands) */
    rf_device dev;
    char name[96];
    char clock_src[200];
    char date[16];
    char driver[64];
    double mem_clock_MHz, bus_bits, nominal_MHz;
    warplog_header hdr;        /* of the first log found */
    int have_hdr;
    rfm_ceiling ceiling[16];   /* ceiling.tsv's rows (nceiling 0: none) */
    int nceiling;
    double dram_ns, dram_cycles; /* the ladder's DRAM plateau (latency_ca.tsv); NAN */
    plateau_level lv[PLATEAU_MAX_LEVELS]; /* the cached ladder's levels */
    int nlv;
} rc_gpu;

struct rc_glance;

/* The report being made. */
typedef struct rc_ctx {
    const char *outdir;
    rc_gpu g[RC_MAX_GPUS];
    int ng;
    char families[RC_MAX_FAMILIES][64]; /* found in the results, or --families */
    size_t nfam;
    tsv_table failures;
    int have_failures;
    struct rc_glance *glance;  /* what the sections register for the first
                                * screen (report_glance.h); NULL: nothing */
} rc_ctx;

/* ------------------------------------------------------------ small helpers */

/* "report: " and the sentence on stderr, exit 1. */
void rc_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* calloc, or rc_die */
void *rc_xcalloc(size_t n, size_t s);
int rc_exists(const char *path);
int rc_is_dir(const char *path);
/* "n/a" for NAN, else fmt with v; returns buf. */
const char *rc_num(char *buf, size_t len, const char *fmt, double v);
/* 1 when s is in the NULL-terminated list (NULL: empty). */
int rc_in_list(const char *const *list, const char *s);
/* qsort comparators: strings (char *), and sizes (char[64]) by their leading
 * number, then by name */
int rc_cmp_str(const void *a, const void *b);
int rc_cmp_n(const void *a, const void *b);
/* The family's report entry (NULL: none, or no report.c). */
const struct fam_report *rc_family(const char *name);
/* The family's words (its report.txt); never NULL: a family without the
 * file, or an unknown name, has every field NULL. */
const struct fam_text *rc_family_text(const char *name);
/* 1 when a complete set has the family's sectors_<name>.tsv: it has a sector
 * model (scripts/ncu_profile.sh profiles exactly those), else 0. */
int rc_family_has_sectors(const char *name);

/* ------------------------------------------------------------ the GPUs' facts */

/* The header of a warplog file.  0, or -1. */
int rc_read_header(const char *path, warplog_header *h);
/* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, L2 51200 KiB)" -> name and SMs. */
void rc_parse_device_meta(const char *v, char *name, size_t len, double *sms);
/* The ceiling of operation op on this GPU, NAN without ceiling.tsv. */
double rc_ceiling_of(const rc_gpu *G, const char *op);
/* The top-level file of a fixed name (NAMES_FIXED), or NULL. */
const res_file *rc_fixed(const rc_gpu *G, const char *base);
/* The levels of a ladder (latency_ca.tsv).  0, or -1 with err. */
int rc_ladder_levels(const char *path, plateau_level *lv, int *n, char *err, size_t errlen);
/* The N of the set: that of the family whose N is the set's (report_family.h
 * sets_n), and whether the set was measured with --quick (N = 1e7); "1e8"
 * when none. */
const char *rc_set_n(const res_gpu *r, int *quick);

/* ------------------------------------------------------------ the page */

/* charts/<label>/<name>.svg, relative to OUTDIR, name printf-formatted. */
void rc_chart_rel(char *buf, size_t len, const rc_gpu *G, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The error a job left for output rel (OUTDIR/rel), or NULL. */
const char *rc_failure_of(const rc_ctx *c, const char *rel);
/* A chart: its figure when drawn, its failure when not.  1 when shown.
 * The caption says what the chart's own check found (NAME.notes beside
 * the chart: rc_pc_finish). */
int rc_figure(report_doc *d, rd_section *s, const rc_ctx *c, const char *rel, const char *caption);
/* "h100: " when several GPUs are shown, else "".  Returns buf. */
const char *rc_pfx(const rc_ctx *c, const rc_gpu *G, char *buf, size_t len);
/* Where a GPU's results came from, for the commands of missing notes. */
const char *rc_src_dir(const rc_gpu *G);
/* "missing: <gpu: >base why" with the command that makes base. */
void rc_missing(report_doc *d, rd_section *s, const rc_ctx *c, const rc_gpu *G, const char *base,
                const char *why);
/* The file's path relative to OUTDIR (for links), or its full path. */
const char *rc_rel_to_out(const rc_ctx *c, const char *path);
/* Links ("data:") to a GPU's files of the given relative paths (NULL-terminated). */
void rc_file_links(report_doc *d, rd_section *s, const rc_ctx *c, const rc_gpu *G, const char *const *bases);
/* "kernel" or "kernel (config)" of row r of a summary. */
void rc_row_key(const tsv_table *t, size_t r, char *buf, size_t len);
/* Tables side by side: rows keyed by column 0, one group of columns per
 * table (labels[i] its title; NULL parts left out), "-" where a table has
 * no such row. */
rd_table *rc_join(const rd_table *const *parts, const char *const *labels, int n);
/* A table as it is: every column, every row. */
rd_table *rc_plain_table(const tsv_table *t);
/* The labs' figures of a sectors table: lab, model, this GPU, and the
 * finding that counts them. */
void rc_lab_table(report_doc *d, rd_section *s, const rc_ctx *c, const rc_gpu *G, const tsv_table *t);
/* The end of a family's section for one GPU: the labs' figures of its
 * sectors table sec (when hc; else, when missing_why is not NULL, the
 * sentence that sectors_EXP.tsv is missing), the links to EXP_1e8_wpb4.tsv
 * and sectors_EXP.tsv, and the tables freed (t when hs, sec when hc). */
void rc_family_close(report_doc *d, rd_section *s, const rc_ctx *c, const rc_gpu *G, const char *exp,
                     const char *p, int hs, tsv_table *t, int hc, tsv_table *sec, const char *missing_why);

/* ------------------------------------------------------------ reading results */

/* The summary of exp at N (NULL: the largest N) and WPB 4 (else the first).
 * 0, or -1 with err. */
int rc_read_summary(const res_gpu *r, const char *exp, const char *n, tsv_table *t, char *err, size_t errlen);
/* sectors_<exp>.tsv.  0, or -1 with err. */
int rc_read_sectors(const res_gpu *r, const char *exp, tsv_table *t, char *err, size_t errlen);
/* The same of a GPU, 1 when read (then tsv_free it), 0 when absent. */
int rc_gpu_summary(const rc_gpu *G, const char *exp, tsv_table *t);
int rc_gpu_sectors(const rc_gpu *G, const char *exp, tsv_table *t);
/* The device of a table's metadata, for titles ("" when none). */
void rc_table_device(const tsv_table *t, char *buf, size_t len);
/* The ceiling of op in ceiling.tsv of a results folder, NAN without. */
double rc_ceiling_in(const res_gpu *r, const char *op);
/* Of a summary: kernel=K, x the config's key, y column col. */
void rc_kseries(const tsv_table *t, const char *kernel, const char *key, const char *col, rfm_series *out);
/* Of a sectors table: variant=V, op=O. */
void rc_sseries(const tsv_table *t, const char *variant, const char *op, const char *key, const char *col,
                rfm_series *out);

/* ------------------------------------------------------------ the families' charts */

/* The chart of that KIND and, in *family, the family whose it is; NULL. */
const fam_chart *rc_chart_of(const char *kind, const char **family);
/* 1 when G has what family's chart fc needs; n gets its N (or ""). */
int rc_chart_n(const rc_gpu *G, const char *family, const fam_chart *fc, char *n, size_t len);
/* The chart's path relative to OUTDIR: charts/<gpu>/<kind>[_<N>].svg. */
void rc_chart_name(char *buf, size_t len, const rc_gpu *G, const fam_chart *fc, const char *n);
/* The N a per-N chart of exp shows: the largest with an Nsight Compute
 * table, else the largest; NULL without summaries. */
const char *rc_shown_n(const rc_gpu *G, const char *exp);
/* A family chart of a GPU (by its KIND): its figure, or its failure;
 * nothing when the GPU lacks what it needs. */
void rc_family_figure(report_doc *d, rd_section *s, const rc_ctx *c, const rc_gpu *G, const char *kind,
                      const char *caption);

/* A chart of several lines: data blocks in one .dat, one plot clause each. */
#define RC_PC_MAX 32
typedef struct rc_pchart {
    gp_job *job;
    FILE *dat;
    char clause[RC_PC_MAX][512];     /* the clause up to its title */
    char title[RC_PC_MAX][256];      /* the key's title, quoted by gp_put_str */
    int n, index;
    /* what is drawn, for the check of what would hide (chartcheck.h) */
    rfm_series drawn[RC_PC_MAX];
    char drawn_title[RC_PC_MAX][128];
    int drawn_axis2[RC_PC_MAX], drawn_line[RC_PC_MAX];
    double drawn_y[RC_PC_MAX];
} rc_pchart;

/* The style of a plain line (rc_pc_series varies its markers and widths,
 * so that lines that coincide stay visible). */
extern const char *const RC_LINESTYLE;

void rc_pc_open(rc_pchart *pc, const char *out, int w, int h);
/* A series as a data block and its clause (style: "with linespoints pt 7";
 * axis2: on the right axis).  An empty series is left out. */
void rc_pc_series(rc_pchart *pc, const rfm_series *sr, const char *title, const char *style, int axis2);
/* A horizontal line at y (NAN: none). */
void rc_pc_hline(rc_pchart *pc, double y, const char *title, const char *style, int axis2);
/* The DRAM peak and, where the set has one, the achievable ceiling of op. */
void rc_pc_peak_ceiling(rc_pchart *pc, double peak, double ceiling, const char *op);
/* Write the script: the settings (lines of gnuplot), then the plot; draw.
 * Before it, the check of chartcheck.h over every series and line drawn,
 * against the y and y2 ranges the settings set: what it finds (series that
 * coincide within 1 %, a series or line outside its axis or on its edge) is
 * written beside the chart as NAME.notes, which rc_figure appends to the
 * chart's caption.  0, or rc_die. */
int rc_pc_finish(rc_pchart *pc, const char *title, const char *settings);
/* A bandwidth chart's close: the DRAM peak and op's ceiling, the title what
 * (", dev" after it when dev is not empty), the settings head, the y range
 * [0 : 1.08 x the peak] (4000 without a peak) and the settings tail (may be
 * empty); then rc_pc_finish. */
int rc_pc_finish_bw(rc_pchart *pc, double peak, double ceiling, const char *op, const char *what,
                    const char *dev, const char *head, const char *tail);

#ifdef __cplusplus
}
#endif
#endif
