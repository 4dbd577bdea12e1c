/*
 * test_model_tol - the judged rule of issue 36 (model_tol.h): the tolerance
 * is the largest of 5 % of the median, twice the spread and 0.1 % of the L1
 * sectors, a tie going to the first; the median of the runs; a row judged
 * over three runs (the expected count, the source of each tolerance, the
 * strict verdict beside it, a draw with no run); the counts and summary; the
 * worst rows; the seeds of a commit; the atomics draws and comparison
 * (src/families/atomics/atomics_check.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "../../src/families/atomics/atomics_check.h"
#include "model_check.h"
#include "model_tol.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int table(const char *text, tsv_table *t)
{
    char err[256];
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    if (!f) return -1;
    int rc = tsv_parse(f, "t.tsv", t, err, sizeof err);
    fclose(f);
    return rc;
}

static void test_tolerance(void)
{
    mt_src s;
    /* 5 % of 1000 = 50 beats 2 x 10 and 0.1 % of 20000 */
    CHECK_NEAR(mt_tolerance(1000, 10, 20000, &s), 50, 1e-9);
    CHECK_EQ_I(s, MT_PCT);
    /* the spread: 2 x 40 = 80 > 50 */
    CHECK_NEAR(mt_tolerance(1000, 40, 20000, &s), 80, 1e-9);
    CHECK_EQ_I(s, MT_SPREAD);
    /* the allowance: 0.1 % of 1e6 = 1000 > 50, > 80 */
    CHECK_NEAR(mt_tolerance(1000, 40, 1e6, &s), 1000, 1e-9);
    CHECK_EQ_I(s, MT_ALLOW);
    /* a tie goes to the first: 2 x 25 = 50 = 5 % of 1000 */
    CHECK_NEAR(mt_tolerance(1000, 25, 0, &s), 50, 1e-9);
    CHECK_EQ_I(s, MT_PCT);
    /* NAN spread and sectors count as 0; a median of 0 gives 0 */
    CHECK_NEAR(mt_tolerance(0, NAN, NAN, &s), 0, 1e-9);
    CHECK_EQ_I(s, MT_PCT);
    CHECK(!strcmp(mt_src_name(MT_SPREAD), "spread") && !strcmp(mt_src_name(MT_EXACT), "exact"));
    CHECK(!strcmp(mt_quantity(MT_Q_L2_REQUESTS), "l2_requests"));
    double v[] = {5, 1, 3}, w[] = {4, 1, 3, 2};
    CHECK_NEAR(mt_median(v, 3), 3, 1e-12);
    CHECK_NEAR(mt_median(w, 4), 2.5, 1e-12);
}

/* Three runs of one batch: two launches (ld rows), the second draw's run
 * missing.  Row 1: L2 requests predicted 1000, measured 900, 960, 1000
 * (median 960, spread 100: tolerance 200 from the spread, agrees; 5 % of
 * 960 = 48 alone would not); its strict verdict: wide_bound.  Row 2: L2
 * sectors predicted 4000, measured 4300 in every run (tolerance 5 % of 4300
 * = 215 < 300: fails). */
#define CMP_HEAD "family\tvariant\tconfig\top\tn\twarps_per_block\tagree\tmismatch\tjudged\twide\t" \
                 "l1_requests_pred\tl1_requests_meas\tl1_sectors_pred\tl1_sectors_meas\t"             \
                 "l2_requests_pred\tl2_requests_min_pred\tl2_requests_meas\tl2_sectors_pred\tl2_sectors_meas\n"
#define ROW1(m) "copy\toffset\toffset=3\tld\t1000\t4\tyes\t-\tl1_requests,l1_sectors,l2_requests,l2_sectors\t" \
                "l2_requests\t100\t100\t400\t400\t1000\t700\t" m "\t4000\t4000\n"
#define ROW2(m) "copy\tstride\tstride=2\tld\t2000\t8\tno\tl2_sectors\tl1_requests,l1_sectors,l2_sectors\t-\t" \
                "200\t200\t800\t800\t2000\t2000\t2000\t4000\t" m "\n"

static const char *const RUNS[3] = {
    CMP_HEAD ROW1("800") ROW2("4300"),
    CMP_HEAD ROW1("1000") ROW2("4300"),
    CMP_HEAD ROW1("900") ROW2("4300"),
};
static const char DRAWS[] = "# family\tcopy\n# seed\t7\n# commit\tabc\n"
                            "id\tfamily\tvariant\tn\twarps_per_block\targs\n"
                            "0\tcopy\toffset\t1000\t4\t1000 0 4 --kernel offset --offset 3\n"
                            "1\tcopy\tstride\t2000\t8\t2000 0 8 --kernel stride --stride 2\n"
                            "2\tcopy\tstride\t3000\t2\t3000 0 2 --kernel stride --stride 5\n";

static void test_judge(void)
{
    tsv_table runs[3], dr, j;
    for (int i = 0; i < 3; i++) CHECK_EQ_I(table(RUNS[i], &runs[i]), 0);
    CHECK_EQ_I(table(DRAWS, &dr), 0);
    char *buf = NULL, err[512];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK_EQ_I(mt_judge(runs, 3, &dr, f, err, sizeof err), 0);
    fclose(f);
    CHECK_EQ_I(table(buf, &j), 0);
    CHECK_EQ_U(j.nrow, 3);
    /* row 1 */
    CHECK(!strcmp(tsv_get(&j, 0, "id"), "0"));
    CHECK(!strcmp(tsv_get(&j, 0, "agree"), "yes"));
    CHECK(!strcmp(tsv_get(&j, 0, "agree_strict"), "no"));
    CHECK(!strcmp(tsv_get(&j, 0, "class_strict"), "wide_bound"));
    CHECK(!strcmp(tsv_get(&j, 0, "l2_requests_exp"), "1000"));
    CHECK(!strcmp(tsv_get(&j, 0, "l2_requests_bracket"), "700..1000"));
    CHECK(!strcmp(tsv_get(&j, 0, "l2_requests_meas"), "900"));
    CHECK(!strcmp(tsv_get(&j, 0, "l2_requests_spread"), "200"));
    CHECK(!strcmp(tsv_get(&j, 0, "l2_requests_tol"), "400"));
    CHECK(!strcmp(tsv_get(&j, 0, "l2_requests_src"), "spread"));
    CHECK(!strcmp(tsv_get(&j, 0, "by_spread"), "l2_requests"));
    CHECK(!strcmp(tsv_get(&j, 0, "l1_sectors_src"), "exact"));
    CHECK(!strcmp(tsv_get(&j, 0, "l1_hits_ok"), "-"));   /* not judged */
    CHECK(!strcmp(tsv_get(&j, 0, "worst"), "0.250"));    /* 100 / 400 */
    CHECK(!strcmp(tsv_get(&j, 0, "args"), "1000 0 4 --kernel offset --offset 3"));
    /* row 2 */
    CHECK(!strcmp(tsv_get(&j, 1, "agree"), "no"));
    CHECK(!strcmp(tsv_get(&j, 1, "failed"), "l2_sectors"));
    CHECK(!strcmp(tsv_get(&j, 1, "l2_sectors_tol"), "215"));
    CHECK(!strcmp(tsv_get(&j, 1, "l2_sectors_src"), "pct"));
    CHECK(!strcmp(tsv_get(&j, 1, "l2_requests_ok"), "-"));   /* not in judged */
    /* the draw with no run */
    CHECK(!strcmp(tsv_get(&j, 2, "id"), "2"));
    CHECK(!strcmp(tsv_get(&j, 2, "class_strict"), "not_measured"));
    CHECK(!strcmp(tsv_get(&j, 2, "agree"), "no"));

    mt_counts c;
    memset(&c, 0, sizeof c);
    CHECK_EQ_I(mt_count(&j, &c, err, sizeof err), 0);
    CHECK_EQ_U(c.rows, 3);
    CHECK_EQ_U(c.judged[MT_NQ], 2);          /* measured rows */
    CHECK_EQ_U(c.ok[MT_NQ], 1);
    CHECK_EQ_U(c.strict_ok[MT_NQ], 0);
    CHECK_EQ_U(c.judged[MT_Q_L2_REQUESTS], 1);
    CHECK_EQ_U(c.by_spread[MT_Q_L2_REQUESTS], 1);
    CHECK_EQ_U(c.needed_spread[MT_Q_L2_REQUESTS], 1);   /* |1000 - 900| = 100 > 45 */
    CHECK_EQ_U(c.strict_ok[MT_Q_L2_REQUESTS], 0);       /* wide under the strict rule */
    CHECK_EQ_U(c.ok[MT_Q_L2_SECTORS], 1);
    CHECK_EQ_U(c.judged[MT_Q_L2_SECTORS], 2);

    char *sb = NULL;
    size_t sl = 0;
    f = open_memstream(&sb, &sl);
    mt_summary_header(f);
    mt_summary_rows(f, "copy", &c);
    fclose(f);
    CHECK_STR_HAS(sb, "copy\tl2_sectors\t3\t2\t1\t50.0\t0\t0\t1\t50.0\n");
    CHECK_STR_HAS(sb, "copy\tevery\t3\t2\t1\t50.0\t1\t1\t0\t0.0\n");
    CHECK(!strstr(sb, "l1_hits"));   /* never judged: no row */

    char *wb = NULL;
    size_t wl = 0;
    f = open_memstream(&wb, &wl);
    CHECK_EQ_I(mt_worst(&j, 1, 5, f, err, sizeof err), 0);
    fclose(f);
    /* the failing row first (300 / 215), the unmeasured last */
    CHECK_STR_HAS(wb, "family\tid\tvariant\top\tworst\tfailed\targs\ncopy\t1\tstride\tld\t1.395\tl2_sectors\t");
    CHECK_STR_HAS(wb, "\ncopy\t2\tstride\t-\t-\tnot measured\t3000 0 2 --kernel stride --stride 5\n");

    /* one run: no spread, the tolerance is 5 % or the allowance */
    f = open_memstream(&buf, &len);
    CHECK_EQ_I(mt_judge(runs, 1, NULL, f, err, sizeof err), 0);
    fclose(f);
    tsv_table j1;
    CHECK_EQ_I(table(buf, &j1), 0);
    CHECK(!strcmp(tsv_get(&j1, 0, "agree"), "no"));   /* |1000 - 800| = 200 > 40 */
    CHECK(!strcmp(tsv_get(&j1, 0, "l2_requests_src"), "pct"));
    CHECK(!strcmp(tsv_get(&j1, 0, "id"), "-"));
    /* other rows in run 2: refused */
    tsv_table other;
    CHECK_EQ_I(table(CMP_HEAD ROW2("1") ROW1("1"), &other), 0);
    tsv_table mixed[2] = {runs[0], other};
    f = open_memstream(&buf, &len);
    CHECK_EQ_I(mt_judge(mixed, 2, NULL, f, err, sizeof err), -1);
    fclose(f);
    CHECK_STR_HAS(err, "not the same batch");
    free(buf);
    free(sb);
    free(wb);
    tsv_free(&j);
    tsv_free(&j1);
    tsv_free(&other);
    tsv_free(&dr);
    for (int i = 0; i < 3; i++) tsv_free(&runs[i]);
}

static void test_seeds(void)
{
    uint64_t s[2];
    char err[256];
    CHECK_EQ_I(mc_commit_seeds("1978288a0b1c2d3e4f50617283940a1b2c3d4e5f", s, err, sizeof err), 0);
    CHECK_EQ_U(s[0], 0x1978288aull);
    CHECK_EQ_U(s[1], 0x0b1c2d3eull);
    CHECK_EQ_I(mc_commit_seeds("1978288", s, err, sizeof err), -1);
    CHECK_EQ_I(mc_commit_seeds("1978288a0b1c2d3g", s, err, sizeof err), -1);
    CHECK_STR_HAS(err, "not hex");
    int has_model = 0;
    for (int i = 0; MC_MODEL_PATHS[i]; i++) has_model |= !strcmp(MC_MODEL_PATHS[i], "src/families/*/model.c");
    CHECK(has_model);
}

static void test_atomics(void)
{
    char *b = NULL, *d = NULL, err[256];
    size_t lb = 0, ld = 0;
    FILE *fb = open_memstream(&b, &lb), *fd = open_memstream(&d, &ld);
    CHECK_EQ_I(ma_draw(9, 16, "# commit\tabc\n", fb, fd, err, sizeof err), 0);
    fclose(fb);
    fclose(fd);
    CHECK_STR_HAS(b, "# commit\tabc\n");
    CHECK_STR_HAS(b, "  # id=0 variant=same_address_red\n");
    CHECK_STR_HAS(b, "  # id=15 variant=line_spread_atom\n");   /* 8 variants, in turn */
    tsv_table t;
    CHECK_EQ_I(table(d, &t), 0);
    CHECK_EQ_U(t.nrow, 16);
    for (size_t r = 0; r < t.nrow; r++) {
        CHECK(tsv_num(&t, r, "n") >= 1e5 && tsv_num(&t, r, "n") <= 1e7);
        CHECK(tsv_num(&t, r, "warps_per_block") >= 1 && tsv_num(&t, r, "warps_per_block") <= 32);
    }
    tsv_free(&t);
    /* a launch of lane_spread_red at N = 64, WPB 1: 2 requests, 8 sectors,
     * 2 L2 requests (one line each), 8 L2 sectors; a wrong L2 count */
    tsv_table runs, ext;
    CHECK_EQ_I(table("kernel\tn\twarps_per_block\tvalid\nlane_spread_red\t64\t1\tok\n", &runs), 0);
    CHECK_EQ_I(table("kernel\tl1tex__t_requests_pipe_lsu_mem_global_op_red.sum\t"
                     "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum\tlts__t_requests_srcunit_tex_op_red.sum\t"
                     "lts__t_sectors_srcunit_tex_op_red.sum\tdram__bytes_read.sum\n"
                     "atomics_lane_spread_red_check\t9\t9\t9\t9\t9\n"
                     "atomics_lane_spread_red\t2\t8\t3\t8\t512\n", &ext), 0);
    char *c = NULL;
    size_t lc = 0;
    FILE *fc = open_memstream(&c, &lc);
    CHECK_EQ_I(ma_compare(&runs, &ext, 64, fc, err, sizeof err), 0);
    fclose(fc);
    tsv_table cmp;
    CHECK_EQ_I(table(c, &cmp), 0);
    CHECK_EQ_U(cmp.nrow, 1);
    CHECK(!strcmp(tsv_get(&cmp, 0, "op"), "red"));
    CHECK(!strcmp(tsv_get(&cmp, 0, "l1_sectors_pred"), "8"));
    CHECK(!strcmp(tsv_get(&cmp, 0, "l2_requests_pred"), "2"));
    CHECK(!strcmp(tsv_get(&cmp, 0, "agree"), "no"));
    CHECK(!strcmp(tsv_get(&cmp, 0, "mismatch"), "l2_requests"));
    CHECK(!strcmp(tsv_get(&cmp, 0, "judged"), "l1_requests,l1_sectors,l2_requests,l2_sectors"));
    CHECK_EQ_I(mc_classify(tsv_get(&cmp, 0, "agree"), tsv_get(&cmp, 0, "mismatch"), tsv_get(&cmp, 0, "wide")),
               MC_L2);
    tsv_free(&cmp);
    tsv_free(&runs);
    tsv_free(&ext);
    free(b);
    free(d);
    free(c);
}

int main(void)
{
    test_tolerance();
    test_judge();
    test_seeds();
    test_atomics();
    return check_report("test_model_tol");
}
