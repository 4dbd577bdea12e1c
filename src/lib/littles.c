/*
 * littles.c - Little's law (contract and formulas: littles.h).
 *
 * Everything is computed in bytes per second and seconds, so the only unit
 * conversions are the 1e6 of MHz and the 1e9 of GB, each in one place.
 */
#include "littles.h"

#include <math.h>

static int pos(double x) { return isfinite(x) && x > 0; }
static int frac_ok(double f) { return isfinite(f) && f > 0 && f <= 1; }

/* Seconds one load takes. */
static double latency_s(double latency_cycles, double sm_clock_MHz)
{
    return latency_cycles / (sm_clock_MHz * 1e6);
}

double littles_unbounded_GBps(double sm_count, double warps_per_sm, double bytes_per_warp,
                              double sm_clock_MHz, double latency_cycles)
{
    if (!pos(sm_count) || !pos(warps_per_sm) || !pos(bytes_per_warp) || !pos(sm_clock_MHz) ||
        !pos(latency_cycles))
        return NAN;
    double bytes_in_flight = sm_count * warps_per_sm * bytes_per_warp;
    return bytes_in_flight / latency_s(latency_cycles, sm_clock_MHz) / 1e9;
}

double littles_bound_GBps(double peak_GBps, double sm_count, double warps_per_sm,
                          double bytes_per_warp, double sm_clock_MHz, double latency_cycles)
{
    if (!pos(peak_GBps)) return NAN;
    double u = littles_unbounded_GBps(sm_count, warps_per_sm, bytes_per_warp, sm_clock_MHz,
                                      latency_cycles);
    return isnan(u) ? NAN : fmin(peak_GBps, u);
}

double littles_latency_cycles_for(double frac, double peak_GBps, double sm_count,
                                  double warps_per_sm, double bytes_per_warp,
                                  double sm_clock_MHz)
{
    if (!frac_ok(frac) || !pos(peak_GBps) || !pos(sm_count) || !pos(warps_per_sm) ||
        !pos(bytes_per_warp) || !pos(sm_clock_MHz))
        return NAN;
    double bytes_in_flight = sm_count * warps_per_sm * bytes_per_warp;
    double target_Bps = frac * peak_GBps * 1e9;
    return bytes_in_flight / target_Bps * sm_clock_MHz * 1e6;
}

/* What each of sm_count x `given` must hold in flight for frac of the peak:
 * the warps per SM given the bytes per warp, or the bytes per warp given the
 * warps per SM (the same division). */
static double in_flight_share(double frac, double peak_GBps, double sm_count, double given,
                              double sm_clock_MHz, double latency_cycles)
{
    if (!frac_ok(frac) || !pos(peak_GBps) || !pos(sm_count) || !pos(given) ||
        !pos(sm_clock_MHz) || !pos(latency_cycles))
        return NAN;
    double need_bytes = littles_bytes_in_flight(frac * peak_GBps, latency_cycles, sm_clock_MHz);
    return need_bytes / (sm_count * given);
}

double littles_warps_per_sm_for(double frac, double peak_GBps, double sm_count,
                                double bytes_per_warp, double sm_clock_MHz,
                                double latency_cycles)
{
    return in_flight_share(frac, peak_GBps, sm_count, bytes_per_warp, sm_clock_MHz, latency_cycles);
}

double littles_bytes_per_warp_for(double frac, double peak_GBps, double sm_count,
                                  double warps_per_sm, double sm_clock_MHz,
                                  double latency_cycles)
{
    return in_flight_share(frac, peak_GBps, sm_count, warps_per_sm, sm_clock_MHz, latency_cycles);
}

double littles_bytes_in_flight(double bw_GBps, double latency_cycles, double sm_clock_MHz)
{
    if (!pos(bw_GBps) || !pos(latency_cycles) || !pos(sm_clock_MHz)) return NAN;
    return bw_GBps * 1e9 * latency_s(latency_cycles, sm_clock_MHz);
}

size_t littles_curve_points(double knee, double wmax, littles_point *pts, size_t max)
{
    const double wtop = fmax(wmax, 1.0); /* NaN: 1 */
    if (!(wtop <= LITTLES_CURVE_MAX_WARPS)) return 0;
    int knee_done = !(knee > 1.0 && knee < wtop);
    size_t n = 0;
    /* w climbs by whole warps to wtop: at most LITTLES_CURVE_MAX_WARPS steps,
     * since wtop is bounded (an unbounded one never ended: 3e38 + 1 == 3e38) */
    for (double w = 1.0;; w = fmin(w + 1.0, wtop)) {
        if (!knee_done && knee <= w) {
            if (knee < w) {
                if (n == max) return 0;
                pts[n++] = (littles_point){knee, 1};
            }
            knee_done = 1;
        }
        if (n == max) return 0;
        pts[n++] = (littles_point){w, 0};
        if (w >= wtop) break;
    }
    return n;
}
