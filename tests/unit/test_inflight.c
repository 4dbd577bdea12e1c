/*
 * test_inflight - warps in flight, the slot period and Little's law closed by
 * measurement (src/lib/inflight.c), on records made by hand.
 *
 * Two SMs at 1000 MHz (1 cycle = 1 ns), 1 block slot each, 2 warps per
 * block, 128 B per window.  Their clocks are unrelated (SM 1's reads 1000
 * more): nothing may subtract one from the other.
 *
 *   SM 0: block 0 [0,100] [10,100]   block 2 [150,250] [150,230]
 *         span 250, open-window integral 100+90+100+80 = 370, W_0 = 1.48
 *   SM 1: block 1 [1000,1100] x2     block 3 [1200,1300] x2
 *         span 300, integral 400, W_1 = 4/3
 *
 *   W = 1.48 + 4/3 = 2.81333..., L = 770 / 8 = 96.25 cycles
 *   P = 1 slot x (250 + 300) / 4 blocks = 137.5; the rest 41.25
 *   bytes in flight 2.81333 x 128 = 360.10667 B
 *   bound = 360.10667 B / 96.25 ns = 3.7413680 GB/s
 *   the kernel: 8 x 128 = 1024 B in 400 ns = 2.56 GB/s
 *   closure = 100 (2.56 - 3.741368) / 3.741368 = -31.5758%
 *
 * %globaltimer: SM 0 starts at 5000 ns, SM 1 at 5020 ns, so the device's
 * span is 5000 .. 5020 + 300 = 320 ns.  S_eff = 1024 / 3.741368 = 273.6967
 * ns; launch and drain 100 (400 - 320) / 400 = 20%, imbalance 100 (320 -
 * 273.6967) / 400 = 11.5758%, and 20 + 11.5758 = 31.5758 = -closure.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "inflight.h"

static warp_record rec(unsigned sm, unsigned block, uint64_t t0, uint64_t t1, uint64_t gt)
{
    warp_record r;
    memset(&r, 0, sizeof r);
    r.smid = (uint16_t)sm, r.block = block, r.start_clk = t0, r.end_clk = t1, r.gtimer_ns = gt;
    return r;
}

/* The records above; gtimer read before start (after end when at_end). */
static size_t make(warp_record *r, int at_end)
{
    static const struct { unsigned sm, block; uint64_t t0, t1; } w[] = {
        {0, 0, 0, 100}, {0, 0, 10, 100}, {1, 1, 1000, 1100}, {1, 1, 1000, 1100},
        {0, 2, 150, 250}, {0, 2, 150, 230}, {1, 3, 1200, 1300}, {1, 3, 1200, 1300}};
    for (size_t i = 0; i < 8; i++) {
        const uint64_t base = w[i].sm ? 5020 - 1000 : 5000;   /* gtimer at the SM's clock 0 */
        const uint64_t gt = base + (at_end ? w[i].t1 : w[i].t0);
        r[i] = rec(w[i].sm, w[i].block, w[i].t0, w[i].t1, gt);
    }
    return 8;
}

static void check_case(const inflight_result *o)
{
    CHECK_EQ_U(o->windows, 8);
    CHECK_EQ_U(o->blocks, 4);
    CHECK_EQ_I(o->sms, 2);
    CHECK_NEAR(o->lat_mean_cycles, 96.25, 1e-12);
    CHECK_NEAR(o->busy_span_cycles, 275, 1e-12);
    CHECK_NEAR(o->warps_in_flight, 1.48 + 4.0 / 3, 1e-12);
    CHECK_NEAR(o->warps_in_flight_per_sm, (1.48 + 4.0 / 3) / 2, 1e-12);
    CHECK_NEAR(o->slot_period_cycles, 137.5, 1e-12);
    CHECK_NEAR(o->slot_rest_cycles, 41.25, 1e-12);
    CHECK_NEAR(o->bytes_in_flight, 360.10666666666667, 1e-9);
    CHECK_NEAR(o->bound_GBps, 3.741367965367966, 1e-12);
    CHECK_NEAR(o->bw_GBps, 2.56, 1e-12);
    CHECK_NEAR(o->closure_err_pct, -31.575829383886262, 1e-9);
    CHECK_NEAR(o->device_span_us, 0.32, 1e-12);
    CHECK_NEAR(o->launch_drain_pct, 20, 1e-9);
    CHECK_NEAR(o->imbalance_pct, 11.575829383886257, 1e-9);
    /* the residual is named in full */
    CHECK_NEAR(o->launch_drain_pct + o->imbalance_pct, -o->closure_err_pct, 1e-9);
}

int main(void)
{
    const inflight_params prm = {128, 1, 1000, 0.0004};
    warp_record r[8];
    inflight_acc a;
    inflight_result o;
    char err[200];

    /* the whole set at once */
    inflight_init(&a, 1000, 0);
    inflight_add(&a, r, make(r, 0));
    CHECK(inflight_result_get(&a, &prm, &o, err, sizeof err) == 0);
    check_case(&o);

    /* in pieces, and with %globaltimer read after the end (log version 3) */
    inflight_init(&a, 1000, 1);
    make(r, 1);
    inflight_add(&a, r, 3);
    inflight_add(&a, r + 3, 5);
    CHECK(inflight_result_get(&a, &prm, &o, err, sizeof err) == 0);
    check_case(&o);

    /* the row as the sweep and bin/inflight write it */
    char line[256];
    CHECK(inflight_format(line, sizeof line, &o) > 0);
    CHECK(!strcmp(line, "1.41\t137.5\t41.2\t2.6\t3.7\t-31.58\t20.00\t11.58"));

    /* one block slot more (2 per SM): the same windows are half the period
     * each slot had, so the period doubles and nothing else moves */
    inflight_params two = prm;
    two.blocks_per_sm = 2;
    CHECK(inflight_result_get(&a, &two, &o, err, sizeof err) == 0);
    CHECK_NEAR(o.slot_period_cycles, 275, 1e-12);
    CHECK_NEAR(o.closure_err_pct, -31.575829383886262, 1e-9);

    /* a missing parameter is NAN, never a plausible number; "nan" in the row */
    inflight_params none = {0, 0, 0, 0};
    CHECK(inflight_result_get(&a, &none, &o, err, sizeof err) == 0);
    CHECK(isnan(o.slot_period_cycles) && isnan(o.bound_GBps) && isnan(o.bw_GBps));
    CHECK(isnan(o.closure_err_pct) && isnan(o.launch_drain_pct) && isnan(o.imbalance_pct));
    CHECK_NEAR(o.lat_mean_cycles, 96.25, 1e-12); /* what needs no parameter is still there */
    CHECK(inflight_format(line, sizeof line, &o) > 0);
    CHECK(!strcmp(line, "1.41\tnan\tnan\tnan\tnan\tnan\tnan\tnan"));

    /* nothing added: every figure NAN, the counts 0 */
    inflight_init(&a, 1000, 0);
    CHECK(inflight_result_get(&a, &prm, &o, err, sizeof err) == 0);
    CHECK_EQ_U(o.windows, 0);
    CHECK(isnan(o.lat_mean_cycles) && isnan(o.warps_in_flight) && isnan(o.device_span_us));

    /* a window whose end is before its start is 0 long, not 2^64 */
    inflight_init(&a, 1000, 0);
    r[0] = rec(3, 7, 500, 400, 0);
    r[1] = rec(3, 7, 400, 600, 0);
    inflight_add(&a, r, 2);
    CHECK(inflight_result_get(&a, &prm, &o, err, sizeof err) == 0);
    CHECK_NEAR(o.lat_mean_cycles, 100, 0);
    CHECK_NEAR(o.warps_in_flight, 200.0 / 200, 1e-12);
    CHECK_EQ_U(o.blocks, 1);

    /* an SM id beyond what any GPU has is an error, not a write out of bounds */
    inflight_init(&a, 1000, 0);
    r[0] = rec(300, 0, 0, 10, 0);
    inflight_add(&a, r, 1);
    CHECK(inflight_result_get(&a, &prm, &o, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "smid 300");

    /* H100-like: 4 resident warps whose load holds a slot 719 of every 1108
     * cycles keep 4 x 719 / 1108 = 2.596 in flight; one SM, one slot, three
     * blocks back to back: [0,719] [1108,1827] [2216,2935], each of 4 warps */
    inflight_init(&a, 1980, 0);
    for (unsigned b = 0; b < 3; b++)
        for (unsigned w = 0; w < 4; w++) {
            r[0] = rec(0, b, 1108u * b, 1108u * b + 719, 0);
            inflight_add(&a, r, 1);
        }
    const inflight_params h = {128, 1, 1980, 1};
    CHECK(inflight_result_get(&a, &h, &o, err, sizeof err) == 0);
    /* span 2935 = 2 periods + 719: the last block's rest is not in the span */
    CHECK_NEAR(o.slot_period_cycles, 2935.0 / 3, 1e-9);
    CHECK_NEAR(o.warps_in_flight, 12 * 719.0 / 2935, 1e-12);
    return check_report("test_inflight");
}
