/* report_facts.c - see report_facts.h. */
#define _POSIX_C_SOURCE 200809L
#include "report_facts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "littles.h"
#include "sbuf.h"

static int pos(double v) { return isfinite(v) && v > 0; }

void rf_device_unknown(rf_device *d)
{
    d->sm_count = d->sm_clock_MHz = d->peak_GBps = d->max_warps_per_sm = d->l2_bytes = NAN;
}

const char *rf_fmt_bytes(double b, char *buf, size_t len)
{
    static const char *unit[] = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    while (fabs(b) >= 1000 && u < 4) { b /= 1000; u++; }
    if (u == 0) snprintf(buf, len, "%.0f B", b);
    else if (u == 1 && fabs(b) < 100) snprintf(buf, len, "%.1f %s", b, unit[u]);
    else snprintf(buf, len, fabs(b) < 10 ? "%.2f %s" : fabs(b) < 100 ? "%.1f %s" : "%.0f %s", b, unit[u]);
    return buf;
}

const char *rf_fmt_size(double b, char *buf, size_t len)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < 4) { b /= 1024; u++; }
    snprintf(buf, len, b < 10 && u ? "%.1f %s" : "%.0f %s", b, unit[u]);
    return buf;
}

int rf_device_note(const rf_device *d, char *buf, size_t len)
{
    if (!pos(d->peak_GBps) || !pos(d->sm_count) || !pos(d->sm_clock_MHz)) return sb_nothing(buf, len);
    /* GB/s over Mcycles/s: bytes per cycle */
    const double per_cycle = d->peak_GBps * 1e3 / d->sm_clock_MHz;
    const double per_sm = per_cycle / d->sm_count;
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "At %.0f MHz, the %.0f GB/s peak is %.1f bytes per SM cycle across the GPU, %.1f B "
               "per cycle per SM: one 128 B warp load every %.1f cycles on each SM.",
           d->sm_clock_MHz, d->peak_GBps, per_cycle, per_sm, 128 / per_sm);
    return sb_done(&s);
}

static double pct_of_peak(const rf_kernel *k, const rf_device *d)
{
    if (isfinite(k->pct_peak)) return k->pct_peak;
    return pos(d->peak_GBps) ? 100 * k->bw_GBps / d->peak_GBps : NAN;
}

/* 1 when every row with a known WPB has the same one. */
static int same_wpb(const rf_kernel *k, size_t n)
{
    double w = NAN;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(k[i].wpb)) continue;
        if (isfinite(w) && k[i].wpb != w) return 0;
        w = k[i].wpb;
    }
    return 1;
}

static int has_cfg(const rf_kernel *k)
{
    return k->config && *k->config && strcmp(k->config, "-");
}

int rf_fastest_note(const rf_kernel *k, size_t n, const rf_device *d, char *buf, size_t len)
{
    int compute = 0;
    for (size_t i = 0; i < n; i++) compute |= pos(k[i].flops);
    size_t best = n;
    for (size_t i = 0; i < n; i++) {
        const double v = compute ? k[i].gflops : k[i].bw_GBps;
        const double bv = best < n ? (compute ? k[best].gflops : k[best].bw_GBps) : NAN;
        if (isfinite(v) && (compute ? pos(k[i].flops) : 1) && (best == n || v > bv)) best = i;
    }
    if (best == n) return sb_nothing(buf, len);
    const rf_kernel *b = &k[best];
    sb s;
    sb_init(&s, buf, len);
    if (same_wpb(k, n) && !compute)
        sb_add(&s, "Fastest kernel at %.0f warps per block: %s", b->wpb, b->kernel);
    else
        sb_add(&s, "Fastest kernel: %s", b->kernel);
    if (has_cfg(b)) sb_add(&s, " (%s)", b->config);
    if (!same_wpb(k, n) || compute) sb_add(&s, ", at its %.0f warps per block", b->wpb);
    if (compute) {
        sb_add(&s, ", %.1f GFLOP/s", b->gflops);
        if (isfinite(b->kernel_ms)) sb_add(&s, " (%.3f ms)", b->kernel_ms);
        sb_add(&s, ".");
        return sb_done(&s);
    }
    const double pct = pct_of_peak(b, d);
    sb_add(&s, ", %.1f GB/s", b->bw_GBps);
    if (isfinite(pct) && pos(d->peak_GBps))
        sb_add(&s, " = %.1f%% of the %.0f GB/s DRAM peak", pct, d->peak_GBps);
    sb_add(&s, ".");
    return sb_done(&s);
}

int rf_littles_note(const rf_kernel *k, const rf_device *d, char *buf, size_t len)
{
    const double clk = pos(k->sm_clock_MHz) ? k->sm_clock_MHz : d->sm_clock_MHz;
    const double p50 = k->lat_p50_cycles;
    if (!pos(k->bytes_per_warp) || !pos(p50) || !pos(clk) || !pos(d->sm_count) ||
        !pos(d->peak_GBps) || !pos(k->blocks_per_sm) || !pos(k->wpb) || !isfinite(k->bw_GBps))
        return sb_nothing(buf, len);
    char b1[32], b2[32], b3[32];
    const double need_B = littles_bytes_in_flight(d->peak_GBps, p50, clk);
    const double warps = k->blocks_per_sm * k->wpb;
    const double held_B = warps * k->bytes_per_warp; /* per SM */
    const double pct = pct_of_peak(k, d);
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "%s reaches %.0f%% of peak at %.0f warps per block; at the measured %.0f-cycle median "
               "latency Little's law needs %.0f GB/s x %.0f cycles / %.2f GHz = %s in flight across the "
               "GPU (%s per SM), while %.0f resident warps x %.0f B hold %s per SM",
           k->kernel, pct, k->wpb, p50, d->peak_GBps, p50, clk / 1000,
           rf_fmt_bytes(need_B, b1, sizeof b1), rf_fmt_bytes(need_B / d->sm_count, b2, sizeof b2),
           warps, k->bytes_per_warp, rf_fmt_bytes(held_B, b3, sizeof b3));
    const double unb = littles_unbounded_GBps(d->sm_count, warps, k->bytes_per_warp, clk, p50);
    const double bound = littles_bound_GBps(d->peak_GBps, d->sm_count, warps, k->bytes_per_warp, clk, p50);
    if (unb >= d->peak_GBps)
        sb_add(&s, ": enough to reach the peak (the bound is %.0f GB/s before the peak caps it), and "
                   "the kernel achieves %.0f%% of the peak.", unb, pct);
    else if (k->bw_GBps >= 0.7 * bound)
        sb_add(&s, ": the bound at this occupancy is %.0f GB/s, and the kernel achieves %.0f%% of "
                   "it (latency-bound: more bytes in flight per warp or more warps would help).",
               bound, 100 * k->bw_GBps / bound);
    else if (!pos(k->slot_period_cycles) || !isfinite(k->slot_rest_cycles))
        sb_add(&s, ": the bound at this occupancy is %.0f GB/s, and the kernel achieves %.0f%% of "
                   "it (far below: time between blocks and the tail, not latency alone, limit it).",
               bound, 100 * k->bw_GBps / bound);
    else {
        /* the occupancy sweep measured it (every block recorded, inflight.h) */
        const double load = k->slot_period_cycles - k->slot_rest_cycles;
        sb_add(&s, ": the bound at this occupancy is %.0f GB/s, and the kernel achieves %.0f%% of "
                   "it: the load holds a slot %.0f of every %.0f cycles; the other %.0f are launch "
                   "and retire, so only %.0f%% of the resident warps have a load in flight",
               bound, 100 * k->bw_GBps / bound, load, k->slot_period_cycles, k->slot_rest_cycles,
               100 * load / k->slot_period_cycles);
        if (isfinite(k->closure_inflight_err_pct))
            sb_add(&s, ", and with the warps measured in flight Little's law closes to %+.1f%%",
                   k->closure_inflight_err_pct);
        sb_add(&s, " (occupancy sweep at %.0f blocks per SM).", k->blocks_per_sm);
    }
    return sb_done(&s);
}

int rf_sweep_inflight_note(const rf_inflight_point *p, size_t n, char *buf, size_t len)
{
    size_t k = 0, far = 0, worst = n, first = n;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        const double e = p[i].closure_inflight_err_pct;
        if (!isfinite(e)) continue;
        k++;
        lo = fmin(lo, e), hi = fmax(hi, e);
        far += fabs(e) > 5;
        if (worst == n || fabs(e) > fabs(p[worst].closure_inflight_err_pct)) worst = i;
        if (first == n || p[i].warps_per_sm < p[first].warps_per_sm) first = i;
    }
    if (!k) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "Measured in flight (every block recorded), Little's law closes ");
    if (!far)
        sb_add(&s, "within %.1f%% at %s (from %+.1f%% to %+.1f%%).",
               fabs(p[worst].closure_inflight_err_pct), k == n ? "every point" : "every point measured", lo, hi);
    else
        sb_add(&s, "within 5%% at %zu of %zu points; the worst is %+.1f%% at %.0f warps per SM.", k - far, k,
               p[worst].closure_inflight_err_pct, p[worst].warps_per_sm);
    const rf_inflight_point *f = &p[first];
    if (pos(f->slot_period_cycles) && isfinite(f->slot_rest_cycles)) {
        const double load = f->slot_period_cycles - f->slot_rest_cycles;
        sb_add(&s, " At %.0f block%s per SM the load holds a slot %.0f of every %.0f cycles; the other %.0f "
                   "are launch and retire", f->blocks_per_sm, f->blocks_per_sm == 1 ? "" : "s", load,
               f->slot_period_cycles, f->slot_rest_cycles);
        if (pos(f->inflight_warps_per_sm))
            sb_add(&s, ", so %.0f resident warps keep %.2f in flight", f->warps_per_sm, f->inflight_warps_per_sm);
        sb_add(&s, ".");
    }
    if (isfinite(f->launch_drain_pct) && isfinite(f->sm_imbalance_pct))
        sb_add(&s, " What does not close is launch and drain (%.1f%% of the kernel's time there) and SMs "
                   "idle while others finish (%.1f%%).", f->launch_drain_pct, f->sm_imbalance_pct);
    return sb_done(&s);
}

/* Row i's configuration tells it apart: the variant runs in several rows. */
static int has_config(const rf_kernel *k, size_t n, size_t i)
{
    if (!k[i].config || !*k[i].config || !strcmp(k[i].config, "-")) return 0;
    size_t same = 0;
    for (size_t j = 0; j < n; j++) same += !strcmp(k[j].kernel, k[i].kernel);
    return same > 1;
}

int rf_overhead_note(const rf_kernel *k, size_t n, char *buf, size_t len)
{
    size_t lo = n, hi = n;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(k[i].overhead_pct)) continue;
        if (lo == n || k[i].overhead_pct < k[lo].overhead_pct) lo = i;
        if (hi == n || k[i].overhead_pct > k[hi].overhead_pct) hi = i;
    }
    if (lo == n) return sb_nothing(buf, len);
    /* each end named with its configuration where its variant runs in
     * several (stride16 at stride=32 and at stride=128) */
    char a[160], z[160];
    snprintf(a, sizeof a, "%s%s%s", k[lo].kernel, has_config(k, n, lo) ? " at " : "", has_config(k, n, lo) ? k[lo].config : "");
    snprintf(z, sizeof z, "%s%s%s", k[hi].kernel, has_config(k, n, hi) ? " at " : "", has_config(k, n, hi) ? k[hi].config : "");
    sb s;
    sb_init(&s, buf, len);
    if (same_wpb(k, n))
        sb_add(&s, "Instrumentation overhead at %.0f warps per block: from %+.2f%% (%s) to %+.2f%% (%s) of "
                   "the clean twin's time.", k[lo].wpb, k[lo].overhead_pct, a, k[hi].overhead_pct, z);
    else
        sb_add(&s, "Instrumentation overhead: from %+.2f%% (%s, %.0f warps per block) to %+.2f%% (%s, %.0f "
                   "warps per block) of the clean twin's time.", k[lo].overhead_pct, a, k[lo].wpb,
               k[hi].overhead_pct, z, k[hi].wpb);
    return sb_done(&s);
}

int rf_bw_series(const char *variant, const unsigned *wpb, const double *bw, size_t n, char *buf,
                 size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += isfinite(bw[i]);
    if (!k) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "%s", variant);
    const char *sep = " ";
    for (size_t i = 0; i < n; i++)
        if (isfinite(bw[i])) { sb_add(&s, "%s%.0f", sep, bw[i]); sep = ", "; }
    sb_add(&s, " GB/s at");
    sep = " ";
    for (size_t i = 0; i < n; i++)
        if (isfinite(bw[i])) { sb_add(&s, "%s%u", sep, wpb[i]); sep = ", "; }
    return sb_done(&s);
}

int rf_timeline_growth(const rf_latpoint *p, size_t n, const char *variant, char *buf, size_t len)
{
    size_t lo = n, hi = n;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(p[i].variant, variant) || !pos(p[i].p50_cycles)) continue;
        if (lo == n || p[i].wpb < p[lo].wpb) lo = i;
        if (hi == n || p[i].wpb > p[hi].wpb) hi = i;
    }
    if (lo == n || p[lo].wpb == p[hi].wpb) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "%s: median warp latency %.0f cycles at %u warps per block, %.0f at %u (x%.2f)",
           variant, p[lo].p50_cycles, p[lo].wpb, p[hi].p50_cycles, p[hi].wpb,
           p[hi].p50_cycles / p[lo].p50_cycles);
    return sb_done(&s);
}

int rf_relative_p50(const rf_latpoint *p, size_t n, const char *ref, char *buf, size_t len)
{
    size_t r = n;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(p[i].variant, ref) && pos(p[i].p50_cycles)) r = i;
    if (r == n || n < 2) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "Median latency relative to %s (%.0f cycles):", ref, p[r].p50_cycles);
    const char *sep = " ";
    for (size_t i = 0; i < n; i++) {
        if (i == r || !pos(p[i].p50_cycles)) continue;
        sb_add(&s, "%s%s x%.2f", sep, p[i].variant, p[i].p50_cycles / p[r].p50_cycles);
        sep = ", ";
    }
    sb_add(&s, ".");
    return sb_done(&s);
}

int rf_l2_note(double n_elems, double elem_bytes, double l2_bytes, char *buf, size_t len)
{
    if (!pos(n_elems) || !pos(elem_bytes) || !pos(l2_bytes)) return sb_nothing(buf, len);
    const double b = n_elems * elem_bytes;
    const int fits = b < l2_bytes;
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "At N = %.0f the array is %.1f MB, %s the %.1f MB L2, so these latencies are %s.",
           n_elems, b / 1e6, fits ? "smaller than" : "larger than", l2_bytes / 1e6,
           fits ? "mostly L2 hits after the first touch, lower than at the summaries' N"
                : "DRAM latencies");
    return sb_done(&s);
}

int rf_ladder_levels_note(const plateau_level *lv, int n, char *buf, size_t len)
{
    if (n < 2) {
        sb s;
        sb_init(&s, buf, len);
        sb_add(&s, "Fewer than two plateaus were found: read the chart.");
        return sb_done(&s);
    }
    char b1[32];
    sb s;
    sb_init(&s, buf, len);
    for (int i = 0; i < n; i++)
        sb_add(&s, "%s%s %.0f cycles (%.0f ns, up to %s)", i ? (i + 1 == n ? " and " : ", ") : "",
               lv[i].name, lv[i].cycles, lv[i].ns, rf_fmt_size(lv[i].to_bytes, b1, sizeof b1));
    sb_add(&s, ": a dependent load from %s takes %.1fx as long as from %s.", lv[n - 1].name,
           lv[n - 1].cycles / lv[0].cycles, lv[0].name);
    return sb_done(&s);
}

int rf_ladder_occupancy_note(const plateau_level *lv, int n, const rf_device *d, char *buf,
                             size_t len)
{
    if (n < 2) return sb_nothing(buf, len);
    const plateau_level *dram = &lv[n - 1];
    /* the ladder's own clock when its levels have ns */
    const double clk = pos(dram->ns) ? dram->cycles * 1000 / dram->ns : d->sm_clock_MHz;
    if (!pos(d->peak_GBps) || !pos(d->sm_count) || !pos(clk) || !pos(dram->cycles))
        return sb_nothing(buf, len);
    const double need = littles_bytes_in_flight(d->peak_GBps, dram->cycles, clk);
    const double w128 = littles_warps_per_sm_for(1.0, d->peak_GBps, d->sm_count, 128, clk, dram->cycles);
    const double w512 = littles_warps_per_sm_for(1.0, d->peak_GBps, d->sm_count, 512, clk, dram->cycles);
    char b1[32], b2[32];
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "At the unloaded %s latency of %.0f cycles, streaming at the %.0f GB/s peak needs %s in "
               "flight across the GPU (%s per SM): %.0f warps per SM each waiting on a 128 B load (4 B "
               "per lane)", dram->name, dram->cycles, d->peak_GBps, rf_fmt_bytes(need, b1, sizeof b1),
           rf_fmt_bytes(need / d->sm_count, b2, sizeof b2), ceil(w128));
    if (pos(d->max_warps_per_sm) && ceil(w128) > d->max_warps_per_sm)
        sb_add(&s, ", more than the %.0f an SM can hold", d->max_warps_per_sm);
    sb_add(&s, ", or %.0f with 512 B (float4) loads.", ceil(w512));
    return sb_done(&s);
}

void rf_sweep_bounds(rf_sweep_point *p, size_t n, double bytes_per_warp, const rf_device *d)
{
    for (size_t i = 0; i < n; i++) {
        const double clk = pos(p[i].sm_clock_MHz) ? p[i].sm_clock_MHz : d->sm_clock_MHz;
        p[i].bound_GBps = littles_bound_GBps(d->peak_GBps, d->sm_count, p[i].warps_per_sm,
                                             bytes_per_warp, clk, p[i].lat_mean_cycles);
        p[i].of_bound_pct = isfinite(p[i].bound_GBps) ? 100 * p[i].bw_GBps / p[i].bound_GBps : NAN;
        const double unb = littles_unbounded_GBps(d->sm_count, p[i].warps_per_sm, bytes_per_warp, clk,
                                                  p[i].lat_mean_cycles);
        p[i].capped = isfinite(unb) && pos(d->peak_GBps) && unb >= d->peak_GBps;
    }
}

int rf_sweep_best_note(const char *kernel, const rf_sweep_point *p, size_t n, const rf_device *d,
                       char *buf, size_t len)
{
    size_t best = n;
    for (size_t i = 0; i < n; i++)
        if (isfinite(p[i].bw_GBps) && (best == n || p[i].bw_GBps > p[best].bw_GBps)) best = i;
    if (best == n) return sb_nothing(buf, len);
    const rf_sweep_point *b = &p[best];
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "%s: the highest bandwidth is %.1f GB/s", kernel, b->bw_GBps);
    if (pos(d->peak_GBps))
        sb_add(&s, " (%.1f%% of the %.0f GB/s peak)", 100 * b->bw_GBps / d->peak_GBps, d->peak_GBps);
    sb_add(&s, " at %.0f warps per SM", b->warps_per_sm);
    if (isfinite(b->occupancy_pct)) sb_add(&s, " (%.0f%% occupancy)", b->occupancy_pct);
    if (isfinite(b->lat_mean_cycles)) sb_add(&s, ", with a mean warp latency of %.0f cycles", b->lat_mean_cycles);
    sb_add(&s, ".");
    return sb_done(&s);
}

int rf_sweep_need_note(double latency, int latency_given, double bpw, const rf_device *d, char *buf,
                       size_t len)
{
    if (!pos(latency) || !pos(bpw) || !pos(d->peak_GBps) || !pos(d->sm_count) || !pos(d->sm_clock_MHz))
        return sb_nothing(buf, len);
    const double w = ceil(littles_warps_per_sm_for(1.0, d->peak_GBps, d->sm_count, bpw,
                                                   d->sm_clock_MHz, latency));
    char b1[32];
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "At the %s latency of %.0f cycles and %.0f B per warp, Little's law reaches the peak "
               "only with %.0f warps per SM (%s in flight per SM)",
           latency_given ? "unloaded" : "sweep's least-loaded", latency, bpw, w,
           rf_fmt_bytes(littles_bytes_in_flight(d->peak_GBps, latency, d->sm_clock_MHz) / d->sm_count,
                        b1, sizeof b1));
    if (pos(d->max_warps_per_sm) && w > d->max_warps_per_sm)
        sb_add(&s, ", more than the %.0f an SM can hold", d->max_warps_per_sm);
    sb_add(&s, ".");
    return sb_done(&s);
}

int rf_sweep_bound_note(const rf_sweep_point *p, size_t n, char *buf, size_t len)
{
    size_t nb = 0, nt = 0, nc = 0;
    double wmax = NAN, cmin = NAN;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(p[i].of_bound_pct)) continue;
        nb++;
        if (p[i].of_bound_pct < 80) continue;
        if (p[i].capped) {
            /* near a bound that is the peak: bandwidth-bound, not latency-bound */
            nc++;
            if (!(cmin <= p[i].warps_per_sm)) cmin = p[i].warps_per_sm;
        } else {
            nt++;
            if (!(wmax >= p[i].warps_per_sm)) wmax = p[i].warps_per_sm;
        }
    }
    if (!nb) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    if (!nc) {
        sb_add(&s, "%zu of %zu points are within 80%% of the bound at their own latency (latency-bound)", nt, nb);
        if (nt) sb_add(&s, "; the largest of them has %.0f warps per SM", wmax);
    } else {
        sb_add(&s, "%zu of %zu points are within 80%% of the bound at their own latency: %zu latency-bound",
               nt + nc, nb, nt);
        if (nt) sb_add(&s, " (the largest has %.0f warps per SM)", wmax);
        sb_add(&s, " and %zu bandwidth-bound, from %.0f warps per SM, where the DRAM peak caps the bound", nc, cmin);
    }
    sb_add(&s, ".");
    return sb_done(&s);
}

int rf_sectors_count(const tsv_table *t, rf_sectors *o)
{
    memset(o, 0, sizeof *o);
    o->worst_dram_err_pct = NAN;
    const int agree = tsv_col(t, "agree"), verdict = tsv_col(t, "verdict");
    if (agree < 0 && verdict < 0) return -1;
    const int l1 = tsv_col(t, "l1_ok"), derr = tsv_col(t, "dram_err_pct");
    size_t used = 0;
    for (size_t r = 0; r < t->nrow; r++) {
        const char *a = tsv_get(t, r, agree >= 0 ? "agree" : "verdict");
        if (agree >= 0 && !strcmp(a, "-")) { /* not predicted: nothing was judged */
            o->unjudged++;
            continue;
        }
        o->rows++;
        const int ok = agree >= 0 ? !strcmp(a, "yes") : !strcmp(a, "agree");
        o->agree += ok;
        char what[96];
        const char *pat = tsv_get(t, r, "pattern");
        const char *stride = tsv_get(t, r, "stride");
        const char *var = tsv_get(t, r, "variant"), *cfg = tsv_get(t, r, "config");
        snprintf(what, sizeof what, "%s%s%s", pat ? pat : "row", stride ? " stride " : "",
                 stride ? stride : "");
        if (!pat && var) /* the families' table: variant and configuration */
            snprintf(what, sizeof what, "%s%s%s", var, cfg && strcmp(cfg, "-") ? " " : "",
                     cfg && strcmp(cfg, "-") ? cfg : "");
        else if (!pat) snprintf(what, sizeof what, "row %zu", r + 1);
        if (!ok) {
            const int k = snprintf(o->flagged + used, sizeof o->flagged - used, "%s%s", used ? ", " : "", what);
            if (k > 0 && (size_t)k < sizeof o->flagged - used) used += (size_t)k;
        }
        if (l1 >= 0) {
            o->l1_rows++;
            o->l1_ok += !strcmp(tsv_get(t, r, "l1_ok"), "1");
        }
        if (derr >= 0) {
            const double e = fabs(tsv_num(t, r, "dram_err_pct"));
            if (isfinite(e) && !(o->worst_dram_err_pct >= e)) {
                o->worst_dram_err_pct = e;
                snprintf(o->worst, sizeof o->worst, "%s, %s%%", what, tsv_get(t, r, "dram_err_pct"));
            }
        }
    }
    return 0;
}

int rf_sectors_note(const rf_sectors *c, char *buf, size_t len)
{
    if (!c->rows) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "%zu of %zu rows agree with the model", c->agree, c->rows);
    if (c->unjudged) sb_add(&s, " (%zu more not predicted)", c->unjudged);
    if (c->l1_rows) sb_add(&s, "; L1 sectors match in %zu of %zu", c->l1_ok, c->l1_rows);
    sb_add(&s, ".");
    if (c->agree < c->rows) sb_add(&s, " Rows that do not: %s.", c->flagged);
    if (isfinite(c->worst_dram_err_pct) && c->worst_dram_err_pct > 5)
        sb_add(&s, " The largest DRAM disagreement is %s.", c->worst);
    return sb_done(&s);
}

void rf_kernel_read(const tsv_table *t, size_t r, rf_kernel *k)
{
    memset(k, 0, sizeof *k);
    k->kernel = tsv_get(t, r, "kernel");
    k->config = tsv_get(t, r, "config");
    if (!k->kernel) k->kernel = "?";
    if (!k->config) k->config = "";
    k->wpb = tsv_num(t, r, "warps_per_block");
    k->blocks_per_sm = tsv_num(t, r, "blocks_per_sm");
    k->kernel_ms = tsv_num(t, r, "kernel_ms");
    k->bw_GBps = tsv_num(t, r, "bw_GBps");
    k->pct_peak = tsv_num(t, r, "pct_peak");
    k->sm_clock_MHz = tsv_num(t, r, "sm_clock_MHz");
    k->lat_mean_cycles = tsv_num(t, r, "lat_mean_cycles");
    k->lat_p50_cycles = tsv_num(t, r, "lat_p50_cycles");
    k->lat_p95_cycles = tsv_num(t, r, "lat_p95_cycles");
    k->instr_ms = tsv_num(t, r, "instr_ms");
    k->overhead_pct = tsv_num(t, r, "overhead_pct");
    k->bytes_per_warp = NAN;
    k->flops = tsv_num(t, r, "flops");
    k->gflops = tsv_num(t, r, "gflops");
    k->slot_period_cycles = k->slot_rest_cycles = k->closure_inflight_err_pct = NAN;
}
