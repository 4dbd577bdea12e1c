/*
 * report_kernel.c - the report of your own kernel (report_kernel.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "report_kernel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "names.h"
#include "report_run.h"
#include "tsv.h"

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* The chart of one region, or a note on why there is none.  Its file name
 * comes from the region's name through names_from_name (never a path). */
static void chart(report_doc *d, rd_section *s, const char *outdir, const tsv_table *fail, const char *kind,
                  const char *region, const char *caption)
{
    char rel[512], path[4200], prefix[32], base[128];
    snprintf(prefix, sizeof prefix, "%s_", kind);
    if (names_from_name(base, sizeof base, prefix, region, ".svg") != 0) {
        rd_failed(d, s, kind, "the region's name is not one a log may hold (warplog_name_check): no file has it");
        return;
    }
    snprintf(rel, sizeof rel, "charts/%s", base);
    snprintf(path, sizeof path, "%s/%s", outdir, rel);
    if (exists(path)) {
        rd_figure(d, s, rel, caption);
        return;
    }
    for (size_t r = 0; fail && r < fail->nrow; r++) {
        const char *o = tsv_get(fail, r, "output");
        const size_t lo = o ? strlen(o) : 0, lr = strlen(rel);
        if (o && lo >= lr && !strcmp(o + lo - lr, rel)) {
            rd_failed(d, s, rel, tsv_get(fail, r, "error"));
            return;
        }
    }
    rd_missing(d, s, rel, NULL);
}

report_doc *rk_build(const char *outdir, char *err, size_t errlen)
{
    char path[4200];
    tsv_table v, ls, fail;
    snprintf(path, sizeof path, "%s/tables/verdict.tsv", outdir);
    if (tsv_read(path, &v, err, errlen) != 0) return NULL;
    if (tsv_col(&v, "region") < 0 || tsv_col(&v, "verdict") < 0) {
        set_err(err, errlen, "%s has no region and verdict columns (is it bin/verdict's?)", path);
        tsv_free(&v);
        return NULL;
    }
    char e2[512];
    snprintf(path, sizeof path, "%s/tables/latency_stats.tsv", outdir);
    const int have_ls = tsv_read(path, &ls, e2, sizeof e2) == 0;
    snprintf(path, sizeof path, "%s/logs/failures.tsv", outdir);
    const int have_fail = exists(path) && tsv_read(path, &fail, e2, sizeof e2) == 0;

    const char *kernel = tsv_meta(&v, "kernel"), *device = tsv_meta(&v, "device_name");
    char title[256];
    snprintf(title, sizeof title, "warplat report: your kernel %s", kernel ? kernel : "");
    report_doc *d = rd_new(title);
    if (!d) {
        set_err(err, errlen, "out of memory");
        goto out;
    }
    const char *ovh = tsv_meta(&v, "overhead_pct"), *k = tsv_meta(&v, "sample_blocks");
    rd_set_top_note(d, "The log %s of kernel %s on %s: the probes cost %s %% of the clean launch's time "
                       "(measured, interleaved launches), with one block in %s recorded.",
                    tsv_meta(&v, "log") ? tsv_meta(&v, "log") : "?", kernel ? kernel : "?",
                    device ? device : "?", ovh ? ovh : "?", k ? k : "?");
    rd_set_footer(d, "Made by scripts/report.sh --log and bin/report kernel (docs/your-kernel.md). The "
                     "tables are in tables/, each chart's gnuplot script and data beside it in charts/.");

    rd_section *s = rd_section_add(d, "verdict", "Little's law, region by region");
    const char *ref = tsv_meta(&v, "ref");
    rd_para(d, s, "For each region: its median latency against the DRAM latency, the warps inside it at once "
                  "per SM (one block in K recorded: K times the recorded ones, capped at the resident "
                  "warps), the bytes they hold in flight, and the bytes per SM that Little's law needs to "
                  "reach the achievable read bandwidth %s GB/s at the DRAM latency %s ns (from %s).",
            tsv_meta(&v, "ceiling_GBps") ? tsv_meta(&v, "ceiling_GBps") : "?",
            tsv_meta(&v, "dram_latency_ns") ? tsv_meta(&v, "dram_latency_ns") : "?", ref ? ref : "no reference");
    static const char *const cols[] = {"region", "records", "p50_cycles", "p95_cycles", "p50_x_dram",
                                       "warps_per_sm", "bytes_in_flight_per_sm", "bytes_needed_per_sm"};
    const size_t nc = sizeof cols / sizeof cols[0];
    rd_table *t = rd_table_new(nc);
    for (size_t c = 0; c < nc; c++) rd_table_set(t, 0, c, "%s", cols[c]);
    for (size_t r = 0; r < v.nrow; r++)
        for (size_t c = 0; c < nc; c++) {
            const char *x = tsv_get(&v, r, cols[c]);
            rd_table_set(t, r + 1, c, "%s", x ? x : "-");
        }
    rd_table_add(d, s, t);
    for (size_t r = 0; r < v.nrow; r++) rd_finding(d, s, "%s", tsv_get(&v, r, "verdict"));
    rd_links_start(d, s, NULL);
    rd_link(d, s, "tables/verdict.tsv", "verdict.tsv");

    /* Regions by index: verdict.tsv's row r is region r, and so is the r-th
     * of latency_stats.tsv's last v.nrow rows (its region rows follow the
     * whole log's), never the first row that carries the name. */
    for (size_t r = 0; r < v.nrow; r++) {
        const char *name = tsv_get(&v, r, "region");
        char id[128];
        snprintf(id, sizeof id, "region-%s", name);
        char head[256];
        snprintf(head, sizeof head, "Region %s", name);
        rd_section *rs = rd_section_add(d, id, head);
        if (have_ls && ls.nrow >= v.nrow) {
            const size_t i = ls.nrow - v.nrow + r;
            const char *got = tsv_get(&ls, i, "region");
            if (got && name && !strcmp(got, name))
                rd_para(d, rs, "%s records; latency p5 %s, p50 %s, p95 %s, p99 %s cycles (p50 %s ns).",
                        tsv_get(&ls, (size_t)i, "count"), tsv_get(&ls, (size_t)i, "p5_cycles"),
                        tsv_get(&ls, (size_t)i, "p50_cycles"), tsv_get(&ls, (size_t)i, "p95_cycles"),
                        tsv_get(&ls, (size_t)i, "p99_cycles"), tsv_get(&ls, (size_t)i, "p50_ns"));
        }
        rd_figures_start(d, rs);
        chart(d, rs, outdir, have_fail ? &fail : NULL, "latency", name,
              "latency distribution (cumulative), cycles");
        chart(d, rs, outdir, have_fail ? &fail : NULL, "warps", name,
              "per-warp timeline: each line a warp, from the clock before its load to the use of the value");
    }
    snprintf(path, sizeof path, "%s/logs/steps.tsv", outdir);
    if (rr_section(d, path, NULL, 0, NULL, NULL, NULL, NULL) < 0) {
        set_err(err, errlen, "the run log could not be added");
        rd_free(d);
        d = NULL;
    }
out:
    tsv_free(&v);
    if (have_ls) tsv_free(&ls);
    if (have_fail) tsv_free(&fail);
    return d;
}
