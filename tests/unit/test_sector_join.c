/*
 * test_sector_join - a family's run joined with its ncu profile
 * (sector_join.h): the columns of each measure, the k-th row with the k-th
 * launch, a row's own kernel_fn, two launches per row, FAILED rows, the
 * measured values, and the launches no row claims.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "sector_join.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A table from text. */
static int table(const char *text, tsv_table *t)
{
    char err[256];
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    if (!f)
        return -1;
    int rc = tsv_parse(f, "t.tsv", t, err, sizeof err);
    fclose(f);
    return rc;
}

static const char RUNS[] =
    "# device\tX (sm_90, 132 SMs)\n"
    "kernel\tconfig\tn\twarps_per_block\tvalid\tkernel_fn\n"
    "stride\tstride=1\t1024\t4\tOK\t-\n"
    "stride\tstride=2\t1024\t4\tOK\t-\n"
    "stride\tstride=4\t1024\t4\tFAIL\t-\n"
    "stride\tstride=8\t1024\t4\tOK\t-\n"
    "batch\tbatch=4\t1024\t4\tOK\tcopy_batch_unrolled_b4\n";

static const char NCU[] =
    "kernel\tid\tl1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\tdram__sectors_read.sum\n"
    "copy_stride(float*)\t0\t10\t100\n"
    "copy_stride(float*)\t1\t20\t200\n"
    "copy_stride(float*)\t2\t30\t300\n"
    "copy_batch_unrolled_b4\t3\t40\t400\n"
    "copy_stride\t4\t50\t500\n"
    "copy_other\t5\t60\t600\n";

static void test_columns(void)
{
    tsv_table ncu;
    CHECK(table(NCU, &ncu) == 0);
    int col[SFM_NMEASURES][2];
    char absent[4096];
    sj_columns(&ncu, SF_MSET_LOADS | SF_MSET_FULL, col, absent, sizeof absent);
    CHECK_EQ_I(col[SFM_REQUESTS][SF_LD], 2);
    CHECK_EQ_I(col[SFM_REQUESTS][SF_ST], -1);
    CHECK_EQ_I(col[SFM_TIME][0], -1);
    CHECK_STR_HAS(absent, "gpu__time_duration.sum");
    CHECK_STR_HAS(absent, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
    CHECK(strstr(absent, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == NULL);
    CHECK(strstr(absent, "l1tex__data_pipe_lsu_wavefronts") == NULL); /* optional */
    /* no room for the list: nothing written */
    char none[1] = { 'x' };
    sj_columns(&ncu, SF_MSET_LOADS, col, none, 0);
    CHECK(none[0] == 'x');
    tsv_free(&ncu);
}

static void test_pair(void)
{
    tsv_table runs, ncu;
    CHECK(table(RUNS, &runs) == 0);
    CHECK(table(NCU, &ncu) == 0);
    sj_pairing pa;
    /* row 1 (stride=2): the second clean row of stride, the second launch */
    sj_pair(&runs, &ncu, "copy", "stride", 1, &pa);
    CHECK(strcmp(pa.want, "copy_stride") == 0);
    CHECK_EQ_U(pa.k, 1);
    CHECK_EQ_U(pa.kth, 1);
    CHECK_EQ_I(pa.hit, 1);
    CHECK(!pa.failed && !pa.twice);
    /* row 2 FAILED: no launch */
    sj_pair(&runs, &ncu, "copy", "stride", 2, &pa);
    CHECK(pa.failed);
    CHECK_EQ_I(pa.hit, -1);
    /* row 3: the third clean row (the FAILED one does not count) */
    sj_pair(&runs, &ncu, "copy", "stride", 3, &pa);
    CHECK_EQ_U(pa.k, 2);
    CHECK_EQ_I(pa.hit, 2);
    /* row 4 has a kernel of its own */
    sj_pair(&runs, &ncu, "copy", "batch", 4, &pa);
    CHECK(strcmp(pa.want, "copy_batch_unrolled_b4") == 0);
    CHECK_EQ_I(pa.hit, 3);
    sf_measured m;
    int col[SFM_NMEASURES][2];
    char absent[4096];
    sj_columns(&ncu, SF_MSET_LOADS | SF_MSET_FULL, col, absent, sizeof absent);
    sj_measured(&ncu, col, pa.hit, &m);
    CHECK_NEAR(m.v[SFM_REQUESTS][SF_LD], 40, 0);
    CHECK_NEAR(m.v[SFM_DRAM][SF_LD], 400, 0);
    CHECK(isnan(m.v[SFM_TIME][0]));
    sj_measured(&ncu, col, -1, &m);
    CHECK(isnan(m.v[SFM_REQUESTS][SF_LD]));
    sj_measured(&ncu, col, 99, &m); /* past the table: nothing */
    CHECK(isnan(m.v[SFM_REQUESTS][SF_LD]));
    /* a variant with no launch at all */
    sj_pair(&runs, &ncu, "copy", "nothing", 0, &pa);
    CHECK_EQ_I(pa.hit, -1);
    tsv_free(&runs);
    tsv_free(&ncu);
}

/* Two launches per clean row: each row takes the second of its two. */
static void test_twice(void)
{
    tsv_table runs, ncu;
    CHECK(table("kernel\tconfig\nv\ta=1\nv\ta=2\n", &runs) == 0);
    CHECK(table("kernel\tid\nf_v\t0\nf_v\t1\nf_v\t2\nf_v\t3\n", &ncu) == 0);
    sj_pairing pa;
    sj_pair(&runs, &ncu, "f", "v", 0, &pa);
    CHECK(pa.twice);
    CHECK_EQ_U(pa.kth, 1);
    CHECK_EQ_I(pa.hit, 1);
    sj_pair(&runs, &ncu, "f", "v", 1, &pa);
    CHECK_EQ_I(pa.hit, 3);
    char k[64] = "";
    CHECK_EQ_U(sj_unclaimed(&runs, &ncu, "f", 0, k, sizeof k), ncu.nrow);
    tsv_free(&runs);
    tsv_free(&ncu);
}

static void test_unclaimed(void)
{
    tsv_table runs, ncu;
    CHECK(table(RUNS, &runs) == 0);
    CHECK(table(NCU, &ncu) == 0);
    char k[64] = "";
    /* three clean rows of stride, four launches: the fourth (row 4) is extra;
     * copy_batch_unrolled_b4 is claimed by the row whose kernel_fn it is */
    CHECK_EQ_U(sj_unclaimed(&runs, &ncu, "copy", 0, k, sizeof k), 4);
    CHECK(strcmp(k, "copy_stride") == 0);
    /* copy_other has no row at all: its first launch is extra */
    CHECK_EQ_U(sj_unclaimed(&runs, &ncu, "copy", 5, k, sizeof k), 5);
    CHECK(strcmp(k, "copy_other") == 0);
    CHECK_EQ_U(sj_unclaimed(&runs, &ncu, "copy", 6, k, sizeof k), 6);
    /* another family's launches are not this one's */
    CHECK_EQ_U(sj_unclaimed(&runs, &ncu, "cop", 0, k, sizeof k), 6);
    tsv_free(&runs);
    tsv_free(&ncu);
}

/* A table without the columns the join reads: no crash, no pairing. */
static void test_bare(void)
{
    tsv_table runs, ncu;
    CHECK(table("x\n1\n", &runs) == 0);
    CHECK(table("y\n1\n", &ncu) == 0);
    sj_pairing pa;
    sj_pair(&runs, &ncu, "copy", "stride", 0, &pa);
    CHECK_EQ_I(pa.hit, -1);
    CHECK(!pa.failed);
    char k[8];
    CHECK_EQ_U(sj_unclaimed(&runs, &ncu, "copy", 0, k, sizeof k), 1);
    tsv_free(&runs);
    tsv_free(&ncu);
}

int main(void)
{
    test_columns();
    test_pair();
    test_twice();
    test_unclaimed();
    test_bare();
    return check_report("test_sector_join");
}
