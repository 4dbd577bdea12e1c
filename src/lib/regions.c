/* regions.c - per-region analysis of a warp log (regions.h). */
#include "regions.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct region_sm {
    uint64_t first_start, last_end;
    double sum_lat_cycles;
    uint64_t n;
} region_sm;

struct region_acc {
    uint32_t nregions;
    int32_t sm_count;
    lat_stats *lat[WARPLOG_MAX_REGIONS];
    region_sm *sm;            /* [region][sm] */
};

uint32_t region_acc_count(const region_acc *a) { return a ? a->nregions : 0; }

const char *region_name(const warplog_header *h, uint32_t r)
{
    if (h->region_count == 0 || r >= h->region_count) return h->kernel;
    return h->region_names[r];
}

region_acc *region_acc_new(const warplog_header *h)
{
    region_acc *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->nregions = h->region_count ? h->region_count : 1;
    if (a->nregions > WARPLOG_MAX_REGIONS) a->nregions = WARPLOG_MAX_REGIONS;
    a->sm_count = h->sm_count > 0 ? h->sm_count : 1;
    a->sm = calloc((size_t)a->nregions * (size_t)a->sm_count, sizeof *a->sm);
    int ok = a->sm != NULL;
    /* the regions share one memory bound, that of one population (stats.h):
     * 16 regions of 4 M distinct large latencies each took 2.5 GB */
    for (uint32_t r = 0; ok && r < a->nregions; r++) {
        ok = (a->lat[r] = lat_stats_new()) != NULL;
        if (ok) lat_stats_set_max_distinct(a->lat[r], LAT_STATS_MAX_OVERFLOW / a->nregions);
    }
    if (!ok) {
        region_acc_free(a);
        return NULL;
    }
    return a;
}

void region_acc_free(region_acc *a)
{
    if (!a) return;
    for (uint32_t r = 0; r < WARPLOG_MAX_REGIONS; r++) lat_stats_free(a->lat[r]);
    free(a->sm);
    free(a);
}

int region_acc_add(region_acc *a, const warp_record *rec, size_t n, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        warp_record x = rec[i];
        if (x.region >= a->nregions || (int32_t)x.smid >= a->sm_count) {
            snprintf(err, errlen, "a record of region %u on SM %u, but the log has %u region%s and "
                     "%d SMs", x.region, x.smid, a->nregions, a->nregions == 1 ? "" : "s", a->sm_count);
            return -1;
        }
        if (x.end_clk < x.start_clk) continue;   /* counted as bad by lat_stats below */
        region_sm *s = &a->sm[(size_t)x.region * (size_t)a->sm_count + x.smid];
        if (s->n++ == 0) {
            s->first_start = x.start_clk;
            s->last_end = x.end_clk;
        }
        if (x.start_clk < s->first_start) s->first_start = x.start_clk;
        if (x.end_clk > s->last_end) s->last_end = x.end_clk;
        s->sum_lat_cycles += (double)(x.end_clk - x.start_clk);
        const uint32_t r = x.region;
        x.smid = 0;   /* one all-SM histogram per region: bounded memory */
        if (lat_stats_add(a->lat[r], &x, 1) != 0) {
            snprintf(err, errlen, "%s", lat_stats_error(a->lat[r]));
            return -1;
        }
    }
    return 0;
}

int region_acc_finish(region_acc *a, char *err, size_t errlen)
{
    for (uint32_t r = 0; r < a->nregions; r++) {
        lat_summary m;
        if (lat_stats_summary(a->lat[r], LAT_STATS_ALL, &m) != 0) {
            const char *why = lat_stats_error(a->lat[r]);
            snprintf(err, errlen, "region %u: %s", r, *why ? why : "out of memory");
            return -1;
        }
    }
    return 0;
}

int region_acc_summary(region_acc *a, uint32_t r, region_summary *out)
{
    memset(out, 0, sizeof *out);
    if (!a || r >= a->nregions) return -1;
    if (lat_stats_summary(a->lat[r], LAT_STATS_ALL, &out->lat) != 0) return -1;
    double sum = 0;
    for (int32_t sm = 0; sm < a->sm_count; sm++) {
        const region_sm *s = &a->sm[(size_t)r * (size_t)a->sm_count + (size_t)sm];
        if (s->last_end <= s->first_start) continue;
        sum += s->sum_lat_cycles / (double)(s->last_end - s->first_start);
        out->sms++;
    }
    out->recorded_warps_per_sm = out->sms ? sum / out->sms : 0;
    return 0;
}

region_acc *region_acc_read_log(const char *path, warplog_header *h, char *err, size_t errlen)
{
    warplog_reader *rd = warplog_reader_open(path, err, errlen);
    if (!rd) return NULL;
    *h = *warplog_reader_header(rd);
    region_acc *a = region_acc_new(h);
    if (!a) {
        snprintf(err, errlen, "out of memory reading %s", path);
        warplog_reader_close(rd);
        return NULL;
    }
    const warp_record *recs;
    long n;
    char why[512];
    while ((n = warplog_reader_chunk(rd, &recs, err, errlen)) > 0)
        if (region_acc_add(a, recs, (size_t)n, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: %s", path, why);
            n = -1;
            break;
        }
    warplog_reader_close(rd);
    if (n == 0 && region_acc_finish(a, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        n = -1;
    }
    if (n < 0) {
        region_acc_free(a);
        return NULL;
    }
    return a;
}

int region_index(const warplog_header *h, const char *name)
{
    for (uint32_t r = 0; r < h->region_count && r < WARPLOG_MAX_REGIONS; r++)
        if (strncmp(h->region_names[r], name, sizeof h->region_names[r]) == 0) return (int)r;
    return -1;
}

int region_lat_read_log(lat_stats *s, const char *path, const char *region, warplog_header *h,
                        char *err, size_t errlen)
{
    if (!region) return lat_stats_read_log(s, path, h, err, errlen);
    warplog_reader *rd = warplog_reader_open(path, err, errlen);
    if (!rd) return -1;
    const warplog_header *hd = warplog_reader_header(rd);
    if (h) *h = *hd;
    const int want = region_index(hd, region);
    if (want < 0) {
        snprintf(err, errlen, "%s has no region called '%s'%s", path, region,
                 hd->region_count ? "" : " (it was not written with named regions)");
        warplog_reader_close(rd);
        return -1;
    }
    const warp_record *recs;
    long n;
    warp_record buf[256];
    while ((n = warplog_reader_chunk(rd, &recs, err, errlen)) > 0) {
        size_t k = 0;
        for (long i = 0; i < n; i++) {
            if (recs[i].region != want) continue;
            if ((int32_t)recs[i].smid >= hd->sm_count) {
                snprintf(err, errlen, "%s: a record is of SM %u, but the header says the GPU has "
                         "%d SMs", path, recs[i].smid, hd->sm_count);
                warplog_reader_close(rd);
                return -1;
            }
            buf[k++] = recs[i];
            if (k == sizeof buf / sizeof buf[0]) {
                if (lat_stats_add(s, buf, k) != 0) {
                    snprintf(err, errlen, "%s: %s", path, lat_stats_error(s));
                    warplog_reader_close(rd);
                    return -1;
                }
                k = 0;
            }
        }
        if (k && lat_stats_add(s, buf, k) != 0) {
            snprintf(err, errlen, "%s: %s", path, lat_stats_error(s));
            warplog_reader_close(rd);
            return -1;
        }
    }
    warplog_reader_close(rd);
    return n < 0 ? -1 : 0;
}

/* "22.0 KB", "840 B" */
static void fmt_bytes(char *buf, size_t len, double b)
{
    if (isnan(b)) snprintf(buf, len, "n/a");
    else if (b >= 1000) snprintf(buf, len, "%.1f KB", b / 1000);
    else snprintf(buf, len, "%.0f B", b);
}

void region_verdict_make(const region_verdict_in *in, const char *name, region_verdict *out)
{
    memset(out, 0, sizeof *out);
    double w = in->recorded_warps_per_sm * (in->sample_blocks > 0 ? in->sample_blocks : 1);
    if (in->resident_warps_per_sm > 0 && w > in->resident_warps_per_sm) w = in->resident_warps_per_sm;
    out->warps_per_sm = w;
    out->bytes_in_flight_per_sm = in->bytes_per_warp > 0 ? w * in->bytes_per_warp : NAN;
    const double ok_ref = in->ceiling_GBps > 0 && in->dram_latency_ns > 0 && in->sm_count > 0;
    out->bytes_needed_per_sm = ok_ref ? in->ceiling_GBps * in->dram_latency_ns / in->sm_count : NAN;
    out->dram_latency_cycles = in->dram_latency_ns > 0 && in->sm_clock_MHz > 0
                                   ? in->dram_latency_ns * in->sm_clock_MHz / 1000.0 : NAN;
    out->p50_x_dram = out->dram_latency_cycles > 0 ? in->p50_cycles / out->dram_latency_cycles : NAN;

    char lat[96], have[32], need[32];
    if (isnan(out->p50_x_dram)) snprintf(lat, sizeof lat, "p50 %.0f cycles", in->p50_cycles);
    else snprintf(lat, sizeof lat, "p50 %.0f cycles (%.1fx the DRAM latency)", in->p50_cycles,
                  out->p50_x_dram);
    fmt_bytes(have, sizeof have, out->bytes_in_flight_per_sm);
    fmt_bytes(need, sizeof need, out->bytes_needed_per_sm);
    const double have_b = out->bytes_in_flight_per_sm, need_b = out->bytes_needed_per_sm;
    if (isnan(have_b) || isnan(need_b)) {
        snprintf(out->text, sizeof out->text, "region %s: %s, %.1f warps in it per SM; no Little's "
                 "law verdict: %s", name, lat, w,
                 isnan(have_b) ? "its bytes per warp were not given"
                               : "no ceiling or DRAM latency (pass --ref DIR)");
    } else if (have_b >= need_b) {
        snprintf(out->text, sizeof out->text, "region %s: %s, %s in flight per SM of the %s the "
                 "ceiling needs: enough in flight, not bound by latency%s", name, lat, have, need,
                 out->p50_x_dram >= 2 ? "; the loads queue (bandwidth- or sector-bound)" : "");
    } else if (in->resident_warps_per_sm > 0 && w >= 0.9 * in->resident_warps_per_sm) {
        snprintf(out->text, sizeof out->text, "region %s: %s, %s in flight per SM of the %s the "
                 "ceiling needs, with the SM full (%.0f warps): bound by latency; more bytes per "
                 "warp in flight would help", name, lat, have, need, w);
    } else {
        snprintf(out->text, sizeof out->text, "region %s: %s, %s in flight per SM of the %s the "
                 "ceiling needs, %.1f warps in it per SM: bound by latency at this occupancy; "
                 "more warps or more bytes per warp in flight would help", name, lat, have, need, w);
    }
}
