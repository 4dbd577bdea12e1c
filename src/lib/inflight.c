/* inflight.c - Little's law closed by measurement (contract and formulas: inflight.h). */
#include "inflight.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "littles.h"

static int pos(double x) { return isfinite(x) && x > 0; }

void inflight_init(inflight_acc *a, double sm_clock_MHz, int gtimer_after_end)
{
    memset(a, 0, sizeof *a);
    a->first_ns = INFINITY;
    a->last_ns = -INFINITY;
    a->sm_clock_MHz = sm_clock_MHz;
    a->gtimer_after_end = gtimer_after_end;
    a->bad_smid = -1;
}

void inflight_add(inflight_acc *a, const warp_record *r, size_t n)
{
    /* ns per cycle for the device span; without a clock the span stays NAN */
    const double ns_per_cycle = pos(a->sm_clock_MHz) ? 1e3 / a->sm_clock_MHz : NAN;
    for (size_t i = 0; i < n; i++) {
        const unsigned s = r[i].smid;
        if (s >= WARPLOG_MAX_SM_COUNT) {
            if (a->bad_smid < 0) a->bad_smid = (int)s;
            continue;
        }
        const uint64_t t0 = r[i].start_clk;
        const uint64_t t1 = r[i].end_clk > t0 ? r[i].end_clk : t0;
        if (!a->seen[s] || t0 < a->first_clk[s]) a->first_clk[s] = t0;
        if (!a->seen[s] || t1 > a->last_clk[s]) a->last_clk[s] = t1;
        /* a block's records are adjacent (launch order): a new block on this
         * SM is a change of block id among this SM's records */
        if (!a->seen[s] || r[i].block != a->last_block[s]) a->blocks[s]++;
        a->last_block[s] = r[i].block;
        a->seen[s] = 1;
        a->sum_lat[s] += t1 - t0;
        a->windows[s]++;
        const double len_ns = (double)(t1 - t0) * ns_per_cycle;
        const double g = (double)r[i].gtimer_ns;
        const double s_ns = a->gtimer_after_end ? g - len_ns : g;
        const double e_ns = a->gtimer_after_end ? g : g + len_ns;
        if (s_ns < a->first_ns) a->first_ns = s_ns;
        if (e_ns > a->last_ns) a->last_ns = e_ns;
    }
}

int inflight_result_get(const inflight_acc *a, const inflight_params *p, inflight_result *o,
                        char *err, size_t errlen)
{
    if (a->bad_smid >= 0) {
        if (err && errlen)
            snprintf(err, errlen, "a record has smid %d; at most %u SMs are supported", a->bad_smid,
                     WARPLOG_MAX_SM_COUNT);
        return -1;
    }
    memset(o, 0, sizeof *o);
    double lat_sum = 0, span_sum = 0, w = 0;
    for (unsigned s = 0; s < WARPLOG_MAX_SM_COUNT; s++) {
        if (!a->seen[s]) continue;
        const double span = (double)(a->last_clk[s] - a->first_clk[s]);
        o->sms++;
        o->windows += a->windows[s];
        o->blocks += a->blocks[s];
        lat_sum += (double)a->sum_lat[s];
        span_sum += span;
        if (span > 0) w += (double)a->sum_lat[s] / span; /* 0 only when every window is 0 long */
    }
    const double nan = NAN;
    o->lat_mean_cycles = o->windows ? lat_sum / (double)o->windows : nan;
    o->busy_span_cycles = o->sms ? span_sum / o->sms : nan;
    o->warps_in_flight = o->sms ? w : nan;
    o->warps_in_flight_per_sm = o->sms ? w / o->sms : nan;
    o->slot_period_cycles = pos(p->blocks_per_sm) && o->blocks
                                ? p->blocks_per_sm * span_sum / (double)o->blocks : nan;
    o->slot_rest_cycles = o->slot_period_cycles - o->lat_mean_cycles;
    o->bytes_in_flight = pos(p->bytes_per_window) ? w * p->bytes_per_window : nan;
    if (!o->sms) o->bytes_in_flight = nan;
    /* W warps across the GPU: one "SM" holding all of them */
    o->bound_GBps = littles_unbounded_GBps(1, w, p->bytes_per_window, p->sm_clock_MHz,
                                           o->lat_mean_cycles);
    const double bytes = (double)o->windows * p->bytes_per_window;
    o->bw_GBps = pos(p->kernel_ms) && pos(bytes) ? bytes / (p->kernel_ms * 1e-3) / 1e9 : nan;
    o->closure_err_pct = 100.0 * (o->bw_GBps - o->bound_GBps) / o->bound_GBps;
    const double T_us = pos(p->kernel_ms) ? p->kernel_ms * 1e3 : nan;
    o->device_span_us = isfinite(a->first_ns) && isfinite(a->last_ns) ? (a->last_ns - a->first_ns) / 1e3 : nan;
    /* S_eff: the time the measured in-flight bytes take to move them all */
    const double s_eff_us = bytes / (o->bound_GBps * 1e9) * 1e6;
    o->launch_drain_pct = 100.0 * (T_us - o->device_span_us) / T_us;
    o->imbalance_pct = 100.0 * (o->device_span_us - s_eff_us) / T_us;
    return 0;
}

/* "nan" for any NaN (printf may write "-nan"), else the value. */
static int put(char *buf, size_t len, const char *sep, int dec, double v)
{
    if (isnan(v)) return snprintf(buf, len, "%snan", sep);
    return snprintf(buf, len, "%s%.*f", sep, dec, v);
}

int inflight_format(char *buf, size_t len, const inflight_result *r)
{
    const double v[] = {r->warps_in_flight_per_sm, r->slot_period_cycles, r->slot_rest_cycles,
                        r->bw_GBps, r->bound_GBps, r->closure_err_pct, r->launch_drain_pct,
                        r->imbalance_pct};
    static const int dec[] = {2, 1, 1, 1, 1, 2, 2, 2};
    size_t k = 0;
    int total = 0;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        const int m = put(buf + k, k < len ? len - k : 0, i ? "\t" : "", dec[i], v[i]);
        if (m < 0) return m;
        total += m;
        k = (size_t)total < len ? (size_t)total : len;
    }
    return total;
}
