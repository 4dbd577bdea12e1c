/*
 * mklog - write a warp log from a table of records, for tests and demos.
 *
 *   bin/mklog OUT.bin [options] < records.tsv
 *
 * stdin: one record per line, whitespace-separated
 *   start_clk end_clk gtimer_ns block warp smid
 * blank lines and lines starting with '#' are skipped.  The header fields
 * come from the options; the log is written with warplog_writer_*, so it is
 * exactly what an experiment would write (and atomically: OUT appears only
 * when complete).  The records are held in memory to learn record_count
 * before the header is written; mklog is a test tool, not for 1e9 records.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warplog.h"

static const char usage_text[] =
    "usage: mklog OUT.bin [options] < records.tsv\n"
    "  stdin rows: start_clk end_clk gtimer_ns block warp smid\n"
    "options (header fields; defaults in brackets):\n"
    "  --experiment E     [readonly]      --kernel K          [baseline]\n"
    "  --wpb W            warps per block [4]\n"
    "  --n N              elements        [number of records * 32]\n"
    "  --blocks B         grid size       [largest block + 1]\n"
    "  --elem-bytes B     [4]             --bytes-per-warp B  [32 * elem-bytes]\n"
    "  --sm-count S       [132]           --blocks-per-sm B   [0]\n"
    "  --clock-mhz F      measured SM clock, MHz [1755]; 0 = not measured\n"
    "  --nominal-khz K    nominal SM clock, kHz  [1980000]\n"
    "  --peak-gbps P      DRAM peak, GB/s        [3352.3]\n"
    "  --max-threads-per-sm T                    [0: not recorded]\n"
    "  --smem-bytes B     dynamic shared memory per block [0]\n"
    "  --device NAME      [NVIDIA H100 80GB HBM3]\n"
    "  --date D           [2026-01-01T00:00:00Z]\n"
    "  --chunk-records C  records per chunk [65536] (small values test chunking)\n"
    "  -h, --help\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "mklog: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(mklog --help for usage)\n");
    return 2;
}

static int num(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return s[0] && !*end && errno == 0 && isfinite(*v) ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    const char *kernel = "baseline", *experiment = "readonly";
    const char *device = "NVIDIA H100 80GB HBM3", *date = "2026-01-01T00:00:00Z";
    double wpb = 4, n_elems = -1, blocks = -1, elem_bytes = 4, bytes_per_warp = -1;
    double sm_count = 132, blocks_per_sm = 0, clock_mhz = 1755, nominal_khz = 1980000;
    double peak = 3352.3, chunk = WARPLOG_CHUNK_RECORDS;
    double max_threads_per_sm = 0, smem_bytes = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (a[0] != '-' || a[1] == 0) {
            if (out) return usage_error("one output file only (got a second: %s)", a);
            out = a;
            continue;
        }
        if (i + 1 >= argc) return usage_error("%s needs a value", a);
        const char *v = argv[++i];
        double *dst = NULL;
        if (strcmp(a, "--kernel") == 0) kernel = v;
        else if (strcmp(a, "--experiment") == 0) experiment = v;
        else if (strcmp(a, "--device") == 0) device = v;
        else if (strcmp(a, "--date") == 0) date = v;
        else if (strcmp(a, "--wpb") == 0) dst = &wpb;
        else if (strcmp(a, "--n") == 0) dst = &n_elems;
        else if (strcmp(a, "--blocks") == 0) dst = &blocks;
        else if (strcmp(a, "--elem-bytes") == 0) dst = &elem_bytes;
        else if (strcmp(a, "--bytes-per-warp") == 0) dst = &bytes_per_warp;
        else if (strcmp(a, "--sm-count") == 0) dst = &sm_count;
        else if (strcmp(a, "--blocks-per-sm") == 0) dst = &blocks_per_sm;
        else if (strcmp(a, "--clock-mhz") == 0) dst = &clock_mhz;
        else if (strcmp(a, "--nominal-khz") == 0) dst = &nominal_khz;
        else if (strcmp(a, "--peak-gbps") == 0) dst = &peak;
        else if (strcmp(a, "--chunk-records") == 0) dst = &chunk;
        else if (strcmp(a, "--max-threads-per-sm") == 0) dst = &max_threads_per_sm;
        else if (strcmp(a, "--smem-bytes") == 0) dst = &smem_bytes;
        else return usage_error("unknown option %s", a);
        if (dst && (num(v, dst) != 0 || *dst < 0))
            return usage_error("bad value for an option: %s", v);
    }
    if (!out) return usage_error("%s", "missing OUT.bin");
    if (wpb < 1 || chunk < 1) return usage_error("%s", "--wpb and --chunk-records must be >= 1");

    size_t cap = 1024, n = 0;
    warp_record *recs = malloc(cap * sizeof *recs);
    char *line = NULL;
    size_t lcap = 0;
    long lineno = 0;
    uint32_t max_block = 0;
    int oom = !recs;
    while (recs && getline(&line, &lcap, stdin) >= 0) {
        lineno++;
        const char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '\n' || *p == 0) continue;
        unsigned long long s, e, g, b, w, sm;
        char extra;
        if (sscanf(p, "%llu %llu %llu %llu %llu %llu %c", &s, &e, &g, &b, &w, &sm, &extra) != 6 ||
            b > UINT32_MAX || w > UINT16_MAX || sm > UINT16_MAX) {
            fprintf(stderr, "mklog: stdin line %ld: expected six unsigned integers "
                    "start_clk end_clk gtimer_ns block warp smid\n", lineno);
            free(recs);
            free(line);
            return 1;
        }
        if (n == cap) {
            warp_record *q = realloc(recs, 2 * cap * sizeof *recs);
            if (!q) {
                oom = 1;
                break;
            }
            recs = q;
            cap *= 2;
        }
        recs[n++] = (warp_record){s, e, g, (uint32_t)b, (uint16_t)w, (uint16_t)sm};
        if (b > max_block) max_block = (uint32_t)b;
    }
    free(line);
    if (oom) {
        fprintf(stderr, "mklog: out of memory\n");
        free(recs);
        return 1;
    }

    warplog_header h;
    warplog_header_init(&h);
    h.record_count = n;
    h.chunk_records = (uint32_t)chunk;
    snprintf(h.experiment, sizeof h.experiment, "%s", experiment);
    snprintf(h.kernel, sizeof h.kernel, "%s", kernel);
    snprintf(h.device_name, sizeof h.device_name, "%s", device);
    snprintf(h.date, sizeof h.date, "%s", date);
    snprintf(h.host_arch, sizeof h.host_arch, "sm_90");
    h.warps_per_block = (uint32_t)wpb;
    h.threads_per_block = 32 * h.warps_per_block;
    h.n_elems = n_elems >= 0 ? (uint64_t)n_elems : (uint64_t)n * 32;
    h.blocks = blocks >= 0 ? (uint64_t)blocks : (n ? (uint64_t)max_block + 1 : 0);
    h.elem_bytes = (uint32_t)elem_bytes;
    h.bytes_per_warp_load = bytes_per_warp >= 0 ? (uint32_t)bytes_per_warp : 32 * h.elem_bytes;
    h.stride = 1;
    h.reps = 1;
    h.loads_per_warp = 1;
    h.sm_count = (int32_t)sm_count;
    h.blocks_per_sm = (uint32_t)blocks_per_sm;
    h.sm_clock_measured_MHz = clock_mhz;
    h.sm_clock_nominal_khz = (uint32_t)nominal_khz;
    h.peak_dram_GBps = peak;
    h.max_threads_per_sm = (uint32_t)max_threads_per_sm;
    h.smem_bytes = (uint32_t)smem_bytes;
    h.cc_major = 9;
    h.unix_time_s = 1767225600; /* the default --date: fixed, so logs are reproducible */

    char err[512];
    warplog_writer *w = warplog_writer_open(out, &h, 1, err, sizeof err);
    if (!w) {
        fprintf(stderr, "mklog: %s\n", err);
        free(recs);
        return 1;
    }
    if (warplog_writer_put(w, recs, n, err, sizeof err) != 0) {
        warplog_writer_abort(w);
        fprintf(stderr, "mklog: %s\n", err);
        free(recs);
        return 1;
    }
    free(recs);
    if (warplog_writer_close(w, err, sizeof err) != 0) {
        fprintf(stderr, "mklog: %s\n", err);
        return 1;
    }
    return 0;
}
