/* test_tsv.c - the one table reader: columns by name, metadata, errors. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "check.h"
#include "tsv.h"

static int parse(const char *text, tsv_table *t, char *err, size_t n)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    int rc = tsv_parse(f, "t.tsv", t, err, n);
    fclose(f);
    return rc;
}

int main(void)
{
    tsv_table t;
    char err[256];
    const char *good =
        "# device\tNVIDIA H100 80GB HBM3 (sm_90, 132 SMs)\n"
        "# peak_dram_GBps\t3352.3 (memory clock 2619 MHz x 5120-bit bus x 2)\n"
        "# a free comment, no key\n"
        "# sm_count\t132\n"
        "kernel\tlat_p5_cycles\tlat_p50_cycles\tvalid\r\n"
        "\n"
        "baseline\t680\t1016\tok\n"
        "# a comment between rows\n"
        "random_access\t700\tnan\tok\n";
    CHECK(parse(good, &t, err, sizeof err) == 0);
    CHECK_EQ_U(t.ncol, 4);
    CHECK_EQ_U(t.nrow, 2);
    /* by name, never by position: p50 is not p5 */
    CHECK_NEAR(tsv_num(&t, 0, "lat_p50_cycles"), 1016, 0);
    CHECK_NEAR(tsv_num(&t, 0, "lat_p5_cycles"), 680, 0);
    CHECK(isnan(tsv_num(&t, 1, "lat_p50_cycles")));
    CHECK(isnan(tsv_num(&t, 0, "nope")));
    CHECK(tsv_get(&t, 0, "valid") && !strcmp(tsv_get(&t, 0, "valid"), "ok")); /* \r stripped */
    CHECK(tsv_get(&t, 2, "valid") == NULL);
    CHECK_EQ_I(tsv_find(&t, "kernel", "random_access", 0), 1);
    CHECK_EQ_I(tsv_find(&t, "kernel", "float4", 0), -1);
    CHECK_NEAR(tsv_meta_num(&t, "sm_count"), 132, 0);
    CHECK(isnan(tsv_meta_num(&t, "peak_dram_GBps")));          /* words follow */
    CHECK_NEAR(tsv_meta_lead_num(&t, "peak_dram_GBps"), 3352.3, 1e-9);
    CHECK_EQ_U(t.ncomment, 2);
    tsv_free(&t);

    /* one batch's table split per line: the '#' lines and the header kept,
     * only that line's rows, in order; a column it lacks is -1 */
    const char *batch =
        "# batch\t/tmp/b.batch (2 runs)\n"
        "# device\tX (sm_90)\n"
        "# peak_dram_GBps\t3352.3 (words)\n"
        "# peak_dram_GBps\t3352.3\n"
        "kernel\twarps_per_block\tbatch_line\n"
        "baseline\t2\t1\n"
        "float4\t2\t1\n"
        "baseline\t4\t12\n"
        "float4\t4\t12\n";
    CHECK(parse(batch, &t, err, sizeof err) == 0);
    char *out = NULL;
    size_t outlen = 0;
    FILE *mf = open_memstream(&out, &outlen);
    CHECK_EQ_I(tsv_write_where(mf, &t, "batch_line", "12"), 2);
    fclose(mf);
    CHECK(!strcmp(out, "# batch\t/tmp/b.batch (2 runs)\n# device\tX (sm_90)\n"
                       "# peak_dram_GBps\t3352.3 (words)\n# peak_dram_GBps\t3352.3\n"
                       "kernel\twarps_per_block\tbatch_line\n"
                       "baseline\t4\t12\nfloat4\t4\t12\n"));
    free(out);
    /* "1" is not a prefix match of "12"; no row: the header alone */
    mf = open_memstream(&out, &outlen);
    CHECK_EQ_I(tsv_write_where(mf, &t, "batch_line", "1"), 2);
    CHECK_EQ_I(tsv_write_where(mf, &t, "batch_line", "3"), 0);
    fclose(mf);
    CHECK_STR_HAS(out, "baseline\t2\t1\nfloat4\t2\t1\n#");
    free(out);
    mf = open_memstream(&out, &outlen);
    CHECK_EQ_I(tsv_write_where(mf, &t, "nope", "1"), -1);
    fclose(mf);
    CHECK_EQ_U(outlen, 0);
    free(out);
    /* the written table reads back as the same table, less the other rows */
    mf = open_memstream(&out, &outlen);
    tsv_write_where(mf, &t, "batch_line", "1");
    fclose(mf);
    tsv_table back;
    CHECK(parse(out, &back, err, sizeof err) == 0);
    CHECK_EQ_U(back.nrow, 2);
    CHECK_EQ_U(back.nmeta, 4);
    CHECK(!strcmp(tsv_meta(&back, "device"), "X (sm_90)"));
    CHECK(!strcmp(tsv_get(&back, 1, "kernel"), "float4"));
    tsv_free(&back);
    free(out);
    tsv_free(&t);

    /* numbers: only whole decimal numbers */
    CHECK(isnan(tsv_parse_num("inf")));
    CHECK(isnan(tsv_parse_num("1e999")));
    CHECK(isnan(tsv_parse_num("12 GB/s")));
    CHECK(isnan(tsv_parse_num("-")));
    CHECK_NEAR(tsv_parse_num("-1.5e3"), -1500, 0);

    /* errors name the file and line */
    CHECK(parse("a\tb\n1\t2\t3\n", &t, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "t.tsv:2: 3 fields where the header has 2");
    CHECK(parse("# only\tmeta\n", &t, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "no header row");
    CHECK(parse("a\ta\n", &t, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "'a' appears twice");
    CHECK(parse("", &t, err, sizeof err) == -1);
    CHECK(tsv_read("/nonexistent/x.tsv", &t, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "cannot open /nonexistent/x.tsv");
    char nul[] = "a\tb\n1\0\t2\n";
    FILE *f = fmemopen(nul, sizeof nul - 1, "r");
    CHECK(tsv_parse(f, "nul.tsv", &t, err, sizeof err) == -1);
    fclose(f);
    CHECK_STR_HAS(err, "NUL byte");

    /* a header of 400000 distinct names (the duplicate check was quadratic:
     * minutes), then the same with one repeated at the far end */
    enum { NC = 400000 };
    char *wide = malloc((size_t)NC * 8 + 16);
    size_t k = 0;
    for (int i = 0; i < NC; i++) k += (size_t)sprintf(wide + k, "%s%x", i ? "\t" : "", i);
    strcpy(wide + k, "\n");
    CHECK(parse(wide, &t, err, sizeof err) == 0);
    CHECK_EQ_U(t.ncol, NC);
    tsv_free(&t);
    strcpy(wide + k, "\t0\n");
    CHECK(parse(wide, &t, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "t.tsv:1: the column '0' appears twice");
    free(wide);
    /* more fields than TSV_MAX_FIELDS is not a table of ours */
    size_t big = (size_t)TSV_MAX_FIELDS + 8;
    char *tabs = malloc(2 * big + 2);
    for (k = 0; k < 2 * big; k += 2) tabs[k] = 'a', tabs[k + 1] = '\n';
    tabs[2 * big] = 0;
    CHECK(parse(tabs, &t, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "more than 4194304 fields");
    free(tabs);
    return check_report("test_tsv");
}
