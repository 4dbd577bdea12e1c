/* report_charts.c - the report's gnuplot charts: the helpers of the
 * families' charts (report_ctx.h) and the chart commands (report_cmd.h). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chartcheck.h"
#include "cli.h"
#include "family.h"
#include "gp.h"
#include "names.h"
#include "plateau.h"
#include "report_cmd.h"

/* ------------------------------------------------------------ the families' charts */

/* The style of a plain line of a chart (pc_series varies its markers and widths). */
const char *const RC_LINESTYLE = "with linespoints pt 7 ps 0.8 lw 2";

void rc_pc_open(rc_pchart *pc, const char *out, int w, int h)
{
    char err[512];
    memset(pc, 0, sizeof *pc);
    pc->job = gp_job_new(out, w, h, err, sizeof err);
    if (!pc->job) rc_die("%s", err);
    pc->dat = gp_job_add_data(pc->job, ".dat", "dat", "w", err, sizeof err);
    if (!pc->dat) { gp_job_abort(pc->job); rc_die("%s", err); }
}

/* A series as a data block and its clause (style: "with linespoints pt 7";
 * axis2: on the right axis).  An empty series is left out. */
void rc_pc_series(rc_pchart *pc, const rfm_series *sr, const char *title, const char *style, int axis2)
{
    if (!sr->n || pc->n == RC_PC_MAX) return;
    pc->drawn[pc->n] = *sr;
    snprintf(pc->drawn_title[pc->n], sizeof pc->drawn_title[0], "%s", title);
    pc->drawn_axis2[pc->n] = axis2;
    pc->drawn_line[pc->n] = 0;
    fputs("# ", pc->dat);
    gp_put_text(pc->dat, GP_TEXT_COMMENT, title);
    fputc('\n', pc->dat);
    for (size_t i = 0; i < sr->n; i++) fprintf(pc->dat, "%.10g\t%.10g\n", sr->x[i], sr->y[i]);
    fprintf(pc->dat, "\n\n");
    char nested[96];
    if (style == RC_LINESTYLE) {
        /* series of one chart that measure the same coincide: the first is
         * drawn wide with large markers, the next ones narrower and with
         * other markers on it, so that none hides another */
        static const char *const st[] = {"pt 5 ps 1.4 lw 5", "pt 7 ps 0.9 lw 2.5", "pt 9 ps 1.0 lw 1.5",
                                         "pt 11 ps 1.0 lw 1.5", "pt 13 ps 1.0 lw 1.5"};
        snprintf(nested, sizeof nested, "with linespoints %s", st[pc->index % 5]);
        style = nested;
    }
    snprintf(pc->title[pc->n], sizeof pc->title[0], "%s", title);
    snprintf(pc->clause[pc->n++], sizeof pc->clause[0], "dat index %d using 1:2%s %s", pc->index++,
             axis2 ? " axes x1y2" : "", style);
}

/* A horizontal line at y (NAN: none). */
void rc_pc_hline(rc_pchart *pc, double y, const char *title, const char *style, int axis2)
{
    if (!isfinite(y) || pc->n == RC_PC_MAX) return;
    pc->drawn[pc->n].n = 0;
    snprintf(pc->drawn_title[pc->n], sizeof pc->drawn_title[0], "%s", title);
    pc->drawn_axis2[pc->n] = axis2;
    pc->drawn_line[pc->n] = 1;
    pc->drawn_y[pc->n] = y;
    snprintf(pc->title[pc->n], sizeof pc->title[0], "%s", title);
    snprintf(pc->clause[pc->n++], sizeof pc->clause[0], "%.10g%s %s", y, axis2 ? " axes x1y2" : "", style);
}

/* The DRAM peak and, where the set has one, the achievable ceiling. */
void rc_pc_peak_ceiling(rc_pchart *pc, double peak, double ceiling, const char *op)
{
    char t[160];
    snprintf(t, sizeof t, "DRAM peak %.0f GB/s", peak);
    rc_pc_hline(pc, peak, t, "with lines dt 2 lw 2 lc rgb 'black'", 0);
    snprintf(t, sizeof t, "achievable ceiling, %s %.1f GB/s (ceiling.tsv)", op, ceiling);
    rc_pc_hline(pc, ceiling, t, "with lines dt 4 lw 2 lc rgb '#ff7f0e'", 0);
}

/* Write the script: the settings (lines of gnuplot), then the plot. */
int rc_pc_finish(rc_pchart *pc, const char *title, const char *settings)
{
    char err[512];
    if (!pc->n) { gp_job_abort(pc->job); rc_die("nothing to draw for %s", title); }
    cc_series cs[RC_PC_MAX];
    for (int i = 0; i < pc->n; i++)
        cs[i] = (cc_series){pc->drawn_title[i], pc->drawn[i].x, pc->drawn[i].y, pc->drawn_line[i] ? 0 : pc->drawn[i].n,
                            pc->drawn_axis2[i], pc->drawn_line[i], pc->drawn_y[i]};
    char notes[4096];
    if (cc_check(cs, (size_t)pc->n, cc_range_in(settings, "y"), cc_range_in(settings, "y2"), notes, sizeof notes) > 0) {
        FILE *nf = gp_job_add_data(pc->job, ".notes", "notes", "w", err, sizeof err);
        if (!nf) { gp_job_abort(pc->job); rc_die("%s", err); }
        fprintf(nf, "%s\n", notes);
    }
    FILE *gp = gp_job_script(pc->job, err, sizeof err);
    if (!gp) { gp_job_abort(pc->job); rc_die("%s", err); }
    fprintf(gp, "set title ");
    gp_put_str(gp, title);
    fprintf(gp, "\nset grid\nset key below maxcols 2 height 1 font ',10'\n%s\nplot ", settings);
    for (int i = 0; i < pc->n; i++) {
        fprintf(gp, "%s%s title ", i ? ", \\\n     " : "", pc->clause[i]);
        gp_put_str(gp, pc->title[i]);
    }
    fprintf(gp, "\n");
    if (gp_job_finish(pc->job, err, sizeof err) != 0) rc_die("%s", err);
    return 0;
}

int rc_pc_finish_bw(rc_pchart *pc, double peak, double ceiling, const char *op, const char *what,
                    const char *dev, const char *head, const char *tail)
{
    rc_pc_peak_ceiling(pc, peak, ceiling, op);
    char title[512], set[512];
    snprintf(title, sizeof title, "%s%s%s", what, *dev ? ", " : "", dev);
    snprintf(set, sizeof set, "%s\nset yrange [0:%.1f]%s%s", head, isfinite(peak) ? peak * 1.08 : 4000,
             *tail ? "\n" : "", tail);
    return rc_pc_finish(pc, title, set);
}
/* ------------------------------------------------------------ charts */

/* Bandwidth against WPB: one line per variant, from summaries of one N. */
int rc_cmd_chart_bandwidth(const char *out, int n, char **files, double ceiling)
{
    char err[512];
    tsv_table t[RC_MAX_WPB];
    if (n > RC_MAX_WPB) return cli_usage_error(RC_PROG, "at most %d summaries", RC_MAX_WPB);
    double peak = NAN;
    char dev[128] = "", exp[64] = "";
    for (int i = 0; i < n; i++) {
        if (tsv_read(files[i], &t[i], err, sizeof err) != 0) rc_die("%s", err);
        if (tsv_col(&t[i], "bw_GBps") < 0 || tsv_col(&t[i], "warps_per_block") < 0)
            rc_die("%s has no bw_GBps and warps_per_block columns", files[i]);
        if (!isfinite(peak)) peak = tsv_meta_lead_num(&t[i], "peak_dram_GBps");
        double sms = NAN;
        if (!*dev) rc_parse_device_meta(tsv_meta(&t[i], "device"), dev, sizeof dev, &sms);
        char e[64], v[64], l[64], nn[64];
        unsigned w;
        const char *base = strrchr(files[i], '/');
        if (!*exp && names_parse(base ? base + 1 : files[i], e, v, l, nn, sizeof e, &w) == NAMES_SUMMARY)
            snprintf(exp, sizeof exp, "%s", e);
    }
    /* variants in order of first appearance */
    char keys[64][256];
    size_t nk = 0;
    for (int i = 0; i < n; i++)
        for (size_t r = 0; r < t[i].nrow; r++) {
            char k[256];
            rc_row_key(&t[i], r, k, sizeof k);
            size_t j = 0;
            while (j < nk && strcmp(keys[j], k)) j++;
            if (j == nk && nk < 64) snprintf(keys[nk++], 256, "%s", k);
        }
    gp_job *job = gp_job_new(out, 900, 560, err, sizeof err);
    if (!job) rc_die("%s", err);
    FILE *dat = gp_job_add_data(job, ".dat", "dat", "w", err, sizeof err);
    if (!dat) { gp_job_abort(job); rc_die("%s", err); }
    for (size_t k = 0; k < nk; k++) {
        fputs("# ", dat);
        gp_put_text(dat, GP_TEXT_COMMENT, keys[k]);
        fputc('\n', dat);
        /* ascending WPB */
        double ws[RC_MAX_WPB], bw[RC_MAX_WPB];
        size_t m = 0;
        for (int i = 0; i < n; i++)
            for (size_t r = 0; r < t[i].nrow; r++) {
                char kk[256];
                rc_row_key(&t[i], r, kk, sizeof kk);
                if (strcmp(kk, keys[k]) || m >= RC_MAX_WPB) continue;
                ws[m] = tsv_num(&t[i], r, "warps_per_block");
                bw[m++] = tsv_num(&t[i], r, "bw_GBps");
            }
        for (size_t a = 1; a < m; a++)
            for (size_t q = a; q > 0 && ws[q - 1] > ws[q]; q--) {
                double x = ws[q]; ws[q] = ws[q - 1]; ws[q - 1] = x;
                x = bw[q]; bw[q] = bw[q - 1]; bw[q - 1] = x;
            }
        for (size_t q = 0; q < m; q++)
            if (isfinite(ws[q]) && isfinite(bw[q])) fprintf(dat, "%g\t%.1f\n", ws[q], bw[q]);
        fprintf(dat, "\n\n");
    }
    FILE *gp = gp_job_script(job, err, sizeof err);
    if (!gp) { gp_job_abort(job); rc_die("%s", err); }
    fprintf(gp, "set title ");
    char title[512];
    snprintf(title, sizeof title, "%s: bandwidth against warps per block%s%s", *exp ? exp : "summaries",
             *dev ? ", " : "", dev);
    gp_put_str(gp, title);
    fprintf(gp, "\nset xlabel 'warps per block'\nset ylabel 'GB/s'\nset logscale x 2\n"
                "set xtics (1, 2, 4, 8, 16, 32)\nset grid\nset key below maxcols 3\nset yrange [0:*]\n");
    /* the peak and the ceiling are lines of the key, not labels inside the
     * plot, where a variant that reaches them would cross the text */
    if (isfinite(peak)) fprintf(gp, "set yrange [0:%.1f]\n", peak * 1.08);
    fprintf(gp, "plot ");
    for (size_t k = 0; k < nk; k++) {
        fprintf(gp, "%sdat index %zu using 1:2 with linespoints pt %d lw 2 title ", k ? ", \\\n     " : "", k,
                (int)(5 + 2 * (k % 5)));
        gp_put_str(gp, keys[k]);
    }
    if (isfinite(peak))
        fprintf(gp, ", \\\n     %.1f with lines dt 2 lw 2 lc rgb '#555555' title 'DRAM peak %.0f GB/s'", peak, peak);
    if (isfinite(ceiling))
        fprintf(gp, ", \\\n     %.1f with lines dt 4 lw 2 lc rgb '#ff7f0e' title 'achievable ceiling %.1f GB/s "
                    "(ceiling.tsv)'", ceiling, ceiling);
    fprintf(gp, "\n");
    for (int i = 0; i < n; i++) tsv_free(&t[i]);
    if (gp_job_finish(job, err, sizeof err) != 0) rc_die("%s", err);
    return 0;
}

/* Several GPUs' L1-cached ladders on one chart. */
int rc_cmd_chart_ladders(const char *out, int n, char **specs)
{
    char err[512];
    gp_job *job = gp_job_new(out, 960, 600, err, sizeof err);
    if (!job) rc_die("%s", err);
    FILE *dat = gp_job_add_data(job, ".dat", "dat", "w", err, sizeof err);
    if (!dat) { gp_job_abort(job); rc_die("%s", err); }
    char titles[RC_MAX_GPUS][256];
    if (n > RC_MAX_GPUS) { gp_job_abort(job); return cli_usage_error(RC_PROG, "at most %d ladders", RC_MAX_GPUS); }
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(specs[i], '=');
        if (!eq) { gp_job_abort(job); return cli_usage_error(RC_PROG, "'%s' is not LABEL=TSV", specs[i]); }
        plateau_series se;
        if (plateau_read_tsv(eq + 1, &se, err, sizeof err) != 0) { gp_job_abort(job); rc_die("%s", err); }
        snprintf(titles[i], sizeof titles[i], "%.*s%s%s%s", (int)(eq - specs[i]), specs[i],
                 *se.device_name ? " (" : "", se.device_name, *se.device_name ? ")" : "");
        fputs("# ", dat);
        gp_put_text(dat, GP_TEXT_COMMENT, titles[i]);
        fputc('\n', dat);
        for (size_t k = 0; k < se.n; k++) fprintf(dat, "%.0f\t%.3f\n", se.pts[k].bytes, se.pts[k].cycles);
        fprintf(dat, "\n\n");
        plateau_series_free(&se);
    }
    FILE *gp = gp_job_script(job, err, sizeof err);
    if (!gp) { gp_job_abort(job); rc_die("%s", err); }
    fprintf(gp, "set title 'Pointer-chase latency, L1 cached (chase_ca)'\n"
                "set xlabel 'working set (bytes)'\nset ylabel 'latency per dependent load (cycles)'\n"
                "set logscale x 2\nset format x '2^%%L'\nset grid xtics ytics lc rgb '#dddddd'\n"
                "set key top left\nset offsets 0, 0, graph 0.08, 0\nplot ");
    for (int i = 0; i < n; i++) {
        fprintf(gp, "%sdat index %d using 1:2 with linespoints pt 7 ps 0.5 lw 1.5 title ", i ? ", \\\n     " : "", i);
        gp_put_str(gp, titles[i]);
    }
    fprintf(gp, "\n");
    if (gp_job_finish(job, err, sizeof err) != 0) rc_die("%s", err);
    return 0;
}

void rc_chart_kinds(char *buf, size_t len)
{
    size_t u = 0;
    buf[0] = 0;
    for (const fam_entry *e = fam_registry; e->name; e++)
        for (size_t k = 0; e->report && k < e->report->ncharts && u < len; k++)
            u += (size_t)snprintf(buf + u, len - u, "%s%s", u ? ", " : "", e->report->charts[k].kind);
}

/* bin/report chart-family OUT.svg KIND DIR [N] */
int rc_cmd_chart_family(const char *out, const char *kind, const char *dir, const char *n)
{
    const fam_chart *fc = rc_chart_of(kind, NULL);
    if (!fc) {
        char kinds[1024];
        rc_chart_kinds(kinds, sizeof kinds);
        return cli_usage_error(RC_PROG, "unknown chart '%s' (one of %s)", kind, kinds);
    }
    if (fc->needs == FAM_CHART_PER_N && !n) return cli_usage_error(RC_PROG, "chart-family %s needs N", kind);
    res_gpu r;
    char err[512];
    if (res_scan(dir, "", &r, err, sizeof err) != 0) rc_die("%s", err);
    const int rc = fc->draw(out, kind, &r, n);
    res_free(&r);
    return rc;
}
