/*
 * mklog - write a warp log from a table of records, for tests and demos.
 *
 *   bin/mklog OUT.bin [options] < records.tsv
 *
 * stdin: one record per line, whitespace-separated
 *   start_clk end_clk gtimer_ns block warp smid [region]
 * (region, 0 when left out, indexes --regions NAME,NAME,...: with that
 * option the log is version 3, one record per region and warp.)
 * blank lines and lines starting with '#' are skipped.  The header fields
 * come from the options; the log is written with warplog_writer_*, so it is
 * exactly what an experiment would write (and atomically: OUT appears only
 * when complete).  The records are held in memory to learn record_count
 * before the header is written; mklog is a test tool, not for 1e9 records:
 * it refuses a line over 4096 bytes and more than 16 Mi records.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lines.h"
#include "outfile.h"
#include "warplog.h"

static const char usage_text[] =
    "usage: mklog OUT.bin [options] < records.tsv\n"
    "  stdin rows: start_clk end_clk gtimer_ns block warp smid [region] (unsigned integers)\n"
    "  Exit status: 0 written; 1 a bad record line or a write error; 2 usage (an\n"
    "  option out of range, or options that make a header no reader accepts).\n"
    "options (header fields; defaults in brackets):\n";

#define PROG "mklog"
/* Bounds on stdin (which may be a device or a pipe that never ends): a
 * record line is six numbers, and the records are held in memory. */
#define MAX_LINE_BYTES 4096
#define MAX_RECORDS (1u << 24) /* 16 Mi records, 512 MiB */

/* The string options go into fixed header fields: refuse what would not fit
 * rather than cut it. */
static int check_len(const char *opt, const char *v, size_t cap)
{
    if (strlen(v) >= cap)
        return cli_usage_error(PROG, "%s is too long: at most %zu bytes fit the header", opt, cap - 1);
    return 0;
}

/* One field of a record line: an unsigned integer up to max. */
static int field(const char *tok, const char *name, uint64_t max, uint64_t *v, long lineno)
{
    char err[256];
    if (!tok) {
        fprintf(stderr, PROG ": stdin line %ld: expected six unsigned integers "
                "start_clk end_clk gtimer_ns block warp smid; %s is missing\n", lineno, name);
        return -1;
    }
    if (cli_parse_range(name, tok, 0, max, v, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": stdin line %ld: %s\n", lineno, err);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *kernel = "baseline", *experiment = "readonly";
    const char *device = "NVIDIA H100 80GB HBM3", *date = "2026-01-01T00:00:00Z";
    const char *regions = "", *region_bytes = "";
    double overhead_pct = 0;
    uint64_t wpb = 4, n_elems = 0, blocks = 0, elem_bytes = 4, bytes_per_warp = 0;
    uint64_t sm_count = 132, blocks_per_sm = 0, nominal_khz = 1980000;
    uint64_t chunk = WARPLOG_CHUNK_RECORDS, max_threads_per_sm = 0, smem_bytes = 0;
    double clock_mhz = 1755, peak = 3352.3;
    int n_given = 0, blocks_given = 0, bpw_given = 0;
    const cli_opt opts[] = {
        {"--experiment", 0, CLI_STRING, 0, 0, 0, 0, &experiment, "E", "[readonly]", 0, 0},
        {"--kernel", 0, CLI_STRING, 0, 0, 0, 0, &kernel, "K", "[baseline]", 0, 0},
        {"--wpb", 0, CLI_U64, 1, WARPLOG_MAX_WARPS_PER_BLOCK, 0, 0, &wpb, "W", "warps per block [4]", 0, 0},
        {"--n", 0, CLI_U64, 0, UINT64_MAX, 0, 0, &n_elems, "N", "elements [number of records * 32]", 0, &n_given},
        {"--blocks", 0, CLI_U64, 0, UINT64_MAX, 0, 0, &blocks, "B", "grid size [largest block + 1]", 0, &blocks_given},
        {"--elem-bytes", 0, CLI_U64, 0, UINT32_MAX / 32, 0, 0, &elem_bytes, "B", "[4]", 0, 0},
        {"--bytes-per-warp", 0, CLI_U64, 0, UINT32_MAX, 0, 0, &bytes_per_warp, "B", "[32 * elem-bytes]", 0, &bpw_given},
        {"--sm-count", 0, CLI_U64, 1, WARPLOG_MAX_SM_COUNT, 0, 0, &sm_count, "S", "[132]", 0, 0},
        {"--blocks-per-sm", 0, CLI_U64, 0, WARPLOG_MAX_BLOCKS_PER_SM, 0, 0, &blocks_per_sm, "B", "[0]", 0, 0},
        {"--clock-mhz", 0, CLI_DOUBLE, 0, 0, 0, WARPLOG_MAX_CLOCK_MHZ, &clock_mhz, "F",
         "measured SM clock, MHz [1755]; 0 = not measured", 0, 0},
        {"--nominal-khz", 0, CLI_U64, 0, UINT32_MAX, 0, 0, &nominal_khz, "K", "nominal SM clock, kHz [1980000]", 0, 0},
        {"--peak-gbps", 0, CLI_DOUBLE, 0, 0, 0, WARPLOG_MAX_GBPS, &peak, "P", "DRAM peak, GB/s [3352.3]", 0, 0},
        {"--max-threads-per-sm", 0, CLI_U64, 0, UINT32_MAX, 0, 0, &max_threads_per_sm, "T", "[0: not recorded]", 0, 0},
        {"--smem-bytes", 0, CLI_U64, 0, UINT32_MAX, 0, 0, &smem_bytes, "B", "dynamic shared memory per block [0]", 0, 0},
        {"--device", 0, CLI_STRING, 0, 0, 0, 0, &device, "NAME", "[NVIDIA H100 80GB HBM3]", 0, 0},
        {"--date", 0, CLI_STRING, 0, 0, 0, 0, &date, "D", "[2026-01-01T00:00:00Z]", 0, 0},
        {"--regions", 0, CLI_STRING, 0, 0, 0, 0, &regions, "A,B,..",
         "named regions (version 3 log; records_per_warp = their number) [none]", 0, 0},
        {"--region-bytes", 0, CLI_STRING, 0, 0, 0, 0, &region_bytes, "B,B,..",
         "bytes a warp loads in one pass of each region [0: unknown]", 0, 0},
        {"--overhead-pct", 0, CLI_DOUBLE, 0, -100, 0, WARPLOG_MAX_MS, &overhead_pct, "P",
         "measured probe overhead, % [0]", 0, 0},
        {"--chunk-records", 0, CLI_U64, 1, WARPLOG_MAX_CHUNK_RECORDS, 0, 0, &chunk, "C",
         "records per chunk [65536] (small values test chunking)", 0, 0},
        CLI_END};
    const cli_opt *tables[] = {opts};
    cli_parse_result res;
    int prc = cli_parse(PROG, argc, argv, tables, 1, 1, &res);
    if (prc) return prc;
    if (res.help) {
        fputs(usage_text, stdout);
        cli_print_options(stdout, opts);
        return outfile_check_stdout(PROG);
    }
    if (res.npos == 0) return cli_usage_error(PROG, "missing OUT.bin");
    const char *out = res.pos[0];
    warplog_header probe_h;
    if (check_len("--experiment", experiment, sizeof probe_h.experiment) ||
        check_len("--kernel", kernel, sizeof probe_h.kernel) ||
        check_len("--device", device, sizeof probe_h.device_name) ||
        check_len("--date", date, sizeof probe_h.date))
        return 2;

    size_t cap = 1024, n = 0;
    warp_record *recs = malloc(cap * sizeof *recs);
    char *line = NULL;
    size_t lcap = 0;
    long lineno = 0;
    uint32_t max_block = 0;
    int oom = !recs;
    long len;
    while (recs && (len = lines_read(stdin, &line, &lcap, MAX_LINE_BYTES)) != -1) {
        lineno++;
        if (len < -1) {
            fprintf(stderr, PROG ": stdin line %ld: %s\n", lineno,
                    len == -2 ? "longer than 4096 bytes: not a record" : "out of memory");
            free(recs);
            free(line);
            return 1;
        }
        const char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '\n' || *p == 0) continue;
        char *save = NULL;
        char *buf = (char *)p;
        uint64_t s, e, g, b, w, sm, rg = 0;
        const char *ws = " \t\r\n";
        if (field(strtok_r(buf, ws, &save), "start_clk", UINT64_MAX, &s, lineno) ||
            field(strtok_r(NULL, ws, &save), "end_clk", UINT64_MAX, &e, lineno) ||
            field(strtok_r(NULL, ws, &save), "gtimer_ns", UINT64_MAX, &g, lineno) ||
            field(strtok_r(NULL, ws, &save), "block", UINT32_MAX, &b, lineno) ||
            field(strtok_r(NULL, ws, &save), "warp", UINT16_MAX, &w, lineno) ||
            field(strtok_r(NULL, ws, &save), "smid", UINT16_MAX, &sm, lineno)) {
            free(recs);
            free(line);
            return 1;
        }
        const char *rtok = strtok_r(NULL, ws, &save);
        if (rtok && field(rtok, "region", WARPLOG_MAX_REGIONS - 1, &rg, lineno)) {
            free(recs);
            free(line);
            return 1;
        }
        const char *extra = rtok ? strtok_r(NULL, ws, &save) : NULL;
        if (extra) {
            fprintf(stderr, PROG ": stdin line %ld: more than seven fields (from '%s')\n", lineno, extra);
            free(recs);
            free(line);
            return 1;
        }
        if (n == MAX_RECORDS) {
            fprintf(stderr, PROG ": stdin has more than %u records: mklog is a test tool, "
                    "its logs hold at most that many\n", MAX_RECORDS);
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
        /* a warp above 255 lands in the region byte, as the 16-bit warp
         * field of versions 1-2 stored it (tests of the reader use that) */
        recs[n++] = (warp_record){s, e, g, (uint32_t)b, (uint8_t)w,
                                  (uint8_t)((w >> 8) | rg), (uint16_t)sm};
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
    h.n_elems = n_given ? n_elems : (uint64_t)n * 32;
    h.blocks = blocks_given ? blocks : (n ? (uint64_t)max_block + 1 : 0);
    h.elem_bytes = (uint32_t)elem_bytes;
    h.bytes_per_warp_load = bpw_given ? (uint32_t)bytes_per_warp : 32 * h.elem_bytes;
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
    h.overhead_pct = overhead_pct;
    if (*regions) {
        h.version = WARPLOG_VERSION_REGIONS;
        const char *r = regions;
        while (h.region_count < WARPLOG_MAX_REGIONS) {
            size_t nlen = strcspn(r, ",");
            if (nlen == 0 || nlen >= WARPLOG_REGION_NAME_BYTES) {
                free(recs);
                return cli_usage_error(PROG, "--regions: every name must have 1 to %u characters",
                                       WARPLOG_REGION_NAME_BYTES - 1);
            }
            memcpy(h.region_names[h.region_count++], r, nlen);
            if (r[nlen] == 0) break;
            r += nlen + 1;
        }
        h.records_per_warp = h.region_count;
        const char *b = region_bytes;
        for (uint32_t i = 0; *b && i < h.region_count; i++) {
            char *end;
            const unsigned long v = strtoul(b, &end, 10);
            if (end == b || (*end && *end != ',') || v > UINT32_MAX) {
                free(recs);
                return cli_usage_error(PROG, "--region-bytes: a comma-separated list of byte counts");
            }
            h.region_bytes_per_warp[i] = (uint32_t)v;
            b = *end ? end + 1 : end;
        }
    }

    char err[512];
    if (warplog_header_check(&h, err, sizeof err) != 0) {
        free(recs);
        return cli_usage_error(PROG, "the options make a header no reader accepts: %s", err);
    }
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
