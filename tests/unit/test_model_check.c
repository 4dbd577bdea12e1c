/*
 * test_model_check - the random model check (model_check.h): draws are the
 * seed's and the family's alone, every variant is drawn in turn inside the
 * documented ranges and accepted by the model; the classes of the strict
 * rule; the judge's join of compare rows with draws (skipped draws become
 * not_measured rows); the counts and the summary.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "model_check.h"
#include "sector_family.h"

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

/* mc_judge of the tables CMP_TEXT and DRAWS_TEXT, its output parsed into
 * *out (its text in *buf, the caller frees both). */
static void judged(const char *cmp_text, const char *draws_text, tsv_table *out, char **buf)
{
    tsv_table cmp, dr;
    CHECK_EQ_I(table(cmp_text, &cmp), 0);
    CHECK_EQ_I(table(draws_text, &dr), 0);
    size_t len;
    char err[256];
    FILE *f = open_memstream(buf, &len);
    CHECK_EQ_I(mc_judge(&cmp, &dr, f, err, sizeof err), 0);
    fclose(f);
    CHECK_EQ_I(table(*buf, out), 0);
    tsv_free(&cmp);
    tsv_free(&dr);
}

/* Draw into memory: the batch and the draws' table. */
static int draw(const char *family, uint64_t seed, unsigned k, const char *only, char **batch, char **draws,
                char *err, size_t errlen)
{
    size_t lb = 0, ld = 0;
    FILE *fb = open_memstream(batch, &lb), *fd = open_memstream(draws, &ld);
    int rc = mc_draw(sf_model(family), seed, k, only, fb, fd, err, errlen);
    fclose(fb);
    fclose(fd);
    return rc;
}

static void test_draws(void)
{
    char *b1, *d1, *b2, *d2, err[512];
    CHECK_EQ_I(draw("copy", 7, 40, NULL, &b1, &d1, err, sizeof err), 0);
    CHECK_EQ_I(draw("copy", 7, 40, NULL, &b2, &d2, err, sizeof err), 0);
    CHECK(!strcmp(b1, b2) && !strcmp(d1, d2));          /* a seed draws the same lines */
    CHECK_STR_HAS(b1, "# seed\t7\n");
    CHECK_STR_HAS(b1, "  # id=0 variant=stride\n");
    CHECK_STR_HAS(b1, "  # id=12 variant=stride\n");    /* 12 modelled copy variants, in turn */
    tsv_table t;
    CHECK_EQ_I(table(d1, &t), 0);
    CHECK_EQ_U(t.nrow, 40);
    for (size_t r = 0; r < t.nrow; r++) {
        const double n = tsv_num(&t, r, "n"), w = tsv_num(&t, r, "warps_per_block");
        CHECK(n >= 1e5 && n <= 5e7);
        CHECK(w >= 1 && w <= 32);
        const char *args = tsv_get(&t, r, "args");
        char want[64];
        snprintf(want, sizeof want, "%.0f 0 %.0f --kernel %s", n, w, tsv_get(&t, r, "variant"));
        CHECK(!strncmp(args, want, strlen(want)));
        if (!strcmp(tsv_get(&t, r, "variant"), "int4")) {
            const char *b = strstr(args, "--batch ");
            CHECK(b && (atoi(b + 8) == 4 || atoi(b + 8) == 8 || atoi(b + 8) == 16));
        }
    }
    tsv_free(&t);
    free(b2), free(d2);
    /* another seed, other lines; the per-configuration stream is the id's */
    CHECK_EQ_I(draw("copy", 8, 40, NULL, &b2, &d2, err, sizeof err), 0);
    CHECK(strcmp(d1, d2) != 0);
    CHECK(mc_rng_of(7, "copy", 3) == mc_rng_of(7, "copy", 3));
    CHECK(mc_rng_of(7, "copy", 3) != mc_rng_of(7, "patterns", 3));
    CHECK(mc_rng_of(7, "copy", 3) != mc_rng_of(7, "copy", 4));
    free(b1), free(d1), free(b2), free(d2);

    /* the stencil: its geometry ranges, N = N0 x N1 */
    CHECK_EQ_I(draw("stencil", 3, 64, NULL, &b1, &d1, err, sizeof err), 0);
    CHECK_EQ_I(table(d1, &t), 0);
    unsigned radius_seen = 0, pads = 0;
    for (size_t r = 0; r < t.nrow; r++) {
        unsigned long long n0, n1;
        unsigned w, rad;
        const char *a = tsv_get(&t, r, "args");
        CHECK(sscanf(a, "%llu %llu 0 %u", &n0, &n1, &w) == 3);
        CHECK(n0 >= 17 && n0 <= 1000 && n1 >= 1 && n1 <= 64);
        CHECK_EQ_U(n0 * n1, (unsigned long long)tsv_num(&t, r, "n"));
        const char *rp = strstr(a, "--radius ");
        CHECK(rp && sscanf(rp, "--radius %u", &rad) == 1 && rad >= 1 && rad <= 4);
        if (rp) radius_seen |= 1u << rad;
        pads += strstr(a, "--lead-pad") != NULL;
    }
    CHECK_EQ_U(radius_seen, 0x1e);                       /* radii 1..4 all drawn */
    CHECK(pads > 10 && pads < 54);
    tsv_free(&t);
    free(b1), free(d1);

    /* only some variants; errors */
    CHECK_EQ_I(draw("patterns", 1, 4, "offset_ca,write_strided", &b1, &d1, err, sizeof err), 0);
    CHECK_STR_HAS(b1, "--kernel offset_ca --offset ");
    CHECK_STR_HAS(b1, "--kernel write_strided --stride ");
    free(b1), free(d1);
    CHECK_EQ_I(draw("patterns", 1, 4, "nosuch", &b1, &d1, err, sizeof err), -1);
    CHECK_STR_HAS(err, "no modelled variant 'nosuch'");
    free(b1), free(d1);
}

static void test_classes(void)
{
    CHECK_EQ_I(mc_classify("yes", "-", "-"), MC_AGREE);
    CHECK_EQ_I(mc_classify("yes", "-", "l1_hits"), MC_WIDE);
    CHECK_EQ_I(mc_classify("no", "l1_sectors,dram_sectors", "-"), MC_L1);
    CHECK_EQ_I(mc_classify("no", "l1_hits,l2_requests", "l1_hits"), MC_HITS);
    CHECK_EQ_I(mc_classify("no", "l2_sectors", "-"), MC_L2);
    CHECK_EQ_I(mc_classify("no", "dram_sectors", "-"), MC_DRAM);
    CHECK_EQ_I(mc_classify("no", "blocks,l1_requests", "-"), MC_GRID);
    CHECK_EQ_I(mc_classify("no", "not measured", "-"), MC_NOT_MEASURED);
    CHECK_EQ_I(mc_classify("no", "-", "-"), MC_NOT_MEASURED);
    CHECK(!strcmp(mc_class_name(MC_WIDE), "wide_bound"));
}

static const char CMP[] =
    "# family\tcopy\n"
    "family\tvariant\tconfig\top\tl1_requests_pred\tl1_requests_meas\tl1_hits_meas\tdram_sectors_meas\tagree\t"
    "mismatch\tnote\tn\twarps_per_block\tjudged\twide\n"
    "copy\tstride\tstride=3\tld\t10\t10\t0\t9000\tyes\t-\t-\t1000\t4\tl1_requests,l1_sectors,l1_hits,dram_sectors\t-\n"
    "copy\tstride\tstride=3\tst\t10\t10\t0\t100\tyes\t-\t-\t1000\t4\tl1_requests,l1_sectors\t-\n"
    "copy\tbatch\tbatch=2\tld\t5\t6\t0\t50\tno\tl1_requests\t-\t2000\t8\tl1_requests,l1_sectors,l1_hits\t-\n"
    "copy\tstride\tstride=9\tld\t10\t10\t5\t50\tyes\t-\t-\t3000\t1\tl1_requests,l1_sectors,l1_hits\tl1_hits\n";

static const char DRAWS[] =
    "# family\tcopy\n# seed\t7\n"
    "id\tfamily\tvariant\tn\twarps_per_block\targs\n"
    "0\tcopy\tstride\t1000\t4\t1000 0 4 --kernel stride --stride 3\n"
    "1\tcopy\tbatch\t1500\t8\t1500 0 8 --kernel batch --batch 2\n"   /* skipped: no row */
    "2\tcopy\tbatch\t2000\t8\t2000 0 8 --kernel batch --batch 2\n"
    "3\tcopy\tstride\t3000\t1\t3000 0 1 --kernel stride --stride 9\n";

/* Two draws of one variant, N and WPB whose configurations differ (stencil
 * probes 12 and 13 of the H200 calibration run: radius 1 and radius 4 at
 * 1000 x 64, WPB 8), then the same configuration drawn twice: each draw gets
 * its own rows, one per op. */
static const char CMP2[] =
    "family\tvariant\tconfig\top\tagree\tmismatch\tn\twarps_per_block\tjudged\twide\n"
    "stencil\tderiv1\tn0=1000,r=1\tld\tyes\t-\t64000\t8\tl1_requests\t-\n"
    "stencil\tderiv1\tn0=1000,r=1\tst\tyes\t-\t64000\t8\tl1_requests\t-\n"
    "stencil\tderiv1\tn0=1000,r=4\tld\tno\tl2_requests\t64000\t8\tl1_requests\t-\n"
    "stencil\tderiv1\tn0=1000,r=4\tst\tyes\t-\t64000\t8\tl1_requests\t-\n"
    "stencil\tderiv0\tn0=9\tld\tyes\t-\t90\t2\tl1_requests\t-\n"
    "stencil\tderiv0\tn0=9\tld\tyes\t-\t90\t2\tl1_requests\t-\n";
static const char DRAWS2[] =
    "id\tfamily\tvariant\tn\twarps_per_block\targs\n"
    "12\tstencil\tderiv1\t64000\t8\t1000 64 0 8 --kernel deriv1 --radius 1\n"
    "13\tstencil\tderiv1\t64000\t8\t1000 64 0 8 --kernel deriv1 --radius 4\n"
    "14\tstencil\tderiv0\t90\t2\t9 10 0 2 --kernel deriv0\n"
    "15\tstencil\tderiv0\t90\t2\t9 10 0 2 --kernel deriv0\n";

static void test_join_configs(void)
{
    tsv_table out;
    char *buf;
    judged(CMP2, DRAWS2, &out, &buf);
    CHECK_EQ_U(out.nrow, 6);   /* every draw joined: no not-measured row */
    static const char *const ids[] = {"12", "12", "13", "13", "14", "15"};
    for (size_t r = 0; r < 6 && r < out.nrow; r++)
        CHECK(!strcmp(tsv_get(&out, r, "id"), ids[r]));
    CHECK(!strcmp(tsv_get(&out, 2, "args"), "1000 64 0 8 --kernel deriv1 --radius 4"));
    CHECK(!strcmp(tsv_get(&out, 2, "class"), "l2"));
    tsv_free(&out);
    free(buf);
}

static void test_judge(void)
{
    tsv_table cmp, dr, out;
    CHECK_EQ_I(table(CMP, &cmp), 0);
    CHECK_EQ_I(table(DRAWS, &dr), 0);
    char *buf;
    size_t len;
    char err[256];
    judged(CMP, DRAWS, &out, &buf);
    FILE *f;
    CHECK_EQ_U(out.nrow, 5);   /* 4 rows of cmp, then the skipped draw */
    CHECK(!strcmp(tsv_get(&out, 0, "id"), "0") && !strcmp(tsv_get(&out, 1, "id"), "0"));
    CHECK(!strcmp(tsv_get(&out, 0, "class"), "agree"));
    CHECK(!strcmp(tsv_get(&out, 1, "not_judged"), "l1_hits,dram_sectors"));
    CHECK(!strcmp(tsv_get(&out, 2, "id"), "2") && !strcmp(tsv_get(&out, 2, "class"), "l1"));
    CHECK(!strcmp(tsv_get(&out, 3, "id"), "3") && !strcmp(tsv_get(&out, 3, "class"), "wide_bound"));
    CHECK(!strcmp(tsv_get(&out, 3, "agree"), "no"));
    CHECK(!strcmp(tsv_get(&out, 4, "id"), "1") && !strcmp(tsv_get(&out, 4, "class"), "not_measured"));
    CHECK(!strcmp(tsv_get(&out, 2, "args"), "2000 0 8 --kernel batch --batch 2"));
    mc_counts c;
    memset(&c, 0, sizeof c);
    CHECK_EQ_I(mc_count(&out, &c, err, sizeof err), 0);
    CHECK_EQ_U(c.rows, 5);
    CHECK_EQ_U(c.agree, 2);
    CHECK_EQ_U(c.cls[MC_L1], 1);
    CHECK_EQ_U(c.cls[MC_WIDE], 1);
    CHECK_EQ_U(c.cls[MC_NOT_MEASURED], 1);
    CHECK_EQ_U(c.not_judged_dram, 3);   /* the st row, the batch row, the wide row */
    char *sum;
    f = open_memstream(&sum, &len);
    mc_summary_header(f);
    mc_summary_row(f, "copy", &c);
    fclose(f);
    CHECK_STR_HAS(sum, "family\trows\tagree\tagree_pct\tnot_measured\tgrid\tl1\thits\tl2\tdram\twide_bound\t");
    CHECK_STR_HAS(sum, "copy\t5\t2\t40.0\t1\t0\t1\t0\t0\t0\t1\t3\t");
    free(sum);
    tsv_free(&out);
    free(buf);
    /* a table that is not a comparison */
    f = open_memstream(&buf, &len);
    CHECK_EQ_I(mc_judge(&dr, NULL, f, err, sizeof err), -1);
    CHECK_STR_HAS(err, "has no column");
    fclose(f);
    free(buf);
    tsv_free(&cmp);
    tsv_free(&dr);
}

/* Three runs of one batch: row 1's L2 requests move 10 % (judged), row 2's
 * DRAM reads 50 % (not judged there), row 3 is the same in every run. */
#define REP_HEAD "family\tvariant\tconfig\top\tn\twarps_per_block\tl1_requests_meas\tl2_requests_meas\t" \
                 "dram_sectors_meas\tjudged\n"
static const char RUN1[] = REP_HEAD
    "copy\tstride\tstride=3\tld\t1000\t4\t10\t100\t40\tl1_requests,l2_requests\n"
    "copy\tstride\tstride=3\tst\t1000\t4\t10\t50\t20\tl1_requests,l2_requests\n"
    "copy\tbatch\tbatch=2\tld\t2000\t8\t5\t60\t30\tl1_requests,l2_requests,dram_sectors\n";
static const char RUN2[] = REP_HEAD
    "copy\tstride\tstride=3\tld\t1000\t4\t10\t90\t40\tl1_requests,l2_requests\n"
    "copy\tstride\tstride=3\tst\t1000\t4\t10\t50\t10\tl1_requests,l2_requests\n"
    "copy\tbatch\tbatch=2\tld\t2000\t8\t5\t60\t30\tl1_requests,l2_requests,dram_sectors\n";
static const char RUN3[] = REP_HEAD
    "copy\tstride\tstride=3\tld\t1000\t4\t10\t95\tNA\tl1_requests,l2_requests\n"
    "copy\tstride\tstride=3\tst\t1000\t4\t10\t50\t10\tl1_requests,l2_requests\n"
    "copy\tbatch\tbatch=2\tld\t2000\t8\t5\t60\t30\tl1_requests,l2_requests,dram_sectors\n";
static const char OTHER[] = REP_HEAD
    "copy\tstride\tstride=3\tld\t1000\t4\t10\t100\t40\tl1_requests,l2_requests\n"
    "copy\tstride\tstride=5\tst\t1000\t4\t10\t50\t20\tl1_requests,l2_requests\n"
    "copy\tbatch\tbatch=2\tld\t2000\t8\t5\t60\t30\tl1_requests,l2_requests,dram_sectors\n";

static void test_repeat(void)
{
    tsv_table t[3], o;
    CHECK_EQ_I(table(RUN1, &t[0]), 0);
    CHECK_EQ_I(table(RUN2, &t[1]), 0);
    CHECK_EQ_I(table(RUN3, &t[2]), 0);
    CHECK_NEAR(mc_row_spread(t, 3, 0, "l2_requests_meas"), 10.0, 1e-9);
    CHECK(isnan(mc_row_spread(t, 3, 0, "dram_sectors_meas")));   /* run 3 lacks it */
    CHECK_NEAR(mc_row_spread(t, 2, 1, "dram_sectors_meas"), 50.0, 1e-9);
    CHECK_NEAR(mc_row_spread(t, 3, 2, "l2_requests_meas"), 0.0, 1e-9);
    char *buf, err[256];
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    CHECK_EQ_I(mc_repeat(t, 3, f, err, sizeof err), 0);
    fclose(f);
    CHECK_STR_HAS(buf, "op\tquantity\trows\tvarying\tover_1pct\tover_5pct\tmedian_spread_pct\tmax_spread_pct\n");
    CHECK_STR_HAS(buf, "ld\tl1_requests\t2\t0\t0\t0\t0.00\t0.00\n");
    CHECK_STR_HAS(buf, "ld\tl2_requests\t2\t1\t1\t1\t5.00\t10.00\n");   /* median of 0 and 10 */
    CHECK_STR_HAS(buf, "ld\tdram_sectors\t1\t0\t0\t0\t0.00\t0.00\n");
    CHECK_STR_HAS(buf, "st\tdram_sectors\t1\t1\t1\t1\t50.00\t50.00\n");
    /* row 2's DRAM is not judged there: only row 1 is beyond 5 % */
    CHECK_STR_HAS(buf, "all\tany_judged\t3\t1\t1\t1\t0.00\t10.00\n");
    CHECK_EQ_I(table(buf, &o), 0);
    CHECK_EQ_U(o.nrow, 7);   /* ld and st: l1_requests, l2_requests, dram_sectors; then any_judged */
    tsv_free(&o);
    free(buf);
    /* one run, or another batch */
    f = open_memstream(&buf, &len);
    CHECK_EQ_I(mc_repeat(t, 1, f, err, sizeof err), -1);
    CHECK_STR_HAS(err, "two or more runs");
    tsv_table other[2] = {t[0]};
    CHECK_EQ_I(table(OTHER, &other[1]), 0);
    CHECK_EQ_I(mc_repeat(other, 2, f, err, sizeof err), -1);
    CHECK_STR_HAS(err, "row 2: config is 'stride=5' in run 2");
    fclose(f);
    free(buf);
    tsv_free(&other[1]);
    for (int i = 0; i < 3; i++) tsv_free(&t[i]);
}

int main(void)
{
    test_draws();
    test_classes();
    test_judge();
    test_join_configs();
    test_repeat();
    return check_report("test_model_check");
}
