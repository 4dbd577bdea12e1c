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

/* What the command line asks for: LOG... OUT (at most 63 LOGs). */
typedef struct args {
    const char *out, *region;
    char **logs;
    int nlogs, keep;
    cli_parse_result r;
} args;

/* 0 with a filled, -1 after printing --help (exit 0), or the usage exit status. */
static int parse_args(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    const cli_opt opts[] = {
        {"--keep", 0, CLI_FLAG, 0, 0, 0, 0, &a->keep, 0, "keep the files of a failed gnuplot", 0, 0},
        {"--region", 0, CLI_STRING, 0, 0, 0, 0, &a->region, "NAME", "one region", 0, 0},
        CLI_END};
    const cli_opt *tables[] = {opts};
    const int prc = cli_parse(PROG, argc, argv, tables, 1, CLI_MAX_POS, &a->r);
    if (prc) return prc;
    if (a->r.help) {
        fputs(usage_text, stdout);
        return outfile_check_stdout(PROG) ? 1 : -1;
    }
    if (a->r.npos < 2) return usage_error("want at least one LOG and OUT", "");
    a->logs = a->r.pos;
    a->nlogs = a->r.npos - 1;
    a->out = a->r.pos[a->nlogs];
    if (!gp_format_for(a->out)) return usage_error("OUT must end in .svg, .png or .pdf: ", a->out);
    return 0;
}

/* Every log's distribution, read before any file is created (a bad log
 * leaves nothing): 0, or 1 after a sentence. */
static int read_logs(const args *a, cdf *cs)
{
    char err[1024];
    for (int i = 0; i < a->nlogs; i++) {
        lat_stats *st = lat_stats_new();
        if (!st) {
            fprintf(stderr, PROG ": out of memory\n");
            return 1;
        }
        if (region_lat_read_log(st, a->logs[i], a->region, &cs[i].h, err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            lat_stats_free(st);
            return 1;
        }
        if (lat_stats_bad(st))
            fprintf(stderr, PROG ": warning: %s: %llu records with end_clk < start_clk "
                    "left out\n", a->logs[i], (unsigned long long)lat_stats_bad(st));
        int bad = lat_stats_summary(st, LAT_STATS_ALL, &cs[i].s) != 0 ||
                  lat_stats_each(st, LAT_STATS_ALL, keep_step, &cs[i]) != 0;
        lat_stats_free(st);
        if (bad) {
            fprintf(stderr, PROG ": out of memory\n");
            return 1;
        }
    }
    return 0;
}

/* What the chart is drawn from. */
typedef struct chart {
    const args *a;
    const cdf *cs;
} chart;

static void write_script(FILE *s, const void *ctx)
{
    const args *a = ((const chart *)ctx)->a;
    const cdf *cs = ((const chart *)ctx)->cs;
    char dev[100];
    snprintf(dev, sizeof dev, "%.*s", (int)strnlen(cs[0].h.device_name, sizeof cs[0].h.device_name),
             cs[0].h.device_name);
    fputs("set title ", s);
    char title0[160];
    snprintf(title0, sizeof title0, "Per-warp load latency, cumulative distribution%s%s",
             a->region ? ", region " : "", a->region ? a->region : "");
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
    for (int i = 0; i < a->nlogs; i++) {
        char title[300];
        snprintf(title, sizeof title, "%.*s, %u warps/block (%s): %llu warps, p50 %.1f cycles",
                 (int)strnlen(cs[i].h.kernel, sizeof cs[i].h.kernel), cs[i].h.kernel,
                 cs[i].h.warps_per_block, base_of(a->logs[i]), (unsigned long long)cs[i].s.count,
                 cs[i].s.p50_cycles);
        fprintf(s, "%sdat index %d using 1:2 with steps lw 2 title ", i ? ", \\\n     " : "", i);
        gp_put_str(s, title);
    }
    fputc('\n', s);
}

static int write_data(FILE *d, const void *ctx, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const args *a = ((const chart *)ctx)->a;
    const cdf *cs = ((const chart *)ctx)->cs;
    for (int i = 0; i < a->nlogs; i++) {
        fputs(i ? "\n\n# " : "# ", d);
        outfile_put_field(d, a->logs[i]);
        fputs("\n# lat_cycles\tfraction_le\n", d);
        if (cs[i].s.count == 0) fputs("nan\tnan\n", d); /* keeps the index numbering */
        else put_cdf(d, &cs[i]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    args a;
    const int prc = parse_args(argc, argv, &a);
    if (prc) return prc < 0 ? 0 : prc;
    cdf *cs = calloc((size_t)a.nlogs, sizeof *cs);
    if (!cs) {
        fprintf(stderr, PROG ": out of memory\n");
        return 1;
    }
    int rc = read_logs(&a, cs);
    const chart c = {&a, cs};
    if (!rc) rc = gp_draw(PROG, a.out, 900, 680, a.keep, "w", write_data, write_script, &c);
    for (int i = 0; i < a.nlogs; i++) {
        free(cs[i].lat);
        free(cs[i].n);
    }
    free(cs);
    return rc;
}
