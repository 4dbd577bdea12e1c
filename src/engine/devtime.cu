/* devtime.cu - the engine's one kernel: read %globaltimer on the device, the
 * base against which the probes' 32-bit global-timer words are unwrapped. */
#include "engine.h"
#include "probe.cuh"

static __global__ void eng_globaltimer_kernel(uint64_t *out) { *out = probe_globaltimer(); }

extern "C" cudaError_t eng_device_globaltimer(uint64_t *ns)
{
    uint64_t *d = NULL;
    cudaError_t e = cudaMalloc(&d, sizeof *d);
    if (e != cudaSuccess) return e;
    eng_globaltimer_kernel<<<1, 1>>>(d);
    e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaMemcpy(ns, d, sizeof *ns, cudaMemcpyDeviceToHost);
    cudaFree(d);
    return e;
}
