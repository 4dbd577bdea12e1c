/*
 * cuda_check.h - every CUDA runtime call is checked.  On failure: file:line,
 * the call as written and the runtime's error string on stderr, then exit 1
 * (a runtime failure, per the toolkit's exit-status convention).  Partial
 * logs are never left behind because logs are only renamed into place once
 * complete (warplog_writer_close).
 */
#ifndef CUDA_CHECK_H
#define CUDA_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>

#define CUDA_CHECK(call) do {                                                  \
        cudaError_t e_ = (call);                                               \
        if (e_ != cudaSuccess) {                                               \
            fprintf(stderr, "%s:%d: CUDA error in %s: %s (%s)\n", __FILE__,    \
                    __LINE__, #call, cudaGetErrorString(e_), cudaGetErrorName(e_)); \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

/* After every launch: launch-configuration errors surface here. */
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
#endif
