/*
 * warplat.c - the host side of the public probe API (include/warplat/warplat.h).
 *
 * Plain C against the CUDA runtime API: the user's kernels are launched by
 * the user's own functions, so this file needs no nvcc.  What it shares with
 * the experiment engine (src/engine/measure.c): the interleaved timing with
 * CUDA events and medians (stats.h), the probe expansion and the SM clock
 * measured from the probes (warplog.h, probeset.h), the device facts
 * (devinfo.h) and the log writer (warplog_writer_*).  Unlike the engine it
 * never exits and keeps everything in the handle.
 */
#define _POSIX_C_SOURCE 200809L
#include "warplat/warplat.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "devinfo.h"
#include "probeset.h"
#include "stats.h"
#include "warplog.h"

WARPLOG_STATIC_ASSERT(sizeof(warp_probe) == 16, "a probe is the 4 words warplat.cuh stores");
WARPLOG_STATIC_ASSERT(WARPLAT_MAX_REGIONS == WARPLOG_MAX_REGIONS, "region limits agree");
WARPLOG_STATIC_ASSERT(WARPLAT_REGION_NAME_MAX + 1 == WARPLOG_REGION_NAME_BYTES, "name sizes agree");

struct warplat {
    char path[1024];
    char err[512];
    warplat_options o;
    char experiment[32], kernel[32], config[32];
    warplog_header dev;        /* device facts (devinfo_fill) */
    uint32_t K;                /* sampling of the last timing */
    uint32_t K_min;            /* the densest K: the buffer is sized for it */
    uint32_t wpb;
    uint32_t blocks_per_sm;
    warp_probe *d_probes;      /* device */
    uint64_t nprobes_max;      /* slots for K_min */
    warp_probe *probes;        /* host copy of the last probed launch */
    uint64_t nprobes;          /* slots for K */
    double clean_ms[3], probed_ms[3]; /* median, min, max */
    double overhead_pct;
    unsigned reps;
    int timed;
};

/* The open handles: warplat_close refuses one that is not here (closed
 * twice, or never opened) instead of freeing it again.  A handful are open
 * at once in any program; past the table's size a handle is not tracked,
 * and its second close is the caller's bug as before. */
#define OPEN_MAX 256
static struct {
    pthread_mutex_t lock;
    const warplat *h[OPEN_MAX];
} open_handles = {PTHREAD_MUTEX_INITIALIZER, {0}};

static void handle_add(const warplat *w)
{
    pthread_mutex_lock(&open_handles.lock);
    for (int i = 0; i < OPEN_MAX; i++)
        if (!open_handles.h[i]) {
            open_handles.h[i] = w;
            break;
        }
    pthread_mutex_unlock(&open_handles.lock);
}

/* Remove w from the table: 1 when it was there (or the table was full when
 * it opened: untracked), 0 when it is not an open handle. */
static int handle_take(const warplat *w)
{
    int found = 0, used = 0;
    pthread_mutex_lock(&open_handles.lock);
    for (int i = 0; i < OPEN_MAX; i++) {
        if (open_handles.h[i]) used++;
        if (open_handles.h[i] == w) {
            open_handles.h[i] = NULL;
            found = 1;
        }
    }
    pthread_mutex_unlock(&open_handles.lock);
    return found || used == OPEN_MAX;
}

static const char *const MESSAGES[] = {
    [WARPLAT_OK] = "no error",
    [WARPLAT_EINVAL] = "an argument or option is out of range",
    [WARPLAT_ENODEV] = "no usable CUDA device",
    [WARPLAT_ECUDA] = "a CUDA call failed",
    [WARPLAT_ENOMEM] = "out of host memory",
    [WARPLAT_ELAUNCH] = "a launch function returned an error",
    [WARPLAT_ENODATA] = "nothing was measured: call warplat_time first, and check that the "
                        "probed launch passes its warplat_dev to the kernel",
    [WARPLAT_EIO] = "the log could not be written",
};

const char *warplat_strerror(int code)
{
    if (code < 0 || (size_t)code >= sizeof MESSAGES / sizeof MESSAGES[0] || !MESSAGES[code])
        return "unknown warplat error code";
    return MESSAGES[code];
}

static int fail(warplat *w, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(warplat *w, int code, const char *fmt, ...)
{
    if (w) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->err, sizeof w->err, fmt, ap);
        va_end(ap);
    }
    return code;
}

#define CU(w, call) do {                                                               \
        cudaError_t e_ = (call);                                                       \
        if (e_ != cudaSuccess)                                                         \
            return fail((w), WARPLAT_ECUDA, "%s failed: %s", #call, cudaGetErrorString(e_)); \
    } while (0)

void warplat_options_init(warplat_options *o)
{
    memset(o, 0, sizeof *o);
    o->experiment = "user";
    o->kernel = "kernel";
    o->config = "";
    o->max_overhead_pct = 2.0;
    o->zlib_level = 1;
}

/* The names' rule is the log reader's own (warplog_name_check): a name the
 * API writes is one every reader takes, and no other. */
static int good_name(const char *s, size_t max)
{
    return warplog_name_check("name", s, max, NULL, 0) == 0;
}

int warplat_region(warplat_options *o, const char *name, uint32_t bytes_per_warp)
{
    if (!o || o->nregions >= WARPLAT_MAX_REGIONS || !good_name(name, WARPLAT_REGION_NAME_MAX))
        return WARPLAT_EINVAL;
    /* regions are told apart by name (the report, plot_latency --region) */
    for (uint32_t i = 0; i < o->nregions; i++)
        if (strcmp(o->region_names[i], name) == 0) return WARPLAT_EINVAL;
    snprintf(o->region_names[o->nregions], sizeof o->region_names[0], "%s", name);
    o->region_bytes_per_warp[o->nregions] = bytes_per_warp;
    o->nregions++;
    return WARPLAT_OK;
}

/* Probe slots for K: sampled blocks x warps per block x regions. */
static uint64_t slots(const warplat *w, uint32_t K)
{
    return warplog_sampled_blocks(w->o.blocks, K, w->o.sample_offset & (K - 1)) * w->wpb *
           w->o.nregions;
}

/* K auto: the sparsest power of two that keeps 2 recorded blocks per SM. */
static uint32_t auto_K(uint64_t blocks, int sm_count)
{
    const uint64_t need = 2 * (uint64_t)(sm_count > 0 ? sm_count : 1);
    uint32_t k = 1;
    while (k < (1u << 20) && blocks / ((uint64_t)k * 2) >= need) k *= 2;
    return k;
}

static int check_options(warplat *w, const warplat_options *o)
{
    if (o->blocks < 1 || o->blocks > UINT32_MAX)
        return fail(w, WARPLAT_EINVAL, "options.blocks is %llu; it must be 1 .. 2^32-1",
                    (unsigned long long)o->blocks);
    if (o->threads_per_block < 1 || o->threads_per_block > 1024)
        return fail(w, WARPLAT_EINVAL, "options.threads_per_block is %u; it must be 1 .. 1024",
                    o->threads_per_block);
    if (o->nregions < 1 || o->nregions > WARPLAT_MAX_REGIONS)
        return fail(w, WARPLAT_EINVAL, "no region: name at least one with warplat_region");
    const uint32_t K = o->sample_blocks;
    if (K & (K - 1))
        return fail(w, WARPLAT_EINVAL, "options.sample_blocks is %u; it must be a power of two "
                    "(1 = every block) or 0 (auto)", K);
    if (!(o->max_overhead_pct >= 0 && o->max_overhead_pct <= 1000))
        return fail(w, WARPLAT_EINVAL, "options.max_overhead_pct must be 0 .. 1000");
    if (o->zlib_level < 1 || o->zlib_level > 9)
        return fail(w, WARPLAT_EINVAL, "options.zlib_level is %d; it must be 1 .. 9", o->zlib_level);
    for (const char *c = o->config ? o->config : ""; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            return fail(w, WARPLAT_EINVAL, "options.config holds a control character");
    const char *names[3] = {o->experiment, o->kernel, o->config};
    for (int i = 0; i < 3; i++)
        if (!names[i] || strlen(names[i]) > WARPLOG_NAME_MAX ||
            (i < 2 && !good_name(names[i], WARPLOG_NAME_MAX)))
            return fail(w, WARPLAT_EINVAL, "options.%s must be %s31 characters of [A-Za-z0-9_.-]%s",
                        i == 0 ? "experiment" : i == 1 ? "kernel" : "config", i < 2 ? "1 to " : "at most ",
                        i < 2 ? ", not starting with '.'" : "");
    /* options filled by hand rather than by warplat_region: the same rule */
    for (uint32_t i = 0; i < o->nregions; i++) {
        char what[32];
        snprintf(what, sizeof what, "region %u", i);
        if (warplog_name_check(what, o->region_names[i], WARPLAT_REGION_NAME_MAX, w->err, sizeof w->err))
            return WARPLAT_EINVAL;
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(o->region_names[j], o->region_names[i]) == 0)
                return fail(w, WARPLAT_EINVAL, "regions %u and %u are both named \"%s\"; each region "
                            "needs a name of its own", j, i, o->region_names[i]);
    }
    return WARPLAT_OK;
}

int warplat_open(warplat **out, const char *path, const warplat_options *o, char *err,
                 size_t errlen)
{
    if (err && errlen) err[0] = 0;
    if (out) *out = NULL;
    if (!out || !path || !*path || strlen(path) + 5 > sizeof ((warplat *)0)->path || !o) {
        if (err && errlen)
            snprintf(err, errlen, "warplat_open: a NULL argument, or a log path that is empty "
                     "or longer than 1018 bytes");
        return WARPLAT_EINVAL;
    }
    warplat *w = calloc(1, sizeof *w);
    if (!w) {
        if (err && errlen) snprintf(err, errlen, "warplat_open: out of host memory");
        return WARPLAT_ENOMEM;
    }
    int rc = check_options(w, o);
    if (rc) goto bad;
    w->o = *o;
    snprintf(w->path, sizeof w->path, "%s", path);
    snprintf(w->experiment, sizeof w->experiment, "%s", o->experiment);
    snprintf(w->kernel, sizeof w->kernel, "%s", o->kernel);
    snprintf(w->config, sizeof w->config, "%s", o->config);
    w->o.experiment = w->experiment;
    w->o.kernel = w->kernel;
    w->o.config = w->config;
    w->wpb = (o->threads_per_block + 31) / 32;
    if (devinfo_select(o->device, w->err, sizeof w->err) != 0) {
        rc = WARPLAT_ENODEV;
        goto bad;
    }
    warplog_header_init(&w->dev);
    if (devinfo_fill(o->device, &w->dev, w->err, sizeof w->err) != 0) {
        rc = WARPLAT_ECUDA;
        goto bad;
    }
    if (o->kernel_fn) {
        int bps = 0;
        cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &bps, o->kernel_fn, (int)o->threads_per_block, o->smem_bytes);
        if (e != cudaSuccess) {
            rc = fail(w, WARPLAT_ECUDA, "the occupancy API refused options.kernel_fn: %s",
                      cudaGetErrorString(e));
            goto bad;
        }
        w->blocks_per_sm = bps > 0 && bps <= (int)WARPLOG_MAX_BLOCKS_PER_SM ? (uint32_t)bps : 0;
    }
    w->K_min = o->sample_blocks ? o->sample_blocks : auto_K(o->blocks, w->dev.sm_count);
    w->K = w->K_min;
    w->nprobes_max = slots(w, w->K_min);
    cudaError_t e = cudaMalloc((void **)&w->d_probes, w->nprobes_max * sizeof(warp_probe));
    if (e != cudaSuccess) {
        rc = fail(w, WARPLAT_ECUDA, "cudaMalloc of %llu probes: %s",
                  (unsigned long long)w->nprobes_max, cudaGetErrorString(e));
        goto bad;
    }
    handle_add(w);
    *out = w;
    return WARPLAT_OK;
bad:
    if (err && errlen) snprintf(err, errlen, "%s", w->err);
    free(w);
    return rc;
}

warplat_dev warplat_view(const warplat *w)
{
    warplat_dev d;
    memset(&d, 0, sizeof d);
    if (!w) return d;
    d.probes = (uint32_t *)w->d_probes;
    d.shift = 0;
    while ((1u << d.shift) < w->K) d.shift++;
    d.mask = w->K - 1;
    d.offset = w->o.sample_offset & d.mask;
    d.nregions = w->o.nregions;
    d.blocks = (uint32_t)w->o.blocks;   /* check_options: at most 2^32 - 1 */
    d.wpb = w->wpb;
    return d;
}

const char *warplat_error(const warplat *w) { return w ? w->err : "no handle"; }

/* One launch between two events; its time in ms. */
static int timed(warplat *w, warplat_launch_fn fn, void *user, warplat_dev dev, cudaEvent_t e0,
                 cudaEvent_t e1, double *ms, const char *which)
{
    float t = 0;
    CU(w, cudaEventRecord(e0, 0));
    int lrc = fn(user, dev);
    cudaError_t last = cudaGetLastError();
    if (lrc != 0 || last != cudaSuccess)
        return fail(w, WARPLAT_ELAUNCH, "the %s launch failed: %s", which,
                    cudaGetErrorString(lrc ? (cudaError_t)lrc : last));
    CU(w, cudaEventRecord(e1, 0));
    CU(w, cudaEventSynchronize(e1));
    CU(w, cudaEventElapsedTime(&t, e0, e1));
    *ms = t;
    return WARPLAT_OK;
}

static void summarize(double *t, size_t n, double out[3])
{
    out[0] = stats_median_inplace(t, n);   /* sorts t */
    out[1] = t[0];
    out[2] = t[n - 1];
}

/* reps interleaved pairs at sampling w->K; fills the medians and overhead. */
static int measure(warplat *w, warplat_launch_fn clean, warplat_launch_fn probed, void *user,
                   double *tc, double *tp, cudaEvent_t e0, cudaEvent_t e1)
{
    warplat_dev off;
    memset(&off, 0, sizeof off);
    const warplat_dev dev = warplat_view(w);
    w->nprobes = slots(w, w->K);
    CU(w, cudaMemset(w->d_probes, 0xff, w->nprobes * sizeof(warp_probe)));
    double warm;
    int rc = timed(w, clean, user, off, e0, e1, &warm, "clean (warm-up)");
    if (!rc) rc = timed(w, probed, user, dev, e0, e1, &warm, "probed (warm-up)");
    for (unsigned r = 0; !rc && r < w->reps; r++) {
        rc = timed(w, clean, user, off, e0, e1, &tc[r], "clean");
        if (!rc) rc = timed(w, probed, user, dev, e0, e1, &tp[r], "probed");
    }
    if (rc) return rc;
    summarize(tc, w->reps, w->clean_ms);
    summarize(tp, w->reps, w->probed_ms);
    w->overhead_pct = 100.0 * (w->probed_ms[0] / w->clean_ms[0] - 1.0);
    return WARPLAT_OK;
}

int warplat_time(warplat *w, warplat_launch_fn clean, warplat_launch_fn probed, void *user,
                 unsigned reps)
{
    if (!w) return WARPLAT_EINVAL;
    if (!clean || !probed) return fail(w, WARPLAT_EINVAL, "both launch functions are needed");
    if (reps < 1 || reps > 100000) return fail(w, WARPLAT_EINVAL, "reps is %u; it must be 1 .. 100000", reps);
    w->timed = 0;
    w->reps = reps;
    double *tc = malloc(reps * sizeof *tc), *tp = malloc(reps * sizeof *tp);
    cudaEvent_t e0 = NULL, e1 = NULL;
    int rc = WARPLAT_OK;
    if (!tc || !tp) rc = fail(w, WARPLAT_ENOMEM, "out of host memory for %u timings", reps);
    if (!rc && (cudaEventCreate(&e0) != cudaSuccess || cudaEventCreate(&e1) != cudaSuccess))
        rc = fail(w, WARPLAT_ECUDA, "cudaEventCreate failed");
    w->K = w->K_min;
    while (!rc) {
        rc = measure(w, clean, probed, user, tc, tp, e0, e1);
        if (rc || w->o.sample_blocks || w->overhead_pct <= w->o.max_overhead_pct ||
            w->o.blocks / ((uint64_t)w->K * 2) < 1)
            break;
        w->K *= 2;   /* K auto: sparser while the probes cost too much */
    }
    if (!rc) {
        free(w->probes);
        w->probes = malloc(w->nprobes * sizeof *w->probes);
        if (!w->probes) rc = fail(w, WARPLAT_ENOMEM, "out of host memory for the probes");
    }
    if (!rc) {
        cudaError_t e = cudaMemcpy(w->probes, w->d_probes, w->nprobes * sizeof *w->probes,
                                   cudaMemcpyDeviceToHost);
        if (e != cudaSuccess)
            rc = fail(w, WARPLAT_ECUDA, "copying the probes back: %s", cudaGetErrorString(e));
    }
    if (!rc && probeset_unwritten(w->probes, w->nprobes) == w->nprobes)
        rc = fail(w, WARPLAT_ENODATA, "the probed launch wrote no probe: does it pass its "
                  "warplat_dev to the kernel, and does lane 0 run warplat_end?");
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    free(tc);
    free(tp);
    w->timed = rc == WARPLAT_OK;
    return rc;
}

int warplat_result(const warplat *w, double *clean_ms, double *probed_ms, double *overhead_pct,
                   uint32_t *sample_blocks)
{
    if (!w) return WARPLAT_EINVAL;
    if (!w->timed) return WARPLAT_ENODATA;
    if (clean_ms) *clean_ms = w->clean_ms[0];
    if (probed_ms) *probed_ms = w->probed_ms[0];
    if (overhead_pct) *overhead_pct = w->overhead_pct;
    if (sample_blocks) *sample_blocks = w->K;
    return WARPLAT_OK;
}

/* The written probes, compacted in place (launch order kept); their slot
 * index gives the warp and the region.  Returns how many; idx[i] = slot. */
static uint64_t compact(warp_probe *p, uint64_t n, uint64_t *idx)
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (p[i].block == PROBE_UNWRITTEN_BLOCK) continue;
        p[k] = p[i];
        idx[k++] = i;
    }
    return k;
}

/* The earliest probe's timer, unwrapped around the first probe: the base
 * from which every probe's 32-bit timer word is a forward distance (the
 * engine reads it on the device before the launch; here the probes say it). */
static uint64_t timer_base(const warp_probe *p, uint64_t n)
{
    if (!n) return 0;
    int64_t min_d = 0;
    for (uint64_t i = 1; i < n; i++) {
        const int64_t d = (int32_t)(p[i].gtimer_lo - p[0].gtimer_lo);
        if (d < min_d) min_d = d;
    }
    return (1ull << 32) + (uint64_t)((int64_t)p[0].gtimer_lo + min_d);
}

static int write_log(warplat *w)
{
    uint64_t *idx = malloc((w->nprobes ? w->nprobes : 1) * sizeof *idx);
    warp_record *rec = malloc((w->nprobes ? w->nprobes : 1) * sizeof *rec);
    uint32_t *ref = calloc(256, sizeof *ref);
    uint8_t *seen = calloc(256, 1);
    int rc = WARPLAT_OK;
    if (!idx || !rec || !ref || !seen) {
        rc = fail(w, WARPLAT_ENOMEM, "out of host memory writing %s", w->path);
        goto out;
    }
    const uint64_t n = compact(w->probes, w->nprobes, idx);
    const uint64_t base = timer_base(w->probes, n);
    for (uint64_t i = 0; i < n; i++) {
        warplog_expand_probe(&w->probes[i], idx[i], w->wpb, w->o.nregions, base, ref, seen, &rec[i]);
        rec[i].region = (uint8_t)(idx[i] % w->o.nregions);
    }
    warplog_header h = w->dev;
    h.version = WARPLOG_VERSION_REGIONS;
    h.record_count = n;
    snprintf(h.experiment, sizeof h.experiment, "%s", w->experiment);
    snprintf(h.kernel, sizeof h.kernel, "%s", w->kernel);
    snprintf(h.config, sizeof h.config, "%s", w->config);
    snprintf(h.record_covers, sizeof h.record_covers, "warplat_begin .. warplat_end of a region");
    h.blocks = w->o.blocks;
    h.smem_bytes = w->o.smem_bytes;
    h.warps_per_block = w->wpb;
    h.threads_per_block = w->o.threads_per_block;
    h.blocks_per_sm = w->blocks_per_sm;
    h.reps = w->reps;
    h.loads_per_warp = 1;
    h.sm_clock_measured_MHz = probeset_clock_MHz(w->probes, n, base, 20000);
    h.kernel_ms = w->probed_ms[0];
    h.kernel_ms_min = w->probed_ms[1];
    h.kernel_ms_max = w->probed_ms[2];
    h.clean_kernel_ms = w->clean_ms[0];
    h.clean_kernel_ms_min = w->clean_ms[1];
    h.clean_kernel_ms_max = w->clean_ms[2];
    h.overhead_pct = w->overhead_pct;
    h.useful_bytes = w->o.useful_bytes;
    h.bytes_written = w->o.bytes_written;
    h.bw_GBps = (w->o.useful_bytes + w->o.bytes_written) / (w->clean_ms[0] * 1e-3) / 1e9;
    h.gtimer_base_ns = base;
    h.sample_blocks = w->K;
    h.sample_offset = w->o.sample_offset & (w->K - 1);
    h.sampled_blocks = warplog_sampled_blocks(w->o.blocks, w->K, h.sample_offset);
    h.records_per_warp = w->o.nregions;
    h.region_count = w->o.nregions;
    for (uint32_t r = 0; r < w->o.nregions; r++) {
        snprintf(h.region_names[r], sizeof h.region_names[r], "%s", w->o.region_names[r]);
        h.region_bytes_per_warp[r] = w->o.region_bytes_per_warp[r];
    }
    char err[512];
    warplog_writer *wr = warplog_writer_open(w->path, &h, w->o.zlib_level, err, sizeof err);
    if (!wr || warplog_writer_put(wr, rec, n, err, sizeof err) != 0) {
        if (wr) warplog_writer_abort(wr);
        rc = fail(w, WARPLAT_EIO, "%s", err);
        goto out;
    }
    if (warplog_writer_close(wr, err, sizeof err) != 0) rc = fail(w, WARPLAT_EIO, "%s", err);
out:
    free(idx);
    free(rec);
    free(ref);
    free(seen);
    return rc;
}

int warplat_close(warplat *w, char *err, size_t errlen)
{
    if (err && errlen) err[0] = 0;
    if (!w || !handle_take(w)) {
        if (err && errlen)
            snprintf(err, errlen, "warplat_close: %s", w ? "not an open handle (closed already?)"
                                                          : "a NULL handle");
        return WARPLAT_EINVAL;
    }
    int rc = w->timed ? write_log(w)
                      : fail(w, WARPLAT_ENODATA, "no log written to %s: nothing was measured "
                             "(warplat_time did not succeed)", w->path);
    if (err && errlen) snprintf(err, errlen, "%s", rc ? w->err : "");
    if (w->d_probes) cudaFree(w->d_probes);
    free(w->probes);
    free(w);
    return rc;
}
