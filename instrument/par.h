/*
 * par.h - the toolkit's one thread helper: run a loop's items on the host's
 * cores.  Used by the log writer (deflate of chunks), the probe set's
 * summaries (src/lib/probeset.c) and the engine's validation
 * (src/engine/parallel.c).  Plain C11 and POSIX threads.
 */
#ifndef WARPLAT_PAR_H
#define WARPLAT_PAR_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most threads par_for starts, the caller's included. */
#define PAR_MAX_THREADS 64u

/* The host's online cores, at least 1 and at most PAR_MAX_THREADS. */
unsigned par_cores(void);

/*
 * fn(ctx, i) for every i in [0, n), on at most `threads` threads (0: one per
 * core, par_cores), the calling thread one of them, and never more threads
 * than items.  Items are handed out one at a time in increasing order, so
 * items of uneven cost balance; fn must therefore not depend on which
 * thread runs an item or in what order items finish.  Returns when every
 * item is done.  A thread that cannot be started costs only speed: the
 * threads that run take its items.
 */
void par_for(size_t n, unsigned threads, void (*fn)(void *ctx, size_t i), void *ctx);

#ifdef __cplusplus
}
#endif
#endif
