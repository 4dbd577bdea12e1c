/*
 * test_timeline.c - the warps of a per-warp timeline (src/lib/timeline.c):
 * the first SMs met or the ones asked for, one region, the cap, records that
 * end before they start, and the order.
 */
#include <stdlib.h>

#include "check.h"
#include "timeline.h"

static warp_record rec(uint16_t sm, uint64_t start, uint64_t end, uint32_t block, uint8_t warp,
                       uint8_t region)
{
    warp_record r = {0};
    r.smid = sm;
    r.start_clk = start;
    r.end_clk = end;
    r.block = block;
    r.warp = warp;
    r.region = region;
    return r;
}

int main(void)
{
    warp_record r[8] = {rec(7, 50, 90, 0, 0, 0),  rec(3, 20, 30, 1, 1, 0), rec(7, 10, 15, 2, 1, 1),
                        rec(9, 5, 6, 3, 0, 0),    rec(1, 1, 2, 4, 0, 0),   rec(2, 1, 2, 5, 0, 0),
                        rec(3, 40, 35, 6, 0, 0),  rec(3, 20, 31, 0, 2, 0)};
    /* no list: the first 4 SMs met (7 3 9 1), SM 2 left out */
    timeline *t = timeline_new(NULL, 0, -1, 100);
    CHECK(t != NULL);
    if (!t) return check_report("test_timeline");
    CHECK_EQ_I(timeline_add(t, r, 8), 0);
    CHECK_EQ_I(t->nsms, 4);
    CHECK_EQ_I(t->sms[0], 7);
    CHECK_EQ_I(t->sms[3], 1);
    CHECK_EQ_U(t->n, 6);
    CHECK_EQ_U(t->bad, 1);                 /* SM 3's record that ends before it starts */
    CHECK_EQ_U(t->min_start[0], 10);       /* SM 7's earliest start */
    CHECK_EQ_U(t->count_sm[1], 2);
    timeline_sort(t);
    CHECK_EQ_U(t->w[0].start_clk, 10);     /* SM 7 first, by start */
    CHECK_EQ_U(t->w[0].lat_cycles, 5);
    CHECK_EQ_U(t->w[1].start_clk, 50);
    CHECK_EQ_U(t->w[2].block, 0);          /* SM 3: start 20 twice, block 0 before 1 */
    CHECK_EQ_U(t->w[3].block, 1);
    CHECK_EQ_I(t->truncated, 0);
    timeline_free(t);

    /* a list, region 0, a cap of 2 */
    const int sms[] = {3, 7};
    t = timeline_new(sms, 2, 0, 2);
    CHECK(t != NULL);
    if (!t) return check_report("test_timeline");
    CHECK_EQ_I(timeline_add(t, r, 8), 0);
    CHECK_EQ_U(t->n, 2);
    CHECK_EQ_I(t->truncated, 1);
    CHECK_EQ_I(t->w[0].sm_rank, 1);        /* SM 7 is second in the list */
    CHECK_EQ_I(t->w[1].sm_rank, 0);
    timeline_free(t);
    CHECK(timeline_new(sms, TIMELINE_MAX_SMS + 1, -1, 1) == NULL);
    return check_report("test_timeline");
}
