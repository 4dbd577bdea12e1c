/* devinfo.c - device facts for the log header (see devinfo.h). */
#define _POSIX_C_SOURCE 200809L
#include "devinfo.h"
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cuda_runtime_api.h>

#ifndef WARPLAT_CUDA_ARCH
#define WARPLAT_CUDA_ARCH "unknown"
#endif

double devinfo_peak_GBps(unsigned mem_clock_khz, unsigned bus_width_bits)
{
    /* double data rate: two transfers per memory clock */
    return 2.0 * (double)mem_clock_khz * 1e3 * (double)bus_width_bits / 8.0 / 1e9;
}

void devinfo_no_gpu(cudaError_t e, char *err, size_t errlen)
{
    /* Without a driver the runtime says "CUDA driver version is
     * insufficient for CUDA runtime version", and without a GPU "no
     * CUDA-capable device is detected": both read like a driver problem to
     * someone who simply has neither, so say that plainly, and keep CUDA's
     * words for the one whose driver is there (/proc/driver/nvidia is the
     * loaded kernel module) but too old, or whose GPU is unusable. */
    const int no_driver = e == cudaErrorInsufficientDriver && access("/proc/driver/nvidia/version", F_OK) != 0;
    const char *tail = "; `make report` (the bundled results) and the bin/ tools work without one";
    if (no_driver) set_err(err, errlen, "no NVIDIA GPU or driver found%s", tail);
    else if (e == cudaSuccess || e == cudaErrorNoDevice)
        set_err(err, errlen, "no NVIDIA GPU found (CUDA: %s)%s",
                e == cudaSuccess ? "the driver reports 0 devices" : cudaGetErrorString(e), tail);
    else set_err(err, errlen, "no usable NVIDIA GPU (CUDA: %s)%s", cudaGetErrorString(e), tail);
}

int devinfo_select(int ordinal, char *err, size_t errlen)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        devinfo_no_gpu(e, err, errlen);
        return -1;
    }
    if (ordinal < 0 || ordinal >= n) {
        set_err(err, errlen, "device %d does not exist: this machine has %d CUDA device%s",
                ordinal, n, n == 1 ? "" : "s");
        return -1;
    }
    e = cudaSetDevice(ordinal);
    if (e != cudaSuccess) {
        set_err(err, errlen, "cannot use CUDA device %d: %s", ordinal, cudaGetErrorString(e));
        return -1;
    }
    return 0;
}

#define ATTR(field, attr) do {                                                     \
        int v_ = 0;                                                                \
        cudaError_t e_ = cudaDeviceGetAttribute(&v_, attr, ordinal);               \
        if (e_ != cudaSuccess) {                                                   \
            set_err(err, errlen, "cudaDeviceGetAttribute(%s): %s", #attr,          \
                    cudaGetErrorString(e_));                                       \
            return -1;                                                             \
        }                                                                          \
        h->field = (__typeof__(h->field))v_;                                       \
    } while (0)

int devinfo_fill(int ordinal, warplog_header *h, char *err, size_t errlen)
{
    struct cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, ordinal);
    if (e != cudaSuccess) {
        set_err(err, errlen, "cudaGetDeviceProperties: %s", cudaGetErrorString(e));
        return -1;
    }
    snprintf(h->device_name, sizeof h->device_name, "%.95s", p.name);
    /* the UUID as nvidia-smi prints it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx */
    const unsigned char *u = (const unsigned char *)p.uuid.bytes;
    snprintf(h->device_uuid, sizeof h->device_uuid,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    h->device_ordinal = ordinal;
    ATTR(cc_major, cudaDevAttrComputeCapabilityMajor);
    ATTR(cc_minor, cudaDevAttrComputeCapabilityMinor);
    ATTR(sm_count, cudaDevAttrMultiProcessorCount);
    ATTR(l2_bytes, cudaDevAttrL2CacheSize);
    ATTR(bus_width_bits, cudaDevAttrGlobalMemoryBusWidth);
    ATTR(mem_clock_khz, cudaDevAttrMemoryClockRate);
    ATTR(sm_clock_nominal_khz, cudaDevAttrClockRate);
    ATTR(max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor);
    ATTR(max_smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    ATTR(max_smem_optin_per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin);
    h->reserved_smem_per_block = (uint32_t)p.reservedSharedMemPerBlock;
    h->peak_dram_GBps = devinfo_peak_GBps(h->mem_clock_khz, h->bus_width_bits);
    int dv = 0, rv = 0;
    cudaDriverGetVersion(&dv);
    cudaRuntimeGetVersion(&rv);
    h->driver_version = dv;
    h->runtime_version = rv;

    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(h->date, sizeof h->date, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    h->unix_time_s = (uint64_t)now;
    snprintf(h->host_arch, sizeof h->host_arch, "%s", WARPLAT_CUDA_ARCH);
    return 0;
}
