/* parallel.c - eng_parallel_check (engine.h): the CPU reference on every
 * core (par.h).  Single-threaded, validating N = 1e8 took most of a run's
 * wall time. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

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

uint64_t eng_parallel_check(uint64_t n, uint64_t (*fn)(void *, uint64_t, uint64_t, uint64_t *),
                            void *ctx, uint64_t *first_bad)
{
    const unsigned nt = n < 65536 ? 1 : par_cores();
    check_loop c = {.fn = fn, .ctx = ctx};
    for (unsigned t = 0; t < nt; t++)
        c.s[t] = (slice){.lo = n * t / nt, .hi = n * (t + 1) / nt};
    par_for(nt, nt, run, &c);
    uint64_t bad = 0;
    *first_bad = UINT64_MAX;
    for (unsigned t = 0; t < nt; t++) {
        bad += c.s[t].bad;
        if (c.s[t].first < *first_bad) *first_bad = c.s[t].first;
    }
    return bad;
}

void *eng_host_alloc(size_t bytes)
{
    void *p = NULL;
    if (cudaMallocHost(&p, bytes) == cudaSuccess) return p;
    cudaGetLastError();   /* no page-locked memory: the pageable kind */
    return malloc(bytes);
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
