/*
 * latency.cu - the latency ladder: load-to-use latency of L1, L2 and DRAM,
 * measured by one thread chasing pointers through a random cycle.
 *
 * What it measures.  The chain is an array of 8-byte global addresses, one
 * per "line" of `spacing` bytes; line i holds the address of line succ[i],
 * where succ is a pseudo-random cycle built on the host (seeded, cycle.h).  One
 * thread loads p = *p over and over: every load's address is the previous
 * load's result, so no two loads overlap and the time per load is the full
 * latency of whichever level of the hierarchy holds the working set.  The
 * random order defeats any prefetcher and any DRAM page / TLB locality, and a
 * spacing of at least one 128-byte line keeps every visit in its own cache
 * line and its own DRAM fetch.
 *
 * Sweeping the working set from a few KiB to GiB gives the classic ladder of
 * plateaus (Saavedra & Smith's memory-hierarchy microbenchmark; on GPUs Wong
 * et al., ISPASS 2010, and Jia et al., "Dissecting the NVIDIA Volta GPU
 * Architecture via Microbenchmarking", 2018).  The DRAM plateau is the
 * reference lower bound of a load's latency for the other experiments.
 *
 * Variants (one kernel each, so the choice is visible in SASS):
 *   chase_ca   ld.global.ca.u64: cached in L1 and L2 (the default)
 *   chase_cg   ld.global.cg.u64: cached in L2 only, L1 bypassed
 *
 * The timing loop is LATENCY_UNROLL dependent loads written out by hand under
 * `#pragma unroll 1`, so `cuobjdump -sass -fun chase_ca ./latency` shows
 * between the two clock reads nothing but the chase: eight LDGs, each using
 * the previous LDG's destination register as its address, plus the loop
 * counter and branch, which are independent of the chase and issue while the
 * warp waits for the load.
 */
#include <stdint.h>

#include "latency.h"
#include "probe.cuh"
#include "engine.h"

/* One dependent load.  Inline PTX so that the cache operator is exactly the
 * one asked for (ld.global.ca or ld.global.cg); `volatile` so that nvcc can
 * neither drop a load nor merge the chase into anything else. */
template <int KIND>
static __device__ __forceinline__ uint64_t chase_load(uint64_t addr)
{
    uint64_t next;
    if (KIND == LATENCY_LOAD_CA)
        asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(next) : "l"(addr));
    else
        asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(next) : "l"(addr));
    return next;
}

/*
 * Consume the chased pointer: the first instruction that reads the loaded
 * register, so the warp stalls there until the load has returned.  It is a
 * store to shared memory (probe_consume_shared) because ptxas moves an
 * arithmetic use across the end clock read but not a memory instruction.
 */
template <int KIND>
static __device__ __forceinline__ void chase_body(const void *chain, uint64_t start_line,
                                                  uint32_t spacing_bytes, uint64_t warmup_loads,
                                                  uint32_t loads, uint32_t reps, uint32_t zero,
                                                  latency_result *out)
{
    /* One warp at most; only lane 0 chases, the others leave at once. */
    if (threadIdx.x != 0)
        return;

    /* The chain holds global-space addresses (see chain_build), so the chase
     * feeds each loaded value straight back as the next ld.global address. */
    const uint64_t base = (uint64_t)__cvta_generic_to_global(chain);
    uint64_t p = base + start_line * (uint64_t)spacing_bytes;

    /* Warm-up: walk the chain untimed, so the levels that can hold the
     * working set hold it (the host passes min(lines, cap) loads). */
#pragma unroll 1
    for (uint64_t i = 0; i < warmup_loads; i++)
        p = chase_load<KIND>(p);
    /* Wait for the warm-up's last load here, not inside the first timed
     * repetition. */
    probe_consume_shared((uint32_t)p);
    uint32_t sink = (uint32_t)p ^ zero;

    const uint64_t gt_begin = probe_globaltimer();
    const uint64_t clk_begin = probe_clock64();
#pragma unroll 1
    for (uint32_t r = 0; r < reps; r++) {
        const uint64_t t0 = probe_clock64();
#pragma unroll 1
        for (uint32_t k = loads / LATENCY_UNROLL; k != 0; k--) {
            /* LATENCY_UNROLL (8) dependent loads. */
            p = chase_load<KIND>(p);
            p = chase_load<KIND>(p);
            p = chase_load<KIND>(p);
            p = chase_load<KIND>(p);
            p = chase_load<KIND>(p);
            p = chase_load<KIND>(p);
            p = chase_load<KIND>(p);
            p = chase_load<KIND>(p);
        }
        /* Consume the last loaded value before the end clock: the warp stalls
         * here until it has arrived. */
        probe_consume_shared((uint32_t)p);
        const uint64_t t1 = probe_clock64();
        out->cycles[r] = t1 - t0;
        sink += (uint32_t)p ^ zero;
    }
    const uint64_t clk_end = probe_clock64();
    const uint64_t gt_end = probe_globaltimer();

    out->clk_begin = clk_begin;
    out->clk_end = clk_end;
    out->gtimer_begin_ns = gt_begin;
    out->gtimer_end_ns = gt_end;
    out->final_offset_bytes = p - base;   /* the host checks it against its own walk */
    out->sink = sink;
    out->smid = probe_smid();
}

static_assert(LATENCY_UNROLL == 8, "chase_body writes out exactly 8 loads per trip");

extern "C" __global__ void __launch_bounds__(32)
chase_ca(const void *chain, uint64_t start_line, uint32_t spacing_bytes, uint64_t warmup_loads,
         uint32_t loads, uint32_t reps, uint32_t zero, latency_result *out)
{
    chase_body<LATENCY_LOAD_CA>(chain, start_line, spacing_bytes, warmup_loads, loads, reps, zero,
                                 out);
}

extern "C" __global__ void __launch_bounds__(32)
chase_cg(const void *chain, uint64_t start_line, uint32_t spacing_bytes, uint64_t warmup_loads,
         uint32_t loads, uint32_t reps, uint32_t zero, latency_result *out)
{
    chase_body<LATENCY_LOAD_CG>(chain, start_line, spacing_bytes, warmup_loads, loads, reps, zero,
                                 out);
}

/* Expand the host's successor array into the chain of addresses. */
extern "C" __global__ void chain_build(void *chain, const uint32_t *succ, uint64_t lines,
                                       uint32_t spacing_bytes)
{
    const uint64_t base = (uint64_t)__cvta_generic_to_global(chain);
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < lines; i += step) {
        uint64_t *slot = (uint64_t *)((char *)chain + i * spacing_bytes);
        *slot = base + (uint64_t)succ[i] * spacing_bytes;
    }
}

/* Read every 16 bytes of buf through the L2 (ld.global.cg): whatever the
 * L2 held before is evicted by lines of buf.  The sum goes to *sink so that
 * no load is dead. */
extern "C" __global__ void l2_sweep(const uint4 *buf, uint64_t n, unsigned *sink)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    unsigned acc = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        const uint4 v = __ldcg(buf + i);
        acc += v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u)   /* almost never: the store exists, so the loads do */
        *sink = acc;
}

/* ------------------------------------------------------------ launchers */

extern "C" void latency_flush_l2(const void *d_buf, uint64_t bytes, unsigned *d_sink)
{
    const unsigned threads = 256;
    l2_sweep<<<4096, threads>>>((const uint4 *)d_buf, bytes / sizeof(uint4), d_sink);
    ENG_CUDA(cudaGetLastError());
}

extern "C" void latency_build_chain(void *d_chain, const uint32_t *d_succ, uint64_t lines,
                                    uint32_t spacing_bytes)
{
    const unsigned threads = 256;
    uint64_t blocks = (lines + threads - 1) / threads;
    if (blocks > 4096) blocks = 4096;   /* grid-stride loop covers the rest */
    if (blocks == 0) blocks = 1;
    chain_build<<<(unsigned)blocks, threads>>>(d_chain, d_succ, lines, spacing_bytes);
    ENG_CUDA(cudaGetLastError());
}

extern "C" int latency_prefer_l1(void)
{
    /* The chase uses no shared memory: give the unified L1/shared array to L1. */
    ENG_CUDA(cudaFuncSetAttribute(chase_ca, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    ENG_CUDA(cudaFuncSetAttribute(chase_cg, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    return 0;
}

extern "C" void latency_chase(enum latency_load kind, unsigned threads, const void *d_chain,
                              uint64_t start_line, uint32_t spacing_bytes, uint64_t warmup_loads,
                              uint32_t loads, uint32_t reps, latency_result *d_out)
{
    if (kind == LATENCY_LOAD_CA)
        chase_ca<<<1, threads>>>(d_chain, start_line, spacing_bytes, warmup_loads, loads, reps, 0u,
                                 d_out);
    else
        chase_cg<<<1, threads>>>(d_chain, start_line, spacing_bytes, warmup_loads, loads, reps, 0u,
                                 d_out);
    ENG_CUDA(cudaGetLastError());
}

extern "C" const char *latency_kernel_name(enum latency_load kind)
{
    return kind == LATENCY_LOAD_CA ? "chase_ca" : "chase_cg";
}
