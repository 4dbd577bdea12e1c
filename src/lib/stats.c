/*
 * stats.c - exact streaming latency statistics (contract: stats.h).
 *
 * Why histograms: a log of a 1e8-element run holds ~3 million warps, and the
 * percentiles must be exact so that golden tests can pin them.  Sorting all
 * latencies would need 25 MB and O(n log n); one-cycle bins give the same
 * order statistics in O(n) with a fixed 64 KiB per SM, because latencies
 * are small integers.  The rare larger values (a congested random-access
 * run) are kept as sorted (latency, count) pairs: memory then grows with the
 * number of distinct large latencies, which is bounded, never with the
 * number of warps.  They arrive in a batch that is sorted and merged into
 * the SM's pairs when full; the batch grows with the pairs, so each costs
 * O(log batch) amortized however many distinct values there are.
 *
 * The all-SM population is not counted in the hot loop (that would double
 * its cost); it is merged from the per-SM histograms when first asked for.
 */
#include "stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct ovf_pair {
    uint64_t lat;       /* >= LAT_STATS_BINS */
    uint64_t n;         /* warps with it */
} ovf_pair;

/* One population: an SM (32-bit bins) or all of them (64-bit bins). */
typedef struct hist {
    uint64_t count;     /* warps in bins and pairs */
    uint64_t novf;      /* warps in pairs */
    uint32_t *bins32;   /* per SM */
    uint64_t *bins64;   /* all SMs */
    size_t lo, hi;      /* the bins in use are within [lo, hi) (scans skip the rest) */
    ovf_pair *ovf;      /* ascending by lat */
    size_t nd;          /* pairs */
} hist;

typedef struct pend { uint64_t lat; uint32_t sm; uint32_t pad; } pend;

struct lat_stats {
    hist *sm[LAT_STATS_MAX_SMS]; /* NULL where no record was seen */
    hist all;                    /* merged on demand */
    pend *pending;               /* large latencies not yet merged */
    size_t npending, cappending; /* the batch grows with the pairs (flush_pending) */
    size_t ndistinct;            /* pairs over all SMs */
    size_t max_distinct;         /* LAT_STATS_MAX_OVERFLOW, or less (lat_stats_set_max_distinct) */
    int final;                   /* all is up to date, pending is empty */
    uint64_t bad;
    char err[256];
};

static int fail(lat_stats *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(lat_stats *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    return -1;
}

lat_stats *lat_stats_new(void)
{
    lat_stats *s = calloc(1, sizeof(lat_stats));
    if (s) s->max_distinct = LAT_STATS_MAX_OVERFLOW;
    return s;
}

void lat_stats_set_max_distinct(lat_stats *s, size_t max_distinct)
{
    if (max_distinct < 1) max_distinct = 1;
    s->max_distinct = max_distinct < LAT_STATS_MAX_OVERFLOW ? max_distinct : LAT_STATS_MAX_OVERFLOW;
}

static void hist_free(hist *h)
{
    if (!h) return;
    free(h->bins32);
    free(h->bins64);
    free(h->ovf);
}

void lat_stats_free(lat_stats *s)
{
    if (!s) return;
    for (size_t i = 0; i < LAT_STATS_MAX_SMS; i++) {
        hist_free(s->sm[i]);
        free(s->sm[i]);
    }
    hist_free(&s->all);
    free(s->pending);
    free(s);
}

const char *lat_stats_error(const lat_stats *s) { return s->err; }

/* The SM's histogram, created on first sight.  NULL when out of memory. */
static hist *hist_for(lat_stats *s, unsigned smid)
{
    if (!s->sm[smid]) {
        hist *h = calloc(1, sizeof *h);
        if (!h) return NULL;
        h->bins32 = calloc(LAT_STATS_BINS, sizeof *h->bins32);
        if (!h->bins32) {
            free(h);
            return NULL;
        }
        h->lo = LAT_STATS_BINS;
        h->hi = 0;
        s->sm[smid] = h;
    }
    return s->sm[smid];
}

static int cmp_pend(const void *a, const void *b)
{
    const pend *x = a, *y = b;
    if (x->sm != y->sm) return x->sm < y->sm ? -1 : 1;
    return (x->lat > y->lat) - (x->lat < y->lat);
}

/* Merge sorted pairs a[0..na) and the run of pending latencies p[0..np)
 * (sorted) into a new array; NULL when out of memory. */
static ovf_pair *merge_pairs(const ovf_pair *a, size_t na, const pend *p, size_t np, size_t *nout)
{
    ovf_pair *o = malloc((na + np) * sizeof *o);
    if (!o) return NULL;
    size_t i = 0, j = 0, k = 0;
    while (i < na || j < np) {
        uint64_t lat;
        uint64_t n = 0;
        if (j >= np || (i < na && a[i].lat <= p[j].lat)) lat = a[i].lat;
        else lat = p[j].lat;
        while (i < na && a[i].lat == lat) n += a[i++].n;
        while (j < np && p[j].lat == lat) n++, j++;
        o[k].lat = lat;
        o[k].n = n;
        k++;
    }
    *nout = k;
    return o;
}

/* Sort the batch and merge it into the SMs' pairs. */
static int flush_pending(lat_stats *s)
{
    if (s->npending == 0) return 0;
    qsort(s->pending, s->npending, sizeof *s->pending, cmp_pend);
    for (size_t i = 0; i < s->npending;) {
        size_t j = i;
        while (j < s->npending && s->pending[j].sm == s->pending[i].sm) j++;
        hist *h = s->sm[s->pending[i].sm];
        size_t nd;
        ovf_pair *m = merge_pairs(h->ovf, h->nd, s->pending + i, j - i, &nd);
        if (!m) return fail(s, "out of memory");
        s->ndistinct += nd - h->nd;
        free(h->ovf);
        h->ovf = m;
        h->nd = nd;
        i = j;
    }
    s->npending = 0;
    if (s->ndistinct > s->max_distinct)
        return fail(s, "more than %zu distinct latencies of %u cycles or more (per SM): exact "
                    "percentiles of that many are beyond this tool's memory bound",
                    s->max_distinct, LAT_STATS_BINS);
    return 0;
}

int lat_stats_add(lat_stats *s, const warp_record *r, size_t n)
{
    s->final = 0;
    /* Consecutive records usually come from a handful of SMs; caching the
     * last SM's histogram skips the table lookup for runs of the same SM. */
    unsigned last_sm = ~0u;
    hist *h = NULL;
    for (size_t i = 0; i < n; i++) {
        if (r[i].end_clk < r[i].start_clk) {
            s->bad++;
            continue;
        }
        uint64_t lat = r[i].end_clk - r[i].start_clk;
        unsigned sm = r[i].smid;
        if (sm != last_sm) {
            if (sm >= LAT_STATS_MAX_SMS)
                return fail(s, "a record has SM id %u; no GPU this toolkit reads has more "
                            "than %u SMs", sm, LAT_STATS_MAX_SMS);
            h = hist_for(s, sm);
            if (!h) return fail(s, "out of memory");
            last_sm = sm;
        }
        if (lat < LAT_STATS_BINS) {
            if (h->bins32[lat] == UINT32_MAX)
                return fail(s, "more than %u warps of SM %u have a latency of %llu cycles: "
                            "beyond this tool's counters", UINT32_MAX, sm, (unsigned long long)lat);
            h->bins32[lat]++;
            if (lat < h->lo) h->lo = lat;
            if (lat >= h->hi) h->hi = lat + 1;
        } else {
            if (s->npending == s->cappending) {
                /* the batch is as large as the pairs already merged (at least
                 * LAT_STATS_PENDING, at most max_distinct): each merge then
                 * costs O(1) per latency it brings, amortized */
                size_t cap = s->ndistinct > LAT_STATS_PENDING ? s->ndistinct : LAT_STATS_PENDING;
                if (cap > s->max_distinct) cap = s->max_distinct;
                if (s->npending && (cap <= s->cappending || s->npending >= cap)) {
                    if (flush_pending(s) != 0) return -1;
                }
                if (cap > s->cappending) {
                    pend *np = realloc(s->pending, cap * sizeof *np);
                    if (!np) return fail(s, "out of memory");
                    s->pending = np;
                    s->cappending = cap;
                }
            }
            s->pending[s->npending++] = (pend){lat, sm, 0};
            h->novf++;
        }
        h->count++;
    }
    return 0;
}

uint64_t lat_stats_bad(const lat_stats *s) { return s->bad; }

int lat_stats_next_sm(const lat_stats *s, int after)
{
    for (size_t i = after < 0 ? 0 : (size_t)after + 1; i < LAT_STATS_MAX_SMS; i++)
        if (s->sm[i] && s->sm[i]->count) return (int)i;
    return -1;
}

static int cmp_pair(const void *a, const void *b)
{
    const ovf_pair *x = a, *y = b;
    return (x->lat > y->lat) - (x->lat < y->lat);
}

/* Merge the batch, and rebuild the all-SM histogram and pairs. */
static int finalize(lat_stats *s)
{
    if (s->final) return 0;
    if (flush_pending(s) != 0) return -1;
    /* the batch is empty: its memory goes before the all-SM pairs take theirs */
    free(s->pending);
    s->pending = NULL;
    s->cappending = 0;
    hist *a = &s->all;
    if (!a->bins64 && !(a->bins64 = malloc(LAT_STATS_BINS * sizeof *a->bins64)))
        return fail(s, "out of memory");
    memset(a->bins64, 0, LAT_STATS_BINS * sizeof *a->bins64);
    free(a->ovf);
    a->ovf = NULL;
    a->nd = 0;
    a->count = a->novf = 0;
    a->lo = LAT_STATS_BINS;
    a->hi = 0;
    if (s->ndistinct && !(a->ovf = malloc(s->ndistinct * sizeof *a->ovf)))
        return fail(s, "out of memory");
    for (size_t i = 0; i < LAT_STATS_MAX_SMS; i++) {
        const hist *h = s->sm[i];
        if (!h) continue;
        for (size_t b = h->lo; b < h->hi; b++) a->bins64[b] += h->bins32[b];
        if (h->lo < a->lo) a->lo = h->lo;
        if (h->hi > a->hi) a->hi = h->hi;
        a->count += h->count;
        a->novf += h->novf;
        if (h->nd) memcpy(a->ovf + a->nd, h->ovf, h->nd * sizeof *h->ovf);
        a->nd += h->nd;
    }
    if (a->nd) {
        qsort(a->ovf, a->nd, sizeof *a->ovf, cmp_pair);
        size_t k = 0;
        for (size_t i = 0; i < a->nd; i++) {
            if (k && a->ovf[k - 1].lat == a->ovf[i].lat) a->ovf[k - 1].n += a->ovf[i].n;
            else a->ovf[k++] = a->ovf[i];
        }
        a->nd = k;
    }
    s->final = 1;
    return 0;
}

/* The finalised histogram of a population, or NULL when it has no records
 * (or memory ran out: *oom set). */
static const hist *population(lat_stats *s, int smid, int *oom)
{
    *oom = 0;
    if (finalize(s) != 0) {
        *oom = 1;
        return NULL;
    }
    const hist *h;
    if (smid == LAT_STATS_ALL)
        h = &s->all;
    else if (smid >= 0 && (size_t)smid < LAT_STATS_MAX_SMS)
        h = s->sm[smid];
    else
        h = NULL;
    return h && h->count ? h : NULL;
}

static uint64_t bin(const hist *h, size_t b) { return h->bins32 ? h->bins32[b] : h->bins64[b]; }

/* The k-th smallest latency (0-based, k < count). */
static uint64_t kth(const hist *h, uint64_t k)
{
    uint64_t in_bins = h->count - h->novf;
    if (k >= in_bins) {
        uint64_t cum = in_bins;
        for (size_t i = 0; i < h->nd; i++) {
            cum += h->ovf[i].n;
            if (cum > k) return h->ovf[i].lat;
        }
        return h->nd ? h->ovf[h->nd - 1].lat : 0; /* not reached */
    }
    uint64_t cum = 0;
    for (size_t b = h->lo; b < h->hi; b++) {
        cum += bin(h, b);
        if (cum > k) return b;
    }
    return 0; /* not reached: the bins hold in_bins > k warps */
}

static double type7(const hist *h, double p)
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
    const hist *h = population(s, smid, &oom);
    if (!h || !(p >= 0.0 && p <= 1.0)) return NAN;
    return type7(h, p);
}

/* (hi, lo) += a * b, exactly: a 64 x 64 -> 128-bit product in 32-bit halves. */
static void add_product(uint64_t *hi, uint64_t *lo, uint64_t a, uint64_t b)
{
    const uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    const uint64_t plo = (mid << 32) | (p00 & 0xffffffffu);
    const uint64_t phi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    *lo += plo;
    *hi += phi + (*lo < plo);
}

int lat_stats_summary(lat_stats *s, int smid, lat_summary *out)
{
    memset(out, 0, sizeof *out);
    int oom;
    const hist *h = population(s, smid, &oom);
    if (oom) return -1;
    if (!h) return 0;
    out->count = h->count;
    /* The sum of latencies in 128 bits: large values times their counts
     * may exceed 64, and the mean should not depend on the order of addition. */
    uint64_t sum_lo = 0, sum_hi = 0;
    for (size_t b = h->lo; b < h->hi; b++) add_product(&sum_hi, &sum_lo, b, bin(h, b));
    for (size_t k = 0; k < h->nd; k++) add_product(&sum_hi, &sum_lo, h->ovf[k].lat, h->ovf[k].n);
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
    const hist *h = population(s, smid, &oom);
    if (oom) return -1;
    if (!h) return 0;
    for (size_t b = h->lo; b < h->hi; b++) {
        const uint64_t n = bin(h, b);
        if (!n) continue;
        int rc = fn(b, n, ctx);
        if (rc) return rc;
    }
    for (size_t k = 0; k < h->nd; k++) {
        int rc = fn(h->ovf[k].lat, h->ovf[k].n, ctx);
        if (rc) return rc;
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
    const warplog_header *hd = warplog_reader_header(r);
    if (h) *h = *hd;
    const warp_record *recs;
    long n;
    uint64_t seen = 0;
    while ((n = warplog_reader_chunk(r, &recs, err, errlen)) > 0) {
        for (long i = 0; i < n; i++)
            if ((int32_t)recs[i].smid >= hd->sm_count) {
                snprintf(err, errlen, "%s: record %llu is of SM %u, but the header says the GPU "
                         "has %d SMs", path, (unsigned long long)(seen + (uint64_t)i),
                         recs[i].smid, hd->sm_count);
                warplog_reader_close(r);
                return -1;
            }
        seen += (uint64_t)n;
        if (lat_stats_add(s, recs, (size_t)n) != 0) {
            snprintf(err, errlen, "%s: %s", path, lat_stats_error(s));
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

/* splitmix64: the bootstrap's generator (small, fixed, and the same on
 * every platform, unlike rand()) */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int stats_median_ci(const double *x, size_t n, double level, unsigned draws, uint64_t seed,
                    double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (n == 0 || draws == 0 || !(level > 0 && level < 1)) return -1;
    if (n == 1) {
        *lo = *hi = x[0];
        return 0;
    }
    double *res = malloc(n * sizeof *res), *med = malloc(draws * sizeof *med);
    if (!res || !med) {
        free(res);
        free(med);
        return -1;
    }
    uint64_t st = seed;
    for (unsigned d = 0; d < draws; d++) {
        for (size_t i = 0; i < n; i++) res[i] = x[splitmix64(&st) % n];
        med[d] = stats_median_inplace(res, n);
    }
    qsort(med, draws, sizeof *med, cmp_double);
    /* the quantiles as the order statistics at floor(q (draws - 1) + 0.5) */
    const double qlo = 0.5 * (1 - level), qhi = 0.5 * (1 + level);
    *lo = med[(size_t)(qlo * (draws - 1) + 0.5)];
    *hi = med[(size_t)(qhi * (draws - 1) + 0.5)];
    free(res);
    free(med);
    return 0;
}
