/*
 * plot_latency - the distribution (CDF) of per-warp latency of several logs
 * on one chart, e.g. baseline vs float4 vs random_access.
 *
 *   bin/plot_latency LOG... OUT [--region NAME] [--keep]
 *
 * --region NAME: only the records of that named region of each log
 * (warplat.h); every log must have it.
 *
 * A CDF rather than a histogram: curves of logs with very different warp
 * counts stay comparable (y is a fraction), no bin width has to be chosen,
 * and the medians and tails read off directly (y = 0.5, 0.95).  It is exact:
 * one step per distinct latency, from the same histograms as latency_stats.
 *
 * Writes OUT (svg/png/pdf), STEM.gp and STEM.dat (text: one block per log,
 * "lat_cycles<TAB>fraction_le", blocks separated by two blank lines, which
 * gnuplot addresses with `index`).
 *
 * Memory: one log's statistics at a time (stats.h bounds them); each log is
 * kept only as its distinct latencies and their counts, at most
 * LAT_STATS_BINS + LAT_STATS_MAX_OVERFLOW pairs.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gp.h"
#include "outfile.h"
#include "regions.h"
#include "stats.h"
#include "warplog.h"

static const char usage_text[] =
    "usage: plot_latency LOG... OUT [--region NAME] [--keep]\n"
    "  Cumulative distribution of per-warp latency (end_clk - start_clk, cycles) of\n"
    "  each log, all on one chart.  OUT ends in .svg, .png or .pdf; OUT's stem + .gp\n"
    "  and .dat are written beside it (redraw with: gnuplot -c STEM.gp).\n"
    "  --region NAME only the records of that region (logs of your kernel, warplat.h)\n"
    "  --keep        if gnuplot fails, keep the .tmp script and data to debug\n"
    "  -h, --help    this text\n";

#define PROG "plot_latency"

static int usage_error(const char *msg, const char *arg)
{
    return cli_usage_error(PROG, "%s%s", msg, arg);
}

/* One log, reduced to what the chart needs. */
typedef struct cdf {
    warplog_header h;
    lat_summary s;
    uint64_t *lat, *n;    /* distinct latencies, ascending, and their warps */
    size_t np, cap;
} cdf;

static int keep_step(uint64_t lat_cycles, uint64_t nwarps, void *vctx)
{
    cdf *c = vctx;
    if (c->np == c->cap) {
        size_t nc = c->cap ? 2 * c->cap : 1024;
        uint64_t *a = realloc(c->lat, nc * sizeof *a);
        if (!a) return -1;
        c->lat = a;
        uint64_t *b = realloc(c->n, nc * sizeof *b);
        if (!b) return -1;
        c->n = b;
        c->cap = nc;
    }
    c->lat[c->np] = lat_cycles;
    c->n[c->np++] = nwarps;
    return 0;
}

static void put_cdf(FILE *f, const cdf *c)
{
    uint64_t cum = 0;
    for (size_t i = 0; i < c->np; i++) {
        if (cum == 0) fprintf(f, "%llu\t0\n", (unsigned long long)c->lat[i]);
        cum += c->n[i];
        fprintf(f, "%llu\t%.9g\n", (unsigned long long)c->lat[i], (double)cum / (double)c->s.count);
    }
}

static const char *base_of(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

int main(int argc, char **argv)
{
    const char **pos = calloc((size_t)argc, sizeof *pos);
    int npos = 0, keep = 0;
    const char *region = NULL;
    if (!pos) return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_text, stdout);
            free(pos);
            return outfile_check_stdout(PROG);
        } else if (strcmp(a, "--keep") == 0) {
            keep = 1;
        } else if (strcmp(a, "--region") == 0 || strncmp(a, "--region=", 9) == 0) {
            region = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (!region || !*region) {
                free(pos);
                return usage_error("option --region needs a region name", "");
            }
        } else if (a[0] == '-' && a[1] != 0) {
            free(pos);
            return usage_error("unknown option ", a);
        } else {
            pos[npos++] = a;
        }
    }
    if (npos < 2) {
        free(pos);
        return usage_error("want at least one LOG and OUT", "");
    }
    const char *out = pos[npos - 1];
    int nlogs = npos - 1;
    if (!gp_format_for(out)) {
        free(pos);
        return usage_error("OUT must end in .svg, .png or .pdf: ", out);
    }

    char err[1024];
    int rc = 1;
    cdf *cs = calloc((size_t)nlogs, sizeof *cs);
    gp_job *job = NULL;
    if (!cs) goto oom;
    /* Read every log before creating any file: a bad log leaves nothing. */
    for (int i = 0; i < nlogs; i++) {
        lat_stats *st = lat_stats_new();
        if (!st) goto oom;
        if (region_lat_read_log(st, pos[i], region, &cs[i].h, err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            lat_stats_free(st);
            goto done;
        }
        if (lat_stats_bad(st))
            fprintf(stderr, PROG ": warning: %s: %llu records with end_clk < start_clk "
                    "left out\n", pos[i], (unsigned long long)lat_stats_bad(st));
        int bad = lat_stats_summary(st, LAT_STATS_ALL, &cs[i].s) != 0 ||
                  lat_stats_each(st, LAT_STATS_ALL, keep_step, &cs[i]) != 0;
        lat_stats_free(st);
        if (bad) goto oom;
    }

    job = gp_job_new(out, 900, 680, err, sizeof err);
    if (!job) {
        fprintf(stderr, PROG ": %s\n", err);
        goto done;
    }
    gp_job_keep_on_failure(job, keep);
    FILE *d = gp_job_add_data(job, ".dat", "dat", "w", err, sizeof err);
    if (!d) goto job_fail;
    for (int i = 0; i < nlogs; i++) {
        fputs(i ? "\n\n# " : "# ", d);
        outfile_put_field(d, pos[i]);
        fputs("\n# lat_cycles\tfraction_le\n", d);
        if (cs[i].s.count == 0) fputs("nan\tnan\n", d); /* keeps the index numbering */
        else put_cdf(d, &cs[i]);
    }
    FILE *s = gp_job_script(job, err, sizeof err);
    if (!s) goto job_fail;
    char dev[100];
    snprintf(dev, sizeof dev, "%.*s", (int)strnlen(cs[0].h.device_name, sizeof cs[0].h.device_name),
             cs[0].h.device_name);
    fputs("set title ", s);
    char title0[160];
    snprintf(title0, sizeof title0, "Per-warp load latency, cumulative distribution%s%s",
             region ? ", region " : "", region ? region : "");
    gp_put_str(s, title0);
    fputs(".\"\\n\".", s);
    gp_put_str(s, dev);
    fputs("\nset xlabel 'latency (SM cycles, end_clk - start_clk)'\n"
          "set ylabel 'fraction of warps with latency <= x'\n"
          "set yrange [0:1]\n"
          "set ytics 0.1\n"
          "set grid\n"
          "set key below center Left reverse font ',10' height 1\n"
          "plot ", s);
    for (int i = 0; i < nlogs; i++) {
        char title[300];
        snprintf(title, sizeof title, "%.*s, %u warps/block (%s): %llu warps, p50 %.1f cycles",
                 (int)strnlen(cs[i].h.kernel, sizeof cs[i].h.kernel), cs[i].h.kernel,
                 cs[i].h.warps_per_block, base_of(pos[i]), (unsigned long long)cs[i].s.count,
                 cs[i].s.p50_cycles);
        fprintf(s, "%sdat index %d using 1:2 with steps lw 2 title ", i ? ", \\\n     " : "", i);
        gp_put_str(s, title);
    }
    fputc('\n', s);
    if (gp_job_finish(job, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        goto done;
    }
    rc = 0;
    goto done;
job_fail:
    fprintf(stderr, PROG ": %s\n", err);
    gp_job_abort(job);
    goto done;
oom:
    fprintf(stderr, PROG ": out of memory\n");
done:
    if (cs)
        for (int i = 0; i < nlogs; i++) {
            free(cs[i].lat);
            free(cs[i].n);
        }
    free(cs);
    free(pos);
    return rc;
}
