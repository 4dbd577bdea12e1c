/*
 * test_fleet.c - the fleet's statistics and rule (src/lib/fleet.c) on
 * values with known answers, its reading of a results folder built here
 * with known figures (and the fallbacks of older folders), its output read
 * back by column name, the search for results folders, and the folder key.
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
#include "fleet.h"
#include "tsv.h"

static char TMP[256];

static void mk(const char *path)
{
    CHECK(mkdir(path, 0777) == 0);
}

/* A ladder with L1 at 32, L2-near at 276, L2-far at 520 and DRAM at
 * dram_cycles (ns = cycles / 1.98 GHz), 4 points per octave from 4 KiB to
 * 4 GiB, each level flat: the plateaus are exactly these values. */
static void put_ladder(const char *dir, const char *name, double dram_cycles, int with_ns)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL);
    if (!f) return;
    fprintf(f, "# kernel\tchase_ca\n# device_name\tTest GPU 80GB\n# device_uuid\tGPU-0badc0de-0000-1111-2222-333344445555\n"
               "# sm_clock_measured_MHz\t1980\n");
    fprintf(f, with_ns ? "bytes\tcycles_per_load\tns_per_load\n" : "bytes\tcycles_per_load\n");
    for (int i = 0; i <= 80; i++) {
        const double b = floor(4096.0 * pow(2.0, i / 4.0) / 128) * 128;
        double c = b <= 200e3 ? 32 : b <= 20e6 ? 276 : b >= 28e6 && b <= 60e6 ? 520 : b >= 64e6 ? dram_cycles : -1;
        if (c < 0) c = b < 28e6 ? 400 : 600;   /* transitions: one or two points, no level */
        if (with_ns) fprintf(f, "%.0f\t%.2f\t%.2f\n", b, c, c / 1.98);
        else fprintf(f, "%.0f\t%.2f\n", b, c);
    }
    CHECK(fclose(f) == 0);
}

static const char *SUMMARY_HEAD =
    "# device\tTest GPU 80GB (sm_90, 132 SMs, L2 51200 KiB)\n"
    "kernel\tn\twarps_per_block\tbw_GBps\tsm_clock_MHz\tvalid\n";

/* ------------------------------------------------------------ statistics */

static void test_median_mad(void)
{
    const double odd[] = {5, 1, 3};
    const double even[] = {4, 1, 3, 2};
    const double with_nan[] = {NAN, 10, 2, NAN, 6};
    CHECK_NEAR(fleet_median(odd, 3), 3, 0);
    CHECK_NEAR(fleet_median(even, 4), 2.5, 0);
    CHECK_NEAR(fleet_median(with_nan, 5), 6, 0);          /* NAN is skipped, not sorted in */
    CHECK(isnan(fleet_median(with_nan, 1)));
    CHECK(isnan(fleet_median(NULL, 0)));
    /* |x - 3| = 2, 2, 0 -> MAD 2 */
    CHECK_NEAR(fleet_mad(odd, 3, 3), 2, 0);
    /* |x - 2.5| = 1.5, 1.5, 0.5, 0.5 -> 1 */
    CHECK_NEAR(fleet_mad(even, 4, 2.5), 1, 0);
    CHECK(isnan(fleet_mad(odd, 3, NAN)));
}

static void test_rule(void)
{
    fleet_rule r;
    fleet_rule_default(&r);
    CHECK_NEAR(r.k_mads, 3, 0);
    CHECK_NEAR(r.floor_pct, 1, 0);
    CHECK_EQ_I(r.min_group, 3);
    fleet_fig out[8];

    /* one clear outlier: median 100, MAD 1 (floor 1 % = 1 as well) */
    const double a[] = {100, 101, 99, 100, 130};
    fleet_judge_values(a, 5, 0.1, &r, out);
    CHECK_NEAR(out[0].median, 100, 0);
    CHECK_NEAR(out[0].mad, 1, 0);
    CHECK_NEAR(out[4].distance_mads, 30, 1e-12);
    CHECK_EQ_I(out[4].flagged, 1);
    for (int i = 0; i < 4; i++) CHECK_EQ_I(out[i].flagged, 0);
    CHECK_NEAR(out[1].distance_mads, 1, 1e-12);
    CHECK_NEAR(out[2].distance_mads, -1, 1e-12);          /* signed: below the median */
    CHECK_EQ_I(out[0].n, 5);

    /* the threshold: exactly k MADs is within, beyond it is flagged.  MAD
     * 10 (floor 1 % of 1000 = 10 too) */
    const double b[] = {1000, 990, 1010, 1030, 1030.5};
    fleet_judge_values(b, 5, 0.1, &r, out);
    CHECK_NEAR(out[0].median, 1010, 0);
    CHECK_NEAR(out[0].mad, 20, 0);                         /* |..| = 10 20 0 20 20.5 */
    const double c[] = {1000, 1000, 1000, 1030, 1030.01, 970, 1000};
    fleet_judge_values(c, 7, 0.1, &r, out);                /* MAD 0: floor 10, 3 floors = 30 */
    CHECK_NEAR(out[0].mad, 0, 0);
    CHECK_NEAR(out[0].floor, 10, 1e-12);
    CHECK_EQ_I(out[3].flagged, 0);                         /* exactly 3.0 */
    CHECK_EQ_I(out[4].flagged, 1);                         /* 3.001 */
    CHECK_EQ_I(out[5].flagged, 0);                         /* -3.0 */
    CHECK_STR_HAS(out[3].note, "below the floor");

    /* identical GPUs: the last digit differs, the MAD is 0.  With the floor
     * nobody is flagged; without it (no floor, a tiny resolution) the
     * rounding noise would be an absurd number of MADs: the floor is what
     * keeps them apart. */
    const double d[] = {680.14, 680.14, 680.14, 680.15, 680.14};
    fleet_judge_values(d, 5, 0.1, &r, out);
    for (int i = 0; i < 5; i++) CHECK_EQ_I(out[i].flagged, 0);
    CHECK(fabs(out[3].distance_mads) < 0.01);
    fleet_rule nofloor = r;
    nofloor.floor_pct = 0;
    fleet_judge_values(d, 5, 1e-9, &nofloor, out);
    CHECK_EQ_I(out[3].flagged, 1);
    CHECK(out[3].distance_mads > 1e6);
    /* a resolution floor alone (floor_pct 0) still holds the last digit */
    fleet_judge_values(d, 5, 0.1, &nofloor, out);
    CHECK_EQ_I(out[3].flagged, 0);
    CHECK_NEAR(out[3].distance_mads, 0.1, 1e-9);

    /* the same GPUs with one 20 % slower: flagged, the others not */
    const double e[] = {680.14, 680.14, 816.17, 680.15, 680.14};
    fleet_judge_values(e, 5, 0.1, &r, out);
    CHECK_EQ_I(out[2].flagged, 1);
    CHECK_NEAR(out[2].distance_mads, (816.17 - 680.14) / 6.8014, 1e-9);
    CHECK_EQ_I(out[0].flagged + out[1].flagged + out[3].flagged + out[4].flagged, 0);

    /* too few GPUs: two disagree and nobody can say which is off */
    const double f[] = {680, 900};
    fleet_judge_values(f, 2, 0.1, &r, out);
    CHECK_EQ_I(out[0].flagged, -1);
    CHECK_EQ_I(out[1].flagged, -1);
    CHECK(isnan(out[1].distance_mads));
    CHECK_STR_HAS(out[1].note, "the rule needs 3");
    /* three, one without the figure: two left, not judged */
    const double g[] = {680, NAN, 900};
    fleet_judge_values(g, 3, 0.1, &r, out);
    CHECK_EQ_I(out[0].n, 2);
    CHECK_EQ_I(out[2].flagged, -1);
    CHECK_STR_HAS(out[1].note, "no value");
    /* three with the figure: the odd one out is found */
    const double h[] = {680, 681, 900};
    fleet_judge_values(h, 3, 0.1, &r, out);
    CHECK_EQ_I(out[2].flagged, 1);
    CHECK_EQ_I(out[0].flagged, 0);
    /* a bigger k lets it pass */
    fleet_rule loose = r;
    loose.k_mads = 50;
    fleet_judge_values(h, 3, 0.1, &loose, out);
    CHECK_EQ_I(out[2].flagged, 0);
}

/* The second rule: read bandwidth more than 5 % below the median is
 * flagged whatever the MAD rule says, and each flag names its rule. */
static void test_below(void)
{
    fleet_rule r;
    fleet_rule_default(&r);
    CHECK_NEAR(r.pct_below, 5, 0);
    CHECK_EQ_I(fleet_figures[FLEET_READ_BW_GBPS].below_rule, 1);
    for (int k = 0; k < FLEET_NFIG; k++)
        if (k != FLEET_READ_BW_GBPS) CHECK_EQ_I(fleet_figures[k].below_rule, 0);
    fleet_fig out[8];
    /* a fleet that spreads by 2 %: median 3000, MAD 60; the card 6 % slow
     * is exactly 3 MADs out (within the MAD rule), 6 % below the median */
    const double a[] = {2820, 2910, 2940, 3000, 3030, 3060, 3090};
    fleet_judge_figure(a, 7, FLEET_READ_BW_GBPS, &r, out);
    CHECK_NEAR(out[0].median, 3000, 0);
    CHECK_NEAR(out[0].mad, 60, 0);
    CHECK_NEAR(out[0].distance_mads, -3, 1e-12);
    CHECK_NEAR(out[0].pct_from_median, -6, 1e-12);
    CHECK_EQ_I(out[0].flagged, 1);
    CHECK_EQ_I(out[0].by_mad, 0);
    CHECK_EQ_I(out[0].by_pct, 1);
    CHECK(!strcmp(fleet_flag_rule(&out[0]), "pct_below_median"));
    CHECK_NEAR(out[1].pct_from_median, -3, 1e-12);         /* 3 % slow: within both */
    CHECK_EQ_I(out[1].flagged, 0);
    CHECK(!strcmp(fleet_flag_rule(&out[1]), "-"));
    for (int i = 1; i < 7; i++) CHECK_EQ_I(out[i].flagged, 0);
    /* the same values as another figure: the MAD rule only */
    fleet_judge_figure(a, 7, FLEET_DRAM_LAT_CYCLES, &r, out);
    CHECK_EQ_I(out[0].flagged, 0);
    /* the rule turned off (0), and a looser one (7 %) */
    fleet_rule off = r;
    off.pct_below = 0;
    fleet_judge_figure(a, 7, FLEET_READ_BW_GBPS, &off, out);
    CHECK_EQ_I(out[0].flagged, 0);
    off.pct_below = 7;
    fleet_judge_figure(a, 7, FLEET_READ_BW_GBPS, &off, out);
    CHECK_EQ_I(out[0].flagged, 0);
    /* exactly 5 % below is within; just beyond it is flagged */
    const double b[] = {2850, 3000, 3000, 2849.9, 3000};
    fleet_judge_figure(b, 5, FLEET_READ_BW_GBPS, &r, out);
    CHECK_EQ_I(out[0].by_pct, 0);
    CHECK_EQ_I(out[3].by_pct, 1);
    /* tight siblings: the 6 % card is far out by the MADs too: both */
    const double c[] = {3000, 3001, 2999, 3000, 2820};
    fleet_judge_figure(c, 5, FLEET_READ_BW_GBPS, &r, out);
    CHECK(!strcmp(fleet_flag_rule(&out[4]), "both"));
    /* a card far above the median: the MAD rule, never the percentage one */
    const double d[] = {3000, 3001, 2999, 3000, 3300};
    fleet_judge_figure(d, 5, FLEET_READ_BW_GBPS, &r, out);
    CHECK(!strcmp(fleet_flag_rule(&out[4]), "mad"));
    /* too few GPUs: nothing judged, by either rule */
    const double e[] = {3000, 2500};
    fleet_judge_figure(e, 2, FLEET_READ_BW_GBPS, &r, out);
    CHECK_EQ_I(out[1].flagged, -1);
    CHECK(isnan(out[1].pct_from_median));
    CHECK(!strcmp(fleet_flag_rule(&out[1]), "-"));
}

static void set_all(fleet_gpu *g, const char *label, const char *name, double dram)
{
    memset(g, 0, sizeof *g);
    snprintf(g->label, sizeof g->label, "%s", label);
    snprintf(g->name, sizeof g->name, "%s", name);
    snprintf(g->uuid, sizeof g->uuid, "-");
    for (int k = 0; k < FLEET_NFIG; k++) g->fig[k].value = NAN;
    g->fig[FLEET_DRAM_LAT_CYCLES].value = dram;
}

static void test_groups(void)
{
    fleet_rule r;
    fleet_rule_default(&r);
    /* two models: every model's GPUs agree among themselves; all six
     * together would make the slower model's GPUs outliers */
    fleet_gpu g[7];
    set_all(&g[0], "a0", "Model A", 680);
    set_all(&g[1], "b0", "Model B", 1000);
    set_all(&g[2], "a1", "Model A", 681);
    set_all(&g[3], "b1", "Model B", 1005);
    set_all(&g[4], "a2", "Model A", 679);
    set_all(&g[5], "b2", "Model B", 1010);
    set_all(&g[6], "a3", "Model A", 680);
    CHECK(fleet_judge(g, 7, &r) == 0);
    for (int i = 0; i < 7; i++) CHECK_EQ_I(g[i].fig[FLEET_DRAM_LAT_CYCLES].flagged, 0);
    CHECK_NEAR(g[0].fig[FLEET_DRAM_LAT_CYCLES].median, 680, 0);
    CHECK_NEAR(g[1].fig[FLEET_DRAM_LAT_CYCLES].median, 1005, 0);
    CHECK_EQ_I(g[3].fig[FLEET_DRAM_LAT_CYCLES].n, 3);
    CHECK_EQ_I(g[3].fig[FLEET_READ_BW_GBPS].flagged, -1);   /* no value anywhere */
    /* pooled as one model, the B GPUs would be far out: grouping matters */
    for (int i = 0; i < 7; i++) snprintf(g[i].name, sizeof g[i].name, "pooled");
    CHECK(fleet_judge(g, 7, &r) == 0);
    for (int i = 0; i < 7; i++) CHECK_EQ_I(g[i].fig[FLEET_DRAM_LAT_CYCLES].flagged, i % 2);
    CHECK(fleet_figure_find("dram_lat_cycles") == FLEET_DRAM_LAT_CYCLES);
    CHECK(fleet_figure_find("overhead_max_pct") == FLEET_OVERHEAD_MAX_PCT);
    CHECK(fleet_figure_find("nope") == -1);
}

/* ------------------------------------------------------------ folders */

static void test_read(void)
{
    char full[300], old[300], empty[300], err[512];
    snprintf(full, sizeof full, "%s/full", TMP);
    snprintf(old, sizeof old, "%s/old", TMP);
    snprintf(empty, sizeof empty, "%s/empty", TMP);
    mk(full), mk(old), mk(empty);

    /* a folder of the current layout: every file there */
    test_put_file(full, "device.tsv", "key\tvalue\ndevice_name\tTest GPU 80GB\n"
                                 "device_uuid\tGPU-1ab6f806-59e0-1d99-da3f-a7d19c88934d\n");
    put_ladder(full, "latency_ca.tsv", 680, 1);
    test_put_file(full, "ceiling.tsv", "# device_name\tTest GPU 80GB\n"
                                  "operation\tbw_GBps\tpct_theoretical\nwrite\t3000.5\t89\nread\t3100.25\t92\n");
    char s[1024];
    snprintf(s, sizeof s, "%sbaseline\t100000000\t4\t800\t1970\tok\nfloat4\t100000000\t4\t2800\t1960\tok\n"
                          "random_access\t100000000\t4\t200\t1975\tok\n", SUMMARY_HEAD);
    test_put_file(full, "readonly_1e8_wpb4.tsv", s);
    snprintf(s, sizeof s, "%sfloat4\t10000000\t4\t9999\t1000\tok\n", SUMMARY_HEAD);
    test_put_file(full, "readonly_1e7_wpb4.tsv", s);   /* a smaller N: not the one read */
    test_put_file(full, "overhead.tsv", "variant\twpb\toverhead_pct\nbaseline\t2\t1.5\nfloat4\t4\t7.25\n"
                                   "float4\t8\tnan\nrandom_access\t4\t-0.5\n");
    fleet_gpu *g = calloc(1, sizeof *g);
    CHECK(fleet_is_results_dir(full) == 1);
    CHECK(fleet_read_gpu(full, "full", g, err, sizeof err) == 0);
    CHECK(!strcmp(g->name, "Test GPU 80GB"));
    CHECK(!strcmp(g->uuid, "GPU-1ab6f806-59e0-1d99-da3f-a7d19c88934d"));
    CHECK(!strcmp(g->name_source, "device.tsv"));
    CHECK_NEAR(g->fig[FLEET_DRAM_LAT_CYCLES].value, 680, 1e-9);
    CHECK_NEAR(g->fig[FLEET_DRAM_LAT_NS].value, 680 / 1.98, 0.006);
    CHECK_NEAR(g->fig[FLEET_L2_NEAR_LAT_CYCLES].value, 276, 1e-9);
    CHECK_NEAR(g->fig[FLEET_L2_FAR_LAT_CYCLES].value, 520, 1e-9);
    CHECK_NEAR(g->fig[FLEET_READ_BW_GBPS].value, 3100.25, 1e-9);
    CHECK_STR_HAS(g->fig[FLEET_READ_BW_GBPS].source, "ceiling.tsv read");
    CHECK_NEAR(g->fig[FLEET_SM_CLOCK_MHZ].value, 1970, 1e-9);    /* median of 1970 1960 1975 */
    CHECK_STR_HAS(g->fig[FLEET_SM_CLOCK_MHZ].source, "readonly_1e8_wpb4.tsv");
    CHECK_NEAR(g->fig[FLEET_OVERHEAD_MAX_PCT].value, 7.25, 1e-9);
    CHECK_STR_HAS(g->fig[FLEET_OVERHEAD_MAX_PCT].source, "float4, WPB 4");
    CHECK_STR_HAS(g->fig[FLEET_DRAM_LAT_CYCLES].source, "DRAM plateau");

    /* an older folder: no device.tsv, ceiling.tsv nor overhead.tsv; the
     * name from a summary's "# device NAME (...)", no ns column */
    snprintf(s, sizeof s, "%sbaseline\t100000000\t4\t800\t1980\tok\nfloat4\t100000000\t4\t2793\t1974\tok\n",
             SUMMARY_HEAD);
    test_put_file(old, "readonly_1e8_wpb4.tsv", s);
    put_ladder(old, "latency_cg.tsv", 700, 0);
    CHECK(fleet_read_gpu(old, "old", g, err, sizeof err) == 0);
    CHECK(!strcmp(g->name, "Test GPU 80GB"));
    CHECK(!strcmp(g->name_source, "latency_cg.tsv"));
    CHECK(!strcmp(g->uuid, "GPU-0badc0de-0000-1111-2222-333344445555"));  /* the ladder's metadata */
    CHECK_NEAR(g->fig[FLEET_DRAM_LAT_CYCLES].value, 700, 1e-9);
    CHECK_STR_HAS(g->fig[FLEET_DRAM_LAT_CYCLES].source, "latency_cg.tsv");
    CHECK(isnan(g->fig[FLEET_DRAM_LAT_NS].value));
    CHECK_STR_HAS(g->fig[FLEET_DRAM_LAT_NS].source, "no ns_per_load");
    CHECK_NEAR(g->fig[FLEET_READ_BW_GBPS].value, 2793, 1e-9);
    CHECK_STR_HAS(g->fig[FLEET_READ_BW_GBPS].source, "float4 (fallback");
    CHECK_NEAR(g->fig[FLEET_SM_CLOCK_MHZ].value, 1977, 1e-9);
    CHECK(isnan(g->fig[FLEET_OVERHEAD_MAX_PCT].value));
    CHECK_STR_HAS(g->fig[FLEET_OVERHEAD_MAX_PCT].source, "no overhead.tsv");

    /* a float4 row that failed its check gives no bandwidth */
    snprintf(s, sizeof s, "%sfloat4\t100000000\t4\t2793\t1974\tFAIL\n", SUMMARY_HEAD);
    test_put_file(old, "readonly_1e8_wpb4.tsv", s);
    CHECK(fleet_read_gpu(old, "old", g, err, sizeof err) == 0);
    CHECK(isnan(g->fig[FLEET_READ_BW_GBPS].value));
    CHECK_STR_HAS(g->fig[FLEET_READ_BW_GBPS].source, "not valid");

    /* not a results folder */
    test_put_file(empty, "notes.txt", "nothing here\n");
    CHECK(fleet_is_results_dir(empty) == 0);
    CHECK(fleet_read_gpu(empty, "empty", g, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "holds no GPU results");
    CHECK(fleet_read_gpu("/nonexistent/x", "x", g, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "not a folder");
    free(g);
}

static void test_write(void)
{
    char out[300], err[512];
    snprintf(out, sizeof out, "%s/out", TMP);
    mk(out);
    fleet_rule r;
    fleet_rule_default(&r);
    fleet_gpu g[4];
    set_all(&g[0], "n-gpu0", "Model A", 680.14);
    set_all(&g[1], "n-gpu1", "Model A", 680.14);
    set_all(&g[2], "n-gpu2", "Model A", 816.17);
    set_all(&g[3], "m-gpu0", "Model B", 689.56);
    snprintf(g[2].fig[FLEET_DRAM_LAT_CYCLES].source, sizeof g[2].fig[0].source, "a\tsource with a tab");
    CHECK(fleet_judge(g, 4, &r) == 0);
    CHECK(fleet_write(out, g, 4, &r, err, sizeof err) == 0);

    char p[400];
    tsv_table t;
    snprintf(p, sizeof p, "%s/fleet.tsv", out);
    CHECK(tsv_read(p, &t, err, sizeof err) == 0);
    CHECK_EQ_U(t.nrow, 4 * FLEET_NFIG);
    const char *cols[] = {"gpu", "name", "figure", "value", "unit", "median", "mad", "distance_mads",
                          "flagged", "uuid", "n", "mad_floor", "source", "note"};
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) CHECK(tsv_col(&t, cols[i]) >= 0);
    CHECK_NEAR(tsv_meta_num(&t, "k_mads"), 3, 0);
    CHECK_STR_HAS(tsv_meta(&t, "rule"), "3 x max(MAD, floor)");
    CHECK_STR_HAS(tsv_meta(&t, "models"), "Model A (3); Model B (1)");
    long row = -1;
    for (size_t i = 0; i < t.nrow; i++)
        if (!strcmp(tsv_get(&t, i, "gpu"), "n-gpu2") && !strcmp(tsv_get(&t, i, "figure"), "dram_lat_cycles"))
            row = (long)i;
    CHECK(row >= 0);
    if (row >= 0) {
        CHECK(!strcmp(tsv_get(&t, (size_t)row, "flagged"), "1"));
        CHECK_NEAR(tsv_num(&t, (size_t)row, "value"), 816.17, 1e-9);
        CHECK_NEAR(tsv_num(&t, (size_t)row, "median"), 680.14, 1e-9);
        CHECK_NEAR(tsv_num(&t, (size_t)row, "distance_mads"), 20.0, 0.01);
        CHECK_NEAR(tsv_num(&t, (size_t)row, "pct_from_median"), 20.0, 0.01);
        CHECK(!strcmp(tsv_get(&t, (size_t)row, "rule"), "mad"));
        CHECK(!strcmp(tsv_get(&t, (size_t)row, "source"), "a source with a tab"));
    }
    long b = tsv_find(&t, "gpu", "m-gpu0", 0);
    CHECK(b >= 0);
    if (b >= 0) CHECK(!strcmp(tsv_get(&t, (size_t)b, "flagged"), "-"));
    if (b >= 0) CHECK(!strcmp(tsv_get(&t, (size_t)b, "rule"), "-"));
    CHECK_NEAR(tsv_meta_num(&t, "pct_below"), 5, 0);
    tsv_free(&t);

    snprintf(p, sizeof p, "%s/fleet_summary.tsv", out);
    CHECK(tsv_read(p, &t, err, sizeof err) == 0);
    CHECK_EQ_U(t.nrow, 4);
    CHECK_NEAR(tsv_meta_num(&t, "flagged_gpus"), 1, 0);
    long s = tsv_find(&t, "gpu", "n-gpu2", 0);
    CHECK(s >= 0 && !strcmp(tsv_get(&t, (size_t)s, "verdict"), "flagged"));
    if (s >= 0) CHECK_STR_HAS(tsv_get(&t, (size_t)s, "flagged_figures"), "dram_lat_cycles +20.0 (mad)");
    s = tsv_find(&t, "gpu", "n-gpu0", 0);
    CHECK(s >= 0 && !strcmp(tsv_get(&t, (size_t)s, "verdict"), "ok"));
    s = tsv_find(&t, "gpu", "m-gpu0", 0);
    CHECK(s >= 0 && !strcmp(tsv_get(&t, (size_t)s, "verdict"), "not judged"));
    tsv_free(&t);

    snprintf(p, sizeof p, "%s/fleet_chart.tsv", out);
    CHECK(tsv_read(p, &t, err, sizeof err) == 0);
    CHECK_EQ_U(t.nrow, 4);                       /* one figure with values, 4 GPUs */
    long c = tsv_find(&t, "gpu", "n-gpu2", 0);
    CHECK(c >= 0);
    if (c >= 0) {
        CHECK_NEAR(tsv_num(&t, (size_t)c, "ratio"), 816.17 / 680.14, 1e-5);
        CHECK_NEAR(tsv_num(&t, (size_t)c, "band_hi"), 680.14 + 3 * 6.8014, 1e-3);
    }
    tsv_free(&t);
    /* no .tmp is left; an output folder that does not exist is an error */
    snprintf(p, sizeof p, "%s/fleet.tsv.tmp", out);
    CHECK(access(p, F_OK) != 0);
    snprintf(p, sizeof p, "%s/missing/dir", out);
    CHECK(fleet_write(p, g, 4, &r, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "cannot write");
}

static void test_find(void)
{
    char root[300], p[400], err[256];
    snprintf(root, sizeof root, "%s/root", TMP);
    mk(root);
    const char *dirs[] = {"node2-gpu1", "node1-gpu0", ".partial-node3", "nested", "nested/deeper",
                          "nested/deeper/gpu5", "notes"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", root, dirs[i]);
        mk(p);
    }
    const char *results[] = {"node2-gpu1", "node1-gpu0", ".partial-node3", "nested/deeper/gpu5"};
    for (size_t i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/%s", root, results[i]);
        put_ladder(p, "latency_ca.tsv", 680, 1);
    }
    /* a logs folder inside a results folder is not looked into */
    snprintf(p, sizeof p, "%s/node1-gpu0/logs_1e6", root);
    mk(p);
    test_put_file(p, "device.tsv", "key\tvalue\n");
    char **d = NULL;
    size_t n = 0;
    CHECK(fleet_find(root, 4, &d, &n, err, sizeof err) == 0);
    CHECK_EQ_U(n, 3);
    if (n == 3) {
        CHECK_STR_HAS(d[0], "/nested/deeper/gpu5");
        CHECK_STR_HAS(d[1], "/node1-gpu0");
        CHECK_STR_HAS(d[2], "/node2-gpu1");
    }
    fleet_free_dirs(d, n);
    CHECK(fleet_find(root, 1, &d, &n, err, sizeof err) == 0);   /* too shallow for gpu5 */
    CHECK_EQ_U(n, 2);
    fleet_free_dirs(d, n);
    /* the root itself a results folder */
    snprintf(p, sizeof p, "%s/node1-gpu0", root);
    CHECK(fleet_find(p, 4, &d, &n, err, sizeof err) == 0);
    CHECK_EQ_U(n, 1);
    fleet_free_dirs(d, n);
    CHECK(fleet_find("/nonexistent/root", 4, &d, &n, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "cannot list");
}

static void test_key(void)
{
    char k[128];
    CHECK(fleet_gpu_key(k, sizeof k, 0, "GPU-1ab6f806-59e0-1d99-da3f-a7d19c88934d", "NVIDIA H100 80GB HBM3") == 0);
    CHECK(!strcmp(k, "gpu0-1ab6f806-nvidia-h100-80gb-hbm3"));
    CHECK(fleet_gpu_key(k, sizeof k, 3, "-", "NVIDIA H200") == 0);
    CHECK(!strcmp(k, "gpu3-nouuid-nvidia-h200"));
    CHECK(fleet_gpu_key(k, sizeof k, 3, NULL, "NVIDIA H200") == 0);
    CHECK(!strcmp(k, "gpu3-nouuid-nvidia-h200"));
    CHECK(fleet_gpu_key(k, sizeof k, 0, "-", "") == -1);
    CHECK(fleet_gpu_key(k, 10, 0, "-", "NVIDIA H200") == -1);
}

int main(void)
{
    snprintf(TMP, sizeof TMP, "%s/test_fleet.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(TMP)) {
        perror("mkdtemp");
        return 1;
    }
    test_median_mad();
    test_rule();
    test_below();
    test_groups();
    test_read();
    test_write();
    test_find();
    test_key();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", TMP);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", TMP);
    return check_report("test_fleet");
}
