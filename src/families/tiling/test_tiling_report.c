/* test_tiling_report.c - the tiling's arithmetic in the report
 * (report_math.h) against small tables and numbers worked out by hand;
 * built as build/tests/test_tiling_report. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../tests/unit/check.h"
#include "../../../tests/unit/testtable.h"
#include "report_math.h"

int main(void)
{
    char b[4096];

    /* --- tiling: the summary joined with ncu's counts by kernel_fn */
    tsv_table sm = test_table("kernel\tconfig\twarps_per_block\tblocks_per_sm\tkernel_ms\tgflops\tlat_p50_cycles\t"
                         "lat_p95_cycles\tkernel_fn\n"
                         "naive\tdsize=1024,tile=32\t32\t2\t300\t100\t600\t900\ttiling_naive\n"
                         "tiled32\tdsize=1024,tile=32\t32\t2\t100\t300\t800\t1600\ttiling_tiled32\n"
                         "tiled8\tdsize=1024,tile=8\t2\t32\t200\t150\t700\t1400\ttiling_tiled8\n");
    tsv_table nc = test_table("kernel\tid\tdram__bytes_read.sum\tlts__t_sectors_srcunit_tex_op_read.sum\t"
                         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\t"
                         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum\tgpu__time_duration.sum\n"
                         "tiling_tiled32\t1\t8000000\t250000\t1000000\t0\t100000000\n"
                         "tiling_naive\t0\t8100000\t250000\t30000000\t27000000\t300000000\n");
    rfm_tiling tk[4];
    CHECK_EQ_U(rfm_tiling_read(&sm, &nc, tk, 4), 3);
    CHECK(!strcmp(tk[0].kernel, "naive") && tk[0].tile == 32 && tk[0].wpb == 32 && tk[0].gflops == 100);
    CHECK_NEAR(tk[0].l1_bytes, 960e6, 0);
    CHECK_NEAR(tk[0].l1_hit_pct, 90, 1e-12);
    CHECK_NEAR(tk[0].l2_bytes, 8e6, 0);
    CHECK_NEAR(tk[1].dram_bytes, 8e6, 0);
    CHECK_NEAR(tk[1].ncu_ms, 100, 1e-12);
    CHECK(isnan(tk[2].dram_bytes) && tk[2].tile == 8 && tk[2].wpb == 2);
    CHECK_NEAR(rfm_tiling_ideal_bytes(1024), 8388608, 0);
    /* time x3; L1 x30 (the level), L2 x1.00 and DRAM x1.01 (flat) */
    CHECK(rfm_tiling_speedup_note(&tk[0], &tk[1], 1024, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "tiled32 takes 100 ms against naive's 300 ms: x3.00 faster.");
    CHECK_STR_HAS(b, "L1 960 MB against 32.0 MB (x30.00), L2 8.00 MB against 8.00 MB (x1.00), DRAM 8.10 MB against 8.00 MB (x1.01).");
    CHECK_STR_HAS(b, "The ideal is 8.39 MB (2 x 1024^2 x 4 B): DRAM reads are x1 of it for naive, x1 for tiled32.");
    CHECK_STR_HAS(b, "L2 and DRAM traffic stay within 10%: they do not explain the speed-up.");
    CHECK_STR_HAS(b, "L1 traffic falls x30.0, at least as much as the time (x3.00): the naive kernel's time goes to L1.");
    CHECK_STR_HAS(b, "Its loads hit L1 90.0% of the time, tiled32's 0.0%.");
    /* 800 cycles per 32 multiply-adds against 600 per one: 25 / 600 */
    CHECK_STR_HAS(b, "tiled32 800 cycles per record, naive 600 (x1.33); a record of tiled32 covers 32 "
                     "multiply-adds per thread, one of naive 1, so the wait per multiply-add is x0.042.");
    /* without ncu: the time and the latency only */
    CHECK(rfm_tiling_speedup_note(&tk[0], &tk[2], 1024, b, sizeof b) == 0);
    CHECK(!strstr(b, "Bytes read") && strstr(b, "x1.50 faster"));
    /* 8.1 MB in 300 ms = 0.027 GB/s; x 500 ns / 100 SMs = 0.135 B */
    CHECK(rfm_tiling_littles_note(&tk[0], 500, 100, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "naive reads DRAM at 0.0 GB/s (8.10 MB in 300 ms)");
    CHECK(rfm_tiling_littles_note(&tk[2], 500, 100, b, sizeof b) == 1);
    tsv_free(&sm);
    tsv_free(&nc);

    return check_report("test_tiling_report");
}
