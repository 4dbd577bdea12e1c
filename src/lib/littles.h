/*
 * littles.h - Little's law for GPU memory throughput.
 *
 * A device that keeps sm_count * warps_per_sm warps each waiting on
 * bytes_per_warp bytes, and each load takes latency_cycles of an SM clock
 * of sm_clock_MHz, moves at most
 *
 *   unbounded_GBps = sm_count * warps_per_sm * bytes_per_warp
 *                    * sm_clock_MHz * 1e6 / latency_cycles / 1e9
 *
 * (bytes in flight divided by the time one of them takes), and never more
 * than the DRAM peak:
 *
 *   bound_GBps = min(peak_GBps, unbounded_GBps).
 *
 * The inverse questions answer "what would it take to reach a fraction
 * frac of the peak": each solves unbounded_GBps = frac * peak_GBps for one
 * quantity.  Units are in every name; counts (sm_count, warps_per_sm) are
 * doubles so that averages (achieved occupancy) can be passed.
 *
 * Every function returns NAN when an argument is not finite or not > 0
 * (frac must be in (0, 1]): a bound from a missing measurement should show
 * as "nan" in a table, never as a plausible number.
 */
#ifndef WARPLAT_LITTLES_H
#define WARPLAT_LITTLES_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes in flight over latency, ignoring the peak. */
double littles_unbounded_GBps(double sm_count, double warps_per_sm, double bytes_per_warp,
                              double sm_clock_MHz, double latency_cycles);

/* min(peak_GBps, littles_unbounded_GBps(...)). */
double littles_bound_GBps(double peak_GBps, double sm_count, double warps_per_sm,
                          double bytes_per_warp, double sm_clock_MHz, double latency_cycles);

/* Largest latency (cycles) at which frac of the peak is still reachable. */
double littles_latency_cycles_for(double frac, double peak_GBps, double sm_count,
                                  double warps_per_sm, double bytes_per_warp,
                                  double sm_clock_MHz);

/* Warps per SM needed to reach frac of the peak (fractional: round up). */
double littles_warps_per_sm_for(double frac, double peak_GBps, double sm_count,
                                double bytes_per_warp, double sm_clock_MHz,
                                double latency_cycles);

/* Bytes each warp must have in flight to reach frac of the peak. */
double littles_bytes_per_warp_for(double frac, double peak_GBps, double sm_count,
                                  double warps_per_sm, double sm_clock_MHz,
                                  double latency_cycles);

/* Device-wide bytes that must be in flight to sustain bw_GBps when a load
 * takes latency_cycles: bw x latency (divide by sm_count for one SM). */
double littles_bytes_in_flight(double bw_GBps, double latency_cycles, double sm_clock_MHz);

/* The points at which a chart draws the bound over warps per SM, from 1 to
 * wmax: the bound is linear up to the knee (where it reaches the peak) and
 * flat after it, so every whole warp plus the exact knee draws it exactly.
 * A point with knee = 1 is the knee itself (its bound is the peak). */
typedef struct littles_point {
    double warps_per_sm;
    int knee;
} littles_point;

/* The most warps per SM a curve is drawn to (GPUs hold 64 per SM today). */
#define LITTLES_CURVE_MAX_WARPS 2048

/* Fill pts (room for max) with the points 1, 2, ... up to wmax (wmax itself
 * last when it is not whole; below 1 or NaN: the one point 1), with the knee
 * between them when 1 < knee < wmax.  Returns how many were written, or 0
 * when wmax is above LITTLES_CURVE_MAX_WARPS or they do not fit in max
 * (LITTLES_CURVE_MAX_WARPS + 2 always fits). */
size_t littles_curve_points(double knee, double wmax, littles_point *pts, size_t max);

#ifdef __cplusplus
}
#endif
#endif /* WARPLAT_LITTLES_H */
