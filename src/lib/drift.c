/*
 * drift.c - today's headline figures against the bundled ones (drift.h).
 *
 * Why the fleet's figures: they are the ones a second GPU of the same model
 * is held to already (docs/fleet.md), each read by column name with a
 * sentence when it is missing; a drift table is the same comparison with
 * one sibling, the bundled run, and a stated tolerance instead of a median.
 */
#define _POSIX_C_SOURCE 200809L
#include "drift.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "tsv.h"

double drift_tolerance(int i, int *relative)
{
    *relative = 1;
    switch (i) {
    case FLEET_READ_BW_GBPS: return 5.0;
    case FLEET_SM_CLOCK_MHZ: return 3.0;
    case FLEET_OVERHEAD_MAX_PCT: *relative = 0; return 2.0;
    default: return 5.0;     /* the ladder's plateaus */
    }
}

/* The bytes one launch of ceiling.tsv's best read moved (bw x time), or
 * NAN when the folder has no such row. */
static double read_bytes(const char *dir)
{
    char path[1400], err[256];
    snprintf(path, sizeof path, "%s/ceiling.tsv", dir);
    tsv_table t;
    if (tsv_read(path, &t, err, sizeof err) != 0) return NAN;
    const long r = tsv_find(&t, "operation", "read", 0);
    const double v = r >= 0 ? tsv_num(&t, (size_t)r, "bw_GBps") * tsv_num(&t, (size_t)r, "kernel_ms") * 1e6 : NAN;
    tsv_free(&t);
    return v;
}

/* Like with like: the best read bandwidth of two ceiling searches is
 * compared only when their launches moved the same bytes (within 2 %: the
 * table's rounding); a --quick search (N = 64M) runs short launches that
 * reach less of the peak than the full one (N = 512M).  Where neither has
 * a ceiling.tsv both figures come from the readonly summary. */
static int same_search(const char *today, const char *bundled, char *note, size_t len)
{
    const double a = read_bytes(today), b = read_bytes(bundled);
    if (!isfinite(a) && !isfinite(b)) return 1;
    if (isfinite(a) && isfinite(b) && fabs(a - b) <= 0.02 * b) return 1;
    if (!isfinite(a) || !isfinite(b))
        snprintf(note, len, "not compared: only %s has a ceiling search (ceiling.tsv); the other's figure "
                 "is the readonly float4 row", isfinite(a) ? "today's run" : "the bundled set");
    else
        snprintf(note, len, "not compared: the two read bandwidths come from launches of %.0f MB and %.0f MB "
                 "(a --quick ceiling search is smaller)", a / 1e6, b / 1e6);
    return 0;
}

int drift_compare(const char *today_dir, const char *bundled_dir, drift_row *rows, char *err,
                  size_t errlen)
{
    fleet_gpu *g = calloc(2, sizeof *g);
    if (!g) {
        set_err(err, errlen, "out of memory");
        return -1;
    }
    if (fleet_read_gpu(today_dir, "today", &g[0], err, errlen) != 0 ||
        fleet_read_gpu(bundled_dir, "bundled", &g[1], err, errlen) != 0) {
        free(g);
        return -1;
    }
    int outside = 0;
    for (int i = 0; i < FLEET_NFIG; i++) {
        drift_row *r = &rows[i];
        memset(r, 0, sizeof *r);
        r->figure = fleet_figures[i].name;
        r->unit = fleet_figures[i].unit;
        r->today = g[0].fig[i].value;
        r->bundled = g[1].fig[i].value;
        r->tol = drift_tolerance(i, &r->tol_relative);
        r->diff = r->diff_pct = NAN;
        if (!isfinite(r->today) || !isfinite(r->bundled)) {
            r->verdict = -1;
            snprintf(r->note, sizeof r->note, "not compared: %s",
                     !isfinite(r->today) ? g[0].fig[i].source : g[1].fig[i].source);
            continue;
        }
        if (i == FLEET_READ_BW_GBPS && !same_search(today_dir, bundled_dir, r->note, sizeof r->note)) {
            r->verdict = -1;
            continue;
        }
        r->diff = r->today - r->bundled;
        r->diff_pct = r->bundled != 0 ? 100.0 * r->diff / fabs(r->bundled) : NAN;
        const double off = r->tol_relative ? fabs(r->diff_pct) : fabs(r->diff);
        r->verdict = isfinite(off) && off <= r->tol ? 1 : 0;
        outside += r->verdict == 0;
        snprintf(r->note, sizeof r->note, "%s", g[0].fig[i].source);
    }
    free(g);
    return outside;
}

int drift_find_bundled(const char *refroot, const char *device_name, char *out, size_t outlen)
{
    char **dirs = NULL;
    size_t n = 0;
    char err[256];
    if (fleet_find(refroot, 1, &dirs, &n, err, sizeof err) != 0) return -1;
    int found = -1;
    fleet_gpu *g = calloc(1, sizeof *g);
    for (size_t i = 0; g && i < n && found < 0; i++) {
        if (fleet_read_gpu(dirs[i], "bundled", g, err, sizeof err) != 0) continue;
        if (!strcmp(g->name, device_name) && strlen(dirs[i]) < outlen) {
            snprintf(out, outlen, "%s", dirs[i]);
            found = 0;
        }
    }
    free(g);
    fleet_free_dirs(dirs, n);
    return found;
}

static void num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.6g", v);
    else fputs("NA", f);
}

int drift_write_tsv(FILE *f, const drift_row *rows, const char *today_dir, const char *bundled_dir)
{
    fprintf(f, "# today\t%s\n# bundled\t%s\n", today_dir, bundled_dir);
    fputs("figure\tunit\tbundled\ttoday\tdiff\tdiff_pct\ttolerance\ttolerance_of\tverdict\tnote\n", f);
    for (int i = 0; i < FLEET_NFIG; i++) {
        const drift_row *r = &rows[i];
        fprintf(f, "%s\t%s\t", r->figure, r->unit);
        num(f, r->bundled);
        fputc('\t', f);
        num(f, r->today);
        fputc('\t', f);
        num(f, r->diff);
        fputc('\t', f);
        num(f, r->diff_pct);
        fprintf(f, "\t%g\t%s\t%s\t%s\n", r->tol, r->tol_relative ? "pct_of_bundled" : r->unit,
                r->verdict == 1 ? "within" : r->verdict == 0 ? "outside" : "not compared", r->note);
    }
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
