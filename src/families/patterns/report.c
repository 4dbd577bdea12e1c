/*
 * report.c - the patterns' part of the report (report_family.h): bus
 * utilization against the lectures and the model, misalignment, the write
 * patterns, AoS against SoA, and the labs' figures.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "report_ctx.h"
#include "report_math.h"

/* patterns_offset (fam_chart.draw). */
static int chart_patterns(const char *out, const char *kind, const res_gpu *r, const char *n)
{
    (void)kind;
    (void)n;
    char err[512], dev[128];
    tsv_table t, sec;
    if (rc_read_summary(r, "patterns", NULL, &t, err, sizeof err) != 0) rc_die("%s", err);
    const int have_sec = rc_read_sectors(r, "patterns", &sec, err, sizeof err) == 0;
    rc_table_device(&t, dev, sizeof dev);
    const double peak = tsv_meta_lead_num(&t, "peak_dram_GBps");
    rc_pchart pc;
    rc_pc_open(&pc, out, 1000, 580);
    static const char *const path[] = {"ca", "cg", "nc"};
    static const char *const col[] = {"#1f77b4", "#d62728", "#2ca02c"};
    /* the three paths often measure the same: nested line widths and
     * markers (wide under narrow, large under small) keep each visible */
    static const char *const line[] = {"pt 5 ps 1.1 lw 6", "pt 7 ps 0.7 lw 3 dt 2", "pt 2 ps 0.6 lw 1"};
    static const char *const mark[] = {"pt 4 ps 2.2", "pt 6 ps 1.4", "pt 2 ps 0.8"};
    rfm_series sr;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 3; i++) {
        char k[64], tt[128], st[160];
        snprintf(k, sizeof k, "offset_%s", path[i]);
        rc_kseries(&t, k, "offset", "bw_GBps", &sr);
        for (size_t q = 0; q < sr.n; q++)
            if (isfinite(sr.y[q]) && sr.y[q] > 0) lo = fmin(lo, sr.y[q]), hi = fmax(hi, sr.y[q]);
        snprintf(tt, sizeof tt, "%s: GB/s", k);
        snprintf(st, sizeof st, "with linespoints %s lc rgb '%s'", line[i], col[i]);
        rc_pc_series(&pc, &sr, tt, st, 0);
        if (!have_sec) continue;
        rc_sseries(&sec, k, "ld", "offset", "l1_util_pct_meas", &sr);
        snprintf(tt, sizeof tt, "%s: L1 utilization %% (measured)", k);
        snprintf(st, sizeof st, "with points %s lw 1.5 lc rgb '%s'", mark[i], col[i]);
        rc_pc_series(&pc, &sr, tt, st, 1);
    }
    tsv_free(&t);
    if (have_sec) tsv_free(&sec);
    /* the three paths' bandwidths lie within a few percent of each other:
     * on an axis from 0 to the peak they draw as one line, so the GB/s axis
     * spans them (the peak and the ceiling, far above, are named in the
     * title), and the utilization, 80-100 %, sits above them on its own
     * axis */
    const double ceil_read = rc_ceiling_in(r, "read");
    char title[512], set[1024], cw[96] = "";
    if (isfinite(ceil_read)) snprintf(cw, sizeof cw, ", read ceiling %.0f GB/s", ceil_read);
    snprintf(title, sizeof title, "patterns: GB/s and L1 utilization against misalignment, %s (DRAM peak %.0f GB/s%s: "
                                  "above this axis)", dev, peak, cw);
    const double pad = isfinite(lo) ? fmax(hi - lo, hi * 0.01) : 0;
    snprintf(set, sizeof set, "set xlabel 'offset (floats)'\nset ylabel 'GB/s'\nset yrange [%.1f:%.1f]\n"
                              "set y2label 'L1 utilization (%%)'\nset y2range [-150:110]\nset y2tics 0, 20, 100\n"
                              "set xrange [-1:33]\nset xtics 4",
             isfinite(lo) ? lo - pad * 0.4 : 0, isfinite(hi) ? hi + pad * 2.2 : 4000);
    return rc_pc_finish(&pc, title, set);
}

/* Lecture 001's utilization table beside the model's and the GPU's. */
static void util_table(report_doc *d, rd_section *s, const rc_gpu *G, const char *p, const tsv_table *sec)
{
    char b[64];
    rd_heading(d, s, "%sBus utilization: the lectures, the model and %s", p, G->label);
    rfm_util_row u[32];
    const size_t nu = rfm_patterns_util(sec, u, 32);
    rd_table *x = rd_table_new(9);
    static const char *const head[] = {"pattern", "lecture: cached %", "lecture: uncached %", "source",
                                       "model ca / cg / nc %", "", "", "", ""};
    for (size_t k = 0; k < 5; k++) rd_table_set(x, 0, k, "%s", head[k]);
    rd_table_set(x, 0, 5, "%s ca %%", G->label);
    rd_table_set(x, 0, 6, "%s cg %%", G->label);
    rd_table_set(x, 0, 7, "%s nc %%", G->label);
    rd_table_set(x, 0, 8, "the GPU against the lecture");
    for (size_t k = 0; k < nu; k++) {
        rd_table_set(x, k + 1, 0, "%s", u[k].pattern);
        rd_table_set(x, k + 1, 1, "%s", rc_num(b, sizeof b, "%.4g", u[k].lab_cached));
        rd_table_set(x, k + 1, 2, "%s", rc_num(b, sizeof b, "%.4g", u[k].lab_uncached));
        rd_table_set(x, k + 1, 3, "%s", u[k].lab_source);
        char m[3][32];
        for (int q = 0; q < 3; q++) rc_num(m[q], sizeof m[q], "%.4g", u[k].model[q]);
        rd_table_set(x, k + 1, 4, "%s / %s / %s", m[0], m[1], m[2]);
        for (int q = 0; q < 3; q++) rd_table_set(x, k + 1, 5 + (size_t)q, "%s", rc_num(b, sizeof b, "%.4g", u[k].measured[q]));
        const int sc = rfm_lab_same("%", u[k].lab_cached, u[k].measured[0]);
        const int su = rfm_lab_same("%", u[k].lab_uncached, u[k].measured[1]);
        rd_table_set(x, k + 1, 8, "%s", sc && su ? "same" : !sc && !su ? "differs in both" : sc ? "uncached differs" : "cached differs");
    }
    rd_table_add(d, s, x);
}

/* AoS against SoA: the table, and each field count's ratio. */
static void aos_soa(report_doc *d, rd_section *s, const char *p, const tsv_table *t, const tsv_table *sec)
{
    char b[64], note[8192];
    /* AoS against SoA */
    rd_heading(d, s, "%sAoS against SoA", p);
    rd_table *a = rd_table_new(6);
    static const char *const ah[] = {"kernel", "ms", "GB/s (bytes asked)", "L1 utilization % (measured)",
                                     "DRAM utilization % (measured)", "GB/s moved from DRAM"};
    for (size_t k = 0; k < 6; k++) rd_table_set(a, 0, k, "%s", ah[k]);
    size_t row = 1;
    for (size_t r = 0; r < t->nrow; r++) {
        const char *k = tsv_get(t, r, "kernel");
        if (!k || (strncmp(k, "aos", 3) && strncmp(k, "soa", 3))) continue;
        const double bw = tsv_num(t, r, "bw_GBps");
        double l1 = NAN, dr = NAN;
        if (sec) {
            char fv[96];
            snprintf(fv, sizeof fv, "variant=%s", k);
            const char *fl[] = {fv, "op=ld", NULL};
            l1 = rfm_value(sec, fl, NULL, "l1_util_pct_meas");
            dr = rfm_value(sec, fl, NULL, "dram_util_pct_meas");
        }
        rd_table_set(a, row, 0, "%s", k);
        rd_table_set(a, row, 1, "%s", rc_num(b, sizeof b, "%.4f", tsv_num(t, r, "kernel_ms")));
        rd_table_set(a, row, 2, "%s", rc_num(b, sizeof b, "%.1f", bw));
        rd_table_set(a, row, 3, "%s", rc_num(b, sizeof b, "%.1f", l1));
        rd_table_set(a, row, 4, "%s", rc_num(b, sizeof b, "%.1f", dr));
        rd_table_set(a, row, 5, "%s", rc_num(b, sizeof b, "%.1f", rfm_moved_GBps(bw, dr)));
        row++;
    }
    rd_table_add(d, s, a);
    /* one field and all fields of F, AoS over SoA */
    size_t used = 0;
    note[0] = 0;
    for (int f = 2; f <= 8; f *= 2)
        for (int all = 0; all < 2; all++) {
            char ka[32], ks[32], fa[48], fs[48];
            snprintf(ka, sizeof ka, "aos%d_%s", f, all ? "all" : "one");
            snprintf(ks, sizeof ks, "soa%d_%s", f, all ? "all" : "one");
            snprintf(fa, sizeof fa, "kernel=%s", ka);
            snprintf(fs, sizeof fs, "kernel=%s", ks);
            const char *la[] = {fa, NULL}, *ls[] = {fs, NULL};
            const double x = rfm_value(t, la, NULL, "bw_GBps"), y = rfm_value(t, ls, NULL, "bw_GBps");
            if (!isfinite(x) || !isfinite(y)) continue;
            const int m = snprintf(note + used, sizeof note - used, "%s%s of %d floats: AoS %.1f, SoA %.1f GB/s (x%.2f)",
                                   used ? "; " : "", all ? "all fields" : "one field", f, x, y, y / x);
            if (m > 0 && (size_t)m < sizeof note - used) used += (size_t)m;
        }
    if (used) rd_finding(d, s, "%sSoA against AoS, GB/s of the bytes asked: %s.", p, note);
}

static void sec_patterns(report_doc *d, rd_section *s, const rc_ctx *c)
{
    char p[64], b[64], note[8192];
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        tsv_table t, sec;
        const int hs = rc_gpu_summary(G, "patterns", &t), hc = rc_gpu_sectors(G, "patterns", &sec);
        if (!hs && !hc) continue;
        rc_pfx(c, G, p, sizeof p);
        if (hc) util_table(d, s, G, p, &sec);
        if (hs) {
            rd_heading(d, s, "%sMisalignment: offset 0 to 32 floats", p);
            rd_figures_start(d, s);
            rc_family_figure(d, s, c, G, "patterns_offset", "patterns: GB/s and L1 utilization against offset");
            static const char *const path[] = {"offset_ca", "offset_cg", "offset_nc"};
            for (int k = 0; k < 3; k++) {
                rfm_series bw, ut = {{0}, {0}, 0};
                rc_kseries(&t, path[k], "offset", "bw_GBps", &bw);
                if (hc) rc_sseries(&sec, path[k], "ld", "offset", "l1_util_pct_meas", &ut);
                if (rfm_offset_note(path[k], &bw, &ut, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            }
            /* the write patterns: rows of one kernel with the same sectors and
             * L2 requests per request merged, their configurations compacted */
            rd_heading(d, s, "%sWrite patterns", p);
            rd_table *w = rd_table_new(6);
            static const char *const wh[] = {"kernel", "ms", "GB/s (bytes written)", "bytes written",
                                             "sectors/request (measured)", "L2 requests/request (measured)"};
            for (size_t k = 0; k < 6; k++) rd_table_set(w, 0, k, "%s", wh[k]);
            static rfm_write_group g[64];
            const size_t ng = rfm_write_groups(&t, hc ? &sec : NULL, g, 64);
            for (size_t j = 0; j < ng; j++) {
                if (strcmp(g[j].configs, "-")) rd_table_set(w, j + 1, 0, "%s (%s)", g[j].kernel, g[j].configs);
                else rd_table_set(w, j + 1, 0, "%s", g[j].kernel);
                char b2[64];
                if (g[j].nconfig > 1) {
                    rd_table_set(w, j + 1, 1, "%s-%s", rc_num(b, sizeof b, "%.4f", g[j].ms_lo), rc_num(b2, sizeof b2, "%.4f", g[j].ms_hi));
                    rd_table_set(w, j + 1, 2, "%s-%s", rc_num(b, sizeof b, "%.1f", g[j].bw_lo), rc_num(b2, sizeof b2, "%.1f", g[j].bw_hi));
                } else {
                    rd_table_set(w, j + 1, 1, "%s", rc_num(b, sizeof b, "%.4f", g[j].ms_lo));
                    rd_table_set(w, j + 1, 2, "%s", rc_num(b, sizeof b, "%.1f", g[j].bw_lo));
                }
                rd_table_set(w, j + 1, 3, "%s", rc_num(b, sizeof b, "%.0f", g[j].bytes_written));
                rd_table_set(w, j + 1, 4, "%s", rc_num(b, sizeof b, "%.2f", g[j].sectors_per_request));
                rd_table_set(w, j + 1, 5, "%s", rc_num(b, sizeof b, "%.2f", g[j].l2_per_request));
            }
            rd_table_add(d, s, w);
            aos_soa(d, s, p, &t, hc ? &sec : NULL);
        }
        rc_family_close(d, s, c, G, "patterns", p, hs, &t, hc, &sec, "(needs Nsight Compute)");
    }
}

static const fam_chart CHARTS[] = {
    {"patterns_offset", "patterns: bandwidth and L1 utilization against offset", FAM_CHART_SUMMARY, chart_patterns},
};

const struct fam_report fam_report_patterns = {
    .doc = "docs/patterns.md",
    .section = sec_patterns,
    FAM_CHARTS(CHARTS),
};
