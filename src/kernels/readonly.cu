/*
 * readonly.cu - the readonly kernel family: how long does one global load take,
 * warp by warp, and what bandwidth follows from it?  Reproduces the "readonly"
 * experiments of the original study (shared/background/003): each thread loads
 * one element, the warp's lane 0 records the SM clock before the load and after
 * the first use of the loaded value, plus the SM id and the global timer.
 *
 * Variants (one kernel each, so Nsight Compute can select them by name):
 *   readonly_baseline         float a[i]                    coalesced, 128 B/warp
 *   readonly_float4           float4 a4[i]                  LDG.E.128, 512 B/warp
 *   readonly_nondiverging     a[c[i]], c[i] = i             two dependent loads
 *   readonly_random_access    a[c[i]], c random permutation diverging gather
 *   readonly_strided          a[(stride*i) % N]             sectors grow with stride
 *   readonly_strided_float4   a4[(stride*i) % (N/4)]
 *
 * The timed region holds only the load(s) and the first use: index arithmetic
 * that does not depend on loaded data (the 64-bit modulo of the strided
 * variants, the clamp of the tail) is done before the first clock read and
 * pinned there with ro_pin(); the checksum (a warp shuffle reduction) and the
 * stores come after the last clock read.  docs/sass.md shows the SASS.
 *
 * Built twice: WARP_INSTRUMENT=1 (probes) and 0 (no probes: the twin used to
 * check that instrumentation does not change what it measures, and for ncu).
 */
#include "readonly.h"
#include "patterns.h"
#include "probe.cuh"

#ifndef WARP_INSTRUMENT
#define WARP_INSTRUMENT 1
#endif

/* An empty volatile asm that takes p in and out: the compiler must have p
 * computed before this point, and volatile asms keep their relative order, so
 * the address arithmetic stays ahead of the first clock read.  The asm hides
 * where p points, so we tell the compiler again that it is global memory;
 * without that it emits a generic LD instead of LDG. */
template <typename T>
static __device__ __forceinline__ const T *ro_pin(const T *p)
{
    asm volatile("" : "+l"(p));
    __builtin_assume(__isGlobal(p));
    return p;
}

#if WARP_INSTRUMENT
#define TIMED_BEGIN()                          \
    const uint64_t gt0_ = probe_globaltimer(); \
    const uint32_t sm_ = probe_smid();         \
    const uint64_t t0_ = probe_clock64()
#define TIMED_END() const uint64_t t1_ = probe_clock64()
#define TIMED_ARGS t0_, t1_, gt0_, sm_
#else
#define TIMED_BEGIN() (void)0
#define TIMED_END() (void)0
#define TIMED_ARGS 0, 0, 0, 0
#endif

/* After the timed region: reduce the warp's checksum, lane 0 stores it and the probe. */
static __device__ __forceinline__ void ro_finish(float v, const ro_args &A, uint64_t t0,
                                                 uint64_t t1, uint64_t gt0, uint32_t sm)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    const uint64_t gw = (uint64_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if ((threadIdx.x & 31) == 0) {
#if WARP_INSTRUMENT
        probe_store(&A.probes[gw], t0, t1, gt0, sm, v); /* the checksum rides in the probe */
#else
        A.warp_sum[gw] = v;
        (void)t0; (void)t1; (void)gt0; (void)sm;
#endif
    }
}

/* Threads past the end load the last element (no branch in the timed region)
 * and contribute 0 to the checksum. */
static __device__ __forceinline__ uint64_t ro_clamp(uint64_t i, uint64_t items)
{
    return i < items ? i : items - 1;
}

extern "C" __global__ void readonly_baseline(ro_args A)
{
    const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const float *p = ro_pin(A.a + ro_clamp(i, A.items));
    TIMED_BEGIN();
    float v = *p;
    v = probe_use_f32(v);
    TIMED_END();
    ro_finish(i < A.items ? v : 0.f, A, TIMED_ARGS);
}

extern "C" __global__ void readonly_float4(ro_args A)
{
    const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const float4 *p = ro_pin(reinterpret_cast<const float4 *>(A.a) + ro_clamp(i, A.items));
    TIMED_BEGIN();
    const float4 q = *p;
    /* one LDG.E.128 has one scoreboard: waiting for .x waits for all four */
    const float x = probe_use_f32(q.x);
    TIMED_END();
    ro_finish(i < A.items ? (x + q.y) + (q.z + q.w) : 0.f, A, TIMED_ARGS);
}

/* Both gathers: the timed region covers the load of c[i] and the dependent
 * load of a[c[i]] (2 x 128 B per warp when coalesced), as in the original. */
static __device__ __forceinline__ void ro_gather(const ro_args &A)
{
    const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t *pc = ro_pin(A.c + ro_clamp(i, A.items));
    TIMED_BEGIN();
    const uint32_t j = *pc;
    float v = A.a[j];
    v = probe_use_f32(v);
    TIMED_END();
    ro_finish(i < A.items ? v : 0.f, A, TIMED_ARGS);
}

extern "C" __global__ void readonly_nondiverging(ro_args A) { ro_gather(A); }
extern "C" __global__ void readonly_random_access(ro_args A) { ro_gather(A); }

extern "C" __global__ void readonly_strided(ro_args A)
{
    const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const float *p = ro_pin(A.a + (A.stride * ro_clamp(i, A.items)) % A.items);
    TIMED_BEGIN();
    float v = *p;
    v = probe_use_f32(v);
    TIMED_END();
    ro_finish(i < A.items ? v : 0.f, A, TIMED_ARGS);
}

extern "C" __global__ void readonly_strided_float4(ro_args A)
{
    const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const float4 *p = ro_pin(reinterpret_cast<const float4 *>(A.a) +
                             (A.stride * ro_clamp(i, A.items)) % A.items);
    TIMED_BEGIN();
    const float4 q = *p;
    const float x = probe_use_f32(q.x);
    TIMED_END();
    ro_finish(i < A.items ? (x + q.y) + (q.z + q.w) : 0.f, A, TIMED_ARGS);
}

/* ------------------------------------------------------------ helpers */

__global__ void ro_init_a_kernel(float *a, uint64_t n)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        a[i] = ro_value(i);
}

__global__ void ro_init_c_kernel(uint32_t *c, uint64_t n, int random, uint32_t half, uint64_t seed)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        c[i] = (uint32_t)(random ? ro_perm(i, n, half, seed) : i);
}

__global__ void ro_globaltimer_kernel(uint64_t *out) { *out = probe_globaltimer(); }

typedef void (*ro_kernel_fn)(ro_args);
static const ro_kernel_fn ro_kernels[RO_NVARIANTS] = {
    readonly_baseline, readonly_float4, readonly_nondiverging,
    readonly_random_access, readonly_strided, readonly_strided_float4,
};
static const char *const ro_names[RO_NVARIANTS] = {
    "readonly_baseline", "readonly_float4", "readonly_nondiverging",
    "readonly_random_access", "readonly_strided", "readonly_strided_float4",
};

extern "C" const char *ro_kernel_name(ro_variant v)
{
    return (unsigned)v < RO_NVARIANTS ? ro_names[v] : "?";
}

extern "C" int ro_instrumented(void) { return WARP_INSTRUMENT; }

extern "C" cudaError_t ro_configure(ro_variant v, uint32_t smem_bytes, int carveout_pct)
{
    const void *f = (const void *)ro_kernels[v];
    cudaError_t e = cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)smem_bytes);
    if (e != cudaSuccess) return e;
    return cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, carveout_pct);
}

extern "C" cudaError_t ro_occupancy(ro_variant v, int threads_per_block, uint32_t smem_bytes,
                                    int *blocks_per_sm)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        blocks_per_sm, (const void *)ro_kernels[v], threads_per_block, smem_bytes);
}

extern "C" cudaError_t ro_launch(ro_variant v, uint64_t blocks, int threads_per_block,
                                 uint32_t smem_bytes, const ro_args *args, cudaStream_t s)
{
    ro_kernels[v]<<<(unsigned)blocks, threads_per_block, smem_bytes, s>>>(*args);
    return cudaGetLastError();
}

extern "C" cudaError_t ro_init_a(float *a, uint64_t n, cudaStream_t s)
{
    ro_init_a_kernel<<<4096, 256, 0, s>>>(a, n);
    return cudaGetLastError();
}

extern "C" cudaError_t ro_init_c(uint32_t *c, uint64_t n, int random, uint64_t seed, cudaStream_t s)
{
    ro_init_c_kernel<<<4096, 256, 0, s>>>(c, n, random, ro_perm_half_bits(n), seed);
    return cudaGetLastError();
}

extern "C" cudaError_t ro_globaltimer(uint64_t *out)
{
    uint64_t *d = NULL;
    cudaError_t e = cudaMalloc(&d, sizeof *d);
    if (e != cudaSuccess) return e;
    ro_globaltimer_kernel<<<1, 1>>>(d);
    e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaMemcpy(out, d, sizeof *out, cudaMemcpyDeviceToHost);
    cudaFree(d);
    return e;
}
