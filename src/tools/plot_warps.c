/*
 * plot_warps - per-warp timeline of a warp log, like the original study's
 * plot_warps.py: each warp is a horizontal line from its start to its end.
 *
 *   bin/plot_warps LOG OUT [--sms 0,1,2,3] [--max-warps N] [--region NAME] [--keep]
 *
 * --region NAME: only the records of that named region (warplat.h).
 *
 * x: cycles since the earliest warp on the same SM started.  Each SM has its
 *    own clock, so a start is only ever compared with starts on its own SM.
 * y: the warp's rank among the warps shown, ordered by SM (in --sms order),
 *    then by start cycle (block, warp break ties).  Ordering by start rather
 *    than by record (launch) order makes each SM a staircase whose left edge
 *    is the time warps began; the ~400-cycle pause while a finished block is
 *    replaced shows as a horizontal step in that edge, at the black line of
 *    the new block's warp 0.  Launch order would interleave warps of blocks
 *    that ran at different times and smear those steps.
 * colour: by SM (blue, orange, green, red, ... in --sms order); the first
 *    warp of each block (warp 0) in black.
 *
 * Writes OUT (svg/png/pdf), OUT's stem + ".gp" and + ".dat" (binary, four
 * float64 per warp: x_start, y, length, rgb) so that hundreds of thousands
 * of warps load in gnuplot at once.  Memory: only the warps drawn are kept,
 * at most --max-warps of them (default 1000000), the first ones in the log.
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
#include "timeline.h"
#include "warplog.h"

#define DEFAULT_MAX_WARPS 1000000u
#define MAX_SMS_SHOWN TIMELINE_MAX_SMS

static const char usage_text[] =
    "usage: plot_warps LOG OUT [--sms 0,1,2,3] [--max-warps N] [--region NAME] [--keep]\n"
    "  Per-warp timeline: one horizontal line per warp from its start to its end,\n"
    "  in SM cycles since the first warp on the same SM started; warps ordered by SM,\n"
    "  then start time; colour by SM, the first warp of each block in black.\n"
    "  OUT ends in .svg, .png or .pdf; OUT's stem + .gp and .dat are written beside\n"
    "  it (redraw with: gnuplot -c STEM.gp, in that directory).\n"
    "  --sms LIST      SM ids to draw, in colour order [the first 4 SMs in the log]\n"
    "  --max-warps N   draw at most the first N warps (in log order) of those SMs\n"
    "  --region NAME   only the records of that region (logs of your kernel, warplat.h)\n"
    "                  [1000000]\n"
    "  --keep          if gnuplot fails, keep the .tmp script and data to debug\n"
    "  -h, --help      this text\n";

/* matplotlib's default cycle, so charts look like the original study's. */
static const uint32_t palette_rgb[] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
                                       0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf};
#define NPALETTE (sizeof palette_rgb / sizeof palette_rgb[0])

#define PROG "plot_warps"
#define MAX_MAX_WARPS 1000000000ull /* 24 GB of warps: more is a typo */

static int usage_error(const char *msg, const char *arg)
{
    return cli_usage_error(PROG, "%s%s", msg, arg);
}

/* "0,1,2,3" (or "0-3") -> distinct ids; -1 with a sentence in err. */
static int parse_sms(const char *s, int *ids, int *n, char *err, size_t errlen)
{
    uint64_t v[MAX_SMS_SHOWN];
    size_t k;
    if (cli_parse_list("--sms", s, 0, WARPLOG_MAX_SM_COUNT - 1, v, MAX_SMS_SHOWN, &k, err,
                       errlen) != 0)
        return -1;
    for (size_t i = 0; i < k; i++) ids[i] = (int)v[i];   /* distinct: cli_parse_list */
    *n = (int)k;
    return 0;
}

static int write_f64(FILE *f, double v) { return fwrite(&v, sizeof v, 1, f) == 1 ? 0 : -1; }

/* What the command line asks for. */
typedef struct args {
    const char *log, *out, *region;
    int sms[MAX_SMS_SHOWN];
    int nsms, keep;
    uint64_t max_warps;
} args;

/* 0 with a filled, -1 after printing --help (exit 0), or the usage exit status. */
static int parse_args(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    a->max_warps = DEFAULT_MAX_WARPS;
    const char *sms = NULL;
    const cli_opt opts[] = {
        {"--keep", 0, CLI_FLAG, 0, 0, 0, 0, &a->keep, 0, "keep the files of a failed gnuplot", 0, 0},
        {"--region", 0, CLI_STRING, 0, 0, 0, 0, &a->region, "NAME", "one region", 0, 0},
        {"--sms", 0, CLI_STRING, 0, 0, 0, 0, &sms, "LIST", "SM ids", 0, 0},
        {"--max-warps", 0, CLI_COUNT, 0, MAX_MAX_WARPS, 0, 0, &a->max_warps, "N", "at most N", 0, 0},
        CLI_END};
    const cli_opt *tables[] = {opts};
    cli_parse_result r;
    const int prc = cli_parse(PROG, argc, argv, tables, 1, 2, &r);
    if (prc) return prc;
    if (r.help) {
        fputs(usage_text, stdout);
        return outfile_check_stdout(PROG) ? 1 : -1;
    }
    char perr[256];
    if (sms && parse_sms(sms, a->sms, &a->nsms, perr, sizeof perr) != 0)
        return cli_usage_error(PROG, "--sms wants distinct SM ids like 0,1,2,3: %s", perr);
    if (r.npos != 2) return usage_error("want LOG and OUT", "");
    a->log = r.pos[0];
    a->out = r.pos[1];
    if (!gp_format_for(a->out)) return usage_error("OUT must end in .svg, .png or .pdf: ", a->out);
    return 0;
}

/* The warps to draw, read from the log: NULL after a sentence. */
static timeline *read_warps(const args *a, warplog_reader *r, const warplog_header *h)
{
    const int want_region = a->region ? region_index(h, a->region) : -1;
    if (a->region && want_region < 0) {
        fprintf(stderr, PROG ": %s has no region called '%s'\n", a->log, a->region);
        return NULL;
    }
    timeline *t = timeline_new(a->sms, a->nsms, want_region, a->max_warps);
    if (!t) {
        fprintf(stderr, PROG ": out of memory\n");
        return NULL;
    }
    char err[1024];
    const warp_record *recs;
    long got;
    while (!t->truncated && (got = warplog_reader_chunk(r, &recs, err, sizeof err)) > 0)
        if (timeline_add(t, recs, got) != 0) {
            fprintf(stderr, PROG ": out of memory\n");
            timeline_free(t);
            return NULL;
        }
    if (!t->truncated && got < 0) {
        fprintf(stderr, PROG ": %s\n", err);
        timeline_free(t);
        return NULL;
    }
    if (t->truncated)
        fprintf(stderr, PROG ": note: drawing only the first %llu warps of the chosen SMs "
                "(--max-warps)\n", (unsigned long long)a->max_warps);
    if (t->bad)
        fprintf(stderr, PROG ": warning: %llu records with end_clk < start_clk left out\n",
                (unsigned long long)t->bad);
    for (int k = 0; k < t->nsms; k++)
        if (!t->count_sm[k] && !t->truncated)
            fprintf(stderr, PROG ": warning: SM %d has no warps in %s\n", t->sms[k], a->log);
    if (t->n == 0) {
        fprintf(stderr, PROG ": %s has no warps to draw%s\n", a->log,
                t->sms_given ? " on the SMs given with --sms" : "");
        timeline_free(t);
        return NULL;
    }
    timeline_sort(t);
    return t;
}

/* What the chart is drawn from. */
typedef struct chart {
    const args *a;
    const warplog_header *h;
    const timeline *t;
} chart;

static void write_script(FILE *s, const void *ctx)
{
    const args *a = ((const chart *)ctx)->a;
    const warplog_header *h = ((const chart *)ctx)->h;
    const timeline *t = ((const chart *)ctx)->t;
    char kernel[40], device[100];
    snprintf(kernel, sizeof kernel, "%.*s", (int)strnlen(h->kernel, sizeof h->kernel), h->kernel);
    snprintf(device, sizeof device, "%.*s", (int)strnlen(h->device_name, sizeof h->device_name),
             h->device_name);
    char line1[256], line2[256], smlist[MAX_SMS_SHOWN * 7] = "";
    for (int k = 0; k < t->nsms; k++)
        snprintf(smlist + strlen(smlist), sizeof smlist - strlen(smlist), "%s%d", k ? "," : "",
                 t->sms[k]);
    /* a sampled log says so: its gaps are blocks that did not record */
    char sampled[64] = "";
    if (h->sample_blocks > 1)
        snprintf(sampled, sizeof sampled, " (1 block in %u recorded)", h->sample_blocks);
    snprintf(line1, sizeof line1, "%s: N = %llu, %u warps per block, %zu warps%s on SMs %s",
             kernel, (unsigned long long)h->n_elems, h->warps_per_block, t->n, sampled, smlist);
    double clk = lat_stats_clock_MHz(h, a->log, NULL);
    if (h->sm_clock_measured_MHz > 0)
        snprintf(line2, sizeof line2, "%s, SM clock %.0f MHz (measured)", device, clk);
    else if (clk > 0)
        snprintf(line2, sizeof line2, "%s, SM clock %.0f MHz (nominal; not measured)", device, clk);
    else
        snprintf(line2, sizeof line2, "%s, SM clock unknown", device);

    fputs("set title ", s);
    gp_put_str(s, line1);
    fputs(".\"\\n\".", s);
    gp_put_str(s, line2);
    fputs("\nset xlabel 'cycles since the first warp on the same SM started'\n"
          "set ylabel 'warp (ordered by SM, then start time)'\n"
          "set key outside right top\n"
          "set xrange [0:*]\n", s);
    fprintf(s, "set yrange [-1:%zu]\n", t->n);
    fputs("set grid xtics\n"
          "# x_start y length rgb, float64 each: one warp per record\n"
          "plot dat binary format='%float64%float64%float64%float64' \\\n"
          "     using 1:2:3:(0):4 with vectors nohead lw 1 lc rgb variable notitle", s);
    for (int k = 0; k < t->nsms; k++)
        fprintf(s, ", \\\n     keyentry with lines lw 3 lc rgb '#%06x' title 'SM %d'",
                palette_rgb[k % NPALETTE], t->sms[k]);
    fputs(", \\\n     keyentry with lines lw 3 lc rgb '#000000' title 'warp 0 of a block'\n", s);
}

/* Four float64 per warp: x_start, y, length, rgb. */
static int write_data(FILE *d, const void *ctx, char *err, size_t errlen)
{
    const timeline *t = ((const chart *)ctx)->t;
    for (size_t i = 0; i < t->n; i++) {
        const timeline_warp *w = &t->w[i];
        uint32_t rgb = w->warp == 0 ? 0x000000 : palette_rgb[w->sm_rank % NPALETTE];
        if (write_f64(d, (double)(w->start_clk - t->min_start[w->sm_rank])) ||
            write_f64(d, (double)i) || write_f64(d, (double)w->lat_cycles) ||
            write_f64(d, (double)rgb)) {
            snprintf(err, errlen, "cannot write the chart data: %s", strerror(errno));
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    args a;
    const int prc = parse_args(argc, argv, &a);
    if (prc) return prc < 0 ? 0 : prc;
    char err[1024];
    warplog_reader *r = warplog_reader_open(a.log, err, sizeof err);
    if (!r) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    const warplog_header h = *warplog_reader_header(r);
    timeline *t = read_warps(&a, r, &h);
    const chart c = {&a, &h, t};
    const int rc = t ? gp_draw(PROG, a.out, 1000, 700, a.keep, "wb", write_data, write_script, &c) : 1;
    timeline_free(t);
    warplog_reader_close(r);
    return rc;
}
