/*
 * report_family.h - what the report knows of one kernel family: its
 * paragraph, the files its runs write, its own section and its own charts.
 *
 * A family's folder src/families/NAME/ holds report.c, which defines
 *
 *     const struct fam_report fam_report_NAME = { ... };
 *
 * and report.txt, its words (famtext.h), and make registers both (family.h:
 * fam_lookup("NAME")->report and ->text).  A family
 * without report.c still has the report's common section: its summaries
 * per WPB and the bandwidth-against-WPB chart.  The functions a section or
 * a chart needs (figures, missing notes, tables side by side, gnuplot
 * charts of series) are in report_ctx.h.
 */
#ifndef WARPLAT_REPORT_FAMILY_H
#define WARPLAT_REPORT_FAMILY_H
#include <stddef.h>

#include "family.h"
#include "report_doc.h"
#include "results.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rc_ctx;  /* report_ctx.h */

/* What a family chart needs to be drawn for a GPU. */
typedef enum fam_chart_needs {
    FAM_CHART_SUMMARY,  /* a summary of the family */
    FAM_CHART_SECTORS,  /* the family's sectors_<name>.tsv */
    FAM_CHART_PER_N     /* a summary; drawn at one N, the largest with an
                           Nsight Compute table (<name>_ncu_<N>.tsv), else
                           the largest, and named <kind>_<N> */
} fam_chart_needs;

/* One of a family's own charts: bin/report chart-family OUT.svg KIND DIR [N]
 * draws it; bin/report plan lists it for every GPU that has what it needs. */
typedef struct fam_chart {
    const char *kind;        /* chart-family's KIND, and the chart's name */
    const char *what;        /* for the progress lines */
    fam_chart_needs needs;
    /* Draw out (an .svg, with its .gp and .dat beside it) from the results
     * folder r; n is the N of a FAM_CHART_PER_N chart, else NULL.  Returns
     * 0; a runtime failure exits 1 with a sentence (rc_die). */
    int (*draw)(const char *out, const char *kind, const res_gpu *r, const char *n);
} fam_chart;

/* fn(base, arg) for each file name of a set */
typedef void (*fam_file_fn)(const char *base, void *arg);

struct fam_report {
    /* Its words (the paragraph above its summaries, its section's title and
     * paragraph) are prose in its folder, report.txt: family.h's fam_text. */
    /* The family's page of the documentation ("docs/NAME.md"); NULL: none. */
    const char *doc;

    /* What its reference runs are and write (family.h: the registry hands
     * them to the file names, names.h, without the report). */
    struct fam_runs runs;

    /* Its summaries' N is the set's N (scripts/reference.sh runs every
     * family at it; --quick: 1e7). */
    int sets_n;
    /* Summaries at WPB 2, 4, 8, 16 and 32 (else at 4 only). */
    int all_wpbs;
    /* No probe kernels: no sass_<name>.txt. */
    int no_sass;
    /* It writes no <name>_<N>_wpb<W>.tsv: no summaries section, and its own
     * section comes before the other families' (the ceiling: their
     * reference). */
    int no_summaries;
    /* The occupancy sweeps a complete set has (sweep_<name>_<v>_<W>.tsv,
     * --quick: the first only), at WPB sweep_wpb; NULL-terminated, NULL:
     * none. */
    const char *const *sweep_variants;
    unsigned sweep_wpb;
    /* Variants that are one coalesced stream, so that every byte a warp
     * asks for is a byte in flight: Little's law is worded for them.
     * NULL-terminated; NULL: none. */
    const char *const *littles_variants;

    /* fn(base, arg) for every file its script writes (quick: the set was
     * measured with --quick); NULL: the summaries at the set's N.  Each
     * function mirrors its script; tests/cli/report_families.sh runs the
     * scripts with stand-ins and compares. */
    void (*expected)(int quick, fam_file_fn fn, void *arg);
    /* Its own section (id: the family's name), after its summaries
     * (before every family's, with no_summaries): the report opens it with
     * the title and the paragraph of its report.txt, then section fills it;
     * NULL: none. */
    void (*section)(report_doc *d, rd_section *s, const struct rc_ctx *c);
    /* Its own charts, in the order the plan lists them (FAM_CHARTS). */
    const fam_chart *charts;
    size_t ncharts;
};

/* The two chart fields from one static array, so that the count is never
 * kept by hand:  .section = sec_copy, FAM_CHARTS(CHARTS), */
#define FAM_CHARTS(table) .charts = (table), .ncharts = sizeof(table) / sizeof((table)[0])

#ifdef __cplusplus
}
#endif
#endif
