/*
 * test_sector_table - the families' comparison table (sector_table.h): the
 * columns of the header, a row's predicted and measured values and derived
 * quantities, NA where a value is missing, Markdown's brackets, and the
 * readers of a configuration and of ncu's kernel names.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "sector_table.h"

#include <stdio.h>
#include <string.h>

/* What f holds, from its start. */
static const char *text_of(FILE *f, char *buf, size_t len)
{
    rewind(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = 0;
    return buf;
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_row(void)
{
    static char buf[8192];
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    sct_header(f);
    text_of(f, buf, sizeof buf);
    CHECK(starts(buf, "family\tvariant\tconfig\top\tl1_requests_pred\tl1_requests_meas\t"));
    CHECK_STR_HAS(buf, "\tdram_err_pct\t");
    CHECK_STR_HAS(buf, "\ttime_ns\tagree\tmismatch\tlab\tlab_source\tlab_vs_model\tnote\tn\twarps_per_block"
                       "\tjudged\twide\n");
    sct_row g;
    sct_init(&g);
    g.family = "copy", g.variant = "stride", g.config = "stride=4", g.op = "ld";
    g.p[SCT_REQ] = 100, g.m[SCT_REQ] = 100;
    g.p[SCT_SEC] = 1600, g.m[SCT_SEC] = 1600;
    g.p[SCT_DRAM] = 1000, g.m[SCT_DRAM] = 1100;
    sct_derive(&g, 12800);      /* 100 requests of 32 lanes x 4 B */
    CHECK_NEAR(g.p[SCT_SPR], 16, 1e-12);
    CHECK_NEAR(g.p[SCT_L1U], 25, 1e-12);
    CHECK_NEAR(g.m[SCT_DRAMERR], 10, 1e-9);
    g.agree = "no", g.mismatch = "dram_sectors", g.note = "a\tnote";
    FILE *r = tmpfile();
    CHECK(r != NULL);
    if (!r) {
        fclose(f);
        return;
    }
    sct_put(r, &g, 0);
    text_of(r, buf, sizeof buf);
    CHECK(starts(buf, "copy\tstride\tstride=4\tld\t100\t100\tNA\t1600\t1600\t16.0000\t16.0000\t"));
    CHECK_STR_HAS(buf, "\t+10.00\t");
    CHECK_STR_HAS(buf, "\tno\tdram_sectors\t-\t-\t-\ta note\tNA\tNA\t-\t-\n");   /* a tab in a note is a blank */
    g.n = 1000, g.wpb = 4, g.judged = "l1_requests,l1_sectors", g.wide = "l2_requests";
    FILE *r2 = tmpfile();
    CHECK(r2 != NULL);
    if (r2) {
        sct_put(r2, &g, 0);
        text_of(r2, buf, sizeof buf);
        CHECK_STR_HAS(buf, "\ta note\t1000\t4\tl1_requests,l1_sectors\tl2_requests\n");
        fclose(r2);
    }
    fclose(r);
    r = tmpfile();
    CHECK(r != NULL);
    if (r) {
        sct_put(r, &g, 1);
        text_of(r, buf, sizeof buf);
        CHECK_STR_HAS(buf, "| stride | stride=4 | ld");
        CHECK_STR_HAS(buf, "**no** (dram_sectors)");
        fclose(r);
    }
    fclose(f);
}

static void test_readers(void)
{
    uint64_t v = 0;
    CHECK_EQ_I(sct_config_value("n0=32,n1=2,r=1", "n1", &v), 0);
    CHECK_EQ_U(v, 2);
    CHECK_EQ_I(sct_config_value("stride=16", "stride", &v), 0);
    CHECK_EQ_U(v, 16);
    CHECK_EQ_I(sct_config_value("xstride=16", "stride", &v), -1);   /* a key, not a suffix */
    CHECK_EQ_I(sct_config_value("stride=4x", "stride", &v), -1);
    CHECK_EQ_I(sct_config_value("-", "stride", &v), -1);
    CHECK_EQ_I(sct_config_value(NULL, "stride", &v), -1);
    char name[32];
    sct_base_name("copy_stride(int const*, int*, unsigned long)", name, sizeof name);
    CHECK(strcmp(name, "copy_stride") == 0);
    sct_base_name("patterns_coalesced_ca ", name, sizeof name);
    CHECK(strcmp(name, "patterns_coalesced_ca") == 0);
    sct_base_name("a_very_long_kernel_name_beyond_the_buffer(x)", name, 8);
    CHECK(strcmp(name, "a_very_") == 0);
}

int main(void)
{
    test_row();
    test_readers();
    return check_report("test_sector_table");
}
