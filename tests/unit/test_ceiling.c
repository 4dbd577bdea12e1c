/* test_ceiling.c - picking the best configuration, Little's law backwards. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include "check.h"
#include "ceiling.h"

static void parse(const char *text, tsv_table *t)
{
    char err[256];
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    CHECK(tsv_parse(f, "t.tsv", t, err, sizeof err) == 0);
    fclose(f);
}

int main(void)
{
    tsv_table t[2];
    parse("# sm_count\t132\n"
          "kernel\tconfig\tbw_GBps\tkernel_ms\twarps_per_block\tvalid\n"
          "read\tw=4,u=1,h=0,g=0,wpb=8\t2900.5\t0.18\t8\tok\n"
          "read\tw=16,u=8,h=1,g=0,wpb=8\t3150.0\t0.17\t8\tok\n"
          "copy\tw=16,u=4,h=0,g=0,wpb=8\t2980.0\t0.36\t8\tok\n"
          "read\tw=16,u=16,h=1,g=0,wpb=8\t9999.0\t0.01\t8\tFAIL\n", &t[0]);
    parse("kernel\tconfig\tbw_GBps\tkernel_ms\twarps_per_block\tvalid\n"
          "read\tw=16,u=8,h=1,g=2,wpb=16\t3170.2\t0.169\t16\tok\n"
          "memcpy\t-\t3011.0\t0.35\t8\tok\n", &t[1]);
    ceiling_best b[8];
    char err[256];
    int n = ceiling_pick(t, 2, b, 8, err, sizeof err);
    CHECK_EQ_I(n, 3);
    CHECK(!strcmp(b[0].op, "read"));
    CHECK_NEAR(b[0].bw_GBps, 3170.2, 0);           /* the second table's, not the FAILed row */
    CHECK(!strcmp(b[0].config, "w=16,u=8,h=1,g=2,wpb=16"));
    CHECK_NEAR(b[0].wpb, 16, 0);
    CHECK(!strcmp(b[1].op, "copy"));
    CHECK(!strcmp(b[2].op, "memcpy"));
    char v[16];
    CHECK(ceiling_config_get(b[0].config, "u", v, sizeof v) && !strcmp(v, "8"));
    CHECK(ceiling_config_get(b[0].config, "wpb", v, sizeof v) && !strcmp(v, "16"));
    CHECK(ceiling_config_get(b[0].config, "w", v, sizeof v) && !strcmp(v, "16"));
    CHECK(ceiling_config_get(b[0].config, "x", v, sizeof v) == NULL);
    CHECK(ceiling_pick(t, 2, b, 2, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "more than 2 operations");
    /* 3170 GB/s at 345 ns over 132 SMs: 8286 bytes per SM in flight */
    CHECK_NEAR(ceiling_bytes_in_flight_per_sm(3170.2, 344.7, 132), 3170.2 * 344.7 / 132, 1e-9);
    CHECK(isnan(ceiling_bytes_in_flight_per_sm(0, 344.7, 132)));
    tsv_free(&t[0]);
    tsv_free(&t[1]);
    parse("kernel\tbw_GBps\n", &t[0]);
    CHECK(ceiling_pick(t, 1, b, 8, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "no column 'config'");
    tsv_free(&t[0]);
    return check_report("test_ceiling");
}
