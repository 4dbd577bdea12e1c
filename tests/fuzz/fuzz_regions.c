/* fuzz_regions - the analysis of a log with named regions (version 3,
 * regions.h) as bin/verdict, latency_stats and plot_latency --region do it.
 * The input is the DRAM latency in ns (8 bytes, a double), a raw header
 * (1024 bytes, warplog_header) and warp records (32 bytes each); missing
 * bytes read as zero.  The header goes through warplog_header_check as the
 * reader's would; one it takes must name every region once and safely: each
 * region is found again by its own name at its own index (region_index),
 * and its file name (names_from_name) is one component, never hidden.  Then
 * the records go through region_acc in two chunks, and every region's
 * summary through region_verdict_make, with the header's references. */
#include "fuzz_common.h"
#include "names.h"
#include "regions.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    double dram_ns = 0;
    warplog_header h;
    memset(&h, 0, sizeof h);
    const size_t pre = sizeof dram_ns + sizeof h;
    memcpy(&dram_ns, data, size < sizeof dram_ns ? size : sizeof dram_ns);
    if (size > sizeof dram_ns)
        memcpy(&h, data + sizeof dram_ns, size - sizeof dram_ns < sizeof h ? size - sizeof dram_ns : sizeof h);

    /* a header the checks refuse reaches no tool, but its names must not
     * be read past their fields */
    char query[WARPLOG_REGION_NAME_BYTES + 1];
    memcpy(query, h.region_names[0], WARPLOG_REGION_NAME_BYTES);
    query[WARPLOG_REGION_NAME_BYTES] = 0;
    region_index(&h, query);
    char err[512];
    if (warplog_header_check(&h, err, sizeof err) != 0) return 0;

    /* every region (a log without regions is one, named by its kernel) */
    for (uint32_t r = 0; r < (h.region_count ? h.region_count : 1); r++) {
        if (h.region_count && region_index(&h, region_name(&h, r)) != (int)r) abort(); /* one name, one region */
        char file[64];
        if (names_from_name(file, sizeof file, "latency_", region_name(&h, r), ".svg") != 0) abort();
        if (strchr(file, '/') || file[0] == '.') abort();
    }

    region_acc *a = region_acc_new(&h);
    if (!a) abort();
    const size_t n = size > pre ? (size - pre) / sizeof(warp_record) : 0;
    warp_record *recs = malloc(n * sizeof *recs + 1);
    if (!recs) abort();
    if (n) memcpy(recs, data + pre, n * sizeof *recs);
    int ok = region_acc_add(a, recs, n / 2, err, sizeof err) == 0 &&
             region_acc_add(a, recs + n / 2, n - n / 2, err, sizeof err) == 0;
    const uint32_t nreg = region_acc_count(a);
    if (nreg != (h.region_count ? h.region_count : 1)) abort();
    for (uint32_t r = 0; ok && r < nreg; r++) {
        region_summary s;
        if (region_acc_summary(a, r, &s) != 0) continue;
        if (!(s.recorded_warps_per_sm >= 0) || s.sms > (unsigned)h.sm_count) abort();
        const double clock = h.sm_clock_measured_MHz > 0 ? h.sm_clock_measured_MHz : h.sm_clock_nominal_khz / 1000.0;
        region_verdict_in in = {
            .p50_cycles = s.lat.p50_cycles, .recorded_warps_per_sm = s.recorded_warps_per_sm,
            .sample_blocks = h.sample_blocks,
            .resident_warps_per_sm = (double)h.blocks_per_sm * h.warps_per_block,
            .bytes_per_warp = h.region_count ? h.region_bytes_per_warp[r]
                                             : (double)h.bytes_per_warp_load * (h.loads_per_warp ? h.loads_per_warp : 1),
            .ceiling_GBps = h.ceiling_GBps > 0 ? h.ceiling_GBps : NAN, .dram_latency_ns = dram_ns,
            .sm_clock_MHz = clock, .sm_count = h.sm_count};
        region_verdict v;
        region_verdict_make(&in, region_name(&h, r), &v);
        if (strnlen(v.text, sizeof v.text) == sizeof v.text || strncmp(v.text, "region ", 7) != 0) abort();
        fprintf(fuzz_sink(), "%s\t%g\t%g\n", v.text, v.warps_per_sm, v.bytes_needed_per_sm);
    }
    if (region_acc_summary(a, nreg, &(region_summary){0}) != -1) abort(); /* past the last region */
    region_acc_free(a);
    free(recs);
    return 0;
}
