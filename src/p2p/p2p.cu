/*
 * p2p.cu - the bandwidth kernels of ./p2p (p2p.h): a coalesced read and a
 * copy whose source may be another GPU's memory.  The read is readonly's
 * float4 pattern (one 16-byte load per thread per trip of a grid-stride
 * loop), its words summed so the loads stay live; the copy moves 16 bytes
 * per thread per trip.  What they move over NVLink or PCIe is the host's
 * business (src/p2p/main.c): these only load and store.
 */
#include <stdint.h>

#include "p2p.h"
#include "engine.h"

extern "C" __global__ void p2p_fill_kernel(uint32_t *buf, uint64_t n32)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n32; i += step) buf[i] = P2P_WORD(i);
}

extern "C" __global__ void p2p_read_kernel(const uint4 *__restrict__ src, uint64_t n16, unsigned long long *sum)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    unsigned long long acc = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += step) {
        const uint4 v = src[i];
        acc += (unsigned long long)v.x + v.y + v.z + v.w;
    }
    /* a warp's sum, one atomic per warp */
    for (int o = 16; o; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(sum, acc);
}

extern "C" __global__ void p2p_copy_kernel(uint4 *__restrict__ dst, const uint4 *__restrict__ src, uint64_t n16)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += step) dst[i] = src[i];
}

extern "C" void p2p_fill(uint32_t *d_buf, uint64_t n32, void *stream)
{
    p2p_fill_kernel<<<1024, 256, 0, (cudaStream_t)stream>>>(d_buf, n32);
    ENG_CUDA(cudaGetLastError());
}

extern "C" void p2p_read(const void *d_src, uint64_t n16, unsigned long long *d_sum, unsigned blocks,
                         unsigned threads, void *stream)
{
    p2p_read_kernel<<<blocks, threads, 0, (cudaStream_t)stream>>>((const uint4 *)d_src, n16, d_sum);
    ENG_CUDA(cudaGetLastError());
}

extern "C" void p2p_copy(void *d_dst, const void *d_src, uint64_t n16, unsigned blocks, unsigned threads,
                         void *stream)
{
    p2p_copy_kernel<<<blocks, threads, 0, (cudaStream_t)stream>>>((uint4 *)d_dst, (const uint4 *)d_src, n16);
    ENG_CUDA(cudaGetLastError());
}
