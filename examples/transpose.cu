/*
 * transpose.cu - an n x n float matrix transpose, naive against a 32 x 32
 * shared-memory tile, one element a thread (32 x 32 blocks).  The naive
 * kernel's stores stride by n floats; the tiled one stores whole rows.
 * Region "load" in each: the global load of the element.  Two logs.
 *   ./transpose [PREFIX]   (writes PREFIX_naive.bin, PREFIX_tiled.bin;
 *                           default PREFIX transpose)
 */
#include "example.h"
#include <string.h>

struct args { int n; const float *in; float *out; int tiled; };

template <class W> __global__ void transpose_naive(int n, const float *in, float *out, W wl)
{
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    const float *p = warplat_pin(in + (size_t)y * n + x);
    warplat_t t = warplat_begin(wl);
    const float v = *p;
    warplat_end(wl, 0, t, v);
    out[(size_t)x * n + y] = v;
}

template <class W> __global__ void transpose_tiled(int n, const float *in, float *out, W wl)
{
    __shared__ float tile[32][33];                 /* +1: no bank conflicts */
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    const float *p = warplat_pin(in + (size_t)y * n + x);
    warplat_t t = warplat_begin(wl);
    const float v = *p;
    warplat_end(wl, 0, t, v);
    tile[threadIdx.y][threadIdx.x] = v;
    __syncthreads();
    const int ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
    out[(size_t)oy * n + ox] = tile[threadIdx.x][threadIdx.y];
}

static int launch(args *a, warplat_dev d, int probed)
{
    const dim3 grid(a->n / 32, a->n / 32), block(32, 32);
    if (a->tiled && probed) transpose_tiled<<<grid, block>>>(a->n, a->in, a->out, d);
    else if (a->tiled) transpose_tiled<<<grid, block>>>(a->n, a->in, a->out, warplat_off());
    else if (probed) transpose_naive<<<grid, block>>>(a->n, a->in, a->out, d);
    else transpose_naive<<<grid, block>>>(a->n, a->in, a->out, warplat_off());
    return (int)cudaGetLastError();
}
static int launch_clean(void *u, warplat_dev d) { return launch((args *)u, d, 0); }
static int launch_probed(void *u, warplat_dev d) { return launch((args *)u, d, 1); }

int main(int argc, char **argv)
{
    example_need_gpu("transpose");
    const int n = 8192;
    const size_t bytes = (size_t)n * n * sizeof(float);
    float *in = (float *)malloc(bytes), *out = (float *)malloc(bytes);
    if (!in || !out) { fprintf(stderr, "transpose: out of memory\n"); return 1; }
    for (size_t i = 0; i < (size_t)n * n; i++) in[i] = (float)(i % 1000003);
    float *d_in, *d_out;
    CK(cudaMalloc(&d_in, bytes));
    CK(cudaMalloc(&d_out, bytes));
    CK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
    const char *prefix = argc > 1 ? argv[1] : "transpose";
    for (int tiled = 0; tiled < 2; tiled++) {
        args a = {n, d_in, d_out, tiled};
        warplat_options o;
        warplat_options_init(&o);
        o.kernel = tiled ? "transpose_tiled" : "transpose_naive";
        o.blocks = (uint64_t)(n / 32) * (n / 32);
        o.threads_per_block = 1024;
        o.kernel_fn = tiled ? (const void *)transpose_tiled<warplat_dev>
                            : (const void *)transpose_naive<warplat_dev>;
        o.useful_bytes = o.bytes_written = (double)bytes;
        warplat_region(&o, "load", 128);
        char log[1024];
        snprintf(log, sizeof log, "%s_%s.bin", prefix, tiled ? "tiled" : "naive");
        CK(cudaMemset(d_out, 0, bytes));
        example_profile(log, &o, launch_clean, launch_probed, &a);
        CK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
        size_t bad = 0;
        for (size_t y = 0; y < (size_t)n; y++)
            for (size_t x = 0; x < (size_t)n; x++) bad += out[x * n + y] != in[y * n + x];
        if (bad) { fprintf(stderr, "%s: %zu elements misplaced\n", o.kernel, bad); return 1; }
        printf("%s: %d x %d, every element where the CPU puts it\n", o.kernel, n, n);
    }
    return 0;
}
