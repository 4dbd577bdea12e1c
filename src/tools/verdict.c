/*
 * verdict - the per-region verdict of a log of your own kernel (warplat.h),
 * in numbers: latency percentiles, warps and bytes in flight per SM, and what
 * Little's law needs at this GPU's achievable ceiling and DRAM latency.
 *
 *   bin/verdict LOG [--ref DIR | --ref-root ROOT[:ROOT...]] [--max-overhead PCT] [--out FILE]
 *   bin/verdict LOG --list-regions     the region names, one a line (for scripts
 *                                      that draw a chart per region)
 *
 * --ref DIR is a results folder (data/reference/h100, or one of your runs):
 * its ceiling.tsv gives the achievable read bandwidth (column bw_GBps of the
 * row whose operation is "read") and its latency_ca.tsv the DRAM plateau of
 * the latency ladder (ns).  Without them the bytes needed are unknown and
 * the verdict says so.  --ref-root ROOT[:ROOT...]: the first results folder
 * under the ROOTs (in order) whose GPU is the log's (by device name), as
 * the report of your kernel uses it: your own measured results first
 * (report/data), then the bundled ones (data/reference).  The arithmetic
 * is regions.c's (unit-tested).
 *
 * --max-overhead PCT: exit 1 (after writing the table) when the log's
 * measured probe overhead exceeds PCT, with a sentence: what a test asserts.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "drift.h"
#include "outfile.h"
#include "plateau.h"
#include "regions.h"
#include "tsv.h"
#include "warplog.h"

#define PROG "verdict"

static const char usage_text[] =
    "usage: verdict LOG [--ref DIR | --ref-root ROOT[:ROOT...]] [--max-overhead PCT] [--out FILE]\n"
    "       verdict LOG --list-regions\n"
    "  One TSV row per region of a warp log (a log without regions is one region):\n"
    "  records, p50/p95/mean latency in cycles, the DRAM latency in cycles at the log's\n"
    "  clock, warps and bytes in flight per SM (one block in K recorded: K x the\n"
    "  recorded warps, capped at the resident warps), the bytes per SM Little's law\n"
    "  needs for the achievable ceiling at the DRAM latency, and the verdict.\n"
    "  Exit status: 0 written; 1 a bad log or reference, or the overhead above\n"
    "  --max-overhead; 2 usage.\n"
    "options:\n";

/* The references of DIR: NAN where missing, with a note on stderr. */
static void read_ref(const char *dir, double *ceiling_GBps, double *dram_ns)
{
    char path[1200], err[512];
    tsv_table t;
    snprintf(path, sizeof path, "%s/ceiling.tsv", dir);
    if (tsv_read(path, &t, err, sizeof err) == 0) {
        const long r = tsv_find(&t, "operation", "read", 0);
        if (r >= 0) *ceiling_GBps = tsv_num(&t, (size_t)r, "bw_GBps");
        else fprintf(stderr, PROG ": note: %s has no row for the operation read\n", path);
        tsv_free(&t);
    } else {
        fprintf(stderr, PROG ": note: no achievable ceiling: %s\n", err);
    }
    snprintf(path, sizeof path, "%s/latency_ca.tsv", dir);
    double cycles = NAN;
    if (plateau_dram_latency_from_tsv(path, &cycles, dram_ns, err, sizeof err) != 0) {
        *dram_ns = NAN;
        fprintf(stderr, PROG ": note: no DRAM latency: %s\n", err);
    } else if (!(*dram_ns > 0)) {
        *dram_ns = NAN;
        fprintf(stderr, PROG ": note: %s has no ns column: no DRAM latency\n", path);
    }
}

static void num(FILE *f, double v, int prec)
{
    if (isnan(v)) fputs("\tnan", f);
    else fprintf(f, "\t%.*f", prec, v);
}

static void put_table(FILE *f, const char *log, const warplog_header *h, region_acc *a,
                      const char *ref, double ceiling, double dram_ns, double clock)
{
    fputs("# log\t", f);
    outfile_put_field(f, log);
    fprintf(f, "\n# kernel\t%s\n# device_name\t%s\n", h->kernel, h->device_name);
    fprintf(f, "# overhead_pct\t%.2f\n# sample_blocks\t%u\n# clean_kernel_ms\t%.6g\n"
               "# kernel_ms\t%.6g\n# sm_clock_MHz\t%.6g\n",
            h->overhead_pct, h->sample_blocks, h->clean_kernel_ms, h->kernel_ms, clock);
    fputs("# ref\t", f);
    outfile_put_field(f, ref ? ref : "none");
    fprintf(f, "\n# ceiling_GBps\t%.6g\n# dram_latency_ns\t%.6g\n", ceiling, dram_ns);
    fputs("region\trecords\tp50_cycles\tp95_cycles\tmean_cycles\tdram_latency_cycles\tp50_x_dram"
          "\twarps_per_sm\tbytes_per_warp\tbytes_in_flight_per_sm\tbytes_needed_per_sm\tverdict\n", f);
    for (uint32_t r = 0; r < region_acc_count(a); r++) {
        region_summary s;
        region_acc_summary(a, r, &s);
        region_verdict_in in = {
            .p50_cycles = s.lat.p50_cycles, .recorded_warps_per_sm = s.recorded_warps_per_sm,
            .sample_blocks = h->sample_blocks,
            .resident_warps_per_sm = (double)h->blocks_per_sm * h->warps_per_block,
            .bytes_per_warp = h->region_count ? h->region_bytes_per_warp[r]
                                              : (double)h->bytes_per_warp_load *
                                                    (h->loads_per_warp ? h->loads_per_warp : 1),
            .ceiling_GBps = ceiling, .dram_latency_ns = dram_ns, .sm_clock_MHz = clock,
            .sm_count = h->sm_count};
        region_verdict v;
        const char *name = region_name(h, r);
        region_verdict_make(&in, name, &v);
        outfile_put_field(f, name);
        fprintf(f, "\t%llu", (unsigned long long)s.lat.count);
        num(f, s.lat.count ? s.lat.p50_cycles : NAN, 1);
        num(f, s.lat.count ? s.lat.p95_cycles : NAN, 1);
        num(f, s.lat.count ? s.lat.mean_cycles : NAN, 1);
        num(f, v.dram_latency_cycles, 1);
        num(f, v.p50_x_dram, 2);
        num(f, v.warps_per_sm, 2);
        fprintf(f, "\t%.0f", in.bytes_per_warp);
        num(f, v.bytes_in_flight_per_sm, 0);
        num(f, v.bytes_needed_per_sm, 0);
        fputc('\t', f);
        outfile_put_field(f, v.text);
        fputc('\n', f);
    }
}

int main(int argc, char **argv)
{
    const char *ref = NULL, *out = NULL, *roots = NULL;
    double max_ovh = NAN;
    int max_given = 0, list = 0;
    const cli_opt opts[] = {
        {"--ref", 0, CLI_STRING, 0, 0, 0, 0, &ref, "DIR",
         "results folder with ceiling.tsv and latency_ca.tsv (e.g. data/reference/h100)", 0, 0},
        {"--ref-root", 0, CLI_STRING, 0, 0, 0, 0, &roots, "ROOTS",
         "the first folder under these (colon-separated) whose GPU is the log's", 0, 0},
        {"--max-overhead", 0, CLI_DOUBLE, 0, 0, 0, 1000, &max_ovh, "PCT",
         "exit 1 when the log's measured probe overhead is above PCT", 0, &max_given},
        {"--list-regions", 0, CLI_FLAG, 1, 0, 0, 0, &list, 0,
         "print the region names, one a line, and nothing else", 0, 0},
        {"--out", 'o', CLI_STRING, 0, 0, 0, 0, &out, "FILE", "write FILE (atomically), not stdout", 0, 0},
        CLI_END};
    cli_parse_result res;
    const int prc = cli_main_parse(PROG, argc, argv, opts, 1, usage_text, 1, &res);
    if (prc >= 0) return prc;
    if (res.npos != 1) return cli_usage_error(PROG, "give exactly one LOG");
    if (ref && roots) return cli_usage_error(PROG, "--ref and --ref-root: give one");
    const char *log = res.pos[0];
    char err[1024];
    warplog_header h;
    region_acc *a = region_acc_read_log(log, &h, err, sizeof err);
    if (!a) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    if (list) {
        for (uint32_t r = 0; r < region_acc_count(a); r++) {
            outfile_put_field(stdout, region_name(&h, r));
            putchar('\n');
        }
        region_acc_free(a);
        return outfile_check_stdout(PROG);
    }
    char found[1024];
    if (!ref && roots) {
        char *copy = strdup(roots);
        for (char *save = NULL, *root = copy ? strtok_r(copy, ":", &save) : NULL; root && !ref;
             root = strtok_r(NULL, ":", &save))
            if (drift_find_bundled(root, h.device_name, found, sizeof found) == 0) ref = found;
        free(copy);
        if (!ref)
            fprintf(stderr, PROG ": note: no results of a %s under %s: no reference\n", h.device_name, roots);
    }
    double ceiling = h.ceiling_GBps > 0 ? h.ceiling_GBps : NAN, dram_ns = NAN;
    if (ref) read_ref(ref, &ceiling, &dram_ns);
    const double clock = lat_stats_clock_MHz(&h, log, stderr);
    int rc = 0;
    if (out) {
        outfile of;
        FILE *f = outfile_open(&of, out, "w", err, sizeof err);
        if (!f) rc = 1;
        else {
            put_table(f, log, &h, a, ref, ceiling, dram_ns, clock);
            rc = outfile_commit(&of, err, sizeof err) != 0;
        }
        if (rc) fprintf(stderr, PROG ": %s\n", err);
    } else {
        put_table(stdout, log, &h, a, ref, ceiling, dram_ns, clock);
        rc = outfile_check_stdout(PROG);
    }
    region_acc_free(a);
    if (!rc && max_given && h.overhead_pct > max_ovh) {
        fprintf(stderr, PROG ": %s: the probes cost %.2f %% (measured overhead), more than the "
                "%.2f %% allowed\n", log, h.overhead_pct, max_ovh);
        rc = 1;
    }
    return rc;
}
