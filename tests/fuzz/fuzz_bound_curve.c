/* fuzz_bound_curve - the points plot_throughput draws its Little's-law bound
 * at (littles_curve_points) and the bound there, for any knee and largest
 * warps per SM (an unbounded one once drew forever): doubles from the data. */
#include <math.h>

#include "fuzz_common.h"
#include "littles.h"

static double take(const uint8_t **p, size_t *n)
{
    double v = 0;
    if (*n >= sizeof v) {
        memcpy(&v, *p, sizeof v);
        *p += sizeof v, *n -= sizeof v;
    }
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static littles_point pts[LITTLES_CURVE_MAX_WARPS + 2];
    const double knee = take(&data, &size), wmax = take(&data, &size);
    const double peak = take(&data, &size), lat = take(&data, &size);
    const size_t max = size ? (size_t)data[0] * 16 : sizeof pts / sizeof pts[0];
    const size_t n = littles_curve_points(knee, wmax, pts, max);
    if (n > max) abort();
    for (size_t i = 0; i < n; i++) {
        if (!(pts[i].warps_per_sm >= 1) || pts[i].warps_per_sm > LITTLES_CURVE_MAX_WARPS) abort();
        if (i && !(pts[i].warps_per_sm > pts[i - 1].warps_per_sm)) abort(); /* rising */
        fprintf(fuzz_sink(), "%g %g\n", pts[i].warps_per_sm,
                littles_bound_GBps(peak, 132, pts[i].warps_per_sm, 128, 1755, lat));
    }
    /* a bounded wmax always fits in LITTLES_CURVE_MAX_WARPS + 2 */
    if (!size && fmax(wmax, 1) <= LITTLES_CURVE_MAX_WARPS && n == 0) abort();
    return 0;
}
