/*
 * warplog - look inside a per-warp log.
 *
 *   warplog info FILE...          the header, one "key<TAB>value" line per field
 *   warplog dump FILE [--limit K] the records as TSV (header row first)
 *   warplog check FILE            sanity checks of a log against its header:
 *                                 end > start, smid < sm_count, block/warp in
 *                                 range, sampled blocks only, and per SM the
 *                                 most warps whose timed regions overlap,
 *                                 which cannot exceed blocks_per_sm *
 *                                 warps_per_block
 *
 * Memory does not grow with the log: the reader holds one chunk, and check
 * counts warps in flight with lat_overlap (stats.h).
 * Exit: 0 ok, 1 a file could not be read, a check failed or the output could
 * not be written, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "overlap.h"
#include "stats.h"
#include "warplog.h"

#define PROG "warplog"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: warplog info FILE...\n"
        "       warplog dump FILE [--limit K]\n"
        "       warplog check FILE [--quiet]\n"
        "\n"
        "info   prints the self-describing header (experiment, device, clocks, timing)\n"
        "dump   prints the records as TSV: index block warp smid start_clk end_clk\n"
        "       lat_cycles gtimer_ns (and region, in a log with named regions).\n"
        "       Rows are printed as they are decoded: on a\n"
        "       damaged log the rows before the damage come out, then an error and\n"
        "       exit status 1, so those rows are partial (run check first, or trust\n"
        "       the rows only when the exit status is 0).  --limit K stops after K rows.\n"
        "check  verifies the records against the header and prints, per SM, the\n"
        "       number of warps and the most warps in their timed region at once\n"
        "       (at most blocks_per_sm x warps_per_block)\n"
        "\n"
        "Exit status: 0 ok; 1 unreadable or damaged log, failed check, or output that\n"
        "could not be written; 2 usage error.\n");
}

/* The log at path, or NULL after saying why not. */
static warplog_reader *open_log(const char *path)
{
    char err[512];
    warplog_reader *r = warplog_reader_open(path, err, sizeof err);
    if (!r) fprintf(stderr, PROG ": %s\n", err);
    return r;
}

static int cmd_info(int argc, char **argv)
{
    int rc = 0;
    for (int i = 0; i < argc; i++) {
        warplog_reader *r = open_log(argv[i]);
        if (!r) {
            rc = 1;
            continue;
        }
        if (argc > 1) printf("file\t%s\n", argv[i]);
        warplog_header_print(stdout, warplog_reader_header(r), "");
        warplog_reader_close(r);
    }
    return outfile_check_stdout(PROG) ? 1 : rc;
}

static int cmd_dump(const char *path, uint64_t limit)
{
    char err[512];
    warplog_reader *r = open_log(path);
    if (!r) return 1;
    /* a log with named regions gets a region column (its name) */
    const warplog_header *h = warplog_reader_header(r);
    const int regions = h->region_count > 0;
    printf("index\tblock\twarp\tsmid\tstart_clk\tend_clk\tlat_cycles\tgtimer_ns%s\n",
           regions ? "\tregion" : "");
    const warp_record *rec;
    long n = 0;
    uint64_t idx = 0;
    while (idx < limit && !ferror(stdout) && (n = warplog_reader_chunk(r, &rec, err, sizeof err)) > 0) {
        for (long i = 0; i < n && idx < limit; i++, idx++) {
            printf("%llu\t%u\t%u\t%u\t%llu\t%llu\t%llu\t%llu", (unsigned long long)idx,
                   rec[i].block, rec[i].warp, rec[i].smid, (unsigned long long)rec[i].start_clk,
                   (unsigned long long)rec[i].end_clk,
                   (unsigned long long)(rec[i].end_clk - rec[i].start_clk),
                   (unsigned long long)rec[i].gtimer_ns);
            if (!regions) putchar('\n');
            else if (rec[i].region < h->region_count) printf("\t%s\n", h->region_names[rec[i].region]);
            else printf("\t#%u\n", rec[i].region);
        }
    }
    warplog_reader_close(r);
    int rc = outfile_check_stdout(PROG);
    if (n < 0) {
        fprintf(stderr, PROG ": %s\n", err);
        if (idx)
            fprintf(stderr, PROG ": the %llu rows printed before this error come from a damaged "
                    "log\n", (unsigned long long)idx);
        rc = 1;
    }
    return rc;
}

static int cmd_check(const char *path, int quiet)
{
    char err[512];
    warplog_reader *r = open_log(path);
    if (!r) return 1;
    const warplog_header *h = warplog_reader_header(r);
    lat_overlap *ov = lat_overlap_new((uint32_t)h->sm_count); /* 1..256: the reader checked */
    if (!ov) {
        fprintf(stderr, PROG ": out of memory\n");
        warplog_reader_close(r);
        return 1;
    }
    uint64_t nbad_order = 0, nbad_sm = 0, nbad_ids = 0, nbad_sample = 0, nbad_region = 0, total = 0;
    const uint32_t K = h->sample_blocks;
    const warp_record *rec;
    long n;
    int rc = 0;
    while ((n = warplog_reader_chunk(r, &rec, err, sizeof err)) > 0) {
        for (long i = 0; i < n; i++, total++) {
            const warp_record *w = &rec[i];
            if (w->end_clk <= w->start_clk) nbad_order++;
            if (w->region >= (h->region_count ? h->region_count : 1)) nbad_region++;
            if ((int32_t)w->smid >= h->sm_count) { nbad_sm++; continue; }
            if (w->block >= h->blocks || w->warp >= h->warps_per_block) nbad_ids++;
            if (!warplog_block_sampled(w->block, K, h->sample_offset)) nbad_sample++;
            if (lat_overlap_add(ov, w) != 0) { n = -2; break; }
        }
        if (n < 0) break;
    }
    if (n == -2 || (n == 0 && lat_overlap_finish(ov) != 0)) {
        snprintf(err, sizeof err, "out of memory counting warps in flight in %s", path);
        n = -1;
    }
    if (n < 0) {
        fprintf(stderr, PROG ": %s\n", err);
        rc = 1;
    }
    const uint64_t cap = (uint64_t)h->blocks_per_sm * h->warps_per_block;
    uint64_t max_conc_all = 0;
    unsigned used_sms = 0, over = 0, disorder = 0, too_many = 0;
    if (!quiet) printf("smid\twarps\tmax_concurrent_warps\n");
    for (unsigned s = 0; s < (unsigned)h->sm_count; s++) {
        lat_overlap_sm o;
        lat_overlap_get(ov, s, &o);
        if (!o.warps) continue;
        if (!quiet) printf("%u\t%llu\t%llu%s\n", s, (unsigned long long)o.warps,
                           (unsigned long long)o.max_in_flight,
                           o.status == LAT_OVERLAP_EXACT ? "" : "+");
        if (o.max_in_flight > max_conc_all) max_conc_all = o.max_in_flight;
        if (cap && o.max_in_flight > cap) over++;
        disorder += o.status == LAT_OVERLAP_DISORDER;
        too_many += o.status == LAT_OVERLAP_TOO_MANY;
        used_sms++;
    }
    const uint32_t window = lat_overlap_window(ov);
    lat_overlap_free(ov);
    printf("# records\t%llu (header: %llu)\n", (unsigned long long)total,
           (unsigned long long)h->record_count);
    printf("# sms_used\t%u of %d\n", used_sms, h->sm_count);
    printf("# max_concurrent_warps_per_sm\t%llu (blocks_per_sm %u x warps_per_block %u = %llu)\n",
           (unsigned long long)max_conc_all, h->blocks_per_sm, h->warps_per_block,
           (unsigned long long)cap);
    if (K > 1)
        printf("# sampled\tone block in %u recorded: warps in flight count recorded warps only\n", K);
#define FAIL_IF(cond, ...) do { if (cond) { fprintf(stderr, PROG ": check failed: " __VA_ARGS__); fputc('\n', stderr); rc = 1; } } while (0)
    FAIL_IF(nbad_order, "%llu records end at or before they start", (unsigned long long)nbad_order);
    FAIL_IF(nbad_sm, "%llu records have smid >= sm_count (%d)", (unsigned long long)nbad_sm, h->sm_count);
    FAIL_IF(nbad_ids, "%llu records have a block or warp id outside the launch", (unsigned long long)nbad_ids);
    FAIL_IF(nbad_region, "%llu records have a region id outside the header's %u regions",
            (unsigned long long)nbad_region, h->region_count ? h->region_count : 1);
    FAIL_IF(nbad_sample, "%llu records are of blocks that sampling 1 in %u does not record",
            (unsigned long long)nbad_sample, K);
    FAIL_IF(n == 0 && total != h->record_count, "record count %llu differs from the header's %llu",
            (unsigned long long)total, (unsigned long long)h->record_count);
    FAIL_IF(over, "%u SMs had more warps in flight than blocks_per_sm x warps_per_block allows", over);
    FAIL_IF(disorder, "%u SMs have records out of start order by more than %u places (a log is "
            "written in launch order); their warps in flight (marked +) are a lower bound",
            disorder, window);
    FAIL_IF(too_many, "%u SMs had more than %u warps in flight at once, more than any GPU holds "
            "(marked +: a lower bound)", too_many, window);
    warplog_reader_close(r);
    if (rc == 0) printf("# check\tok\n");
    return outfile_check_stdout(PROG) ? 1 : rc;
}

int main(int argc, char **argv)
{
    const int start = cli_command_start(PROG, argc, argv, usage);
    if (start >= 0) return start;
    const char *cmd = argv[1];
    if (!strcmp(cmd, "info")) {
        if (argc < 3) return cli_usage_error(PROG, "info needs a FILE");
        for (int i = 2; i < argc; i++) {
            if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
                usage(stdout);
                return outfile_check_stdout(PROG);
            }
            if (argv[i][0] == '-' && argv[i][1])
                return cli_usage_error(PROG, "unknown option '%s' (info takes only FILEs)", argv[i]);
        }
        return cmd_info(argc - 2, argv + 2);
    }
    if (!strcmp(cmd, "dump") || !strcmp(cmd, "check")) {
        const int dump = !strcmp(cmd, "dump");
        uint64_t limit = UINT64_MAX;
        int quiet = 0;
        const cli_opt dump_opts[] = {
            {"--limit", 0, CLI_U64, 0, UINT64_MAX, 0, 0, &limit, "K", "print at most K records",
             0, 0},
            CLI_END};
        const cli_opt check_opts[] = {
            {"--quiet", 0, CLI_FLAG, 0, 0, 0, 0, &quiet, 0, "only the summary lines", 0, 0},
            CLI_END};
        const cli_opt *tables[] = {dump ? dump_opts : check_opts};
        cli_parse_result res;
        int rc = cli_parse(PROG, argc - 1, argv + 1, tables, 1, 1, &res);
        if (rc) return rc;
        if (res.help) {
            usage(stdout);
            return outfile_check_stdout(PROG);
        }
        if (res.npos != 1) return cli_usage_error(PROG, "%s needs a FILE", cmd);
        return dump ? cmd_dump(res.pos[0], limit) : cmd_check(res.pos[0], quiet);
    }
    fprintf(stderr, PROG ": unknown command '%s' (info, dump, check)\n", cmd);
    usage(stderr);
    return 2;
}
