/*
 * fuzz_warplog_common.h - read a whole log the way the tools do: header
 * printed, every record through the latency statistics (sized by the
 * header's sm_count, as lat_stats_read_log) and the warps-in-flight count
 * (as warplog check).
 */
#ifndef FUZZ_WARPLOG_COMMON_H
#define FUZZ_WARPLOG_COMMON_H
#include "fuzz_common.h"
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
    if (!st || !ov) abort(); /* sm_count was checked: 1..256 */
    const warp_record *rec;
    long n;
    int ok = 1;
    while ((n = warplog_reader_chunk(r, &rec, err, sizeof err)) > 0) {
        for (long i = 0; i < n; i++)
            if ((int32_t)rec[i].smid < h->sm_count) lat_overlap_add(ov, &rec[i]);
            else ok = 0;
        if (ok && lat_stats_add(st, rec, (size_t)n) != 0) ok = 0;
    }
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
