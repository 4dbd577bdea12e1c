/*
 * inflight - Little's law closed by measurement, from a log that recorded
 * every block: the warps really in flight, the block slot's period and what
 * the logged kernel's throughput leaves unexplained (src/lib/inflight.h).
 *
 *   bin/inflight LOG... [--out FILE]
 *
 * One row per log, the same figures under the same column names as the
 * occupancy sweep's (./readonly ... --sweep --sample 1), so that a user's
 * own log is read as the sweep reads its points.  The bytes a window loads
 * are the header's bytes_per_warp_load, the slots its blocks_per_sm, the
 * time its kernel_ms (the instrumented kernel, which wrote the log), the
 * clock its measured SM clock (the nominal one, with a note, when none was
 * measured).  Every log is read before anything is written; --out FILE
 * appears only complete.  A sampled log (1 block in K > 1) is refused: it
 * holds only some of the windows that were in flight.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inflight.h"
#include "outfile.h"
#include "stats.h"
#include "warplog.h"

#define PROG "inflight"

static const char usage_text[] =
    "usage: inflight LOG... [--out FILE]\n"
    "  Warps in flight per SM (the time integral of open load windows over each SM's\n"
    "  busy span), the block slot's period and the part of it that is not the load,\n"
    "  and Little's law closed with them: bytes measured in flight / measured latency\n"
    "  against the logged kernel's throughput, with the residual split into launch and\n"
    "  drain and SMs idle while others finish.  One row per LOG; every block must have\n"
    "  been recorded (--sample 1).  Columns as the occupancy sweep's (docs/occupancy.md).\n"
    "  --out FILE     write FILE (atomically) instead of stdout\n"
    "  -h, --help     this text\n";

typedef struct one {
    const char *path;
    warplog_header h;
    double clock_MHz;
    inflight_result r;
} one;

/* Read the log at L->path into L->r: 0, or -1 with a sentence said. */
static int read_one(one *L)
{
    char err[1024];
    warplog_reader *rd = warplog_reader_open(L->path, err, sizeof err);
    if (!rd) {
        fprintf(stderr, PROG ": %s\n", err);
        return -1;
    }
    L->h = *warplog_reader_header(rd);
    if (L->h.sample_blocks != 1) {
        fprintf(stderr, PROG ": %s records 1 block in %u: warps in flight need every block "
                "recorded (run it with --sample 1)\n", L->path, L->h.sample_blocks);
        warplog_reader_close(rd);
        return -1;
    }
    L->clock_MHz = lat_stats_clock_MHz(&L->h, L->path, stderr);
    inflight_acc *a = malloc(sizeof *a);
    if (!a) {
        fprintf(stderr, PROG ": out of memory\n");
        warplog_reader_close(rd);
        return -1;
    }
    /* version 3 (the probe API's regions) reads %globaltimer after the end */
    inflight_init(a, L->clock_MHz, L->h.region_count > 0);
    const warp_record *recs;
    long n;
    while ((n = warplog_reader_chunk(rd, &recs, err, sizeof err)) > 0) inflight_add(a, recs, (size_t)n);
    warplog_reader_close(rd);
    int rc = -1;
    if (n < 0) {
        fprintf(stderr, PROG ": %s\n", err);
    } else {
        const inflight_params p = {L->h.bytes_per_warp_load, L->h.blocks_per_sm, L->clock_MHz,
                                   L->h.kernel_ms};
        if (inflight_result_get(a, &p, &L->r, err, sizeof err) != 0)
            fprintf(stderr, PROG ": %s: %s\n", L->path, err);
        else
            rc = 0;
    }
    free(a);
    return rc;
}

static void put_num(FILE *f, const char *fmt, double v)
{
    if (isnan(v)) fputs("\tnan", f);
    else fprintf(f, fmt, v);
}

static void put_table(FILE *f, const one *L, size_t n)
{
    fputs("# bin/inflight: Little's law closed by measurement (src/lib/inflight.h, docs/occupancy.md)\n", f);
    fputs("log\tkernel\twarps_per_block\tblocks_per_sm\twindows\tblocks\tsms\tlat_mean_cycles\t"
          "busy_span_cycles\tbytes_in_flight\tkernel_ms\tdevice_span_us\tsm_clock_MHz\t"
          INFLIGHT_COLUMNS "\n", f);
    for (size_t i = 0; i < n; i++) {
        const inflight_result *r = &L[i].r;
        char cols[256];
        outfile_put_field(f, L[i].path);
        fprintf(f, "\t%.*s\t%u\t%u\t%llu\t%llu\t%d", (int)strnlen(L[i].h.kernel, sizeof L[i].h.kernel),
                L[i].h.kernel, L[i].h.warps_per_block, L[i].h.blocks_per_sm,
                (unsigned long long)r->windows, (unsigned long long)r->blocks, r->sms);
        put_num(f, "\t%.1f", r->lat_mean_cycles);
        put_num(f, "\t%.1f", r->busy_span_cycles);
        put_num(f, "\t%.0f", r->bytes_in_flight);
        put_num(f, "\t%.6g", L[i].h.kernel_ms);
        put_num(f, "\t%.3f", r->device_span_us);
        put_num(f, "\t%.6g", L[i].clock_MHz);
        inflight_format(cols, sizeof cols, r);
        fprintf(f, "\t%s\n", cols);
    }
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    const cli_opt opts[] = {
        {"--out", 0, CLI_STRING, 0, 0, 0, 0, &out, "FILE", "write FILE", 0, 0},
        CLI_END};
    cli_parse_result res;
    const int prc = cli_main_parse(PROG, argc, argv, opts, CLI_MAX_POS, usage_text, 0, &res);
    if (prc >= 0) return prc;
    if (res.npos == 0) return cli_usage_error(PROG, "no LOG given");
    const size_t n = (size_t)res.npos;
    one *L = calloc(n, sizeof *L);
    if (!L) {
        fprintf(stderr, PROG ": out of memory\n");
        return 1;
    }
    int rc = 1;
    size_t i = 0;
    for (; i < n; i++) {
        L[i].path = res.pos[i];
        if (read_one(&L[i]) != 0) break;
    }
    if (i == n && !out) {
        put_table(stdout, L, n);
        rc = outfile_check_stdout(PROG);
    } else if (i == n) {
        char err[1024];
        outfile of;
        FILE *f = outfile_open(&of, out, "w", err, sizeof err);
        if (f) {
            put_table(f, L, n);
            if (outfile_commit(&of, err, sizeof err) == 0) rc = 0;
        }
        if (rc) fprintf(stderr, PROG ": %s\n", err);
    }
    free(L);
    return rc;
}
