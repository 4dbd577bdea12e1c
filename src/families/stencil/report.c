/*
 * report.c - the stencil's part of the report (report_family.h): the lab's
 * cases against the sector model, the size sweep with each layout's
 * over-fetch, and the halo probe against the ladder's L1 plateau.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "report_ctx.h"
#include "report_math.h"

/* The summaries scripts/stencil.sh writes. */
static void expect_stencil(int quick, fam_file_fn fn, void *arg)
{
    /* step 1: every variant, four layouts, 1024 x 97656; step 2: N0 = 32 ...
     * 8192, N1 = TOTAL / N0 (TOTAL 1e8, 1e7 with --quick) */
    char b[256], n[64];
    names_summary(b, sizeof b, "stencil", "1024x97656", 4);
    fn(b, arg);
    const unsigned long total = quick ? 10000000ul : 100000000ul;
    for (unsigned long n0 = 32; n0 <= 8192; n0 *= 2) {
        snprintf(n, sizeof n, "%lux%lu", n0, total / n0);
        if (!strcmp(n, "1024x97656")) continue;
        names_summary(b, sizeof b, "stencil", n, 4);
        fn(b, arg);
    }
}

/* One stencil table: its points (the size sweep's). */
static size_t stencil_points(const tsv_table *t, rfm_stencil_point *p, size_t max)
{
    size_t n = 0;
    for (size_t r = 0; r < t->nrow && n < max; r++) {
        rfm_stencil_cfg c;
        const char *k = tsv_get(t, r, "kernel");
        if (!k || rfm_stencil_config(tsv_get(t, r, "config"), &c) != 0) continue;
        rfm_stencil_point *q = &p[n++];
        q->n0 = c.n0;
        q->lead_pad = c.lead_pad;
        q->pad_ld = c.pad_ld;
        snprintf(q->variant, sizeof q->variant, "%s", k);
        q->bw_GBps = tsv_num(t, r, "bw_GBps");
        /* the centre load's over-fetch: deriv1 has R halo rows before row 0 */
        q->overfetch_pct = rfm_stencil_overfetch_pct(c.n0, c.n1, c.radius, c.lead_pad, c.pad_ld,
                                                     !strcmp(k, "deriv1") ? c.radius : 0);
    }
    return n;
}

/* Every stencil point of a GPU's summaries (deriv0_halo left out: the
 * sweep does not run it). */
static rfm_stencil_point *stencil_sweep(const res_gpu *r, size_t *n)
{
    size_t cap = 0;
    for (const res_file *f = res_find(r, NAMES_SUMMARY, "stencil", NULL, NULL, 0, ""); f;
         f = res_next(r, f, NAMES_SUMMARY, "stencil", NULL, NULL, 0, ""))
        cap += 64;
    rfm_stencil_point *p = rc_xcalloc(cap, sizeof *p);
    *n = 0;
    for (const res_file *f = res_find(r, NAMES_SUMMARY, "stencil", NULL, NULL, 0, ""); f;
         f = res_next(r, f, NAMES_SUMMARY, "stencil", NULL, NULL, 0, "")) {
        tsv_table t;
        char err[512];
        if (tsv_read(f->path, &t, err, sizeof err) != 0) continue;
        const size_t base = *n;
        const size_t k = stencil_points(&t, p + base, 64);
        /* keep the sweep's variants only */
        for (size_t i = 0; i < k; i++)
            if (strcmp(p[base + i].variant, "deriv0_halo")) p[(*n)++] = p[base + i];
        tsv_free(&t);
    }
    return p;
}

/* stencil_sweep (fam_chart.draw). */
static int chart_stencil(const char *out, const char *kind, const res_gpu *r, const char *size)
{
    (void)kind;
    (void)size;
    size_t n;
    rfm_stencil_point *p = stencil_sweep(r, &n);
    if (!n) rc_die("no stencil summaries in %s", r->dir);
    char dev[128] = "";
    tsv_table t;
    char err[512];
    double peak = NAN;
    if (rc_read_summary(r, "stencil", NULL, &t, err, sizeof err) == 0) {
        rc_table_device(&t, dev, sizeof dev);
        peak = tsv_meta_lead_num(&t, "peak_dram_GBps");
        tsv_free(&t);
    }
    rc_pchart pc;
    rc_pc_open(&pc, out, 1000, 700);
    static const char *const var[] = {"deriv_copy", "deriv0", "deriv1"};
    static const char *const col[] = {"#1f77b4", "#d62728", "#2ca02c"};
    for (int v = 0; v < 3; v++)
        for (int l = 0; l < 4; l += 3) { /* without padding, with both */
            rfm_series sr = {{0}, {0}, 0};
            for (size_t i = 0; i < n && sr.n < RFM_MAX_POINTS; i++) {
                if (strcmp(p[i].variant, var[v]) || p[i].lead_pad != (l & 1) || p[i].pad_ld != !!(l & 2)) continue;
                size_t k = sr.n++;
                while (k > 0 && sr.x[k - 1] > p[i].n0) { sr.x[k] = sr.x[k - 1]; sr.y[k] = sr.y[k - 1]; k--; }
                sr.x[k] = p[i].n0;
                sr.y[k] = p[i].bw_GBps;
            }
            char tt[128], st[160];
            snprintf(tt, sizeof tt, "%s %s: GB/s", var[v], rfm_layout_name(l & 1, l & 2));
            /* the six often coincide: nested widths and markers by variant,
             * dashes by layout, so that each stays visible */
            static const char *const w[] = {"lw 6 pt 5 ps 1.3", "lw 3 pt 7 ps 0.9", "lw 1 pt 2 ps 0.7"};
            snprintf(st, sizeof st, "with linespoints %s dt %d lc rgb '%s'", w[v], l ? 2 : 1, col[v]);
            rc_pc_series(&pc, &sr, tt, st, 0);
        }
    for (int l = 0; l < 4; l++) { /* over-fetch: the layout's, deriv_copy's rows */
        rfm_series sr = {{0}, {0}, 0};
        for (size_t i = 0; i < n && sr.n < RFM_MAX_POINTS; i++) {
            if (strcmp(p[i].variant, "deriv_copy") || p[i].lead_pad != (l & 1) || p[i].pad_ld != !!(l & 2) ||
                !isfinite(p[i].overfetch_pct))
                continue;
            size_t k = sr.n++;
            while (k > 0 && sr.x[k - 1] > p[i].n0) { sr.x[k] = sr.x[k - 1]; sr.y[k] = sr.y[k - 1]; k--; }
            sr.x[k] = p[i].n0;
            sr.y[k] = p[i].overfetch_pct;
        }
        char tt[128], st[160];
        snprintf(tt, sizeof tt, "over-fetch %s (%%)", rfm_layout_name(l & 1, l & 2));
        /* the layouts' over-fetch often agrees (the padded leading
         * dimension's with none's): a large open circle around a small
         * square, a small filled circle, so that none hides another */
        static const char *const mk[] = {"pt 4 ps 1.0", "pt 5 ps 1.0", "pt 6 ps 2.6", "pt 7 ps 0.6"};
        snprintf(st, sizeof st, "with linespoints %s dt 3 lc rgb '#555555'", mk[l]);
        rc_pc_series(&pc, &sr, tt, st, 1);
    }
    /* the six bandwidths lie within a few percent of each other: on an
     * axis from 0 to the peak they would draw as one band, so the axis
     * spans them (the peak and the ceiling, far above, are named in the
     * title instead of drawn off the chart) */
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++)
        if (isfinite(p[i].bw_GBps) && p[i].bw_GBps > 0 && p[i].lead_pad == !!p[i].pad_ld) /* the layouts drawn */
            lo = fmin(lo, p[i].bw_GBps), hi = fmax(hi, p[i].bw_GBps);
    free(p);
    const double ceil_copy = rc_ceiling_in(r, "copy");
    char title[512], set[1024], ceil_words[96] = "";
    if (isfinite(ceil_copy)) snprintf(ceil_words, sizeof ceil_words, ", copy ceiling %.0f GB/s", ceil_copy);
    snprintf(title, sizeof title, "stencil: GB/s and over-fetch against N0, %s (DRAM peak %.0f GB/s%s: above this axis)",
             dev, peak, ceil_words);
    const double pad = isfinite(lo) ? fmax((hi - lo) * 0.25, hi * 0.01) : 0;
    snprintf(set, sizeof set, "set xlabel 'N0 (floats, the contiguous dimension)'\nset logscale x 2\n"
                              "set ylabel 'GB/s (bytes read + written)'\nset yrange [%.1f:%.1f]\n"
                              "set y2label 'over-fetch of the centre load (%%)'\nset y2range [-3:50]\nset y2tics",
             isfinite(lo) ? lo - pad : 0, isfinite(hi) ? hi + pad : 4000);
    return rc_pc_finish(&pc, title, set);
}

/* The lab's cases: every row of sectors_stencil.tsv with a lab figure, the
 * four quantities as lab / model / GPU. */
static void cases_table(report_doc *d, rd_section *s, const rc_gpu *G, const tsv_table *sec)
{
    rd_table *x = rd_table_new(7);
    static const char *const head[] = {"variant", "op", "geometry", "L1 sectors", "L1 hits", "L1 hit rate %",
                                       "L2 requests"};
    for (size_t k = 0; k < 7; k++) rd_table_set(x, 0, k, "%s", head[k]);
    for (size_t k = 3; k < 7; k++) rd_table_set(x, 0, k, "%s: lab / model / %s", head[k], G->label);
    size_t row = 1;
    for (size_t r = 0; r < sec->nrow; r++) {
        rfm_case_q q[RFM_NCASE];
        if (rfm_stencil_case(sec, r, q) == 0) continue;
        rd_table_set(x, row, 0, "%s", tsv_get(sec, r, "variant") ? tsv_get(sec, r, "variant") : "?");
        rd_table_set(x, row, 1, "%s", tsv_get(sec, r, "op") ? tsv_get(sec, r, "op") : "?");
        rd_table_set(x, row, 2, "%s", tsv_get(sec, r, "config") ? tsv_get(sec, r, "config") : "?");
        for (int k = 0; k < RFM_NCASE; k++) {
            const char *fmt = k == RFM_CASE_HIT_PCT ? "%.2f" : "%.0f";
            char lab[32], m[32], mh[32], me[32];
            rc_num(lab, sizeof lab, k == RFM_CASE_HIT_PCT ? "%.1f" : "%.0f", q[k].lab);
            rc_num(m, sizeof m, fmt, q[k].model);
            rc_num(me, sizeof me, fmt, q[k].measured);
            if (isfinite(q[k].model_hi))
                rd_table_set(x, row, 3 + (size_t)k, "%s / %s..%s / %s", isfinite(q[k].lab) ? lab : "-", m,
                             rc_num(mh, sizeof mh, fmt, q[k].model_hi), me);
            else
                rd_table_set(x, row, 3 + (size_t)k, "%s / %s / %s", isfinite(q[k].lab) ? lab : "-", m, me);
        }
        row++;
    }
    rd_table_add(d, s, x);
}

static void sec_stencil(report_doc *d, rd_section *s, const rc_ctx *c)
{
    char p[64], b[64], note[4096];
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        tsv_table sec;
        const int hc = rc_gpu_sectors(G, "stencil", &sec);
        const int hs = res_find(&G->r, NAMES_SUMMARY, "stencil", NULL, NULL, 0, "") != NULL;
        if (!hs && !hc) continue;
        rc_pfx(c, G, p, sizeof p);
        if (hc) {
            rd_heading(d, s, "%sThe lab's cases: L1 sectors, hits, hit rate, L2 requests", p);
            cases_table(d, s, G, &sec);
            if (rfm_stencil_cases_note(&sec, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            rd_para(d, s, "%sThe lab's figures of these rows, merged over geometries, with the model at the lab's "
                          "setting:", p);
            rc_lab_table(d, s, c, G, &sec);
            tsv_free(&sec);
        } else {
            rc_missing(d, s, c, G, "sectors_stencil.tsv", "(needs Nsight Compute)");
        }
        if (!hs) continue;
        rd_heading(d, s, "%sSize sweep: bandwidth and over-fetch against N0", p);
        rd_figures_start(d, s);
        rc_family_figure(d, s, c, G, "stencil_sweep", "stencil: GB/s and over-fetch against N0");
        size_t n;
        rfm_stencil_point *pt = stencil_sweep(&G->r, &n);
        /* rows N0 x layout; columns the over-fetch and each variant's GB/s */
        static const char *const var[] = {"deriv_copy", "deriv0", "deriv1"};
        rd_table *x = rd_table_new(6);
        static const char *const head[] = {"N0", "layout", "over-fetch %", "deriv_copy GB/s", "deriv0 GB/s", "deriv1 GB/s"};
        for (size_t k = 0; k < 6; k++) rd_table_set(x, 0, k, "%s", head[k]);
        double n0s[64];
        size_t nn0 = 0;
        for (size_t k = 0; k < n; k++) {
            size_t j = 0;
            while (j < nn0 && n0s[j] != pt[k].n0) j++;
            if (j == nn0 && nn0 < 64) n0s[nn0++] = pt[k].n0;
        }
        for (size_t a = 1; a < nn0; a++)
            for (size_t q = a; q > 0 && n0s[q - 1] > n0s[q]; q--) { double v = n0s[q]; n0s[q] = n0s[q - 1]; n0s[q - 1] = v; }
        size_t row = 1;
        for (size_t j = 0; j < nn0; j++)
            for (int l = 0; l < 4; l++) {
                double of = NAN, bw[3] = {NAN, NAN, NAN};
                for (size_t k = 0; k < n; k++) {
                    if (pt[k].n0 != n0s[j] || pt[k].lead_pad != (l & 1) || pt[k].pad_ld != !!(l & 2)) continue;
                    for (int v = 0; v < 3; v++)
                        if (!strcmp(pt[k].variant, var[v])) bw[v] = pt[k].bw_GBps;
                    if (!strcmp(pt[k].variant, "deriv_copy")) of = pt[k].overfetch_pct;
                }
                if (!isfinite(bw[0]) && !isfinite(bw[1]) && !isfinite(bw[2])) continue;
                rd_table_set(x, row, 0, "%.0f", n0s[j]);
                rd_table_set(x, row, 1, "%s", rfm_layout_name(l & 1, l & 2));
                rd_table_set(x, row, 2, "%s", rc_num(b, sizeof b, "%.1f", of));
                for (int v = 0; v < 3; v++) rd_table_set(x, row, 3 + (size_t)v, "%s", rc_num(b, sizeof b, "%.1f", bw[v]));
                row++;
            }
        rd_table_add(d, s, x);
        if (rfm_stencil_sweep_note(pt, n, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
        free(pt);
        /* the halo probe: deriv0_halo's median latency, from any size's table */
        rd_heading(d, s, "%sThe halo probe", p);
        double halo = NAN;
        char where[256] = "";
        for (const res_file *f = res_find(&G->r, NAMES_SUMMARY, "stencil", NULL, NULL, 0, ""); f && !isfinite(halo);
             f = res_next(&G->r, f, NAMES_SUMMARY, "stencil", NULL, NULL, 0, "")) {
            tsv_table t;
            char err[512];
            if (tsv_read(f->path, &t, err, sizeof err) != 0) continue;
            const long r = tsv_find(&t, "kernel", "deriv0_halo", 0);
            if (r >= 0) {
                halo = tsv_num(&t, (size_t)r, "lat_p50_cycles");
                snprintf(where, sizeof where, "%s, %s", f->base, tsv_get(&t, (size_t)r, "config"));
            }
            tsv_free(&t);
        }
        if (!isfinite(halo)) {
            char base[256];
            names_summary(base, sizeof base, "stencil", "1024x97656", 4);
            rc_missing(d, s, c, G, base, "with a deriv0_halo row (the halo probe's latency)");
        } else if (!G->nlv) {
            rc_missing(d, s, c, G, "latency_ca.tsv", "(the ladder's L1 plateau, to compare the halo probe with)");
        } else {
            if (rfm_halo_note(halo, G->lv, G->nlv, note, sizeof note) == 0)
                rd_finding(d, s, "%s%s (%s)", p, note, where);
        }
    }
}

static const fam_chart CHARTS[] = {
    {"stencil_sweep", "stencil: bandwidth and over-fetch against N0", FAM_CHART_SUMMARY, chart_stencil},
};

const struct fam_report fam_report_stencil = {
    .doc = "docs/stencil.md",
    .runs = {.script = "scripts/stencil.sh"},
    .expected = expect_stencil,
    .section = sec_stencil,
    FAM_CHARTS(CHARTS),
};
