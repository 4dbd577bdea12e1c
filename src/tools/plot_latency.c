/*
 * plot_latency - the distribution (CDF) of per-warp latency of several logs
 * on one chart, e.g. baseline vs float4 vs random_access.
 *
 *   bin/plot_latency LOG... OUT [--keep]
 *
 * A CDF rather than a histogram: curves of logs with very different warp
 * counts stay comparable (y is a fraction), no bin width has to be chosen,
 * and the medians and tails read off directly (y = 0.5, 0.95).  It is exact:
 * one step per distinct latency, from the same histograms as latency_stats.
 *
 * Writes OUT (svg/png/pdf), STEM.gp and STEM.dat (text: one block per log,
 * "lat_cycles<TAB>fraction_le", blocks separated by two blank lines, which
 * gnuplot addresses with `index`).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "stats.h"
#include "warplog.h"

static const char usage_text[] =
    "usage: plot_latency LOG... OUT [--keep]\n"
    "  Cumulative distribution of per-warp latency (end_clk - start_clk, cycles) of\n"
    "  each log, all on one chart.  OUT ends in .svg, .png or .pdf; OUT's stem + .gp\n"
    "  and .dat are written beside it (redraw with: gnuplot -c STEM.gp).\n"
    "  --keep        if gnuplot fails, keep the .tmp script and data to debug\n"
    "  -h, --help    this text\n";

static int usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "plot_latency: %s%s\n(plot_latency --help for usage)\n", msg, arg);
    return 2;
}

typedef struct cdf_ctx {
    FILE *f;
    uint64_t total, cum;
} cdf_ctx;

static int put_step(uint64_t lat_cycles, uint64_t nwarps, void *vctx)
{
    cdf_ctx *c = vctx;
    if (c->cum == 0) fprintf(c->f, "%llu\t0\n", (unsigned long long)lat_cycles);
    c->cum += nwarps;
    fprintf(c->f, "%llu\t%.9g\n", (unsigned long long)lat_cycles,
            (double)c->cum / (double)c->total);
    return 0;
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
    if (!pos) return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_text, stdout);
            free(pos);
            return 0;
        } else if (strcmp(a, "--keep") == 0) {
            keep = 1;
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
    lat_stats **st = calloc((size_t)nlogs, sizeof *st);
    warplog_header *hs = calloc((size_t)nlogs, sizeof *hs);
    gp_job *job = NULL;
    if (!st || !hs) goto oom;
    /* Read every log before creating any file: a bad log leaves nothing. */
    for (int i = 0; i < nlogs; i++) {
        if (!(st[i] = lat_stats_new())) goto oom;
        if (lat_stats_read_log(st[i], pos[i], &hs[i], err, sizeof err) != 0) {
            fprintf(stderr, "plot_latency: %s\n", err);
            goto done;
        }
        if (lat_stats_bad(st[i]))
            fprintf(stderr, "plot_latency: warning: %s: %llu records with end_clk < start_clk "
                    "left out\n", pos[i], (unsigned long long)lat_stats_bad(st[i]));
    }

    job = gp_job_new(out, 900, 600, err, sizeof err);
    if (!job) {
        fprintf(stderr, "plot_latency: %s\n", err);
        goto done;
    }
    gp_job_keep_on_failure(job, keep);
    FILE *d = gp_job_add_data(job, ".dat", "dat", "w", err, sizeof err);
    if (!d) goto job_fail;
    double *p50 = calloc((size_t)nlogs, sizeof *p50);
    uint64_t *count = calloc((size_t)nlogs, sizeof *count);
    if (!p50 || !count) {
        free(p50);
        free(count);
        gp_job_abort(job);
        goto oom;
    }
    for (int i = 0; i < nlogs; i++) {
        lat_summary s;
        if (lat_stats_summary(st[i], LAT_STATS_ALL, &s) != 0) {
            snprintf(err, sizeof err, "out of memory");
            free(p50);
            free(count);
            goto job_fail;
        }
        p50[i] = s.p50_cycles;
        count[i] = s.count;
        fprintf(d, "%s# %s\n# lat_cycles\tfraction_le\n", i ? "\n\n" : "", pos[i]);
        cdf_ctx c = {d, s.count, 0};
        if (s.count == 0) fputs("nan\tnan\n", d); /* keeps the index numbering */
        else lat_stats_each(st[i], LAT_STATS_ALL, put_step, &c);
    }
    FILE *s = gp_job_script(job, err, sizeof err);
    if (!s) {
        free(p50);
        free(count);
        goto job_fail;
    }
    char dev[100];
    snprintf(dev, sizeof dev, "%.*s", (int)strnlen(hs[0].device_name, sizeof hs[0].device_name),
             hs[0].device_name);
    fputs("set title ", s);
    gp_put_str(s, "Per-warp load latency, cumulative distribution");
    fputs(".\"\\n\".", s);
    gp_put_str(s, dev);
    fputs("\nset xlabel 'latency (SM cycles, end_clk - start_clk)'\n"
          "set ylabel 'fraction of warps with latency <= x'\n"
          "set yrange [0:1]\n"
          "set ytics 0.1\n"
          "set grid\n"
          "set key bottom right\n"
          "plot ", s);
    for (int i = 0; i < nlogs; i++) {
        char title[300];
        snprintf(title, sizeof title, "%.*s, %u warps/block (%s): %llu warps, p50 %.1f cycles",
                 (int)strnlen(hs[i].kernel, sizeof hs[i].kernel), hs[i].kernel,
                 hs[i].warps_per_block, base_of(pos[i]), (unsigned long long)count[i], p50[i]);
        fprintf(s, "%sdat index %d using 1:2 with steps lw 2 title ", i ? ", \\\n     " : "", i);
        gp_put_str(s, title);
    }
    fputc('\n', s);
    free(p50);
    free(count);
    if (gp_job_finish(job, err, sizeof err) != 0) {
        fprintf(stderr, "plot_latency: %s\n", err);
        goto done;
    }
    rc = 0;
    goto done;
job_fail:
    fprintf(stderr, "plot_latency: %s\n", err);
    gp_job_abort(job);
    goto done;
oom:
    fprintf(stderr, "plot_latency: out of memory\n");
done:
    if (st)
        for (int i = 0; i < nlogs; i++) lat_stats_free(st[i]);
    free(st);
    free(hs);
    free(pos);
    return rc;
}
