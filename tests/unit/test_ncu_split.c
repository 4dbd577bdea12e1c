/*
 * test_ncu_split - one batch's table and ncu launches split per recipe run
 * (ncu_split.h): each launch's line by the join's rule (k-th clean row of a
 * kernel, two launches per row, a row's own kernel_fn, a FAILED row, a
 * launch no row claims), and the files written per run.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "ncu_split.h"
#include "testtable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Three lines: line 1 strides 1 and 2, line 2 stride 4 (FAILED) and 8,
 * line 3 a batch kernel of its own. */
static const char RUNS[] =
    "# device\tX (sm_90, 132 SMs)\n"
    "kernel\tconfig\tn\twarps_per_block\tvalid\tkernel_fn\tbatch_line\n"
    "stride\tstride=1\t1024\t4\tok\t-\t1\n"
    "stride\tstride=2\t1024\t4\tok\t-\t1\n"
    "stride\tstride=4\t1024\t4\tFAIL\t-\t2\n"
    "stride\tstride=8\t1024\t4\tok\t-\t2\n"
    "batch\tbatch=4\t1024\t4\tok\tcopy_batch_b4\t3\n";

static void test_assign(void)
{
    char err[256];
    long line[8];
    tsv_table runs = test_table(RUNS);
    /* one launch per clean row; an extra batch launch stays on line 3 */
    tsv_table ncu = test_table("kernel\tid\n"
                               "copy_stride(float*)\t0\ncopy_stride(float*)\t1\n"
                               "copy_stride(float*)\t2\ncopy_batch_b4\t3\ncopy_batch_b4\t4\n");
    CHECK_EQ_I(sns_assign(&runs, &ncu, "copy", line, err, sizeof err), 0);
    CHECK_EQ_I(line[0], 1);
    CHECK_EQ_I(line[1], 1);
    CHECK_EQ_I(line[2], 2);   /* the third clean stride row is stride=8, line 2 */
    CHECK_EQ_I(line[3], 3);
    CHECK_EQ_I(line[4], 3);   /* claimed by no row: the line before it */
    tsv_free(&ncu);
    /* two launches per clean row (validation, then the timed one) */
    ncu = test_table("kernel\tid\n"
                     "copy_stride\t0\ncopy_stride\t1\ncopy_stride\t2\ncopy_stride\t3\n"
                     "copy_stride\t4\ncopy_stride\t5\n");
    CHECK_EQ_I(sns_assign(&runs, &ncu, "copy", line, err, sizeof err), 0);
    CHECK(line[0] == 1 && line[1] == 1 && line[2] == 1 && line[3] == 1);
    CHECK(line[4] == 2 && line[5] == 2);
    tsv_free(&ncu);
    /* a launch before any claimed one has no line */
    ncu = test_table("kernel\tid\nother_kernel\t0\ncopy_stride\t1\n");
    CHECK_EQ_I(sns_assign(&runs, &ncu, "copy", line, err, sizeof err), 0);
    CHECK(line[0] == 0 && line[1] == 1);
    tsv_free(&ncu);
    tsv_free(&runs);
    /* a table that is not a batch's */
    runs = test_table("kernel\tconfig\nstride\tstride=1\n");
    ncu = test_table("kernel\tid\ncopy_stride\t0\n");
    CHECK_EQ_I(sns_assign(&runs, &ncu, "copy", line, err, sizeof err), -1);
    CHECK_STR_HAS(err, "no batch_line column");
    tsv_free(&ncu);
    tsv_free(&runs);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void get(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    buf[0] = 0;
    CHECK(f != NULL);
    if (f) {
        buf[fread(buf, 1, len - 1, f)] = 0;
        fclose(f);
    }
}

static void test_split(void)
{
    char dir[] = "/tmp/test_ncu_split.XXXXXX", p[3][512], out[4096], err[512];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(p[0], sizeof p[0], "%s/recipe.tsv", dir);
    snprintf(p[1], sizeof p[1], "%s/runs.tsv", dir);
    snprintf(p[2], sizeof p[2], "%s/ext.tsv", dir);
    put(p[0], "# kernel_regex\t(^copy_stride$)|(^copy_batch)\n"
              "run\targs\tkernel\tl2_fetch\tcompare\toutput\tline\n"
              "a\t-\t^copy_stride$\t-\t--family copy\tsectors\t1\n"
              "b\t-\t^copy_stride$\t-\t--family copy\tsectors\t2\n"
              "c\t-\t^copy_batch\t-\t--family copy\tpool\t3\n");
    put(p[1], RUNS);
    put(p[2], "kernel\tid\tm\n"
              "copy_stride\t0\t10\ncopy_stride\t1\t20\ncopy_stride\t2\t30\ncopy_batch_b4\t3\t40\n");
    CHECK_EQ_I(sns_split(p[0], p[1], p[2], "copy", dir, err, sizeof err), 0);
    char f[600];
    snprintf(f, sizeof f, "%s/a_runs.tsv", dir);
    get(f, out, sizeof out);
    CHECK(strcmp(out, "# device\tX (sm_90, 132 SMs)\n"
                      "kernel\tconfig\tn\twarps_per_block\tvalid\tkernel_fn\tbatch_line\n"
                      "stride\tstride=1\t1024\t4\tok\t-\t1\n"
                      "stride\tstride=2\t1024\t4\tok\t-\t1\n") == 0);
    snprintf(f, sizeof f, "%s/a.tsv", dir);
    get(f, out, sizeof out);
    CHECK(strcmp(out, "kernel\tid\tm\ncopy_stride\t0\t10\ncopy_stride\t1\t20\n") == 0);
    snprintf(f, sizeof f, "%s/b_runs.tsv", dir);
    get(f, out, sizeof out);
    CHECK_STR_HAS(out, "stride\tstride=4\t1024\t4\tFAIL\t-\t2\nstride\tstride=8\t1024\t4\tok\t-\t2\n");
    snprintf(f, sizeof f, "%s/b.tsv", dir);
    get(f, out, sizeof out);
    CHECK(strcmp(out, "kernel\tid\tm\ncopy_stride\t2\t30\n") == 0);
    snprintf(f, sizeof f, "%s/c.tsv", dir);
    get(f, out, sizeof out);
    CHECK(strcmp(out, "kernel\tid\tm\ncopy_batch_b4\t3\t40\n") == 0);
    /* a run whose line has no row: refused, said */
    put(p[0], "run\targs\tkernel\tl2_fetch\tcompare\toutput\tline\n"
              "d\t-\t^copy_stride$\t-\t--family copy\tsectors\t9\n");
    CHECK_EQ_I(sns_split(p[0], p[1], p[2], "copy", dir, err, sizeof err), -1);
    CHECK_STR_HAS(err, "no row of line 9");
    const char *names[] = { "a_runs.tsv", "a.tsv", "b_runs.tsv", "b.tsv", "c_runs.tsv", "c.tsv" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(f, sizeof f, "%s/%s", dir, names[i]);
        unlink(f);
    }
    for (int i = 0; i < 3; i++)
        unlink(p[i]);
    CHECK_EQ_I(rmdir(dir), 0);   /* nothing else was left (no temporaries) */
}

int main(void)
{
    test_assign();
    test_split();
    return check_report("test_ncu_split");
}
