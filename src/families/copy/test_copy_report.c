/* test_copy_report.c - the copy family's arithmetic in the report
 * (report_math.h) against small tables and numbers worked out by hand;
 * built as build/tests/test_copy_report. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../tests/unit/check.h"
#include "../../../tests/unit/testtable.h"
#include "report_math.h"

int main(void)
{
    char b[4096];

    /* --- strides, and a bandwidth against a reference */
    rfm_series spr = {{1, 2, 8, 16}, {4, 8, 32, 31.99}, 4}, bw = {{1, 128}, {1600, 200}, 2};
    CHECK(rfm_stride_note("stride (loads)", &spr, &bw, b, sizeof b) == 0);
    CHECK(!strcmp(b, "stride (loads): 4.0 sectors per request at stride 1, 32.0 (x8.0) from stride 8 on; "
                     "1600.0 GB/s at stride 1, 200.0 GB/s at stride 128 (x0.12)."));
    rfm_series none = {{0}, {0}, 0};
    CHECK(rfm_stride_note("x", &none, &none, b, sizeof b) == 1);
    CHECK(rfm_vs_reference("int4 (batch=4)", 2942, 2897.9, b, sizeof b) == 0);
    CHECK(!strcmp(b, "int4 (batch=4) 2942.0 GB/s (101.5%)"));
    CHECK(rfm_vs_reference("x", NAN, 2897.9, b, sizeof b) == 1);

    return check_report("test_copy_report");
}
