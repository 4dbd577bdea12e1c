/*
 * test_figscan.c - figures of the docs and their annotations
 * (src/lib/figscan.c): a line cut into numbers and comments (code spans,
 * link targets and glued numbers left out), terms split, expressions
 * evaluated left to right, quotes rounded.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "figscan.h"

static int fake(const char *tok, double *v, void *ctx, char *err, size_t errlen)
{
    (*(int *)ctx)++;
    if (!strcmp(tok, "a.tsv:bw")) { *v = 3194.1; return 0; }
    snprintf(err, errlen, "no %s", tok);
    return -1;
}

int main(void)
{
    static figscan_item it[FIGSCAN_MAX_ITEMS];
    int n = figscan_line("float4 reaches 83.3%<!-- fig h/r.tsv:pct[kernel=float4] --> of peak, "
                         "`12 ns` in code, [x](doc2.md) 1e8 elements, 2.4x faster, 64 warps", it,
                         FIGSCAN_MAX_ITEMS);
    CHECK_EQ_I(n, 4); /* not the 4 of float4, the code span, the link target or 1e8 */
    if (n == 4) {
        CHECK(strcmp(it[0].text, "83.3") == 0);
        CHECK_EQ_I(it[0].needs, 1);                      /* a % */
        CHECK_EQ_I(it[1].is_comment, 1);
        CHECK(strcmp(it[1].text, " fig h/r.tsv:pct[kernel=float4] ") == 0);
        CHECK(strcmp(it[2].text, "2.4") == 0);
        CHECK_EQ_I(it[2].needs, 1);                      /* 2.4x */
        CHECK(strcmp(it[3].text, "64") == 0);
        CHECK_EQ_I(it[3].needs, 0);                      /* warps is no unit */
    }
    CHECK_EQ_I(figscan_line("a <!-- unterminated", it, FIGSCAN_MAX_ITEMS), -1);
    CHECK_EQ_I(figscan_line("-5 cycles", it, FIGSCAN_MAX_ITEMS), 1);
    CHECK(strcmp(it[0].text, "-5") == 0);

    figscan_term t;
    char err[300];
    CHECK_EQ_I(figscan_parse_term("max(h/r.tsv:bw_GBps[kernel=x,wpb=4])", &t, err, sizeof err), 0);
    CHECK(strcmp(t.fn, "max") == 0 && strcmp(t.file, "h/r.tsv") == 0 && t.kind == ':');
    CHECK(strcmp(t.col, "bw_GBps") == 0 && strcmp(t.sel, "kernel=x,wpb=4") == 0);
    CHECK_EQ_I(figscan_parse_term("h/l.tsv@levels:cycles[level=DRAM]", &t, err, sizeof err), 0);
    CHECK(t.kind == '@' && strcmp(t.what, "levels") == 0 && strcmp(t.col, "cycles[level=DRAM]") == 0);
    CHECK_EQ_I(figscan_parse_term("h/s.tsv#sm_count", &t, err, sizeof err), 0);
    CHECK(t.kind == '#' && strcmp(t.col, "sm_count") == 0);
    CHECK_EQ_I(figscan_parse_term("max(h/r.tsv:bw", &t, err, sizeof err), -1);
    CHECK_STR_HAS(err, "no closing parenthesis");
    CHECK_EQ_I(figscan_parse_term("h/r.tsv:bw[k=1", &t, err, sizeof err), -1);
    CHECK_EQ_I(figscan_parse_term("plain", &t, err, sizeof err), -1);
    CHECK_EQ_I(figscan_parse_term("h@stats", &t, err, sizeof err), -1);

    double v = 0, tol = -1;
    int calls = 0;
    CHECK_EQ_I(figscan_eval("a.tsv:bw / 2 + 1 ~5%", fake, &calls, &v, &tol, err, sizeof err), 0);
    CHECK_NEAR(v, 3194.1 / 2 + 1, 1e-9);                 /* left to right */
    CHECK_NEAR(tol, 5, 0);
    CHECK_EQ_I(calls, 1);                                /* numbers are not looked up */
    CHECK_EQ_I(figscan_eval("1 + 2 * 3", fake, &calls, &v, &tol, err, sizeof err), 0);
    CHECK_NEAR(v, 9, 0);
    CHECK_EQ_I(figscan_eval("1 +", fake, &calls, &v, &tol, err, sizeof err), -1);
    CHECK_EQ_I(figscan_eval("1 2", fake, &calls, &v, &tol, err, sizeof err), -1);
    CHECK_EQ_I(figscan_eval("* 2", fake, &calls, &v, &tol, err, sizeof err), -1);
    CHECK_EQ_I(figscan_eval("b.tsv:x", fake, &calls, &v, &tol, err, sizeof err), -1);
    CHECK_STR_HAS(err, "no b.tsv:x");
    CHECK_EQ_I(figscan_eval("1 ~x", fake, &calls, &v, &tol, err, sizeof err), -1);

    char shown[64];
    CHECK(figscan_agrees("83.3", 83.34, 0, shown, sizeof shown));
    CHECK(strcmp(shown, "83.3") == 0);
    CHECK(!figscan_agrees("83.3", 83.36, 0, shown, sizeof shown));
    CHECK(figscan_agrees("80", 83, 5, shown, sizeof shown));
    CHECK(!figscan_agrees("80", 90, 5, shown, sizeof shown));
    return check_report("test_figscan");
}
