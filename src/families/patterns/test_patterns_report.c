/* test_patterns_report.c - the patterns family's arithmetic in the report
 * (report_math.h) against small tables and numbers worked out by hand;
 * built as build/tests/test_patterns_report. */
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

    /* --- offsets, and the bandwidth a level moves */
    rfm_series obw = {{0, 1, 2, 8}, {800, 810, 790, 800}, 4}, out = {{0, 1, 2, 8}, {100, 80, 80, 100}, 4};
    CHECK(rfm_offset_note("offset_ca", &obw, &out, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "over offsets 0-8 the bandwidth stays within 790.0-810.0 GB/s (2.5% apart)");
    CHECK_STR_HAS(b, "800.0 GB/s at 2 offsets with 100%, 800.0 GB/s at the 2 others (x1.000): the bandwidth does not follow");
    rfm_series slow = {{0, 1}, {800, 600}, 2}, u2 = {{0, 1}, {100, 80}, 2};
    CHECK(rfm_offset_note("p", &slow, &u2, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "(x0.750): the misaligned offsets cost bandwidth.");
    CHECK_NEAR(rfm_moved_GBps(376.8, 12.5), 3014.4, 1e-9);
    CHECK(isnan(rfm_moved_GBps(376.8, 0)));

    /* --- write patterns: offsets with the same measured sectors merged */
    tsv_table ws = test_table("kernel\tconfig\tkernel_ms\tbw_GBps\tbytes_written\n"
                         "write_offset\toffset=0\t0.50\t800\t400\n"
                         "write_offset\toffset=1\t0.52\t790\t400\n"
                         "write_offset\toffset=2\t0.51\t795\t400\n"
                         "write_offset\toffset=8\t0.49\t810\t400\n"
                         "write_coalesced\t-\t0.40\t1000\t400\n"
                         "coalesced_ca\t-\t0.40\t1000\t0\n");
    tsv_table wsec = test_table("variant\top\tconfig\tl1_requests_meas\tl1_sectors_meas\tsectors_per_request_meas\tl2_requests_meas\n"
                           "write_offset\tst\toffset=0\t10\t40\t4\t10\n"
                           "write_offset\tst\toffset=1\t10\t50\t5\t20\n"
                           "write_offset\tst\toffset=2\t10\t50\t5\t20\n"
                           "write_offset\tst\toffset=8\t10\t40\t4\t10\n"
                           "write_coalesced\tst\t-\t10\t40\t4\t10\n");
    rfm_write_group wg[8];
    CHECK_EQ_U(rfm_write_groups(&ws, &wsec, wg, 8), 3);
    CHECK(!strcmp(wg[0].kernel, "write_offset") && !strcmp(wg[0].configs, "offset=0,8") && wg[0].nconfig == 2);
    CHECK(wg[0].ms_lo == 0.49 && wg[0].ms_hi == 0.50 && wg[0].bw_lo == 800 && wg[0].bw_hi == 810);
    CHECK(wg[0].sectors_per_request == 4 && wg[0].l2_per_request == 1);
    CHECK(!strcmp(wg[1].configs, "offset=1-2") && wg[1].sectors_per_request == 5 && wg[1].l2_per_request == 2);
    CHECK(!strcmp(wg[2].kernel, "write_coalesced") && !strcmp(wg[2].configs, "-") && wg[2].bytes_written == 400);
    /* without a sectors table: one group per kernel, NAN per request */
    CHECK_EQ_U(rfm_write_groups(&ws, NULL, wg, 8), 2);
    CHECK(wg[0].nconfig == 4 && isnan(wg[0].sectors_per_request));
    tsv_free(&ws);
    tsv_free(&wsec);

    return check_report("test_patterns_report");
}
