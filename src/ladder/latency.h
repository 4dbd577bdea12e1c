/*
 * latency.h - the pointer-chase ("latency ladder") kernels: what the host
 * driver src/ladder/main.c may call, and the one struct both sides share.
 *
 * Plain C11: included by gcc (the host driver) and by nvcc (latency.cu), so
 * both agree on every size; no CUDA type appears here.  Every launcher checks
 * the launch (CUDA_CHECK_LAUNCH) and exits 1 with the CUDA error on failure.
 */
#ifndef LATENCY_H
#define LATENCY_H

#include <stdint.h>
#include "warplog.h"   /* WARPLOG_STATIC_ASSERT */

#ifdef __cplusplus
extern "C" {
#endif

/* Timed loads per trip of the timing loop: the loop body is this many
 * dependent loads written out by hand under `#pragma unroll 1`, so the SASS
 * shows exactly LATENCY_UNROLL LDGs, each addressed by the previous one's
 * result, then the loop counter and the branch.  The timed load count must be
 * a multiple of it. */
#define LATENCY_UNROLL   8u
/* Most timed repetitions one launch can record. */
#define LATENCY_MAX_REPS 16u

/* Which load the chase uses: the choice is a different kernel, so it is
 * visible in SASS (cuobjdump -sass -fun chase_ca / chase_cg). */
enum latency_load {
    LATENCY_LOAD_CA = 0,   /* ld.global.ca: cached in L1 and L2 (kernel chase_ca) */
    LATENCY_LOAD_CG = 1    /* ld.global.cg: L2 only, L1 bypassed (kernel chase_cg) */
};

/*
 * What one chase launch writes (one struct in device memory, written by the
 * chasing thread only).  Clocks are SM cycles of the SM in `smid`; the
 * global timer is in ns.  clk_* and gtimer_* are read by the same thread
 * around all timed repetitions, so their ratio is the SM clock during the
 * run: MHz = (clk_end - clk_begin) * 1e3 / (gtimer_end_ns - gtimer_begin_ns).
 */
typedef struct latency_result {
    uint64_t cycles[LATENCY_MAX_REPS]; /* end - start clock of each timed repetition */
    uint64_t clk_begin;                /* %clock64 before the first timed repetition */
    uint64_t clk_end;                  /* %clock64 after the last one */
    uint64_t gtimer_begin_ns;          /* %globaltimer just before clk_begin */
    uint64_t gtimer_end_ns;            /* %globaltimer just after clk_end */
    uint64_t final_offset_bytes;       /* where the chase ended, from the chain's base */
    uint32_t sink;                     /* sum of the consumed values: keeps them live */
    uint32_t smid;                     /* SM that ran the chase */
} latency_result;

WARPLOG_STATIC_ASSERT(sizeof(latency_result) == 8 * LATENCY_MAX_REPS + 5 * 8 + 8,
                      "latency_result layout must match on host and device");

/*
 * Write the chain into d_chain (at least lines * spacing_bytes bytes of
 * device memory): the 8-byte word at line i (offset i * spacing_bytes) gets
 * the global address of line d_succ[i].  d_succ is a device array of `lines`
 * line indices (a cyclic permutation, built on the host).  spacing_bytes is a
 * multiple of 8.  Asynchronous (stream 0); the launch is checked.
 */
void latency_build_chain(void *d_chain, const uint32_t *d_succ, uint64_t lines,
                         uint32_t spacing_bytes);

/*
 * Read `bytes` of d_buf (a multiple of 16; device memory the chase never
 * touches) through the L2 on every SM: what the L2 held, the chain's lines
 * chain_build left there included, is evicted.  d_sink: one device word.
 * Asynchronous (stream 0); the launch is checked.
 */
void latency_flush_l2(const void *d_buf, uint64_t bytes, unsigned *d_sink);

/*
 * Ask for the largest L1 (shared-memory carveout 0 %) for both chase kernels.
 * Returns the carveout asked for, in percent.
 */
int latency_prefer_l1(void);

/*
 * One chase: a single block of `threads` threads (1, or 32 = one warp of
 * which only lane 0 chases).  The chasing thread starts at line start_line,
 * makes warmup_loads untimed dependent loads, then `reps` timed repetitions
 * of `loads` dependent loads each (loads a multiple of LATENCY_UNROLL,
 * reps <= LATENCY_MAX_REPS), continuing along the chain, and writes *d_out.
 * Asynchronous (stream 0); the launch is checked.
 */
void latency_chase(enum latency_load kind, unsigned threads, const void *d_chain,
                   uint64_t start_line, uint32_t spacing_bytes, uint64_t warmup_loads,
                   uint32_t loads, uint32_t reps, latency_result *d_out);

/* "chase_ca" or "chase_cg": the kernel's symbol, for logs and cuobjdump -fun. */
const char *latency_kernel_name(enum latency_load kind);

#ifdef __cplusplus
}
#endif
#endif /* LATENCY_H */
