/*
 * warplog - look inside a per-warp log.
 *
 *   warplog info FILE...          the header, one "key<TAB>value" line per field
 *   warplog dump FILE [--limit K] the records as TSV (header row first)
 *   warplog check FILE            sanity checks of a log against its header:
 *                                 end > start, smid < sm_count, block/warp in
 *                                 range, and per SM the most warps whose timed
 *                                 regions overlap, which cannot exceed
 *                                 blocks_per_sm * warps_per_block
 *
 * Exit: 0 ok, 1 a file could not be read or a check failed, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warplog.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: warplog info FILE...\n"
        "       warplog dump FILE [--limit K]\n"
        "       warplog check FILE [--quiet]\n"
        "\n"
        "info   prints the self-describing header (experiment, device, clocks, timing)\n"
        "dump   prints the records as TSV: index block warp smid start_clk end_clk\n"
        "       lat_cycles gtimer_ns\n"
        "check  verifies the records against the header and prints, per SM, the\n"
        "       number of warps and the most warps in their timed region at once\n"
        "       (at most blocks_per_sm x warps_per_block)\n");
}

static int cmd_info(int argc, char **argv)
{
    int rc = 0;
    for (int i = 0; i < argc; i++) {
        char err[512];
        warplog_reader *r = warplog_reader_open(argv[i], err, sizeof err);
        if (!r) {
            fprintf(stderr, "warplog: %s\n", err);
            rc = 1;
            continue;
        }
        if (argc > 1) printf("file\t%s\n", argv[i]);
        warplog_header_print(stdout, warplog_reader_header(r), "");
        warplog_reader_close(r);
    }
    return rc;
}

static int cmd_dump(const char *path, long long limit)
{
    char err[512];
    warplog_reader *r = warplog_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "warplog: %s\n", err);
        return 1;
    }
    printf("index\tblock\twarp\tsmid\tstart_clk\tend_clk\tlat_cycles\tgtimer_ns\n");
    const warp_record *rec;
    long n;
    unsigned long long idx = 0;
    while ((limit < 0 || (long long)idx < limit) && (n = warplog_reader_chunk(r, &rec, err, sizeof err)) > 0) {
        for (long i = 0; i < n && (limit < 0 || (long long)idx < limit); i++, idx++)
            printf("%llu\t%u\t%u\t%u\t%llu\t%llu\t%llu\t%llu\n", idx, rec[i].block, rec[i].warp,
                   rec[i].smid, (unsigned long long)rec[i].start_clk,
                   (unsigned long long)rec[i].end_clk,
                   (unsigned long long)(rec[i].end_clk - rec[i].start_clk),
                   (unsigned long long)rec[i].gtimer_ns);
        if (n < 0) break;
    }
    int bad = (limit < 0 && n < 0);
    if (bad) fprintf(stderr, "warplog: %s\n", err);
    warplog_reader_close(r);
    return bad ? 1 : 0;
}

/* One timed interval on one SM; events sorted to count overlaps. */
typedef struct event { uint64_t t; int delta; } event;

static int cmp_event(const void *a, const void *b)
{
    const event *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return x->delta - y->delta; /* an end (-1) before a start (+1) at the same cycle */
}

typedef struct sm_acc { event *ev; size_t n, cap; uint64_t warps; } sm_acc;

static int cmd_check(const char *path, int quiet)
{
    char err[512];
    warplog_reader *r = warplog_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "warplog: %s\n", err);
        return 1;
    }
    const warplog_header *h = warplog_reader_header(r);
    sm_acc sms[WARP_PROBE_MAX_SMS];
    memset(sms, 0, sizeof sms);
    uint64_t nbad_order = 0, nbad_sm = 0, nbad_ids = 0, nbad_sample = 0, total = 0;
    const uint32_t K = h->sample_blocks ? h->sample_blocks : 1;
    if (K & (K - 1)) {
        fprintf(stderr, "warplog: %s: sample_blocks %u is not a power of two\n", path, K);
        warplog_reader_close(r);
        return 1;
    }
    const warp_record *rec;
    long n;
    while ((n = warplog_reader_chunk(r, &rec, err, sizeof err)) > 0) {
        for (long i = 0; i < n; i++, total++) {
            const warp_record *w = &rec[i];
            if (w->end_clk <= w->start_clk) nbad_order++;
            if ((int)w->smid >= h->sm_count || w->smid >= WARP_PROBE_MAX_SMS) { nbad_sm++; continue; }
            if (w->block >= h->blocks || w->warp >= h->warps_per_block) nbad_ids++;
            if (!warplog_block_sampled(w->block, K, h->sample_offset)) nbad_sample++;
            sm_acc *s = &sms[w->smid];
            if (s->n + 2 > s->cap) {
                s->cap = s->cap ? 2 * s->cap : 1024;
                event *ne = realloc(s->ev, s->cap * sizeof *ne);
                if (!ne) { fprintf(stderr, "warplog: out of memory\n"); return 1; }
                s->ev = ne;
            }
            s->ev[s->n++] = (event){w->start_clk, +1};
            s->ev[s->n++] = (event){w->end_clk, -1};
            s->warps++;
        }
    }
    int rc = 0;
    if (n < 0) {
        fprintf(stderr, "warplog: %s\n", err);
        rc = 1;
    }
    const uint64_t cap = (uint64_t)h->blocks_per_sm * h->warps_per_block;
    unsigned max_conc_all = 0, used_sms = 0, over = 0;
    if (!quiet) printf("smid\twarps\tmax_concurrent_warps\n");
    for (unsigned s = 0; s < WARP_PROBE_MAX_SMS; s++) {
        if (!sms[s].warps) continue;
        qsort(sms[s].ev, sms[s].n, sizeof(event), cmp_event);
        int cur = 0, mx = 0;
        for (size_t i = 0; i < sms[s].n; i++) {
            cur += sms[s].ev[i].delta;
            if (cur > mx) mx = cur;
        }
        if (!quiet) printf("%u\t%llu\t%d\n", s, (unsigned long long)sms[s].warps, mx);
        if ((unsigned)mx > max_conc_all) max_conc_all = (unsigned)mx;
        if (cap && (uint64_t)mx > cap) over++;
        used_sms++;
        free(sms[s].ev);
    }
    printf("# records\t%llu (header: %llu)\n", (unsigned long long)total,
           (unsigned long long)h->record_count);
    printf("# sms_used\t%u of %d\n", used_sms, h->sm_count);
    printf("# max_concurrent_warps_per_sm\t%u (blocks_per_sm %u x warps_per_block %u = %llu)\n",
           max_conc_all, h->blocks_per_sm, h->warps_per_block, (unsigned long long)cap);
    if (K > 1)
        printf("# sampled\tone block in %u recorded: warps in flight count recorded warps only\n", K);
#define FAIL_IF(cond, ...) do { if (cond) { fprintf(stderr, "warplog: check failed: " __VA_ARGS__); fputc('\n', stderr); rc = 1; } } while (0)
    FAIL_IF(nbad_order, "%llu records end at or before they start", (unsigned long long)nbad_order);
    FAIL_IF(nbad_sm, "%llu records have smid >= sm_count (%d)", (unsigned long long)nbad_sm, h->sm_count);
    FAIL_IF(nbad_ids, "%llu records have a block or warp id outside the launch", (unsigned long long)nbad_ids);
    FAIL_IF(nbad_sample, "%llu records are of blocks that sampling 1 in %u does not record",
            (unsigned long long)nbad_sample, K);
    FAIL_IF(total != h->record_count, "record count %llu differs from the header's %llu",
            (unsigned long long)total, (unsigned long long)h->record_count);
    FAIL_IF(over, "%u SMs had more warps in flight than blocks_per_sm x warps_per_block allows", over);
    warplog_reader_close(r);
    if (rc == 0) printf("# check\tok\n");
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(stdout);
        return 0;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "info")) {
        if (argc < 3) { fprintf(stderr, "warplog: info needs a FILE\n"); return 2; }
        return cmd_info(argc - 2, argv + 2);
    }
    if (!strcmp(cmd, "dump") || !strcmp(cmd, "check")) {
        const char *file = NULL;
        long long limit = -1;
        int quiet = 0;
        for (int i = 2; i < argc; i++) {
            if (!strcmp(argv[i], "--limit") && i + 1 < argc && !strcmp(cmd, "dump")) {
                char *end;
                limit = strtoll(argv[++i], &end, 10);
                if (*end || limit < 0) { fprintf(stderr, "warplog: --limit needs a count\n"); return 2; }
            } else if (!strcmp(argv[i], "--quiet") && !strcmp(cmd, "check")) {
                quiet = 1;
            } else if (argv[i][0] == '-' && argv[i][1]) {
                fprintf(stderr, "warplog: unknown option '%s'\n", argv[i]);
                return 2;
            } else if (!file) {
                file = argv[i];
            } else {
                fprintf(stderr, "warplog: %s takes one FILE\n", cmd);
                return 2;
            }
        }
        if (!file) { fprintf(stderr, "warplog: %s needs a FILE\n", cmd); return 2; }
        return !strcmp(cmd, "dump") ? cmd_dump(file, limit) : cmd_check(file, quiet);
    }
    fprintf(stderr, "warplog: unknown command '%s' (info, dump, check)\n", cmd);
    usage(stderr);
    return 2;
}
