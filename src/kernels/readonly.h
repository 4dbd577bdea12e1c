/*
 * readonly.h - host-callable launchers of the readonly kernel family.
 * Host code never launches a kernel itself; it calls these (C linkage, so the
 * host driver is plain C).  Every function returns the CUDA error of the
 * first call that failed, cudaSuccess otherwise; a launch is followed by
 * cudaGetLastError() inside the launcher.
 *
 * The same source builds two ways: WARP_INSTRUMENT=1 (readonly: probes around
 * the timed load, one warp_probe per warp) and WARP_INSTRUMENT=0
 * (readonly_profile: no probes, for Nsight Compute).  Both write the same
 * per-warp checksum, so both are validated the same way.
 */
#ifndef READONLY_KERNELS_H
#define READONLY_KERNELS_H
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "warplog.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ro_variant {
    RO_BASELINE,       /* float a[i], coalesced                          */
    RO_FLOAT4,         /* float4 a4[i], N/4 threads                       */
    RO_NONDIVERGING,   /* a[c[i]], c[i] = i                               */
    RO_RANDOM_ACCESS,  /* a[c[i]], c a random permutation                 */
    RO_STRIDED,        /* float a[(stride * i) % N]                       */
    RO_STRIDED_FLOAT4, /* float4 a4[(stride * i) % (N/4)], N/4 threads    */
    RO_NVARIANTS
} ro_variant;

typedef struct ro_args {
    const float *a;        /* N floats (float4 variants read them as N/4 float4) */
    const uint32_t *c;     /* N indices (gathers only) */
    uint64_t n;            /* N: floats in a */
    uint64_t items;        /* elements the kernel reads: N or N/4 */
    uint64_t stride;       /* strided variants */
    float *warp_sum;       /* one checksum per warp */
    warp_probe *probes;    /* one probe per warp (instrumented build only) */
} ro_args;

/* Name of the CUDA kernel function of v ("readonly_baseline", ...). */
const char *ro_kernel_name(ro_variant v);
/* 1 if this object was built with probes, 0 for the uninstrumented twin. */
int ro_instrumented(void);

/* Opt in to smem_bytes of dynamic shared memory and set the carveout. */
cudaError_t ro_configure(ro_variant v, uint32_t smem_bytes, int carveout_pct);
/* Resident blocks per SM for this block size and shared memory. */
cudaError_t ro_occupancy(ro_variant v, int threads_per_block, uint32_t smem_bytes,
                         int *blocks_per_sm);
cudaError_t ro_launch(ro_variant v, uint64_t blocks, int threads_per_block,
                      uint32_t smem_bytes, const ro_args *args, cudaStream_t s);

/* a[i] = ro_value(i); c[i] = i (perm_seed_or_identity == 0 and identity != 0)
 * or ro_perm(i, n, seed).  c may be NULL. */
cudaError_t ro_init_a(float *a, uint64_t n, cudaStream_t s);
cudaError_t ro_init_c(uint32_t *c, uint64_t n, int random, uint64_t seed, cudaStream_t s);

/* %globaltimer read on the device (a base for unwrapping the probes' low 32 bits). */
cudaError_t ro_globaltimer(uint64_t *out);

#ifdef __cplusplus
}
#endif
#endif
