/* report_sectors.c - the occupancy sweeps and the sectors
 * sections of the report (report_cmd.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "report_cmd.h"
#include "sweep.h"

/* A sector table (bin/sector_compare's, 40-odd columns) as the page
 * shows it: the sectors at each level, predicted against measured, and the
 * verdict; the raw table stays in its file, linked below it.  NULL when t is
 * not such a table. */
static rd_table *sector_digest(const tsv_table *t)
{
    static const char *const need[] = {"variant", "op", "l1_sectors_pred", "l1_sectors_meas",
                                       "dram_sectors_pred", "dram_sectors_meas", "agree", NULL};
    for (int k = 0; need[k]; k++)
        if (tsv_col(t, need[k]) < 0) return NULL;
    static const char *const head[] = {"variant", "config", "op", "L1 sectors pred / meas",
                                       "L2 sectors pred / meas", "DRAM sectors pred / meas", "DRAM err %",
                                       "agree"};
    rd_table *r = rd_table_new(8);
    for (size_t k = 0; r && k < 8; k++) rd_table_set(r, 0, k, "%s", head[k]);
    for (size_t q = 0; r && q < t->nrow; q++) {
#define G_(col) (tsv_get(t, q, col) ? tsv_get(t, q, col) : "n/a")
        rd_table_set(r, q + 1, 0, "%s", G_("variant"));
        rd_table_set(r, q + 1, 1, "%s", G_("config"));
        rd_table_set(r, q + 1, 2, "%s", G_("op"));
        rd_table_set(r, q + 1, 3, "%s / %s", G_("l1_sectors_pred"), G_("l1_sectors_meas"));
        rd_table_set(r, q + 1, 4, "%s / %s", G_("l2_sectors_pred"), G_("l2_sectors_meas"));
        rd_table_set(r, q + 1, 5, "%s / %s", G_("dram_sectors_pred"), G_("dram_sectors_meas"));
        rd_table_set(r, q + 1, 6, "%s", G_("dram_err_pct"));
        rd_table_set(r, q + 1, 7, "%s", G_("agree"));
#undef G_
    }
    return r;
}

/* The sweep's in-flight closure (a sweep that recorded every block), or 1:
 * an older sweep has no such columns and says what it always said. */
static int sweep_inflight_note(const sweep *sw, char *buf, size_t len)
{
    if (!sweep_has_column(sw, "closure_inflight_err_pct")) return 1;
    rf_inflight_point *ip = rc_xcalloc(sw->npoints, sizeof *ip);
    for (size_t q = 0; q < sw->npoints; q++) {
        const sweep_point *x = &sw->points[q];
        ip[q] = (rf_inflight_point){x->blocks_per_sm, x->warps_per_sm, x->inflight_warps_per_sm,
                                    x->slot_period_cycles, x->slot_rest_cycles, x->closure_inflight_err_pct,
                                    x->launch_drain_pct, x->sm_imbalance_pct};
    }
    const int rc = rf_sweep_inflight_note(ip, sw->npoints, buf, len);
    free(ip);
    return rc;
}

void rc_sec_sweeps(report_doc *d, const rc_ctx *c)
{
    rd_section *s = rc_section_open(d, RC_SEC_SWEEPS);
    char p[64], rel[1024], cap[512], b[8][32];
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        rc_pfx(c, G, p, sizeof p);
        double dram = NAN, dram_ns = NAN;
        const res_file *ca = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, "");
        while (ca && strcmp(ca->base, "latency_ca.tsv")) ca = res_next(&G->r, ca, NAMES_LADDER, NULL, NULL, NULL, 0, "");
        char err[512];
        if (ca && plateau_dram_latency_from_tsv(ca->path, &dram, &dram_ns, err, sizeof err) != 0) dram = NAN;
        for (const res_file *f = res_find(&G->r, NAMES_SWEEP, NULL, NULL, NULL, 0, ""); f;
             f = res_next(&G->r, f, NAMES_SWEEP, NULL, NULL, NULL, 0, "")) {
            rd_heading(d, s, "%s%s %s, %u warps per block", p, f->exp, f->variant, f->wpb);
            rc_sweep_chart(rel, sizeof rel, G, f);
            snprintf(cap, sizeof cap, "%s%s %s, %u warps per block", p, f->exp, f->variant, f->wpb);
            rd_figures_start(d, s);
            rc_figure(d, s, c, rel, cap);
            sweep sw;
            if (sweep_read(f->path, &sw, err, sizeof err) != 0) { rd_failed(d, s, f->rel, err); continue; }
            rf_device dev = G->dev;
            if (!isfinite(dev.peak_GBps)) dev.peak_GBps = sweep_meta_num(&sw, "peak_dram_GBps");
            if (!isfinite(dev.sm_count)) dev.sm_count = sweep_meta_num(&sw, "sm_count");
            const double mc = sweep_meta_num(&sw, "sm_clock_measured_MHz");
            if (mc > 0) dev.sm_clock_MHz = mc;
            const double bpw = sweep_meta_num(&sw, "bytes_per_warp_load");
            rf_sweep_point *pt = rc_xcalloc(sw.npoints, sizeof *pt);
            for (size_t q = 0; q < sw.npoints; q++) {
                pt[q].warps_per_sm = sw.points[q].warps_per_sm;
                pt[q].occupancy_pct = sw.points[q].occupancy_pct;
                pt[q].bw_GBps = sw.points[q].bw_GBps;
                pt[q].lat_mean_cycles = sw.points[q].lat_mean_cycles;
                pt[q].sm_clock_MHz = NAN;
            }
            rf_sweep_bounds(pt, sw.npoints, bpw, &dev);
            rd_table *t = rd_table_new(7);
            static const char *const head[] = {"warps/SM", "occupancy %", "GB/s", "% of peak",
                                               "mean latency (cycles)", "bound at own latency (GB/s)", "% of bound"};
            for (size_t k = 0; k < 7; k++) rd_table_set(t, 0, k, "%s", head[k]);
            for (size_t q = 0; q < sw.npoints; q++) {
                rd_table_set(t, q + 1, 0, "%s", rc_num(b[0], 32, "%.0f", pt[q].warps_per_sm));
                rd_table_set(t, q + 1, 1, "%s", rc_num(b[1], 32, "%.1f", pt[q].occupancy_pct));
                rd_table_set(t, q + 1, 2, "%s", rc_num(b[2], 32, "%.1f", pt[q].bw_GBps));
                rd_table_set(t, q + 1, 3, "%s", rc_num(b[3], 32, "%.1f", 100 * pt[q].bw_GBps / dev.peak_GBps));
                rd_table_set(t, q + 1, 4, "%s", rc_num(b[4], 32, "%.0f", pt[q].lat_mean_cycles));
                rd_table_set(t, q + 1, 5, "%s", rc_num(b[5], 32, "%.0f", pt[q].bound_GBps));
                rd_table_set(t, q + 1, 6, "%s", rc_num(b[6], 32, "%.0f", pt[q].of_bound_pct));
            }
            rd_table_add(d, s, t);
            char note[2048], kname[256];
            snprintf(kname, sizeof kname, "%s", f->variant);
            if (rf_sweep_best_note(kname, pt, sw.npoints, &dev, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            double lat = dram;
            int given = isfinite(dram);
            if (!given)
                for (size_t q = 0; q < sw.npoints; q++)
                    if (sw.points[q].lat_p50_cycles > 0 && !(lat <= sw.points[q].lat_p50_cycles)) lat = sw.points[q].lat_p50_cycles;
            if (rf_sweep_need_note(lat, given, bpw, &dev, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            if (rf_sweep_bound_note(pt, sw.npoints, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            if (sweep_inflight_note(&sw, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
            rd_links_start(d, s, "data:");
            rd_link(d, s, rc_rel_to_out(c, f->path), f->base);
            free(pt);
            sweep_free(&sw);
        }
        for (size_t fa = 0; fa < c->nfam; fa++) {
            const char *name = c->families[fa];
            const struct fam_report *fi = rc_family(name);
            if (!fi) continue;
            for (const char *const *v = fi->sweep_variants; v && *v; v++) {
                if (res_find(&G->r, NAMES_SWEEP, name, *v, NULL, fi->sweep_wpb, "")) continue;
                char base[256];
                names_sweep(base, sizeof base, name, *v, fi->sweep_wpb);
                rc_missing(d, s, c, G, base, NULL);
            }
        }
    }
}

/* The blocks of a file that holds several tables separated by blank lines
 * (sector_compare: the main table, then "# gathers"). */
static int read_blocks(const char *path, tsv_table *blocks, int max, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) { snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno)); return -1; }
    char *text = NULL;
    size_t len = 0, cap = 0;
    char buf[8192];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0) {
        if (len + k + 1 > cap) {
            cap = (len + k + 1) * 2;
            char *t = realloc(text, cap);
            if (!t) { free(text); fclose(f); snprintf(err, errlen, "out of memory"); return -1; }
            text = t;
        }
        memcpy(text + len, buf, k);
        len += k;
    }
    fclose(f);
    if (!text) { snprintf(err, errlen, "%s is empty", path); return -1; }
    text[len] = 0;
    int n = 0;
    char *p = text;
    while (p && *p && n < max) {
        char *end = strstr(p, "\n\n");
        if (end) *end = 0;
        while (*p == '\n') p++;
        if (*p) {
            FILE *m = fmemopen(p, strlen(p), "r");
            if (!m || tsv_parse(m, path, &blocks[n], err, errlen) != 0) {
                if (m) fclose(m);
                for (int i = 0; i < n; i++) tsv_free(&blocks[i]);
                free(text);
                return -1;
            }
            fclose(m);
            n++;
        }
        p = end ? end + 2 : NULL;
    }
    free(text);
    return n;
}

/* One summary of the random model check (docs/model_check.md): its
 * figures in a sentence, its table and its link.  0, or -1 unreadable. */
static int model_check_summary(report_doc *d, rd_section *s, const rc_ctx *c, const char *p, const char *path)
{
    tsv_table t;
    char err[512];
    if (tsv_read(path, &t, err, sizeof err) != 0) return -1;
    const long all = tsv_find(&t, "family", "all", 0);
    if (all < 0) {
        tsv_free(&t);
        return -1;
    }
    /* "seed 2025, 100 configurations; N ..." -> the part before the ranges */
    const char *draws = tsv_meta(&t, "draws_copy");
    char seed[128];
    snprintf(seed, sizeof seed, "%s", draws ? draws : "seed in the file");
    seed[strcspn(seed, ";")] = 0;
    rd_para(d, s, "%sOn random configurations nobody picked (scripts/model_check.sh; %s): %.0f of %.0f rows "
                  "agree under the strict rule (%.1f%%; no bracket wider than 5%% of its prediction counts). "
                  "L1 requests or sectors missed on %.0f rows; the others: hits %.0f, L2 %.0f, DRAM %.0f, "
                  "brackets too wide (L2 requests merged in flight) %.0f. The lab cases above are the "
                  "configurations the model was built on; docs/model_check.md says what the misses are.",
            p, seed, tsv_num(&t, (size_t)all, "agree"), tsv_num(&t, (size_t)all, "rows"),
            tsv_num(&t, (size_t)all, "agree_pct"), tsv_num(&t, (size_t)all, "l1"), tsv_num(&t, (size_t)all, "hits"),
            tsv_num(&t, (size_t)all, "l2"), tsv_num(&t, (size_t)all, "dram"), tsv_num(&t, (size_t)all, "wide_bound"));
    rd_fold_start(d, s, "the model check's table, per family");
    rd_table_add(d, s, rc_plain_table(&t));
    rd_fold_end(d, s);
    rd_links_start(d, s, "data:");
    rd_link(d, s, rc_rel_to_out(c, path), "model_check_summary.tsv");
    tsv_free(&t);
    return 0;
}

/* One cell of the judged rule's table: "judged % / strict %" of family f's
 * quantity q, "-" when not judged. */
static void tol_cell(rd_table *tb, size_t row, size_t col, const tsv_table *t, const char *f, const char *q)
{
    for (long r = tsv_find(t, "family", f, 0); r >= 0; r = tsv_find(t, "family", f, (size_t)r + 1))
        if (!strcmp(tsv_get(t, (size_t)r, "quantity"), q)) {
            rd_table_set(tb, row, col, "%.1f / %.1f", tsv_num(t, (size_t)r, "agree_pct"),
                         tsv_num(t, (size_t)r, "agree_strict_pct"));
            return;
        }
    rd_table_set(tb, row, col, "-");
}

/* The judged rule (issue 36) beside a summary, where its folder has one
 * (model_check_tol_summary.tsv): per family and quantity the agreement
 * under it and under the strict rule, and the worst rows with the command
 * that reruns each. */
static void model_check_tol(report_doc *d, rd_section *s, const rc_ctx *c, const char *p, const char *dir)
{
    static const char *const Q[] = {"l1_sectors", "l1_hits", "l2_requests", "l2_sectors", "dram_sectors", "every"};
    char path[4608], err[512];
    snprintf(path, sizeof path, "%s/model_check_tol_summary.tsv", dir);
    tsv_table t;
    if (!rc_exists(path) || tsv_read(path, &t, err, sizeof err) != 0) return;
    long all = -1;
    for (long r = tsv_find(&t, "family", "all", 0); r >= 0; r = tsv_find(&t, "family", "all", (size_t)r + 1))
        if (!strcmp(tsv_get(&t, (size_t)r, "quantity"), "every")) all = r;
    if (all < 0) {
        tsv_free(&t);
        return;
    }
    rd_para(d, s, "%sThe judged rule (the model's expected count within the largest of 5%% of the median, twice "
                  "the row's run-to-run spread and 0.1%% of its L1 sectors; %s%s): %.0f of %.0f rows agree on every "
                  "judged quantity (%.1f%%), against %.1f%% under the strict rule; %.0f rows took a tolerance from "
                  "their spread, %.0f of the quantities agree only thanks to it. Each cell: judged rule / strict "
                  "rule, %% of the rows judged on that quantity.",
            p, tsv_meta(&t, "commit") ? "seeds from commit " : "seeds in the file",
            tsv_meta(&t, "commit") ? tsv_meta(&t, "commit") : "", tsv_num(&t, (size_t)all, "agree"),
            tsv_num(&t, (size_t)all, "judged"), tsv_num(&t, (size_t)all, "agree_pct"),
            tsv_num(&t, (size_t)all, "agree_strict_pct"), tsv_num(&t, (size_t)all, "by_spread"),
            tsv_num(&t, (size_t)all, "needed_spread"));
    const size_t nq = sizeof Q / sizeof Q[0];
    rd_table *tb = rd_table_new(nq + 1);
    rd_table_set(tb, 0, 0, "family");
    for (size_t q = 0; q < nq; q++) rd_table_set(tb, 0, q + 1, "%s", Q[q]);
    size_t row = 1;
    for (size_t r = 0; r < t.nrow; r++) {
        if (strcmp(tsv_get(&t, r, "quantity"), "every")) continue;   /* one row a family */
        const char *f = tsv_get(&t, r, "family");
        rd_table_set(tb, row, 0, "%s", f);
        for (size_t q = 0; q < nq; q++) tol_cell(tb, row, q + 1, &t, f, Q[q]);
        row++;
    }
    rd_table_add(d, s, tb);
    tsv_free(&t);
    rd_links_start(d, s, "data:");
    rd_link(d, s, rc_rel_to_out(c, path), "model_check_tol_summary.tsv");
    snprintf(path, sizeof path, "%s/model_check_worst.tsv", dir);
    if (!rc_exists(path) || tsv_read(path, &t, err, sizeof err) != 0) return;
    if (t.nrow) {
        rd_para(d, s, "%sThe rows furthest outside their tolerance (worst: |expected - median| / tolerance); "
                      "./FAMILY_profile ARGS reruns one:", p);
        rd_table *w = rd_table_new(5);
        static const char *const H[] = {"family", "variant", "op", "worst", "failed"};
        for (size_t k = 0; k < 5; k++) rd_table_set(w, 0, k, "%s", H[k]);
        rd_table *a = rd_table_new(2);
        rd_table_set(a, 0, 0, "family");
        rd_table_set(a, 0, 1, "args");
        for (size_t r = 0; r < t.nrow && r < 5; r++) {
            for (size_t k = 0; k < 5; k++) rd_table_set(w, r + 1, k, "%s", tsv_get(&t, r, H[k]));
            rd_table_set(a, r + 1, 0, "%s", tsv_get(&t, r, "family"));
            rd_table_set(a, r + 1, 1, "%s", tsv_get(&t, r, "args"));
        }
        rd_table_add(d, s, w);
        rd_table_add(d, s, a);
    }
    tsv_free(&t);
}

static int name_cmp(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* Beside a summary, the families' --repeat tables (model_check_repeat_*.tsv
 * in the summary's folder): how many rows moved a judged count by more than
 * the strict rule allows between identical runs. */
static void model_check_repeats(report_doc *d, rd_section *s, const char *p, const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp) return;
    double rows = 0, over = 0;
    int nfam = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        if (strncmp(e->d_name, "model_check_repeat_", 19) || !strstr(e->d_name, ".tsv")) continue;
        char path[4608], err[256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        tsv_table t;
        if (tsv_read(path, &t, err, sizeof err) != 0) continue;
        const long r = tsv_find(&t, "quantity", "any_judged", 0);
        if (r >= 0) {
            rows += tsv_num(&t, (size_t)r, "rows");
            over += tsv_num(&t, (size_t)r, "over_5pct");
            nfam++;
        }
        tsv_free(&t);
    }
    closedir(dp);
    if (nfam)
        rd_para(d, s, "%sThe same batches profiled again (--repeat, %d famil%s): %.0f of %.0f rows moved a "
                      "judged count by more than 5%% between identical runs (L2 requests merged in flight "
                      "differ from run to run), so no model can agree with every run on those rows.",
                p, nfam, nfam == 1 ? "y" : "ies", over, rows);
}

/* The random model check's summaries in a GPU's folder: its own run
 * (DIR/model_check_summary.tsv) and the seeds under model_check/seed*. */
static void model_checks(report_doc *d, rd_section *s, const rc_ctx *c, const rc_gpu *G, const char *p)
{
    char path[4608];
    snprintf(path, sizeof path, "%s/model_check_summary.tsv", G->r.dir);
    if (rc_exists(path)) {
        model_check_summary(d, s, c, p, path);
        model_check_tol(d, s, c, p, G->r.dir);
        model_check_repeats(d, s, p, G->r.dir);
    }
    snprintf(path, sizeof path, "%s/model_check", G->r.dir);
    DIR *dir = opendir(path);
    if (!dir) return;
    char names[16][256];
    int n = 0;
    for (struct dirent *e; (e = readdir(dir)) && n < 16;)
        if (!strncmp(e->d_name, "seed", 4)) snprintf(names[n++], sizeof names[0], "%s", e->d_name);
    closedir(dir);
    qsort(names, (size_t)n, sizeof names[0], name_cmp);
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/model_check/%s/model_check_summary.tsv", G->r.dir, names[i]);
        if (rc_exists(path) && model_check_summary(d, s, c, p, path) != 0)
            rd_failed(d, s, "model check", "its summary could not be read");
        snprintf(path, sizeof path, "%s/model_check/%s", G->r.dir, names[i]);
        model_check_tol(d, s, c, p, path);
        model_check_repeats(d, s, p, path);
    }
}

void rc_sec_sectors(report_doc *d, const rc_ctx *c)
{
    rd_section *s = rc_section_open(d, RC_SEC_SECTORS);
    char p[64], rel[1024], cap[512], err[512];
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        rc_pfx(c, G, p, sizeof p);
        for (const res_file *f = res_find(&G->r, NAMES_SECTORS, NULL, NULL, NULL, 0, ""); f;
             f = res_next(&G->r, f, NAMES_SECTORS, NULL, NULL, NULL, 0, "")) {
            rd_heading(d, s, "%s%s: measured against the model", p, f->exp);
            tsv_table blocks[4];
            int nb;
            const int cmp = rc_sectors_need_compare(f->path);
            char tab[1024], abs[2048];
            if (cmp) {
                rc_compare_rel(tab, sizeof tab, G, f->exp);
                snprintf(abs, sizeof abs, "%s/%s", c->outdir, tab);
                if (!rc_exists(abs)) {
                    const char *e = rc_failure_of(c, tab);
                    rd_failed(d, s, "sector comparison", e ? e : "bin/sector_compare was not run");
                    continue;
                }
                nb = read_blocks(abs, blocks, 4, err, sizeof err);
            } else {
                nb = read_blocks(f->path, blocks, 4, err, sizeof err);
            }
            if (nb < 1) { rd_failed(d, s, f->rel, err); continue; }
            const tsv_table *t = &blocks[0];
            rd_table *dg = sector_digest(t);
            if (dg) {
                rd_para(d, s, "%sThe sectors at each level, predicted / measured; requests, wavefronts, "
                              "hits, utilizations and the labs' figures (%zu columns in all) are in %s, "
                              "linked below.", p, t->ncol, cmp ? tab : f->base);
                rd_table_add(d, s, dg);
            } else {
                rd_table_add(d, s, rc_plain_table(t));
            }
            rf_sectors cnt;
            char note[2048];
            if (rf_sectors_count(t, &cnt) == 0 && rf_sectors_note(&cnt, note, sizeof note) == 0)
                rd_finding(d, s, "%s%s", p, note);
            /* the comparison's further tables: detail, folded */
            if (nb > 1) rd_fold_start(d, s, "more of the comparison");
            for (int k = 1; k < nb; k++) {
                const char *why = blocks[k].ncomment ? blocks[k].comment[0] : "";
                rd_para(d, s, "%s%s", p, *why ? why : "more of the comparison:");
                rd_table_add(d, s, rc_plain_table(&blocks[k]));
            }
            if (nb > 1) rd_fold_end(d, s);
            for (int k = 0; k < nb; k++) tsv_free(&blocks[k]);
            if (cmp) {
                rc_chart_rel(rel, sizeof rel, G, "sectors_%s", f->exp);
                snprintf(cap, sizeof cap, "%s%s: sectors and time against stride", p, f->exp);
                rd_figures_start(d, s);
                rc_figure(d, s, c, rel, cap);
            }
            rd_links_start(d, s, "data:");
            rd_link(d, s, rc_rel_to_out(c, f->path), f->base);
            if (cmp) rd_link(d, s, tab, "the comparison (bin/sector_compare)");
        }
        for (size_t fa = 0; fa < c->nfam; fa++) {
            const char *name = c->families[fa];
            if (!rc_family_has_sectors(name) || res_find(&G->r, NAMES_SECTORS, name, NULL, NULL, 0, "")) continue;
            char base[256];
            names_sectors(base, sizeof base, name);
            rc_missing(d, s, c, G, base, "(needs Nsight Compute)");
        }
        model_checks(d, s, c, G, p);
        int any = 0;
        for (const res_file *f = res_find(&G->r, NAMES_SASS, NULL, NULL, NULL, 0, ""); f;
             f = res_next(&G->r, f, NAMES_SASS, NULL, NULL, NULL, 0, "")) {
            if (!any) { snprintf(cap, sizeof cap, "%sSASS of the kernels:", p); rd_links_start(d, s, cap); any = 1; }
            rd_link(d, s, rc_rel_to_out(c, f->path), f->base);
        }
    }
}
