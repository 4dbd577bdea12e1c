/*
 * report.c - the ceiling's part of the report (report_family.h): the
 * achievable bandwidth of each operation (ceiling.tsv, scripts/ceiling.sh),
 * a section of its own before the other families', whose charts draw it.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "report_ctx.h"

/* scripts/ceiling.sh writes ceiling.tsv and the search tables it names. */
static void expect_ceiling(int quick, fam_file_fn fn, void *arg)
{
    (void)quick;
    fn("ceiling.tsv", arg);
}

static void sec_ceiling(report_doc *d, rd_section *s, const rc_ctx *c)
{
    rd_table *parts[RC_MAX_GPUS] = {0};
    const char *labels[RC_MAX_GPUS];
    int any = 0;
    char b[64], p[64];
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        labels[i] = G->label;
        if (!G->nceiling) continue;
        rd_table *t = parts[i] = rd_table_new(6);
        static const char *const head[] = {"operation", "GB/s", "% of theoretical", "configuration",
                                           "warps/block", "in flight per SM"};
        for (size_t k = 0; k < 6; k++) rd_table_set(t, 0, k, "%s", head[k]);
        for (int q = 0; q < G->nceiling; q++) {
            const rfm_ceiling *e = &G->ceiling[q];
            rd_table_set(t, (size_t)q + 1, 0, "%s", strcmp(e->op, "memcpy") ? e->op : "cudaMemcpy");
            rd_table_set(t, (size_t)q + 1, 1, "%s", rc_num(b, sizeof b, "%.1f", e->bw_GBps));
            rd_table_set(t, (size_t)q + 1, 2, "%s", rc_num(b, sizeof b, "%.1f", e->pct_theoretical));
            rd_table_set(t, (size_t)q + 1, 3, "%s", e->config);
            rd_table_set(t, (size_t)q + 1, 4, "%s", rc_num(b, sizeof b, "%.0f", e->wpb));
            rd_table_set(t, (size_t)q + 1, 5, "%s", isfinite(e->bytes_in_flight_per_sm)
                                                        ? rf_fmt_bytes(e->bytes_in_flight_per_sm, b, sizeof b) : "n/a");
        }
        any = 1;
    }
    if (any) rd_table_add(d, s, rc_join((const rd_table *const *)parts, labels, c->ng));
    for (int i = 0; i < c->ng; i++) {
        rd_table_free(parts[i]);
        const rc_gpu *G = &c->g[i];
        if (!G->nceiling) {
            rc_missing(d, s, c, G, "ceiling.tsv", "(the achievable bandwidth: this GPU's charts draw no ceiling line)");
            continue;
        }
        char note[2048];
        if (rfm_ceiling_note(G->ceiling, (size_t)G->nceiling, G->dev.peak_GBps, G->dram_ns, note, sizeof note) == 0)
            rd_finding(d, s, "%s%s", rc_pfx(c, G, p, sizeof p), note);
        const res_file *f = rc_fixed(G, "ceiling.tsv");
        rd_links_start(d, s, "data:");
        rd_link(d, s, rc_rel_to_out(c, f->path), "ceiling.tsv");
        /* the search tables it names */
        tsv_table t;
        char err[512];
        if (tsv_read(f->path, &t, err, sizeof err) == 0) {
            char seen[32][128];
            int ns = 0;
            for (size_t r = 0; r < t.nrow && ns < 32; r++) {
                const char *tab = tsv_get(&t, r, "table");
                if (!tab) continue;
                int k = 0;
                while (k < ns && strcmp(seen[k], tab)) k++;
                if (k < ns) continue;
                snprintf(seen[ns++], sizeof seen[0], "%s", tab);
                char path[4400];
                snprintf(path, sizeof path, "%s/%s", G->r.dir, tab);
                if (rc_exists(path)) rd_link(d, s, rc_rel_to_out(c, path), tab);
            }
            tsv_free(&t);
        }
    }
}

static const char *const FILES[] = {"ceiling.tsv", NULL};

const struct fam_report fam_report_ceiling = {
    .doc = "docs/ceiling.md",
    .runs = {.script = "scripts/ceiling.sh", .script_ladder = 1, .fixed_files = FILES},
    .no_sass = 1,
    .no_summaries = 1,
    .expected = expect_ceiling,
    .section = sec_ceiling,
};
