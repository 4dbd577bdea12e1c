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
#include "recordtab.h"
#include "outfile.h"
#include "warplog.h"

static const char usage_text[] =
    "usage: mklog OUT.bin [options] < records.tsv\n"
    "  stdin rows: start_clk end_clk gtimer_ns block warp smid [region] (unsigned integers)\n"
    "  Exit status: 0 written; 1 a bad record line or a write error; 2 usage (an\n"
    "  option out of range, or options that make a header no reader accepts).\n"
    "options (header fields; defaults in brackets):\n";

#define PROG "mklog"
/* A bound on stdin (which may be a device or a pipe that never ends): the
 * records are held in memory (recordtab.c bounds a line). */
#define MAX_RECORDS (1u << 24) /* 16 Mi records, 512 MiB */

/* The string options go into fixed header fields: refuse what would not fit
 * rather than cut it. */
static int check_len(const char *opt, const char *v, size_t cap)
{
    if (strlen(v) >= cap)
        return cli_usage_error(PROG, "%s is too long: at most %zu bytes fit the header", opt, cap - 1);
    return 0;
}

/* The header's options. */
typedef struct hopts {
    const char *kernel, *experiment, *device, *date, *regions, *region_bytes;
    double overhead_pct, clock_mhz, peak, kernel_ms;
    uint64_t sample;
    uint64_t wpb, n_elems, blocks, elem_bytes, bytes_per_warp, sm_count, blocks_per_sm;
    uint64_t nominal_khz, chunk, max_threads_per_sm, smem_bytes;
    int n_given, blocks_given, bpw_given;
} hopts;

/* --regions and --region-bytes into a version 3 header: 0, or the usage status. */
static int put_regions(const hopts *o, warplog_header *h)
{
    h->version = WARPLOG_VERSION_REGIONS;
    const char *r = o->regions;
    for (;;) {
        if (h->region_count == WARPLOG_MAX_REGIONS)
            return cli_usage_error(PROG, "--regions: a log has at most %u regions; %s names more",
                                   WARPLOG_MAX_REGIONS, o->regions);
        size_t nlen = strcspn(r, ",");
        if (nlen == 0 || nlen >= WARPLOG_REGION_NAME_BYTES)
            return cli_usage_error(PROG, "--regions: every name must have 1 to %u characters",
                                   WARPLOG_REGION_NAME_BYTES - 1);
        memcpy(h->region_names[h->region_count++], r, nlen);
        if (r[nlen] == 0) break;
        r += nlen + 1;
    }
    h->records_per_warp = h->region_count;
    const char *b = o->region_bytes;
    for (uint32_t i = 0; *b && i < h->region_count; i++) {
        char *end;
        const unsigned long v = strtoul(b, &end, 10);
        if (end == b || (*end && *end != ',') || v > UINT32_MAX)
            return cli_usage_error(PROG, "--region-bytes: a comma-separated list of byte counts");
        h->region_bytes_per_warp[i] = (uint32_t)v;
        b = *end ? end + 1 : end;
    }
    if (*b)
        return cli_usage_error(PROG, "--region-bytes: more byte counts than the %u region%s of "
                               "--regions", h->region_count, h->region_count == 1 ? "" : "s");
    return 0;
}

/* The header of n records whose largest block is max_block: 0, or the usage status. */
static int make_header(const hopts *o, size_t n, uint32_t max_block, warplog_header *h)
{
    warplog_header_init(h);
    h->record_count = n;
    h->chunk_records = (uint32_t)o->chunk;
    snprintf(h->experiment, sizeof h->experiment, "%s", o->experiment);
    snprintf(h->kernel, sizeof h->kernel, "%s", o->kernel);
    snprintf(h->device_name, sizeof h->device_name, "%s", o->device);
    snprintf(h->date, sizeof h->date, "%s", o->date);
    snprintf(h->host_arch, sizeof h->host_arch, "sm_90");
    h->warps_per_block = (uint32_t)o->wpb;
    h->threads_per_block = 32 * h->warps_per_block;
    h->n_elems = o->n_given ? o->n_elems : (uint64_t)n * 32;
    h->blocks = o->blocks_given ? o->blocks : (n ? (uint64_t)max_block + 1 : 0);
    h->elem_bytes = (uint32_t)o->elem_bytes;
    h->bytes_per_warp_load = o->bpw_given ? (uint32_t)o->bytes_per_warp : 32 * h->elem_bytes;
    h->stride = 1;
    h->reps = 1;
    h->loads_per_warp = 1;
    h->sm_count = (int32_t)o->sm_count;
    h->blocks_per_sm = (uint32_t)o->blocks_per_sm;
    h->sm_clock_measured_MHz = o->clock_mhz;
    h->sm_clock_nominal_khz = (uint32_t)o->nominal_khz;
    h->peak_dram_GBps = o->peak;
    h->max_threads_per_sm = (uint32_t)o->max_threads_per_sm;
    h->smem_bytes = (uint32_t)o->smem_bytes;
    h->cc_major = 9;
    h->unix_time_s = 1767225600; /* the default --date: fixed, so logs are reproducible */
    h->overhead_pct = o->overhead_pct;
    h->kernel_ms = h->kernel_ms_min = h->kernel_ms_max = o->kernel_ms;
    h->sample_blocks = (uint32_t)o->sample;
    if (*o->regions) {
        const int rc = put_regions(o, h);
        if (rc) return rc;
    }
    char err[512];
    if (warplog_header_check(h, err, sizeof err) != 0)
        return cli_usage_error(PROG, "the options make a header no reader accepts: %s", err);
    return 0;
}

/* Write the log: 0, or 1 after a sentence. */
static int write_log(const char *out, const warplog_header *h, const warp_record *recs, size_t n)
{
    char err[512];
    warplog_writer *w = warplog_writer_open(out, h, 1, err, sizeof err);
    if (!w) {
        fprintf(stderr, "mklog: %s\n", err);
        return 1;
    }
    if (warplog_writer_put(w, recs, n, err, sizeof err) != 0) {
        warplog_writer_abort(w);
        fprintf(stderr, "mklog: %s\n", err);
        return 1;
    }
    if (warplog_writer_close(w, err, sizeof err) != 0) {
        fprintf(stderr, "mklog: %s\n", err);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    hopts o = {.kernel = "baseline", .experiment = "readonly", .device = "NVIDIA H100 80GB HBM3",
               .date = "2026-01-01T00:00:00Z", .regions = "", .region_bytes = "",
               .clock_mhz = 1755, .peak = 3352.3, .wpb = 4, .elem_bytes = 4, .sm_count = 132,
               .nominal_khz = 1980000, .sample = 1, .chunk = WARPLOG_CHUNK_RECORDS};
    const cli_opt opts[] = {
        {"--experiment", 0, CLI_STRING, 0, 0, 0, 0, &o.experiment, "E", "[readonly]", 0, 0},
        {"--kernel", 0, CLI_STRING, 0, 0, 0, 0, &o.kernel, "K", "[baseline]", 0, 0},
        {"--wpb", 0, CLI_U64, 1, WARPLOG_MAX_WARPS_PER_BLOCK, 0, 0, &o.wpb, "W", "warps per block [4]", 0, 0},
        {"--n", 0, CLI_U64, 0, UINT64_MAX, 0, 0, &o.n_elems, "N", "elements [number of records * 32]", 0, &o.n_given},
        {"--blocks", 0, CLI_U64, 0, UINT64_MAX, 0, 0, &o.blocks, "B", "grid size [largest block + 1]", 0, &o.blocks_given},
        {"--elem-bytes", 0, CLI_U64, 0, UINT32_MAX / 32, 0, 0, &o.elem_bytes, "B", "[4]", 0, 0},
        {"--bytes-per-warp", 0, CLI_U64, 0, UINT32_MAX, 0, 0, &o.bytes_per_warp, "B", "[32 * elem-bytes]", 0, &o.bpw_given},
        {"--sm-count", 0, CLI_U64, 1, WARPLOG_MAX_SM_COUNT, 0, 0, &o.sm_count, "S", "[132]", 0, 0},
        {"--blocks-per-sm", 0, CLI_U64, 0, WARPLOG_MAX_BLOCKS_PER_SM, 0, 0, &o.blocks_per_sm, "B", "[0]", 0, 0},
        {"--clock-mhz", 0, CLI_DOUBLE, 0, 0, 0, WARPLOG_MAX_CLOCK_MHZ, &o.clock_mhz, "F",
         "measured SM clock, MHz [1755]; 0 = not measured", 0, 0},
        {"--nominal-khz", 0, CLI_U64, 0, UINT32_MAX, 0, 0, &o.nominal_khz, "K", "nominal SM clock, kHz [1980000]", 0, 0},
        {"--peak-gbps", 0, CLI_DOUBLE, 0, 0, 0, WARPLOG_MAX_GBPS, &o.peak, "P", "DRAM peak, GB/s [3352.3]", 0, 0},
        {"--max-threads-per-sm", 0, CLI_U64, 0, UINT32_MAX, 0, 0, &o.max_threads_per_sm, "T", "[0: not recorded]", 0, 0},
        {"--smem-bytes", 0, CLI_U64, 0, UINT32_MAX, 0, 0, &o.smem_bytes, "B", "dynamic shared memory per block [0]", 0, 0},
        {"--device", 0, CLI_STRING, 0, 0, 0, 0, &o.device, "NAME", "[NVIDIA H100 80GB HBM3]", 0, 0},
        {"--date", 0, CLI_STRING, 0, 0, 0, 0, &o.date, "D", "[2026-01-01T00:00:00Z]", 0, 0},
        {"--regions", 0, CLI_STRING, 0, 0, 0, 0, &o.regions, "A,B,..",
         "named regions (version 3 log; records_per_warp = their number) [none]", 0, 0},
        {"--region-bytes", 0, CLI_STRING, 0, 0, 0, 0, &o.region_bytes, "B,B,..",
         "bytes a warp loads in one pass of each region [0: unknown]", 0, 0},
        {"--overhead-pct", 0, CLI_DOUBLE, 0, -100, 0, WARPLOG_MAX_MS, &o.overhead_pct, "P",
         "measured probe overhead, % [0]", 0, 0},
        {"--kernel-ms", 0, CLI_DOUBLE, 0, 0, 0, WARPLOG_MAX_MS, &o.kernel_ms, "MS",
         "the instrumented kernel's time, ms [0: not measured]", 0, 0},
        {"--sample", 0, CLI_U64, 1, 1u << 30, 0, 0, &o.sample, "K",
         "one block in K recorded (a power of two) [1]", 0, 0},
        {"--chunk-records", 0, CLI_U64, 1, WARPLOG_MAX_CHUNK_RECORDS, 0, 0, &o.chunk, "C",
         "records per chunk [65536] (small values test chunking)", 0, 0},
        CLI_END};
    cli_parse_result res;
    const int prc = cli_main_parse(PROG, argc, argv, opts, 1, usage_text, 1, &res);
    if (prc >= 0) return prc;
    if (res.npos == 0) return cli_usage_error(PROG, "missing OUT.bin");
    const char *out = res.pos[0];
    warplog_header probe_h;
    if (check_len("--experiment", o.experiment, sizeof probe_h.experiment) ||
        check_len("--kernel", o.kernel, sizeof probe_h.kernel) ||
        check_len("--device", o.device, sizeof probe_h.device_name) ||
        check_len("--date", o.date, sizeof probe_h.date))
        return 2;
    warp_record *recs;
    size_t n;
    uint32_t max_block;
    char err[600];
    if (recordtab_read(stdin, "stdin", MAX_RECORDS, &recs, &n, &max_block, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    warplog_header h;
    int rc = make_header(&o, n, max_block, &h);
    if (!rc) rc = write_log(out, &h, recs, n);
    free(recs);
    return rc;
}
