/*
 * report.c - the atomics family's part of the report (report_family.h):
 * its summaries (the common table), then one table per GPU that sets each
 * contention pattern's throughput form (RED) beside its latency form (ATOMG)
 * and the model's count of what one warp instruction asks of L1 and L2
 * (atomics_model.h), so that "how much does contention cost" is one row.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "atomics_model.h"
#include "report_ctx.h"

/* Row of `name` in summary t, or -1. */
static long row_of(const tsv_table *t, const char *name)
{
    return tsv_find(t, "kernel", name, 0);
}

/* Billions of atomics a second: N atomics in kernel_ms. */
static double gatomics(const tsv_table *t, long r)
{
    if (r < 0) return NAN;
    const double n = tsv_num(t, (size_t)r, "n"), ms = tsv_num(t, (size_t)r, "kernel_ms");
    return n > 0 && ms > 0 ? n / (ms * 1e6) : NAN;
}

/* One table: a row per pattern. */
static rd_table *pattern_table(const tsv_table *t)
{
    static const char *const head[] = {"pattern", "RED (G atomics/s)", "ATOMG (G atomics/s)", "ATOMG p50 (cycles)",
                                       "ATOMG p95 (cycles)", "L1 sectors / request", "L2 requests / warp"};
    rd_table *x = rd_table_new(7);
    for (size_t h = 0; h < 7; h++) rd_table_set(x, 0, h, "%s", head[h]);
    char b[64];
    const double n = t->nrow ? tsv_num(t, 0, "n") : NAN;
    for (int p = 0; p < AT_NPATTERNS; p++) {
        long red = -1, atom = -1;
        int atom_v = -1;
        for (int v = 0; v < AT_NVARIANTS; v++) {
            if (atomics_variant_pattern(v) != p) continue;
            if (atomics_variant_ret(v)) { atom = row_of(t, atomics_variant_name(v)); atom_v = v; }
            else red = row_of(t, atomics_variant_name(v));
        }
        const size_t r = (size_t)p + 1;
        rd_table_set(x, r, 0, "%s", atomics_pattern_name(p));
        rd_table_set(x, r, 1, "%s", rc_num(b, sizeof b, "%.2f", gatomics(t, red)));
        rd_table_set(x, r, 2, "%s", rc_num(b, sizeof b, "%.2f", gatomics(t, atom)));
        rd_table_set(x, r, 3, "%s", rc_num(b, sizeof b, "%.0f", atom >= 0 ? tsv_num(t, (size_t)atom, "lat_p50_cycles") : NAN));
        rd_table_set(x, r, 4, "%s", rc_num(b, sizeof b, "%.0f", atom >= 0 ? tsv_num(t, (size_t)atom, "lat_p95_cycles") : NAN));
        atm_pred pr;
        char err[256];
        const int ok = atom_v >= 0 && n >= 32 &&
                       atm_predict(atom_v, (uint64_t)n, 4, ATM_L2_REPLAY, 64, &pr, err, sizeof err) == 0;
        rd_table_set(x, r, 5, "%s", rc_num(b, sizeof b, "%.1f", ok ? (double)pr.l1_sectors / (double)pr.l1_requests : NAN));
        rd_table_set(x, r, 6, "%s", rc_num(b, sizeof b, "%.1f", ok ? (double)pr.l2_requests / (double)pr.l1_requests : NAN));
    }
    return x;
}

static void sec_atomics(report_doc *d, rd_section *s, const rc_ctx *c)
{
    char p[64];
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        tsv_table t;
        if (!rc_gpu_summary(G, "atomics", &t)) continue;   /* 1: read */
        rd_heading(d, s, "%scontention, pattern by pattern", rc_pfx(c, G, p, sizeof p));
        rd_table_add(d, s, pattern_table(&t));
        tsv_free(&t);
    }
}

const struct fam_report fam_report_atomics = {
    .doc = "docs/atomics.md",
    .section = sec_atomics,
};
