/* parallel.c - eng_parallel_check and eng_check_device (engine.h): the CPU
 * reference on every core (par.h), and device results copied back in chunks
 * that overlap the check.  Single-threaded, validating N = 1e8 took most of
 * a run's wall time; copied back whole and then checked, the ceiling's 2 GB
 * outputs still took 0.15-0.4 s a configuration on the H100. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include <cuda_runtime.h>
#include <stdint.h>

#include "engine.h"
#include "par.h"

typedef struct slice {
    uint64_t lo, hi, bad, first;
} slice;

typedef struct check_loop {
    uint64_t (*fn)(void *, uint64_t, uint64_t, uint64_t *);
    void *ctx;
    slice s[PAR_MAX_THREADS];
} check_loop;

static void run(void *arg, size_t t)
{
    check_loop *c = arg;
    slice *s = &c->s[t];
    s->first = UINT64_MAX;
    s->bad = c->fn(c->ctx, s->lo, s->hi, &s->first);
}

/* fn over [lo, hi) on every core */
static uint64_t parallel_range(uint64_t lo, uint64_t hi, uint64_t (*fn)(void *, uint64_t, uint64_t, uint64_t *),
                               void *ctx, uint64_t *first_bad)
{
    const uint64_t n = hi - lo;
    const unsigned nt = n < 65536 ? 1 : par_cores();
    check_loop c = {.fn = fn, .ctx = ctx};
    for (unsigned t = 0; t < nt; t++)
        c.s[t] = (slice){.lo = lo + n * t / nt, .hi = lo + n * (t + 1) / nt};
    par_for(nt, nt, run, &c);
    uint64_t bad = 0;
    *first_bad = UINT64_MAX;
    for (unsigned t = 0; t < nt; t++) {
        bad += c.s[t].bad;
        if (c.s[t].first < *first_bad) *first_bad = c.s[t].first;
    }
    return bad;
}

uint64_t eng_parallel_check(uint64_t n, uint64_t (*fn)(void *, uint64_t, uint64_t, uint64_t *),
                            void *ctx, uint64_t *first_bad)
{
    return parallel_range(0, n, fn, ctx, first_bad);
}

/* The two page-locked halves eng_check_device copies into, grown to the
 * largest chunk asked for and kept until the process ends (a batch's lines
 * and a family's configurations reuse them: page-locking 512 MB costs about
 * as much as copying it). */
static struct {
    void *buf[2];
    size_t bytes;
    cudaStream_t stream;
    cudaEvent_t done[2];
} stage;

static cudaError_t stage_ready(size_t bytes)
{
    cudaError_t e;
    if (!stage.stream) {
        if ((e = cudaStreamCreateWithFlags(&stage.stream, cudaStreamNonBlocking)) != cudaSuccess) return e;
        for (int b = 0; b < 2; b++)
            if ((e = cudaEventCreateWithFlags(&stage.done[b], cudaEventDisableTiming)) != cudaSuccess) return e;
    }
    if (stage.bytes >= bytes) return cudaSuccess;
    for (int b = 0; b < 2; b++) {
        eng_host_free(stage.buf[b]);
        stage.buf[b] = eng_host_alloc(bytes);
        if (!stage.buf[b]) {
            stage.bytes = 0;
            return cudaErrorMemoryAllocation;
        }
    }
    stage.bytes = bytes;
    return cudaSuccess;
}

uint64_t eng_check_device(const void *dev, uint64_t n, size_t elem,
                          uint64_t (*fn)(void *, uint64_t, uint64_t, uint64_t *), void *ctx,
                          uint64_t *first_bad, cudaError_t *err)
{
    const uint64_t per = ENG_CHECK_CHUNK / elem;   /* items a chunk */
    const uint64_t nchunks = (n + per - 1) / per;
    uint64_t total = 0;
    *first_bad = UINT64_MAX;
    *err = cudaSuccess;
    if (n == 0) return 0;
    /* the results are complete: the check launch has finished */
    if ((*err = cudaDeviceSynchronize()) != cudaSuccess) return 0;
    if ((*err = stage_ready((size_t)((n < per ? n : per) * elem))) != cudaSuccess) return 0;
    const char *src = (const char *)dev;
#define CHUNK_ITEMS(k) ((k) + 1 < nchunks ? per : n - (k) * per)
    *err = cudaMemcpyAsync(stage.buf[0], src, CHUNK_ITEMS(0) * elem, cudaMemcpyDeviceToHost, stage.stream);
    if (*err == cudaSuccess) *err = cudaEventRecord(stage.done[0], stage.stream);
    for (uint64_t k = 0; k < nchunks && *err == cudaSuccess; k++) {
        const int b = (int)(k & 1);
        if ((*err = cudaEventSynchronize(stage.done[b])) != cudaSuccess) break;
        if (k + 1 < nchunks) {   /* the next chunk comes back while this one is checked */
            *err = cudaMemcpyAsync(stage.buf[1 - b], src + (k + 1) * per * elem, CHUNK_ITEMS(k + 1) * elem,
                                   cudaMemcpyDeviceToHost, stage.stream);
            if (*err == cudaSuccess) *err = cudaEventRecord(stage.done[1 - b], stage.stream);
            if (*err != cudaSuccess) break;
        }
        eng_chunk ch = {stage.buf[b], k * per, ctx};
        uint64_t f;
        total += parallel_range(k * per, k * per + CHUNK_ITEMS(k), fn, &ch, &f);
        if (f < *first_bad) *first_bad = f;
    }
#undef CHUNK_ITEMS
    if (*err != cudaSuccess) cudaStreamSynchronize(stage.stream);   /* no copy left in flight */
    return total;
}

void *eng_host_alloc(size_t bytes)
{
    void *p = NULL;
    if (cudaMallocHost(&p, bytes) == cudaSuccess) return p;
    cudaGetLastError();   /* no page-locked memory: the pageable kind */
    return malloc(bytes);
}

int eng_host_room(size_t bytes)
{
    const long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0) return 0;
    return (double)bytes <= 0.5 * (double)pages * (double)size;
}

int eng_inject_wrong_result(void)
{
    static unsigned calls;
    const char *k = getenv("WARPLAT_INJECT_WRONG_RESULT");
    return k && *k && (unsigned)atoi(k) == calls++;
}

void eng_host_free(void *p)
{
    unsigned flags;
    if (!p) return;
    if (cudaHostGetFlags(&flags, p) == cudaSuccess) {
        cudaFreeHost(p);
        return;
    }
    cudaGetLastError();
    free(p);
}
