/*
 * test_drift.c - the drift table (src/lib/drift.c): two results folders
 * built here with known figures, compared figure by figure against the
 * stated tolerances; a missing figure is "not compared", never within; the
 * bundled folder is found by device name; the TSV reads back by column.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "testfiles.h"
#include "drift.h"
#include "tsv.h"

static char TMP[256];

/* a results folder: device.tsv, a readonly WPB 4 summary (float4 gives the
 * read bandwidth without a ceiling, baseline the SM clock) and overhead.tsv */
static void folder(const char *dir, double bw, double clock, double ovh)
{
    CHECK(mkdir(dir, 0777) == 0);
    test_put_file(dir, "device.tsv", "key\tvalue\ndevice_name\tTest GPU 80GB\ndevice_uuid\tGPU-0badc0de-0000-1111-2222-333344445555\n");
    char s[1024];
    snprintf(s, sizeof s,
             "# device\tTest GPU 80GB (sm_90, 132 SMs, L2 51200 KiB)\n"
             "kernel\tn\twarps_per_block\tbw_GBps\tsm_clock_MHz\tvalid\n"
             "baseline\t100000000\t4\t800\t%.0f\tok\n"
             "float4\t100000000\t4\t%.1f\t%.0f\tok\n", clock, bw, clock);
    test_put_file(dir, "readonly_1e8_wpb4.tsv", s);
    snprintf(s, sizeof s, "variant\twpb\toverhead_pct\nbaseline\t4\t%.2f\nfloat4\t4\t0.5\n", ovh);
    test_put_file(dir, "overhead.tsv", s);
}

int main(void)
{
    snprintf(TMP, sizeof TMP, "%s/warplat-drift.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(TMP)) {
        perror("mkdtemp");
        return 1;
    }
    char ref[300], a[300], b[300], c[300], err[256];
    snprintf(ref, sizeof ref, "%s/ref", TMP);
    CHECK(mkdir(ref, 0777) == 0);
    snprintf(a, sizeof a, "%s/ref/h", TMP);
    snprintf(b, sizeof b, "%s/near", TMP);
    snprintf(c, sizeof c, "%s/far", TMP);
    folder(a, 3000, 1980, 1.5);
    folder(b, 3140, 1990, 3.4);   /* +4.67 %, +0.51 %, +1.9 points: all within */
    folder(c, 2800, 1700, 4.0);   /* -6.67 %, -14.1 %, +2.5 points: all outside */

    int rel;
    CHECK_NEAR(drift_tolerance(FLEET_READ_BW_GBPS, &rel), 5, 0);
    CHECK_EQ_I(rel, 1);
    CHECK_NEAR(drift_tolerance(FLEET_OVERHEAD_MAX_PCT, &rel), 2, 0);
    CHECK_EQ_I(rel, 0);

    drift_row r[FLEET_NFIG];
    CHECK_EQ_I(drift_compare(b, a, r, err, sizeof err), 0);
    CHECK_NEAR(r[FLEET_READ_BW_GBPS].diff_pct, 140.0 / 30, 1e-9);
    CHECK_EQ_I(r[FLEET_READ_BW_GBPS].verdict, 1);
    CHECK_NEAR(r[FLEET_OVERHEAD_MAX_PCT].diff, 1.9, 1e-9);
    CHECK_EQ_I(r[FLEET_OVERHEAD_MAX_PCT].verdict, 1);
    CHECK_EQ_I(r[FLEET_SM_CLOCK_MHZ].verdict, 1);
    /* no ladder in either folder: the latencies are not compared */
    CHECK_EQ_I(r[FLEET_DRAM_LAT_CYCLES].verdict, -1);
    CHECK_STR_HAS(r[FLEET_DRAM_LAT_CYCLES].note, "not compared");

    CHECK_EQ_I(drift_compare(c, a, r, err, sizeof err), 3);
    CHECK_EQ_I(r[FLEET_READ_BW_GBPS].verdict, 0);
    CHECK_EQ_I(r[FLEET_SM_CLOCK_MHZ].verdict, 0);
    CHECK_EQ_I(r[FLEET_OVERHEAD_MAX_PCT].verdict, 0);
    CHECK_NEAR(r[FLEET_SM_CLOCK_MHZ].diff, -280, 1e-9);

    /* like with like: ceiling searches whose launches moved other bytes
     * (a --quick search) give no comparable read bandwidth */
    test_put_file(a, "ceiling.tsv", "operation\tbw_GBps\tkernel_ms\nread\t3200\t0.6720\n");
    test_put_file(b, "ceiling.tsv", "operation\tbw_GBps\tkernel_ms\nread\t2980\t0.0902\n");
    CHECK_EQ_I(drift_compare(b, a, r, err, sizeof err), 0);
    CHECK_EQ_I(r[FLEET_READ_BW_GBPS].verdict, -1);
    CHECK_STR_HAS(r[FLEET_READ_BW_GBPS].note, "a --quick ceiling search is smaller");
    test_put_file(b, "ceiling.tsv", "operation\tbw_GBps\tkernel_ms\nread\t3100\t0.6937\n");   /* the same bytes */
    CHECK_EQ_I(drift_compare(b, a, r, err, sizeof err), 0);
    CHECK_EQ_I(r[FLEET_READ_BW_GBPS].verdict, 1);
    CHECK_NEAR(r[FLEET_READ_BW_GBPS].diff_pct, -3.125, 1e-9);
    unlink(strcat(strcpy((char[400]){0}, a), "/ceiling.tsv"));
    unlink(strcat(strcpy((char[400]){0}, b), "/ceiling.tsv"));

    /* a folder that is none */
    char none[300];
    snprintf(none, sizeof none, "%s/none", TMP);
    CHECK(drift_compare(none, a, r, err, sizeof err) == -1);

    /* the bundled folder of a GPU model, by name */
    char found[512];
    CHECK_EQ_I(drift_find_bundled(ref, "Test GPU 80GB", found, sizeof found), 0);
    CHECK(!strcmp(found, a));
    CHECK_EQ_I(drift_find_bundled(ref, "Other GPU", found, sizeof found), -1);

    /* the table, read back by column name */
    char path[400];
    snprintf(path, sizeof path, "%s/drift.tsv", TMP);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    CHECK_EQ_I(drift_compare(c, a, r, err, sizeof err), 3);
    CHECK_EQ_I(drift_write_tsv(f, r, c, a), 0);
    fclose(f);
    tsv_table t;
    CHECK(tsv_read(path, &t, err, sizeof err) == 0);
    CHECK_EQ_U(t.nrow, FLEET_NFIG);
    CHECK(tsv_col(&t, "figure") >= 0 && tsv_col(&t, "verdict") >= 0 && tsv_col(&t, "tolerance_of") >= 0);
    for (size_t i = 0; i < t.nrow; i++) {
        const char *name = tsv_get(&t, i, "figure");
        if (!name) continue;
        if (!strcmp(name, "read_bw_GBps")) {
            CHECK(!strcmp(tsv_get(&t, i, "verdict"), "outside"));
            CHECK(!strcmp(tsv_get(&t, i, "tolerance_of"), "pct_of_bundled"));
            CHECK_NEAR(tsv_num(&t, i, "diff_pct"), -200.0 / 30, 1e-4);
        }
        if (!strcmp(name, "overhead_max_pct")) CHECK(!strcmp(tsv_get(&t, i, "tolerance_of"), "%"));
        if (!strcmp(name, "dram_lat_ns")) CHECK(!strcmp(tsv_get(&t, i, "verdict"), "not compared"));
    }
    tsv_free(&t);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", TMP);
    CHECK(system(cmd) == 0);
    return check_report("test_drift");
}
