/*
 * test_tsvscale.c - a table copied with columns scaled (src/lib/tsvscale.c):
 * the decimals kept, an exponent as %.6g, the rows from a value on, the
 * "# scaled" line above the header, and each error with its line.
 */
#define _GNU_SOURCE /* fmemopen, open_memstream */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tsvscale.h"

static char OUT[4096];

static int run(const char *text, const char *cols, double f, const char *from, double v, long *rows,
               char *err, size_t errlen)
{
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    FILE *out = fmemopen(OUT, sizeof OUT, "w");
    CHECK(in && out);
    if (!in || !out) return -2;
    const tsvscale_spec s = {cols, f, from, v};
    const int rc = tsvscale_copy(in, "t.tsv", out, &s, rows, err, errlen);
    fclose(in);
    fclose(out);
    return rc;
}

int main(void)
{
    char err[300];
    long rows = -1;
    CHECK_EQ_I(run("# device\tX\nwpb\tbw_GBps\tlat\n1\t680.14\t1e3\n4\t2000.5\t5\n", "bw_GBps,lat", 0.5,
                   NULL, 0, &rows, err, sizeof err), 0);
    CHECK_EQ_I(rows, 2);
    CHECK(strcmp(OUT, "# device\tX\n"
                      "# scaled\tbw_GBps,lat x 0.5 by tsv_scale: test data, not a measurement\n"
                      "wpb\tbw_GBps\tlat\n1\t340.07\t500\n4\t1000.2\t2\n") == 0); /* 2.5 with no decimals: 2 */
    /* rows from wpb 4 on only: 1000.25 keeps its 2 decimals */
    CHECK_EQ_I(run("wpb\tbw\n1\t10.00\n4\t2000.50\n", "bw", 0.5, "wpb", 4, &rows, err, sizeof err), 0);
    CHECK_EQ_I(rows, 1);
    CHECK_STR_HAS(OUT, "in the rows with wpb >= 4 by tsv_scale");
    CHECK_STR_HAS(OUT, "\n1\t10.00\n4\t1000.25\n");
    /* errors */
    CHECK_EQ_I(run("wpb\tbw\n1\t10\n", "nope", 2, NULL, 0, &rows, err, sizeof err), -1);
    CHECK_STR_HAS(err, "t.tsv has no column 'nope'");
    CHECK_EQ_I(run("wpb\tbw\n1\t10\n", "bw", 2, "gone", 1, &rows, err, sizeof err), -1);
    CHECK_STR_HAS(err, "no column 'gone' (--rows-from)");
    CHECK_EQ_I(run("wpb\tbw\n1\tfast\n", "bw", 2, NULL, 0, &rows, err, sizeof err), -1);
    CHECK_STR_HAS(err, "t.tsv:2: 'fast' is not a number");
    CHECK_EQ_I(run("wpb\tbw\n1\t2\t3\n", "bw", 2, NULL, 0, &rows, err, sizeof err), -1);
    CHECK_STR_HAS(err, "t.tsv:2: 3 fields, the header has 2");
    CHECK_EQ_I(run("wpb\tbw\nx\t2\n", "bw", 2, "wpb", 1, &rows, err, sizeof err), -1);
    CHECK_STR_HAS(err, "wpb 'x' is not a number");
    CHECK_EQ_I(run("# only\n\n", "bw", 2, NULL, 0, &rows, err, sizeof err), -1);
    CHECK_STR_HAS(err, "t.tsv has no header row");
    return check_report("test_tsvscale");
}
