/* test_report_facts.c - the report's sentences against numbers worked out by hand. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report_facts.h"
#include "testtable.h"

static rf_device h100(void)
{
    rf_device d;
    rf_device_unknown(&d);
    d.sm_count = 132;
    d.sm_clock_MHz = 1980;
    d.peak_GBps = 3352.32;
    d.max_warps_per_sm = 64;
    d.l2_bytes = 52428800;
    return d;
}

static rf_kernel kernel(const char *name, double bw, double pct, double p50)
{
    rf_kernel k;
    memset(&k, 0, sizeof k);
    k.kernel = name;
    k.config = "-";
    k.wpb = 4;
    k.blocks_per_sm = 16;
    k.kernel_ms = 0.5;
    k.bw_GBps = bw;
    k.pct_peak = pct;
    k.sm_clock_MHz = 1980;
    k.lat_p50_cycles = p50;
    k.lat_mean_cycles = k.lat_p95_cycles = NAN;
    k.instr_ms = NAN;
    k.overhead_pct = NAN;
    k.bytes_per_warp = NAN;
    k.flops = 0;
    k.gflops = 0;
    return k;
}


int main(void)
{
    char b[2048];
    rf_device d = h100();

    /* the device: 3352.32 GB/s / 1980 MHz = 1693.1 B per cycle; / 132 = 12.83;
     * 128 / 12.83 = 9.98 cycles per warp load */
    CHECK(rf_device_note(&d, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "At 1980 MHz, the 3352 GB/s peak is 1693.1 bytes per SM cycle");
    CHECK_STR_HAS(b, "12.8 B per cycle per SM");
    CHECK_STR_HAS(b, "every 10.0 cycles");
    rf_device u;
    rf_device_unknown(&u);
    CHECK(rf_device_note(&u, b, sizeof b) == 1 && b[0] == 0);
    CHECK(rf_device_note(&d, b, 10) == -1);

    /* the fastest kernel, by bandwidth */
    rf_kernel k[3] = {kernel("baseline", 837.7, 25.0, 753), kernel("float4", 2793.0, 83.3, 1762),
                      kernel("random_access", 213.9, 6.4, 10393)};
    CHECK(rf_fastest_note(k, 3, &d, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "Fastest kernel at 4 warps per block: float4, 2793.0 GB/s = 83.3% of the 3352 GB/s DRAM peak.");
    k[1].config = "stride=8";
    rf_fastest_note(k, 3, &d, b, sizeof b);
    CHECK_STR_HAS(b, "float4 (stride=8), 2793.0 GB/s");
    CHECK(rf_fastest_note(k, 0, &d, b, sizeof b) == 1);

    /* Little's law, baseline at WPB 4: 3352.32 GB/s x 753 cycles / 1.98 GHz =
     * 1274.9 KB in flight = 1.27 MB, 9.66 KB per SM; 64 warps x 128 B = 8.2 KB;
     * bound = 132 x 64 x 128 x 1980e6 / 753 / 1e9 = 2843.4 GB/s; 837.7 / 2843.4 = 29% */
    CHECK(rf_littles_note(&k[0], &d, b, sizeof b) == 1); /* bytes per warp unknown */
    k[0].bytes_per_warp = 128;
    CHECK(rf_littles_note(&k[0], &d, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "baseline reaches 25% of peak at 4 warps per block; at the measured 753-cycle median");
    CHECK_STR_HAS(b, "= 1.27 MB in flight across the GPU (9.7 KB per SM)");
    CHECK_STR_HAS(b, "64 resident warps x 128 B hold 8.2 KB per SM");
    CHECK_STR_HAS(b, "the bound at this occupancy is 2843 GB/s, and the kernel achieves 29% of it (far below");
    CHECK_STR_HAS(b, "time between blocks and the tail");
    /* with the sweep's slot figures the words become numbers: the load holds
     * 1108 - 389 = 719 of every 1108 cycles, 719 / 1108 = 65% */
    k[0].slot_period_cycles = 1108, k[0].slot_rest_cycles = 389, k[0].closure_inflight_err_pct = -1.24;
    CHECK(rf_littles_note(&k[0], &d, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "achieves 29% of it: the load holds a slot 719 of every 1108 cycles; the other 389 are "
                     "launch and retire, so only 65% of the resident warps have a load in flight, and with the "
                     "warps measured in flight Little's law closes to -1.2% (occupancy sweep at 16 blocks per SM).");
    CHECK(!strstr(b, "time between blocks"));
    k[0].closure_inflight_err_pct = NAN;
    CHECK(rf_littles_note(&k[0], &d, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "have a load in flight (occupancy sweep at 16 blocks per SM).");
    k[0].slot_period_cycles = k[0].slot_rest_cycles = 0;
    /* float4: 64 x 512 B at 1762 cycles: 132 x 64 x 512 x 1980e6 / 1762 / 1e9 = 4860.5 GB/s */
    k[1].bytes_per_warp = 512;
    CHECK(rf_littles_note(&k[1], &d, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "enough to reach the peak (the bound is 4861 GB/s before the peak caps it)");

    /* overhead: the smallest and the largest */
    k[0].overhead_pct = 0.03; k[1].overhead_pct = 0.71; k[2].overhead_pct = -0.04;
    CHECK(rf_overhead_note(k, 3, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "from -0.04% (random_access) to +0.71% (float4)");

    /* variants that fix their own block (tiling): each row's WPB, and a
     * compute kernel ranked by GFLOP/s, not by its (meaningless) GB/s */
    rf_kernel tk[3] = {kernel("naive", 4.4, 0.1, 740), kernel("tiled8", 3.8, 0.1, 959), kernel("tiled32", 6.6, 0.2, 825)};
    tk[0].wpb = 32; tk[1].wpb = 2; tk[2].wpb = 32;
    tk[0].config = "dsize=8192,tile=32";
    tk[0].overhead_pct = 9.82; tk[1].overhead_pct = 0.16; tk[2].overhead_pct = 1.66;
    CHECK(rf_fastest_note(tk, 3, &d, b, sizeof b) == 0);
    CHECK(!strcmp(b, "Fastest kernel: tiled32, at its 32 warps per block, 6.6 GB/s = 0.2% of the 3352 GB/s DRAM peak."));
    CHECK(rf_overhead_note(tk, 3, b, sizeof b) == 0);
    CHECK(!strcmp(b, "Instrumentation overhead: from +0.16% (tiled8, 2 warps per block) to +9.82% (naive, 32 warps "
                     "per block) of the clean twin's time."));
    /* one variant at both ends: each end says its configuration */
    {
        rf_kernel sk[2] = {kernel("stride16", 1, 0.1, 700), kernel("stride16", 1, 0.1, 700)};
        sk[0].config = "stride=1"; sk[1].config = "stride=64";
        sk[0].overhead_pct = -0.81; sk[1].overhead_pct = 6.6;
        CHECK(rf_overhead_note(sk, 2, b, sizeof b) == 0);
        CHECK_STR_HAS(b, "from -0.81% (stride16 at stride=1) to +6.60% (stride16 at stride=64)");
    }
    for (int i = 0; i < 3; i++) tk[i].flops = 1099511627776.0;
    tk[0].gflops = 6045.6; tk[1].gflops = 5149.5; tk[2].gflops = 5000; /* the slowest GB/s is the fastest here */
    tk[0].kernel_ms = 181.8686;
    CHECK(rf_fastest_note(tk, 3, &d, b, sizeof b) == 0);
    CHECK(!strcmp(b, "Fastest kernel: naive (dsize=8192,tile=32), at its 32 warps per block, 6045.6 GFLOP/s (181.869 ms)."));
    tk[1].wpb = tk[2].wpb = 32;
    CHECK(rf_fastest_note(tk, 3, &d, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "Fastest kernel: naive (dsize=8192,tile=32), at its 32 warps per block, 6045.6 GFLOP/s");

    /* the bandwidth series */
    unsigned w[4] = {2, 4, 8, 16};
    double bw[4] = {421.4, 837.7, NAN, 1199.7};
    CHECK(rf_bw_series("baseline", w, bw, 4, b, sizeof b) == 0);
    CHECK(!strcmp(b, "baseline 421, 838, 1200 GB/s at 2, 4, 16"));

    /* the timeline finding: the median, not p5 (issue 11): 2415 / 1016 = 2.377 */
    rf_latpoint p[] = {{"random_access", 2, 1016}, {"random_access", 16, 2415},
                       {"random_access", 4, 1500}, {"baseline", 4, 289}};
    CHECK(rf_timeline_growth(p, 4, "random_access", b, sizeof b) == 0);
    CHECK(!strcmp(b, "random_access: median warp latency 1016 cycles at 2 warps per block, 2415 at 16 (x2.38)"));
    CHECK(rf_timeline_growth(p, 4, "baseline", b, sizeof b) == 1);
    CHECK(rf_timeline_growth(p, 4, "float4", b, sizeof b) == 1);

    /* relative medians at one WPB: 1500 / 289 = 5.19 */
    rf_latpoint q[] = {{"baseline", 4, 289}, {"float4", 4, 642}, {"random_access", 4, 1500}};
    CHECK(rf_relative_p50(q, 3, "baseline", b, sizeof b) == 0);
    CHECK(!strcmp(b, "Median latency relative to baseline (289 cycles): float4 x2.22, random_access x5.19."));
    CHECK(rf_relative_p50(q, 3, "nosuch", b, sizeof b) == 1);

    /* L2: 1e6 x 4 B = 4.0 MB < 52.4 MB */
    CHECK(rf_l2_note(1e6, 4, 52428800, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "4.0 MB, smaller than the 52.4 MB L2");
    CHECK(rf_l2_note(1e8, 4, 52428800, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "larger than the 52.4 MB L2, so these latencies are DRAM latencies");

    /* the ladder: DRAM 682.4 cycles at 344.7 ns: clock 1979.7 MHz;
     * 3352.32 x 682.4 / 1979.7 = 1155.6 KB = 1.16 MB, 8.75 KB per SM;
     * warps for the peak with 128 B: 8754 / 128 = 68.4 -> 69 > 64; with 512 B: 18 */
    plateau_level lv[2];
    memset(lv, 0, sizeof lv);
    strcpy(lv[0].name, "L1"); lv[0].cycles = 32; lv[0].ns = 16.2; lv[0].to_bytes = 220160;
    strcpy(lv[1].name, "DRAM"); lv[1].cycles = 682.4; lv[1].ns = 344.7; lv[1].to_bytes = 4294967296.0;
    CHECK(rf_ladder_levels_note(lv, 2, b, sizeof b) == 0);
    CHECK(!strcmp(b, "L1 32 cycles (16 ns, up to 215 KiB) and DRAM 682 cycles (345 ns, up to 4.0 GiB): a "
                     "dependent load from DRAM takes 21.3x as long as from L1."));
    CHECK(rf_ladder_occupancy_note(lv, 2, &d, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "needs 1.16 MB in flight across the GPU (8.8 KB per SM): 69 warps per SM");
    CHECK_STR_HAS(b, "more than the 64 an SM can hold, or 18 with 512 B (float4) loads.");
    CHECK(rf_ladder_levels_note(lv, 1, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "Fewer than two plateaus");
    CHECK(rf_ladder_occupancy_note(lv, 1, &d, b, sizeof b) == 1);

    /* a sweep: bound at 4 warps, 128 B, 731 cycles: 132 x 4 x 128 x 1980e6 / 731 / 1e9 = 183.1 */
    rf_sweep_point sp[3] = {{4, 6.25, 104.6, 731, NAN, 0, 0, 0}, {32, 50, 778.5, 748, NAN, 0, 0, 0},
                            {64, 100, 838.5, 761, NAN, 0, 0, 0}};
    rf_sweep_bounds(sp, 3, 128, &d);
    CHECK_NEAR(sp[0].bound_GBps, 183.06, 0.05);
    CHECK_NEAR(sp[0].of_bound_pct, 57.14, 0.05);
    CHECK_NEAR(sp[2].bound_GBps, 2813.1, 0.5);
    CHECK(rf_sweep_best_note("baseline", sp, 3, &d, b, sizeof b) == 0);
    CHECK(!strcmp(b, "baseline: the highest bandwidth is 838.5 GB/s (25.0% of the 3352 GB/s peak) at 64 warps "
                     "per SM (100% occupancy), with a mean warp latency of 761 cycles."));
    /* 682 cycles: 3352.32 x 682 / 1980 / 132 = 8748 B per SM; / 128 = 68.3 -> 69 */
    CHECK(rf_sweep_need_note(682, 1, 128, &d, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "At the unloaded latency of 682 cycles and 128 B per warp, Little's law reaches the peak only "
                     "with 69 warps per SM (8.7 KB in flight per SM), more than the 64 an SM can hold.");
    CHECK(rf_sweep_bound_note(sp, 3, b, sizeof b) == 0);
    CHECK(!strcmp(b, "0 of 3 points are within 80% of the bound at their own latency (latency-bound)."));
    sp[1].of_bound_pct = 85;
    rf_sweep_bound_note(sp, 3, b, sizeof b);
    CHECK_STR_HAS(b, "1 of 3 points are within 80%");
    CHECK_STR_HAS(b, "the largest of them has 32 warps per SM");
    /* a point near a bound that the peak caps is bandwidth-bound, not
     * latency-bound: 512 B per warp at 64 warps and 1000 cycles would allow
     * 132 x 64 x 512 x 1.98e9 / 1000 = 8564 GB/s, above the 3352 GB/s peak */
    {
        rf_sweep_point cp[2] = {{4, 6.25, 700, 760, 1980, 0, 0, 0}, {64, 100, 3000, 1000, 1980, 0, 0, 0}};
        rf_sweep_bounds(cp, 2, 512, &d);
        CHECK(!cp[0].capped);
        CHECK(cp[1].capped);
        CHECK_NEAR(cp[1].bound_GBps, 3352.32, 0.01);
        CHECK(rf_sweep_bound_note(cp, 2, b, sizeof b) == 0);
        CHECK(!strcmp(b, "2 of 2 points are within 80% of the bound at their own latency: 1 latency-bound (the "
                         "largest has 4 warps per SM) and 1 bandwidth-bound, from 64 warps per SM, where the DRAM "
                         "peak caps the bound."));
    }

    /* the in-flight closure of a sweep that recorded every block */
    {
        rf_inflight_point ip[3] = {
            {2, 8, 5.10, 1100, 381, -2.1, 1.6, 0.5},
            {1, 4, 2.60, 1108, 389, -1.24, 1.20, 0.04},  /* the first by warps, second in the table */
            {16, 64, 30.2, 8800, 1700, -0.6, 0.5, 0.1}};
        CHECK(rf_sweep_inflight_note(ip, 3, b, sizeof b) == 0);
        CHECK(!strcmp(b, "Measured in flight (every block recorded), Little's law closes within 2.1% at every "
                         "point (from -2.1% to -0.6%). At 1 block per SM the load holds a slot 719 of every 1108 "
                         "cycles; the other 389 are launch and retire, so 4 resident warps keep 2.60 in flight. "
                         "What does not close is launch and drain (1.2% of the kernel's time there) and SMs idle "
                         "while others finish (0.0%)."));
        /* beyond 5%: counted, the worst named, never "every point" */
        ip[2].closure_inflight_err_pct = -7.25;
        CHECK(rf_sweep_inflight_note(ip, 3, b, sizeof b) == 0);
        CHECK_STR_HAS(b, "closes within 5% at 2 of 3 points; the worst is -7.2% at 64 warps per SM.");
        /* an old sweep (no column: NAN): nothing to say */
        for (int i = 0; i < 3; i++) ip[i].closure_inflight_err_pct = NAN;
        CHECK(rf_sweep_inflight_note(ip, 3, b, sizeof b) == 1);
        CHECK(!strcmp(b, ""));
    }

    /* sector tables: sector_compare's verdict, and a generic `agree` column */
    tsv_table t = test_table("# n\t100\npattern\tstride\tl1_ok\tdram_err_pct\tverdict\n"
                        "strided\t1\t1\t+0.00\tagree\nstrided\t64\t1\t-31.80\tDISAGREE\n"
                        "random_access\t1\t0\t-1.12\tDISAGREE\n");
    rf_sectors s;
    CHECK(rf_sectors_count(&t, &s) == 0);
    CHECK_EQ_U(s.rows, 3);
    CHECK_EQ_U(s.agree, 1);
    CHECK_EQ_U(s.l1_ok, 2);
    CHECK_NEAR(s.worst_dram_err_pct, 31.80, 1e-9);
    CHECK(rf_sectors_note(&s, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "1 of 3 rows agree with the model; L1 sectors match in 2 of 3.");
    CHECK_STR_HAS(b, "Rows that do not: strided stride 64, random_access stride 1.");
    CHECK_STR_HAS(b, "The largest DRAM disagreement is strided stride 64, -31.80%.");
    tsv_free(&t);
    t = test_table("pattern\tagree\nx\tyes\ny\tno\n");
    CHECK(rf_sectors_count(&t, &s) == 0);
    CHECK_EQ_U(s.agree, 1);
    CHECK_EQ_U(s.l1_rows, 0);
    rf_sectors_note(&s, b, sizeof b);
    CHECK(!strcmp(b, "1 of 2 rows agree with the model. Rows that do not: y."));
    tsv_free(&t);
    /* the families' table: variant and config name a row; "-" was not predicted */
    t = test_table("variant\tconfig\tagree\nstrided\tstride=64\tno\nbaseline\t-\tyes\nrandom_access\t-\t-\n");
    CHECK(rf_sectors_count(&t, &s) == 0);
    CHECK_EQ_U(s.rows, 2);
    CHECK_EQ_U(s.unjudged, 1);
    rf_sectors_note(&s, b, sizeof b);
    CHECK(!strcmp(b, "1 of 2 rows agree with the model (1 more not predicted). Rows that do not: "
                     "strided stride=64."));
    tsv_free(&t);
    t = test_table("pattern\tl1_sectors\nx\t1\n");
    CHECK(rf_sectors_count(&t, &s) == -1);
    tsv_free(&t);

    /* the one reader of the summary row: by column name, in any order */
    t = test_table("kernel\tconfig\twarps_per_block\tblocks_per_sm\tkernel_ms\tbw_GBps\tpct_peak\tsm_clock_MHz\t"
              "lat_mean_cycles\tlat_p50_cycles\tlat_p95_cycles\tinstr_ms\toverhead_pct\tflops\tgflops\n"
              "float4\t-\t4\t16\t0.1432\t2793.0\t83.3\t1980\t1800\t1762\t2500\t0.1450\t1.26\t0\t0\n"
              "tiled32\ttile=32\t32\t2\t122.458\t0\t0\t1755\t40\t38\t90\t124.1\t1.34\t1.1e12\t8978.7\n");
    rf_kernel row;
    rf_kernel_read(&t, 0, &row);
    CHECK(!strcmp(row.kernel, "float4") && !strcmp(row.config, "-"));
    CHECK(row.wpb == 4 && row.blocks_per_sm == 16 && row.kernel_ms == 0.1432 && row.bw_GBps == 2793.0);
    CHECK(row.pct_peak == 83.3 && row.sm_clock_MHz == 1980 && row.lat_mean_cycles == 1800);
    CHECK(row.lat_p50_cycles == 1762 && row.lat_p95_cycles == 2500 && row.instr_ms == 0.1450);
    CHECK(row.overhead_pct == 1.26 && row.flops == 0 && row.gflops == 0 && isnan(row.bytes_per_warp));
    rf_kernel_read(&t, 1, &row);
    CHECK(!strcmp(row.kernel, "tiled32") && !strcmp(row.config, "tile=32") && row.wpb == 32);
    CHECK(row.flops == 1.1e12 && row.gflops == 8978.7 && row.kernel_ms == 122.458);
    tsv_free(&t);
    /* another order, columns missing: NAN, kernel "?", config "" */
    t = test_table("bw_GBps\tlat_p50_cycles\twarps_per_block\n1641.5\t812\t8\n");
    rf_kernel_read(&t, 0, &row);
    CHECK(!strcmp(row.kernel, "?") && !strcmp(row.config, ""));
    CHECK(row.bw_GBps == 1641.5 && row.lat_p50_cycles == 812 && row.wpb == 8);
    CHECK(isnan(row.kernel_ms) && isnan(row.instr_ms) && isnan(row.flops) && isnan(row.pct_peak));
    tsv_free(&t);

    /* formatting */
    CHECK(!strcmp(rf_fmt_bytes(8192, b, sizeof b), "8.2 KB"));
    CHECK(!strcmp(rf_fmt_bytes(1274900, b, sizeof b), "1.27 MB"));
    CHECK(!strcmp(rf_fmt_bytes(512, b, sizeof b), "512 B"));
    CHECK(!strcmp(rf_fmt_size(220160, b, sizeof b), "215 KiB"));
    CHECK(!strcmp(rf_fmt_size(4096, b, sizeof b), "4.0 KiB"));
    return check_report("test_report_facts");
}
