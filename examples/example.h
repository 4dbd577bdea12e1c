/*
 * example.h - what the four examples share: a checked CUDA call, and one
 * profiling session (open, time clean against probed, print, write the log).
 * Build an example against an installed warplat (docs/your-kernel.md):
 *   nvcc -arch=sm_90 -o spmv spmv.cu $(pkg-config --cflags --libs warplat)
 */
#ifndef WARPLAT_EXAMPLE_H
#define WARPLAT_EXAMPLE_H
#include <stdio.h>
#include <stdlib.h>
#include <warplat/warplat.cuh>

#define CK(call) do {                                                               \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,            \
                    cudaGetErrorString(e_));                                        \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

/* A GPU or a clear sentence and exit 1 (an example is no test: no "skip"). */
static void example_need_gpu(const char *prog)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "%s: no CUDA device: this example runs your kernel on a GPU\n", prog);
        exit(1);
    }
}

/* Time clean against probed (20 pairs), print the result, write the log. */
static void example_profile(const char *log, const warplat_options *o, warplat_launch_fn clean,
                            warplat_launch_fn probed, void *user)
{
    char err[512];
    warplat *w = NULL;
    double c_ms, p_ms, ovh;
    uint32_t K;
    if (warplat_open(&w, log, o, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", o->kernel, err);
        exit(1);
    }
    if (warplat_time(w, clean, probed, user, 20)) {
        fprintf(stderr, "%s: %s\n", o->kernel, warplat_error(w));
        warplat_close(w, NULL, 0);
        exit(1);
    }
    warplat_result(w, &c_ms, &p_ms, &ovh, &K);
    printf("%s: clean %.4f ms, probed %.4f ms, overhead %+.2f %%, 1 block in %u recorded\n",
           o->kernel, c_ms, p_ms, ovh, K);
    if (warplat_close(w, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", o->kernel, err);
        exit(1);
    }
    printf("%s: log written to %s\n", o->kernel, log);
}
#endif
