/*
 * test_sweepncu.c - what sweep_ncu takes from an ncu log and a sweep
 * (src/sector/sweepncu.c): the last launch of the kernel (a name followed by
 * its signature counts, a longer name does not), the units, the preamble.
 */
#define _GNU_SOURCE /* fmemopen */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "sweepncu.h"

#define HDR "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
#define ROW(id, k, m, u, v) "\"" id "\",\"" k "\",\"" m "\",\"" u "\",\"" v "\"\n"

int main(void)
{
    const char csv[] = HDR
        ROW("0", "readonly_baseline", SWEEPNCU_M_ACH, "%", "40.00")
        ROW("0", "readonly_baseline", SWEEPNCU_M_DRAM, "byte/s", "805,561,855,670.10")
        ROW("1", "readonly_baseline(float const*)", SWEEPNCU_M_ACH, "%", "42.125")
        ROW("1", "readonly_baseline(float const*)", SWEEPNCU_M_DRAM, "Gbyte/s", "900.5")
        ROW("2", "readonly_baseline_wide", SWEEPNCU_M_ACH, "%", "99");
    ncu_table t;
    char err[600];
    CHECK_EQ_I(ncu_table_parse(csv, sizeof csv - 1, &t, err, sizeof err), NCU_OK);
    double ach = 0, dram = 0;
    CHECK_EQ_I(sweepncu_point(&t, "readonly_baseline", &ach, &dram, err, sizeof err), 0);
    CHECK_NEAR(ach, 42.125, 1e-12);                 /* the last launch, with a signature */
    CHECK_NEAR(dram, 900.5, 1e-9);                  /* Gbyte/s -> GB/s */
    CHECK_EQ_I(sweepncu_point(&t, "readonly_baseline_wide", &ach, &dram, err, sizeof err), 0);
    CHECK_NEAR(ach, 99, 0);
    CHECK(isnan(dram));
    CHECK_EQ_I(sweepncu_point(&t, "readonly", &ach, &dram, err, sizeof err), -1);
    CHECK_STR_HAS(err, "no launch of readonly in it");
    ncu_table_free(&t);

    const char other[] = HDR ROW("0", "k", "gpu__time_duration.sum", "ns", "5");
    CHECK_EQ_I(ncu_table_parse(other, sizeof other - 1, &t, err, sizeof err), NCU_OK);
    CHECK_EQ_I(sweepncu_point(&t, "k", &ach, &dram, err, sizeof err), -1);
    CHECK_STR_HAS(err, "neither " SWEEPNCU_M_ACH);
    ncu_table_free(&t);

    const char sweep[] = "# device\tH100\n# ncu\told\n\n# kernel\tbaseline\nblocks_per_sm\tx\n1\t2\n";
    char out[256] = "";
    FILE *in = fmemopen((void *)sweep, sizeof sweep - 1, "r");
    FILE *o = fmemopen(out, sizeof out, "w");
    CHECK(in && o);
    if (in && o) {
        CHECK_EQ_I(sweepncu_preamble(in, o), 0);
        fclose(o);
        CHECK(strcmp(out, "# device\tH100\n\n# kernel\tbaseline\n") == 0);
    }
    if (in) fclose(in);
    return check_report("test_sweepncu");
}
