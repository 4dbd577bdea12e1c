/*
 * devinfo.h - what the toolkit records about the GPU a run used.
 */
#ifndef DEVINFO_H
#define DEVINFO_H
#include <stddef.h>
#include <cuda_runtime_api.h>
#include "warplog.h"

/*
 * Select device `ordinal` after checking one exists.  Returns 0, or -1 with a
 * sentence in err (devinfo_no_gpu's when the machine has none or no driver,
 * "device 3 does not exist: this machine has 1 CUDA device").
 */
int devinfo_select(int ordinal, char *err, size_t errlen);

/* The sentence for "cudaGetDeviceCount found no device" (e its error, or
 * cudaSuccess when it counted 0): "no NVIDIA GPU or driver found" where no
 * driver is loaded, "no NVIDIA GPU found (CUDA: <CUDA's words>)" where the
 * driver counts none, "no usable NVIDIA GPU (CUDA: ...)" otherwise (a
 * driver older than the runtime among them), each followed by "; `make
 * report` (the bundled results) and the bin/ tools work without one". */
void devinfo_no_gpu(cudaError_t e, char *err, size_t errlen);

/*
 * Fill the device and provenance fields of h: name, compute capability, SM
 * count, L2 size, bus width, memory clock, the peak DRAM bandwidth
 * 2 * mem_clock * bus_width / 8 (CUDA 13 removed cudaDeviceProp::memoryClockRate,
 * so these come from cudaDeviceGetAttribute), nominal SM clock, shared-memory
 * limits, driver/runtime versions, date, toolkit version, build arch.
 * Returns 0, or -1 with err filled.
 */
int devinfo_fill(int ordinal, warplog_header *h, char *err, size_t errlen);

/* Peak DRAM bandwidth in GB/s (1e9 B/s) from the memory clock (kHz) and bus width (bits). */
double devinfo_peak_GBps(unsigned mem_clock_khz, unsigned bus_width_bits);
#endif
