/*
 * report_run.c - the report's run log and drift table (report_run.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "report_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "drift.h"
#include "err.h"
#include "outfile.h"
#include "tsv.h"

int rr_read_steps(const char *path, rr_totals *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    tsv_table s;
    if (tsv_read(path, &s, err, errlen) != 0) return -1;
    if (tsv_col(&s, "step") < 0 || tsv_col(&s, "status") < 0 || tsv_col(&s, "start_us") < 0 ||
        tsv_col(&s, "end_us") < 0) {
        set_err(err, errlen, "%s lacks the columns step, status, start_us and end_us", path);
        tsv_free(&s);
        return -1;
    }
    double first = NAN, last = NAN;
    for (size_t r = 0; r < s.nrow; r++) {
        const double a = tsv_num(&s, r, "start_us"), b = tsv_num(&s, r, "end_us");
        t->steps++;
        t->failed += strcmp(tsv_get(&s, r, "status"), "ok") != 0;
        if (isfinite(a) && (!isfinite(first) || a < first)) first = a;
        if (isfinite(b) && (!isfinite(last) || b > last)) last = b;
    }
    t->wall_s = isfinite(first) && isfinite(last) ? (last - first) / 1e6 : NAN;
    tsv_free(&s);
    return 0;
}

static void run_log(report_doc *d, rd_section *s, const char *path)
{
    char err[512];
    tsv_table t;
    if (tsv_read(path, &t, err, sizeof err) != 0) {
        rd_failed(d, s, "the run log", err);
        return;
    }
    rr_totals tot;
    if (rr_read_steps(path, &tot, err, sizeof err) != 0) {
        rd_failed(d, s, "the run log", err);
        tsv_free(&t);
        return;
    }
    rd_heading(d, s, "Run log");
    /* the whole steps only: the measurements and the charts are listed
     * one by one in logs/steps.tsv */
    rd_table *tab = rd_table_new(3);
    rd_table_set(tab, 0, 0, "step");
    rd_table_set(tab, 0, 1, "status");
    rd_table_set(tab, 0, 2, "seconds");
    size_t row = 1, charts = 0, charts_failed = 0;
    double c0 = NAN, c1 = NAN;
    for (size_t r = 0; r < t.nrow; r++) {
        const char *step = tsv_get(&t, r, "step");
        const double a = tsv_num(&t, r, "start_us"), b = tsv_num(&t, r, "end_us");
        if (!strncmp(step, "chart: ", 7)) {
            charts++;
            charts_failed += strcmp(tsv_get(&t, r, "status"), "ok") != 0;
            if (isfinite(a) && (!isfinite(c0) || a < c0)) c0 = a;
            if (isfinite(b) && (!isfinite(c1) || b > c1)) c1 = b;
            continue;
        }
        rd_table_set(tab, row, 0, "%s", step);
        rd_table_set(tab, row, 1, "%s", tsv_get(&t, r, "status"));
        rd_table_set(tab, row, 2, "%.1f", (b - a) / 1e6);
        row++;
    }
    if (charts) {
        rd_table_set(tab, row, 0, "charts and tables: %zu jobs", charts);
        rd_table_set(tab, row, 1, charts_failed ? "%zu failed" : "ok", charts_failed);
        rd_table_set(tab, row, 2, "%.1f", (c1 - c0) / 1e6);
    }
    rd_table_add(d, s, tab);
    rd_finding(d, s, "The run took %.1f s up to the report's writing, in %zu steps; %zu failed.", tot.wall_s,
               tot.steps, tot.failed);
    rd_links_start(d, s, NULL);
    rd_link(d, s, "logs/steps.tsv", "steps.tsv");
    tsv_free(&t);
}

static const char *verdict_word(int v)
{
    return v == 1 ? "within" : v == 0 ? "outside" : "not compared";
}

static int drift_table(report_doc *d, rd_section *s, const char *today, const char *label, const char *bundled,
                       const char *tables_dir)
{
    char err[512];
    drift_row rows[FLEET_NFIG];
    const int outside = drift_compare(today, bundled, rows, err, sizeof err);
    if (outside < 0) {
        rd_failed(d, s, "the drift table", err);
        return 0;
    }
    rd_heading(d, s, "Drift of %s against the bundled %s", label, bundled);
    rd_table *tab = rd_table_new(7);
    static const char *const head[] = {"figure", "bundled", "today", "difference", "tolerance", "verdict", "today's source"};
    for (size_t k = 0; k < 7; k++) rd_table_set(tab, 0, k, "%s", head[k]);
    for (int i = 0; i < FLEET_NFIG; i++) {
        const drift_row *r = &rows[i];
        rd_table_set(tab, i + 1, 0, "%s (%s)", r->figure, r->unit);
        rd_table_set(tab, i + 1, 1, isfinite(r->bundled) ? "%.1f" : "-", r->bundled);
        rd_table_set(tab, i + 1, 2, isfinite(r->today) ? "%.1f" : "-", r->today);
        if (r->verdict < 0) rd_table_set(tab, i + 1, 3, "-");
        else if (r->tol_relative) rd_table_set(tab, i + 1, 3, "%+.1f (%+.2f%%)", r->diff, r->diff_pct);
        else rd_table_set(tab, i + 1, 3, "%+.2f", r->diff);
        rd_table_set(tab, i + 1, 4, r->tol_relative ? "%g%%" : "%g points", r->tol);
        rd_table_set(tab, i + 1, 5, "%s", verdict_word(r->verdict));
        rd_table_set(tab, i + 1, 6, "%s", r->note);
    }
    rd_table_add(d, s, tab);
    rd_finding(d, s, "%d of the headline figures of %s are outside their tolerance of the bundled results.",
               outside, label);
    if (!tables_dir) return outside;
    char path[4200];
    snprintf(path, sizeof path, "%s/drift_%s.tsv", tables_dir, label);
    outfile o;
    FILE *f = outfile_open(&o, path, "w", err, sizeof err);
    if (!f) {
        rd_failed(d, s, "drift table", err);
        return -1;
    }
    char shown[300];   /* the folder as the finished report has it (today is where it was built) */
    snprintf(shown, sizeof shown, "data/%s", label);
    if (drift_write_tsv(f, rows, shown, bundled) != 0 || outfile_commit(&o, err, sizeof err) != 0) {
        outfile_abort(&o);
        rd_failed(d, s, "drift table", "cannot write it");
        return -1;
    }
    rd_links_start(d, s, NULL);
    char rel[300];
    snprintf(rel, sizeof rel, "tables/drift_%s.tsv", label);
    rd_link(d, s, rel, rel + 7);
    return outside;
}

int rr_section(report_doc *d, const char *steps_tsv, const char *ref_root, int n,
               const char *const *today_dirs, const char *const *labels, const char *const *names,
               const char *tables_dir)
{
    struct stat st;
    const int have_log = steps_tsv && stat(steps_tsv, &st) == 0;
    if (!have_log && n == 0) return 0;
    rd_section *s = rd_section_intro(d, "run", "This run",
        "What scripts/report.sh ran, step by step, with its time, and where a GPU was measured, "
        "each headline figure against the bundled results of the same GPU model: a difference "
        "beyond its stated tolerance says that this GPU, its clocks or the code changed.");
    if (have_log) run_log(d, s, steps_tsv);
    int outside = 0;
    for (int i = 0; i < n; i++) {
        char bundled[1024];
        if (!ref_root || drift_find_bundled(ref_root, names[i], bundled, sizeof bundled) != 0) {
            rd_para(d, s, "%s: no bundled results of a %s under %s, so no drift table.", labels[i], names[i],
                    ref_root ? ref_root : "(none given)");
            continue;
        }
        if (tables_dir) mkdir(tables_dir, 0777);
        const int o = drift_table(d, s, today_dirs[i], labels[i], bundled, tables_dir);
        if (o < 0) return -1;
        outside += o;
    }
    return outside;
}
