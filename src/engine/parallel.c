/* parallel.c - eng_parallel_check (engine.h): the CPU reference on every
 * core.  Single-threaded, validating N = 1e8 took most of a run's wall time. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>

#include <cuda_runtime.h>
#include <stdint.h>
#include <unistd.h>

#include "engine.h"

typedef struct job {
    pthread_t thread;
    int started;
    uint64_t (*fn)(void *, uint64_t, uint64_t, uint64_t *);
    void *ctx;
    uint64_t lo, hi, bad, first;
} job;

static void *run(void *arg)
{
    job *j = arg;
    j->first = UINT64_MAX;
    j->bad = j->fn(j->ctx, j->lo, j->hi, &j->first);
    return NULL;
}

uint64_t eng_parallel_check(uint64_t n, uint64_t (*fn)(void *, uint64_t, uint64_t, uint64_t *),
                            void *ctx, uint64_t *first_bad)
{
    enum { MAXT = 64 };
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int nt = ncpu < 1 ? 1 : ncpu > MAXT ? MAXT : (int)ncpu;
    if (n < 65536) nt = 1;
    job jobs[MAXT];
    for (int t = 0; t < nt; t++) {
        jobs[t] = (job){.fn = fn, .ctx = ctx, .lo = n * (uint64_t)t / (uint64_t)nt,
                        .hi = n * (uint64_t)(t + 1) / (uint64_t)nt};
        if (t > 0) jobs[t].started = pthread_create(&jobs[t].thread, NULL, run, &jobs[t]) == 0;
        if (t > 0 && !jobs[t].started) run(&jobs[t]);
    }
    run(&jobs[0]);
    uint64_t bad = 0;
    *first_bad = UINT64_MAX;
    for (int t = 0; t < nt; t++) {
        if (jobs[t].started) pthread_join(jobs[t].thread, NULL);
        bad += jobs[t].bad;
        if (jobs[t].first < *first_bad) *first_bad = jobs[t].first;
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
