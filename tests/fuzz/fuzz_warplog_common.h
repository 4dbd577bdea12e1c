/*
 * fuzz_warplog_common.h - read a whole log the way the tools do: header
 * printed, every record through the latency statistics (sized by the
 * header's sm_count, as lat_stats_read_log), the warps-in-flight count
 * (as warplog check) and the per-region accounts and verdicts (as
 * bin/verdict; the seeds include version-3 logs, so that the fuzzer
 * mutates region_count, the names and the bytes per warp too).
 */
#ifndef FUZZ_WARPLOG_COMMON_H
#define FUZZ_WARPLOG_COMMON_H
#include "fuzz_common.h"
#include "regions.h"
#include "overlap.h"
#include "stats.h"
#include "warplog.h"

static void fuzz_read_log(const uint8_t *data, size_t size)
{
    char err[512];
    warplog_reader *r = warplog_reader_open_mem(data, size, "fuzz.bin", err, sizeof err);
    if (!r) return;
    const warplog_header *h = warplog_reader_header(r);
    warplog_header_print(fuzz_sink(), h, "# ");
    lat_stats *st = lat_stats_new();
    lat_overlap *ov = lat_overlap_new((uint32_t)h->sm_count);
    region_acc *ra = region_acc_new(h);
    if (!st || !ov || !ra) abort(); /* sm_count was checked: 1..256 */
    /* the reader took the names: one region each, found by its own name */
    for (uint32_t i = 0; i < h->region_count; i++)
        if (region_index(h, h->region_names[i]) != (int)i) abort();
    const warp_record *rec;
    long n;
    int ok = 1, rok = 1;
    while ((n = warplog_reader_chunk(r, &rec, err, sizeof err)) > 0) {
        for (long i = 0; i < n; i++)
            if ((int32_t)rec[i].smid < h->sm_count) lat_overlap_add(ov, &rec[i]);
            else ok = 0;
        if (ok && lat_stats_add(st, rec, (size_t)n) != 0) ok = 0;
        if (rok && region_acc_add(ra, rec, (size_t)n, err, sizeof err) != 0) rok = 0;
    }
    for (uint32_t i = 0; rok && i < region_acc_count(ra); i++) {
        region_summary s;
        if (region_acc_summary(ra, i, &s) != 0) continue;
        region_verdict_in in = {.p50_cycles = s.lat.p50_cycles, .recorded_warps_per_sm = s.recorded_warps_per_sm,
                                .sample_blocks = h->sample_blocks,
                                .resident_warps_per_sm = (double)h->blocks_per_sm * h->warps_per_block,
                                .bytes_per_warp = h->region_count ? h->region_bytes_per_warp[i] : 0,
                                .ceiling_GBps = h->ceiling_GBps, .dram_latency_ns = 600,
                                .sm_clock_MHz = h->sm_clock_measured_MHz, .sm_count = h->sm_count};
        region_verdict v;
        region_verdict_make(&in, region_name(h, i), &v);
        fprintf(fuzz_sink(), "%s\n", v.text);
    }
    region_acc_free(ra);
    lat_overlap_finish(ov);
    for (unsigned s = 0; s < (unsigned)h->sm_count; s++) {
        lat_overlap_sm o;
        lat_overlap_get(ov, s, &o);
    }
    if (ok) {
        lat_summary m;
        lat_stats_summary(st, LAT_STATS_ALL, &m);
        for (int sm = lat_stats_next_sm(st, -1); sm >= 0; sm = lat_stats_next_sm(st, sm))
            lat_stats_summary(st, sm, &m);
        double mhz = lat_stats_clock_MHz(h, "fuzz.bin", NULL);
        fprintf(fuzz_sink(), "%g\n", lat_cycles_to_ns(m.p99_cycles, mhz));
    }
    lat_overlap_free(ov);
    lat_stats_free(st);
    warplog_reader_close(r);
}
#endif
