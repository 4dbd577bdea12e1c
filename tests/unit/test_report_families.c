/* test_report_families.c - the families' tables, series and sentences
 * against small tables and numbers worked out by hand. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report_families.h"
#include "testtable.h"


/* A sectors table: the columns the report reads, in another order than the
 * tool writes them (read by name). */
static const char SECTORS[] =
    "# family\tcopy\n"
    "op\tvariant\tconfig\tl1_requests_meas\tl1_sectors_meas\tsectors_per_request_meas\twavefronts_meas\t"
    "l2_requests_meas\tdram_sectors_meas\tl1_hits_meas\tl1_hit_pct_meas\tl1_util_pct_pred\tl1_util_pct_meas\t"
    "dram_util_pct_meas\tlab\tlab_vs_model\n"
    /* stride 16: 4.05 wavefronts per request measured, the lab's 4 */
    "ld\tstride\tstride=16\t1000\t32000\t32.0\t4050\t32000\t64000\t0\t0\t12.5\t12.5\t6.25\t"
    "sectors/request 32 [000]; wavefronts/request 4 [000]\tagrees\n"
    "st\tstride\tstride=16\t1000\t4000\t4.0\t1000\t1000\t0\t0\t0\t100\t100\tnan\t-\t-\n"
    /* stride 2 and 4 ld: sectors per request 8, 16 */
    "ld\tstride\tstride=4\t1000\t16000\t16.0\t1000\t4000\t16000\t0\t0\t25\t25\t25\tsectors/request 16 [000]\tagrees\n"
    "ld\tstride\tstride=2\t1000\t8000\t8.0\t1000\t2000\t8000\t0\t0\t50\t50\t50\t-\t-\n"
    /* a misaligned offset, the lab's cached 50 against the sectored 80 */
    "ld\toffset_ca\toffset=1\t10\t50\t5.0\t10\t20\t50\t0\t0\t80\t80\t100\t"
    "L1 bus utilization % 50 [001]\tdiffers: L1 bus utilization % lab 50 [001], model 80\n"
    "ld\toffset_ca\toffset=2\t10\t50\t5.0\t10\t20\t50\t0\t0\t80\t80\t100\t"
    "L1 bus utilization % 50 [001]\tdiffers: L1 bus utilization % lab 50 [001], model 80\n"
    "ld\toffset_ca\toffset=3\t10\t50\t5.0\t10\t20\t50\t0\t0\t80\t80\t100\t"
    "L1 bus utilization % 50 [001]\tdiffers: L1 bus utilization % lab 50 [001], model 80\n"
    "ld\toffset_ca\toffset=8\t10\t40\t4.0\t10\t10\t40\t0\t0\t100\t100\t100\t"
    "L1 bus utilization % 50 [001]\tdiffers: L1 bus utilization % lab 50 [001], model 100\n"
    "ld\toffset_cg\toffset=1\t10\t50\t5.0\t10\t20\t50\t0\t0\t80\t80\t100\t"
    "L1 bus utilization % 80 [001]\tagrees\n"
    "ld\toffset_nc\toffset=1\t10\t50\t5.0\t10\t20\t50\t0\t0\t80\t79\t100\t-\t-\n"
    /* lab 002 only: any path */
    "ld\tspread_ca\t-\t10\t40\t4.0\t10\t40\t80\t0\t0\t100\t100\t50\t"
    "L1 bus utilization % 4 [002]; L2 requests/request 4 [002]\tdiffers: L1 bus utilization % lab 4 [002], model 100\n"
    "ld\tspread_cg\t-\t10\t40\t4.0\t10\t40\t80\t0\t0\t100\t100\t50\t"
    "L1 bus utilization % 4 [002]; L2 requests/request 4 [002]\tdiffers: L1 bus utilization % lab 4 [002], model 100\n"
    /* 4 B elements: 100% of 400 sectors x 32 B = 12800 B = 3200 elements in 25 requests: 128 */
    "ld\tvector4\t-\t25\t400\t16\t25\t100\t400\t0\t0\t100\t100\t100\telements/request 128 [004]\tagrees\n"
    /* the lab's 44.4 is 4/9 = 44.44 measured */
    "ld\tderiv0\tn0=32,n1=1,r=1,lead=0,ld=34\t2\t9\t4.5\t2\t2\t5\t4\t44.44\t88.89\t88.89\tnan\t"
    "sectors 9 [000]; L1 hit rate % 44.4 [000]\tagrees\n";

int main(void)
{
    char b[4096];
    tsv_table t = test_table(SECTORS);

    /* --- series: filters, the config key, x sorted */
    rfm_series s;
    const char *ld_stride[] = {"variant=stride", "op=ld", NULL};
    CHECK_EQ_U(rfm_series_get(&t, ld_stride, "stride", "sectors_per_request_meas", &s), 3);
    CHECK(s.x[0] == 2 && s.x[1] == 4 && s.x[2] == 16);
    CHECK(s.y[0] == 8 && s.y[1] == 16 && s.y[2] == 32);
    const char *st_stride[] = {"variant=stride", "op=st", NULL};
    CHECK_EQ_U(rfm_series_get(&t, st_stride, "stride", "sectors_per_request_meas", &s), 1);
    CHECK_EQ_U(rfm_series_get(&t, ld_stride, "offset", "sectors_per_request_meas", &s), 0);
    const char *dram_nan[] = {"variant=stride", NULL};
    CHECK_EQ_U(rfm_series_get(&t, dram_nan, "stride", "dram_util_pct_meas", &s), 3); /* the st row's nan left out */
    const char *v4[] = {"variant=vector4", NULL};
    CHECK_NEAR(rfm_value(&t, v4, NULL, "l1_sectors_meas"), 400, 0);
    CHECK(isnan(rfm_value(&t, v4, "stride=1", "l1_sectors_meas")));
    const char *oca[] = {"variant=offset_ca", NULL};
    CHECK_NEAR(rfm_value(&t, oca, "offset=8", "l1_sectors_meas"), 40, 0);
    CHECK(rfm_row(&t, oca, "offset=8") == 7 && rfm_row(&t, oca, "offset=99") == -1);

    /* --- the lab columns */
    rfm_lab f[8];
    CHECK_EQ_U(rfm_lab_parse("-", "-", f, 8), 0);
    CHECK_EQ_U(rfm_lab_parse("sectors/request 16 [000]; wavefronts/request 1 [000]", "agrees", f, 8), 2);
    CHECK(!strcmp(f[0].quantity, "sectors/request") && f[0].lab == 16 && f[0].model == 16 && !strcmp(f[0].source, "000"));
    CHECK(!strcmp(f[1].quantity, "wavefronts/request") && f[1].lab == 1);
    CHECK_EQ_U(rfm_lab_parse("L1 bus utilization % 3.125 [001]; L1 bus utilization % 3.125 [002]; L2 requests/request 1 [002]",
                             "differs: L1 bus utilization % lab 3.125 [001], model 12.5; L1 bus utilization % lab 3.125 [002], model 12.5",
                             f, 8), 3);
    CHECK(!strcmp(f[0].quantity, "L1 bus utilization %") && f[0].lab == 3.125 && f[0].model == 12.5);
    CHECK(!strcmp(f[1].source, "002") && f[1].model == 12.5);
    CHECK(f[2].lab == 1 && f[2].model == 1);
    CHECK_EQ_U(rfm_lab_parse("sectors 10 [000]; L1 hits 1 [000]; L2 requests 3 [000]",
                             "differs: L2 requests lab 3 [000], model 4", f, 8), 3);
    CHECK(f[0].model == 10 && f[1].model == 1 && f[2].model == 4);
    CHECK_EQ_U(rfm_lab_parse("sectors 10 [000]", NULL, f, 1), 1);
    CHECK_EQ_U(rfm_lab_parse("garbage without a source", NULL, f, 8), 0);

    /* measured: per request from the counts; elements from the utilization */
    CHECK_NEAR(rfm_lab_measured(&t, 0, "wavefronts/request"), 4.05, 1e-12);
    CHECK_NEAR(rfm_lab_measured(&t, 0, "L2 requests/request"), 32, 1e-12);
    CHECK_NEAR(rfm_lab_measured(&t, 0, "DRAM sectors/request"), 64, 1e-12);
    CHECK_NEAR(rfm_lab_measured(&t, 0, "sectors/request"), 32, 1e-12);
    CHECK_NEAR(rfm_lab_measured(&t, 12, "elements/request"), 128, 1e-12);
    CHECK_NEAR(rfm_lab_measured(&t, 13, "L1 hit rate %"), 44.44, 1e-12);
    CHECK(isnan(rfm_lab_measured(&t, 0, "furlongs")));
    /* same: 1% (31.99 is 32), 0.05 for percentages (44.44 is 44.4), 4.05 is not 4 */
    CHECK(rfm_lab_same("sectors/request", 32, 31.99));
    CHECK(!rfm_lab_same("wavefronts/request", 4, 4.05));
    CHECK(rfm_lab_same("L1 hit rate %", 44.4, 44.44));
    CHECK(!rfm_lab_same("L1 hits", 4, 3));
    CHECK(!rfm_lab_same("sectors", NAN, 3));

    /* merged rows: offsets 1-3 are one row, offset 8 another */
    const char *cf[] = {"offset=3", "offset=1", "offset=2", "offset=9", "offset=5"};
    rfm_compact_configs(cf, 5, b, sizeof b);
    CHECK(!strcmp(b, "offset=1-3,5,9"));
    const char *cg[] = {"n0=32,n1=1", "n0=64,n1=1"};
    rfm_compact_configs(cg, 2, b, sizeof b);
    CHECK(!strcmp(b, "n0=32,n1=1; n0=64,n1=1"));
    rfm_labrow r[32];
    const size_t nr = rfm_lab_rows(&t, r, 32);
    /* stride=16 x2, stride=4, offset_ca x2, offset_cg, spread x2 each, vector4, deriv0 x2 */
    CHECK_EQ_U(nr, 13);
    size_t k = 0;
    while (k < nr && !(strcmp(r[k].variant, "offset_ca") == 0 && r[k].f.model == 80)) k++;
    CHECK(k < nr && r[k].nconfig == 3 && !strcmp(r[k].configs, "offset=1-3"));
    CHECK(k < nr && r[k].f.lab == 50 && r[k].f.measured == 80);
    /* 15 figures (stride=16: 2, stride=4, offset_ca: 4, offset_cg, spread: 2 x 2,
     * vector4, deriv0: 2); differ: wavefronts 4.05, offset_ca x4, spread L1 x2: 7 */
    CHECK(rfm_lab_note(r, nr, "The H100", b, sizeof b) == 0);
    CHECK_STR_HAS(b, "The H100 measures the lab's figure in 8 of 15; it differs in 7 (5 of the 13 rows above):");
    CHECK_STR_HAS(b, "wavefronts/request of stride ld (stride=16): lab 4 [000], model 4, measured 4.05");
    CHECK_STR_HAS(b, "L1 bus utilization % of offset_ca ld (offset=1-3): lab 50 [001], model 80, measured 80");
    CHECK(rfm_lab_note(r, 0, "x", b, sizeof b) == 1 && !*b);
    CHECK(rfm_lab_note(r, nr, "The H100", b, 40) == -1);

    /* the utilization pivot: lecture 001's cached/uncached, else 002's */
    rfm_util_row u[8];
    const size_t nu = rfm_patterns_util(&t, u, 8);
    CHECK_EQ_U(nu, 2);
    CHECK(!strcmp(u[0].pattern, "offset (offset=1)") && u[0].lab_cached == 50 && u[0].lab_uncached == 80);
    CHECK(!strcmp(u[0].lab_source, "001") && u[0].measured[0] == 80 && u[0].measured[2] == 79 && u[0].model[1] == 80);
    CHECK(!strcmp(u[1].pattern, "spread") && u[1].lab_cached == 4 && u[1].lab_uncached == 4 && !strcmp(u[1].lab_source, "002"));
    CHECK(isnan(u[1].measured[2]));
    tsv_free(&t);

    /* --- the ceiling */
    tsv_table ct = test_table("# dram_latency_ns\t350\n"
                         "operation\tbw_GBps\tpct_theoretical\tconfig\tkernel_ms\twarps_per_block\tbytes_in_flight_per_sm\ttable\n"
                         "read\t3000.0\t90.0\tw=16,wpb=8\t1\t8\t8000\tx.tsv\n"
                         "copy\t2800.0\t84.0\tw=8,wpb=32\t1\t32\t7500\tx.tsv\n"
                         "memcpy\t2700.0\t81.0\t-\t1\t8\t7200\tx.tsv\n");
    rfm_ceiling cc[8];
    CHECK(rfm_ceiling_read(&ct, cc, 8) == 3);
    CHECK_NEAR(rfm_ceiling_of(cc, 3, "copy"), 2800, 0);
    CHECK(isnan(rfm_ceiling_of(cc, 3, "triad")));
    CHECK(rfm_ceiling_note(cc, 3, 3200, 350, b, sizeof b) == 0);
    CHECK(!strcmp(b, "The best read reaches 3000.0 GB/s, 93.8% of the theoretical peak of 3200 GB/s (w=16,wpb=8), "
                     "with 8.0 KB in flight per SM at the ladder's 350.0 ns DRAM latency; copy 2800.0 GB/s "
                     "(87.5%), cudaMemcpy 2700.0 GB/s (84.4%)."));
    CHECK(rfm_ceiling_note(cc + 1, 2, 3200, 350, b, sizeof b) == 1);
    tsv_free(&ct);
    tsv_table bad = test_table("op\tbw\nread\t1\n");
    CHECK(rfm_ceiling_read(&bad, cc, 8) == -1);
    tsv_free(&bad);
    return check_report("test_report_families");
}
