/*
 * sector_model.c - the sector model of sector_model.h.
 *
 * Why it is computed the way it is:
 *
 * - Per warp, the sets of sectors, lines and granules are small (at most 64
 *   ids: 32 lanes, each touching at most two of them), so they are counted by
 *   collecting the ids and counting the distinct ones; lanes are almost
 *   always in increasing address order, so a sort is needed only when the
 *   strided index wraps inside the warp or the addresses are a gather.
 *
 * - The strided kernels are counted exactly by walking every thread once:
 *   element (stride * i) % n is advanced by adding stride % n and
 *   subtracting n on overflow, so no 64-bit product can overflow and the
 *   walk costs a few nanoseconds per thread.  The index wraps: with
 *   g = gcd(stride, n) every element that is a multiple of g is read g times
 *   over N threads, in "sweeps" (runs of increasing index).  A later sweep
 *   touches granules an earlier one fetched; whether they are still in L2 is
 *   what sm_reuse decides.  For SM_REUSE_LRU the stack distance of a touch is
 *   estimated as the sum of the footprints (distinct granules) of the sweeps
 *   since the granule's last touch, capped by the number of distinct
 *   granules seen so far; within one sweep the addresses increase, so a
 *   granule touched again in the same sweep was touched by the previous
 *   request or so and hits.
 *
 * - The gathers are enumerated warp by warp too: c[i] is a deterministic
 *   function of i, n and the seed (patterns.h, the very code the device's
 *   init kernel runs), so random_access's sectors are exact, not expected
 *   values (see predict_gather).
 *
 * - The LRU footprint is counted in 128 B lines, the unit the L2 allocates,
 *   while DRAM traffic is counted in granules: a 64 B fill takes a whole
 *   line's slot (docs/sectors.md, "H100 results").
 */
#include "sector_model.h"
#include "err.h"
#include "patterns.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sm_granule_ok(unsigned g)
{
    return g == 32 || g == 64 || g == 128;
}

static unsigned log2u(unsigned v)
{
    unsigned s = 0;
    while ((1u << s) < v)
        s++;
    return s;
}

unsigned sm_sort_distinct(uint64_t *v, unsigned n)
{
    int sorted = 1;
    for (unsigned i = 1; i < n && sorted; i++)
        if (v[i] < v[i - 1])
            sorted = 0;
    if (!sorted) {
        for (unsigned i = 1; i < n; i++) {
            uint64_t x = v[i];
            unsigned j = i;
            while (j > 0 && v[j - 1] > x) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = x;
        }
    }
    unsigned d = n ? 1 : 0;
    for (unsigned i = 1; i < n; i++)
        if (v[i] != v[i - 1])
            d++;
    return d;
}

/* ------------------------------------------------------------ one warp */

int sm_warp_from_addrs(const uint64_t *addr, unsigned lanes, unsigned elem_bytes,
                       unsigned granule_bytes, sm_warp *out)
{
    if (!out || lanes > SM_WARP_LANES || (lanes && !addr) || elem_bytes == 0 ||
        elem_bytes > SM_SECTOR_BYTES || !sm_granule_ok(granule_bytes))
        return -1;
    memset(out, 0, sizeof *out);
    out->active_lanes = lanes;
    if (lanes == 0)
        return 0;

    uint64_t sec[2 * SM_WARP_LANES], lin[2 * SM_WARP_LANES], gra[2 * SM_WARP_LANES];
    uint64_t start[SM_WARP_LANES];
    unsigned ns = 0, nl = 0, ng = 0;
    for (unsigned l = 0; l < lanes; l++) {
        uint64_t b0 = addr[l], b1 = addr[l] + elem_bytes - 1;
        sec[ns++] = b0 / SM_SECTOR_BYTES;
        if (b1 / SM_SECTOR_BYTES != b0 / SM_SECTOR_BYTES)
            sec[ns++] = b1 / SM_SECTOR_BYTES;
        lin[nl++] = b0 / SM_LINE_BYTES;
        if (b1 / SM_LINE_BYTES != b0 / SM_LINE_BYTES)
            lin[nl++] = b1 / SM_LINE_BYTES;
        gra[ng++] = b0 / granule_bytes;
        if (b1 / granule_bytes != b0 / granule_bytes)
            gra[ng++] = b1 / granule_bytes;
        start[l] = b0;
    }
    /* Distinct bytes: union of the lanes' intervals, sorted by start. */
    sm_sort_distinct(start, lanes);
    uint64_t used = 0, covered_to = 0; /* bytes [.., covered_to) counted */
    for (unsigned l = 0; l < lanes; l++) {
        uint64_t b0 = start[l], b1 = start[l] + elem_bytes;
        if (l == 0 || b0 >= covered_to)
            used += elem_bytes;
        else if (b1 > covered_to)
            used += b1 - covered_to;
        if (l == 0 || b1 > covered_to)
            covered_to = b1;
    }

    out->l1_requests = 1;
    out->sectors = sm_sort_distinct(sec, ns);
    out->lines = sm_sort_distinct(lin, nl);
    out->l2_sectors = out->sectors;
    out->dram_sectors = sm_sort_distinct(gra, ng) * (granule_bytes / SM_SECTOR_BYTES);
    out->bytes_used = (unsigned)used;
    out->sector_util = (double)used / (out->sectors * (double)SM_SECTOR_BYTES);
    out->dram_util = (double)used / (out->dram_sectors * (double)SM_SECTOR_BYTES);
    return 0;
}

int sm_warp_strided(unsigned elem_bytes, uint64_t stride_elems, uint64_t offset_bytes,
                    unsigned active_lanes, unsigned granule_bytes, sm_warp *out)
{
    if (active_lanes > SM_WARP_LANES)
        return -1;
    uint64_t addr[SM_WARP_LANES];
    for (unsigned l = 0; l < active_lanes; l++)
        addr[l] = offset_bytes + (uint64_t)l * stride_elems * elem_bytes;
    return sm_warp_from_addrs(addr, active_lanes, elem_bytes, granule_bytes, out);
}

/* ------------------------------------------------------- kernel names */

static const char *const kernel_names[SM_KERNEL_COUNT] = {
    "baseline", "float4", "nondiverging", "random_access", "strided", "strided_float4",
};

const char *sm_kernel_name(sm_kernel k)
{
    return (unsigned)k < SM_KERNEL_COUNT ? kernel_names[k] : "?";
}

int sm_kernel_from_name(const char *name, sm_kernel *k)
{
    for (int i = 0; i < SM_KERNEL_COUNT; i++)
        if (name && strcmp(name, kernel_names[i]) == 0) {
            *k = (sm_kernel)i;
            return 0;
        }
    return -1;
}

unsigned sm_kernel_elem_bytes(sm_kernel k)
{
    return (k == SM_FLOAT4 || k == SM_STRIDED_FLOAT4) ? 16u : 4u;
}

static const char *const reuse_names[] = { "lru", "all", "none" };

const char *sm_reuse_name(sm_reuse r)
{
    return (unsigned)r <= SM_REUSE_NONE ? reuse_names[r] : "?";
}

int sm_reuse_from_name(const char *name, sm_reuse *r)
{
    for (int i = 0; i <= SM_REUSE_NONE; i++)
        if (name && strcmp(name, reuse_names[i]) == 0) {
            *r = (sm_reuse)i;
            return 0;
        }
    return -1;
}

void sm_config_default(sm_config *c)
{
    memset(c, 0, sizeof *c);
    c->n_floats = 100000000ull;
    c->stride = 1;
    c->offset_bytes = 0;
    c->granule_bytes = SM_GRANULE_DEFAULT;
    c->l2_bytes = SM_L2_EFFECTIVE_BYTES_H100;
    c->reuse = SM_REUSE_LRU;
    c->index_bytes = 4;
    c->threads_per_block = 128;
    c->seed = SM_SEED_DEFAULT;
}

/* Threads the kernel launches for `items` work items: whole blocks. */
static uint64_t launched(const sm_config *c, uint64_t items)
{
    uint64_t tpb = c->threads_per_block ? c->threads_per_block : 1;
    return (items + tpb - 1) / tpb * tpb;
}

/* ------------------------------------------------- one array, walked */

/* What one array's loads add up to. */
typedef struct stream_acc {
    double requests, sectors, lines, dram_granules, bytes_used, unique_bytes;
} stream_acc;

/* The granule bookkeeping of one walk (see the comment at the top). */
typedef struct reuse_state {
    const sm_config *cfg;
    uint32_t *last;      /* last[x]: sweep (1-based) that last touched granule x; 0 never */
    uint32_t *lline;     /* lline[y]: sweep that last touched 128 B line y; 0 never */
    unsigned  lshift;    /* log2(128 / granule): granule -> line */
    double   *pre;       /* pre[b]: sum of the footprints of sweeps 1..b-1 */
    size_t    pre_cap;
    uint32_t  sweep;
    double    fp_cur;    /* distinct 128 B lines of the current sweep */
    double    seen;      /* distinct 128 B lines touched so far */
    double    cap;       /* L2 capacity in 128 B lines */
    double    fetched;   /* granules fetched from DRAM */
} reuse_state;

static int new_sweep(reuse_state *r)
{
    if (!r->last)
        return 0;
    if (r->sweep + 2 > r->pre_cap) {
        double *p = realloc(r->pre, 2 * r->pre_cap * sizeof *p);
        if (!p)
            return -1;
        r->pre = p;
        r->pre_cap *= 2;
    }
    r->pre[r->sweep + 1] = r->pre[r->sweep] + r->fp_cur;
    r->sweep++;
    r->fp_cur = 0;
    return 0;
}

/* The footprint is counted in 128 B lines, the unit the L2 allocates (one
 * tag per line, its sectors filled as they are fetched): a sparse pattern
 * that fetches one 64 B granule per line still takes a whole line. */
static inline void touch(reuse_state *r, uint64_t x)
{
    uint32_t L = r->last[x];
    if (L == r->sweep)
        return; /* touched earlier in this sweep, a request or so ago: hit */
    uint64_t y = x >> r->lshift;
    if (r->lline[y] != r->sweep) {
        if (r->lline[y] == 0)
            r->seen += 1;
        r->lline[y] = r->sweep;
        r->fp_cur += 1;
    }
    if (L == 0) {
        r->fetched += 1; /* compulsory */
    } else if (r->cfg->reuse != SM_REUSE_ALL) {
        double dist = r->pre[r->sweep] - r->pre[L];
        if (dist > r->seen)
            dist = r->seen;
        if (dist > r->cap)
            r->fetched += 1;
    }
    r->last[x] = r->sweep;
}

/* Per-request counts of a full warp whose lanes are d bytes apart, keyed by
 * the first lane's address mod 128 (sector, line and granule boundaries all
 * repeat every 128 B, so the counts depend on nothing else). */
typedef struct warp_counts {
    int valid;
    unsigned sectors, lines, granules;
} warp_counts;

static void fill_counts(warp_counts *wc, uint64_t r, uint64_t d, unsigned elem, unsigned gshift)
{
    uint64_t sec[2 * SM_WARP_LANES], lin[2 * SM_WARP_LANES], gra[2 * SM_WARP_LANES];
    unsigned ns = 0, nl = 0, ng = 0;
    for (unsigned l = 0; l < SM_WARP_LANES; l++) {
        uint64_t b0 = r + l * d, b1 = b0 + elem - 1;
        sec[ns++] = b0 >> 5;
        if ((b1 >> 5) != (b0 >> 5))
            sec[ns++] = b1 >> 5;
        lin[nl++] = b0 >> 7;
        if ((b1 >> 7) != (b0 >> 7))
            lin[nl++] = b1 >> 7;
        gra[ng++] = b0 >> gshift;
        if ((b1 >> gshift) != (b0 >> gshift))
            gra[ng++] = b1 >> gshift;
    }
    wc->sectors = sm_sort_distinct(sec, ns);
    wc->lines = sm_sort_distinct(lin, nl);
    wc->granules = sm_sort_distinct(gra, ng);
    wc->valid = 1;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The L2 reuse state of a walk over ngran granules: its tables when the
 * reuse assumption needs them; 0, or -1 with a sentence in err. */
static int reuse_init(reuse_state *rs, const sm_config *cfg, uint64_t ngran, char *err,
                      size_t errlen)
{
    memset(rs, 0, sizeof *rs);
    rs->cfg = cfg;
    rs->sweep = 1;
    rs->cap = (double)(cfg->l2_bytes / SM_LINE_BYTES);
    rs->lshift = log2u(SM_LINE_BYTES / cfg->granule_bytes);
    if (cfg->reuse == SM_REUSE_NONE)
        return 0;
    rs->last = calloc(ngran, sizeof *rs->last);
    rs->lline = calloc((ngran >> rs->lshift) + 1, sizeof *rs->lline);
    rs->pre_cap = 1024;
    rs->pre = malloc(rs->pre_cap * sizeof *rs->pre);
    if (!rs->last || !rs->lline || !rs->pre) {
        free(rs->last);
        free(rs->lline);
        free(rs->pre);
        set_err(err, errlen, "out of memory for %llu granules", (unsigned long long)ngran);
        return -1;
    }
    rs->pre[0] = rs->pre[1] = 0;
    return 0;
}

/* The granules a full warp touches, its lanes d bytes apart from b0. */
static void touch_full_warp(reuse_state *rs, uint64_t b0, uint64_t d, unsigned elem,
                            unsigned gshift)
{
    if (d <= (1ull << gshift)) { /* no granule fits between two lanes: a range */
        uint64_t x1 = (b0 + (SM_WARP_LANES - 1) * d + elem - 1) >> gshift;
        for (uint64_t x = b0 >> gshift; x <= x1; x++)
            touch(rs, x);
        return;
    }
    for (unsigned l = 0; l < SM_WARP_LANES; l++) {
        uint64_t a = b0 + l * d;
        touch(rs, a >> gshift);
        if (((a + elem - 1) >> gshift) != (a >> gshift))
            touch(rs, (a + elem - 1) >> gshift);
    }
}

/*
 * Walk threads 0..threads-1, thread i loading elem bytes at
 * offset + elem * ((stride * i) % n), warp by warp, and accumulate.
 * Threads i >= n (the rest of the last block) load what thread n-1 loads,
 * as the kernels clamp their index (src/kernels/readonly.cu, ro_clamp).
 * A full warp whose index does not wrap (the common case) is counted from a
 * table keyed by its address mod 128; the others lane by lane.
 */
static int walk_strided(uint64_t n, uint64_t threads, uint64_t stride, unsigned elem,
                        uint64_t offset, const sm_config *cfg, stream_acc *acc,
                        char *err, size_t errlen)
{
    const unsigned G = cfg->granule_bytes, gshift = log2u(G);
    const uint64_t ngran = (offset + n * elem + G - 1) / G + 1;
    const uint64_t step = stride % n, d = step * elem;
    warp_counts table[SM_LINE_BYTES];
    memset(table, 0, sizeof table);

    reuse_state rs;
    if (reuse_init(&rs, cfg, ngran, err, errlen))
        return -1;

    uint64_t e = 0;      /* element of the next thread: (stride * i) % n */
    uint64_t e_last = 0; /* element of thread n-1, what clamped threads load */
    uint64_t prev_e = 0; /* element of the previous thread */
    uint64_t sec[2 * SM_WARP_LANES], lin[2 * SM_WARP_LANES], gra[2 * SM_WARP_LANES];
    uint64_t elems[SM_WARP_LANES];
    for (uint64_t base = 0; base < threads; base += SM_WARP_LANES) {
        unsigned lanes = threads - base < SM_WARP_LANES ? (unsigned)(threads - base)
                                                        : SM_WARP_LANES;
        if (lanes == SM_WARP_LANES && base + SM_WARP_LANES < n && step > 0 &&
            e + (SM_WARP_LANES - 1) * step < n) {
            /* Fast path: a full warp, increasing addresses d bytes apart. */
            if (base > 0 && e < prev_e && new_sweep(&rs))
                goto oom;
            uint64_t b0 = offset + e * elem;
            warp_counts *wc = &table[b0 % SM_LINE_BYTES];
            if (!wc->valid)
                fill_counts(wc, b0 % SM_LINE_BYTES, d, elem, gshift);
            acc->requests += 1;
            acc->sectors += wc->sectors;
            acc->lines += wc->lines;
            acc->bytes_used += (double)SM_WARP_LANES * elem;
            if (rs.last)
                touch_full_warp(&rs, b0, d, elem, gshift);
            else
                rs.fetched += wc->granules;
            prev_e = e + (SM_WARP_LANES - 1) * step;
            e = (e + SM_WARP_LANES * step) % n;
            continue;
        }
        /* Slow path: a partial warp, or the index wraps inside it. */
        unsigned ns = 0, nl = 0, ng = 0;
        for (unsigned l = 0; l < lanes; l++) {
            const uint64_t i = base + l;
            uint64_t el = i < n ? e : e_last;
            if (i < n && i > 0 && e < prev_e && new_sweep(&rs))
                goto oom;
            elems[l] = el;
            uint64_t b0 = offset + el * elem, b1 = b0 + elem - 1;
            sec[ns++] = b0 >> 5;
            if ((b1 >> 5) != (b0 >> 5))
                sec[ns++] = b1 >> 5;
            lin[nl++] = b0 >> 7;
            if ((b1 >> 7) != (b0 >> 7))
                lin[nl++] = b1 >> 7;
            uint64_t g0 = b0 >> gshift, g1 = b1 >> gshift;
            gra[ng++] = g0;
            if (g1 != g0)
                gra[ng++] = g1;
            if (rs.last) {
                touch(&rs, g0);
                if (g1 != g0)
                    touch(&rs, g1);
            }
            if (i < n) {
                if (i == n - 1)
                    e_last = e;
                prev_e = e;
                e += step;
                if (e >= n)
                    e -= n;
            }
        }
        acc->requests += 1;
        acc->sectors += sm_sort_distinct(sec, ns);
        acc->lines += sm_sort_distinct(lin, nl);
        unsigned dg = sm_sort_distinct(gra, ng);
        if (!rs.last)
            rs.fetched += dg;
        acc->bytes_used += (double)sm_sort_distinct(elems, lanes) * elem;
    }
    acc->dram_granules += rs.fetched;
    /* Distinct bytes over the kernel: the multiples of g = gcd(stride, n)
     * below n, n/g of them, all reached once threads >= n/g. */
    {
        uint64_t g = gcd_u64(step ? step : n, n), period = n / g;
        acc->unique_bytes += (double)(threads < period ? threads : period) * elem;
    }
    free(rs.last);
    free(rs.lline);
    free(rs.pre);
    return 0;
oom:
    free(rs.last);
    free(rs.lline);
    free(rs.pre);
    set_err(err, errlen, "out of memory for the sweep table");
    return -1;
}

static void finish(sm_prediction *p, const stream_acc *acc, unsigned G)
{
    p->l1_requests = acc->requests;
    p->l1_sectors = acc->sectors;
    p->lines = acc->lines;
    p->l2_sectors = acc->sectors;
    p->dram_sectors = acc->dram_granules * (G / SM_SECTOR_BYTES);
    p->bytes_used = acc->bytes_used;
    p->sectors_per_request = acc->requests > 0 ? acc->sectors / acc->requests : 0;
    p->sector_util = acc->sectors > 0 ? acc->bytes_used / (acc->sectors * SM_SECTOR_BYTES) : 0;
    p->unique_bytes = acc->unique_bytes;
    p->dram_util = p->dram_sectors > 0 ? acc->unique_bytes / (p->dram_sectors * SM_SECTOR_BYTES) : 0;
}

static int check_cfg(const sm_config *cfg, char *err, size_t errlen)
{
    if (!cfg) {
        set_err(err, errlen, "no configuration");
        return -1;
    }
    if (!sm_granule_ok(cfg->granule_bytes)) {
        set_err(err, errlen, "DRAM granularity %u B is not 32, 64 or 128", cfg->granule_bytes);
        return -1;
    }
    if (cfg->n_floats < 4) {
        set_err(err, errlen, "N = %llu is too small (at least 4 floats)",
                (unsigned long long)cfg->n_floats);
        return -1;
    }
    if (cfg->n_floats > (1ull << 40)) {
        set_err(err, errlen, "N = %llu is too large for this model",
                (unsigned long long)cfg->n_floats);
        return -1;
    }
    if (cfg->l2_bytes == 0) {
        set_err(err, errlen, "L2 size must be positive");
        return -1;
    }
    return 0;
}

int sm_predict_strided(uint64_t n_elems, unsigned elem_bytes, const sm_config *cfg,
                       sm_prediction *out, char *err, size_t errlen)
{
    if (check_cfg(cfg, err, errlen))
        return -1;
    if (elem_bytes != 4 && elem_bytes != 8 && elem_bytes != 16) {
        set_err(err, errlen, "element size %u B is not 4, 8 or 16", elem_bytes);
        return -1;
    }
    if (cfg->stride == 0) {
        set_err(err, errlen, "stride must be at least 1");
        return -1;
    }
    if (n_elems == 0) {
        set_err(err, errlen, "no elements");
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->kernel = elem_bytes == 16 ? SM_STRIDED_FLOAT4 : SM_STRIDED;
    out->elem_bytes = elem_bytes;
    out->stride = cfg->stride;
    out->threads = launched(cfg, n_elems);
    out->warps = (out->threads + SM_WARP_LANES - 1) / SM_WARP_LANES;
    out->exact = 1;
    stream_acc acc = { 0 };
    if (walk_strided(n_elems, out->threads, cfg->stride, elem_bytes, cfg->offset_bytes, cfg,
                     &acc, err, errlen))
        return -1;
    finish(out, &acc, cfg->granule_bytes);
    return 0;
}

/*
 * The a[c[i]] part of both gathers, enumerated exactly: c[i] is what the
 * device's init kernel stores (ro_perm(i, n, ro_perm_half_bits(n), seed) for
 * random_access, i for nondiverging; src/lib/patterns.h), so every warp's 32
 * addresses are known.  Per request: the distinct sectors, lines and
 * granules of its lanes (sorted once, then counted by adjacent comparison).
 *
 * DRAM under SM_REUSE_LRU: a granule's first touch is compulsory; a re-touch
 * hits when the LRU stack distance since its last touch, in 128 B lines,
 * is below the capacity in lines.  The distance is the c lines read in the
 * gap (one new line per warp: c is a coalesced stream read once) plus the
 * distinct lines of a among the T a-line touches of the gap, taken as
 * La (1 - (1 - 1/La)^T) with La the lines of a (touches of a random
 * permutation's lines are close to independent and uniform).  The gaps
 * themselves (T and the warps) are exact.
 */
static int predict_gather(const sm_config *cfg, uint64_t n, uint64_t threads, int random,
                          stream_acc *acc, char *err, size_t errlen)
{
    const unsigned G = cfg->granule_bytes, gshift = log2u(G);
    const uint64_t off = cfg->offset_bytes;
    const uint32_t half = ro_perm_half_bits(n);
    const uint64_t ngran = (off + n * 4 + G - 1) / G + 1;
    const double La = ceil((double)(off % SM_LINE_BYTES + n * 4) / SM_LINE_BYTES);
    const double cap = (double)(cfg->l2_bytes / SM_LINE_BYTES);
    const double log_keep = log1p(-1 / La); /* ln(1 - 1/La) */
    /* Per granule: the warp (+1, 0 = never) and the a-line touch count of
     * its last touch, side by side so that a touch costs one cache miss. */
    typedef struct { uint32_t warp, t; } last_touch;
    last_touch *last = NULL;
    if (cfg->reuse == SM_REUSE_LRU || cfg->reuse == SM_REUSE_ALL) {
        last = calloc(ngran, sizeof *last);
        if (!last) {
            set_err(err, errlen, "out of memory for %llu granules", (unsigned long long)ngran);
            return -1;
        }
    }
    const uint64_t jlast = random ? ro_perm(n - 1, n, half, cfg->seed) : n - 1;
    uint64_t t_lines = 0; /* a-line touches so far (per request, distinct) */
    double fetched = 0;
    uint64_t b[SM_WARP_LANES];
    uint64_t w = 0;
    for (uint64_t base = 0; base < threads; base += SM_WARP_LANES, w++) {
        unsigned lanes = threads - base < SM_WARP_LANES ? (unsigned)(threads - base)
                                                        : SM_WARP_LANES;
        for (unsigned l = 0; l < lanes; l++) {
            uint64_t i = base + l;
            uint64_t j = i >= n ? jlast : random ? ro_perm(i, n, half, cfg->seed) : i;
            b[l] = off + 4 * j;
        }
        sm_sort_distinct(b, lanes); /* sorts: sectors, lines, granules are now monotone */
        if (last) /* the 32 granules are scattered over ngran: fetch them early */
            for (unsigned l = 0; l < lanes; l++)
                __builtin_prefetch(&last[b[l] >> gshift], 1);
        unsigned ns = 1, nl = 1, ng = 1, nu = 1;
        for (unsigned l = 1; l < lanes; l++) {
            nu += b[l] != b[l - 1];
            ns += (b[l] >> 5) != (b[l - 1] >> 5);
            nl += (b[l] >> 7) != (b[l - 1] >> 7);
            ng += (b[l] >> gshift) != (b[l - 1] >> gshift);
        }
        acc->requests += 1;
        acc->sectors += ns;
        acc->lines += nl;
        acc->bytes_used += 4.0 * nu;
        if (!last) {
            fetched += ng;
            continue;
        }
        /* A granule touched again in the same request was deduplicated
         * above; one touched by this warp's earlier lanes cannot be. */
        for (unsigned l = 0; l < lanes; l++) {
            uint64_t x = b[l] >> gshift;
            if (l > 0 && x == (b[l - 1] >> gshift))
                continue;
            last_touch *lt = &last[x];
            if (lt->warp == 0) {
                fetched += 1;
            } else if (cfg->reuse == SM_REUSE_LRU) {
                /* The gap's c lines (one per warp) come first: when they
                 * alone exceed the capacity, no need for the exp. */
                double dist = (double)(w + 1 - lt->warp);
                if (dist <= cap)
                    dist += La * -expm1((double)(t_lines - lt->t) * log_keep);
                if (dist > cap)
                    fetched += 1;
            }
            lt->warp = (uint32_t)(w + 1);
            lt->t = (uint32_t)t_lines;
        }
        t_lines += nl;
    }
    acc->dram_granules += fetched;
    acc->unique_bytes += (double)n * 4; /* both read every element of a once */
    free(last);
    return 0;
}

int sm_predict(sm_kernel k, const sm_config *cfg, sm_prediction *out, char *err, size_t errlen)
{
    if (check_cfg(cfg, err, errlen))
        return -1;
    if ((unsigned)k >= SM_KERNEL_COUNT) {
        set_err(err, errlen, "unknown kernel %d", (int)k);
        return -1;
    }
    sm_config c = *cfg;
    const uint64_t N = cfg->n_floats;
    switch (k) {
    case SM_STRIDED:
        return sm_predict_strided(N, 4, &c, out, err, errlen);
    case SM_STRIDED_FLOAT4:
        return sm_predict_strided(N / 4, 16, &c, out, err, errlen);
    case SM_BASELINE:
    case SM_FLOAT4:
        c.stride = 1;
        if (sm_predict_strided(k == SM_FLOAT4 ? N / 4 : N, k == SM_FLOAT4 ? 16 : 4, &c, out,
                               err, errlen))
            return -1;
        out->kernel = k;
        return 0;
    case SM_NONDIVERGING:
    case SM_RANDOM_ACCESS: {
        if (c.index_bytes != 4 && c.index_bytes != 8) {
            set_err(err, errlen, "index size %u B is not 4 or 8", c.index_bytes);
            return -1;
        }
        memset(out, 0, sizeof *out);
        out->kernel = k;
        out->elem_bytes = 4;
        out->stride = 1;
        out->threads = launched(&c, N);
        out->warps = (out->threads + SM_WARP_LANES - 1) / SM_WARP_LANES;
        out->exact = 1;
        stream_acc acc = { 0 };
        /* c[i]: coalesced, its own allocation (aligned, no offset). */
        if (walk_strided(N, out->threads, 1, c.index_bytes, 0, &c, &acc, err, errlen))
            return -1;
        if (predict_gather(&c, N, out->threads, k == SM_RANDOM_ACCESS, &acc, err, errlen))
            return -1;
        finish(out, &acc, c.granule_bytes);
        return 0;
    }
    default:
        break;
    }
    set_err(err, errlen, "unknown kernel");
    return -1;
}
