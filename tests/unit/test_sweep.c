/*
 * test_sweep - the occupancy-sweep TSV reader (src/lib/sweep.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lines.h"
#include "sweep.h"

static int parse(const char *text, sweep *s, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    int rc = sweep_parse(f, "t.tsv", s, err, errlen);
    fclose(f);
    return rc;
}

static void test_good(void)
{
    /* Reordered columns, an unknown one, missing ones, nan, CRLF, blanks. */
    const char *t =
        "# device_name\tNVIDIA H100 80GB HBM3\n"
        "# a plain comment without a tab\n"
        "# sm_count\t132\r\n"
        "# peak_dram_GBps\t3352.32\n"
        "\n"
        "bw_GBps\twho_knows\twarps_per_sm\tlog\tlat_p50_cycles\r\n"
        "100.5\tzz\t4\tdata/x_1.bin\t620\n"
        "nan\tzz\t8\t-\t\n"
        "# sm_clock_measured_MHz\t1755\n"
        "  \n"
        "1e3\t\t64\tdata/x_16.bin\tNaN\n";
    sweep s;
    char err[256] = "";
    CHECK_EQ_I(parse(t, &s, err, sizeof err), 0);
    CHECK_EQ_U(s.npoints, 3);
    CHECK_EQ_U(s.nmeta, 4);
    CHECK(sweep_meta_get(&s, "device_name") && !strcmp(sweep_meta_get(&s, "device_name"),
                                                       "NVIDIA H100 80GB HBM3"));
    CHECK_NEAR(sweep_meta_num(&s, "sm_count"), 132, 0);
    CHECK_NEAR(sweep_meta_num(&s, "peak_dram_GBps"), 3352.32, 1e-12);
    CHECK_NEAR(sweep_meta_num(&s, "sm_clock_measured_MHz"), 1755, 0);
    CHECK(isnan(sweep_meta_num(&s, "device_name")));
    CHECK(isnan(sweep_meta_num(&s, "absent")));
    CHECK(sweep_has_column(&s, "bw_GBps"));
    CHECK(sweep_has_column(&s, "lat_p50_cycles"));
    CHECK(!sweep_has_column(&s, "lat_mean_cycles"));
    CHECK_NEAR(s.points[0].bw_GBps, 100.5, 0);
    CHECK_NEAR(s.points[0].warps_per_sm, 4, 0);
    CHECK_NEAR(s.points[0].lat_p50_cycles, 620, 0);
    CHECK(!strcmp(s.points[0].log, "data/x_1.bin"));
    CHECK(isnan(s.points[0].lat_mean_cycles)); /* absent column */
    CHECK(isnan(s.points[1].bw_GBps));
    CHECK(isnan(s.points[1].lat_p50_cycles));  /* empty field */
    CHECK_NEAR(s.points[2].bw_GBps, 1000, 0);
    CHECK_NEAR(s.points[2].warps_per_sm, 64, 0);
    CHECK(isnan(s.points[2].lat_p50_cycles));
    sweep_free(&s);
    CHECK_EQ_U(s.npoints, 0);
}

static void test_bad(void)
{
    sweep s;
    char err[256];
    CHECK_EQ_I(parse("warps_per_sm\tbw_GBps\n4\t100\n8\n", &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "t.tsv:3: 1 fields, but the header row has 2");
    CHECK_EQ_U(s.npoints, 0);
    CHECK_EQ_I(parse("warps_per_sm\tbw_GBps\n4\t100x\n", &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "t.tsv:2: column bw_GBps: \"100x\" is not a number");
    CHECK_EQ_I(parse("# sm_count\t132\n", &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "no header row");
    CHECK_EQ_I(parse("bw_GBps\tbw_GBps\n1\t2\n", &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "column bw_GBps appears twice");
    CHECK_EQ_I(sweep_read("/nonexistent/sweep.tsv", &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "cannot open /nonexistent/sweep.tsv");
    /* strtod alone reads these as numbers: inf made an infinite bound */
    const char *notnum[] = {"inf", "-inf", "infinity", "1e400", "0x10", "nan(1)", "1e5x"};
    for (size_t i = 0; i < sizeof notnum / sizeof notnum[0]; i++) {
        char t[128];
        snprintf(t, sizeof t, "warps_per_sm\tbw_GBps\n4\t%s\n", notnum[i]);
        CHECK_EQ_I(parse(t, &s, err, sizeof err), -1);
        CHECK_STR_HAS(err, "is not a number");
    }
    CHECK_EQ_I(parse("# peak_dram_GBps\tinf\nwarps_per_sm\n4\n", &s, err, sizeof err), 0);
    CHECK(isnan(sweep_meta_num(&s, "peak_dram_GBps")));
    sweep_free(&s);
    CHECK_EQ_I(parse("warps_per_sm\tbw_GBps\n4\t-\n5\tNaN\n6\t\n", &s, err, sizeof err), 0);
    CHECK_EQ_U(s.npoints, 3);
    sweep_free(&s);
}

/* A file cannot make the reader hold more than the bounds of sweep.h. */
static void test_bounds(void)
{
    sweep s;
    char err[256];
    size_t n = (size_t)SWEEP_MAX_POINTS * 2 + 64;
    char *t = malloc(n + 32);
    size_t k = (size_t)snprintf(t, 32, "warps_per_sm\n");
    while (k < n) t[k++] = '\n', t[k++] = '1';
    t[k] = 0;
    CHECK_EQ_I(parse(t, &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "more than 65536 points");
    for (k = 0; k < n; k += 2) t[k] = 'a', t[k + 1] = '\t';
    t[n] = 0;
    CHECK_EQ_I(parse(t, &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "more than 4096 columns");
    free(t);
    t = malloc(LINES_MAX_BYTES + 16);
    memset(t, 'x', LINES_MAX_BYTES + 8);
    t[LINES_MAX_BYTES + 8] = 0;
    CHECK_EQ_I(parse(t, &s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "t.tsv:1: a line longer than 1048576 bytes");
    free(t);
}

/* The committed fixture that the golden tests also use, when run from the
 * repository root (as tests/run.sh does). */
static void test_fixture(void)
{
    sweep s;
    char err[256];
    FILE *probe = fopen("tests/fixtures/post/sweep_baseline_4.tsv", "r");
    if (!probe) return;
    fclose(probe);
    CHECK_EQ_I(sweep_read("tests/fixtures/post/sweep_baseline_4.tsv", &s, err, sizeof err), 0);
    CHECK_EQ_U(s.npoints, 5);
    CHECK_NEAR(sweep_meta_num(&s, "bytes_per_warp_load"), 128, 0);
    CHECK_NEAR(s.points[3].warps_per_sm, 32, 0);
    CHECK(isnan(s.points[3].bw_GBps_min));
    CHECK(isnan(s.points[4].dram_read_GBps));
    CHECK(!strcmp(s.points[4].log, "-"));
    sweep_free(&s);
}

int main(void)
{
    test_good();
    test_bad();
    test_fixture();
    test_bounds();
    return check_report("test_sweep");
}
