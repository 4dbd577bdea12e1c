/*
 * latency_stats - per-warp latency statistics of one or more logs, as TSV.
 *
 *   bin/latency_stats LOG... [--per-sm] [--ladder TSV] [--full-header] [--out FILE]
 *
 * Latency is end_clk - start_clk in SM cycles; ns use the log's measured SM
 * clock (the nominal clock when it was not measured, with a note on
 * stderr).  Percentiles are exact, numpy's default definition (stats.h).
 * Every log is read before anything is written, so a bad log produces no
 * table at all, and --out FILE appears only complete (FILE.tmp + rename).
 *
 * --ladder TSV names a latency ladder (a ./latency table).  Its DRAM plateau
 * is the unloaded latency of a load that misses every cache, so the two
 * extra columns p50_x_dram and mean_x_dram (the row's p50 and mean divided
 * by it, in cycles) say how much queueing the loads of that log suffered:
 * 1 is none, 3 is three times the unloaded latency.  Without --ladder the
 * table is exactly what it was before the option existed (no extra columns),
 * so scripts and golden files that read it do not change.
 *
 * A log with named regions (warplat.h, version 3) also gets one row per
 * region (sm "all"), and the table a last column, region ("all" on the rows
 * of the whole log and of each SM); tables of logs without regions have no
 * such column.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "plateau.h"
#include "regions.h"
#include "stats.h"
#include "warplog.h"

static const char usage_text[] =
    "usage: latency_stats LOG... [--per-sm] [--ladder TSV] [--full-header] [--out FILE]\n"
    "  Per-warp latency (end_clk - start_clk) statistics of each warp log, as TSV:\n"
    "  '# key<TAB>value' metadata lines per log (what a reader of the table needs:\n"
    "  the kernel, its size and block, the device, the clocks; the whole header with\n"
    "  --full-header, or bin/warplog info LOG), a header row, then one row per log\n"
    "  (and with --per-sm one more row per SM): count, mean, p5, p50, p95, p99, min,\n"
    "  max in cycles and in ns.  Percentiles are exact (numpy's default, type 7).\n"
    "  A log with named regions (warplat.h) adds a row per region and a column region.\n"
    "  --per-sm       also a row for every SM of each log\n"
    "  --ladder TSV   a ./latency table: adds the columns p50_x_dram and mean_x_dram,\n"
    "                 p50 and mean as multiples of its DRAM plateau latency (cycles)\n"
    "  --full-header  every field of each log's header as metadata (58 lines a log)\n"
    "  --out FILE     write FILE (atomically) instead of stdout\n"
    "  -h, --help     this text\n";

typedef struct row {
    size_t log;       /* index into the logs */
    int smid;         /* LAT_STATS_ALL for the whole log */
    int region;       /* -1: every region */
    lat_summary s;
} row;

typedef struct log_info {
    const char *path;
    warplog_header h;
    double clock_MHz;
} log_info;

/* The reference latency of --ladder; path NULL when none was given. */
typedef struct dram_ref {
    const char *path;
    double cycles, ns;   /* DRAM plateau; ns 0 when the ladder has no ns column */
} dram_ref;

#define PROG "latency_stats"

static int usage_error(const char *msg, const char *arg)
{
    return cli_usage_error(PROG, "%s%s", msg, arg);
}

static void put_num(FILE *f, double v)
{
    if (isnan(v)) fputs("\tnan", f);
    else fprintf(f, "\t%.3f", v);
}

/* x / dram_cycles; nan when either is missing (an empty row, no ladder). */
static double x_dram(double cycles, const dram_ref *d)
{
    return d->path && d->cycles > 0 && !isnan(cycles) ? cycles / d->cycles : NAN;
}

static void put_row(FILE *f, const log_info *L, const row *r, const dram_ref *d, int regions)
{
    const lat_summary *s = &r->s;
    outfile_put_field(f, L->path);
    fprintf(f, "\t%.*s\t%u\t", (int)strnlen(L->h.kernel, sizeof L->h.kernel), L->h.kernel,
            L->h.warps_per_block);
    if (r->smid == LAT_STATS_ALL) fputs("all", f);
    else fprintf(f, "%d", r->smid);
    fprintf(f, "\t%llu", (unsigned long long)s->count);
    double c[7] = {s->mean_cycles, s->p5_cycles, s->p50_cycles, s->p95_cycles, s->p99_cycles,
                   (double)s->min_cycles, (double)s->max_cycles};
    if (s->count == 0)
        for (int i = 0; i < 7; i++) c[i] = NAN;
    for (int i = 0; i < 7; i++) {
        if (i >= 5 && s->count) fprintf(f, "\t%llu", (unsigned long long)(i == 5 ? s->min_cycles
                                                                                 : s->max_cycles));
        else put_num(f, c[i]);
    }
    for (int i = 0; i < 7; i++) put_num(f, lat_cycles_to_ns(c[i], L->clock_MHz));
    if (d->path) {
        put_num(f, x_dram(c[2], d));   /* p50 */
        put_num(f, x_dram(c[0], d));   /* mean */
    }
    if (regions) {
        fputc('\t', f);
        outfile_put_field(f, r->region < 0 ? "all" : region_name(&L->h, (uint32_t)r->region));
    }
    fputc('\n', f);
}

/* The header's fields a reader of the table needs (and that the report and
 * the fleet read back): what ran, on what, at which clock.  The rest (build,
 * limits, timer base...) is in the log: bin/warplog info LOG. */
static const char *const KEPT[] = {
    "experiment", "kernel", "config", "n_elems", "warps_per_block", "blocks_per_sm", "bytes_per_warp_load",
    "sample_blocks", "region_count", "device_name", "device_uuid", "sm_count", "peak_dram_GBps",
    "sm_clock_nominal_khz", "sm_clock_measured_MHz", "kernel_ms", "overhead_pct", "ceiling_GBps", "date", NULL};

static int kept(const char *line)
{
    for (int k = 0; KEPT[k]; k++) {
        const size_t n = strlen(KEPT[k]);
        if (!strncmp(line + 2, KEPT[k], n) && line[2 + n] == '\t') return 1;
    }
    return 0;
}

/* Log i's header as '# ' lines: every field (full), else the kept ones. */
static void put_header(FILE *f, const warplog_header *h, int full)
{
    if (full) { warplog_header_print(f, h, "# "); return; }
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) { warplog_header_print(f, h, "# "); return; }
    warplog_header_print(m, h, "# ");
    fclose(m);
    for (char *line = buf, *end; line && *line; line = end ? end + 1 : NULL) {
        end = strchr(line, '\n');
        if (end) *end = 0;
        if (kept(line)) fprintf(f, "%s\n", line);
    }
    free(buf);
}

static void put_table(FILE *f, const log_info *logs, size_t nlogs, const row *rows, size_t nrows,
                      const dram_ref *d, int full)
{
    for (size_t i = 0; i < nlogs; i++) {
        fputs("# log\t", f);
        outfile_put_field(f, logs[i].path);
        fputc('\n', f);
        put_header(f, &logs[i].h, full);
        fprintf(f, "# clock_MHz_for_ns\t%.6g\n", logs[i].clock_MHz);
    }
    if (d->path) {
        fputs("# ladder\t", f);
        outfile_put_field(f, d->path);
        fputc('\n', f);
        fprintf(f, "# dram_latency_cycles\t%.6g\n", d->cycles);
        fprintf(f, "# dram_latency_ns\t%.6g\n", d->ns);
    }
    fputs("log\tkernel\twpb\tsm\tcount"
          "\tmean_cycles\tp5_cycles\tp50_cycles\tp95_cycles\tp99_cycles\tmin_cycles\tmax_cycles"
          "\tmean_ns\tp5_ns\tp50_ns\tp95_ns\tp99_ns\tmin_ns\tmax_ns", f);
    int regions = 0;
    for (size_t i = 0; i < nlogs; i++) regions |= logs[i].h.region_count > 0;
    fputs(d->path ? "\tp50_x_dram\tmean_x_dram" : "", f);
    fputs(regions ? "\tregion\n" : "\n", f);
    for (size_t i = 0; i < nrows; i++) put_row(f, &logs[rows[i].log], &rows[i], d, regions);
}

/* One row per region of the log at path (index li), appended to *rows. */
static int add_region_rows(const char *path, size_t li, row **rows, size_t *nrows, size_t *cap)
{
    char err[1024];
    warplog_header h;
    region_acc *a = region_acc_read_log(path, &h, err, sizeof err);
    if (!a) {
        fprintf(stderr, PROG ": %s\n", err);
        return -1;
    }
    for (uint32_t r = 0; r < region_acc_count(a); r++) {
        if (*nrows == *cap) {
            *cap = *cap ? 2 * *cap : 64;
            row *q = realloc(*rows, *cap * sizeof *q);
            if (!q) {
                fprintf(stderr, PROG ": out of memory\n");
                region_acc_free(a);
                return -1;
            }
            *rows = q;
        }
        region_summary rs;
        if (region_acc_summary(a, r, &rs) != 0) {
            fprintf(stderr, PROG ": out of memory\n");
            region_acc_free(a);
            return -1;
        }
        (*rows)[*nrows] = (row){li, LAT_STATS_ALL, (int)r, rs.lat};
        (*nrows)++;
    }
    region_acc_free(a);
    return 0;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    int per_sm = 0, full_header = 0;
    dram_ref dram = {NULL, NAN, 0};
    const cli_opt opts[] = {
        {"--per-sm", 0, CLI_FLAG, 0, 0, 0, 0, &per_sm, 0, "a row per SM", 0, 0},
        {"--full-header", 0, CLI_FLAG, 0, 0, 0, 0, &full_header, 0, "every field of each log's header", 0, 0},
        {"--out", 0, CLI_STRING, 0, 0, 0, 0, &out, "FILE", "write FILE", 0, 0},
        {"--ladder", 0, CLI_STRING, 0, 0, 0, 0, &dram.path, "TSV", "a latency ladder", 0, 0},
        CLI_END};
    cli_parse_result res;
    const int prc = cli_main_parse(PROG, argc, argv, opts, CLI_MAX_POS, usage_text, 0, &res);
    if (prc >= 0) return prc;
    char **paths = res.pos;
    const size_t nlogs = (size_t)res.npos;
    if (nlogs == 0) return usage_error("no LOG given", "");

    log_info *logs = calloc(nlogs, sizeof *logs);
    row *rows = NULL;
    size_t nrows = 0, caprows = 0;
    char err[1024];
    int rc = 1;
    if (!logs) goto oom;
    if (dram.path &&
        plateau_dram_latency_from_tsv(dram.path, &dram.cycles, &dram.ns, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": latency ladder: %s\n", err);
        goto done;
    }
    for (size_t i = 0; i < nlogs; i++) {
        logs[i].path = paths[i];
        lat_stats *s = lat_stats_new();
        if (!s) goto oom;
        if (lat_stats_read_log(s, paths[i], &logs[i].h, err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            lat_stats_free(s);
            goto done;
        }
        if (lat_stats_bad(s))
            fprintf(stderr, PROG ": warning: %s: %llu records have end_clk < start_clk "
                    "and were left out\n", paths[i], (unsigned long long)lat_stats_bad(s));
        logs[i].clock_MHz = lat_stats_clock_MHz(&logs[i].h, paths[i], stderr);
        /* The ratio is taken in cycles, as asked; DRAM time is closer to
         * constant in ns, so warn when the SM clocks differ much. */
        double ladder_MHz = dram.path && dram.ns > 0 ? dram.cycles * 1000.0 / dram.ns : 0;
        if (ladder_MHz > 0 && logs[i].clock_MHz > 0 &&
            fabs(ladder_MHz / logs[i].clock_MHz - 1.0) > 0.05)
            fprintf(stderr, PROG ": note: the ladder %s ran at about %.0f MHz, %s at "
                    "%.6g MHz: *_x_dram compare cycles of different clocks\n", dram.path,
                    ladder_MHz, paths[i], logs[i].clock_MHz);
        /* The whole log first, then each SM (lat_stats_next_sm ends with -1,
         * which is also LAT_STATS_ALL: hence the separate first flag). */
        int first = 1;
        for (int sm = LAT_STATS_ALL; first || sm >= 0;
             sm = per_sm ? lat_stats_next_sm(s, sm) : -1, first = 0) {
            if (nrows == caprows) {
                caprows = caprows ? 2 * caprows : 64;
                row *q = realloc(rows, caprows * sizeof *q);
                if (!q) {
                    lat_stats_free(s);
                    goto oom;
                }
                rows = q;
            }
            rows[nrows].log = i;
            rows[nrows].smid = sm;
            rows[nrows].region = -1;
            if (lat_stats_summary(s, sm, &rows[nrows].s) != 0) {
                lat_stats_free(s);
                goto oom;
            }
            nrows++;
        }
        lat_stats_free(s);
        if (logs[i].h.region_count > 0 && add_region_rows(paths[i], i, &rows, &nrows, &caprows) != 0)
            goto done;
    }

    if (!out) {
        put_table(stdout, logs, nlogs, rows, nrows, &dram, full_header);
        rc = outfile_check_stdout(PROG);
        goto done;
    }
    outfile of;
    FILE *f = outfile_open(&of, out, "w", err, sizeof err);
    if (!f) {
        fprintf(stderr, PROG ": %s\n", err);
        goto done;
    }
    put_table(f, logs, nlogs, rows, nrows, &dram, full_header);
    if (outfile_commit(&of, err, sizeof err) != 0) fprintf(stderr, PROG ": %s\n", err);
    else rc = 0;
    goto done;
oom:
    fprintf(stderr, PROG ": out of memory\n");
    rc = 1;
done:
    free(rows);
    free(logs);
    return rc;
}
