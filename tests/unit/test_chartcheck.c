/* test_chartcheck.c - what a chart would hide (chartcheck.h). */
#include <math.h>
#include <string.h>

#include "chartcheck.h"
#include "check.h"

int main(void)
{
    const double x[] = {0, 1, 2, 3};
    const double a[] = {840, 835, 838, 841}, b[] = {845, 840, 842, 846}, c[] = {700, 835, 838, 841};
    char buf[1024];
    const cc_range open = {NAN, NAN}, bw = {0, 3620}, util = {0, 160};

    /* two series within 1 % everywhere: said; one point 16 % off: not */
    cc_series s[] = {{"ca", x, a, 4, 0, 0, 0}, {"cg", x, b, 4, 0, 0, 0}};
    CHECK_EQ_I(cc_check(s, 2, open, open, buf, sizeof buf), 1);
    CHECK_STR_HAS(buf, "'ca' and 'cg' coincide within 1% at every point");
    s[1].y = c;
    CHECK_EQ_I(cc_check(s, 2, open, open, buf, sizeof buf), 0);
    CHECK(buf[0] == 0);
    /* three that coincide: one sentence for the group */
    const double a2[] = {841, 836, 839, 842};
    cc_series g3[] = {{"ca", x, a, 4, 0, 0, 0}, {"cg", x, b, 4, 0, 0, 0}, {"nc", x, a2, 4, 0, 0, 0}};
    CHECK_EQ_I(cc_check(g3, 3, open, open, buf, sizeof buf), 1);
    CHECK_STR_HAS(buf, "'ca', 'cg' and 'nc' coincide within 1% at every point");
    /* on different axes they cannot hide each other */
    s[1].y = b;
    s[1].axis2 = 1;
    CHECK_EQ_I(cc_check(s, 2, open, open, buf, sizeof buf), 0);

    /* two lines within 1 % (the bound over the peak), a line apart */
    cc_series l[] = {{"peak", NULL, NULL, 0, 0, 1, 3352.3}, {"bound", NULL, NULL, 0, 0, 1, 3360},
                     {"ceiling", NULL, NULL, 0, 0, 1, 3194.1}};
    CHECK_EQ_I(cc_check(l, 3, bw, open, buf, sizeof buf), 1);
    CHECK_STR_HAS(buf, "the lines 'peak' and 'bound' lie within 1% of each other");

    /* a line on the x axis of a 0-350 axis (0.537 of 350 is 0.15 %) */
    cc_series t[] = {{"ideal 0.537 GB", NULL, NULL, 0, 0, 1, 0.537}};
    CHECK_EQ_I(cc_check(t, 1, (cc_range){0, 350}, open, buf, sizeof buf), 1);
    CHECK_STR_HAS(buf, "'ideal 0.537 GB' lies outside the left axis's range, or on its edge");
    t[0].y_line = 20;
    CHECK_EQ_I(cc_check(t, 1, (cc_range){0, 350}, open, buf, sizeof buf), 0);
    /* a series above its axis; the right axis has its own range */
    const double u[] = {100, 80, 80, 100};
    cc_series v[] = {{"util", x, u, 4, 1, 0, 0}};
    CHECK_EQ_I(cc_check(v, 1, bw, util, buf, sizeof buf), 0);
    CHECK_EQ_I(cc_check(v, 1, bw, (cc_range){0, 90}, buf, sizeof buf), 1);
    CHECK_STR_HAS(buf, "'util' lies outside the right axis's range");
    /* a series on a line */
    cc_series w[] = {{"bw", x, a, 4, 0, 0, 0}, {"at 838", NULL, NULL, 0, 0, 1, 838}};
    CHECK_EQ_I(cc_check(w, 2, open, open, buf, sizeof buf), 1);
    CHECK_STR_HAS(buf, "'bw' lies within 1% of the line 'at 838'");

    /* ranges read from a script: the last one counts, '*' is open */
    cc_range r = cc_range_in("set yrange [0:4000]\nset y2range [0:110]\nset yrange [0:3620.5]\n", "y");
    CHECK_NEAR(r.lo, 0, 1e-9);
    CHECK_NEAR(r.hi, 3620.5, 1e-9);
    r = cc_range_in("set y2range [0:110]\n", "y2");
    CHECK_NEAR(r.hi, 110, 1e-9);
    r = cc_range_in("set yrange [0:*]\n", "y");
    CHECK(isnan(r.hi));
    r = cc_range_in("plot x\n", "y");
    CHECK(isnan(r.lo) && isnan(r.hi));
    return check_report("test_chartcheck");
}
