/* par.c - see par.h. */
#define _POSIX_C_SOURCE 200809L
#include "par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

unsigned par_cores(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > (long)PAR_MAX_THREADS ? PAR_MAX_THREADS : (unsigned)n;
}

typedef struct par_loop {
    atomic_size_t next;
    size_t n;
    void (*fn)(void *, size_t);
    void *ctx;
} par_loop;

static void *worker(void *arg)
{
    par_loop *l = arg;
    for (size_t i; (i = atomic_fetch_add(&l->next, 1)) < l->n;) l->fn(l->ctx, i);
    return NULL;
}

void par_for(size_t n, unsigned threads, void (*fn)(void *ctx, size_t i), void *ctx)
{
    if (threads == 0) threads = par_cores();
    if (threads > PAR_MAX_THREADS) threads = PAR_MAX_THREADS;
    if (threads > n) threads = (unsigned)n;
    par_loop l = {.n = n, .fn = fn, .ctx = ctx};
    atomic_init(&l.next, 0);
    pthread_t t[PAR_MAX_THREADS];
    int started[PAR_MAX_THREADS] = {0};
    for (unsigned k = 1; k < threads; k++) started[k] = pthread_create(&t[k], NULL, worker, &l) == 0;
    worker(&l);
    for (unsigned k = 1; k < threads; k++)
        if (started[k]) pthread_join(t[k], NULL);
}
