/*
 * test_recordtab.c - warp records written as text (src/lib/recordtab.c):
 * fields, the optional region, comments, a warp above 255, and every error
 * with its line number.
 */
#define _GNU_SOURCE /* fmemopen */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "recordtab.h"

static int read_text(const char *text, size_t max, warp_record **r, size_t *n, uint32_t *mb,
                     char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    CHECK(f != NULL);
    if (!f) return -2;
    const int rc = recordtab_read(f, "in", max, r, n, mb, err, errlen);
    fclose(f);
    return rc;
}

int main(void)
{
    char err[300];
    warp_record *r = NULL;
    size_t n = 0;
    uint32_t mb = 0;
    CHECK_EQ_I(read_text("# start end gtimer block warp smid\n\n"
                         "100 150 7 3 1 12\n"
                         "  200\t260 8 9 300 4 1\r\n", 10, &r, &n, &mb, err, sizeof err), 0);
    CHECK_EQ_U(n, 2);
    CHECK_EQ_U(mb, 9);
    if (n == 2) {
        CHECK_EQ_U(r[0].start_clk, 100);
        CHECK_EQ_U(r[0].end_clk, 150);
        CHECK_EQ_U(r[0].gtimer_ns, 7);
        CHECK_EQ_U(r[0].block, 3);
        CHECK_EQ_U(r[0].warp, 1);
        CHECK_EQ_U(r[0].smid, 12);
        CHECK_EQ_U(r[0].region, 0);
        CHECK_EQ_U(r[1].warp, 300 & 0xff);       /* 300 = 0x12c: 0x2c, and 0x01 ... */
        CHECK_EQ_U(r[1].region, (300 >> 8) | 1); /* ... in the region byte, with region 1 */
    }
    free(r);

    CHECK_EQ_I(read_text("", 10, &r, &n, &mb, err, sizeof err), 0);
    CHECK_EQ_U(n, 0);
    free(r);
    CHECK_EQ_I(read_text("1 2 3 4 5 6\n1 2 3 4 5\n", 10, &r, &n, &mb, err, sizeof err), -1);
    CHECK_STR_HAS(err, "in line 2: expected six unsigned integers");
    CHECK_STR_HAS(err, "smid is missing");
    CHECK_EQ_I(read_text("1 2 3 4 5 6 0 9\n", 10, &r, &n, &mb, err, sizeof err), -1);
    CHECK_STR_HAS(err, "in line 1: more than seven fields (from '9')");
    CHECK_EQ_I(read_text("1 2 3 4294967296 5 6\n", 10, &r, &n, &mb, err, sizeof err), -1);
    CHECK_STR_HAS(err, "block");
    CHECK_EQ_I(read_text("1 2 3 4 5 6 99\n", 10, &r, &n, &mb, err, sizeof err), -1);
    CHECK_STR_HAS(err, "region");
    CHECK_EQ_I(read_text("1 -2 3 4 5 6\n", 10, &r, &n, &mb, err, sizeof err), -1);
    CHECK_EQ_I(read_text("1 2 3 4 5 6\n1 2 3 4 5 6\n", 1, &r, &n, &mb, err, sizeof err), -1);
    CHECK_STR_HAS(err, "in has more than 1 records");
    char *longline = malloc(RECORDTAB_MAX_LINE + 10);
    if (longline) {
        memset(longline, '1', RECORDTAB_MAX_LINE + 8);
        strcpy(longline + RECORDTAB_MAX_LINE + 8, "\n");
        CHECK_EQ_I(read_text(longline, 10, &r, &n, &mb, err, sizeof err), -1);
        CHECK_STR_HAS(err, "in line 1: longer than 4096 bytes");
        free(longline);
    }
    /* one line on its own */
    char line[] = "5 6 7 8 9 10";
    warp_record one;
    CHECK_EQ_I(recordtab_parse_line(line, &one, err, sizeof err), 1);
    CHECK_EQ_U(one.smid, 10);
    char blank[] = "   # note";
    CHECK_EQ_I(recordtab_parse_line(blank, &one, err, sizeof err), 0);
    return check_report("test_recordtab");
}
