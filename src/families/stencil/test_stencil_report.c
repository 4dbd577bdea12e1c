/* test_stencil_report.c - the stencil's arithmetic in the report
 * (report_math.h) against small tables and numbers worked out by hand;
 * built as build/tests/test_stencil_report. */
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

    /* --- stencil: the config, and the over-fetch of lab 000's cases */
    rfm_stencil_cfg c;
    CHECK(rfm_stencil_config("1024x97656,R=1,lead=0,padld=1", &c) == 0);
    CHECK(c.n0 == 1024 && c.n1 == 97656 && c.radius == 1 && !c.lead_pad && c.pad_ld);
    CHECK(rfm_stencil_config("1024,R=1", &c) == -1);
    CHECK(rfm_stencil_config("axb,R=1,lead=0,padld=0", &c) == -1);
    /* n0 = 1024, one row: 32 warps of 5 sectors = 160 for 128: 25% */
    CHECK_NEAR(rfm_stencil_overfetch_pct(1024, 1, 1, 0, 0, 0), 25, 1e-9);
    /* lead pad: row 0 starts a line: 8 sectors for 8 (n0 = 64) */
    CHECK_NEAR(rfm_stencil_overfetch_pct(64, 1, 1, 1, 0, 0), 0, 1e-9);
    /* n0 = 32, n1 = 5, lead pad, ld 34: rows start at 32, 66, 100, 134, 168:
     * 4 + 5 + 5 + 5 + 4 = 23 sectors for 20 (lab 000's 23): 15% */
    CHECK_NEAR(rfm_stencil_overfetch_pct(32, 5, 1, 1, 0, 0), 15, 1e-9);
    /* the same with the leading dimension padded to 64: every row aligned */
    CHECK_NEAR(rfm_stencil_overfetch_pct(32, 5, 1, 1, 1, 0), 0, 1e-9);
    /* lead pad alone at n0 = 1024 (ld 1026): the row start moves 2 floats a
     * row, one row in 4 aligned: 3/4 x 25% */
    CHECK_NEAR(rfm_stencil_overfetch_pct(1024, 97656, 1, 1, 0, 0), 18.75, 1e-6);
    /* deriv1's halo row moves (0,0) by ld; the lead follows it */
    CHECK_NEAR(rfm_stencil_overfetch_pct(32, 5, 1, 1, 1, 1), 0, 1e-9);
    /* n0 not a multiple of 32: lane by lane; 48 x 1, no pad: warp 0 floats
     * 1..32 = sectors 0..4 (5), warp 1 floats 33..48 = sectors 4..6 (3): 8
     * sectors for the 6 that 48 floats fill: 33.3% */
    CHECK_NEAR(rfm_stencil_overfetch_pct(48, 1, 1, 0, 0, 0), 100.0 / 3, 1e-9);
    CHECK(isnan(rfm_stencil_overfetch_pct(0, 5, 1, 0, 0, 0)));

    /* one of the lab's cases: the lab's figures, the model's brackets, the GPU */
    tsv_table sc = test_table("variant\top\tl1_sectors_pred\tl1_sectors_meas\tl1_hits_pred\tl1_hits_max_pred\tl1_hits_meas\t"
                         "l1_hit_pct_pred\tl1_hit_pct_meas\tl2_requests_pred\tl2_requests_min_pred\tl2_requests_meas\tlab\n"
                         "deriv_copy\tld\t10\t10\t1\t1\t1\t10.00\t10.00\t4\t4\t3\t"
                         "sectors 10 [000]; L1 hits 1 [000]; L2 requests 3 [000]\n"
                         "deriv1\tld\t50\t50\t19\t24\t19\t38.00\t38.00\t13\t11\t9\t-\n");
    rfm_case_q cq[RFM_NCASE];
    CHECK(rfm_stencil_case(&sc, 0, cq) == 3);
    CHECK(cq[RFM_CASE_SECTORS].lab == 10 && cq[RFM_CASE_SECTORS].model == 10 && cq[RFM_CASE_SECTORS].measured == 10);
    CHECK(cq[RFM_CASE_HITS].lab == 1 && isnan(cq[RFM_CASE_HITS].model_hi));
    CHECK(isnan(cq[RFM_CASE_HIT_PCT].lab) && cq[RFM_CASE_HIT_PCT].model == 10);
    CHECK(cq[RFM_CASE_L2_REQ].lab == 3 && cq[RFM_CASE_L2_REQ].model == 4 && isnan(cq[RFM_CASE_L2_REQ].model_hi) &&
          cq[RFM_CASE_L2_REQ].measured == 3);
    /* brackets: hits 19..24 of 50 sectors = 38..48%, L2 requests 11..13 */
    CHECK(rfm_stencil_case(&sc, 1, cq) == 0);
    CHECK(cq[RFM_CASE_HITS].model == 19 && cq[RFM_CASE_HITS].model_hi == 24);
    CHECK_NEAR(cq[RFM_CASE_HIT_PCT].model_hi, 48, 1e-12);
    CHECK(cq[RFM_CASE_L2_REQ].model == 11 && cq[RFM_CASE_L2_REQ].model_hi == 13 && cq[RFM_CASE_L2_REQ].measured == 9);
    /* row 1 has no lab figure: only row 0 counts, its L2 requests 3 for 4 */
    CHECK(rfm_stencil_case(&sc, 1, cq) == 0);
    CHECK(rfm_stencil_cases_note(&sc, b, sizeof b) == 0);
    CHECK(!strcmp(b, "Measured inside the model's prediction (its bracket where it has one): L1 sectors in 1 of 1, "
                     "L1 hits in 1 of 1, L1 hit rate in 1 of 1, L2 requests in 0 of 1. L2 requests outside it: "
                     "deriv_copy ld ? 3 for 4."));
    tsv_free(&sc);
    /* the note's bracket of merged misses widens the L2 prediction: 3..4 */
    sc = test_table("variant\top\tl1_sectors_pred\tl1_sectors_meas\tl1_hits_pred\tl1_hits_max_pred\tl1_hits_meas\t"
               "l1_hit_pct_pred\tl1_hit_pct_meas\tl2_requests_pred\tl2_requests_min_pred\tl2_requests_meas\tlab\tnote\n"
               "deriv_copy\tld\t10\t10\t1\t1\t1\t10.00\t10.00\t4\t4\t3\tsectors 10 [000]\t"
               "wavefronts not judged; L2 requests 3 if every miss to a line a warp of the block had just asked for "
               "joins that request, 4 if none does; DRAM not judged\n");
    CHECK(rfm_stencil_case(&sc, 0, cq) == 1);
    CHECK(cq[RFM_CASE_L2_REQ].model == 3 && cq[RFM_CASE_L2_REQ].model_hi == 4);
    CHECK(rfm_stencil_cases_note(&sc, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "L2 requests in 1 of 1.");
    tsv_free(&sc);

    /* the sweep in sentences */
    CHECK(!strcmp(rfm_layout_name(1, 1), "with both pads") && !strcmp(rfm_layout_name(0, 1), "with the padded leading dimension"));
    rfm_stencil_point sp[] = {
        {32, 0, 0, "deriv0", 1600, 25}, {64, 0, 0, "deriv0", 1700, 25},
        {32, 1, 1, "deriv0", 1650, 0}, {64, 1, 1, "deriv0", 1690, 0},
        {32, 1, 0, "deriv1", 1500, 12.5}, {64, 1, 0, "deriv1", 1560, 18.75},
    };
    CHECK(rfm_stencil_sweep_note(sp, 6, b, sizeof b) == 0);
    CHECK(!strcmp(b, "Over-fetch of the centre loads: 25.0% without padding, 12.5% to 18.8% with the lead pad, "
                     "0.0% with both pads. Mean bandwidth over the sizes and variants: 1650.0 GB/s without "
                     "padding, 1530.0 GB/s with the lead pad, 1670.0 GB/s with both pads. Both pads against "
                     "none: +1.2% bandwidth for 25.0% less over-fetch. The lowest point: deriv1 at N0 = 32 "
                     "with the lead pad, 1500.0 GB/s."));
    CHECK(rfm_stencil_sweep_note(sp, 0, b, sizeof b) == 1);

    /* --- the halo against the ladder's levels */
    plateau_level lv[3];
    memset(lv, 0, sizeof lv);
    snprintf(lv[0].name, sizeof lv[0].name, "L1");
    lv[0].cycles = 33;
    snprintf(lv[1].name, sizeof lv[1].name, "L2");
    lv[1].cycles = 260;
    snprintf(lv[2].name, sizeof lv[2].name, "DRAM");
    lv[2].cycles = 680;
    CHECK(rfm_nearest_level(lv, 3, 40) == 0);
    CHECK(rfm_nearest_level(lv, 3, 150) == 1); /* 150/33 = 4.5, 260/150 = 1.7 */
    CHECK(rfm_nearest_level(lv, 3, 2000) == 2);
    CHECK(rfm_nearest_level(lv, 3, NAN) == -1);
    CHECK(rfm_halo_note(41, lv, 3, b, sizeof b) == 0);
    CHECK(!strcmp(b, "deriv0_halo: the halo load's median latency is 41 cycles, x1.24 the L1 plateau of 33 "
                     "cycles and nearer it than any other level: the halo load hits in L1, where the sector "
                     "model predicts a hit."));
    CHECK(rfm_halo_note(300, lv, 3, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "nearest the L2 plateau (260 cycles): the halo load does not hit in L1");
    CHECK(rfm_halo_note(300, lv, 0, b, sizeof b) == 1);

    return check_report("test_stencil_report");
}
