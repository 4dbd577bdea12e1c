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
#include "warplog.h"

#define DEFAULT_SMS_SHOWN 4
#define DEFAULT_MAX_WARPS 1000000u
#define MAX_SMS_SHOWN 64

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

typedef struct shown {
    uint64_t start_clk;
    uint64_t lat_cycles;
    uint32_t block;
    uint16_t warp;
    uint16_t sm_rank; /* position of the SM in the shown list */
} shown;

#define PROG "plot_warps"
#define MAX_MAX_WARPS 1000000000ull /* 24 GB of warps: more is a typo */

static int usage_error(const char *msg, const char *arg)
{
    return cli_usage_error(PROG, "%s%s", msg, arg);
}

static int cmp_shown(const void *pa, const void *pb)
{
    const shown *a = pa, *b = pb;
    if (a->sm_rank != b->sm_rank) return a->sm_rank < b->sm_rank ? -1 : 1;
    if (a->start_clk != b->start_clk) return a->start_clk < b->start_clk ? -1 : 1;
    if (a->block != b->block) return a->block < b->block ? -1 : 1;
    return (a->warp > b->warp) - (a->warp < b->warp);
}

/* "0,1,2,3" (or "0-3") -> distinct ids; -1 with a sentence in err. */
static int parse_sms(const char *s, int *ids, int *n, char *err, size_t errlen)
{
    uint64_t v[MAX_SMS_SHOWN];
    size_t k;
    if (cli_parse_list("--sms", s, 0, WARPLOG_MAX_SM_COUNT - 1, v, MAX_SMS_SHOWN, &k, err,
                       errlen) != 0)
        return -1;
    for (size_t i = 0; i < k; i++) {
        for (size_t j = 0; j < i; j++)
            if (v[j] == v[i]) {
                snprintf(err, errlen, "--sms names SM %llu twice", (unsigned long long)v[i]);
                return -1;
            }
        ids[i] = (int)v[i];
    }
    *n = (int)k;
    return 0;
}

static int write_f64(FILE *f, double v) { return fwrite(&v, sizeof v, 1, f) == 1 ? 0 : -1; }

int main(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL};
    int npos = 0, keep = 0, nsms = 0;
    int sms[MAX_SMS_SHOWN];
    int sms_given = 0;
    const char *region = NULL;
    uint64_t max_warps = DEFAULT_MAX_WARPS;
    char perr[256];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_text, stdout);
            return outfile_check_stdout(PROG);
        } else if (strcmp(a, "--keep") == 0) {
            keep = 1;
        } else if (strcmp(a, "--region") == 0 || strncmp(a, "--region=", 9) == 0) {
            region = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (!region || !*region) return usage_error("option --region needs a region name", "");
        } else if (strcmp(a, "--sms") == 0 || strncmp(a, "--sms=", 6) == 0) {
            const char *v = a[5] == '=' ? a + 6 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v) return usage_error("option --sms needs a value", "");
            if (parse_sms(v, sms, &nsms, perr, sizeof perr) != 0)
                return cli_usage_error(PROG, "--sms wants distinct SM ids like 0,1,2,3: %s", perr);
            sms_given = 1;
        } else if (strcmp(a, "--max-warps") == 0 || strncmp(a, "--max-warps=", 12) == 0) {
            const char *v = a[11] == '=' ? a + 12 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v) return usage_error("option --max-warps needs a value", "");
            if (cli_parse_count("--max-warps", v, MAX_MAX_WARPS, &max_warps, perr, sizeof perr) != 0)
                return cli_usage_error(PROG, "%s", perr);
        } else if (a[0] == '-' && a[1] != 0) {
            return usage_error("unknown option ", a);
        } else if (npos < 2) {
            pos[npos++] = a;
        } else {
            return usage_error("too many arguments at ", a);
        }
    }
    if (npos != 2) return usage_error("want LOG and OUT", "");
    const char *log = pos[0], *out = pos[1];
    if (!gp_format_for(out))
        return usage_error("OUT must end in .svg, .png or .pdf: ", out);

    char err[1024];
    warplog_reader *r = warplog_reader_open(log, err, sizeof err);
    if (!r) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    const warplog_header h = *warplog_reader_header(r);
    const int want_region = region ? region_index(&h, region) : -1;
    if (region && want_region < 0) {
        fprintf(stderr, PROG ": %s has no region called '%s'\n", log, region);
        warplog_reader_close(r);
        return 1;
    }

    /* smid -> rank in the shown list + 1 (0 = not shown). */
    static uint16_t rank_of[UINT16_MAX + 1];
    for (int k = 0; k < nsms; k++) rank_of[sms[k]] = (uint16_t)(k + 1);

    size_t cap = 4096, n = 0;
    shown *w = malloc(cap * sizeof *w);
    uint64_t *min_start = calloc(MAX_SMS_SHOWN, sizeof *min_start);
    uint64_t *count_sm = calloc(MAX_SMS_SHOWN, sizeof *count_sm);
    uint64_t bad = 0;
    int rc = 1, truncated = 0;
    gp_job *job = NULL;
    if (!w || !min_start || !count_sm) goto oom;
    const warp_record *recs;
    long got;
    while (!truncated && (got = warplog_reader_chunk(r, &recs, err, sizeof err)) > 0) {
        for (long i = 0; i < got; i++) {
            const warp_record *x = &recs[i];
            if (want_region >= 0 && x->region != want_region) continue;
            unsigned k = rank_of[x->smid];
            if (!k && !sms_given && nsms < DEFAULT_SMS_SHOWN) {
                sms[nsms++] = x->smid;
                k = rank_of[x->smid] = (uint16_t)nsms;
            }
            if (!k) continue;
            if (x->end_clk < x->start_clk) {
                bad++;
                continue;
            }
            if (n == max_warps) {
                truncated = 1;
                break;
            }
            if (n == cap) {
                shown *q = realloc(w, 2 * cap * sizeof *w);
                if (!q) goto oom;
                w = q;
                cap *= 2;
            }
            k--;
            if (!count_sm[k] || x->start_clk < min_start[k]) min_start[k] = x->start_clk;
            count_sm[k]++;
            w[n++] = (shown){x->start_clk, x->end_clk - x->start_clk, x->block, x->warp,
                             (uint16_t)k};
        }
    }
    if (!truncated && got < 0) {
        fprintf(stderr, PROG ": %s\n", err);
        goto done;
    }
    if (truncated)
        fprintf(stderr, PROG ": note: drawing only the first %llu warps of the chosen SMs "
                "(--max-warps)\n", (unsigned long long)max_warps);
    if (bad)
        fprintf(stderr, PROG ": warning: %llu records with end_clk < start_clk left out\n",
                (unsigned long long)bad);
    for (int k = 0; k < nsms; k++)
        if (!count_sm[k] && !truncated)
            fprintf(stderr, PROG ": warning: SM %d has no warps in %s\n", sms[k], log);
    if (n == 0) {
        fprintf(stderr, PROG ": %s has no warps to draw%s\n", log,
                sms_given ? " on the SMs given with --sms" : "");
        goto done;
    }
    qsort(w, n, sizeof *w, cmp_shown);

    job = gp_job_new(out, 1000, 700, err, sizeof err);
    if (!job) {
        fprintf(stderr, PROG ": %s\n", err);
        goto done;
    }
    gp_job_keep_on_failure(job, keep);
    FILE *d = gp_job_add_data(job, ".dat", "dat", "wb", err, sizeof err);
    if (!d) goto job_fail;
    for (size_t i = 0; i < n; i++) {
        uint32_t rgb = w[i].warp == 0 ? 0x000000 : palette_rgb[w[i].sm_rank % NPALETTE];
        if (write_f64(d, (double)(w[i].start_clk - min_start[w[i].sm_rank])) ||
            write_f64(d, (double)i) || write_f64(d, (double)w[i].lat_cycles) ||
            write_f64(d, (double)rgb)) {
            snprintf(err, sizeof err, "cannot write the chart data: %s", strerror(errno));
            goto job_fail;
        }
    }
    FILE *s = gp_job_script(job, err, sizeof err);
    if (!s) goto job_fail;

    char kernel[40], device[100];
    snprintf(kernel, sizeof kernel, "%.*s", (int)strnlen(h.kernel, sizeof h.kernel), h.kernel);
    snprintf(device, sizeof device, "%.*s", (int)strnlen(h.device_name, sizeof h.device_name),
             h.device_name);
    char line1[256], line2[256], smlist[MAX_SMS_SHOWN * 7] = "";
    for (int k = 0; k < nsms; k++)
        snprintf(smlist + strlen(smlist), sizeof smlist - strlen(smlist), "%s%d", k ? "," : "",
                 sms[k]);
    /* a sampled log says so: its gaps are blocks that did not record */
    char sampled[64] = "";
    if (h.sample_blocks > 1)
        snprintf(sampled, sizeof sampled, " (1 block in %u recorded)", h.sample_blocks);
    snprintf(line1, sizeof line1, "%s: N = %llu, %u warps per block, %zu warps%s on SMs %s",
             kernel, (unsigned long long)h.n_elems, h.warps_per_block, n, sampled, smlist);
    double clk = lat_stats_clock_MHz(&h, log, NULL);
    if (h.sm_clock_measured_MHz > 0)
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
    fprintf(s, "set yrange [-1:%zu]\n", n);
    fputs("set grid xtics\n"
          "# x_start y length rgb, float64 each: one warp per record\n"
          "plot dat binary format='%float64%float64%float64%float64' \\\n"
          "     using 1:2:3:(0):4 with vectors nohead lw 1 lc rgb variable notitle", s);
    for (int k = 0; k < nsms; k++)
        fprintf(s, ", \\\n     keyentry with lines lw 3 lc rgb '#%06x' title 'SM %d'",
                palette_rgb[k % NPALETTE], sms[k]);
    fputs(", \\\n     keyentry with lines lw 3 lc rgb '#000000' title 'warp 0 of a block'\n", s);

    if (gp_job_finish(job, err, sizeof err) != 0) {
        job = NULL;
        fprintf(stderr, PROG ": %s\n", err);
        goto done;
    }
    job = NULL;
    rc = 0;
    goto done;
job_fail:
    fprintf(stderr, PROG ": %s\n", err);
    gp_job_abort(job);
    job = NULL;
    goto done;
oom:
    fprintf(stderr, PROG ": out of memory\n");
done:
    warplog_reader_close(r);
    free(w);
    free(min_start);
    free(count_sm);
    return rc;
}
