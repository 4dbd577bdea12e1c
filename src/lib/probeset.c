/* probeset.c - see probeset.h. */
#include "probeset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "par.h"

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
 * a pass skipped where every key has the same digit (known from the bits
 * that differ, without counting); tmp holds n keys.  A
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
    uint64_t all = ~0ull, any = 0;   /* the bits every key has, and those some key has */
    for (uint64_t i = 0; i < n; i++) all &= keys[i], any |= keys[i];
    for (unsigned shift = 0; shift < 64; shift += DIG) {
        if ((((all ^ any) >> shift) & (NB - 1)) == 0) continue;   /* one digit: nothing moves */
        memset(count, 0, NB * sizeof *count);
        for (uint64_t i = 0; i < n; i++) count[(src[i] >> shift) & (NB - 1)]++;
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

/* The max concurrency's work, in three loops over slices of the probes and
 * then over SMs (par.h). */
typedef struct conc_loop {
    const warp_probe *p;
    uint64_t n;
    unsigned nslices;
    uint64_t *e, *tmp;
    uint64_t off[WARP_PROBE_MAX_SMS + 1];   /* SM s's edges are e[off[s] .. off[s + 1]) */
    uint32_t ref[WARP_PROBE_MAX_SMS];       /* the SM's first probe's clock */
    long best[WARP_PROBE_MAX_SMS];
    /* per slice: its edges per SM, then where its next edge of each SM goes */
    uint64_t at[PAR_MAX_THREADS][WARP_PROBE_MAX_SMS];
    uint32_t first[PAR_MAX_THREADS][WARP_PROBE_MAX_SMS];   /* its first probe's clock per SM */
} conc_loop;

static uint64_t slice_lo(const conc_loop *c, size_t t) { return c->n * t / c->nslices; }

static void conc_count(void *arg, size_t t)
{
    conc_loop *c = arg;
    uint64_t *k = c->at[t];
    for (uint64_t i = slice_lo(c, t); i < slice_lo(c, t + 1); i++) {
        const unsigned sm = c->p[i].lat_smid >> 24;
        if (!k[sm]) c->first[t][sm] = c->p[i].start_lo;
        k[sm] += 2;
    }
}

static void conc_scatter(void *arg, size_t t)
{
    conc_loop *c = arg;
    uint64_t *at = c->at[t];
    for (uint64_t i = slice_lo(c, t); i < slice_lo(c, t + 1); i++) {
        const unsigned sm = c->p[i].lat_smid >> 24;
        /* the signed distance from the SM's first probe, plus 2^31 */
        const uint64_t s = (uint32_t)(c->p[i].start_lo - c->ref[sm]) ^ 0x80000000u;
        c->e[at[sm]++] = s << 1 | 1;
        c->e[at[sm]++] = (s + (c->p[i].lat_smid & WARP_PROBE_LAT_MAX) + 1) << 1;
    }
}

/* The edges of one SM, sorted in place and swept. */
static void conc_sm(void *arg, size_t s)
{
    conc_loop *c = arg;
    uint64_t *e = c->e + c->off[s], *tmp = c->tmp + c->off[s];
    const uint64_t k = c->off[s + 1] - c->off[s];
    c->best[s] = 0;
    if (k == 0) return;
    /* from the SM's smallest key, even so that the start flag stays: the
     * sort then moves only the digits of the SM's span */
    uint64_t lo = UINT64_MAX;
    for (uint64_t i = 0; i < k; i++) lo = e[i] < lo ? e[i] : lo;
    lo &= ~1ull;
    for (uint64_t i = 0; i < k; i++) e[i] -= lo;
    radix_sort_u64(e, tmp, k);
    long cur = 0, best = 0;
    for (uint64_t i = 0; i < k; i++) {
        cur += (e[i] & 1) ? 1 : -1;
        if (cur > best) best = cur;
    }
    c->best[s] = best;
}

/* Each timed interval gives two edges on its SM, a key each: clock << 1 |
 * (start ? 1 : 0), +1 at its start, -1 after its end; an end sorts before a
 * start at the same clock (touching intervals do not overlap).  The clock is
 * the SM's as warplog_expand_probe unwraps it (the low word's signed
 * distance from the SM's first probe), less a constant per SM, which keeps
 * every SM's order.  Every pass runs on every core: the probes are counted
 * and their edges placed by slices, each slice writing its own places; the
 * SMs' edges are then sorted and swept apart (a sort of 6 M keys of a 3
 * M-warp point became 132 small ones that stay in cache). */
long probeset_max_concurrency(const warp_probe *p, uint64_t n)
{
    if (n == 0) return 0;
    conc_loop *c = calloc(1, sizeof *c);
    uint64_t *e = malloc(2 * n * sizeof *e), *tmp = malloc(2 * n * sizeof *tmp);
    long best = -1;
    if (c && e && tmp) {
        c->p = p;
        c->n = n;
        c->e = e;
        c->tmp = tmp;
        c->nslices = n < 65536 ? 1 : par_cores();
        par_for(c->nslices, c->nslices, conc_count, c);
        /* each SM's reference is its first probe, that of the first slice
         * that has one; each slice's edges of an SM follow the earlier ones' */
        for (unsigned s = 0; s < WARP_PROBE_MAX_SMS; s++) {
            c->off[s + 1] = c->off[s];
            for (unsigned t = 0; t < c->nslices; t++) {
                const uint64_t k = c->at[t][s];
                if (k && c->off[s + 1] == c->off[s]) c->ref[s] = c->first[t][s];
                c->at[t][s] = c->off[s + 1];
                c->off[s + 1] += k;
            }
        }
        par_for(c->nslices, c->nslices, conc_scatter, c);
        par_for(WARP_PROBE_MAX_SMS, 0, conc_sm, c);
        best = 0;
        for (unsigned s = 0; s < WARP_PROBE_MAX_SMS; s++) best = c->best[s] > best ? c->best[s] : best;
    }
    free(e);
    free(tmp);
    free(c);
    return best;
}
