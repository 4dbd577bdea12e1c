/*
 * report.c - copy's part of the report (report_family.h): strides, batches
 * and vector widths against cudaMemcpy, sectors per request (model and
 * Nsight Compute), and the labs' figures.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "report_ctx.h"
#include "report_math.h"

/* copy_stride, copy_sectors, copy_batch, copy_vector (fam_chart.draw). */
static int chart_copy(const char *out, const char *kind, const res_gpu *r, const char *n)
{
    (void)n;
    char err[512], dev[128], title[512];
    tsv_table t;
    rfm_series sr;
    rc_pchart pc;
    if (!strcmp(kind, "copy_sectors")) {
        if (rc_read_sectors(r, "copy", &t, err, sizeof err) != 0) rc_die("%s", err);
        rc_table_device(&t, dev, sizeof dev);
        rc_pc_open(&pc, out, 960, 560);
        static const char *const v[][3] = {{"stride", "ld", "stride: loads"}, {"stride_store", "st", "stride_store: stores"},
                                           {"stride16", "ld", "stride16 (int4): loads"}};
        static const char *const col[] = {"#1f77b4", "#d62728", "#2ca02c"};
        /* loads and stores of a stride move the same sectors, so their lines
         * coincide: the first is drawn wide and the next narrow and dashed on
         * it, and each has its own marker, so that neither hides the other */
        static const char *const line[] = {"lw 6", "lw 2 dt 2", "lw 2"};
        static const char *const mark[] = {"pt 6 ps 2.2", "pt 2 ps 1.2", "pt 8 ps 1.5"};
        for (int k = 0; k < 3; k++) {
            char tt[128], st[160];
            rc_sseries(&t, v[k][0], v[k][1], "stride", "sectors_per_request_pred", &sr);
            snprintf(tt, sizeof tt, "%s, model", v[k][2]);
            snprintf(st, sizeof st, "with lines %s lc rgb '%s'", line[k], col[k]);
            rc_pc_series(&pc, &sr, tt, st, 0);
            rc_sseries(&t, v[k][0], v[k][1], "stride", "sectors_per_request_meas", &sr);
            snprintf(tt, sizeof tt, "%s, measured", v[k][2]);
            snprintf(st, sizeof st, "with points %s lw 1.5 lc rgb '%s'", mark[k], col[k]);
            rc_pc_series(&pc, &sr, tt, st, 0);
        }
        snprintf(title, sizeof title, "copy: sectors per request against stride (model and Nsight Compute)%s%s",
                 *dev ? ", " : "", dev);
        tsv_free(&t);
        return rc_pc_finish(&pc, title, "set xlabel 'stride (elements)'\nset ylabel 'L1 sectors per request'\n"
                                     "set logscale x 2\nset yrange [0:*]");
    }
    if (rc_read_summary(r, "copy", NULL, &t, err, sizeof err) != 0) rc_die("%s", err);
    rc_table_device(&t, dev, sizeof dev);
    const double peak = tsv_meta_lead_num(&t, "peak_dram_GBps");
    const double ceil_copy = rc_ceiling_in(r, "copy");
    const char *kid[] = {"kernel=memcpy", NULL};
    const double memcpy_bw = rfm_value(&t, kid, NULL, "bw_GBps");
    char mt[128];
    snprintf(mt, sizeof mt, "cudaMemcpy %.1f GB/s", memcpy_bw);
    rc_pc_open(&pc, out, 960, 560);
    const char *xl = "", *what = "";
    if (!strcmp(kind, "copy_stride")) {
        static const char *const k[][2] = {{"stride", "stride: strided loads"}, {"stride_store", "stride_store: strided stores"},
                                           {"stride16", "stride16: strided int4 loads"}};
        for (int i = 0; i < 3; i++) {
            rc_kseries(&t, k[i][0], "stride", "bw_GBps", &sr);
            rc_pc_series(&pc, &sr, k[i][1], RC_LINESTYLE, 0);
        }
        what = "copy: bandwidth against stride";
        xl = "set xlabel 'stride (elements)'\nset logscale x 2";
    } else if (!strcmp(kind, "copy_batch")) {
        static const char *const k[] = {"batch", "batch_unrolled", "batch_restrict", "int4"};
        for (int i = 0; i < 4; i++) {
            rc_kseries(&t, k[i], "batch", "bw_GBps", &sr);
            rc_pc_series(&pc, &sr, k[i], RC_LINESTYLE, 0);
        }
        rc_pc_hline(&pc, memcpy_bw, mt, "with lines dt 3 lw 3 lc rgb '#7f7f7f'", 0);
        what = "copy: bandwidth against elements per thread";
        xl = "set xlabel 'elements per thread (batch)'\nset logscale x 2\nset xtics (1, 2, 4, 8)\nset xrange [0.8:10]";
    } else if (!strcmp(kind, "copy_vector")) {
        /* width 1, 2, 4: the grid-stride loops, and one access per thread
         * (stride=1 is the scalar one) */
        const char *g[] = {"grid_scalar", "grid_vector2", "grid_vector4"}, *o[] = {"stride", "vector2", "vector4"};
        rfm_series a = {{0}, {0}, 0}, b = {{0}, {0}, 0};
        for (int i = 0; i < 3; i++) {
            char f1[64];
            snprintf(f1, sizeof f1, "kernel=%s", g[i]);
            const char *fg[] = {f1, NULL};
            const double v = rfm_value(&t, fg, NULL, "bw_GBps");
            if (isfinite(v)) { a.x[a.n] = 1 << i; a.y[a.n++] = v; }
            snprintf(f1, sizeof f1, "kernel=%s", o[i]);
            const char *fo[] = {f1, NULL};
            const double u = rfm_value(&t, fo, i ? NULL : "stride=1", "bw_GBps");
            if (isfinite(u)) { b.x[b.n] = 1 << i; b.y[b.n++] = u; }
        }
        rc_pc_series(&pc, &a, "grid-stride loop (grid_scalar, grid_vector2, grid_vector4)", RC_LINESTYLE, 0);
        rc_pc_series(&pc, &b, "one access per thread (stride=1, vector2, vector4)", RC_LINESTYLE, 0);
        rc_pc_hline(&pc, memcpy_bw, mt, "with lines dt 3 lw 3 lc rgb '#7f7f7f'", 0);
        what = "copy: bandwidth against vector width";
        xl = "set xlabel 'elements per load and store (int, int2, int4)'\nset logscale x 2\nset xtics (1, 2, 4)\nset xrange [0.8:5]";
    } else {
        rc_die("unknown chart '%s'", kind);
    }
    tsv_free(&t);
    char head[256];
    snprintf(head, sizeof head, "%s\nset ylabel 'GB/s (bytes read + written)'", xl);
    return rc_pc_finish_bw(&pc, peak, ceil_copy, "copy", what, dev, head, "");
}

/* One pivot: rows the integer values of key, a column per kernel (GB/s and
 * % of the reference). */
static rd_table *pivot(const tsv_table *t, const char *key, const char *const *kernels, size_t nk, double ref)
{
    double xs[64];
    size_t nx = 0;
    rfm_series sr[8];
    for (size_t k = 0; k < nk && k < 8; k++) {
        rc_kseries(t, kernels[k], key, "bw_GBps", &sr[k]);
        for (size_t i = 0; i < sr[k].n; i++) {
            size_t j = 0;
            while (j < nx && xs[j] != sr[k].x[i]) j++;
            if (j == nx && nx < 64) xs[nx++] = sr[k].x[i];
        }
    }
    for (size_t a = 1; a < nx; a++)
        for (size_t q = a; q > 0 && xs[q - 1] > xs[q]; q--) { double v = xs[q]; xs[q] = xs[q - 1]; xs[q - 1] = v; }
    rd_table *x = rd_table_new(nk + 1);
    rd_table_set(x, 0, 0, "%s", key);
    for (size_t k = 0; k < nk; k++) rd_table_set(x, 0, k + 1, "%s%s", kernels[k], isfinite(ref) ? " (% of cudaMemcpy)" : "");
    for (size_t i = 0; i < nx; i++) {
        rd_table_set(x, i + 1, 0, "%.0f", xs[i]);
        for (size_t k = 0; k < nk; k++) {
            double v = NAN;
            for (size_t j = 0; j < sr[k].n; j++) if (sr[k].x[j] == xs[i]) v = sr[k].y[j];
            char one[128];
            if (!isfinite(v) || rfm_vs_reference("", v, ref, one, sizeof one) != 0) rd_table_set(x, i + 1, k + 1, "-");
            else rd_table_set(x, i + 1, k + 1, "%s", one + 1);
        }
    }
    return x;
}

static void sec_copy(report_doc *d, rd_section *s, const rc_ctx *c)
{
    char p[64], note[4096];
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        tsv_table t, sec;
        const int hs = rc_gpu_summary(G, "copy", &t), hc = rc_gpu_sectors(G, "copy", &sec);
        if (!hs && !hc) continue;
        rc_pfx(c, G, p, sizeof p);
        rd_heading(d, s, "%sStrides", p);
        rd_figures_start(d, s);
        if (hs) rc_family_figure(d, s, c, G, "copy_stride", "copy: GB/s against stride");
        if (hc) rc_family_figure(d, s, c, G, "copy_sectors", "copy: sectors per request against stride, model and measured");
        static const char *const v[][3] = {{"stride", "ld", "stride (strided loads)"},
                                           {"stride_store", "st", "stride_store (strided stores)"},
                                           {"stride16", "ld", "stride16 (strided int4 loads)"}};
        for (int k = 0; k < 3; k++) {
            rfm_series spr = {{0}, {0}, 0}, bw = {{0}, {0}, 0};
            if (hc) rc_sseries(&sec, v[k][0], v[k][1], "stride", "sectors_per_request_meas", &spr);
            if (hs) rc_kseries(&t, v[k][0], "stride", "bw_GBps", &bw);
            if (rfm_stride_note(v[k][2], &spr, &bw, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
        }
        if (!hc) rc_missing(d, s, c, G, "sectors_copy.tsv", "(needs Nsight Compute)");
        if (hs) {
            const char *kid[] = {"kernel=memcpy", NULL};
            const double mem = rfm_value(&t, kid, NULL, "bw_GBps");
            rd_heading(d, s, "%sBatches and vector widths", p);
            rd_figures_start(d, s);
            rc_family_figure(d, s, c, G, "copy_batch", "copy: GB/s against elements per thread");
            rc_family_figure(d, s, c, G, "copy_vector", "copy: GB/s against vector width");
            static const char *const bk[] = {"batch", "batch_unrolled", "batch_restrict", "int4"};
            rd_table_add(d, s, pivot(&t, "batch", bk, 4, mem));
            /* each batch variant's best, and each width, against cudaMemcpy */
            size_t used = 0;
            note[0] = 0;
            for (int k = 0; k < 4; k++) {
                rfm_series sr;
                rc_kseries(&t, bk[k], "batch", "bw_GBps", &sr);
                size_t best = sr.n;
                for (size_t j = 0; j < sr.n; j++) if (best == sr.n || sr.y[j] > sr.y[best]) best = j;
                if (best == sr.n) continue;
                char name[96], one[512];
                snprintf(name, sizeof name, "%s (batch=%.0f)", bk[k], sr.x[best]);
                if (rfm_vs_reference(name, sr.y[best], mem, one, sizeof one) != 0) continue;
                const int m = snprintf(note + used, sizeof note - used, "%s%s", used ? "; " : "", one);
                if (m > 0 && (size_t)m < sizeof note - used) used += (size_t)m;
            }
            if (used) rd_finding(d, s, "%sThe best batch of each kernel (in %% of cudaMemcpy's %.1f GB/s): %s.", p, mem, note);
            static const char *const vk[][2] = {{"grid_scalar", NULL}, {"grid_vector2", NULL}, {"grid_vector4", NULL},
                                                {"stride", "stride=1"}, {"vector2", NULL}, {"vector4", NULL}};
            rd_table *vt = rd_table_new(2);
            rd_table_set(vt, 0, 0, "kernel");
            rd_table_set(vt, 0, 1, "bandwidth (%% of cudaMemcpy)");
            used = 0;
            note[0] = 0;
            size_t row = 1;
            for (int k = 0; k < 6; k++) {
                char f1[64], name[96], one[512];
                snprintf(f1, sizeof f1, "kernel=%s", vk[k][0]);
                const char *fl[] = {f1, NULL};
                const double bw = rfm_value(&t, fl, vk[k][1], "bw_GBps");
                if (!isfinite(bw)) continue;
                snprintf(name, sizeof name, "%s%s%s%s", vk[k][0], vk[k][1] ? " (" : "", vk[k][1] ? vk[k][1] : "",
                         vk[k][1] ? ")" : "");
                rd_table_set(vt, row, 0, "%s", name);
                if (rfm_vs_reference("", bw, mem, one, sizeof one) == 0) rd_table_set(vt, row, 1, "%s", one + 1);
                row++;
                if (rfm_vs_reference(name, bw, mem, one, sizeof one) != 0) continue;
                const int m = snprintf(note + used, sizeof note - used, "%s%s", used ? "; " : "", one);
                if (m > 0 && (size_t)m < sizeof note - used) used += (size_t)m;
            }
            rd_table_add(d, s, vt);
            if (used) rd_finding(d, s, "%sVector widths (in %% of cudaMemcpy's %.1f GB/s): %s.", p, mem, note);
            const double cc = rc_ceiling_of(G, "copy");
            char one[256];
            if (isfinite(cc) && rfm_vs_reference("cudaMemcpy", mem, cc, one, sizeof one) == 0)
                rd_finding(d, s, "%sAgainst the achievable copy of ceiling.tsv (%.1f GB/s): %s.", p, cc, one);
        }
        rc_family_close(d, s, c, G, "copy", p, hs, &t, hc, &sec, NULL);
    }
}

static const fam_chart CHARTS[] = {
    {"copy_stride", "copy: bandwidth against stride", FAM_CHART_SUMMARY, chart_copy},
    {"copy_sectors", "copy: sectors per request against stride", FAM_CHART_SECTORS, chart_copy},
    {"copy_batch", "copy: bandwidth against batch", FAM_CHART_SUMMARY, chart_copy},
    {"copy_vector", "copy: bandwidth against vector width", FAM_CHART_SUMMARY, chart_copy},
};

const struct fam_report fam_report_copy = {
    .doc = "docs/copy.md",
    .section = sec_copy,
    FAM_CHARTS(CHARTS),
};
