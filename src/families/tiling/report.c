/*
 * report.c - the tiling's part of the report (report_family.h): naive
 * against shared-memory tiles, the bytes each level moved (Nsight Compute)
 * against the ideal, and why the tiles are faster.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "report_ctx.h"
#include "report_math.h"

/* The summaries and the Nsight Compute table scripts/tiling.sh writes. */
static void expect_tiling(int quick, fam_file_fn fn, void *arg)
{
    /* DSIZE 8192 (2048 with --quick) and 1024; Nsight Compute at DSIZE */
    char b[256];
    const char *dsize = quick ? "2048" : "8192";
    names_summary(b, sizeof b, "tiling", dsize, 4);
    fn(b, arg);
    names_summary(b, sizeof b, "tiling", "1024", 4);
    fn(b, arg);
    names_ncu_table(b, sizeof b, "tiling", dsize);
    fn(b, arg);
}

/* tiling at DSIZE n (fam_chart.draw). */
static int chart_tiling(const char *out, const char *kind, const res_gpu *r, const char *n)
{
    (void)kind;
    char err[512], title[512], dev[128];
    tsv_table t, nc;
    if (rc_read_summary(r, "tiling", n, &t, err, sizeof err) != 0) rc_die("%s", err);
    const res_file *nf = res_find(r, NAMES_NCU_TABLE, "tiling", NULL, n, 0, "");
    const int have_ncu = nf && tsv_read(nf->path, &nc, err, sizeof err) == 0;
    rc_table_device(&t, dev, sizeof dev);
    rfm_tiling k[16];
    const size_t nk = rfm_tiling_read(&t, have_ncu ? &nc : NULL, k, 16);
    rfm_series ms = {{0}, {0}, 0}, gb = {{0}, {0}, 0};
    double naive_ms = NAN, naive_gb = NAN;
    for (size_t i = 0; i < nk; i++) {
        if (!strcmp(k[i].kernel, "naive")) { naive_ms = k[i].kernel_ms; naive_gb = k[i].dram_bytes / 1e9; continue; }
        if (!isfinite(k[i].tile)) continue;
        size_t a = ms.n++;
        while (a > 0 && ms.x[a - 1] > k[i].tile) { ms.x[a] = ms.x[a - 1]; ms.y[a] = ms.y[a - 1]; a--; }
        ms.x[a] = k[i].tile;
        ms.y[a] = k[i].kernel_ms;
        if (!isfinite(k[i].dram_bytes)) continue;
        a = gb.n++;
        while (a > 0 && gb.x[a - 1] > k[i].tile) { gb.x[a] = gb.x[a - 1]; gb.y[a] = gb.y[a - 1]; a--; }
        gb.x[a] = k[i].tile;
        gb.y[a] = k[i].dram_bytes / 1e9;
    }
    rc_pchart pc;
    rc_pc_open(&pc, out, 960, 560);
    rc_pc_series(&pc, &ms, "tiled: time (ms)", "with linespoints pt 7 ps 1 lw 2 lc rgb '#1f77b4'", 0);
    rc_pc_series(&pc, &gb, "tiled: DRAM bytes read (GB, Nsight Compute)", "with linespoints pt 5 ps 1 lw 2 lc rgb '#d62728'", 1);
    char tt[128];
    snprintf(tt, sizeof tt, "naive: %.2f ms", naive_ms);
    rc_pc_hline(&pc, naive_ms, tt, "with lines dt 2 lw 2 lc rgb '#1f77b4'", 0);
    snprintf(tt, sizeof tt, "naive: %.1f GB from DRAM", naive_gb);
    rc_pc_hline(&pc, naive_gb, tt, "with lines dt 2 lw 2 lc rgb '#d62728'", 1);
    const double ideal = rfm_tiling_ideal_bytes(res_n_value(n));
    snprintf(tt, sizeof tt, "ideal: 2 x DSIZE^2 x 4 B = %.3f GB", ideal / 1e9);
    if (have_ncu) rc_pc_hline(&pc, ideal / 1e9, tt, "with lines dt 3 lw 1 lc rgb '#555555'", 1);
    snprintf(title, sizeof title, "tiling: time and DRAM bytes against tile size, DSIZE %s%s%s", n, *dev ? ", " : "", dev);
    tsv_free(&t);
    if (have_ncu) tsv_free(&nc);
    /* log y2: the ideal (0.5 GB at 8192) and the bytes read (69 GB) both
     * stand clear of the axis; its floor is below the smallest of them (at
     * DSIZE 2048 they are a few hundredths of a GB), so that none falls off */
    double lo = have_ncu && ideal > 0 ? ideal / 1e9 : INFINITY;
    for (size_t i = 0; i < gb.n; i++)
        if (gb.y[i] > 0 && gb.y[i] < lo) lo = gb.y[i];
    if (isfinite(naive_gb) && naive_gb > 0 && naive_gb < lo) lo = naive_gb;
    char set[640];
    snprintf(set, sizeof set,
             "set xlabel 'tile (T x T threads per block)'\nset logscale x 2\nset xtics (8, 16, 32)\n"
             "set xrange [6:40]\nset ylabel 'kernel time (ms)'\nset yrange [0:*]\n%s",
             isfinite(lo) ? "set y2label 'DRAM bytes read (GB, log scale)'\nset logscale y2 10\nset y2tics\n" : "");
    if (isfinite(lo)) {
        const size_t len = strlen(set);
        snprintf(set + len, sizeof set - len, "set y2range [%.3g:*]", pow(10.0, floor(log10(lo / 2))));
    }
    return rc_pc_finish(&pc, title, set);
}

static void sec_tiling(report_doc *d, rd_section *s, const rc_ctx *c)
{
    char p[64], b[64], note[4096];
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        if (!res_find(&G->r, NAMES_SUMMARY, "tiling", NULL, NULL, 0, "")) continue;
        rc_pfx(c, G, p, sizeof p);
        const char *shown = rc_shown_n(G, "tiling");
        char ns[16][64];
        size_t nn = 0;
        for (const res_file *f = res_find(&G->r, NAMES_SUMMARY, "tiling", NULL, NULL, 0, ""); f && nn < 16;
             f = res_next(&G->r, f, NAMES_SUMMARY, "tiling", NULL, NULL, 0, ""))
            snprintf(ns[nn++], 64, "%s", f->n);
        qsort(ns, nn, sizeof ns[0], rc_cmp_n);
        for (size_t q = nn; q-- > 0;) { /* the largest first */
            const char *n = ns[q];
            tsv_table t, nc;
            char err[512];
            if (rc_read_summary(&G->r, "tiling", n, &t, err, sizeof err) != 0) { rd_failed(d, s, n, err); continue; }
            const res_file *nf = res_find(&G->r, NAMES_NCU_TABLE, "tiling", NULL, n, 0, "");
            const int hn = nf && tsv_read(nf->path, &nc, err, sizeof err) == 0;
            rfm_tiling k[16];
            const size_t nk = rfm_tiling_read(&t, hn ? &nc : NULL, k, 16);
            const double dsize = res_n_value(n), ideal = rfm_tiling_ideal_bytes(dsize);
            rd_heading(d, s, "%sDSIZE %s", p, n);
            if (!strcmp(n, shown)) {
                rd_figures_start(d, s);
                rc_family_figure(d, s, c, G, "tiling", "tiling: time and DRAM bytes against tile size");
            }
            rd_table *x = rd_table_new(hn ? 13 : 8);
            static const char *const head[] = {"kernel", "tile", "warps/block", "blocks/SM", "ms", "GFLOP/s",
                                               "p50 (cycles)", "p95 (cycles)", "L1 bytes", "L1 hit %", "L2 bytes",
                                               "DRAM bytes", "DRAM / ideal"};
            for (size_t h = 0; h < (hn ? 13u : 8u); h++) rd_table_set(x, 0, h, "%s", head[h]);
            size_t slow = nk, fast = nk;
            for (size_t r = 0; r < nk; r++) {
                rd_table_set(x, r + 1, 0, "%s", k[r].kernel);
                rd_table_set(x, r + 1, 1, "%s", rc_num(b, sizeof b, "%.0f", k[r].tile));
                rd_table_set(x, r + 1, 2, "%s", rc_num(b, sizeof b, "%.0f", k[r].wpb));
                rd_table_set(x, r + 1, 3, "%s", rc_num(b, sizeof b, "%.0f", k[r].blocks_per_sm));
                rd_table_set(x, r + 1, 4, "%s", rc_num(b, sizeof b, "%.3f", k[r].kernel_ms));
                rd_table_set(x, r + 1, 5, "%s", rc_num(b, sizeof b, "%.1f", k[r].gflops));
                rd_table_set(x, r + 1, 6, "%s", rc_num(b, sizeof b, "%.0f", k[r].lat_p50_cycles));
                rd_table_set(x, r + 1, 7, "%s", rc_num(b, sizeof b, "%.0f", k[r].lat_p95_cycles));
                if (hn) {
                    rd_table_set(x, r + 1, 8, "%s", isfinite(k[r].l1_bytes) ? rf_fmt_bytes(k[r].l1_bytes, b, sizeof b) : "n/a");
                    rd_table_set(x, r + 1, 9, "%s", rc_num(b, sizeof b, "%.1f", k[r].l1_hit_pct));
                    rd_table_set(x, r + 1, 10, "%s", isfinite(k[r].l2_bytes) ? rf_fmt_bytes(k[r].l2_bytes, b, sizeof b) : "n/a");
                    rd_table_set(x, r + 1, 11, "%s", isfinite(k[r].dram_bytes) ? rf_fmt_bytes(k[r].dram_bytes, b, sizeof b) : "n/a");
                    rd_table_set(x, r + 1, 12, "%s", rc_num(b, sizeof b, "x%.0f", k[r].dram_bytes / ideal));
                }
                if (isfinite(k[r].kernel_ms)) {
                    if (slow == nk || k[r].kernel_ms > k[slow].kernel_ms) slow = r;
                    if (fast == nk || k[r].kernel_ms < k[fast].kernel_ms) fast = r;
                }
            }
            rd_table_add(d, s, x);
            /* the naive kernel against the fastest (or the slowest, without a naive) */
            for (size_t r = 0; r < nk; r++) if (!strcmp(k[r].kernel, "naive")) slow = r;
            if (slow < nk && fast < nk && slow != fast &&
                rfm_tiling_speedup_note(&k[slow], &k[fast], dsize, note, sizeof note) == 0)
                rd_finding(d, s, "%s%s", p, note);
            for (size_t r = 0; r < nk && hn; r++) {
                if (r != slow && r != fast) continue;
                if (rfm_tiling_littles_note(&k[r], G->dram_ns, G->dev.sm_count, note, sizeof note) == 0)
                    rd_finding(d, s, "%s%s", p, note);
            }
            if (!hn && !strcmp(n, shown)) {
                char base[256];
                names_ncu_table(base, sizeof base, "tiling", n);
                rc_missing(d, s, c, G, base, "(the bytes at L1, L2 and DRAM: needs Nsight Compute)");
            }
            rd_links_start(d, s, "data:");
            const res_file *sf = res_find(&G->r, NAMES_SUMMARY, "tiling", NULL, n, 0, "");
            if (sf) rd_link(d, s, rc_rel_to_out(c, sf->path), sf->rel);
            if (hn) rd_link(d, s, rc_rel_to_out(c, nf->path), nf->rel);
            tsv_free(&t);
            if (hn) tsv_free(&nc);
        }
    }
}

static const fam_chart CHARTS[] = {
    {"tiling", "tiling: time and DRAM bytes against tile size", FAM_CHART_PER_N, chart_tiling},
};

const struct fam_report fam_report_tiling = {
    .doc = "docs/tiling.md",
    .runs = {.script = "scripts/tiling.sh"},
    .expected = expect_tiling,
    .section = sec_tiling,
    FAM_CHARTS(CHARTS),
};
