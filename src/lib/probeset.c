/* probeset.c - see probeset.h. */
#include "probeset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t probeset_unwritten(const warp_probe *p, uint64_t n)
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++)
        k += p[i].block == PROBE_UNWRITTEN_BLOCK && p[i].start_lo == 0xffffffffu;
    return k;
}

int probeset_summary(const warp_probe *p, uint64_t n, uint32_t warps_per_block,
                     uint32_t records_per_warp, lat_summary *out, char *err, size_t errlen)
{
    enum { BATCH = 65536 };
    (void)warps_per_block, (void)records_per_warp;   /* which warp a record is: not summarised */
    memset(out, 0, sizeof *out);
    lat_stats *st = lat_stats_new();
    warp_record *buf = calloc(BATCH, sizeof *buf);
    int rc = st && buf ? 0 : -1;
    for (uint64_t i = 0; rc == 0 && i < n; i += BATCH) {
        const uint64_t k = n - i < BATCH ? n - i : BATCH;
        /* the statistics read a record's latency and SM only: the clocks
         * need not be unwrapped (warplog_expand_probe's end - start is the
         * probe's latency) */
        for (uint64_t r = 0; r < k; r++) {
            buf[r].start_clk = 0;
            buf[r].end_clk = p[i + r].lat_smid & WARP_PROBE_LAT_MAX;
            buf[r].smid = (uint16_t)(p[i + r].lat_smid >> 24);
        }
        rc = lat_stats_add(st, buf, (size_t)k);
    }
    if (rc == 0 && n > 0) rc = lat_stats_summary(st, LAT_STATS_ALL, out);
    if (rc != 0 && err && errlen)
        snprintf(err, errlen, "%s", st && buf ? lat_stats_error(st) : "out of host memory");
    free(buf);
    lat_stats_free(st);
    return rc;
}

int probeset_inflight(const warp_probe *p, uint64_t n, uint32_t warps_per_block,
                      uint32_t records_per_warp, uint64_t gt_base, const inflight_params *prm,
                      inflight_result *out, char *err, size_t errlen)
{
    enum { BATCH = 65536 };
    inflight_acc *a = malloc(sizeof *a);
    warp_record *buf = malloc(BATCH * sizeof *buf);
    uint32_t sm_ref[WARP_PROBE_MAX_SMS];
    uint8_t sm_seen[WARP_PROBE_MAX_SMS] = {0};
    int rc = -1;
    if (!a || !buf) {
        if (err && errlen) snprintf(err, errlen, "out of host memory");
    } else {
        inflight_init(a, prm->sm_clock_MHz, 0);
        for (uint64_t i = 0; i < n; i += BATCH) {
            const uint64_t k = n - i < BATCH ? n - i : BATCH;
            for (uint64_t r = 0; r < k; r++)
                warplog_expand_probe(&p[i + r], i + r, warps_per_block, records_per_warp, gt_base,
                                     sm_ref, sm_seen, &buf[r]);
            inflight_add(a, buf, (size_t)k);
        }
        rc = inflight_result_get(a, prm, out, err, errlen);
    }
    free(buf);
    free(a);
    return rc;
}

double probeset_clock_MHz(const warp_probe *p, uint64_t n, uint64_t gt_base, uint64_t min_span_ns)
{
    uint64_t gmin[WARP_PROBE_MAX_SMS], gmax[WARP_PROBE_MAX_SMS];
    uint32_t cmin[WARP_PROBE_MAX_SMS] = {0}, cmax[WARP_PROBE_MAX_SMS] = {0};
    for (unsigned s = 0; s < WARP_PROBE_MAX_SMS; s++) gmin[s] = UINT64_MAX, gmax[s] = 0;
    for (uint64_t i = 0; i < n; i++) {
        const unsigned sm = p[i].lat_smid >> 24;
        const uint64_t gt = gt_base + (uint32_t)(p[i].gtimer_lo - (uint32_t)gt_base);
        if (gt < gmin[sm]) gmin[sm] = gt, cmin[sm] = p[i].start_lo;
        if (gt > gmax[sm]) gmax[sm] = gt, cmax[sm] = p[i].start_lo;
    }
    double f[WARP_PROBE_MAX_SMS];
    size_t nf = 0;
    for (unsigned s = 0; s < WARP_PROBE_MAX_SMS; s++) {
        if (gmin[s] == UINT64_MAX || gmax[s] - gmin[s] < min_span_ns) continue;
        /* one kernel spans far fewer than 2^32 cycles: the wrapped difference
         * of the low words is exact */
        const uint32_t dclk = cmax[s] - cmin[s];
        f[nf++] = (double)dclk / (double)(gmax[s] - gmin[s]) * 1e3;
    }
    if (nf == 0) return 0;
    return stats_median_inplace(f, nf);
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sort keys[0..n) ascending: least significant digit first, 11 bits a pass,
 * a pass skipped where every key has the same digit; tmp holds n keys.  A
 * 3M-warp sweep point's 6M edges sort in tens of milliseconds (qsort with a
 * comparator took a second, most of a sweep point's host time). */
static void radix_sort_u64(uint64_t *keys, uint64_t *tmp, uint64_t n)
{
    static const unsigned DIG = 11, NB = 1u << 11;
    size_t *count = malloc(NB * sizeof *count);
    if (!count) {   /* out of memory: the comparison sort */
        qsort(keys, n, sizeof *keys, cmp_u64);
        return;
    }
    uint64_t *src = keys, *dst = tmp;
    for (unsigned shift = 0; shift < 64; shift += DIG) {
        memset(count, 0, NB * sizeof *count);
        for (uint64_t i = 0; i < n; i++) count[(src[i] >> shift) & (NB - 1)]++;
        if (count[(src[0] >> shift) & (NB - 1)] == n) continue;   /* one digit: nothing moves */
        size_t sum = 0;
        for (unsigned b = 0; b < NB; b++) {
            const size_t c = count[b];
            count[b] = sum;
            sum += c;
        }
        for (uint64_t i = 0; i < n; i++) dst[count[(src[i] >> shift) & (NB - 1)]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys) memcpy(keys, src, n * sizeof *keys);
    free(count);
}

/* Each timed interval gives two edges on its SM, a key each:
 * smid << 56 | clock << 1 | (start ? 1 : 0): +1 at its start, -1 after its end. */
long probeset_max_concurrency(const warp_probe *p, uint64_t n)
{
    if (n == 0) return 0;
    uint64_t *e = malloc(2 * n * sizeof *e), *tmp = malloc(2 * n * sizeof *tmp);
    if (!e || !tmp) {
        free(e);
        free(tmp);
        return -1;
    }
    uint32_t sm_ref[WARP_PROBE_MAX_SMS];
    uint8_t sm_seen[WARP_PROBE_MAX_SMS] = {0};
    for (uint64_t i = 0; i < n; i++) {
        warp_record r;
        warplog_expand_probe(&p[i], i, 1, 1, 0, sm_ref, sm_seen, &r);
        /* clocks relative to 2^32 +- 2^31: 34 bits are plenty; an end sorts
         * before a start at the same clock (touching intervals do not overlap) */
        const uint64_t s = (r.start_clk & ((1ull << 54) - 1));
        const uint64_t t = (r.end_clk & ((1ull << 54) - 1));
        e[2 * i] = (uint64_t)r.smid << 56 | s << 1 | 1;
        e[2 * i + 1] = (uint64_t)r.smid << 56 | (t + 1) << 1;
    }
    radix_sort_u64(e, tmp, 2 * n);
    free(tmp);
    long best = 0, cur = 0;
    unsigned sm = 256;
    for (uint64_t i = 0; i < 2 * n; i++) {
        const unsigned s = (unsigned)(e[i] >> 56);
        if (s != sm) sm = s, cur = 0;
        cur += (e[i] & 1) ? 1 : -1;
        if (cur > best) best = cur;
    }
    free(e);
    return best;
}
