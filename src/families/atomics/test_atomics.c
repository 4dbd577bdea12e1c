/*
 * test_atomics.c - the atomics family's model and CPU reference
 * (atomics_model.c), on cases computed by hand; built as
 * build/tests/test_atomics.
 *
 * It also compares a measurement with the model, for gpu_atomics.sh (bash
 * only sequences; the comparison is C, and the same code is tested here):
 *   test_atomics metrics
 * prints the metrics to ask ncu for;
 *   test_atomics compare NCU_TSV N WPB FETCH_BYTES [per_address|per_line]
 * reads bin/ncu_extract's table, prints variant, metric, pred, meas, agree,
 * and exits 0 when every count agrees, 1 when one does not, 2 on a usage
 * error or an unreadable table.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "../../../tests/unit/check.h"
#include "atomics_model.h"
#include "cli.h"

static atm_pred pred(int v, uint64_t n, atm_l2_rule rule, uint32_t fetch)
{
    atm_pred p;
    char err[200];
    const int rc = atm_predict(v, n, 4, rule, fetch, &p, err, sizeof err);
    CHECK(rc == 0);
    if (rc) fprintf(stderr, "atm_predict: %s\n", err);
    return p;
}

/* N = 100: three full warps and a tail warp of 4 lanes. */
static void test_predict(void)
{
    atm_pred p = pred(AT_SAME_ADDRESS_RED, 100, ATM_L2_PER_ADDRESS, 64);
    CHECK_EQ_U(p.atomics, 100);
    CHECK_EQ_U(p.ret, 0);
    CHECK_EQ_U(p.l1_requests, 4);
    CHECK_EQ_U(p.l1_sectors, 4);            /* one sector per warp instruction */
    CHECK_EQ_U(p.l2_requests, 4);           /* one address per warp */
    CHECK_EQ_U(p.l2_sectors, 4);
    CHECK_EQ_U(p.footprint_bytes, 128);     /* one line */
    CHECK_EQ_U(p.distinct_sectors, 1);
    CHECK_EQ_U(p.dram_read_bytes, 64);      /* one 64-byte fetch */

    p = pred(AT_WARP_ADDRESS_ATOM, 100, ATM_L2_PER_LINE, 64);
    CHECK_EQ_U(p.ret, 1);
    CHECK_EQ_U(p.l1_requests, 4);
    CHECK_EQ_U(p.l1_sectors, 4);
    CHECK_EQ_U(p.l2_requests, 4);
    CHECK_EQ_U(p.footprint_bytes, 128);     /* words 0, 8, 16, 24 */
    CHECK_EQ_U(p.distinct_sectors, 4);
    CHECK_EQ_U(p.dram_read_bytes, 128);     /* two 64-byte blocks: words 0-15, 16-31 */
    CHECK_EQ_U(pred(AT_WARP_ADDRESS_RED, 100, ATM_L2_PER_LINE, 128).dram_read_bytes, 128);
    CHECK_EQ_U(pred(AT_WARP_ADDRESS_RED, 100, ATM_L2_PER_LINE, 32).dram_read_bytes, 128);

    /* words 0..99: a full warp 4 sectors of one line, the tail 96..99 one sector */
    p = pred(AT_LANE_SPREAD_RED, 100, ATM_L2_PER_ADDRESS, 64);
    CHECK_EQ_U(p.l1_requests, 4);
    CHECK_EQ_U(p.l1_sectors, 3 * 4 + 1);
    CHECK_EQ_U(p.l2_requests, 100);         /* every lane its own address */
    CHECK_EQ_U(p.footprint_bytes, 512);     /* four lines */
    CHECK_EQ_U(p.distinct_sectors, 13);
    CHECK_EQ_U(p.dram_read_bytes, 7 * 64);  /* bytes 0..399: seven 64-byte blocks */
    CHECK_EQ_U(pred(AT_LANE_SPREAD_RED, 100, ATM_L2_PER_LINE, 64).l2_requests, 4);

    /* word 32 t: every lane its own line */
    p = pred(AT_LINE_SPREAD_ATOM, 100, ATM_L2_PER_LINE, 64);
    CHECK_EQ_U(p.l1_sectors, 100);
    CHECK_EQ_U(p.l2_requests, 100);
    CHECK_EQ_U(pred(AT_LINE_SPREAD_ATOM, 100, ATM_L2_PER_ADDRESS, 64).l2_requests, 100);
    CHECK_EQ_U(p.footprint_bytes, 100 * 128);
    CHECK_EQ_U(p.distinct_sectors, 100);
    CHECK_EQ_U(p.dram_read_bytes, 100 * 64);
    CHECK_EQ_U(pred(AT_LINE_SPREAD_ATOM, 100, ATM_L2_PER_LINE, 32).dram_read_bytes, 100 * 32);

    /* a whole number of warps: no tail */
    p = pred(AT_LANE_SPREAD_ATOM, 64, ATM_L2_PER_LINE, 32);
    CHECK_EQ_U(p.l1_requests, 2);
    CHECK_EQ_U(p.l1_sectors, 8);
    CHECK_EQ_U(p.l2_requests, 2);

    /* replay (the H100): lanes on one word go one pass each, so a warp on
     * one word is 32 passes of one line and one sector; the tail warp of 4
     * lanes 4 passes */
    p = pred(AT_SAME_ADDRESS_RED, 100, ATM_L2_REPLAY, 64);
    CHECK_EQ_U(p.l1_requests, 4);
    CHECK_EQ_U(p.l1_sectors, 3 * 32 + 4);
    CHECK_EQ_U(p.l2_requests, 3 * 32 + 4);
    CHECK_EQ_U(p.l2_sectors, 3 * 32 + 4);
    CHECK_EQ_U(pred(AT_WARP_ADDRESS_ATOM, 100, ATM_L2_REPLAY, 64).l2_requests, 100);
    /* distinct words: one pass; lane_spread's warp is one line of 4 sectors */
    p = pred(AT_LANE_SPREAD_ATOM, 100, ATM_L2_REPLAY, 64);
    CHECK_EQ_U(p.l1_sectors, 3 * 4 + 1);
    CHECK_EQ_U(p.l2_requests, 4);
    p = pred(AT_LINE_SPREAD_RED, 100, ATM_L2_REPLAY, 64);
    CHECK_EQ_U(p.l2_requests, 100);
    CHECK_EQ_U(p.l2_sectors, 100);
    /* DRAM is judged where the counters fill their blocks, from 1 MiB */
    CHECK_EQ_I(pred(AT_LANE_SPREAD_RED, 100, ATM_L2_REPLAY, 64).dram_judged, 0);           /* 448 B */
    CHECK_EQ_I(pred(AT_LANE_SPREAD_RED, 1000000, ATM_L2_REPLAY, 64).dram_judged, 1);       /* 4 MB */
    CHECK_EQ_I(pred(AT_WARP_ADDRESS_RED, 10000000, ATM_L2_REPLAY, 64).dram_judged, 1);     /* 10 MB */
    CHECK_EQ_I(pred(AT_LINE_SPREAD_RED, 10000000, ATM_L2_REPLAY, 64).dram_judged, 0);      /* 4 B a line */
    CHECK_EQ_I(pred(AT_SAME_ADDRESS_RED, 10000000, ATM_L2_REPLAY, 64).dram_judged, 0);     /* 64 B */

    char err[200];
    atm_pred q;
    CHECK(atm_predict(AT_NVARIANTS, 100, 4, ATM_L2_PER_LINE, 64, &q, err, sizeof err) == -1);
    CHECK(atm_predict(0, 0, 4, ATM_L2_PER_LINE, 64, &q, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "N must be at least 1");
    CHECK(atm_predict(0, 100, 33, ATM_L2_PER_LINE, 64, &q, err, sizeof err) == -1);
    CHECK(atm_predict(0, 100, 4, ATM_L2_PER_LINE, 48, &q, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "32, 64 or 128");
}

static void test_reference(void)
{
    CHECK_EQ_U(atm_word(AT_WARP_ADDRESS, 33), 8);
    CHECK_EQ_U(atm_word(AT_LINE_SPREAD, 33), 32 * 33);
    CHECK_EQ_U(atm_expected(AT_SAME_ADDRESS, 100, 0), 100);
    CHECK_EQ_U(atm_expected(AT_SAME_ADDRESS, 100, 1), 0);
    CHECK_EQ_U(atm_expected(AT_WARP_ADDRESS, 100, 0), 32);
    CHECK_EQ_U(atm_expected(AT_WARP_ADDRESS, 100, 16), 32);
    CHECK_EQ_U(atm_expected(AT_WARP_ADDRESS, 100, 24), 4);   /* the tail warp's 4 lanes */
    CHECK_EQ_U(atm_expected(AT_WARP_ADDRESS, 100, 4), 0);
    CHECK_EQ_U(atm_expected(AT_WARP_ADDRESS, 100, 32), 0);
    CHECK_EQ_U(atm_expected(AT_WARP_ADDRESS, 96, 16), 32);   /* no tail: a full warp */
    CHECK_EQ_U(atm_expected(AT_LANE_SPREAD, 100, 99), 1);
    CHECK_EQ_U(atm_expected(AT_LANE_SPREAD, 100, 100), 0);
    CHECK_EQ_U(atm_expected(AT_LINE_SPREAD, 100, 0), 1);
    CHECK_EQ_U(atm_expected(AT_LINE_SPREAD, 100, 32 * 99), 1);
    CHECK_EQ_U(atm_expected(AT_LINE_SPREAD, 100, 1), 0);
    CHECK_EQ_U(atm_expected(AT_LINE_SPREAD, 100, 32 * 100), 0);
    CHECK_EQ_U(atm_footprint_words(AT_LINE_SPREAD, 0), 0);
    /* every add lands in the footprint, once */
    const uint64_t ns[] = {1, 31, 32, 100, 1000};
    for (int p = 0; p < AT_NPATTERNS; p++)
        for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
            uint64_t sum = 0;
            const uint64_t words = atm_footprint_words(p, ns[k]);
            for (uint64_t j = 0; j < words; j++) sum += atm_expected(p, ns[k], j);
            CHECK_EQ_U(sum, ns[k]);
        }
}

static void collect(void *ctx, const char *line)
{
    strncat((char *)ctx, line, 2047 - strlen((char *)ctx));
    strncat((char *)ctx, "\n", 2047 - strlen((char *)ctx));
}

/* DRAM: within 10 % (or 4 KiB) of the 4 MB of 1e6 packed counters */
static void test_compare_dram(void)
{
    const atm_pred p = pred(AT_LANE_SPREAD_RED, 1000000, ATM_L2_REPLAY, 64);
    CHECK_EQ_U(p.dram_read_bytes, 4000000);
    double meas[ATM_NMETRICS] = {31250, 125000, 31250, 125000, 5e6};
    char buf[2048] = "";
    CHECK_EQ_I(atm_compare(AT_LANE_SPREAD_RED, &p, NULL, meas, 10, collect, buf), 1);
    CHECK_STR_HAS(buf, "dram__bytes_read.sum\t4000000\t5000000\tno");
    meas[ATM_M_DRAM_READ] = 4.1e6;
    meas[ATM_M_L1_REQ] = -1;                  /* not measured: neither agrees nor fails */
    buf[0] = 0;
    CHECK_EQ_I(atm_compare(AT_LANE_SPREAD_RED, &p, NULL, meas, 10, collect, buf), 0);
    CHECK_STR_HAS(buf, "op_red.sum\t31250\t-1\tnot_measured");
    meas[ATM_M_L2_REQ] = 31249;               /* exact counts are exact */
    CHECK_EQ_I(atm_compare(AT_LANE_SPREAD_RED, &p, NULL, meas, 10, collect, buf), 1);
    /* a lone counter per line: DRAM not judged, whatever it reads */
    const atm_pred q = pred(AT_LINE_SPREAD_RED, 1000000, ATM_L2_REPLAY, 64);
    double mq[ATM_NMETRICS] = {31250, 1000000, 1000000, 1000000, 48e6};
    buf[0] = 0;
    CHECK_EQ_I(atm_compare(AT_LINE_SPREAD_RED, &q, NULL, mq, 10, collect, buf), 0);
    CHECK_STR_HAS(buf, "dram__bytes_read.sum\t64000000\t48000000\tnot_judged");
}

static void test_names(void)
{
    CHECK(!strcmp(atomics_variant_name(AT_LANE_SPREAD_ATOM), "lane_spread_atom"));
    CHECK_EQ_I(atomics_variant_pattern(AT_LINE_SPREAD_RED), AT_LINE_SPREAD);
    CHECK(!strcmp(atm_metric(0, ATM_M_L2_REQ), "lts__t_requests_srcunit_tex_op_red.sum"));
    CHECK(!strcmp(atm_metric(1, ATM_M_L1_SEC), "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"));
    char list[1024];
    CHECK(atm_metric_list(list, sizeof list) == 0);
    CHECK_STR_HAS(list, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,");
    CHECK_STR_HAS(list, ",dram__bytes_read.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum");
    CHECK(strstr(strstr(list, "dram__") + 1, "dram__") == NULL);   /* listed once */
    CHECK(atm_metric_list(list, 40) == -1);
    CHECK(!strcmp(atm_rule_name(ATM_L2_PER_LINE), "per_line"));
}

/* A table as bin/ncu_extract writes it: lane_spread_red measured with one
 * L2 request per line, which the per-address rule does not predict. */
static void test_compare_table(void)
{
    char path[] = "/tmp/test_atomics_XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "kernel\tid\tl1tex__t_requests_pipe_lsu_mem_global_op_red.sum\t"
               "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum\tlts__t_requests_srcunit_tex_op_red.sum\t"
               "lts__t_sectors_srcunit_tex_op_red.sum\tdram__bytes_read.sum\n"
               "atomics_lane_spread_red_check\t0\t4\t13\t4\t13\t448\n"
               "atomics_lane_spread_red\t1\t4\t13\t4\t13\t460\n");
    fclose(f);
    char *out = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&out, &len);
    char err[300];
    CHECK_EQ_I(atm_compare_table(path, 100, 4, ATM_L2_PER_ADDRESS, 64, 10, o, err, sizeof err), 1);
    fclose(o);
    CHECK_STR_HAS(out, "# l2_rule\tper_address\n");
    CHECK_STR_HAS(out, "lane_spread_red\tl1tex__t_sectors_pipe_lsu_mem_global_op_red.sum\t13\t13\tyes\n");
    CHECK_STR_HAS(out, "lts__t_requests_srcunit_tex_op_red.sum\t100\t4\tno (the other rule predicts 4: it fits)");
    CHECK_STR_HAS(out, "dram__bytes_read.sum\t448\t460\tnot_judged");   /* 448 B: under 1 MiB */
    CHECK(strstr(out, "_check") == NULL);                         /* the check launch is not compared */
    free(out);
    o = open_memstream(&out, &len);
    CHECK_EQ_I(atm_compare_table(path, 100, 4, ATM_L2_PER_LINE, 64, 1, o, err, sizeof err), 0);
    fclose(o);
    CHECK_STR_HAS(out, "dram__bytes_read.sum\t448\t460\tnot_judged");
    free(out);
    o = open_memstream(&out, &len);
    CHECK_EQ_I(atm_compare_table(path, 100, 4, ATM_L2_PER_LINE, 64, 10, o, err, sizeof err), 0);
    fclose(o);
    free(out);
    f = fopen(path, "w");
    fprintf(f, "kernel\tid\nreadonly_baseline\t0\n");
    fclose(f);
    o = open_memstream(&out, &len);
    CHECK_EQ_I(atm_compare_table(path, 100, 4, ATM_L2_PER_LINE, 64, 10, o, err, sizeof err), -1);
    fclose(o);
    free(out);
    CHECK_STR_HAS(err, "holds no launch of an atomics kernel");
    remove(path);
}

static int usage(FILE *f)
{
    fprintf(f, "usage: test_atomics                     the unit tests\n"
               "       test_atomics metrics                the ncu metrics to collect, comma-separated\n"
               "       test_atomics compare NCU_TSV N WPB FETCH_BYTES [replay|per_address|per_line]\n"
               "  NCU_TSV       bin/ncu_extract's table of ./atomics_profile N 0 WPB under ncu\n"
               "  FETCH_BYTES   L2's DRAM fetch size, 32, 64 or 128 (the H100's driver: 64)\n"
               "  the L2 rule   how L2 counts a warp's atomic requests (default per_address)\n"
               "Prints variant, metric, pred, meas, agree; exit 0 all agree, 1 not, 2 error.\n");
    return f == stdout ? 0 : 2;
}

static int compare(int argc, char **argv)
{
    if (argc < 6 || argc > 7) return usage(stderr);
    uint64_t n, wpb, fetch;
    char err[300];
    if (cli_parse_count("N", argv[3], UINT64_MAX, &n, err, sizeof err) ||
        cli_parse_range("WPB", argv[4], 1, 32, &wpb, err, sizeof err) ||
        cli_parse_range("FETCH_BYTES", argv[5], 32, 128, &fetch, err, sizeof err)) {
        fprintf(stderr, "test_atomics: %s\n", err);
        return 2;
    }
    atm_l2_rule rule = ATM_L2_REPLAY;
    if (argc == 7) {
        if (!strcmp(argv[6], "per_line")) rule = ATM_L2_PER_LINE;
        else if (!strcmp(argv[6], "per_address")) rule = ATM_L2_PER_ADDRESS;
        else if (strcmp(argv[6], "replay")) return usage(stderr);
    }
    const int bad = atm_compare_table(argv[2], n, (uint32_t)wpb, rule, (uint32_t)fetch, 10, stdout,
                                      err, sizeof err);
    if (bad < 0) {
        fprintf(stderr, "test_atomics: %s\n", err);
        return 2;
    }
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) return usage(stdout);
    if (argc > 1 && !strcmp(argv[1], "compare")) return compare(argc, argv);
    if (argc == 2 && !strcmp(argv[1], "metrics")) {
        char list[1024];
        if (atm_metric_list(list, sizeof list)) return 1;
        printf("%s\n", list);
        return 0;
    }
    if (argc > 1) return usage(stderr);
    test_predict();
    test_reference();
    test_names();
    test_compare_dram();
    test_compare_table();
    return check_report("test_atomics");
}
