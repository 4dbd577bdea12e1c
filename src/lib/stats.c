/*
 * stats.c - exact streaming latency statistics (contract: stats.h).
 *
 * Why histograms: a log of a 1e8-element run holds ~3 million warps, and the
 * percentiles must be exact so that golden tests can pin them.  Sorting all
 * latencies would need 25 MB and O(n log n); one-cycle bins give the same
 * order statistics in O(n) with a fixed 128 KiB per SM, because latencies
 * are small integers.  The rare larger values (a congested random-access
 * run) go to an overflow list, sorted once.
 *
 * The all-SM population is not counted in the hot loop (that would double
 * its cost); it is merged from the per-SM histograms when first asked for.
 */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct sm_hist {
    uint64_t count;     /* warps in bins and overflow */
    uint64_t *bins;     /* LAT_STATS_BINS counters */
    uint64_t *ovf;      /* latencies >= LAT_STATS_BINS, sorted once final */
    size_t novf, capovf;
} sm_hist;

struct lat_stats {
    sm_hist **sm;       /* indexed by smid, NULL where no record was seen */
    size_t nsm_slots;
    sm_hist all;        /* merged on demand */
    int final;          /* all is up to date and overflow lists are sorted */
    uint64_t bad;
};

lat_stats *lat_stats_new(void)
{
    return calloc(1, sizeof(lat_stats));
}

static void hist_free(sm_hist *h)
{
    if (!h) return;
    free(h->bins);
    free(h->ovf);
}

void lat_stats_free(lat_stats *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->nsm_slots; i++) {
        hist_free(s->sm[i]);
        free(s->sm[i]);
    }
    free(s->sm);
    hist_free(&s->all);
    free(s);
}

/* The SM's histogram, created on first sight.  NULL when out of memory. */
static sm_hist *hist_for(lat_stats *s, unsigned smid)
{
    if (smid >= s->nsm_slots) {
        size_t n = s->nsm_slots ? s->nsm_slots : 64;
        while (n <= smid) n *= 2;
        sm_hist **p = realloc(s->sm, n * sizeof *p);
        if (!p) return NULL;
        memset(p + s->nsm_slots, 0, (n - s->nsm_slots) * sizeof *p);
        s->sm = p;
        s->nsm_slots = n;
    }
    if (!s->sm[smid]) {
        sm_hist *h = calloc(1, sizeof *h);
        if (!h) return NULL;
        h->bins = calloc(LAT_STATS_BINS, sizeof *h->bins);
        if (!h->bins) {
            free(h);
            return NULL;
        }
        s->sm[smid] = h;
    }
    return s->sm[smid];
}

static int ovf_push(sm_hist *h, uint64_t v)
{
    if (h->novf == h->capovf) {
        size_t n = h->capovf ? 2 * h->capovf : 256;
        uint64_t *p = realloc(h->ovf, n * sizeof *p);
        if (!p) return -1;
        h->ovf = p;
        h->capovf = n;
    }
    h->ovf[h->novf++] = v;
    return 0;
}

int lat_stats_add(lat_stats *s, const warp_record *r, size_t n)
{
    s->final = 0;
    /* Consecutive records usually come from a handful of SMs; caching the
     * last SM's histogram skips the table lookup for runs of the same SM. */
    unsigned last_sm = ~0u;
    sm_hist *h = NULL;
    for (size_t i = 0; i < n; i++) {
        if (r[i].end_clk < r[i].start_clk) {
            s->bad++;
            continue;
        }
        uint64_t lat = r[i].end_clk - r[i].start_clk;
        unsigned sm = r[i].smid;
        if (sm != last_sm) {
            h = hist_for(s, sm);
            if (!h) return -1;
            last_sm = sm;
        }
        h->count++;
        if (lat < LAT_STATS_BINS)
            h->bins[lat]++;
        else if (ovf_push(h, lat) != 0)
            return -1;
    }
    return 0;
}

uint64_t lat_stats_bad(const lat_stats *s) { return s->bad; }

int lat_stats_next_sm(const lat_stats *s, int after)
{
    for (size_t i = after < 0 ? 0 : (size_t)after + 1; i < s->nsm_slots; i++)
        if (s->sm[i] && s->sm[i]->count) return (int)i;
    return -1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sort every overflow list and rebuild the all-SM histogram. */
static int finalize(lat_stats *s)
{
    if (s->final) return 0;
    sm_hist *a = &s->all;
    if (!a->bins && !(a->bins = malloc(LAT_STATS_BINS * sizeof *a->bins))) return -1;
    memset(a->bins, 0, LAT_STATS_BINS * sizeof *a->bins);
    a->count = 0;
    a->novf = 0;
    for (size_t i = 0; i < s->nsm_slots; i++) {
        sm_hist *h = s->sm[i];
        if (!h) continue;
        qsort(h->ovf, h->novf, sizeof *h->ovf, cmp_u64);
        for (size_t b = 0; b < LAT_STATS_BINS; b++) a->bins[b] += h->bins[b];
        a->count += h->count;
        for (size_t k = 0; k < h->novf; k++)
            if (ovf_push(a, h->ovf[k]) != 0) return -1;
    }
    qsort(a->ovf, a->novf, sizeof *a->ovf, cmp_u64);
    s->final = 1;
    return 0;
}

/* The finalised histogram of a population, or NULL when it has no records
 * (or memory ran out: *oom set). */
static const sm_hist *population(lat_stats *s, int smid, int *oom)
{
    *oom = 0;
    if (finalize(s) != 0) {
        *oom = 1;
        return NULL;
    }
    const sm_hist *h;
    if (smid == LAT_STATS_ALL)
        h = &s->all;
    else if (smid >= 0 && (size_t)smid < s->nsm_slots)
        h = s->sm[smid];
    else
        h = NULL;
    return h && h->count ? h : NULL;
}

/* The k-th smallest latency (0-based, k < count). */
static uint64_t kth(const sm_hist *h, uint64_t k)
{
    uint64_t in_bins = h->count - h->novf;
    if (k >= in_bins) return h->ovf[k - in_bins];
    uint64_t cum = 0;
    for (size_t b = 0; b < LAT_STATS_BINS; b++) {
        cum += h->bins[b];
        if (cum > k) return b;
    }
    return 0; /* not reached: the bins hold in_bins > k warps */
}

static double type7(const sm_hist *h, double p)
{
    double hh = (double)(h->count - 1) * p;
    double fl = floor(hh);
    uint64_t k = (uint64_t)fl;
    double lo = (double)kth(h, k);
    if (k + 1 >= h->count) return lo;
    double hi = (double)kth(h, k + 1);
    return lo + (hh - fl) * (hi - lo);
}

double lat_stats_percentile(lat_stats *s, int smid, double p)
{
    int oom;
    const sm_hist *h = population(s, smid, &oom);
    if (!h || !(p >= 0.0 && p <= 1.0)) return NAN;
    return type7(h, p);
}

int lat_stats_summary(lat_stats *s, int smid, lat_summary *out)
{
    memset(out, 0, sizeof *out);
    int oom;
    const sm_hist *h = population(s, smid, &oom);
    if (oom) return -1;
    if (!h) return 0;
    out->count = h->count;
    /* The sum of latencies in two 64-bit words: overflow values may be
     * large, and the mean should not depend on the order of addition. */
    uint64_t sum_lo = 0, sum_hi = 0;
    for (size_t b = 0; b < LAT_STATS_BINS; b++) {
        uint64_t v = (uint64_t)b * h->bins[b];
        sum_lo += v;
        if (sum_lo < v) sum_hi++;
    }
    for (size_t k = 0; k < h->novf; k++) {
        sum_lo += h->ovf[k];
        if (sum_lo < h->ovf[k]) sum_hi++;
    }
    long double sum = (long double)sum_hi * 18446744073709551616.0L + (long double)sum_lo;
    out->mean_cycles = (double)(sum / (long double)h->count);
    out->min_cycles = kth(h, 0);
    out->max_cycles = kth(h, h->count - 1);
    out->p5_cycles = type7(h, 0.05);
    out->p50_cycles = type7(h, 0.50);
    out->p95_cycles = type7(h, 0.95);
    out->p99_cycles = type7(h, 0.99);
    return 0;
}

int lat_stats_each(lat_stats *s, int smid,
                   int (*fn)(uint64_t lat_cycles, uint64_t nwarps, void *ctx), void *ctx)
{
    int oom;
    const sm_hist *h = population(s, smid, &oom);
    if (oom) return -1;
    if (!h) return 0;
    for (size_t b = 0; b < LAT_STATS_BINS; b++) {
        if (!h->bins[b]) continue;
        int rc = fn(b, h->bins[b], ctx);
        if (rc) return rc;
    }
    for (size_t k = 0; k < h->novf;) {
        size_t j = k;
        while (j < h->novf && h->ovf[j] == h->ovf[k]) j++;
        int rc = fn(h->ovf[k], j - k, ctx);
        if (rc) return rc;
        k = j;
    }
    return 0;
}

double lat_stats_clock_MHz(const warplog_header *h, const char *log_name, FILE *warn)
{
    if (h->sm_clock_measured_MHz > 0) return h->sm_clock_measured_MHz;
    if (h->sm_clock_nominal_khz > 0) {
        double mhz = h->sm_clock_nominal_khz / 1000.0;
        if (warn)
            fprintf(warn, "note: %s has no measured SM clock; converting cycles to ns with "
                    "the nominal (maximum) clock %.6g MHz\n", log_name, mhz);
        return mhz;
    }
    if (warn)
        fprintf(warn, "note: %s records no SM clock at all; the ns columns are nan\n", log_name);
    return 0.0;
}

double lat_cycles_to_ns(double cycles, double clock_MHz)
{
    return clock_MHz > 0 ? cycles / clock_MHz * 1000.0 : NAN;
}

int lat_stats_read_log(lat_stats *s, const char *path, warplog_header *h,
                       char *err, size_t errlen)
{
    warplog_reader *r = warplog_reader_open(path, err, errlen);
    if (!r) return -1;
    if (h) *h = *warplog_reader_header(r);
    const warp_record *recs;
    long n;
    while ((n = warplog_reader_chunk(r, &recs, err, errlen)) > 0) {
        if (lat_stats_add(s, recs, (size_t)n) != 0) {
            snprintf(err, errlen, "out of memory accumulating the latencies of %s", path);
            n = -1;
            break;
        }
    }
    warplog_reader_close(r);
    return n < 0 ? -1 : 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double stats_median_inplace(double *v, size_t n)
{
    if (n == 0) return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
