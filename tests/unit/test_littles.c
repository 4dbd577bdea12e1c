/*
 * test_littles - Little's law (src/lib/littles.c) against hand-computed cases.
 *
 * The round case: 100 SMs x 10 warps x 100 B = 1e5 B in flight; a load of
 * 1000 cycles at 1000 MHz takes 1 us; so 1e5 B / 1e-6 s = 1e11 B/s = 100 GB/s.
 */
#include <math.h>

#include "check.h"
#include "littles.h"

int main(void)
{
    CHECK_NEAR(littles_unbounded_GBps(100, 10, 100, 1000, 1000), 100, 1e-9);
    CHECK_NEAR(littles_bound_GBps(200, 100, 10, 100, 1000, 1000), 100, 1e-9);
    CHECK_NEAR(littles_bound_GBps(50, 100, 10, 100, 1000, 1000), 50, 0);  /* peak caps it */
    CHECK_NEAR(littles_bound_GBps(100, 100, 10, 100, 1000, 1000), 100, 1e-9);
    /* Twice the latency halves it, twice the warps doubles it. */
    CHECK_NEAR(littles_unbounded_GBps(100, 10, 100, 1000, 2000), 50, 1e-9);
    CHECK_NEAR(littles_unbounded_GBps(100, 20, 100, 1000, 1000), 200, 1e-9);

    /* H100-like: 132 SMs x 4 warps x 128 B at 1755 MHz, 622 cycles:
     * 67584 B * 1755e6 / 622 / 1e9 = 118609920 / 622 / 1000 = 190.6912... */
    CHECK_NEAR(littles_unbounded_GBps(132, 4, 128, 1755, 622), 190.69119, 1e-5);

    /* Inverses, on the round case (peak 200 GB/s). */
    CHECK_NEAR(littles_latency_cycles_for(0.5, 200, 100, 10, 100, 1000), 1000, 1e-9);
    CHECK_NEAR(littles_latency_cycles_for(1.0, 200, 100, 10, 100, 1000), 500, 1e-9);
    CHECK_NEAR(littles_warps_per_sm_for(0.5, 200, 100, 100, 1000, 1000), 10, 1e-9);
    CHECK_NEAR(littles_warps_per_sm_for(1.0, 200, 100, 100, 1000, 1000), 20, 1e-9);
    CHECK_NEAR(littles_bytes_per_warp_for(1.0, 200, 100, 10, 1000, 1000), 200, 1e-9);
    CHECK_NEAR(littles_bytes_per_warp_for(0.25, 200, 100, 10, 1000, 1000), 50, 1e-9);

    /* bw x latency: 100 GB/s for 1 us is 1e5 B; 3352 GB/s for 622 cycles at
     * 1755 MHz: 3352e9 * 622 / 1755e6 = 2084944 / 1.755 = 1188002.279 B. */
    CHECK_NEAR(littles_bytes_in_flight(100, 1000, 1000), 1e5, 1e-6);
    CHECK_NEAR(littles_bytes_in_flight(3352, 622, 1755), 1188002.279, 1e-3);

    /* The inverses really invert the bound. */
    double lat = littles_latency_cycles_for(0.8, 3352, 132, 48, 512, 1755);
    CHECK_NEAR(littles_unbounded_GBps(132, 48, 512, 1755, lat), 0.8 * 3352, 1e-6);
    double w = littles_warps_per_sm_for(0.8, 3352, 132, 128, 1755, 622);
    CHECK_NEAR(littles_unbounded_GBps(132, w, 128, 1755, 622), 0.8 * 3352, 1e-6);

    /* Nonsense in, NAN out. */
    CHECK(isnan(littles_unbounded_GBps(0, 10, 100, 1000, 1000)));
    CHECK(isnan(littles_unbounded_GBps(100, 10, 100, 1000, -5)));
    CHECK(isnan(littles_unbounded_GBps(100, 10, 100, NAN, 1000)));
    CHECK(isnan(littles_bound_GBps(0, 100, 10, 100, 1000, 1000)));
    CHECK(isnan(littles_latency_cycles_for(1.5, 200, 100, 10, 100, 1000)));
    CHECK(isnan(littles_warps_per_sm_for(0, 200, 100, 100, 1000, 1000)));
    CHECK(isnan(littles_bytes_in_flight(100, 0, 1000)));
    CHECK(isnan(littles_bytes_per_warp_for(1, 200, 100, 10, 1000, INFINITY)));

    /* The bound curve's points: whole warps to wmax, the knee between them. */
    littles_point p[LITTLES_CURVE_MAX_WARPS + 2];
    CHECK_EQ_U(littles_curve_points(2.5, 4, p, 8), 5);
    CHECK_NEAR(p[0].warps_per_sm, 1, 0);
    CHECK_NEAR(p[2].warps_per_sm, 2.5, 0);
    CHECK_EQ_I(p[2].knee, 1);
    CHECK_EQ_I(p[3].knee, 0);
    CHECK_NEAR(p[4].warps_per_sm, 4, 0);
    CHECK_EQ_U(littles_curve_points(2, 4, p, 8), 4);      /* a whole knee: no extra point */
    CHECK_EQ_U(littles_curve_points(9, 3.5, p, 8), 4);    /* knee beyond: 1 2 3 3.5 */
    CHECK_NEAR(p[3].warps_per_sm, 3.5, 0);
    CHECK_EQ_U(littles_curve_points(NAN, NAN, p, 8), 1);  /* nothing known: the point 1 */
    CHECK_EQ_U(littles_curve_points(2.5, 4, p, 4), 0);    /* does not fit */
    CHECK_EQ_U(littles_curve_points(1.5, LITTLES_CURVE_MAX_WARPS, p, LITTLES_CURVE_MAX_WARPS + 2),
               LITTLES_CURVE_MAX_WARPS + 1);
    /* a sweep of 3e38 warps per SM once drew forever (3e38 + 1 == 3e38): refused */
    CHECK_EQ_U(littles_curve_points(2.5, 3e38, p, LITTLES_CURVE_MAX_WARPS + 2), 0);
    CHECK_EQ_U(littles_curve_points(2.5, INFINITY, p, LITTLES_CURVE_MAX_WARPS + 2), 0);
    return check_report("test_littles");
}
