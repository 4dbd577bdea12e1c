/*
 * engine.cuh - what a family's kernels use from the engine: the arguments of
 * sampling and of the clean twin's "use", the timed-region probes, and the
 * macro that builds a variant's three kernels from one body.
 *
 * A body is a template over the mode:
 *
 *   template <eng_mode M> static __device__ __forceinline__ void body(const Args &A)
 *   {
 *       ... address arithmetic, pinned with eng_pin() ...
 *       ENG_IF_RECORDING(M, A.E) {             // probe kernel, 1 block in K
 *           ENG_TIMED_BEGIN();                 // timer, SM id, clock
 *           float v = *p;                      // the load(s)
 *           v = probe_use_f32(v);              // ... and the first use
 *           ENG_TIMED_END();                   // clock
 *           ENG_RECORD(A.E);                   // lane 0 stores the probe
 *           eng_consume(A.E, bits(v));
 *           return;
 *       }
 *       float v = *p;                          // every other block: the clean body
 *       if (M == ENG_CHECK) ... store what validation reads ...
 *       else eng_consume(A.E, bits(v));        // keep the load alive
 *   }
 *   ENG_KERNELS(readonly_baseline, body, Args)
 *
 * Blocks that do not record run exactly the clean body after one more
 * instruction (warplog_block_sampled).  Measured on the H100: timing every
 * warp and storing only in recording blocks cost 4-8% at 8+ warps per block
 * (the timer and clock reads and the use lengthen every warp), and a
 * 5-instruction hash before the branch 2-3%.
 *
 * The clean twin keeps its loads alive with eng_consume(): a compare that is
 * never true (no loaded word equals E.never, a bit pattern the inputs never
 * hold) guarding a store.  It costs a compare and a predicated store that
 * never executes: nothing outlives the loads, unlike a checksum reduction or
 * a store per warp, which lengthen every warp's life (Little's law: the warp
 * holds its slot until its stores drain; measured on the H100, 16-22% at 8+
 * warps per block).
 */
#ifndef WARPLAT_ENGINE_CUH
#define WARPLAT_ENGINE_CUH

#include <stdint.h>
#include "engine.h"
#include "probe.cuh"

/* What every family's kernel arguments carry for the engine. */
struct eng_dev {
    warp_probe *probes;   /* probe kernel: one probe per recorded warp (and region) */
    uint32_t mask;        /* K - 1: one block in each group of K records ... */
    uint32_t offset;      /* ... the one at this offset in its group */
    uint32_t shift;       /* log2 K */
    uint32_t never;       /* a 32-bit word the data never holds */
    uint32_t *sink;       /* where a word equal to `never` would go: never written */
};

static inline eng_dev eng_dev_args(const eng_launch *L, uint32_t never, uint32_t *sink)
{
    eng_dev E;
    E.probes = L->probes;
    E.shift = 0;
    while (L->sample && (1u << E.shift) < L->sample) E.shift++;
    E.mask = (1u << E.shift) - 1;
    E.offset = L->sample_offset & E.mask;
    E.never = never;
    E.sink = sink;
    return E;
}

/* Does this block record? (probe kernel only; warplog.h) */
static __device__ __forceinline__ bool eng_records(const eng_dev &E)
{
    return ((blockIdx.x ^ E.offset) & E.mask) == 0;
}

/* The recording path of a body: the probe kernel, in one block of K. */
#define ENG_IF_RECORDING(M, E) if (M == ENG_PROBE && eng_records(E))

/* The clean twin's use of a loaded word. */
static __device__ __forceinline__ void eng_consume(const eng_dev &E, uint32_t bits)
{
    if (bits == E.never) *E.sink = bits;
}

/* Address arithmetic pinned ahead of the first clock read: the probe API's
 * warplat_pin (an empty volatile asm that takes p in and out; it says again
 * that p is global memory, else nvcc emits a generic LD instead of LDG). */
template <typename T>
static __device__ __forceinline__ const T *eng_pin(const T *p) { return warplat_pin(p); }
template <typename T>
static __device__ __forceinline__ T *eng_pin_mut(T *p) { return warplat_pin(p); }

/* The timed region's reads: the probe API's primitives (probe.cuh). */
#define ENG_TIMED_BEGIN()                            \
    const uint64_t eng_gt0_ = probe_globaltimer();   \
    const uint32_t eng_sm_ = probe_smid();           \
    const uint64_t eng_t0_ = probe_clock64()
#define ENG_TIMED_END() const uint64_t eng_t1_ = probe_clock64()

/* Lane 0 stores this warp's probe for region r of rpw. */
static __device__ __forceinline__ void eng_record(const eng_dev &E, uint64_t t0, uint64_t t1,
                                                  uint64_t gt0, uint32_t sm, uint32_t r = 0,
                                                  uint32_t rpw = 1)
{
    if ((threadIdx.x & 31) == 0) {
        const uint64_t idx =
            ((uint64_t)(blockIdx.x >> E.shift) * (blockDim.x >> 5) + (threadIdx.x >> 5)) * rpw + r;
        const uint64_t lat = t1 - t0;
        const uint32_t lat24 = lat > WARP_PROBE_LAT_MAX ? WARP_PROBE_LAT_MAX : (uint32_t)lat;
        *reinterpret_cast<uint4 *>(&E.probes[idx]) =
            make_uint4((uint32_t)t0, lat24 | (sm << 24), (uint32_t)gt0, blockIdx.x);
    }
}
#define ENG_RECORD(E) eng_record((E), eng_t0_, eng_t1_, eng_gt0_, eng_sm_)

/* A warp's sum of v, stored by lane 0 at out[global warp index]: what the
 * CHECK kernels of read-only variants leave for validation. */
static __device__ __forceinline__ void eng_warp_sum_store(float v, float *out)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0)
        out[(uint64_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5)] = v;
}

/* The three kernels of one variant, with names Nsight Compute and cuobjdump
 * can select: NAME (clean twin), NAME_probe, NAME_check. */
#define ENG_KERNELS(NAME, BODY, ARGS)                                                     \
    extern "C" __global__ void NAME(ARGS A) { BODY<ENG_CLEAN>(A); }                       \
    extern "C" __global__ void NAME##_probe(ARGS A) { BODY<ENG_PROBE>(A); }               \
    extern "C" __global__ void NAME##_check(ARGS A) { BODY<ENG_CHECK>(A); }

/* A variant that is timed but not probed (its loads are not what it is
 * about, e.g. a store pattern): no NAME_probe. */
#define ENG_KERNELS_NOPROBE(NAME, BODY, ARGS)                                             \
    extern "C" __global__ void NAME(ARGS A) { BODY<ENG_CLEAN>(A); }                       \
    extern "C" __global__ void NAME##_check(ARGS A) { BODY<ENG_CHECK>(A); }

#define ENG_KERNEL_TRIO(NAME) {(const void *)NAME, (const void *)NAME##_probe, (const void *)NAME##_check}

#endif
